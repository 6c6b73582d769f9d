"""What a virtual board's autoplay script holds on the heap, and whether `new lippo` still
fits beside it (issue #11, point 15).  Run under a board's heap:

    MICROPYPATH=.:bench:tests/mpy micropython -X heapsize=256K bench/autoplay_heap.py [GAMES]

It writes a script of GAMES games of 80 plies (six steps a ply, the shape of eboard serve's
test scripts), then prints the live heap the script costs held whole (as the autoplay was
read before) and read a line at a time (as now), and whether a lippo game can begin
beside each.
"""

import gc
import os
import sys

from boards import sim
from firmware import protocol
from firmware.app import Board

DIR = "/tmp/eboard-bench-autoplay"


def script(path, games):
    with open(path, "w") as f:
        for g in range(games):
            f.write("game chess\nwait 300\n")
            for ply in range(80):
                f.write("lift e2\nwait 60\nplace e4\nwait 60\nwait 700\n# ply %d of game %d\n" % (ply, g))


def try_lippo(hw):
    out = []
    board = Board(hw, out.append)
    board.boot(0)
    protocol.handle(board, b"new lippo", 0)
    ok = any(line.split()[1:3] == ["ok", "new"] for line in out)
    del board
    gc.collect()
    return ok


def main(games):
    try:
        os.mkdir(DIR)
    except OSError:
        pass
    for name in ("journal.bin", "boot"):
        try:
            os.remove(DIR + "/" + name)
        except OSError:
            pass
    path = DIR + "/autoplay.txt"
    script(path, games)
    size = os.stat(path)[6]
    gc.collect()
    base = gc.mem_alloc()
    held = None
    try:
        with open(path) as f:
            held = [line.split("#", 1)[0].strip() for line in f]  # the old autoplay
        gc.collect()
        whole = "%6d bytes of heap" % (gc.mem_alloc() - base)
        lippo_whole = try_lippo(sim.Hardware(journal_path=DIR + "/journal.bin"))
    except MemoryError:
        if held is None:
            whole = "MemoryError while reading it"
        lippo_whole = False
    held = None
    gc.collect()
    base = gc.mem_alloc()
    hw = sim.Hardware(journal_path=DIR + "/journal.bin")
    hw.load_autoplay(path)
    gc.collect()
    streamed = gc.mem_alloc() - base
    try:
        lippo_streamed = try_lippo(hw)
    except MemoryError:
        lippo_streamed = False
    print("script: %d games, %d bytes" % (games, size))
    print("held whole:      %s; new lippo beside it: %s" % (whole, "ok" if lippo_whole else "MemoryError"))
    print(
        "read as it runs: %6d bytes of heap; new lippo beside it: %s"
        % (streamed, "ok" if lippo_streamed else "MemoryError")
    )
    print("heap size %d bytes" % (gc.mem_alloc() + gc.mem_free()))


main(int(sys.argv[1]) if len(sys.argv) > 1 else 16)
