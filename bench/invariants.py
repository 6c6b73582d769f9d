"""The rules core under its invariants (issue #22): random games of every game, each to its
end, a million positions a game; on CPython our engine's searches along the games are
checked too (its Zobrist hash, score and key).  The checker is tests/mpy/core_invariants.py
(the suite and the MicroPython unix port run the same one); what it checks is said there
and in docs/rules/README.md.

    .venv/bin/python bench/invariants.py [POSITIONS] [GAME ...]     # default 1,000,000, every game
    MICROPYPATH=.:tests/mpy .venv/bin/micropython -X heapsize=8M bench/invariants.py 20000

Prints per game the positions checked (along the games, after the moves pushed and popped
from each of their positions, inside the searches), the violations (target: 0), the time,
and how the games ended; then the first violations in words, if any.
"""

import sys
import time

try:
    ROOT = (__file__.rsplit("/", 1)[0] if "/" in __file__ else ".") + "/.."
except NameError:  # MicroPython given the script on stdin
    ROOT = "."
sys.path.insert(0, ROOT + "/tests/mpy")
sys.path.insert(0, ROOT)

from fuzzgen import Rand  # noqa: E402
from core_invariants import Checker  # noqa: E402

from firmware.rules import GAMES, forget_games  # noqa: E402

MICRO = sys.implementation.name == "micropython"
SEARCH_EVERY = 100  # a search at one position in this many along the games (CPython)
SEARCH_DEPTH = 2


def bench(gid, positions, seed):
    chk = Checker(gid)
    searched = [0]
    each = None
    if not MICRO:
        from core_invariants import checked_search

        rng = Rand(seed + 1)

        def each(pos):
            if rng.below(SEARCH_EVERY) == 0:
                searched[0] += checked_search(chk, pos, SEARCH_DEPTH)

    t0 = time.time()
    chk.walk(positions, Rand(seed), each=each)
    dt = time.time() - t0
    ends = ", ".join("%s %d" % (k, chk.ends[k]) for k in sorted(chk.ends))
    print("%-10s %10d %10d %10d %10d %10d %8.0f s  %s" % (
        gid, chk.checked, chk.lines, chk.checked - chk.lines - searched[0], searched[0], chk.violations, dt, ends))
    return chk


def main():
    args = list(getattr(sys, "argv", None) or [""])[1:]
    positions = int(args[0]) if args else 1000000
    games = args[1:] or list(GAMES)
    version = ".".join(str(x) for x in sys.implementation.version[:3])
    print("interpreter: %s %s; %d positions a game" % (sys.implementation.name, version, positions))
    print("%-10s %10s %10s %10s %10s %10s %10s  %s" % (
        "game", "positions", "on games", "moves", "searches", "violations", "time", "ends"))
    problems = []
    total = 0
    for i, gid in enumerate(games):
        forget_games(gid)
        chk = bench(gid, positions, 22 + i)
        problems += chk.problems
        total += chk.violations
    for p in problems:
        print("  " + p)
    print("violations: %d" % total)


main()
