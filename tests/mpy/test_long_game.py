# heapsize=256K (the firmware's .mpy files and the test, on a 64-bit port)
"""A 1,000-ply Lippo session on the board: no MemoryError, and no heap growth between
ply 100 and ply 1,000 (the position keeps a bounded history; the game is on flash)."""

import gc

from fuzzgen import Rand, lasting_move
from mpytest import check, fresh_board

from firmware import protocol

board, hw = fresh_board("long")


def do(line):
    # Every request answered ok: a `new lippo` refused for memory once left this test
    # playing chess, and its heap figures were a chess game's.
    r = protocol.reply_to(board, line.encode(), hw.clock.now())
    board.answer(r, hw.clock.now())
    check(r.startswith("ok"), "%s: %s" % (line, r))


do("new lippo")
do("sim setup")
do("sim wait 100")
rng = Rand(99)
samples = []
games = 1
for ply in range(1, 1001):
    ms = board.pos.legal_moves()
    if not ms:
        games += 1
        do("new lippo")
        do("sim setup")
        do("sim wait 100")
        ms = board.pos.legal_moves()
    m = lasting_move(board.pos, ms, rng)
    do("move " + board.pos.move_str(m))
    do("sim setup")  # the hands follow the host's move
    do("sim wait 20")
    del ms
    if ply % 100 == 0:
        gc.collect()
        samples.append(gc.mem_alloc())
check(len(samples) == 10, "plies missing")
growth = max(samples) - samples[0]
print("live heap every 100 plies:", samples, "growth after ply 100:", growth, "games:", games)
check(growth <= 512, "the heap grew by %d bytes between ply 100 and 1000" % growth)
print("ok")
