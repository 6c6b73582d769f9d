"""The host's changes to the board's game and lights (docs/protocol.md): the position set
(`position`, a new game with a uid of its own), a Lippo claim (`claim`) and the LEDs'
brightness (`brightness`).  protocol.py loads this module for one of them and forgets it
after the reply (firmware.drop_module): on stock MicroPython a module's code takes heap
for as long as it is loaded, and a board in play needs its heap for the game.
"""

from firmware.rules import FenError, MoveError
from firmware.terms import Refused, check_args, claim, fen_of, new_uid, whole


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
    log = board.logbook
    saved = log.write("P %d %s %s" % (board.next_seq(), board.uid, fen))
    board.ply = 0
    log.begin()
    if not saved and not log.ok:  # the new game's record has not even begun
        log.ok = False
        log.unsaved_from = 1
        log.unsaved = bytearray()
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
    board.logbook.write("C %d %s" % (board.next_seq(), w[0]))
    board.logbook.claim_ply = board.ply
    board.tracker.resync(now)
    board._check_end()
    return "ok claim " + w[0]
