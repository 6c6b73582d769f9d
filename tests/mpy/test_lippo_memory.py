"""Issue #2's memory targets on the real interpreter: a Lippo position with its move list
under 4 KB of heap, and a lifted piece's moves allocating nothing but the list (nothing at
all, into a list the caller keeps)."""

import gc
import micropython

from mpytest import check

from firmware.rules import new_position

new_position("lippo")  # loads the game's tables: shared, not per position
gc.collect()
a = gc.mem_alloc()
pos = new_position("lippo")
ms = pos.legal_moves()
gc.collect()
used = gc.mem_alloc() - a
check(used < 4096, "position + moves: %d bytes" % used)

pos.end_reason()  # the board knows this after every move
buf = []
for name in ("e1", "d1", "c2", "g3", "f2", "g1", "a1", "e12"):
    sq = pos.game.layout.cell(name)
    want = pos.moves_from(sq)  # a new list
    for _ in range(90):
        buf.append(0)
    del buf[:]  # room for any piece's moves, kept by the list

    def hint():
        pos.moves_from(sq, buf)

    micropython.heap_lock()
    try:
        hint()
        ok = True
    except MemoryError:
        ok = False
    finally:
        micropython.heap_unlock()
    check(ok, name + ": generating a lifted piece's moves allocated")
    check(buf == want, name + ": moves differ")
    del buf[:]
print("ok")
