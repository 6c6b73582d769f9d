"""The board as one Kriegspiel player's device (kriegspiel.md §2, §10).

The board holds its owner's own view only (firmware/rules/kriegspiel.py): the umpire runs
on the host.  A move made on the board is an attempt: the board sends it and waits for the
verdict.  Everything this module lights is a function of the view, the owner's own
gestures and the announcements, so two hidden histories that sound the same give the
same frames (§10.1).

Guess pieces (S6, L15): a piece put down on a square where no own man belongs, while no
own man is off its square, is the player's marker for an enemy man.  It is never read as
a move, never lit, never reported; lifting it forgets it.  While an own man is in the
air, the next piece put down is that man.

Ask square: putting a piece on the margin corner at the owner's right hand (a1 side for
White: physical square 11; Black: 132) asks «Могу ли бить?» on the owner's turn.

Its requests (docs/protocol.md), loaded with it at the first of them: a board playing an
ordinary game never holds this code.

  krieg GAME SIDE VIEW-FEN     the board becomes one Kriegspiel player's
  view VIEW-FEN                the umpire's new view of the owner
  verdict legal VIEW-FEN | impossible | rejected REASON
  announce ...                 an umpire's announcement, for the LEDs
"""

from firmware import leds
from firmware.rules import FenError, fen_shape_ok
from firmware.rules.board import WHITE, file_of, rank_of
from firmware.squares import MARGIN, N
from firmware.terms import Refused, fen_of

BANNER_MS = 3000  # how long an announcement stays lit (the end of the game stays)
ASK = {WHITE: 11, 64: 132}
KINDS = ("impossible", "rejected", "capture", "promotion", "check", "answer", "moved", "end")
DIRECTIONS = ("rank", "file", "long_diagonal", "short_diagonal", "diagonal", "knight", "camel", "zebra")
_LEAPS = {"knight": (1, 2), "camel": (1, 3), "zebra": (2, 3)}


class Player:
    def __init__(self, colour):
        self.colour = colour
        self.guess = bytearray(N * N)
        self.pending = None  # the attempt (a move of the view) awaiting its verdict
        self.banners = []  # [kind, arg, until_ms or None], newest last

    # ---- switches ----------------------------------------------------------------------------

    def switch(self, tracker, lifted, p):
        """True if this lift or place is a guess piece's (the tracker must not see it)."""
        if lifted:
            if self.guess[p]:
                self.guess[p] = 0
                return True
            return False
        occ = tracker.occ
        if tracker.geo.cell(p) == MARGIN or occ.expected[p] or occ.actual[p]:
            return False
        for q in tracker.geo.game_squares:
            if occ.expected[q] and not occ.actual[q]:
                return False  # an own man is in the air: this is it
        self.guess[p] = 1
        return True

    def asks(self, tracker, p):
        """True if a piece put on p is the question (the owner's turn, the ask square,
        which a game filling the 12 x 12 board does not have)."""
        return p == ASK[self.colour] and tracker.pos.us == self.colour and tracker.geo.cell(p) == MARGIN

    # ---- announcements -----------------------------------------------------------------------

    def announce(self, kind, arg, now_ms):
        lasting = kind == "end"
        self.banners = [b for b in self.banners if b[0] != kind or (kind == "check" and b[1] != arg)]
        self.banners.append([kind, arg, None if lasting else now_ms + BANNER_MS])

    def expire(self, now_ms):
        """Drop announcements whose time is over; True if one went (redraw)."""
        n = len(self.banners)
        if n:
            self.banners = [b for b in self.banners if b[2] is None or now_ms - b[2] < 0]
        return len(self.banners) != n

    def render(self, frame, tracker):
        """Draw the announcements over the tracker's frame (never over what it lit)."""
        geo = tracker.geo
        pos = tracker.pos
        ask = ASK[self.colour]
        if pos.us == self.colour and self.pending is None and not self.banners and geo.cell(ask) == MARGIN:
            _put(frame, ask, leds.NOTICE, geo)
        for kind, arg, _ in self.banners:
            if kind == "capture":
                _put(frame, geo.parse(arg), leds.CAPTURE, geo, True)
            elif kind == "promotion":
                _put(frame, geo.parse(arg), leds.CHOICE, geo, True)
            elif kind == "impossible":
                _ring(frame, geo, leds.EXTRA, _all)
            elif kind == "rejected":
                _ring(frame, geo, leds.OPTION, _all)
            elif kind == "answer":
                _ring(frame, geo, leds.WIN if arg == "yes" else leds.DRAW, _all)
            elif kind == "check":
                side, d = arg
                _ring(frame, geo, leds.CHECK, _GLYPHS.get(d, _leap_glyph))
                if side != self.colour:
                    self._check_lines(frame, pos, geo, d)
            elif kind == "end":
                cls = leds.DRAW if arg is None else leds.WIN if arg == self.colour else leds.LOSE
                _ring(frame, geo, cls, _all)
                k = pos.kings[self.colour >> 6]
                if k:
                    frame[geo.phys(k)] = cls

    def _check_lines(self, frame, pos, geo, d):
        # The checked player's own king and every square the class allows the checker
        # to stand on: computed from the king's square and the class alone (L16).
        k = pos.kings[self.colour >> 6]
        if not k:
            return
        lay = pos.game.layout
        kf = file_of(k)
        kr = rank_of(k)
        for sq in lay.squares:
            dx = file_of(sq) - kf
            dy = rank_of(sq) - kr
            if (dx or dy) and _fits(d, dx, dy, kf, kr, lay):
                _put(frame, geo.phys(sq), leds.NOTICE, geo, True)
        frame[geo.phys(k)] = leds.CHECK


