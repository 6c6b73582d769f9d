"""A position with an incremental Zobrist hash and an incremental material-and-square score.

The rules core does not know about hashing: the board must not pay for it.  Tracked
wraps a core Position on the host and keeps both sums up to date from what a move
changes, as the core itself describes it in `Position.effects(m, buf)` (the list of
(cell, code after) pairs the board's tracker compares with the squares a player has
changed).  The one change a move makes that effects() leaves out, Lippo's §11 Soldiers
on the Fougasse squares (and §12's bonus Soldier, which effects() does include), is read
back from LippoPosition's own undo record after the push.
"""

from __future__ import annotations

import random

from firmware.rules.board import SIZE
from firmware.rules.position import BONUS, Position

from .evaluate import PROFILES, Profile, value_table

_KIND = 19


class Tables:
    """The per-game tables: Zobrist keys and square values, for every code on every cell."""

    def __init__(self, pos: Position) -> None:
        gid = pos.game.id
        self.gid = gid
        self.profile: Profile = PROFILES.get(gid) or PROFILES["chess"]
        rng = random.Random(0x5EED ^ len(gid))
        zob = [rng.getrandbits(63) for _ in range(128 * SIZE)]
        for sq in range(SIZE):
            zob[sq] = 0  # code 0, an empty cell, hashes to nothing
        self.zobrist = zob
        self.value = value_table(pos, self.profile)
        self.black_to_move = rng.getrandbits(63)
        self.lippo = gid == "lippo"
        # The state beside the cells that decides the moves: lippo's flags and owed
        # Soldiers, hundred's and Grosschess's flags and moved units, chess-T1's Prince.
        self.extras = tuple(a for a in ("flags", "pending", "moved", "used", "end_ply") if hasattr(pos, a))


_CACHE: dict[int, Tables] = {}


def tables_for(pos: Position) -> Tables:
    """The tables of pos's game, built once per game object."""
    t = _CACHE.get(id(pos.game))
    if t is None:
        t = _CACHE[id(pos.game)] = Tables(pos)
    return t


class Tracked:
    """A core position with `h` (Zobrist, cells only) and `score` (White's material and
    square values) kept up to date by push/pop."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.tables = tables_for(pos)
        self.cells = pos.cells
        self.buf = [0] * 512
        self.saved: list[tuple[int, int]] = []
        self.h, self.score = self.full()

    def full(self) -> tuple[int, int]:
        """(hash, score) computed from scratch over the board."""
        zob = self.tables.zobrist
        val = self.tables.value
        cells = self.cells
        h = 0
        s = 0
        for sq in self.pos.game.layout.squares:
            c = cells[sq]
            if c:
                h ^= zob[c * SIZE + sq]
                s += val[c * SIZE + sq]
        return h, s

    def key(self) -> int:
        """The transposition key: the cells, the side to move and the rules' state."""
        pos = self.pos
        k = self.h ^ hash((pos.castling, pos.ep) + tuple(getattr(pos, a) for a in self.tables.extras))
        return k ^ self.tables.black_to_move if pos.us != 32 else k

    def push(self, m: int) -> None:
        pos = self.pos
        cells = self.cells
        buf = self.buf
        n = pos.effects(m, buf)
        after = {}
        for i in range(0, 2 * n, 2):
            after[buf[i]] = buf[i + 1]  # a cell listed twice: the last code is the one left
        h = self.h
        s = self.score
        zob = self.tables.zobrist
        val = self.tables.value
        for sq, new in after.items():
            old = cells[sq]
            if old != new:
                a = old * SIZE + sq
                b = new * SIZE + sq
                h ^= zob[a] ^ zob[b]
                s += val[b] - val[a]
        self.saved.append((self.h, self.score))
        pos.push(m)
        if self.tables.lippo:
            changes = pos.xstack[-1][1]  # type: ignore[attr-defined]
            if changes:
                for i in range(1 if m >> _KIND & 15 == BONUS else 0, len(changes)):
                    sq, old = changes[i]
                    new = cells[sq]
                    a = old * SIZE + sq
                    b = new * SIZE + sq
                    h ^= zob[a] ^ zob[b]
                    s += val[b] - val[a]
        self.h = h
        self.score = s

    def pop(self) -> None:
        self.pos.pop()
        self.h, self.score = self.saved.pop()
