# heapsize=1M  (the flash itself is a bytearray here)
"""The journal in a raw flash ring (firmware/ring.py, the Pico image's): a move's record
never waits for an erase once the board has stood idle, the game survives power-ups and
the ring's wrapping, power cuts inside any erase or program lose no accepted move and
invent none, a worn cell is written around, damage is set aside, a full ring is said."""

import os

from fuzzgen import Rand, lasting_move
from mpytest import check, said
from ringflash import PowerCut, RingFlash, RingHardware

from firmware import protocol
from firmware.app import Board

TMP = os.getenv("EBOARD_TMP") or "/tmp"
PATH = TMP + "/ring.journal"


def boot(flash):
    out = []
    board = Board(RingHardware(flash, PATH), out.append)
    try:
        board.boot(0)
    except PowerCut:  # inside the power-up's own writing: powered up once more
        return boot(flash)
    return board, out


def next_move(board, rng):
    pos = board.pos
    return pos.move_str(lasting_move(pos, pos.legal_moves(), rng))


def move(board, m):
    protocol.handle(board, b"move " + m.encode(), 0)


# (Both flashes made first, and reused: a heap of many would be in pieces.)
SMALL = RingFlash(4)

# ---- a long game, and games enough to wrap the ring several times ------------------------
flash = RingFlash(6)  # 24 KB
board, out = boot(flash)
check(board.journal.sectors, "no journal begun at the first power-up: %r" % out)
rng = Rand(7)
slow = 0
for game in range(6):
    protocol.handle(board, b"new lippo", 0)
    played = []
    for ply in range(150):
        board.journal.idle()  # the board standing idle between two moves
        before = flash.erases
        m = next_move(board, rng)
        move(board, m)
        played.append(m)
        slow += flash.erases - before
    board, out = boot(flash)
    check(board.history() == played and board.game == "lippo", "game %d after a power-up: %r" % (game, out))
    check(not said(out, "alert"), "game %d: %r" % (game, out))
check(slow == 0, "%d erases under a move's record" % slow)
wrapped = flash.erases
check(wrapped > 6, "the ring did not wrap: %d erases" % wrapped)
print("6 Lippo games of 150 plies on 6 sectors: %d erases, none under a move" % wrapped)

# ---- a worn cell: the record that did not land is written again in a fresh sector --------
sectors = len(board.journal.sectors)
at = board.journal.sectors[-1] * 4096 + board.journal.tail + 3
flash.stuck = (at, 0x01)  # a bit of the next record that stays 1
m = next_move(board, rng)
move(board, m)
played.append(m)
flash.stuck = None
check(len(board.journal.sectors) == sectors + 1, "not moved to a fresh sector: %r" % board.journal.sectors)
board, out = boot(flash)
check(board.history() == played and not said(out, "alert"), "after a worn cell: %r" % out)

# ---- damage inside an older sector: set aside, said, a new game --------------------------
uid = board.uid
a = board.journal.sectors[0] * 4096 + 16 + 4
flash.data[a] ^= 0x02
board, out = boot(flash)
check(said(out, "alert journal-damaged") and board.uid != uid, "damage: %r" % out)
check("ring.journal.bad" in os.listdir(TMP), "not set aside: %r" % os.listdir(TMP))
board, out = boot(flash)
check(not said(out, "alert") and board.game == "chess", "after the damage: %r" % out)


# ---- power cuts inside every kind of erase and program -----------------------------------
def play(flash, rng, plies, cut_at):
    """A chess game with a new game in its middle; the power cut inside op cut_at.  Returns
    (what went wrong or None, whether a cut came)."""
    flash.cut_at = cut_at
    board, out = boot(flash)
    acked = []
    cut = False
    step = 0
    while step < plies:
        if step == plies // 2 and not cut:
            try:
                protocol.handle(board, b"new chess", 0)
                acked = []
            except PowerCut:
                cut = True
                board, out = boot(flash)
                acked = board.history()  # the old game, or the new one: both are right
                continue
        if step % 3 == 0:
            try:
                board.journal.idle()
            except PowerCut:
                cut = True
                board, out = boot(flash)
                if board.history() != acked:
                    return "a cut inside an erase: %r, then %r" % (acked, board.history()), cut
        m = next_move(board, rng)
        try:
            move(board, m)
        except PowerCut:
            cut = True
            board, out = boot(flash)
            got = board.history()
            if got != acked and got != acked + [m]:
                return "the cut move %s: accepted %r, found %r" % (m, acked, got), cut
            acked = got
            if said(out, "alert"):
                return "alert after a cut: %r" % out, cut
            continue  # the player looks at the board and plays on from what it holds
        acked.append(m)
        step += 1
    board, out = boot(flash)
    if board.history() != acked:
        return "at the end: accepted %r, found %r" % (acked, board.history()), cut
    return None, cut


PLIES = 80
flash = SMALL
flash.reset(fill=0)  # every sector erased before its first use
play(flash, Rand(1), PLIES, 0)
ops, erases, programs = flash.ops, flash.erases, flash.programs
check(erases >= 2, "%d erases" % erases)  # (the new game is appended: a `new` that rewrites, test_journal_keep.py)
cuts = 0
for k in range(1, ops + 1):
    flash.reset(Rand(k), fill=0)
    problem, cut = play(flash, Rand(1), PLIES, k)
    check(problem is None, "cut inside op %d of %d: %s" % (k, ops, problem))
    cuts += flash.ops >= k  # (a cut inside a power-up's writing is not seen by play())
check(cuts == ops, "%d cuts of %d" % (cuts, ops))
print("%d power cuts, one inside each of a game's %d erases and %d programs: 0 moves lost, 0 invented" % (cuts, erases, programs))

# ---- a full ring: said, the moves kept in RAM, said again at every power-up ---------------
flash.reset()
board, out = boot(flash)
protocol.handle(board, b"new lippo", 0)
rng = Rand(3)
played = []
alert = []
while len(played) < 2000 and not alert:
    out.clear()
    m = next_move(board, rng)
    move(board, m)
    played.append(m)
    alert = said(out, "alert journal-full")
check(len(alert) == 1, "full not said (%d plies)" % len(played))
first = int(alert[0].split()[3])
out.clear()
protocol.handle(board, b"history", 0)
check(board.history() == played, "history on the full ring: %r" % out)
board, out = boot(flash)
alert = said(out, "alert journal-full")
check(len(alert) == 1 and int(alert[0].split()[3]) == first, "after a power-up: %r" % out)
check(board.history() == played[: first - 1], "the saved moves: %d of %d" % (len(board.history()), first - 1))
out.clear()
protocol.handle(board, b"new chess", 0)
check(said(out, "ok new chess"), "new on a full ring: %r" % out)
board, out = boot(flash)
check(not said(out, "alert") and board.game == "chess", "after new: %r" % out)
print("full after %d plies on 4 sectors, the first not saved %d" % (len(played), first))
print("ok")
