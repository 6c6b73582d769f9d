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

from firmware.rules.board import BLACK, EMPTY, SIZE, WHITE, rank_of
from firmware.rules.position import BONUS, KIND_SHIFT, Position

from .captures import FAST_GAMES
from .evaluate import PROFILES, SHELTER_RANKS, Profile, value_tables


class Tables:
    """The per-game tables: Zobrist keys and square values, for every code on every cell."""

    def __init__(self, pos: Position, plain: bool = False) -> None:
        gid = pos.game.id
        self.gid = gid
        prof: Profile = PROFILES.get(gid) or PROFILES["chess"]
        if plain and prof.plain is not None:
            prof = prof.plain
        self.profile = prof
        rng = random.Random(0x5EED ^ len(gid))
        zob = [rng.getrandbits(63) for _ in range(128 * SIZE)]
        for sq in range(SIZE):
            zob[sq] = 0  # code 0, an empty cell, hashes to nothing
        self.zobrist = zob
        # (middle game, endgame or None) values of every code on every cell
        self.value, self.value_eg = value_tables(pos, prof)
        # The structure key: the Zobrist keys of the pieces the profile's structure term
        # reads (pawns, rooks, and kings where their shelter counts), 0 for the others: its
        # cache's key (a king walking the board's middle keeps its structure's entry).
        self.struct_zob = None
        if prof.structure is not None:
            g = pos.game
            kept = {g.pawn, g.royal, g.type_of("R")}
            top = g.layout.ranks - 1

            def reads(i: int) -> bool:
                code, sq = divmod(i, SIZE)
                if code & 31 == g.royal and code & (WHITE | BLACK):
                    rank = rank_of(sq) if code & WHITE else top - rank_of(sq)
                    return 0 <= rank < SHELTER_RANKS
                return code & 31 in kept

            self.struct_zob = [z if reads(i) else 0 for i, z in enumerate(zob)]
        self.black_to_move = rng.getrandbits(63)
        self.lippo = gid == "lippo"
        self.fast = gid in FAST_GAMES
        self.read_back = gid == "checkers12"  # a move's changes read from the core's undo record
        # The state beside the cells that decides the moves: lippo's flags and owed
        # Soldiers, hundred's and Grosschess's flags and moved units, chess-T1's Prince.
        self.extras = tuple(a for a in ("flags", "pending", "moved", "used", "end_ply") if hasattr(pos, a))


_CACHE: dict[tuple[int, bool], Tables] = {}


def tables_for(pos: Position, plain: bool = False) -> Tables:
    """The tables of pos's game, built once per game object (plain: its profile's plain one)."""
    t = _CACHE.get((id(pos.game), plain))
    if t is None:
        t = _CACHE[(id(pos.game), plain)] = Tables(pos, plain)
    return t


def _rekeyed(changes: list[tuple[int, int, int]], zob: list[int], val: list[int], h: int, s: int) -> tuple[int, int]:
    """(h, s), the Zobrist key and the score, with each (cell, code before, code after) of
    changes made."""
    for sq, old, new in changes:
        a = old * SIZE + sq
        b = new * SIZE + sq
        h ^= zob[a] ^ zob[b]
        s += val[b] - val[a]
    return h, s


