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
print("ok")
