# heapsize=304K (every game in turn, in one process, on a 64-bit port)
# Each script's firmware is loaded into this same 64-bit heap, beside the last script's
# leftovers (compiled from source, 256K no longer left room for a fresh lippo; 288K no
# longer for power_cut.txt's `since 0` once a new game was appended to the journal, its
# code loaded and dropped: firmware/new_journal.py; alone it passes in 288K).  A board's
# own memory is held to its bound by test_lippo_memory.py, and measured by bench/port32.py
# and bench/pico.py.
"""Every event script of tests/scripts, on the real interpreter (the same Board as CPython's)."""

import gc
import os

from mpytest import check
from scriptrun import ScriptError, run_script

from firmware.rules import forget_games

tmp = os.getenv("EBOARD_TMP") or "/tmp"
names = sorted(n for n in os.listdir("tests/scripts") if n.endswith(".txt"))
check(len(names) > 10, "scripts found: %d" % len(names))
for name in names:
    journal = tmp + "/mpy-" + name + ".journal"
    try:
        os.remove(journal)
    except OSError:
        pass
    # Each script is a board powered up afresh: the last script's game tables go, as a
    # reset clears a board's RAM (one process serves every script, to save start-ups).
    forget_games(None)
    gc.collect()
    with open("tests/scripts/" + name) as f:
        text = f.read()
    try:
        run_script(text, journal)
    except ScriptError as e:
        check(False, name + ": " + str(e))
print("ok")
