"""The board's Kriegspiel and screened-setup requests (docs/protocol.md), loaded only when
one of them arrives: a board playing an ordinary game never holds this code.

  battle white|black|both      the screened setup, guided man by man (firmware/arrange.py)
  krieg GAME SIDE VIEW-FEN     the board becomes one Kriegspiel player's (firmware/krieg.py)
  view VIEW-FEN                the umpire's new view of the owner
  verdict legal VIEW-FEN | impossible | rejected REASON
  announce ...                 an umpire's announcement, for the LEDs
"""

from firmware.common import Refused, check_args as _args, fen_of, player as _player, view as _view
from firmware.rules import FenError, fen_shape_ok, new_position
from firmware.rules.board import WHITE, BLACK


def c_battle(board, w, now):
    _args(w, 1, 1, "battle white|black|both")
    start_battle(board, w[0], now)
    return "ok battle " + w[0]


def c_krieg(board, w, now):
    if len(w) < 3:
        raise Refused("bad-args", "krieg GAME white|black VIEW-FEN")
    start_krieg(board, w[0], w[1], fen_of(w[2:]), now)
    return "ok krieg %s %s" % (w[0], w[1])


def c_view(board, w, now):
    if not w:
        raise Refused("bad-args", "view VIEW-FEN")
    set_view(board, fen_of(w), now)
    return "ok view"


def c_verdict(board, w, now):
    n = {"legal": -1, "impossible": 1, "rejected": 2}.get(w[0] if w else "", 0)
    if n == 0 or (n > 0 and len(w) != n) or (n < 0 and len(w) < 2):
        raise Refused("bad-args", "verdict legal VIEW-FEN | verdict impossible | verdict rejected REASON")
    set_view(board, fen_of(w[1:]), now, verdict=w[0])
    return "ok verdict " + w[0]


def c_announce(board, w, now):
    # What the umpire said, for the LEDs: a design per message (docs/protocol.md).
    usage = "announce impossible | capture SQ | promotion SQ | check white|black DIR | answer yes|no | end white|black|draw"
    k = board.krieg
    if k is None:
        raise Refused("not-kriegspiel", "the board is not a Kriegspiel player's")
    from firmware.krieg import DIRECTIONS
    from firmware.rules.kriegspiel import colour

    kind = w[0] if w else ""
    arg = None
    try:
        if kind == "impossible" and len(w) == 1:
            pass
        elif kind in ("capture", "promotion") and len(w) == 2:
            board.tracker.geo.parse(w[1])
            arg = w[1]
        elif kind == "check" and len(w) == 3 and (w[2] in DIRECTIONS or _leap(w[2])):
            arg = (colour(w[1]), w[2])
        elif kind == "answer" and len(w) == 2 and w[1] in ("yes", "no"):
            arg = w[1]
        elif kind == "end" and len(w) == 2:
            arg = None if w[1] == "draw" else colour(w[1])
        else:
            raise ValueError(usage)
    except ValueError:
        raise Refused("bad-args", usage)
    k.announce(kind, arg, now)
    board.tracker.dirty = True
    return "ok announce " + kind


def _leap(word):
    # leap-A-B, 1 <= A < B <= 11
    parts = word.split("-")
    if len(parts) != 3 or parts[0] != "leap" or not parts[1].isdigit() or not parts[2].isdigit():
        return False
    return 0 < int(parts[1]) < int(parts[2]) < 12


def start_battle(board, which, now_ms):
    """Guide the set-up of White's, Black's or both armies (both: then a chess game
    starts from them; one: the host takes the array, as a Kriegspiel umpire does)."""
    from firmware.arrange import Arranger
    from firmware.rules import game_module
    from firmware.squares import Geometry

    sides = {"white": (WHITE,), "black": (BLACK,), "both": (WHITE, BLACK)}.get(which)
    if sides is None:
        raise Refused("bad-args", "battle white|black|both")
    geo = Geometry(game_module("chess").GAME.layout)
    board.arranging = Arranger(sides, geo, board._occupancy())
    board.tracker.dirty = True
    board._send(board.arranging.announce())

def arranged(board, now_ms):
    from firmware.rules.battle import SetupConflict, start_fen

    a = board.arranging
    board.arranging = None
    board.tracker.set_actual(board._occupancy())
    board.tracker.dirty = True
    if len(a.fields) < 2:
        board.tracker.resync(now_ms)
        return
    try:
        fen = start_fen(a.fields[0], a.fields[1])
    except SetupConflict:
        board._send("alert setup-conflict Black's king stands in check: both set up again")
        start_battle(board, "both", now_ms)
        return
    board._begin("chess", lambda: new_position("chess", fen), "N chess " + fen, fen, None, now_ms)

def start_krieg(board, gid, side, fen, now_ms):
    """Become side's board in a Kriegspiel game, holding the view FEN's men only."""
    from firmware.rules import kriegspiel

    try:
        player = _player(side)
    except ValueError as e:
        raise Refused("bad-args", str(e))
    # Checked before the current game's tables are let go: a refusal costs nothing.
    if gid not in kriegspiel.GAMES:
        raise Refused("unknown-game", "Kriegspiel is played in %s" % ", ".join(kriegspiel.GAMES))
    if not fen_shape_ok(gid, fen):
        raise Refused("bad-fen", "not a FEN of %s (fields or ranks)" % gid)
    board_field = fen.split()[0]
    if board_field.lower() != board_field and board_field.upper() != board_field:
        raise Refused("bad-fen", "a player's view holds one army")
    if (board_field.upper() == board_field) != (player.colour == WHITE):
        raise Refused("bad-fen", "that view holds the other army")
    head = "K %s %s %s" % (gid, side, fen)
    board._begin(gid, lambda: checked_view(gid, fen, player.colour), head, fen, player, now_ms)


def checked_view(gid, fen, side):
    if not fen_shape_ok(gid, fen):
        raise Refused("bad-fen", "not a FEN of %s (fields or ranks)" % gid)
    try:
        view = _view(gid, fen)
    except (FenError, ValueError) as e:
        raise Refused("bad-fen", str(e))
    if view.mine != side:
        raise Refused("bad-fen", "that view holds the other army")
    return view

def set_view(board, fen, now_ms, verdict=None):
    """The umpire's new view of this player (after a verdict, or the other side's move);
    with verdict "impossible" or "rejected", the pending attempt is taken back instead."""
    k = board.krieg
    if k is None:
        raise Refused("not-kriegspiel", "the board is not a Kriegspiel player's")
    if verdict is not None:
        if k.pending is None:
            raise Refused("no-attempt", "no attempt is waiting for a verdict")
        if verdict != "legal":  # the piece goes back: the board shows how
            board.pos.pop()
            k.pending = None
            if verdict == "rejected":  # the host's own refusal: this board's alone
                k.announce(verdict, None, now_ms)
            board.tracker.resync(now_ms)
            return
    view = checked_view(board.game, fen, k.colour)
    board._journal("V %d %s" % (board.outbox.seq + 1, fen))
    k.pending = None
    board.pos = view
    board.tracker.pos = view
    board.ply += 1
    board.tracker.resync(now_ms)