class Tracked:
    """A core position with `h` (Zobrist, cells only) and `score` (White's material and
    square values) kept up to date by push/pop; where the game's evaluation is tapered,
    `score_eg` (the endgame's values) and `hs` (the structure key) too."""

    def __init__(self, pos: Position, plain: bool = False) -> None:
        self.pos = pos
        self.tables = tables_for(pos, plain)
        self.cells = pos.cells
        self.buf = [0] * 512
        self.saved: list[tuple[int, int, int, int]] = []
        self.h, self.score = self.full()
        self.score_eg, self.hs = self.full_more()
        # Where the fast generator serves (captures.FAST_GAMES): each side's occupied
        # squares (occ[0] White's, occ[1] Black's) and each piece code's (pieces[code]),
        # kept by push and pop.
        self.occ: list[set[int]] | None = None
        self.pieces: list[set[int]] = []
        self.occ_undo: list[list[tuple[int, int, int]]] = []
        self.read_back = self.tables.read_back
        if self.tables.fast:
            self.occ = [set(), set()]
            self.pieces = [set() for _ in range(128)]
            for sq in pos.game.layout.squares:
                c = self.cells[sq]
                if c:
                    self.occ[c >> 6].add(sq)
                    self.pieces[c].add(sq)

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

    def full_more(self) -> tuple[int, int]:
        """(score_eg, hs) computed from scratch over the board (0, 0 where not tapered)."""
        val = self.tables.value_eg
        sz = self.tables.struct_zob
        cells = self.cells
        e = hs = 0
        for sq in self.pos.game.layout.squares:
            c = cells[sq]
            if c:
                if val is not None:
                    e += val[c * SIZE + sq]
                if sz is not None:
                    hs ^= sz[c * SIZE + sq]
        return e, hs

    def key(self) -> int:
        """The transposition key: the cells, the side to move and the rules' state."""
        pos = self.pos
        extras = self.tables.extras
        k = self.h ^ hash((pos.castling, pos.ep) + tuple(getattr(pos, a) for a in extras) if extras else
                          (pos.castling, pos.ep))
        return k ^ self.tables.black_to_move if pos.us != 32 else k

    def push(self, m: int) -> None:
        if self.read_back:
            self._push_read_back(m)
            return
        pos = self.pos
        cells = self.cells
        buf = self.buf
        n = pos.effects(m, buf)
        after = {}
        for i in range(0, 2 * n, 2):
            after[buf[i]] = buf[i + 1]  # a cell listed twice: the last code is the one left
        h = self.h
        s = self.score
        e = self.score_eg
        hs = self.hs
        tables = self.tables
        zob = tables.zobrist
        val = tables.value
        veg = tables.value_eg
        sz = tables.struct_zob
        occ = self.occ
        moved: list[tuple[int, int, int]] = []
        for sq, new in after.items():
            old = cells[sq]
            if old != new:
                if occ is not None:
                    moved.append((sq, old, new))
                a = old * SIZE + sq
                b = new * SIZE + sq
                h ^= zob[a] ^ zob[b]
                s += val[b] - val[a]
                if veg is not None:
                    e += veg[b] - veg[a]
                if sz is not None:
                    hs ^= sz[a] ^ sz[b]
        self.saved.append((self.h, self.score, self.score_eg, self.hs))
        self.score_eg = e
        self.hs = hs
        pos.push(m)
        if self.tables.lippo:
            changes = pos.xstack[-1][1]  # type: ignore[attr-defined]
            if changes:
                later = [(sq, old, cells[sq]) for sq, old in changes[1 if m >> KIND_SHIFT & 15 == BONUS else 0:]]
                if occ is not None:
                    moved += later
                h, s = _rekeyed(later, zob, val, h, s)
        self.h = h
        self.score = s
        if occ is not None:
            pieces = self.pieces
            for sq, old, new in moved:
                if old:
                    occ[old >> 6].discard(sq)
                    pieces[old].discard(sq)
                if new:
                    occ[new >> 6].add(sq)
                    pieces[new].add(sq)
            self.occ_undo.append(moved)

    def _push_read_back(self, m: int) -> None:
        # checkers12's push: the move made by the core first, what it changed read back
        # from the core's own undo record (the piece and the pieces taken: the path's
        # first square emptied, its last one holding the piece now there, crowned or not),
        # not worked out again by effects().
        pos = self.pos
        cells = self.cells
        pos.push(m)
        _, piece, taken, _ = pos.stack[-1]
        frm = pos.move_from(m)
        to = pos.move_to(m)
        changes = [(sq, c, EMPTY) for sq, c in taken]
        if frm != to:
            changes.append((frm, piece, EMPTY))
            changes.append((to, EMPTY, cells[to]))
        elif piece != cells[to]:
            changes.append((to, piece, cells[to]))  # (a chain back to its square, crowned on the way)
        self.saved.append((self.h, self.score, self.score_eg, self.hs))
        self.h, self.score = _rekeyed(changes, self.tables.zobrist, self.tables.value, self.h, self.score)

    def pop(self) -> None:
        self.pos.pop()
        self.h, self.score, self.score_eg, self.hs = self.saved.pop()
        occ = self.occ
        if occ is not None:
            pieces = self.pieces
            moved = self.occ_undo.pop()
            for i in range(len(moved) - 1, -1, -1):
                sq, old, new = moved[i]
                if new:
                    occ[new >> 6].discard(sq)
                    pieces[new].discard(sq)
                if old:
                    occ[old >> 6].add(sq)
                    pieces[old].add(sq)
