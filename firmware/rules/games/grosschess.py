"""Grosschess (V. I. Dubrovsky; grosschess.md with its recommended readings): 100-square
chess plus six new units a side on the second rank, and a zig-zag pawn line.

New pieces (FEN letters of notation.md; the strong form on the e-file, judged on the
square a move starts from):
  V  the "Queen" (Королева): one diagonal step; strong, an ordinary Jester, and
     treacherous: she takes a diagonal neighbour that attacks her and goes one more
     diagonal step from its square: back home, to an empty square, or taking again
  I  Prince: one orthogonal step; strong, an ordinary General
  M  Mars: a Rook with the General's bends; strong, also the Knight's leaps
  S  Sagittarius: a Bishop with the Jester's bends; strong, also the Knight's leaps
  O  Officer: forward, sideways and forward-diagonal one or two squares, back one; strong,
     one or two in all eight directions
The Prince, Mars and Sagittarius move as strong pieces on their first move from their
start squares, and an Officer's first move may jump straight forward over the square in
front of it.  Every pawn double-steps on its first move.  The throne's pawn goes on an
empty square of the own zig-zag line; on the throne a pawn may become any piece but a
King.  Pawn castling partners: Bishop, Jester, Queen, Sagittarius, Officer.

FEN and moves as hundred.py (the eighth field lists units on their start squares that
have moved: pawns without their double step, pieces without their first-move right).
The Queen's treacherous capture is from, first victim, then where she ends: e7d6,e5.
"""

from array import array

from ..board import WHITE, BLACK, EMPTY, OFF, ALL8, ORTHO, DIAG, STRIDE, delta, index
from ..compat import compile_fn
from ..game import leap, slide
from ..position import CAPTURE
from . import hundred
from .hundred import HundredPosition, hits, E_FILE, _D1, _O1, _A1, _Z_BEND, _G_BEND

START = "rnbzkqgbnr/popsvimpop/1p1pppp1p1/10/10/10/10/1P1PPPP1P1/POPSVIMPOP/RNBZKQGBNR w KQkq - 0 1"

PIECES = hundred.PIECES + (
    ("V", "queen (korolewa)", 2, (leap(DIAG),)),
    ("I", "prince", 2, (leap(ORTHO),)),
    ("M", "mars", 6, (slide(ORTHO),)),
    ("S", "sagittarius", 4, (slide(DIAG),)),
    ("O", "officer", 3, (leap(ALL8),)),
)

TREACH = 12  # move kind: the Queen's treacherous capture (arg: 1 + direction of her second step)
_KNIGHT = tuple(delta(x, y) for x, y in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)))
_BOX = tuple(delta(x, y) for y in range(-2, 3) for x in range(-2, 3) if x or y)  # two squares round
_BOX16 = array("H", [d + 256 for d in _BOX])  # the same for next_new (biased by 256)

# The index in _BOX, from i on, of the first square round sq holding a unit of colour by
# that may reach sq by its kind (reach: GrossPosition._box_reach's, a new unit's); 24 if
# none.  Machine code on the chip (compat.compile_fn, when the game is loaded), from this
# one source: in Python the 24 squares cost some 70 lines at every check test near a King
# (issue #38).
next_new = compile_fn("""
def next_new(cells: ptr8, sq: int, by: int, reach: ptr16, box: ptr16, i: int) -> int:
    while i < 24:
        x = cells[sq + box[i] - 256]
        if x & by:
            if (reach[23 - i] >> (x & 31)) & 1:
                return i
        i += 1
    return 24
""", "next_new", "viper")

_D1_16 = array("H", [d + 256 for d in _D1])  # the diagonal steps, for next_treach (biased by 256)

# The treacherous Queen's way onto sq (_more_attacks): from j on (j >> 2 the direction of
# her first victim from sq, j & 3 hers from the victim), the first j where a unit of the
# side attacked (not a King) stands diagonally next to sq and a strong Queen of colour by
# (queen: her cell code, on the e-file) diagonally next to it, not on sq; 16 if none.
# Machine code on the chip (compat.compile_fn), as next_new: in Python its 16 squares ran
# at every check test of a game with a strong Queen (issue #38).
next_treach = compile_fn("""
def next_treach(cells: ptr8, sq: int, by: int, queen: int, king: int, d1: ptr16, j: int) -> int:
    while j < 16:
        v = sq + d1[j >> 2] - 256
        x = cells[v]
        if x == 0 or x == %(off)d or x & by or (x & 31) == king:
            j = (j | 3) + 1
            continue
        s = v + d1[j & 3] - 256
        if s != sq:
            if cells[s] == queen:
                if s %% %(stride)d == %(e_file)d:
                    return j
        j += 1
    return 16
""" % {"off": OFF, "stride": STRIDE, "e_file": E_FILE}, "next_treach", "viper")

