# heapsize=256K
"""tests/mpy/faults.py on the real interpreter: a noisy chess game and a noisy lippo game."""

import os

from mpytest import check

import faults

tmp = os.getenv("EBOARD_TMP") or "/tmp"
total = 0
for gid, seed in (("chess", 11), ("lippo", 12)):
    journal = tmp + "/faults-" + gid + ".journal"
    try:
        os.remove(journal)
    except OSError:
        pass
    n, problem = faults.run(gid, 25, seed, journal)
    check(problem is None, "%s: %s" % (gid, problem))
    total += n.faults
    print(gid, "plies", len(n.expected), "faults", n.faults, "recoveries", n.recoveries)
print("ok")
