"""checkers12's plain moves by bitboards, for the search's nodes (issue 24).

The rules core's `legal_moves()` is the authority (and the board's generator): it goes over
the 72 dark squares, and where some piece can capture it builds the chains (captures are
compulsory).  The search asks for moves at every node, and most nodes have no capture: here
each piece code's squares are kept as one int, a bit a cell (tables.Tracked.bits), so that
"can a man capture?" is a few shifts and ANDs over the whole board, and a man's steps are
the men shifted one diagonal and met with the empty squares.  Where a capture exists, this
gives None and the core builds the chains.  tests/test_engine.py checks the moves against
the core's along random games.
"""

from __future__ import annotations

from firmware.rules.board import BLACK, DIAG, EMPTY, WHITE, delta
from firmware.rules.position import Position

_DIRS = tuple(delta(x, y) for x, y in DIAG)
_UP = (delta(1, 1), delta(-1, 1))  # White's forward steps (Black's: these, negated)


def plain_moves(pos: Position, bits: list[int], listed: bool = True) -> list[int] | None:
    """pos.legal_moves() of a checkers12 position where no piece can capture (in another
    order), else None; bits[code]: the cells of each piece code as an int (tables.Tracked.bits).
    listed False: a list of as many zeros (the count is all the caller needs)."""
    g = pos.game
    kind = _KIND.get(id(g))
    if kind is None:
        kind = _KIND[id(g)] = _kinds(pos)
    board, man, king = kind
    us = pos.us
    them = us ^ (WHITE | BLACK)
    men = bits[us | man]
    kings = bits[us | king]
    enemy = bits[them | man] | bits[them | king]
    empty = board & ~(men | kings | enemy)
    # A man captures where an enemy stands beside it, diagonally either way, with the
    # square beyond free (the chain's first jump).
    for d in _UP:
        if men & ((enemy >> d) & (empty >> 2 * d) | (enemy << d) & (empty << 2 * d)):
            return None
    cells = pos.cells
    num = g.layout.number
    ms: list[int] = []
    while kings:
        low = kings & -kings
        kings ^= low
        sq = low.bit_length() - 1
        head = (num[sq] + 1) << 1
        for d in _DIRS:
            to = sq + d
            x = cells[to]
            while x == EMPTY:
                ms.append(head | (num[to] + 1) << 9)
                to += d
                x = cells[to]
            if x & them and cells[to + d] == EMPTY:
                return None  # a king's capture (flying)
    for d in _UP:
        steps = (men << d if us == WHITE else men >> d) & empty
        if not listed:
            ms += [0] * steps.bit_count()
            continue
        if us != WHITE:
            d = -d
        while steps:
            low = steps & -steps
            steps ^= low
            to = low.bit_length() - 1
            ms.append((num[to - d] + 1) << 1 | (num[to] + 1) << 9)
    return ms


_KIND: dict[int, tuple[int, int, int]] = {}


def _kinds(pos: Position) -> tuple[int, int, int]:
    # (the cells of the board's squares as an int, the man's type, the king's type)
    g = pos.game
    return sum(1 << sq for sq in g.layout.squares), g.type_of("M"), g.type_of("K")
