"""Battle chess's screened setup on the board (battle-setup.md), guided man by man.

Reed switches see pieces, not which piece: so the board asks for the army in a fixed
order (King, Queen, Rooks, Bishops, Knights, Pawns: battle.ARMY) and the next piece put
down is the man asked for.  It lights where that man may stand (`d`: rules B2-B5 given
the men already placed, so an invalid array cannot be built) and, in the margin in
front of the owner, under the file(s) where that man stands in the usual array, which
man it wants (`n`).  A piece put anywhere else is lit `r` until taken away; a man placed
and lifted again is asked for again.  Every piece on the board when the setup begins
must first be taken away (`r`).  The margin around the 8 x 8 is not in the setup (notation.md):
a man lifted from it or put there (a board cleared after a bigger game, a man put aside)
is ignored, as move tracking ignores it.

Events: `arrange <side> <letter>` when the man asked for changes, `array <side> <board
field>` when a side's army stands.

A start position is guided the same way (`guide GAME FEN`: chess960's start by number, or
any chess position): the men asked for in the same order, each lit `d` on its own squares
in the position (and `n` under their files), White's then Black's; then the game begins
from the FEN.

Its requests, `battle white|black|both` and `guide` (docs/protocol.md), load this module: a
board playing an ordinary game never holds this code.
"""

from firmware import leds
from firmware.rules import new_position
from firmware.rules.battle import ARMY, allowed, field
from firmware.rules.board import WHITE, BLACK
from firmware.squares import MARGIN, N
from firmware.terms import Refused, check_args

_HOME_FILES = {"K": "e", "Q": "d", "R": "ah", "B": "cf", "N": "bg", "P": "abcdefgh"}


