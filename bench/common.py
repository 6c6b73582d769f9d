"""Helpers the benchmarks share, for CPython and MicroPython alike."""

import sys

from fuzzgen import Rand  # noqa: F401  (tests/mpy: one generator for tests and benchmarks)

from firmware import protocol

MICRO = sys.implementation.name == "micropython"
if MICRO:
    from time import ticks_diff, ticks_us

    def now_us():
        return ticks_us()

    def since_us(t0):
        return ticks_diff(ticks_us(), t0)

else:
    from time import perf_counter_ns

    def now_us():
        return perf_counter_ns() // 1000

    def since_us(t0):
        return now_us() - t0



def play_physically(board, m, wait):
    """Make move m on the virtual board with the player's hands: lifts, then places."""
    from firmware.tracker import hand_moves

    geo = board.tracker.geo
    lifts, places = hand_moves(board.pos, m)
    for verb, cells in (("lift", lifts), ("place", places)):
        for cell in cells:
            protocol.handle(board, ("sim %s %s" % (verb, geo.name(geo.phys(cell)))).encode(), 0)
            protocol.handle(board, b"sim wait 50", 0)
    protocol.handle(board, ("sim wait %d" % wait).encode(), 0)


def median(xs):
    """The median of a sequence of small non-negative ints, without sorting a copy (a
    histogram: MicroPython's heap need not find room for a sorted list)."""
    from array import array

    top = max(xs)
    counts = array("H", bytes(2 * (top + 1)))
    for x in xs:
        counts[x] += 1
    half = len(xs) // 2
    seen = 0
    for v in range(top + 1):
        seen += counts[v]
        if seen > half:
            return v
    return top
