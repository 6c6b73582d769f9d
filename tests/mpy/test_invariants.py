# heapsize=1M (the checker keeps a game's undo records and its own model beside the board's)
"""The rules core's invariants on the MicroPython unix port (issue #22): a sample of random
games of every game, to their end, with every push, pop and FEN checked by the same checker
as the suite's and the bench's (core_invariants.py)."""

import gc

from core_invariants import Checker
from fuzzgen import Rand
from mpytest import check

from firmware.rules import GAMES, forget_games

POSITIONS = 2000

total = 0
for i, gid in enumerate(GAMES):
    forget_games(gid)  # one game's tables at a time, as on the board
    gc.collect()
    chk = Checker(gid).walk(POSITIONS, Rand(2200 + i))
    check(chk.violations == 0, "; ".join(chk.problems))
    total += chk.checked
print("positions %d, violations 0" % total)
print("ok")
