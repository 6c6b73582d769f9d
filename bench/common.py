"""Helpers the benchmarks share, for CPython and MicroPython alike."""

import sys

from fuzzgen import Rand  # noqa: F401  (tests/mpy: one generator for tests and benchmarks)

from firmware import protocol

MICRO = sys.implementation.name == "micropython"
TMP = "" if sys.platform == "rp2" else "/tmp/"  # a Pico (bench/pico.py) has no /tmp
# The command line; on a Pico (no sys.argv) bench/pico.py fills it in before the import.
ARGV = list(getattr(sys, "argv", None) or [""])
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



def own_pieces(board, fen):
    """fen set up on the board (protocol `position`, the pieces put as it shows, the board
    settled) and, one after another, the physical square of each piece of the side to
    move: the squares a player about to move may lift (bench/hint.py; tests/test_lift_work.py
    counts the same lifts' work).  The caller lifts it, puts it back and resyncs, so that
    the next lift too starts a clean turn."""
    protocol.handle(board, ("position " + fen).encode(), 0)
    protocol.handle(board, b"sim setup", 0)
    protocol.handle(board, b"sim wait 100", 0)
    geo = board.tracker.geo
    pos = board.pos
    for p in geo.game_squares:
        if pos.cells[geo.cell(p)] & pos.us:
            yield p


def play_physically(board, m, wait):
    """Make move m on the virtual board with the player's hands: lifts, then places."""
    from firmware.hands import hand_moves

    geo = board.tracker.geo
    lifts, places = hand_moves(board.pos, m)
    for verb, cells in (("lift", lifts), ("place", places)):
        for cell in cells:
            protocol.handle(board, ("sim %s %s" % (verb, geo.name(geo.phys(cell)))).encode(), 0)
            protocol.handle(board, b"sim wait 50", 0)
    protocol.handle(board, ("sim wait %d" % wait).encode(), 0)


def median(xs):
    """The median (the upper one of an even count) of a sequence of small non-negative ints,
    exact, without sorting a copy: bucket counts of 64 at a time, the range narrowed to the
    median's bucket each pass.  (A histogram of 2,048 buckets, 4 KB in one block, was not
    found in stock MicroPython's heap on a Pico after a Grosschess board's lifts: MemoryError.)"""
    from array import array

    half = len(xs) // 2
    lo, hi = 0, max(xs) + 1  # the median is in [lo, hi); `below` of xs lie under lo
    below = 0
    counts = array("H", bytes(2 * 64))
    while hi - lo > 1:
        width = (hi - lo + 63) // 64
        for v in range(64):
            counts[v] = 0
        for x in xs:
            if lo <= x < hi:
                counts[(x - lo) // width] += 1
        for v in range(64):
            if below + counts[v] > half:
                lo, hi = lo + v * width, min(hi, lo + (v + 1) * width)
                break
            below += counts[v]
    return lo