GAME = hundred.build("grosschess", start=START, pieces=PIECES)
GAME.box_reach = None  # GrossPosition._box_reach's, made when first asked
PAWN_T = GAME.type_of("P")


class GrossPosition(HundredPosition):
    """A Grosschess position: hundred's rules and the new units."""

    KING = GAME.type_of("K")
    PAWN_T = PAWN_T
    JESTER = GAME.type_of("Z")
    GENERAL = GAME.type_of("G")
    BISHOP = GAME.type_of("B")
    ROOK = GAME.type_of("R")
    QUEEN_V = GAME.type_of("V")
    PRINCE = GAME.type_of("I")
    MARS = GAME.type_of("M")
    SAGITTARIUS = GAME.type_of("S")
    OFFICER = GAME.type_of("O")
    NEW_UNITS = (1 << QUEEN_V) | (1 << PRINCE) | (1 << MARS) | (1 << SAGITTARIUS) | (1 << OFFICER)  # a type mask
    THRONE_CHOICE = "QRBNZGVIMSO"
    # A unit arriving diagonally next to its King may be the treacherous Queen's first
    # victim: her way onto the King (_more_attacks).
    UNSAFE_ARRIVALS = _D1
    CASTLE_SQUARES_TELL = False  # (a castling's move made and tested, as every other)
    # The treacherous capture's check test too moves the units in the cells alone
    # (_safe_light): it takes enemy units only, and attacked() reads nothing else it
    # changes (the first-move rights it clears are the mover's and her victims').
    LIGHT_KINDS = HundredPosition.LIGHT_KINDS | (1 << TREACH)

    def _unsafe_arrival(self, to, k, them):
        # Only where a strong enemy Queen stands diagonally next to it (not on k): she alone
        # takes it treacherously on to the King (_more_attacks, the same test).
        queen = them | self.QUEEN_V
        if not self.counts[queen]:
            return False
        for e in _D1:
            if self._treacherous_on(to + e, k, queen):
                return True
        return False

    def _treacherous_on(self, s, sq, queen):
        # Is s, not sq, the square of a strong Queen (queen: her cell code)?
        return s != sq and self.cells[s] == queen and self._strong(s)

    def _castle_partners(self):
        return (self.BISHOP, self.JESTER, self.QUEEN_V, self.SAGITTARIUS, self.OFFICER)

    def _privileged(self, sq):
        # §3: the Prince, Mars, Sagittarius and Officer on their first move from home
        return self._unmoved(sq)

    # ---- moves ------------------------------------------------------------------------

    def _gen_piece(self, frm, t, ms):
        if t == self.QUEEN_V:
            if self._strong(frm):
                self._short(frm, ms, _D1, _Z_BEND, False)
                self._treacherous(frm, ms)
            else:
                for d in _D1:
                    self._to(frm, frm + d, ms)
        elif t == self.PRINCE:
            if self._strong(frm) or self._privileged(frm):
                self._short(frm, ms, _O1, _G_BEND, False)
            else:
                for d in _O1:
                    self._to(frm, frm + d, ms)
        elif t == self.MARS or t == self.SAGITTARIUS:
            HundredPosition._gen_piece(self, frm, t, ms)  # the Rook's / Bishop's slides
            self._bends(frm, ms, _G_BEND if t == self.MARS else _Z_BEND)
            if self._strong(frm) or self._privileged(frm):
                for d in _KNIGHT:
                    self._to(frm, frm + d, ms)
        elif t == self.OFFICER:
            self._officer(frm, ms)
        else:
            HundredPosition._gen_piece(self, frm, t, ms)

    def _officer(self, frm, ms):
        # §4.5: two squares forward, sideways and forward-diagonally (all ways when
        # strong), one back; the first move may jump straight forward.
        cells = self.cells
        fwd = STRIDE if self.us == WHITE else -STRIDE
        strong = self._strong(frm)
        for d in _A1:
            self._to(frm, frm + d, ms)
            if strong or d not in (-fwd, -fwd - 1, -fwd + 1):
                if cells[frm + d] == EMPTY or (d == fwd and self._privileged(frm)):
                    self._to(frm, frm + 2 * d, ms)

    def _treacherous(self, s, ms):
        # §4.1: take a diagonal neighbour that attacks her, then one more diagonal step
        cells = self.cells
        us = self.us
        for i in range(4):
            d = s + _D1[i]
            x = cells[d]
            if x == EMPTY or x == OFF or x & us or x & 31 == self.KING or not self._hits(d, s):
                continue
            for j in range(4):
                t = d + _D1[j]
                y = cells[t]
                if t == s or y == EMPTY:
                    ms.append(s | d << 9 | CAPTURE | TREACH << 19 | (j + 1) << 23)
                elif y != OFF and not y & us:
                    ms.append(s | d << 9 | CAPTURE | TREACH << 19 | (j + 1) << 23)

    def _hits(self, a, sq):
        """True if the unit on a could capture on sq by its own moves (pins ignored)."""
        saved = self.us
        self.us = self.cells[a] & (WHITE | BLACK)
        try:
            tmp = []
            self._gen_piece(a, self.cells[a] & 31, tmp)
            for m in tmp:
                if m >> 9 & 511 == sq and m & CAPTURE and m >> 19 & 15 != TREACH:
                    return True
            return False
        finally:
            self.us = saved

    def _near_hits(self, a, sq):
        """_hits(a, sq) for a new unit on a, at most 2 squares from sq, where hits() found
        no attack on sq: a Mars's or a Sagittarius's slides are the game's attack tables'
        (hits), so only its bends and leaps are looked at; an Officer's steps are looked at
        without making its moves (making them cost a Grosschess lift near its King some 70
        to 100 lines a unit, issue #38)."""
        cells = self.cells
        x = cells[a]
        t = x & 31
        if t != self.MARS and t != self.SAGITTARIUS and t != self.OFFICER:
            return self._hits(a, sq)
        if cells[sq] & x & (WHITE | BLACK):
            return False  # (its own unit: no capture)
        d = sq - a
        if t == self.OFFICER:
            if d in _A1:
                return True
            for e in _A1:
                if 2 * e == d:  # (two squares: _officer's rule)
                    fwd = STRIDE if x & WHITE else -STRIDE
                    if not self._strong(a) and e in (-fwd, -fwd - 1, -fwd + 1):
                        return False
                    return cells[a + e] == EMPTY or e == fwd and self._privileged(a)
            return False
        for to, v1, v2 in _G_BEND if t == self.MARS else _Z_BEND:
            if to == d and (cells[a + v1] == EMPTY or cells[a + v2] == EMPTY):
                return True
        return d in _KNIGHT and (self._strong(a) or self._privileged(a))

    def attacked(self, sq, by):
        return hits(self.cells, self.counts, sq, by, self.game.hit_table) != 0 or self._more_attacks(sq, by)

    def _more_attacks(self, sq, by):
        # The new units, by their own moves; and a treacherous second step onto sq.
        cells = self.cells
        if not cells[sq]:
            return False
        # A new unit further than two squares away captures only by the slides of Mars
        # and Sagittarius, which the game's attack tables have seen already: only the
        # 24 squares round sq are looked at (not the whole board, at every check test),
        # by next_new (machine code on the chip); a new unit's moves are made only where
        # its kind may reach sq from its square at all (_box_reach).
        g = self.game
        if g.box_reach is None:
            g.box_reach = self._box_reach()
        reach = g.box_reach[by >> 6]
        i = next_new(cells, sq, by, reach, _BOX16, 0)
        while i < 24:
            if self._near_hits(sq + _BOX[i], sq):
                return True
            i = next_new(cells, sq, by, reach, _BOX16, i + 1)
        queen = by | self.QUEEN_V
        if not self.counts[queen]:
            return False
        # The first victim, a unit of the attacked side next to sq, with a strong Queen next
        # to it: does she take it (its attack on her)?
        j = next_treach(cells, sq, by, queen, self.KING, _D1_16, 0)
        while j < 16:
            v = sq + _D1[j >> 2]
            if self._hits(v, v + _D1[j & 3]):
                return True
            j = next_treach(cells, sq, by, queen, self.KING, _D1_16, j + 1)
        return False

    def _box_reach(self):
        """For each side (White's, Black's), the new units each square of _BOX may be
        reached from: at index 23 - i (the offset -_BOX[i]) the mask of the types whose
        moves, strong on an empty board (a superset of their captures anywhere), go that
        far; from the game's own moves, made once a game."""
        # (this position's cells and side lent to the empty board a moment: a position made
        # here would ask its check test, and this table, at its set-up)
        cells = self.cells
        us = self.us
        board = self.cells = self.game.layout.empty_board()
        frm = index(E_FILE, 4)
        out = []
        try:
            for side in (WHITE, BLACK):
                reach = array("H", bytes(48))
                self.us = side
                for t in range(1, len(self.game.letter)):
                    if self.NEW_UNITS >> t & 1:
                        ms = []
                        board[frm] = side | t
                        self._gen_piece(frm, t, ms)
                        board[frm] = EMPTY
                        for m in ms:
                            d = (m >> 9 & 511) - frm
                            if d in _BOX:
                                reach[_BOX.index(d)] |= 1 << t
                out.append(reach)
        finally:
            self.cells = cells
            self.us = us
        return tuple(out)

    def _safe_light(self, m):
        if m >> 19 & 15 != TREACH:
            return HundredPosition._safe_light(self, m)
        cells = self.cells
        s = m & 511
        d = m >> 9 & 511
        t = d + _D1[(m >> 23 & 31) - 1]
        queen = cells[s]
        first = cells[d]
        second = cells[t]  # (her own square when she steps back home)
        cells[s] = EMPTY
        cells[d] = EMPTY
        cells[t] = queen
        ok = not self.attacked(self.kings[self.us >> 6], self.us ^ (WHITE | BLACK))
        cells[t] = second
        cells[d] = first
        cells[s] = queen
        return ok

    # ---- making moves ---------------------------------------------------------------------

    def push(self, m):
        if m >> 19 & 15 != TREACH:
            HundredPosition.push(self, m)
            return
        s = m & 511
        d = m >> 9 & 511
        t = d + _D1[(m >> 23 & 31) - 1]
        cells = self.cells
        lay = self.game.layout
        second = cells[t] if t != s else EMPTY
        self.xstack.append((m, self.flags, self.moved, second))
        queen = cells[s]
        first = cells[d]
        self.stack.append((m, first, self.castling, self.ep, self.halfmove))
        self.counts[first] -= 1
        if second:
            self.counts[second] -= 1
        cells[d] = EMPTY
        cells[s] = EMPTY
        cells[t] = queen
        for c in self.game.castlings:  # a rook taken at home
            if d == c.rook or t == c.rook:
                self.castling &= ~c.bit
        self.moved &= ~(1 << lay.number[s]) & ~(1 << lay.number[d]) & ~(1 << lay.number[t])
        if queen == self._initial()[t]:  # she arrives on a start square like hers (her own, back home): moved
            self.moved |= 1 << lay.number[t]
        self.ep = 0
        self._turn_done(True)

    def pop(self):
        m = self.xstack[-1][0]
        if m >> 19 & 15 != TREACH:
            return HundredPosition.pop(self)
        _, self.flags, self.moved, second = self.xstack.pop()
        _, first, self.castling, self.ep, self.halfmove = self.stack.pop()
        self._turn_undone()
        s = m & 511
        d = m >> 9 & 511
        t = d + _D1[(m >> 23 & 31) - 1]
        cells = self.cells
        queen = cells[t]
        cells[t] = second
        cells[d] = first
        cells[s] = queen
        self.counts[first] += 1
        if second:
            self.counts[second] += 1
        return m

    def effects(self, m, buf):
        if m >> 19 & 15 != TREACH:
            return HundredPosition.effects(self, m, buf)
        s = m & 511
        d = m >> 9 & 511
        t = d + _D1[(m >> 23 & 31) - 1]
        buf[0] = d
        buf[1] = EMPTY
        buf[2] = t
        buf[3] = self.cells[s]
        if t == s:
            return 2
        buf[4] = s
        buf[5] = EMPTY
        return 3

    def _move_suffix(self, m):
        if m >> 19 & 15 == TREACH:
            return "," + self.game.layout.name((m >> 9 & 511) + _D1[(m >> 23 & 31) - 1])
        return HundredPosition._move_suffix(self, m)


POSITION = GrossPosition


def new(fen=None):
    return GrossPosition(GAME, fen)
