# heapsize=2M  (the flash itself is a bytearray here, and a long game is played on it)
"""The journal on littlefs, the Pico's filesystem (boards/pico.py keeps it in the flash's
root): only plain file I/O, so a damaged journal is set aside, a torn record cut off, a
game resumed, and a full flash refused, on littlefs as on the unix port's files."""

import os

import vfs
from fillflash import fill
from fuzzgen import Rand, lasting_move
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
check(sorted(os.listdir("/flash")) == ["journal.bin", "journal.bin.room"], "files on the flash: %r" % os.listdir("/flash"))
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
for name in os.listdir("/flash"):
    os.remove("/flash/" + name)


# Issue #23 item 3: the flash fills in the middle of a game.  The moves go on in RAM, the
# alert names the first ply not saved, `state` and `history` agree; after a power cut
# every power-up says it again and the board holds the moves before that ply; `new`
# makes room by dropping the old games, or is refused.
def next_move(board, rng):
    pos = board.pos
    return pos.move_str(lasting_move(pos, pos.legal_moves(), rng))


board, out = boot()
protocol.handle(board, b"new lippo", 0)
check("journal.bin.room" in os.listdir("/flash"), "no spare room: %r" % os.listdir("/flash"))
fillers = fill("/flash")
rng = Rand(23)
played = []
alert = []
while len(played) < 1500 and not alert:
    out.clear()  # (what the board says is looked at move by move: a long game's lines)
    m = next_move(board, rng)
    protocol.handle(board, b"move " + m.encode(), 0)
    played.append(m)
    alert = said(out, "alert journal-full")
check(len(alert) == 1, "the full flash said once (%d plies): %r" % (len(played), out[-4:]))
first = int(alert[0].split()[3])
check(1 <= first <= len(played), "first unsaved ply %d of %d" % (first, len(played)))
for _ in range(6):
    m = next_move(board, rng)
    protocol.handle(board, b"move " + m.encode(), 0)
    played.append(m)
protocol.handle(board, b"undo", 0)
played.pop()
out.clear()
protocol.handle(board, b"state", 0)
protocol.handle(board, b"history", 0)
ply = int(said(out, "ok state")[0].split()[5])
check(ply == len(played) and board.history() == played, "state %d, history %r, played %r" % (ply, board.history(), played))
check(not said(out, "alert"), "said twice: %r" % out)

for n in range(2):  # a power cut, then another: said at every power-up
    board, out = boot()
    alert = said(out, "alert journal-full")
    check(len(alert) == 1 and int(alert[0].split()[3]) == first, "power-up %d: %r" % (n, out))
    check(board.history() == played[: first - 1] and board.ply == first - 1, "after the cut: %r" % board.history())
# The host's move for the ply the board lacks: kept in RAM, not after a gap on the flash.
protocol.handle(board, b"move " + played[first - 1].encode(), 0)
check(board.history() == played[:first], "a move after the power-up: %r" % board.history())
board, out = boot()
check(board.history() == played[: first - 1], "saved after a gap: %r" % board.history())

# `new` on the full flash: the old games dropped to make room, or refused in words.
out.clear()
protocol.handle(board, b"new chess", 0)
check(said(out, "ok new chess") or said(out, "error journal-full"), "new on a full flash: %r" % out)
print("full after %d plies, the first not saved %d; new on the full flash: %s" % (len(played), first, out[-1]))
for name in fillers:
    os.remove(name)
board, out = boot()
check(not said(out, "alert") or said(out, "alert journal-full"), "after room was made: %r" % out)
vfs.umount("/flash")
print("ok")
