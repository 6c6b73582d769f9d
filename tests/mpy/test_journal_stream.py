"""The journal is read as a stream (issue #11, point 9): under a board's heap, a journal of
random bytes of any size, or a long good one, never stops the board from saying hello;
damage is set aside and reported, a torn last record is cut off without a word."""

import gc
import os

from mpytest import boot_board, check, said

from firmware import protocol
from firmware.journal import Journal

for name in ("boards.sim", "firmware.app"):  # a board's code is loaded before it reads a journal
    __import__(name)

DIR = os.getenv("EBOARD_TMP") or "/tmp"
PATH = DIR + "/stream.journal"


def clean():
    for p in (PATH, PATH + ".bad", PATH + ".new"):
        try:
            os.remove(p)
        except OSError:
            pass



def boot():
    return boot_board(PATH)



# Random bytes, 64 KiB and 1 MiB, written a KiB at a time (the test's own heap is small).
for kib in (64, 1024):
    clean()
    with open(PATH, "wb") as f:
        for _ in range(kib):
            f.write(os.urandom(1024))
    gc.collect()
    board, out = boot()
    check(said(out, "hello eboard 3 chess setup"), "%d KiB of noise: no hello: %r" % (kib, out))
    check(said(out, "alert journal-damaged"), "%d KiB of noise: not reported: %r" % (kib, out))
    check(os.stat(PATH + ".bad")[6] == kib * 1024, "the noise was not set aside whole")
    protocol.handle(board, b"game", 0)
    check(said(out, "ok game chess "), "no game after the noise")
    del board
    gc.collect()

# A long good journal: a game's head, 3000 blocks of numbers, two moves.
clean()
j = Journal(PATH)
j.rewrite(["N 0 1234abcd chess -"])
for i in range(3000):
    j.append("S %d" % (256 * (i + 1)))
j.append("B 3")
j.append("M 4 e2e4")
j.append("M 6 e7e5")
gc.collect()
board, out = boot()
check(not said(out, "alert"), "a good journal was reported: %r" % out)
check(board.uid == "1234abcd" and board.history() == ["e2e4", "e7e5"], "the long journal's game was not resumed")
check(board.outbox.seq > 256 * 3000, "numbering went back below the journal's blocks")
del board
gc.collect()

# A torn last record: cut off, the game goes on, nothing said.
size = os.stat(PATH)[6]
with open(PATH, "ab") as f:
    f.write(b"\x09\x00M 9 g1f")
board, out = boot()
check(not said(out, "alert"), "a torn record was reported: %r" % out)
check(board.uid == "1234abcd" and board.history() == ["e2e4", "e7e5"], "a torn record lost the game")
check(os.stat(PATH)[6] > size and os.stat(PATH)[6] < size + 11 + 20, "the torn record was not cut off")
clean()
print("ok")
