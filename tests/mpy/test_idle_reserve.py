# heapsize=512K
"""The next block of message numbers is reserved by a board standing idle, not by the
message that uses up the block: its S record's append erased a flash sector on stock
MicroPython (littlefs, 45 ms), once inside a man put down (68.5 ms from the place to the
next scan on the emulated Pico).  A board that never stands idle still reserves in time,
and the numbers go on without a gap or a repeat (issue #23 item 4)."""

from mpytest import check, fresh_board

from firmware import protocol
from firmware.journal import SEQ_AHEAD, SEQ_BLOCK

class Numbers:
    """What the board says, kept as its message numbers alone."""

    def __init__(self):
        self.got = []

    def append(self, line):
        if line[:1].isdigit():
            self.got.append(int(line.split(" ", 1)[0]))


out = Numbers()
board, hw = fresh_board("reserve", out)


def do(*lines):
    for line in lines:
        protocol.handle(board, line.encode(), hw.clock.now())


def s_records():
    return [r for r in board.journal.records() if r[0] == "S"]


do("new chess", "sim setup", "sim wait 1100")
# Messages, no idle second between them, until the block is nearly used up.
while board.logbook.seq_reserved - board.outbox.seq > SEQ_AHEAD // 2:
    do("sim lift b1", "sim wait 100", "sim place b1", "sim wait 100")
before = len(s_records())
left = board.logbook.seq_reserved - board.outbox.seq
do("sim wait 1100")  # a second idle
check(len(s_records()) == before + 1, "no S record after an idle second (%d numbers left)" % left)
# (the wait's own reply has a number of the new block)
check(board.logbook.seq_reserved - board.outbox.seq >= SEQ_BLOCK - 1, "the block reserved is not a whole one ahead")
reserved = board.logbook.seq_reserved
do("sim wait 1100")
check(len(s_records()) == before + 1 and board.logbook.seq_reserved == reserved, "reserved again with the block fresh")
# A board that never stands idle: the block that runs out is reserved by its last message.
start = board.outbox.seq
while board.outbox.seq < reserved + 3:
    do("sim lift b1", "sim wait 100", "sim place b1", "sim wait 100")
check(len(s_records()) == before + 2, "the used-up block was not reserved again")
check(board.logbook.seq_reserved > board.outbox.seq, "numbers used beyond the block reserved")
ns = out.got
check(ns == list(range(ns[0], ns[0] + len(ns))), "the message numbers have a gap or a repeat")
check(ns[-1] > start, "no messages numbered")
print("ok")
