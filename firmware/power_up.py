"""A power-up's work (Board.boot): the journaled game taken up, or the default game begun.
Loaded for it and dropped after (firmware/app.py): on stock MicroPython a module's bytecode
takes heap, and this runs once a power-up."""

from firmware.common import DEFAULT_GAME, PROTOCOL, is_uid, new_uid
from firmware.rules import forget_games, new_position
from firmware.tracker import STATES

BOOT_GARBAGE_RECORDS = 32  # a journal read at power-up with more records is collected after


def boot(board, now_ms):
    """Name this power-up, resume the journaled game (or begin the default game and
    wait for its set-up); says hello, and whether the journal had to be set aside."""
    # A power-up's identity is random (31 bits, the chip's ring oscillator on a Pico):
    # no flash is read or written for it, and a power cut can never make two boots
    # share one, as a counter written back could.
    board.boot_id = int(new_uid(board.urandom), 16) & 0x7FFFFFFF
    problem = _resume(board)
    aside = None
    if problem is not None:
        # Damage is not a power cut: this journal's game and its numbers cannot be
        # trusted.  Kept for a person to look at; the board starts afresh (a new uid).
        aside = board.journal.set_aside()
        board.pos = None
        board.krieg = None
        board.outbox.seq = 0
        forget_games(DEFAULT_GAME)  # the damaged journal's game may be half built
        board.collect()
    resumed = board.pos is not None
    journaled = resumed or _default_game(board)
    board.hw.matrix.scan(board.rows)
    board.debouncer.reset(board.rows)
    board.tracker.set_actual(board._occupancy())
    # A game with moves resumes at once (the board then shows what to fix, if
    # anything moved while it was off); one still being set up waits for it.
    board._follow(board.pos, setup=not resumed or board._fresh, now_ms=now_ms)
    board._reserve()
    board._send("hello eboard %d %s %s %d" % (PROTOCOL, board.game, STATES[board.tracker.state], board.boot_id))
    if problem is not None:
        board._send("alert journal-damaged %s; set aside as %s" % (problem, _base(aside)))
    board.greeted = True
    if not journaled:
        board.journal_ok = False
        board.unsaved_from = 1
        board.unsaved = bytearray()
    if board.unsaved_from:
        board._say_full()  # at every power-up while the game's record lacks moves
    elif problem is None:
        board._keep_room()
    if board.rows[0] == 0x801 and board.rows[11] == 0x801 and sum(board.rows) == 0x1002:
        # Magnets on the four corners alone: the self-test, started without a PC.
        from firmware import selftest

        selftest.start(board, now_ms)
    board._render()


def _default_game(board):
    # A board with no usable journal plays chess: a game like any other, with its
    # own uid, journaled at once so that a power cut keeps it.
    board.uid = new_uid(board.urandom)
    board.game = DEFAULT_GAME
    board.start_fen = None
    board.ply = board.checkpoint_ply = board.claim_ply = board.unsaved_from = 0
    board._fresh = True
    board.pos = new_position(DEFAULT_GAME)
    try:
        board.journal.rewrite(["N %d %s %s -" % (board.outbox.seq, board.uid, DEFAULT_GAME)])
        return True
    except OSError:
        return False  # boot() says so, after its hello


def _resume(board):
    """Take up the journaled game: None if done (or the journal is empty), else what
    is wrong with the journal (a torn last record is cut off: Journal.check).  One
    pass checks the records (and takes up the message numbers), the next replays the
    game being played: from its first record, then from its last checkpoint, if it has
    one (the records between are its moves: not read again)."""
    start = check = -1
    start_at = check_at = 0  # those records' bytes in the file
    seq = 0
    i = at = 0
    journal = board.journal
    for rec in journal.records():
        n = _number(rec)
        if type(n) is str:
            return "record %d %s" % (i, n)
        if i == 0 and rec[0] not in "NK":
            return "record 0 does not begin a game"
        if n > seq:
            seq = n
        kind = rec[0]
        if kind == "N" or kind == "K":
            start, start_at = i, at
            check = -1
            plain = True  # since it: only records a checkpoint holds the work of
        elif kind == "X":
            check, check_at = i, (at if plain else 0)
        elif kind == "P":  # a position set: the game goes on from it, not from a checkpoint
            check = -1
        elif kind not in "MUCSB":  # (E, V, F) read in order, not jumped over
            plain = False
        at = journal.end
        i += 1
    problem = board.journal.verdict(i)
    if problem is not None:
        return problem
    if start < 0:
        return None  # an empty journal: a new board
    try:
        # At power-up the heap holds little but the modules: the records the check pass
        # read are its garbage, worth a collection (~20 ms on a stock Pico) only when many.
        board._replay(start, collect=i > BOOT_GARBAGE_RECORDS, check=check, at=start_at, jump=check_at)
        board.outbox.seq = seq
    except (ValueError, IndexError, KeyError) as e:
        board.pos = None
        return "a record that does not apply (%s)" % e
    return None


JOURNAL_FIELDS = {"F": 3, "N": 5, "K": 6, "P": 4, "B": 2, "M": 3, "U": 3, "C": 3, "V": 3, "E": 4, "S": 2, "X": 4}


def _number(rec):
    """The message number (an int) of a journal record this firmware writes, else what is
    wrong with the record (a str).  (One split a record: the boot's first pass reads every
    record of a long game's journal.)"""
    words = rec.split(" ")
    need = JOURNAL_FIELDS.get(words[0])
    if need is None:
        return "is not a journal record"
    if len(words) < need or not words[1].isdigit():
        return "is short"
    if need >= 4 and words[0] in "NKP" and not is_uid(words[2]):
        return "has no game uid"
    return int(words[1])


def _base(path):
    return path[path.rfind("/") + 1 :]