def _fits(d, dx, dy, kf, kr, lay):
    ax = abs(dx)
    ay = abs(dy)
    if d == "file":
        return dx == 0
    if d == "rank":
        return dy == 0
    if ax != ay and d in ("long_diagonal", "short_diagonal", "diagonal"):
        return False
    if d == "diagonal":
        return True
    if d in ("long_diagonal", "short_diagonal"):
        from firmware.rules.kriegspiel import direction
        from firmware.rules.board import index

        return direction(lay, index(kf, kr), index(kf + dx, kr + dy))[1] == d
    a, b = _LEAPS.get(d) or _leap_pair(d)
    return (min(ax, ay), max(ax, ay)) == (a, b)


def _leap_pair(d):
    # "leap-1-4" -> (1, 4)
    parts = d.split("-")
    return int(parts[1]), int(parts[2])


def _put(frame, p, cls, geo, only_dark=False):
    if not only_dark or frame[p] == leds.OFF:
        frame[p] = cls


def _ring(frame, geo, cls, glyph):
    # The margin around the game: its pattern says which message it is.
    for p in range(N * N):
        if geo.cell(p) == MARGIN and frame[p] == leds.OFF and glyph(p % N, p // N, geo):
            frame[p] = cls


def _inside_files(c, geo):
    return geo.dx <= c < N - geo.dx


def _inside_ranks(r, geo):
    return geo.dy <= r < N - geo.dy


def _all(c, r, geo):
    return True


def _rank_glyph(c, r, geo):  # bars left and right of the board
    return _inside_ranks(r, geo)


def _file_glyph(c, r, geo):  # bars in front and behind
    return _inside_files(c, geo)


def _corner_blocks(c, r, geo):
    return not _inside_files(c, geo) and not _inside_ranks(r, geo)


def _corners(c, r, geo):
    return c in (0, N - 1) and r in (0, N - 1)


def _inner_corners(c, r, geo):
    return _corner_blocks(c, r, geo) and not _corners(c, r, geo)


def _leap_glyph(c, r, geo):  # every other square of the margin
    return (c + r) & 1 == 0


_GLYPHS = {
    "rank": _rank_glyph,
    "file": _file_glyph,
    "long_diagonal": _corner_blocks,
    "short_diagonal": _corners,
    "diagonal": _inner_corners,
}


# ---- the board as a Kriegspiel player's: its requests, its journal's K and V records ----


def new_view(gid, fen):
    """A Kriegspiel player's view position (the rules' Kriegspiel module loads with it)."""
    from firmware.rules.kriegspiel import new_view as view

    return view(gid, fen)


def new_player(side):
    """A Player of side "white" or "black"; ValueError else."""
    from firmware.rules.kriegspiel import colour

    return Player(colour(side))


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


def start_krieg(board, gid, side, fen, now_ms):
    """Become side's board in a Kriegspiel game, holding the view FEN's men only."""
    from firmware.rules import kriegspiel

    try:
        player = new_player(side)
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
        view = new_view(gid, fen)
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
    board.logbook.write("V %d %s" % (board.next_seq(), fen))
    k.pending = None
    board.pos = view
    board.tracker.pos = view
    board.ply += 1
    board.tracker.resync(now_ms)
