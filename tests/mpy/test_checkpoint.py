# heapsize=2M (two boards side by side, and the text of their whole state to compare)
"""Checkpoints in the journal on the MicroPython unix port (issue #23 item 4): a power-up
resumed from the last checkpoint holds the state a replay from the start builds, and goes
on the same, over a random game of every game (tests/mpy/checkpoints.py)."""

import gc
import os

from checkpoints import compare
from mpytest import check

from firmware.rules import GAMES, forget_games

tmp = os.getenv("EBOARD_TMP") or "/tmp"
used = compared = 0
for i, gid in enumerate(sorted(GAMES)):
    forget_games(gid)
    gc.collect()
    u, c, problems = compare(gid, 30 + i, 160, tmp, every=20, after=8)
    check(not problems, "; ".join(problems))
    check(c > 0 and u > 0, "%s: %d checkpoints used in %d power-ups" % (gid, u, c))
    used += u
    compared += c
print("power-ups %d, from a checkpoint %d, all as replayed from the start" % (compared, used))
print("ok")
