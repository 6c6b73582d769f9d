"""What a host reads back when it comes (docs/protocol.md): the board's identity
(`version`), the events it missed (`since`) and the game's moves (`history`), the last
two read back from the journal.  protocol.py loads this module for one of them and forgets
it after the reply (firmware.drop_module), as Board.history does: on stock MicroPython a
module's code takes heap for as long as it is loaded, and a board in play needs its heap
for the game.
"""

from array import array

from firmware.terms import PROTOCOL, VERSION, check_args, whole


def c_version(board, w, now):
    check_args(w, 0, 0, "version")
    return "ok version %d %s %s %s %d" % (PROTOCOL, VERSION, board.hw.name, board.hw.board_id(), board.boot_id)


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
    at = getattr(board.journal, "head_at", 0)  # (from the game being played, not through the games kept)
    for rec in board.journal.records(at):
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
    log = board.logbook
    if log.unsaved_from:
        plies = min(plies, log.unsaved_from - 1)
    ply = 0
    for rec in board.journal.records(at):
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
    if log.unsaved_from:  # the moves that only RAM (and the host) hold
        for word in log.unsaved.decode().split():
            yield word


def c_since(board, w, now):
    """Re-send the events said after number n: those kept in RAM, and before them what the
    journal holds (its games' starts, moves, takebacks and ends, the games before the
    one being played too).  The reply says how many lines were sent."""
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
