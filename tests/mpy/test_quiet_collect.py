# heapsize=256K
"""A board left idle collects when its heap runs short, so that the collector does not
run inside the next lift's hints (it did, now and then: 10-20 ms more before a lift's
LEDs on a stock Pico); with room to spare it does not collect.  Idle means a second with
no switch changed: never in the scan that makes a move (issue #23 item 4)."""

import gc

from mpytest import check, fresh_board

from firmware import protocol
from firmware.app import QUIET_ROOM

board, hw = fresh_board("quiet")
for line in ("new chess", "sim setup", "sim wait 100"):
    protocol.handle(board, line.encode(), hw.clock.now())
calls = []
collect = board.collect


def counted():
    calls.append(1)
    return collect()


board.collect = counted


def lift_and_put_back(idle="1100"):
    for line in ("sim lift b1", "sim wait 100", "sim place b1", "sim wait " + idle):
        protocol.handle(board, line.encode(), hw.clock.now())
    check(board.tracker.state == 1, "the board is not idle again")


gc.collect()
lift_and_put_back()
check(not calls, "a collection with room to spare")
while gc.mem_free() > QUIET_ROOM // 2:
    object()  # garbage, a block at a time (any hole takes one), until the heap looks short
lift_and_put_back("100")
check(not calls, "a collection before the board was left alone a second")
lift_and_put_back()
check(len(calls) == 1, "%d collections on a board left idle short of room" % len(calls))
check(gc.mem_free() > QUIET_ROOM, "still short after the collection")

# A lift's hints go into a list made at the game's start with room for a piece's moves: one
# made before a lift and grown in it (moved by the allocator) sent stock MicroPython's next
# searches through the whole heap (firmware/tracker.py room(): a 100-square chess King's
# first lift, 11.5 ms on the emulated Pico, 5.8 again).  Its room, on MicroPython's lists:
# filled to it, no allocation; emptied by the lifts, the room kept.
protocol.handle(board, b"new hundred", hw.clock.now())
hint = board.tracker.hint
n = 32  # firmware/tracker.py's _HINT_ROOM, on a board of 100 squares


def allocates_to_fill():
    gc.collect()
    before = gc.mem_alloc()
    while len(hint) < n:
        hint.append(0)
    grew = gc.mem_alloc() - before
    del hint[:]
    return grew


check(allocates_to_fill() == 0, "the hint list of a new game has no room for %d moves" % n)
fen = "2b3gb1r/rpzpp4p/7kpn/p1p2pp1p1/1n8/4q5/1P1PP1PPP1/P4P1N2/R1P3B1GP/1N1ZK4R w Q - 1 22"
for line in ("position " + fen, "sim setup", "sim wait 100", "sim lift e1", "sim wait 100"):
    protocol.handle(board, line.encode(), hw.clock.now())
check(board.tracker.hint is hint and len(hint) > 4, "the King's lift lit %d moves" % len(hint))
protocol.handle(board, b"sim place e1", hw.clock.now())
protocol.handle(board, b"sim wait 100", hw.clock.now())
check(not hint and allocates_to_fill() == 0, "the hint list lost its room")
print("ok")
