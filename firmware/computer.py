"""A host that plays one side (the computer, docs/protocol.md): its requests, and its move
lit as a move to make.  Loaded only when one of them arrives, or a host's move is shown: a
board played by two people never holds this code.

  computer white|black|-     the side the host plays: the board reads none of its moves
  hint MOVE | hint -         a move lit `h` for the player, until the next lift or place
  end time RESULT            a flag fell on the host's clock: the game ends
"""

from firmware import leds
from firmware.app import HOST_ENDS, host_end
from firmware.common import Refused, check_args as _args
from firmware.rules.board import EMPTY, WHITE, BLACK
from firmware.rules.position import MoveError
from firmware.tracker import OVER, SETUP

SIDES = {"white": WHITE, "black": BLACK, "-": 0}


def c_hint(board, w, now):
    _args(w, 1, 1, "hint MOVE (or - to clear it)")
    t = board.tracker
    if w[0] == "-":
        t.hinted = None
    else:
        if board.krieg is not None:
            raise Refused("kriegspiel", "hint: a Kriegspiel board lights only its owner's own knowledge")
        if t.state == OVER:
            raise Refused("game-over", "the game has ended")
        try:
            t.hinted = board.pos.parse_move(w[0])
        except MoveError as e:
            raise Refused("illegal-move", str(e))
    t.dirty = True
    return "ok hint " + w[0]


def c_computer(board, w, now):
    _args(w, 1, 1, "computer white|black|-")
    if w[0] not in SIDES:
        raise Refused("bad-args", "computer white|black|-")
    if board.krieg is not None and SIDES[w[0]]:
        raise Refused("kriegspiel", "computer: the umpire plays nobody's men on a Kriegspiel player's board")
    t = board.tracker
    t.locked = SIDES[w[0]]
    if t.state != SETUP and t.state != OVER and t.pos is not None:
        t._evaluate(now)
    return "ok computer " + w[0]


def c_end(board, w, now):
    _args(w, 2, 2, "end time 1-0|0-1|1/2-1/2")
    if w[0] not in HOST_ENDS or w[1] not in ("1-0", "0-1", "1/2-1/2"):
        raise Refused("bad-args", "end time 1-0|0-1|1/2-1/2")
    if board.krieg is not None:
        raise Refused("kriegspiel", "end: the umpire decides on a Kriegspiel player's board")
    if board.tracker.state == OVER:
        raise Refused("game-over", "the game has ended")
    # Journaled, then said, like the rules' own ends; the board shows the result.
    text = "%s %s" % (w[0], w[1])
    board._journal("E %d %s" % (board.outbox.seq + 1, text))
    board.ended = board.tracker.ended = host_end(text)
    board._send("end " + text)
    board.tracker.resync(now)
    return "ok end " + text


def render_shown(t, frame):
    """The host's move (t.showing, made on t.pos), still to be made by hand, lit into
    frame: `f` on the man to move while he stands, `d` where a man goes, `x` on a man to
    take off (on the square the mover takes: until it has been lifted); a square already
    put right goes dark."""
    m = t.showing
    pos = t.pos
    geo = t.geo
    buf = t.buf
    act = t.actual
    pos.pop()
    try:
        us = pos.us
        k = pos.effects(m, buf)
        for j in range(k):
            cell = buf[2 * j]
            p = geo.phys(cell)
            before = pos.cells[cell]
            after = buf[2 * j + 1] != EMPTY
            if before != EMPTY and after:
                if not t.touched[p]:
                    frame[p] = leds.CAPTURE
                elif not act[p]:
                    frame[p] = leds.DEST
            elif before != EMPTY:
                if act[p]:
                    frame[p] = leds.FROM if before & us else leds.CAPTURE
            elif after and not act[p]:
                frame[p] = leds.DEST
    finally:
        pos.push(m)



def victims_lifted(t):
    """Has every square where the host's move takes a man and puts its own been lifted?
    (That square is full before and after: only a lift there tells that the victim went.)"""
    m = t.showing
    pos = t.pos
    buf = t.buf
    pos.pop()
    try:
        k = pos.effects(m, buf)
        for j in range(k):
            cell = buf[2 * j]
            if pos.cells[cell] != EMPTY and buf[2 * j + 1] != EMPTY and not t.touched[t.geo.phys(cell)]:
                return False
        return True
    finally:
        pos.push(m)
