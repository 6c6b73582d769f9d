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



def positions_from(path, gid, n):
    """The first n positions of gid in a file of "<game> <fen>" lines."""
    out = []
    with open(path) as f:
        for line in f:
            g, _, fen = line.strip().partition(" ")
            if g == gid and len(out) < n:
                out.append(fen)
    return out


def own_pieces(board, fen):
    """fen set up on the board (protocol `position`, the pieces put as it shows, the board
    settled) and, one after another, the physical square of each piece of the side to
    move: the squares a player about to move may lift (bench/hint.py; tests/test_lift_work.py
    counts the same lifts' work).  The caller lifts it, puts it back and resyncs, so that
    the next lift too starts a clean turn."""
    protocol.handle(board, ("position " + fen).encode(), 0)
    protocol.handle(board, b"sim setup", 0)
    protocol.handle(board, b"sim wait 100", 0)
    # The idle scans of that wait listed some of the turn's moves (Matcher.list_some): the
    # first lift started from a turn begun anew, as every later one (issue #38: a lift
    # timed after them took 2.5 ms on the chip where the same lift, cold, takes 9.9)
    board.tracker.resync(0)
    geo = board.tracker.geo
    pos = board.pos
    for p in geo.game_squares:
        if pos.cells[geo.cell(p)] & pos.us:
            yield p


def put_back(board, hw, p):
    """The man lifted from p put back, and the turn begun anew, without the place's and the
    resync's work (the turn's whole list of moves for the place, the game's end asked twice
    for the resync: 53 ms of a lift's 93 ms cycle on the emulated Pico): the tracker's state
    and frame as they leave them (bench/hint.py --quick; tests/test_lift_work.py holds it to
    them)."""
    from firmware.tracker import IDLE

    hw.matrix.set(p, True)
    t = board.tracker
    t.occ.actual[p] = 1
    t.occ.expect(t.pos, t.geo)  # (no square touched, the diff to find again)
    t.matcher.new_turn(t.pos)
    del t.hint[:]
    t.hint_from = -1
    t.hinted = None
    t.state = IDLE
    t.dirty = True
    board._render()


def lift_work(board, hw, fen):
    """(square, [lines run in the rules core, calls into it]) of each lift of own_pieces
    (CPython's tracer counts them; the lift made as bench/hint.py makes it), yielded while
    the piece is still up: tests/test_lift_work.py bounds them, bench/hint_rank.py ranks
    the lifts by them.  The core's machine code on the chip (compat.late's functions) runs
    here as Python compiled from a string: its lines are not counted."""
    import os

    from firmware import drop_module
    from firmware.debounce import LIFT, PLACE

    core = os.sep + "rules" + os.sep
    tracker = board.tracker
    work = [0, 0]

    def line(frame, event, arg):
        if event == "line":
            work[0] += 1
        return line

    def call(frame, event, arg):
        if core in frame.f_code.co_filename:
            work[1] += 1
            return line
        return None

    for p in own_pieces(board, fen):
        hw.matrix.set(p, False)
        work[:] = [0, 0]
        drop_module("firmware", "correction")  # (loaded by a set-up's corrections)
        sys.settrace(call)
        try:
            board._on_switch(LIFT, p, 0)  # the debounced lift: tracker, hints, frame
        finally:
            sys.settrace(None)
        yield tracker.geo.name(p), work
        hw.matrix.set(p, True)
        board._on_switch(PLACE, p, 0)
        tracker.resync(0)


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
