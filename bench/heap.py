"""The firmware plays a 200-move Lippo game on the virtual board, the moves made by the
player's hands (lift, place, wait), and reports the heap it needed.  Run:

    ./flash.sh --build-only sim
    MICROPYPATH=build/sim:bench:tests/mpy micropython -X heapsize=224K bench/heap.py [PLIES [WAIT_MS]]

(build/sim holds the firmware compiled by ./flash.sh --build-only, as a board runs it:
.mpy files, no compiler at work.)

It prints the live heap (after a collection) at every 20th ply and the peak, and fails
loudly with a MemoryError if the heap is too small.
"""

import gc
import os

from common import ARGV, TMP, Rand, play_physically
from fuzzgen import lasting_move

from boards import sim
from firmware import protocol
from firmware.app import Board

JOURNAL = TMP + "eboard-bench-heap.journal"


def main(plies, wait=3000):
    try:
        os.remove(JOURNAL)
    except OSError:
        pass
    # The board as it powers up into a Lippo game: the journal says so.
    from firmware.journal import Journal

    Journal(JOURNAL).rewrite(["N 0 00000001 lippo -"])
    hw = sim.Hardware(journal_path=JOURNAL)
    board = Board(hw, lambda line: None)
    board.boot(0)
    protocol.handle(board, b"sim setup", 0)
    protocol.handle(board, b"sim wait 100", 0)
    rng = Rand(7)
    peak = 0
    gc.collect()
    start = gc.mem_alloc()
    for ply in range(plies):
        ms = board.pos.legal_moves()
        if not ms or board.tracker.state == 6:
            print("the game ended at ply %d" % ply)
            break
        m = lasting_move(board.pos, ms, rng)
        before = board.ply
        play_physically(board, m, wait)
        if board.ply != before + 1:
            print("ply %d: the move was not made (state %d)" % (ply, board.tracker.state))
            protocol.handle(board, ("move " + board.pos.move_str(m)).encode(), 0)
            protocol.handle(board, b"sim setup", 0)
            protocol.handle(board, b"sim wait 100", 0)
        del ms
        gc.collect()
        live = gc.mem_alloc()
        peak = max(peak, live)
        if ply % 20 == 0:
            print("ply %3d: live heap %6d bytes" % (ply, live))
    print("plies played: %d; history kept in RAM: %d plies" % (board.ply, len(board.pos.stack)))
    print("heap at start %d bytes, peak live %d bytes, heap size %d bytes" % (start, peak, gc.mem_alloc() + gc.mem_free()))


main(int(ARGV[1]) if len(ARGV) > 1 else 200, int(ARGV[2]) if len(ARGV) > 2 else 3000)