class Arranger:
    def __init__(self, sides, geo, occupied, target=None):
        self.sides = sides  # the colours to set up, in turn
        self.geo = geo  # the chess geometry on the 12 x 12 board
        # guide: (game, fen, {side: [(LETTER, file, rank)]}): a given position's men, where
        # each must stand; None: battle chess's free arrays
        self.target = target
        self.i = 0
        self.placed = []  # (letter, file, rank) of the side being set up
        self.fields = []  # the board fields of the sides done
        self.wrong = bytearray(N * N)
        for p in geo.game_squares:
            if occupied[p]:
                self.wrong[p] = 1
        self._ok = None

    def side(self):
        return self.sides[self.i]

    def _army(self):
        """The side's men to put down, in the order asked: [(LETTER, file, rank)] of a given
        position (ARMY's order), or ARMY's letters with no square (battle chess)."""
        if self.target is None:
            return [(ch, -1, -1) for ch in ARMY]
        return self.target[2][self.side()]

    def needed(self):
        """The letter of the man asked for next."""
        left = [m[0] for m in self._army()]
        for m in self.placed:
            left.remove(m[0])
        return left[0]

    def _squares(self):
        """Where the man asked for may stand: (file, rank) each."""
        want = self.needed()
        if self.target is None:
            return allowed(want, self.side(), self.placed)
        taken = [(m[1], m[2]) for m in self.placed]
        return [(f, r) for ch, f, r in self._army() if ch == want and (f, r) not in taken]

    def _allowed(self):
        if self._ok is None:
            lay = self.geo.layout
            self._ok = [self.geo.phys(lay.squares[r * 8 + f]) for f, r in self._squares()]
        return self._ok

    def switch(self, lifted, p, say):
        """A lift or a place; say(text) sends an event.  True once every side is done."""
        if self.geo.cell(p) == MARGIN:
            return False
        if lifted:
            if self.wrong[p]:
                self.wrong[p] = 0
                return False
            for m in self.placed:
                if self._phys(m) == p:
                    self.placed.remove(m)
                    self._changed(say)
                    return False
            self.wrong[p] = 2  # a man of a finished side lifted: it must go back
            return False
        if self.wrong[p] == 2:
            self.wrong[p] = 0
            return False
        if any(self.wrong):
            self.wrong[p] = 1  # first the wrong squares right
            return False
        if p not in self._allowed():
            self.wrong[p] = 1
            return False
        cell = self.geo.cell(p)
        lay = self.geo.layout
        n = lay.number[cell]
        self.placed.append((self.needed(), n % 8, n // 8))
        if len(self.placed) < len(self._army()):
            self._changed(say)
            return False
        white = self.side() == WHITE
        done = field([(m[0] if white else m[0].lower(), m[1], m[2]) for m in self.placed])
        self.fields.append(done)
        say("array %s %s" % ("white" if white else "black", done))
        self.placed = []
        self.i += 1
        if self.i == len(self.sides):
            return True
        self._changed(say)
        return False

    def _phys(self, m):
        lay = self.geo.layout
        return self.geo.phys(lay.squares[m[2] * 8 + m[1]])

    def _changed(self, say):
        self._ok = None
        say(self.announce())

    def announce(self):
        return "arrange %s %s" % ("white" if self.side() == WHITE else "black", self.needed())

    def render(self, frame):
        for p in range(N * N):
            frame[p] = leds.OFF
        geo = self.geo
        for p in range(N * N):
            if self.wrong[p]:
                frame[p] = leds.EXTRA if self.wrong[p] == 1 else leds.MISSING
        if any(self.wrong):
            return
        for p in self._allowed():
            frame[p] = leds.DEST
        # Which man: the margin in front of the owner, under its files in the usual array.
        row = geo.dy - 1 if self.side() == WHITE else N - geo.dy
        if self.target is not None:  # under the files where it stands in the position
            for f, r in self._squares():
                frame[row * N + geo.dx + f] = leds.NOTICE
            return
        for ch in _HOME_FILES[self.needed()]:
            frame[row * N + geo.dx + "abcdefgh".find(ch)] = leds.NOTICE


# ---- the request, and the game that follows the arrays ----------------------------------


def c_battle(board, w, now):
    check_args(w, 1, 1, "battle white|black|both")
    start_battle(board, w[0], now)
    return "ok battle " + w[0]


def start_battle(board, which, now_ms):
    """Guide the set-up of White's, Black's or both armies (both: then a chess game
    starts from them; one: the host takes the array, as a Kriegspiel umpire does)."""
    from firmware.rules import game_module
    from firmware.squares import Geometry

    sides = {"white": (WHITE,), "black": (BLACK,), "both": (WHITE, BLACK)}.get(which)
    if sides is None:
        raise Refused("bad-args", "battle white|black|both")
    geo = Geometry(game_module("chess").GAME.layout)
    board.arranging = Arranger(sides, geo, board._occupancy())
    board.tracker.dirty = True
    board._send(board.arranging.announce())


def c_guide(board, w, now):
    """guide GAME FEN: the position's men set up one by one, as battle chess's are."""
    from firmware.rules import game_module, new_position as new_pos
    from firmware.rules.battle import men
    from firmware.squares import Geometry

    if len(w) < 2 or w[0] not in ("chess", "chess960"):
        raise Refused("bad-args", "guide chess|chess960 FEN")
    fen = " ".join(w[1:])
    try:
        new_pos(w[0], fen)  # the core reads it: a position of that game
        target = {WHITE: _in_order(men(fen.split()[0], WHITE)), BLACK: _in_order(men(fen.split()[0], BLACK))}
    except ValueError:
        raise Refused("bad-fen", "not a position of " + w[0])
    sides = tuple(side for side in (WHITE, BLACK) if target[side])
    geo = Geometry(game_module("chess").GAME.layout)
    board.arranging = Arranger(sides, geo, board._occupancy(), (w[0], fen, target))
    board.tracker.dirty = True
    board._send(board.arranging.announce())
    return "ok guide " + w[0]


def _in_order(side_men):
    """A side's men in the order they are asked for (ARMY's: K, Q, R, B, N, P), upper case."""
    order = "KQRBNP"
    out = [(m[0].upper(), m[1], m[2]) for m in side_men]
    out.sort(key=lambda m: (order.find(m[0]), m[2], m[1]))
    return out


def arranged(board, now_ms):
    from firmware.rules.battle import SetupConflict, start_fen

    a = board.arranging
    board.arranging = None
    board.tracker.set_actual(board._occupancy())
    board.tracker.dirty = True
    if a.target is not None:  # guide: the game begins from the position set up
        game, fen = a.target[0], a.target[1]
        board._begin(game, lambda: new_position(game, fen), "N %s %s" % (game, fen), fen, None, now_ms)
        return
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
