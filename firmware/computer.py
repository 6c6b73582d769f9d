"""A host that plays one side (the computer, docs/protocol.md): its requests.  Loaded only
when one of them arrives: a board played by two people never holds this code.  (Its move,
lit as a move to make, is firmware/shown.py's.)

  computer white|black|-     the side the host plays: the board reads none of its moves
  hint MOVE | hint -         a move lit `h` for the player, until the next lift or place
  end time RESULT            a flag fell on the host's clock: the game ends
  end resign|agreement RESULT, end claim   the players' ends (claim: the rules core's)
"""

from firmware.terms import CLAIM_ENDS, Refused, check_args as _args
from firmware.rules.board import WHITE, BLACK
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
    if t.locked:
        # The host's moves will be lit as moves to make: their code loaded now, not from
        # the flash between its first `move` line and its LEDs (10 ms on stock MicroPython).
        from firmware import shown  # noqa: F401
    if t.state != SETUP and t.state != OVER and t.pos is not None:
        t._evaluate(now)
    return "ok computer " + w[0]


END_USAGE = "end time 1-0|0-1|1/2-1/2, end resign 1-0|0-1, end agreement 1/2-1/2, or end claim"


def c_end(board, w, now):
    _args(w, 1, 2, END_USAGE)
    if board.krieg is not None:
        raise Refused("kriegspiel", "end: the umpire decides on a Kriegspiel player's board")
    if board.tracker.state == OVER:
        raise Refused("game-over", "the game has ended")
    if w[0] == "claim" and len(w) == 1:
        # A draw claimed: the rules core decides (outcome(claim=True)), never the host.
        o = board.pos.outcome(True)
        if o is None or o.reason not in CLAIM_ENDS:
            raise Refused("bad-claim", "no draw by repetition or by the count of moves can be claimed now")
        text = "%s %s" % (o.reason, o.result())
    else:
        results = {"time": ("1-0", "0-1", "1/2-1/2"), "resign": ("1-0", "0-1"), "agreement": ("1/2-1/2",)}
        if len(w) != 2 or w[1] not in results.get(w[0], ()):
            raise Refused("bad-args", END_USAGE)
        text = "%s %s" % (w[0], w[1])
    board.declare(text, now)
    return "ok end " + text
