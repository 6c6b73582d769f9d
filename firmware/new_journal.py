"""A new game's journal (firmware/rewrites.py's start, which loads this module for it and
drops it after): the games before it kept for a host away, within a share of the flash;
past it, the oldest dropped; on a full flash, as many as fit, or none (docs/protocol.md
"The journal", "`new` on a full flash").

Why keep them: a host may be away across several new games (a hall's host PC down for a
round; bench/hall_pg.py 4 x 32: boards unfollowed for minutes while 128 boards were caught
up one by one), and the archive has a game only if some host fetched it (`since` replays
every game the journal holds).  Why a share: the game in play needs the rest of the flash,
and a rewrite copies what it keeps.
"""

import os

from firmware.journal import SEQ_BLOCK, JournalFull

# A new game's journal keeps the games before it that fit these bytes, for a host away (some
# ten games of 60 moves; a `new` whose journal is past them copies those that fit), ...
KEEP_BYTES = 16384
KEEP_SHARE = 4  # ... and a quarter of the flash at most: the game in play needs the rest


def start(log, head):
    """A new game's journal: the games before it kept (those a host away has not fetched
    yet: `since` replays them all), then the new game's first record head and a block of
    numbers.  While the journal is within its share of the flash (keep()), the new game is
    appended to it; past that it is rewritten, its oldest games dropped, keeping the newest
    that fit the share (the game before at least, if the flash takes it); on a flash too
    full for even that, head alone.  JournalFull only if not even head fits: the board
    cannot begin a game."""
    seq = log.board.outbox.seq
    journal = log.journal
    reserve = "S %d" % (seq + SEQ_BLOCK)
    share = keep(journal)
    written = False  # head is in the journal
    at = journal.size  # where head goes if appended (journal.head_at)
    if not log.unsaved_from and journal.size <= share:
        try:
            journal.append(head)
            written = True
            journal.append(reserve)
            log.seq_reserved = seq + SEQ_BLOCK
            log.reservations += 1
            log.journal.head_at = at
            return
        except JournalFull:
            pass

    # Rewritten: where each game begins, and the bytes of its records and those after it.
    heads = []
    total = i = 0
    for rec in journal.records():
        if rec == head:
            break  # appended above, its numbers not: written again below
        if rec[0] == "N" or rec[0] == "K":
            heads.append((i, total))
        if rec[0] != "S" and rec[0] != "X":
            total += len(rec) + 6
        i += 1
    firsts = [k for k, before in heads if total - before <= share][:1]
    if heads and heads[-1][0] not in firsts:
        firsts.append(heads[-1][0])
    firsts.append(-1)

    def records(first):
        if first >= 0:
            k = 0
            for rec in journal.records():
                if rec == head:
                    break
                # (a game kept is over: its reservations and checkpoints are not needed)
                if k >= first and rec[0] != "S" and rec[0] != "X":
                    yield rec
                k += 1
        yield head
        yield reserve

    for first in firsts:
        try:
            journal.rewrite(records(first))
            log.seq_reserved = seq + SEQ_BLOCK
            log.reservations = 0
            log.journal.head_at = 0  # (not known in the new journal: history reads it all)
            return
        except JournalFull:
            if first < 0 and not written:
                raise
    log.journal.head_at = at
    # head went in above, its block of numbers did not: the next message reserves it (or
    # finds the flash full and says so)


def keep(journal):
    """The bytes of old games a new game's journal keeps at most: KEEP_BYTES, and no more
    than a KEEP_SHARE-th of the flash (a raw flash ring's size; a file's free room and
    its own size): the game in play needs the rest."""
    room = KEEP_BYTES * KEEP_SHARE
    if getattr(journal, "n", 0):
        room = journal.n * 4096
    else:
        path = journal.path
        cut = path.rfind("/")
        try:
            st = os.statvfs(path[:cut] if cut > 0 else ("/" if cut == 0 else "."))
            room = st[0] * st[4] + journal.size
        except (OSError, AttributeError):
            pass
    return min(KEEP_BYTES, room // KEEP_SHARE)
