# heapsize=512K  (the flash itself is a bytearray here)
"""A board keeps the games no host has fetched yet (docs/protocol.md "The journal"), in the
Pico image's flash ring (firmware/ring.py): games begun one after another while no host
follows are all replayed by `since`; a journal past its share of the flash drops its oldest
games at the next `new`; a ring too full for them keeps the game before alone, or none; and
a power cut inside any erase or program of that `new` leaves the old journal or the new
one, never a game lost that either keeps."""

import os

from mpytest import check, said
from ringflash import PowerCut, RingFlash, RingHardware

from firmware import protocol
from firmware.app import Board

TMP = os.getenv("EBOARD_TMP") or "/tmp"
PATH = TMP + "/keep.journal"
MOVES = ("e2e4", "e7e5", "g1f3", "b8c6")


def boot(flash):
    out = []
    board = Board(RingHardware(flash, PATH), out.append)
    try:
        board.boot(0)
    except PowerCut:
        return boot(flash)
    return board, out


def games(board):
    """The journal's games: [(uid, moves)], oldest first."""
    got = []
    for rec in board.journal.records():
        w = rec.split()
        if w[0] == "N":
            got.append((w[2], []))
        elif w[0] == "M":
            got[-1][1].append(w[2])
    return got


def old_journal(flash, count, seq=10):
    """A ring holding count games of four moves each (uids 00000001 ...), the last in play."""
    from firmware.ring import RingJournal

    recs = []
    for g in range(1, count + 1):
        recs.append("N %d %08x chess -" % (seq, g))
        for m in MOVES:
            seq += 1
            recs.append("M %d %s" % (seq, m))
        seq += 1
    recs.append("S %d" % (seq + 256))
    RingJournal(flash, flash.mem, PATH).rewrite(recs)


# ---- four games begun while no host follows: all kept, all replayed by `since` ------------
# (Both flashes made first, and reused: a heap of many would be in pieces.)
flash = RingFlash(8)  # 32 KB: a quarter of it (8 KB) for the old games
SMALL = RingFlash(4)  # 16 KB: 4 KB; the old generation's two sectors and a new one's fill it
board, out = boot(flash)
uids = []
for g in range(4):
    protocol.handle(board, b"new chess", 0)
    uids.append(board.uid)
    for m in MOVES[: g + 1]:
        protocol.handle(board, b"move " + m.encode(), 0)
board, out = boot(flash)
check([u for u, _ in games(board)][-4:] == uids, "kept: %r, begun %r" % (games(board), uids))
out.clear()
protocol.handle(board, b"since 0", 0)
lines = [line.split(" ", 1)[1] for line in out]
starts = [w.split()[2] for w in lines if w.startswith("newgame")]
check(starts[-4:] == uids, "since 0 replays %r" % lines)
for g in range(4):  # each game's moves after its start, in order
    at = lines.index("newgame chess %s -" % uids[g])
    moves = [w.split()[2] for w in lines[at + 1 : at + 1 + g + 1]]
    check(moves == list(MOVES[: g + 1]), "game %d replayed as %r" % (g, lines[at:]))
check(board.history() == list(MOVES[:4]), "history %r" % board.history())

# ---- past its share: the oldest games dropped at the next `new` ---------------------------
flash.reset()
old_journal(flash, 120)  # some 13 KB: past the 8 KB share
board, out = boot(flash)
check(board.uid == "%08x" % 120 and board.history() == list(MOVES), "resumed: %r" % out)
protocol.handle(board, b"new chess", 0)
kept = games(board)
check(kept[-1] == (board.uid, []) and kept[-2] == ("%08x" % 120, list(MOVES)), "new: %r" % kept[-3:])
check(20 < len(kept) - 1 < 120, "%d old games kept" % (len(kept) - 1))
check(kept[0][0] == "%08x" % (121 - (len(kept) - 1)), "not the newest kept: %r" % kept[:2])
check(not [r for r in board.journal.records() if r[0] == "S"][1:], "reservations kept")
print("120 old games of 13 KB, a new game: the newest %d kept" % (len(kept) - 1))

# ---- a small ring: the newest games that fit its share kept, the game before among them ---
old_journal(SMALL, 60)  # some 5 KB: past the 4 KB share
board, out = boot(SMALL)
snapshot = bytes(SMALL.data)
before = games(board)
SMALL.ops = 0


def kept_newest(got):
    """got: the newest of before's games (the game before among them), then a new one."""
    n = len(got) - 1
    return 0 < n < len(before) and got[:-1] == before[-n:] and got[-1][1] == []


protocol.handle(board, b"new chess", 0)
check(said(out, "ok new chess") and kept_newest(games(board)), "new: %r" % games(board)[:1])

# ---- a power cut inside an erase or program of that `new` ---------------------------------
ops = SMALL.ops  # the `new` above: its erases and programs
cuts = 0
for k in sorted(set([1, 2, 3, ops - 2, ops - 1, ops] + list(range(4, ops, 9)))):
    SMALL.data[:] = snapshot
    board, out = boot(SMALL)
    SMALL.cut_at = SMALL.ops + k
    try:
        protocol.handle(board, b"new chess", 0)
    except PowerCut:
        cuts += 1
    SMALL.cut_at = 0
    board, out = boot(SMALL)
    got = games(board)
    check(not said(out, "alert"), "cut %d: %r" % (k, out))
    if got == before:
        check(board.history() == list(MOVES), "cut %d: the old game %r" % (k, board.history()))
    else:
        check(kept_newest(got) and board.history() == [], "cut %d: %r" % (k, got[:1]))
check(cuts >= 20, "%d cuts of %d ops" % (cuts, ops))
print("%d power cuts inside a `new` that drops old games (%d erases and programs): 0 games lost" % (cuts, ops))
print("ok")
