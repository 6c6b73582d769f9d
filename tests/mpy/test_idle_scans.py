# heapsize=256K (every game in turn, in one process, on a 64-bit port)
"""Steady-state scanning allocates nothing: 1,000 idle scans under heap_lock, for each
game, in the idle state and with a piece lifted (a hint frame being shown), once the
turn's legal moves are listed."""

import gc

import micropython
from mpytest import check, fresh_board

from firmware import protocol

ok = False  # globals assigned inside the measured stretch must exist before it
after = before = 0
for gid in ("chess", "lippo", "checkers12"):
    board, hw = fresh_board("idle-" + gid)
    # 500 ms: the turn's legal moves are listed a few pieces a scan after the start
    # (tracker.LIST_PIECES); the steady state begins once they all are.
    for line in ("new " + gid, "sim setup", "sim wait 500"):
        protocol.handle(board, line.encode(), hw.clock.now())
    check(board.tracker.state == 1, gid + " did not start")
    check(board.tracker.matcher.listing is None, gid + ": the turn's moves not all listed after 500 ms")
    for lift in (None, "b1" if gid != "checkers12" else "a3"):
        if lift:
            protocol.handle(board, ("sim lift " + lift).encode(), hw.clock.now())
            protocol.handle(board, b"sim wait 100", hw.clock.now())
        clock = hw.clock

        def scans():
            for _ in range(1000):
                clock.ms += 10
                board.step(clock.ms)

        gc.collect()
        before = gc.mem_alloc()
        micropython.heap_lock()
        try:
            scans()
            ok = True
        except MemoryError:
            ok = False
        finally:
            micropython.heap_unlock()
        after = gc.mem_alloc()
        check(ok, "%s: idle scanning allocated (%s lifted)" % (gid, lift))
        check(after == before, "%s: heap changed by %d bytes" % (gid, after - before))
    del board, hw
    gc.collect()
print("ok")
