"""Requests a host sends seldom: its greeting (`version`, `since`, `history`), `position`,
`claim` and `brightness`.  protocol.py loads this module for one of them and forgets it
after the reply (common.drop_module): on stock MicroPython a module's code takes heap for
as long as it is loaded, and a board in play needs its heap for the game.
"""

from array import array

from firmware.common import PROTOCOL, VERSION, Refused, check_args, claim, fen_of, new_uid, whole
from firmware.rules import FenError, MoveError


def c_version(board, w, now):
    check_args(w, 0, 0, "version")
    return "ok version %d %s %s %s %d" % (PROTOCOL, VERSION, board.hw.name, board.hw.board_id(), board.boot_id)


def c_brightness(board, w, now):
    check_args(w, 0, 1, "brightness [0-255]")
    if w:
        board.brightness = whole(w[0], 0, 255, "brightness")
        board.shown[0] ^= 0xFF  # redraw at the new brightness
        board.tracker.dirty = True
    return "ok brightness %d" % board.brightness


def c_position(board, w, now):
    """The host sets the position: for the record, a new game with a uid of its own."""
    if not w:
        raise Refused("bad-args", "position FEN")
    fen = fen_of(w)
    board._not_kriegspiel("position")
    board.arranging = None
    try:
        board.pos.set_fen(fen)
    except FenError as e:
        raise Refused("bad-fen", str(e))
    board.uid = new_uid(board.urandom)
    saved = board._journal("P %d %s %s" % (board.outbox.seq + 1, board.uid, fen))
    board.ply = board.checkpoint_ply = board.claim_ply = board.unsaved_from = 0
    if not saved and not board.journal_ok:  # the new game's record has not even begun
        board.unsaved_from = 1
        board.unsaved = bytearray()
    board.start_fen = fen
    board.ended = board.tracker.ended = None
    board._send("position %s %s" % (board.uid, fen))
    board.tracker.resync(now)
    return "ok position"


def c_claim(board, w, now):
    check_args(w, 1, 1, "claim perpetual|declare|demand")
    if board.game != "lippo" or board.krieg is not None:
        raise Refused("bad-claim", "claims are lippo's (sections 6, 14 and 15), made to the umpire in Kriegspiel")
    if w[0] not in ("perpetual", "declare", "demand"):
        raise Refused("bad-args", "claim perpetual|declare|demand")
    try:
        claim(board.pos, w[0])
    except MoveError as e:
        raise Refused("bad-claim", str(e))
    # Made: journaled and followed.
    board._journal("C %d %s" % (board.outbox.seq + 1, w[0]))
    board.claim_ply = board.ply
    board.tracker.resync(now)
    board._check_end()
    return "ok claim " + w[0]


def c_history(board, w, now):
    check_args(w, 0, 0, "history")
    return board.long_reply("ok history ", played(board))


def played(board):
    """Yields the move strings of the game so far, read back from the journal.  Two
    passes, so that a long game's moves are never all in RAM: the first counts the
    moves made at each ply (takebacks undo some), the second yields, for each ply the
    game still has, the last move made there (the one no takeback undid)."""
    made = array("H")  # moves made at ply i+1 of the game, takebacks or not
    ply = starts = 0
    for rec in board.journal.records():
        kind = rec[0]
        if kind == "N" or kind == "K" or kind == "P":
            made = array("H")
            ply = 0
            starts += 1
        elif kind == "M":
            if ply == len(made):
                made.append(0)
            made[ply] += 1
            ply += 1
        elif kind == "U" and ply:
            ply -= 1
    plies = ply
    if board.unsaved_from:
        plies = min(plies, board.unsaved_from - 1)
    ply = 0
    for rec in board.journal.records():
        kind = rec[0]
        if kind == "N" or kind == "K" or kind == "P":
            starts -= 1
        elif starts == 0:  # the game being played
            if kind == "M":
                made[ply] -= 1
                if not made[ply] and ply < plies:
                    yield rec.split(" ", 2)[2]
                ply += 1
            elif kind == "U" and ply:
                ply -= 1
    if board.unsaved_from:  # the moves that only RAM (and the host) hold
        for word in board.unsaved.decode().split():
            yield word


def c_since(board, w, now):
    """Re-send the events said after number n: those kept in RAM, and before them what the
    journal holds (its games' starts, moves, takebacks and ends, the previous game's
    too).  The reply says how many lines were sent."""
    check_args(w, 1, 1, "since SEQ")
    n = whole(w[0], 0, 1 << 30, "seq")
    write = board.outbox.write
    kept, low = board.outbox.kept_since(n)
    sent = 0
    if n + 1 < low:
        ply = 0
        for rec in board.journal.records():
            kind, seq, rest = (rec + " ").split(" ", 2)
            rest = rest.rstrip(" ")
            if kind == "N" or kind == "K" or kind == "P":
                ply = 0
            elif kind == "M":
                ply += 1
            if not n < int(seq) < low:
                if kind == "U":
                    ply -= 1
                continue
            line = None
            if kind == "N":  # uid game fen -> newgame game uid fen
                uid, gid, fen = rest.split(" ", 2)
                line = "newgame %s %s %s" % (gid, uid, fen)
            elif kind == "K":  # uid game side fen
                uid, gid, _, fen = rest.split(" ", 3)
                line = "newgame %s %s %s" % (gid, uid, fen)
            elif kind == "P":
                line = "position " + rest
            elif kind == "M":
                line = "move %d %s" % (ply, rest)
            elif kind == "U":
                line = "undo %d %s" % (ply, rest or "-")
                ply -= 1
            elif kind == "E":
                line = "end " + rest
            if line is not None:
                write("%s %s" % (seq, line))
                sent += 1
    for line in kept:
        # Events only: an old reply would pass for the answer to this request.
        words = line.split(" ", 2)
        if words[1] != "ok" and words[1] != "error":
            write(line)
            sent += 1
    return "ok since %d %d" % (n, sent)
