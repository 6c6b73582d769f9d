"""The journal's seldom work, for the board's Logbook (in firmware/journal.py): a new
game's journal (firmware/new_journal.py's), a checkpoint, the journal rewritten without its old reservations, and a
full flash.  Loaded for one of them and dropped after (Board.journal_work): on stock
MicroPython a module's code takes heap for as long as it is loaded, and a game in play
needs none of this.

Each is name(log, arg): log the Logbook, arg what the work needs (or None).
"""

from firmware.journal import MAX_RECORD, SEQ_BLOCK, JournalFull

FULL_SEQ = 1 << 20  # message numbers a full flash's F record reserves (no S record fits after it)
CHECKPOINT_MOVES = 40  # a checkpoint holds at most this many moves (the rules' look-back)


def start(log, head):
    """A new game's journal, with the games before it kept: firmware/new_journal.py's,
    loaded for it alone (a checkpoint, which loads this module mid-game, need not carry it)."""
    from firmware import drop_module, new_journal

    try:
        new_journal.start(log, head)
    finally:
        drop_module("firmware", "new_journal")


def compact(log, arg=None):
    """A board left on for days answers many requests: the journal kept to the games, its
    reservations (S records) but the last one dropped."""

    def kept():
        for rec in log.journal.records():
            if rec[0] != "S":
                yield rec
        yield "S %d" % log.seq_reserved

    try:
        log.journal.rewrite(kept())
        log.reservations = 0
        log.journal.head_at = 0  # (its records moved)
    except OSError:
        pass  # the old journal is still whole: it just stays long


def full(log, first):
    """The flash is full: the game's record on the board ends before ply first.  From here
    the game goes on in RAM (its moves kept for `history`), nothing more of it is
    journaled, and F says so on the flash, in the spare room, with a block of message
    numbers (no S record fits after it)."""
    log.unsaved_from = first
    log.unsaved = bytearray()
    log.journal.free_room()
    seq = log.board.outbox.seq + FULL_SEQ
    try:
        log.journal.append("F %d %d" % (seq, first))
        log.seq_reserved = seq
    except OSError:
        pass  # not even that: a power-up will find the flash full and say so again
    if log.board.greeted:
        say_full(log)


def say_full(log, arg=None):
    """The alert that the game's record lacks moves (at every power-up while it does)."""
    n = log.unsaved_from
    log.board._send(
        "alert journal-full %d the flash is full: the moves from ply %d on are not saved on the board"
        " (only the host has them)" % (n, n)
    )


def checkpoint(log, arg=None):
    """A checkpoint record, due (Logbook.checkpoint), if the game allows one now: the
    position at the bottom of the rules' stack, its moves unmade, and those moves after
    it, so that the state a power-up replays from it (firmware/power_up.py) is the very
    one a replay from the start builds (undo, repetitions: the stack)."""
    board = log.board
    pos = board.pos
    if board.krieg is not None or log.unsaved_from:
        return
    n = len(pos.stack)
    first = board.ply - n
    if n > CHECKPOINT_MOVES or first < log.claim_ply:
        return  # later: after a capture or a pawn's move, or past the claim
    log.checkpoint_ply = board.ply
    undone = []
    for _ in range(n):
        undone.append(pos.pop())
    fen = pos.fen()
    words = []
    while undone:
        m = undone.pop()
        words.append(pos.move_str(m))
        pos.push(m)
    text = "X %d %d %s|%s" % (board.outbox.seq, first, fen, " ".join(words))
    if len(text) <= MAX_RECORD:
        try:
            board.journal.append(text)
        except OSError:
            pass  # a checkpoint only saves time: the moves are in the journal
