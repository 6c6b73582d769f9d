"""A power-up's work (Board.boot): the journaled game taken up, or the default game begun;
a game switch (Board._begin), and the journal's game taken up again after one that
failed (Board._recover).  The checkpoint records it reads are firmware/rewrites.py's.
Loaded for it and dropped after (firmware/app.py): on stock MicroPython a module's bytecode
takes heap, and this runs once a power-up, or once in 50 plies and more."""

from firmware.journal import JournalFull
from firmware.terms import DEFAULT_GAME, PROTOCOL, Refused, claim, host_end, is_uid, new_uid
from firmware.rules import FenError, forget_games, new_position
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
    board.logbook.reserve()
    board._send("hello eboard %d %s %s %d" % (PROTOCOL, board.game, STATES[board.tracker.state], board.boot_id))
    if problem is not None:
        board._send("alert journal-damaged %s; set aside as %s" % (problem, _base(aside)))
    board.greeted = True
    if not journaled:
        board.logbook.ok = False
        board.logbook.unsaved_from = 1
        board.logbook.unsaved = bytearray()
    if board.logbook.unsaved_from:
        board.journal_work("say_full")  # at every power-up while the game's record lacks moves
    elif problem is None:
        board.journal.keep_room()
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
    board.ply = 0
    board.logbook.begin()
    board._fresh = True
    board.pos = new_position(DEFAULT_GAME)
    try:
        board.journal.head_at = 0
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
        replay(board, start, collect=i > BOOT_GARBAGE_RECORDS, check=check, at=start_at, jump=check_at)
        board.outbox.seq = seq
        board.journal.head_at = start_at  # (history reads from it, not through the games kept)
    except (ValueError, IndexError, KeyError) as e:
        board.pos = None
        return "a record that does not apply (%s)" % e
    return None


def replay(board, start, collect=True, check=-1, at=0, jump=0):
    # Rebuild the game from the journal's records from number start (the last N or
    # K; at: its byte in the file, if known); check: the number of the game's last
    # checkpoint (X), -1 for none: the moves before it are not made again, the
    # position is taken up from it; jump: that checkpoint's byte (0: unknown), the
    # records between the game's first and it not even read (only moves, takebacks,
    # claims and numbers: the boot's first pass made sure).
    # ValueError (FenError, MoveError) or IndexError if a record does not apply.
    # A collection first: the game's tables need the heap in one piece, not the
    # scraps that compiling and reading the journal left (lippo did not fit without).
    if collect:
        board.collect()
    pos = None
    ply = 0
    board._fresh = True
    ended = None
    i = start if at else 0  # the number of the record read next
    if check < 0:
        jump = 0
    feed = board.hw.feed_watchdog  # a long game's replay outlasts the watchdog's 4 s
    log = board.logbook
    for rec in _records(board, at, jump):
        feed()
        words = rec.split(" ", 2)
        if jump and i == start + 1:
            i = check  # the first record after the game's first: its checkpoint
        i += 1
        if i <= start:
            continue
        kind = words[0]
        if i <= check and (kind == "M" or kind == "U" or kind == "C"):
            continue  # the checkpoint has their work
        if kind == "N":  # N seq uid game fen
            uid, gid, fen = words[2].split(" ", 2)
            fen = None if fen == "-" else fen
            pos = None
            pos = _build(board, gid, lambda: new_position(gid, fen))
            board.game, board.uid, board.start_fen, board.krieg = gid, uid, fen, None
            ply = log.claim_ply = log.unsaved_from = 0
            ended = None
        elif kind == "K":  # K seq uid game side view-FEN
            uid, gid, side, fen = words[2].split(" ", 3)
            pos = None
            from firmware import krieg

            pos = _build(board, gid, lambda: krieg.new_view(gid, fen))
            board.game, board.uid, board.start_fen, board.krieg = gid, uid, fen, krieg.new_player(side)
            ply = 0
        elif kind == "M":
            pos.push(pos.replay_move(words[2]))
            pos.trim()
            board._fresh = False
            ply += 1
        elif kind == "U":
            pos.pop()
            ply -= 1
        elif kind == "P":  # P seq uid fen
            uid, fen = words[2].split(" ", 1)
            pos.set_fen(fen)
            board.uid, board.start_fen = uid, fen
            board._fresh = False
            ply = log.claim_ply = log.unsaved_from = 0
            ended = None
        elif kind == "C":
            claim(pos, words[2])
            log.claim_ply = ply
        elif kind == "V":
            from firmware import krieg

            pos = krieg.new_view(board.game, words[2])
            board._fresh = False
        elif kind == "B":
            board._fresh = False
        elif kind == "E":
            ended = host_end(words[2])
        elif kind == "F":  # the flash filled: the game's record ends before that ply
            log.unsaved_from = int(words[2])
            log.unsaved = bytearray()
        elif kind == "X" and i - 1 == check:
            ply = _from_checkpoint(board, pos, words[2])
            board._fresh = False
    board.pos = pos
    board.ply = ply
    board.ended = ended
    log.checkpoint_ply = board.ply if check >= 0 else 0

