"""The captures of a position alone, for the quiescence search (issue 24).

Kept here, not in the rules core: the board never asks for them, and the core's code is
loaded into the Pico's heap.  Generated from the pieces' powers as the core's
`Position._gen_piece` generates them, in its order; a pawn's captures are its
diagonals (promotions by the core's `_pawn_to`), Lippo's President (its bonus Soldier) has
its pseudo-moves filtered, and a game with a generator of its own (checkers, chess-T1,
hundred, Grosschess, Kriegspiel's) gets `pseudo_moves()` filtered.  tests/test_engine.py
checks that `captures(pos)` is the filtered pseudo-moves along random games of every game.
"""

from __future__ import annotations

from firmware.rules.board import BLACK, EMPTY, OFF, STRIDE, WHITE
from firmware.rules.position import _KIND, BLAST, CAPTURE, EP, Position

_ALL = None  # the whole generator filtered
_FULL: dict[type, frozenset[int] | None] = {}  # class -> piece types filtered (None: all of them)


def _filtered_types(pos: Position) -> frozenset[int] | None:
    cls = type(pos)
    g = pos.game
    if cls.pseudo_moves is not Position.pseudo_moves:
        return _ALL
    if cls._gen_piece is Position._gen_piece:
        return frozenset()
    if g.id == "lippo":  # its _gen_piece adds the President's bonus moves, else the core's
        return frozenset((g.royal,))
    return _ALL


def captures(pos: Position) -> list[int]:
    """The moves of pos.pseudo_moves() that capture, in their order."""
    cls = type(pos)
    if cls in _FULL:
        full = _FULL[cls]
    else:
        full = _FULL[cls] = _filtered_types(pos)
    takes = pos.takes
    if full is None:
        return [m for m in pos.pseudo_moves() if takes(m)]
    g = pos.game
    cells = pos.cells
    us = pos.us
    them = us ^ (WHITE | BLACK)
    jumps, slides, blasts, bent, bent_at = g.jumps, g.slides, g.blasts, g.bent, g.bent_at
    cap = CAPTURE
    blast = CAPTURE | BLAST << _KIND
    pawn = g.pawn
    fwd = STRIDE if them == BLACK else -STRIDE
    ep = pos.ep if g.ep else -1
    ep_move = CAPTURE | EP << _KIND
    ms: list[int] = []
    for frm in g.layout.squares:
        c = cells[frm]
        if not c & us:
            continue
        t = c & 31
        if t == pawn:
            # _pawn_moves' captures, in its order: the two diagonals, each a promotion's
            # moves where it reaches the last rank (_pawn_to), or en passant
            for to in (frm + fwd - 1, frm + fwd + 1):
                if cells[to] & them:
                    pos._pawn_to(frm, to, cap, ms)
                elif to == ep:
                    ms.append(frm | to << 9 | ep_move)
            continue
        if t in full:
            own: list[int] = []
            pos._gen_piece(frm, t, own)
            for m in own:
                if takes(m):
                    ms.append(m)
            continue
        for d in jumps[t]:
            if cells[frm + d] & them:
                ms.append(frm | (frm + d) << 9 | cap)
        for i in range(bent_at[t], bent_at[t + 1], 3):
            to = frm + bent[i]
            if cells[to] & them and (cells[frm + bent[i + 1]] != OFF or cells[frm + bent[i + 2]] != OFF):
                ms.append(frm | to << 9 | cap)
        for d in slides[t]:
            to = frm + d
            x = cells[to]
            while x == EMPTY:
                to += d
                x = cells[to]
            if x & them:
                ms.append(frm | to << 9 | cap)
        for d in blasts[t]:
            if cells[frm + d] & them:
                ms.append(frm | (frm + d) << 9 | blast)
    return ms
