"""The rules core's shortcuts give the answers of the long way round.

100-square chess and Grosschess skip the make-test-unmake of a move whose squares lie far
from the own King (HundredPosition._far); here every legal move list along random games is
compared with the one the full check test gives, move by move."""

import random

import pytest

from firmware.rules import new_position


def _slow_legal(pos):
    # The same generator with the shortcut switched off: every move made and tested.
    pos._plain = lambda m, k: False
    try:
        return pos.legal_moves()
    finally:
        del pos._plain


@pytest.mark.parametrize("gid", ["hundred", "grosschess"])
def test_far_moves_need_no_check_test(gid):
    rnd = random.Random(12)
    positions = 0
    skipped = 0
    for _ in range(6):
        pos = new_position(gid)
        for _ in range(70):
            fast = pos.legal_moves()
            assert sorted(fast) == sorted(_slow_legal(pos)), pos.fen()
            k = pos.kings[pos.us >> 6]
            skipped += sum(1 for m in fast if pos._plain(m, k) and pos._far(m, k, 0))
            positions += 1
            # Lifted pieces ask for one unit's moves: the same answer.
            for sq in pos.game.layout.squares[::7]:
                if pos.cells[sq] & pos.us:
                    assert sorted(pos.moves_from(sq)) == sorted(m for m in fast if m & 511 == sq)
            if not fast:
                break
            pos.push(rnd.choice(fast))
    assert positions > 300 and skipped > 1000  # the shortcut was really taken
