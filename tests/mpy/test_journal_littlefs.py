# heapsize=1M  (the flash itself is a bytearray here)
"""The journal on littlefs, the Pico's filesystem (boards/pico.py keeps it in the flash's
root): only plain file I/O, so a damaged journal is set aside, a torn record cut off, a
game resumed, and a full flash refused, on littlefs as on the unix port's files."""

import os

import vfs
from mpytest import boot_board, check, said

from firmware import protocol


class RamFlash:
    """A block device in RAM, with erase blocks like the Pico's flash (4 KiB)."""

    def __init__(self, blocks, size=4096):
        self.size = size
        self.data = bytearray(blocks * size)

    def readblocks(self, n, buf, offset=0):
        a = n * self.size + offset
        buf[:] = self.data[a : a + len(buf)]

    def writeblocks(self, n, buf, offset=None):
        if offset is None:
            offset = 0
        a = n * self.size + offset
        self.data[a : a + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // self.size
        if op == 5:
            return self.size
        return 0


flash = RamFlash(48)  # 192 KiB
vfs.VfsLfs2.mkfs(flash)
vfs.mount(vfs.VfsLfs2(flash), "/flash")
PATH = "/flash/journal.bin"



def boot():
    return boot_board(PATH)



board, out = boot()
first = board.boot_id
for line in (b"new chess", b"sim setup", b"sim wait 100", b"move e2e4", b"move e7e5"):
    protocol.handle(board, line, 0)
uid = board.uid
check(os.listdir("/flash") == ["journal.bin"], "files on the flash: %r" % os.listdir("/flash"))
# `mem`: the live heap after a collection, what is free, and the largest live heap seen.
out.clear()
protocol.handle(board, b"mem", 0)
words = said(out, "ok mem")[0].split()
alloc, free, peak = int(words[3]), int(words[4]), int(words[5])
check(0 < alloc <= peak and free > 0, "mem: %r" % out)

# A torn record after a power cut: cut off (a rename over the journal), the game goes on.
with open(PATH, "ab") as f:
    f.write(b"\x09\x00M 9")
board, out = boot()
check(not said(out, "alert") and board.uid == uid and board.history() == ["e2e4", "e7e5"], "torn: %r" % out)
check(board.boot_id != first, "the same power-up id twice: %r" % out)

# Damage in the middle: set aside, reported, a new game.
data = bytearray(open(PATH, "rb").read())
data[8] ^= 1
with open(PATH, "wb") as f:
    f.write(data)
board, out = boot()
check(said(out, "alert journal-damaged") and board.uid != uid, "damage: %r" % out)
check("journal.bin.bad" in os.listdir("/flash"), "not set aside: %r" % os.listdir("/flash"))

# A full flash (littlefs may still keep a small file inline in its metadata): a new game
# is refused and the journal stays whole, or it fits; either way the board boots into it.
protocol.handle(board, b"new chess", 0)
fillers = []
for size in (4096, 512, 64, 8, 1):
    name = "/flash/fill%d" % size
    fillers.append(name)
    try:
        with open(name, "wb") as f:
            while True:
                f.write(bytes(size))
    except OSError:
        pass
out.clear()
protocol.handle(board, b"new lippo", 0)
check(said(out, "error journal-full") or said(out, "ok new lippo"), "full: %r" % out)
uid, game = board.uid, board.game
for name in fillers:
    os.remove(name)
board, out = boot()
check(board.uid == uid and board.game == game and not said(out, "alert"), "after the full flash: %r" % out)
vfs.umount("/flash")
print("ok")