def _records(board, at, jump):
    # The journal's records from byte at on; with jump, only the first of them, then
    # those from byte jump on.
    recs = board.journal.records(at)
    for rec in recs:
        yield rec
        if jump:
            recs.close()
            yield from board.journal.records(jump)
            return

def _from_checkpoint(board, pos, text):
    # An X record's "<ply> <fen>|<moves>": the position at that ply, then the moves after
    # it that its stack holds; returns the ply reached.  The claims made before it are
    # in the FEN (the board writes no checkpoint from before a claim).
    head, moves = text.split("|", 1)
    ply, fen = head.split(" ", 1)
    pos.set_fen(fen)
    ply = int(ply)
    board.logbook.claim_ply = ply
    for t in moves.split():
        pos.push(pos.replay_move(t))
        pos.trim()
        ply += 1
    return ply


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


def recover(board, now_ms):
    """A game switch that ran out of memory even on its way back (Board._recover): the
    journal's game again with whatever memory is free now, else a new default game; a
    board always has a game."""
    forget_games(board.game)
    board.collect()
    try:
        replay(board, board.logbook.last_head())
    except (MemoryError, ValueError, IndexError, KeyError):
        board.pos = None
    if board.pos is None:
        forget_games(DEFAULT_GAME)
        board.collect()
        board.uid = new_uid(board.urandom)
        board.pos = new_position(DEFAULT_GAME)
        board.game = DEFAULT_GAME
        board.start_fen = None
        board.krieg = None
        board.ply = 0
        board.logbook.begin()
        try:
            board.journal_work("start", "N %d %s %s -" % (board.outbox.seq + 1, board.uid, DEFAULT_GAME))
        except OSError:
            pass
        board._send("newgame %s %s -" % (DEFAULT_GAME, board.uid))
    board._follow(board.pos, setup=True, now_ms=now_ms)
    board.tracker.resync(now_ms)  # the same game goes on: its last move stays lit


def begin(board, gid, build, head, fen, player, now_ms):
    """A new game (or Kriegspiel view), Board._begin's: build() makes its position; head is
    its first journal record without its number and uid ("N chess -", "K chess white FEN").
    Here and not in the Board: on stock MicroPython the code of a game switch took heap
    all game long."""
    # One game's tables at a time: the old game goes first.
    if gid != board.game:
        board.pos = board.tracker.pos = None
        forget_games(gid)
        board.collect()
    uid = new_uid(board.urandom)
    kind, rest = head.split(" ", 1)
    try:
        pos = _build(board, gid, build)
        board.journal_work("start", "%s %d %s %s" % (kind, board.next_seq(), uid, rest))
    except (Refused, FenError, JournalFull, MemoryError) as e:
        if board.pos is None:  # back to the game the journal still holds
            pos = None
            forget_games(board.game)
            board.collect()
            replay(board, board.logbook.last_head())
            board.tracker.pos = board.pos
        if isinstance(e, FenError):
            raise Refused("bad-fen", str(e))
        if isinstance(e, JournalFull):
            raise Refused("journal-full", "the flash is full")
        raise
    board.pos = pos
    board.game = gid
    board.uid = uid
    board.start_fen = fen
    board.ply = 0
    board.logbook.begin()
    board.krieg = player
    board.arranging = None
    board.ended = None
    board._send("newgame %s %s %s" % (gid, uid, fen or "-"))
    board._follow(pos, setup=True, now_ms=now_ms)


def _build(board, gid, build):
    # build() a position of game gid.  Loading a game's module leaves garbage in pieces
    # (on a virtual board, the compiler's), and the heap may hold enough for its tables
    # but not in one block: then once more, from a collected heap and no other game.
    try:
        return build()
    except MemoryError:
        board.pos = board.tracker.pos = None
        forget_games(gid)
        board.collect()
        return build()
