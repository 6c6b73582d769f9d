"""100-square chess (V. I. Dubrovsky; hundred.md with its recommended readings).

10 x 10, files a-k without j.  New pieces: the Jester (Z: diagonal steps of one or two,
the second over an empty square, and "bending" moves to the orthogonal squares two away
through an empty diagonal neighbour) and the General (G: the same turned by 45 degrees).
On the e-file a King, Jester or General is strong (judged on the square a move starts
from): the King steps up to two squares along any line, the Jester's and the General's
direct moves become a Bishop's and a Rook's slides.  A pawn on the e-file is a king's
pawn: it also steps back, captures on its back diagonals and pawn-castles backwards.
Pawn castling swaps a pawn with a friendly Bishop or Jester diagonally in front of it.
A King reaching the enemy throne (e10 / e1) for the first time brings a pawn onto its
own pawn rank and must leave next move, never to return.  Any unit that could take a
double-stepping pawn on the square it skipped may do so on the next move.  A pawn
promotes to the piece that started on its arrival square (on the throne: any but a King).
Two castlings a game, one to each side.

FEN: the six fields (castling letters K/k short = a-side, Q/q long = k-side, as
notation.md says; the en-passant field after every double step), then optionally:
  7  flags: T/t White's/Black's King has used its throne visit, C/c has castled; "-"
  8  units standing on their own start squares that have moved (a pawn there has no
     double step), comma-separated, or "-"
"""

from array import array

from ..board import WHITE, BLACK, EMPTY, OFF, ALL8, ORTHO, DIAG, STRIDE, delta, file_of, rank_of, index
from ..compat import compile_fn
from ..game import PAWN, leap, leap_images, slide, Game
from ..position import Position, FenError, CAPTURE, NORMAL, DOUBLE, EP, CASTLE, PROMO
from .chess import ChessPosition

START = "rnbzkqgbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBZKQGBNR w KQkq - 0 1"

PIECES = (
    ("K", "king", 0, (leap(ALL8),)),
    ("Q", "queen", 9, (slide(ALL8),)),
    ("R", "rook", 5, (slide(ORTHO),)),
    ("B", "bishop", 3, (slide(DIAG),)),
    ("N", "knight", 3, (leap_images((1, 2)),)),
    ("P", "pawn", 1, (PAWN,)),
    ("Z", "jester", 3, (leap(DIAG),)),
    ("G", "general", 5, (leap(ORTHO),)),
)

# §6.1: short = the a-side (K e1-c1, R a1-d1), long = the k-side (K e1-g1, R k1-f1).
CASTLINGS = (
    (True, "K", "e1", "c1", "a1", "d1", ("b1", "c1", "d1"), ("e1", "d1", "c1")),
    (True, "Q", "e1", "g1", "k1", "f1", ("f1", "g1", "h1", "i1"), ("e1", "f1", "g1")),
    (False, "k", "e10", "c10", "a10", "d10", ("b10", "c10", "d10"), ("e10", "d10", "c10")),
    (False, "q", "e10", "g10", "k10", "f10", ("f10", "g10", "h10", "i10"), ("e10", "f10", "g10")),
)

PAWN_CASTLE = 9  # move kinds of this game (arg: the promotion type, or 0)
THRONE = 10  # arg: 1 + file of the pawn brought onto the own pawn rank, 0 if none
KSTEP = 11  # the strong King's plain two-square step where a castling has the same squares

E_FILE = 4
BACK = "RNBZKQGBNR"  # §6.5: a pawn becomes what started on its arrival square
THRONE_CHOICE = "QRBNZG"
_FLAGS = "TtCc"
USED = (1, 2)
CASTLED = (4, 8)


_D1 = tuple(delta(x, y) for x, y in DIAG)
_O1 = tuple(delta(x, y) for x, y in ORTHO)
_A1 = tuple(delta(x, y) for x, y in ALL8)
# bending moves: (target, via, via) offsets from the piece's square (§5.4, §5.5)
_G_BEND = tuple((delta(x, y), delta(x, 0), delta(0, y)) for x, y in DIAG)
_Z_BEND = tuple((delta(2 * x, 0), delta(x, 1), delta(x, -1)) if x else (delta(0, 2 * y), delta(1, y), delta(-1, y))
                for x, y in ORTHO)


def build(gid="hundred", files=10, ranks=10, letters="abcdefghik", pieces=PIECES, start=START, castlings=CASTLINGS):
    g = Game(gid, files, ranks, letters, pieces, start, royal="K")
    g.set_castlings(castlings)
    g.castle_rook = g.type_of("R")
    g.castle_cells = ()  # rights are kept by hand (two castlings a game)
    g.check_rules = True
    # attacked()'s tables, from the game's own (Game.att_jumps, att_slides): its 8 lines,
    # each (step, the slides' type mask, a diagonal?, the mask of the types that leap one
    # step along it), the first unit on a line read once for both; and the other leaps,
    # flat (offset, type mask) pairs
    aj = g.att_jumps
    leaps = dict((aj[i], aj[i + 1]) for i in range(0, len(aj), 2))
    g.lines = tuple((d, mask, d in _D1, leaps.pop(d, 0)) for d, mask in g.att_slides)
    flat = []
    for d in sorted(leaps):
        flat += [d, leaps[d]]
    g.far_leaps = tuple(flat)
    # the bending units of each side (White's, Black's: by >> 6), each with its bends
    z = g.type_of("Z")
    gen = g.type_of("G")
    g.benders = tuple(((c | z, _Z_BEND), (c | gen, _G_BEND)) for c in (WHITE, BLACK))
    # The same, flat, for hits() (offsets biased by 256, every item a 16-bit word): the
    # far leaps' count and (offset, mask) pairs; the King's, Jester's, General's and
    # pawn's types; the 8 lines (step, slide mask, diagonal, step mask); the Jester's
    # bends, then the General's, (target, via, via) each.
    t = [len(flat) // 2]
    for i in range(0, len(flat), 2):
        t += [flat[i] + 256, flat[i + 1]]
    t += [g.type_of("K"), z, gen, g.type_of("P")]
    for d, mask, diag, step in g.lines:
        t += [d + 256, mask, 1 if diag else 0, step]
    for bends in (_Z_BEND, _G_BEND):
        for b in bends:
            t += [v + 256 for v in b]
    g.hit_table = array("H", t)  # (a mask past 16 bits would not fit: ValueError)
    return g


# Whether a unit of colour `by` attacks sq by the units of 100-square chess (the tables
# of build(): hit_table), but a game's own more (Grosschess's _more_attacks): 1 or 0.  A
# King's lift asks it once a destination, a lift near the King once a unit; in Python one
# call ran some 150 lines, 12 of them 11 ms of the strong King's lift on the emulated Pico
# (issue #38).  On the chip it is machine code (@micropython.viper, compat.compile_fn, from
# this one source), elsewhere Python; compiled when the game is first loaded (a first call
# deep in a position's set-up ran out of the chip's stack compiling).
hits = compile_fn("""
def hits(cells: ptr8, counts: ptr8, sq: int, by: int, t: ptr16) -> int:
    n = 1 + 2 * t[0]
    i = 1
    while i < n:
        x = cells[sq + 256 - t[i]]
        if x & by:
            if (t[i + 1] >> (x & 31)) & 1:
                return 1
        i += 2
    king = by | t[n]
    jester = by | t[n + 1]
    general = by | t[n + 2]
    pawn = by | t[n + 3]
    i = n + 4
    n = i + 32
    while i < n:
        d = t[i] - 256
        two = general
        if t[i + 2]:
            two = jester
        s = sq - d
        x = cells[s]
        if x == 0:
            s -= d
            x = cells[s]
            if x == two:
                return 1
            if x == king:
                if s %% %(stride)d == %(e_file)d:
                    return 1
            while x == 0:
                s -= d
                x = cells[s]
        elif x & by:
            if (t[i + 3] >> (x & 31)) & 1:
                return 1
        if x & by:
            if (t[i + 1] >> (x & 31)) & 1:
                return 1
            if x == two:
                if s %% %(stride)d == %(e_file)d:
                    return 1
        i += 4
    back = %(stride)d
    if by == %(white)d:
        back = -%(stride)d
    if cells[sq + back - 1] == pawn:
        return 1
    if cells[sq + back + 1] == pawn:
        return 1
    piece = jester
    while i < n + 24:
        if counts[piece]:
            e = i + 12
            while i < e:
                s = sq + 256 - t[i]
                if cells[s] == piece:
                    if cells[s + t[i + 1] - 256] == 0:
                        return 1
                    if cells[s + t[i + 2] - 256] == 0:
                        return 1
                i += 3
        else:
            i += 12
        piece = general
    if counts[pawn]:
        s = sq - back - 1
        if cells[s] == pawn:
            if s %% %(stride)d == %(e_file)d:
                return 1
        if cells[s + 2] == pawn:
            if (s + 2) %% %(stride)d == %(e_file)d:
                return 1
    return 0
""" % {"stride": STRIDE, "e_file": E_FILE, "white": WHITE}, "hits", "viper")

# Whether the plain move m (NORMAL, DOUBLE or PROMO) cannot change whether the King on k is
# attacked (check: whether it is attacked now): 1, or 0.  Whether a square is attacked
# depends on the 8 lines through it and on the squares at most 2 away (leaps, bends,
# two-steps, Grosschess's treacherous Queen).  Both of m's squares must be more than 2
# squares from the King; a unit arriving can only block a line, and one leaving opens a line
# only if it is the first unit on it from the King.  In check both squares must also be off
# the King's lines.  A rank's difference is counted in cells (r: ranks times the stride).
# Machine code on the chip, as hits: in Python a lifted long-range man's some 20 moves ran
# 320 lines here, each call a frame on MicroPython's heap (issue #38).
far = compile_fn("""
def far(cells: ptr8, m: int, k: int, check: int) -> int:
    kf = k %% %(stride)d
    kb = k - kf
    sq = (m >> 9) & 511
    i = 0
    while i < 2:
        f = sq %% %(stride)d - kf
        r = sq - sq %% %(stride)d - kb
        if -2 <= f:
            if f <= 2:
                if -%(two)d <= r:
                    if r <= %(two)d:
                        return 0
        line = 0
        if f == 0:
            line = 1
        if r == 0:
            line = 1
        if f * %(stride)d == r:
            line = 1
        if f * %(stride)d == 0 - r:
            line = 1
        if line:
            if check:
                return 0
            if i == 1:
                d = 0
                if r > 0:
                    d = %(stride)d
                if r < 0:
                    d = 0 - %(stride)d
                if f > 0:
                    d += 1
                if f < 0:
                    d -= 1
                s = k + d
                while s != sq:
                    if cells[s] != 0:
                        break
                    s += d
                if s == sq:
                    return 0
        sq = m & 511
        i += 1
    return 1
""" % {"stride": STRIDE, "two": 2 * STRIDE}, "far", "viper")


GAME = build()


class HundredPosition(ChessPosition):
    """A 100-square chess position: the new pieces, strong forms, king's pawns, pawn
    castling, the throne, the wider en passant, two castlings, promotion by square."""

    KING = GAME.type_of("K")
    PAWN_T = GAME.type_of("P")
    JESTER = GAME.type_of("Z")
    GENERAL = GAME.type_of("G")
    BISHOP = GAME.type_of("B")
    ROOK = GAME.type_of("R")
    THRONE_CHOICE = THRONE_CHOICE

    # ---- FEN ---------------------------------------------------------------------------

    def _parse_extra(self, fields, cells):
        self._parsed = 0, 0
        if len(fields) not in (0, 2):
            raise FenError("%s takes 6 or 8 FEN fields, got %d" % (self.game.id, 6 + len(fields)))
        flags = 0
        moved = 0
        if fields:
            if fields[0] != "-":
                for ch in fields[0]:
                    i = _FLAGS.find(ch)
                    if i < 0 or flags & (1 << i):
                        raise FenError("bad flags field %r" % fields[0])
                    flags |= 1 << i
            if fields[1] != "-":
                lay = self.game.layout
                for name in fields[1].split(","):
                    try:
                        sq = lay.cell(name)
                    except ValueError:
                        raise FenError("bad moved-pawn square %r" % name)
                    if not cells[sq] or cells[sq] != self._initial()[sq]:
                        raise FenError("%s holds no unit on its start square" % name)
                    moved |= 1 << lay.number[sq]
        self._parsed = flags, moved  # for _check_setup, before the position takes them
        return flags, moved

    def _set_extra(self, extra):
        self.flags, self.moved = extra
        self.xstack = []  # (move, flags, moved) beside the core's stack

    def _extra_fields(self):
        if not self.flags and not self.moved:
            return []
        flags = "".join(c for i, c in enumerate(_FLAGS) if self.flags >> i & 1) or "-"
        lay = self.game.layout
        moved = ",".join(lay.name(sq) for sq in lay.squares if self.moved >> lay.number[sq] & 1) or "-"
        return [flags, moved]

    def view_extra(self, colour):
        return []

    def _check_setup(self, cells, counts, kings, us):
        # The check test needs the side to move and the units' first-move state of the
        # FEN being read; the position's own state comes back whatever happens.
        saved = getattr(self, "us", None), getattr(self, "flags", 0), getattr(self, "moved", 0)
        self.us = us
        self.flags, self.moved = self._parsed
        try:
            ChessPosition._check_setup(self, cells, counts, kings, us)
        finally:
            self.us, self.flags, self.moved = saved

    def _pawn_rank_ok(self, sq, colour):
        # A pawn may stand on its own first rank (a king's pawn steps back there).
        return rank_of(sq) != (self.game.layout.ranks - 1 if colour == WHITE else 0)

    def _right_usable(self, c, cells):
        # A right is kept while its rook is at home: the King may have walked back to its
        # throne after castling the other way (§6.1).
        return cells[c.rook] == (WHITE if c.white else BLACK) | self.game.castle_rook

    # ---- geometry ----------------------------------------------------------------------

    def _initial(self):
        # cell -> the unit the start position has there (0: none); built once per game
        g = self.game
        if getattr(g, "initial", None) is None:
            g.initial = b""  # while the start position itself is being read
            g.initial = bytes(type(self)(g).cells)
        return g.initial

    def _unmoved(self, sq):
        """True if the unit on sq stands on its start square and has never moved."""
        init = self._initial()
        return len(init) > 0 and self.cells[sq] == init[sq] and not self.moved >> self.game.layout.number[sq] & 1

    def _pawn_home(self, f, colour):
        # the start square of colour's pawn on file f (where a throne pawn may be put)
        init = self._initial()
        pawn = colour | self.PAWN_T
        for r in range(self.game.layout.ranks):
            if init[index(f, r)] == pawn:
                return index(f, r)
        return 0

    def _throne(self, colour):
        # colour's own throne square
        return index(E_FILE, 0 if colour == WHITE else self.game.layout.ranks - 1)

    def _ep_pawn(self, skipped, us):
        # the square of the pawn that skipped `skipped`, us being the side that may take it
        return skipped + (STRIDE if us == BLACK else -STRIDE)

    def _strong(self, sq):
        return file_of(sq) == E_FILE

    # ---- attacks ----------------------------------------------------------------------

    def attacked(self, sq, by):
        return hits(self.cells, self.counts, sq, by, self.game.hit_table) != 0

    # ---- moves ------------------------------------------------------------------------

    def _gen_piece(self, frm, t, ms):
        if t == self.PAWN_T:
            self._pawn(frm, ms)
        elif t == self.JESTER:
            self._short(frm, ms, _D1, _Z_BEND)
        elif t == self.GENERAL:
            self._short(frm, ms, _O1, _G_BEND)
        elif t == self.KING:
            self._king(frm, ms)
        else:
            ChessPosition._gen_piece(self, frm, t, ms)

    def _to(self, frm, to, ms):
        x = self.cells[to]
        if x == EMPTY:
            ms.append(frm | to << 9)
        elif x != OFF and not x & self.us:
            ms.append(frm | to << 9 | CAPTURE)

    def _short(self, frm, ms, dirs, bends, strong=None):
        # Jester / General: direct steps of one and two (a slide when strong), and bends.
        cells = self.cells
        if strong is None:
            strong = self._strong(frm)
        for d in dirs:
            if strong:
                to = frm + d
                while cells[to] == EMPTY:
                    ms.append(frm | to << 9)
                    to += d
                self._to(frm, to, ms)
            else:
                self._to(frm, frm + d, ms)
                if cells[frm + d] == EMPTY:
                    self._to(frm, frm + 2 * d, ms)
        self._bends(frm, ms, bends)

    def _bends(self, frm, ms, bends):
        cells = self.cells
        for t, v1, v2 in bends:
            if cells[frm + v1] == EMPTY or cells[frm + v2] == EMPTY:
                self._to(frm, frm + t, ms)

    def _king(self, frm, ms):
        cells = self.cells
        strong = self._strong(frm)
        for d in _A1:
            self._to(frm, frm + d, ms)
            if strong and cells[frm + d] == EMPTY:
                self._to(frm, frm + 2 * d, ms)
        if self.castling:
            self._castle_moves(frm, ms)

    def _pawn(self, frm, ms):
        cells = self.cells
        us = self.us
        fwd = STRIDE if us == WHITE else -STRIDE
        to = frm + fwd
        if cells[to] == EMPTY:
            self._pawn_to(frm, to, 0, ms)
            if self._unmoved(frm) and cells[to + fwd] == EMPTY:
                ms.append(frm | (to + fwd) << 9 | DOUBLE << 19)
        king_pawn = self._strong(frm)
        for step in ((fwd, -fwd) if king_pawn else (fwd,)):
            for side in (-1, 1):
                to = frm + step + side
                x = cells[to]
                if x == EMPTY or x == OFF:
                    continue
                if x & us:
                    if x & 31 in self._castle_partners():  # §6.2: pawn castling
                        self._swap(frm, to, ms)
                else:
                    self._pawn_to(frm, to, CAPTURE, ms)
        if king_pawn and cells[frm - fwd] == EMPTY:  # a king's pawn steps back
            ms.append(frm | (frm - fwd) << 9)

    def _castle_partners(self):
        return (self.BISHOP, self.JESTER)

    def _swap(self, frm, to, ms):
        m = frm | to << 9 | PAWN_CASTLE << 19
        promos = self.promotions(to) if rank_of(to) == self._last_rank() else ()
        if promos:
            for t in promos:
                ms.append(m | t << 23)
        else:
            ms.append(m)

    def _last_rank(self):
        return self.game.layout.ranks - 1 if self.us == WHITE else 0

    def promotions(self, to):
        f = file_of(to)
        letters = self.THRONE_CHOICE if f == E_FILE else BACK[f]
        return tuple(self.game.type_of(c) for c in letters)

    def _ep_moves(self, ms, only=0):
        # §6.4: whoever could take the pawn on the square it skipped may take it there
        # (only: the unit on that square alone).
        sk = self.ep
        if not sk:
            return
        cells = self.cells
        pawn_sq = self._ep_pawn(sk, self.us)
        pawn = cells[pawn_sq]
        cells[pawn_sq] = EMPTY
        cells[sk] = pawn
        try:
            tmp = []
            for sq in ((only,) if only else self.game.layout.squares):
                if cells[sq] & self.us:
                    del tmp[:]
                    self._gen_piece(sq, cells[sq] & 31, tmp)
                    for m in tmp:
                        if m >> 9 & 511 == sk and m & CAPTURE and m >> 19 & 15 != PAWN_CASTLE:
                            ms.append(m & ~(15 << 19) | EP << 19)
        finally:
            cells[sk] = EMPTY
            cells[pawn_sq] = pawn

    def pseudo_moves(self, only=0):
        """Every move by the units' powers (only: the unit on that square's)."""
        if only:
            ms = []
            self._gen_piece(only, self.cells[only] & 31, ms)
        else:
            ms = ChessPosition.pseudo_moves(self)
        eps = []
        if self.ep:
            self._ep_moves(eps, only)
        if eps:
            # A unit that can take this way always does: its plain move there is gone.
            takers = [m & 0x3FFFF for m in eps]
            ms = [m for m in ms if m & 0x3FFFF not in takers] + eps
        return ms

    def _powers_from(self, sq):
        return None  # (castling is made in legal_moves)

    def legal_moves(self, only=0, kinds=-1):
        """The legal moves (only: those of the unit on that square; kinds: those of these
        kinds, a bit each)."""
        us = self.us
        them = us ^ (WHITE | BLACK)
        k = self.kings[us >> 6]
        leave = k == self._throne(them)  # §6.3: the King must leave the enemy throne
        out = []
        if leave and only and only != k:
            return out
        cells = self.cells
        king = cells[k]
        check = -1  # is the King attacked now? (-1: not asked yet)
        vac = -1  # the square last emptied in a test, and whether the King stood safe then
        vac_safe = False
        royal = not only or only == k  # the King's moves among them (a throne visit, a castling)
        ms = self.pseudo_moves(only)
        if royal:
            ms = self._with_thrones(ms, k, them)
        shortcut = self.FAR_KINDS
        for m in ms:
            if leave and m & 511 != k:
                continue
            kind = m >> 19 & 15
            if not kinds >> kind & 1:
                continue
            if m & 511 == k and not kind:
                # The King's step (NORMAL): safe where it arrives, its square emptied, as
                # _legal's test (_safe_light) but without its two calls a destination.
                to = m >> 9 & 511
                x = cells[to]
                cells[k] = EMPTY
                cells[to] = king
                if not self.attacked(to, them):
                    out.append(m)
                cells[to] = x
                cells[k] = king
                continue
            if shortcut >> kind & 1 and m & 511 != k:
                # A move of a unit other than the King that changes its two squares only.
                if check < 0:
                    check = 1 if self.attacked(k, them) else 0
                if far(cells, m, k, check):
                    # Far from the King the move leaves its attackers as they are: legal
                    # exactly when the King is safe now (no make, test and unmake).
                    if not check:
                        out.append(m)
                    continue
                # Near the King: is it safe with the unit's square emptied?  Asked once a
                # unit (a lifted unit's moves all start there), not once a move.
                frm = m & 511
                if frm != vac:
                    vac = frm
                    vac_safe = self._safe_emptied(frm, k, them)
                to = m >> 9 & 511
                if vac_safe:
                    if to - k not in self.UNSAFE_ARRIVALS or not self._unsafe_arrival(to, k, them):
                        # A unit arriving blocks lines and two-steps and takes at most an
                        # attacker: it makes no attack (but where UNSAFE_ARRIVALS says).
                        out.append(m)
                        continue
                elif not self._near(to, k) or not m & CAPTURE and not self._may_block(to, frm, k, check):
                    # The unit gone, the King is attacked: off the King's lines and
                    # more than 2 squares away the unit blocks nothing and takes no
                    # attacker; not taking, it can only block (_may_block): else the
                    # King stays attacked.
                    continue
            if self._legal(m, them):
                out.append(m)
        return self._mark_ksteps(out, k) if royal else out

    # The kinds of a unit's move (not the King's) that change its two squares only, and so
    # may be taken as legal far from the King when he is safe (far), or by a test of his
    # safety with the unit lifted (_safe_emptied); 0 makes and tests every move
    # (tests/test_fast_paths.py).
    FAR_KINDS = (1 << NORMAL) | (1 << DOUBLE) | (1 << PROMO)

    # Where a unit of the side to move, arriving next to its King, may give the enemy an
    # attack on it (Grosschess: a victim of the treacherous Queen): none here.
    UNSAFE_ARRIVALS = ()

    def _unsafe_arrival(self, to, k, them):
        # Whether a unit arriving on `to` (an UNSAFE_ARRIVALS square of the King on k) may
        # give `them` an attack on the King: its move is then made and tested.
        return True

    def _near(self, sq, k):
        # Is sq at most 2 squares from the King on k, or on one of its 8 lines?
        f = sq % STRIDE - k % STRIDE
        r = sq // STRIDE - k // STRIDE
        return -2 <= f <= 2 and -2 <= r <= 2 or f == 0 or r == 0 or f == r or f == -r

    def _on_line(self, sq, k):
        # Is sq on one of the 8 lines through the King on k?
        f = sq % STRIDE - k % STRIDE
        r = sq // STRIDE - k // STRIDE
        return f == 0 or r == 0 or f == r or f == -r

    def _may_block(self, to, frm, k, check):
        """May a unit that leaves frm and arrives on `to`, taking nothing, shut every attack
        on the King on k that frm emptied lets through?  A slide or a two-step is shut on
        its line through the King; a leap, or a bend whose other way is shut already, only
        by taking its unit.  The King not attacked before (check 0), every attack comes by
        frm: a line's through frm (a bend's way by frm is a square next to the King, on
        its lines too), so `to` must be on frm's line."""
        if not self._on_line(to, k):
            return False
        if check or not self._on_line(frm, k):
            return True
        kf = k % STRIDE
        kr = k // STRIDE
        return (frm % STRIDE - kf) * (to // STRIDE - kr) == (to % STRIDE - kf) * (frm // STRIDE - kr)

    def _safe_emptied(self, frm, k, them):
        # Is the King on k safe with the unit on frm lifted off the board?
        cells = self.cells
        piece = cells[frm]
        cells[frm] = EMPTY
        ok = not self.attacked(k, them)
        cells[frm] = piece
        return ok

    def _with_thrones(self, ms, k, them):
        # A King's first arrival on the enemy throne brings a pawn onto the own pawn rank:
        # one move per free square (the plain arrival if none); a second visit is no move.
        throne = self._throne(them)
        out = []
        for m in ms:
            if m & 511 == k and m >> 9 & 511 == throne:
                if self.flags & USED[self.us >> 6]:
                    continue
                homes = [self._pawn_home(f, self.us) for f in range(self.game.layout.files)]
                free = [f for f in range(self.game.layout.files) if homes[f] and self.cells[homes[f]] == EMPTY]
                m |= THRONE << 19
                if not free:
                    out.append(m)
                for f in free:
                    out.append(m | (f + 1) << 23)
                continue
            out.append(m)
        return out

    # Whether a castling whose squares (its King's, the one it crosses, where it lands) are
    # all safe is legal without its move made and tested: here the King's square safe, no
    # attack on the others went through it, the rook leaves a corner (nothing beyond it)
    # and lands beside the King (it can only shield him).  Not in Grosschess, where a unit
    # next to the King attacks only the square it stands on (_more_attacks).
    CASTLE_SQUARES_TELL = True

    def _legal(self, m, them):
        if m >> 19 & 15 == CASTLE:
            for c in self.game.castlings:
                if c.king == (m & 511) and c.king_to == (m >> 9 & 511):
                    for sq in c.safe:
                        if self.attacked(sq, them):
                            return False
            if self.CASTLE_SQUARES_TELL:
                return True
        if self.LIGHT_KINDS >> (m >> 19 & 15) & 1:
            # attacked() reads the cells and, for the units' first-move rights, the
            # moved marks: only the mover's change, and its own rights attack nobody.
            return self._safe_light(m)
        self.push(m)
        ok = not self.attacked(self.kings[self.us >> 6 ^ 1], self.us)
        self.pop()
        return ok

    def _mark_ksteps(self, ms, k):
        # A strong King's plain two-square step with a legal castling's squares: ",k".
        castles = [m >> 9 & 511 for m in ms if m >> 19 & 15 == CASTLE]
        if castles:
            for i in range(len(ms)):
                m = ms[i]
                if m & 511 == k and m >> 19 & 15 == NORMAL and m >> 9 & 511 in castles:
                    ms[i] = m | KSTEP << 19
        return ms

    def moves_from(self, sq, out=None):
        ms = [] if out is None else out
        if self.cells[sq] & self.us:
            ms += self.legal_moves(sq)
        return ms

    def castlings_from(self, sq, out):
        # (the King's steps not tested: a Grosschess castling rook's lift, 11.2 ms on stock
        # MicroPython's emulated Pico, issue #38)
        if self.cells[sq] & self.us:
            out += self.legal_moves(sq, 1 << CASTLE)
        return out

    def _pawn_to(self, frm, to, cap, ms):
        m = frm | to << 9 | cap
        if rank_of(to) != self._last_rank():
            ms.append(m)
            return
        for t in self.promotions(to):
            ms.append(m | PROMO << 19 | t << 23)

    # ---- making moves ---------------------------------------------------------------------

    def push(self, m):
        us = self.us
        side = us >> 6
        frm = m & 511
        to = m >> 9 & 511
        kind = m >> 19 & 15
        arg = m >> 23 & 31
        lay = self.game.layout
        cells = self.cells
        self.xstack.append((m, self.flags, self.moved))
        cap_sq = self._ep_pawn(to, us) if kind == EP else to
        moved = self.moved & ~(1 << lay.number[frm]) & ~(1 << lay.number[cap_sq])
        piece = cells[frm]
        if kind == PAWN_CASTLE:
            self.stack.append((m, EMPTY, self.castling, self.ep, self.halfmove))
            self._swap_cells(frm, to, us | arg if arg else piece)
            piece = cells[to]
            self.ep = 0
            self._turn_done(True)
        else:
            # the core makes the move; the throne's pawn and the strong King's step are
            # plain King moves to it
            Position.push(self, m & 0x7FFFF if kind == KSTEP or kind == THRONE else m)
            piece = cells[to]
            if kind == THRONE:
                self.flags |= USED[side]
                if arg:
                    p = self._pawn_home(arg - 1, us)
                    cells[p] = us | self.PAWN_T
                    self.counts[us | self.PAWN_T] += 1
                    self.halfmove = 0
        if piece & 31 == self.KING:  # castling rights: two castlings a game (§6.1)
            for c in self.game.castlings:
                if c.white == (us == WHITE):
                    if kind == CASTLE and c.king_to == to:
                        self.castling &= ~c.bit
                        self.flags |= CASTLED[side]
                    elif kind != CASTLE and not self.flags & CASTLED[side]:
                        self.castling &= ~c.bit
        for c in self.game.castlings:  # a rook leaving home, or taken there
            if frm == c.rook or cap_sq == c.rook:
                self.castling &= ~c.bit
        init = self._initial()
        for sq in (to, frm):  # a unit landing on a start square like its own has moved
            if cells[sq] and cells[sq] == init[sq] and (sq == to or kind == PAWN_CASTLE):
                moved |= 1 << lay.number[sq]
        self.moved = moved

    def _swap_cells(self, frm, to, arriving):
        # Pawn castling: the partner goes to the pawn's square, the pawn (or what it
        # promotes to) to the partner's.
        cells = self.cells
        pawn = cells[frm]
        if arriving != pawn:
            self.counts[pawn] -= 1
            self.counts[arriving] += 1
        cells[frm] = cells[to]
        cells[to] = arriving

    def pop(self):
        m, self.flags, self.moved = self.xstack.pop()
        kind = m >> 19 & 15
        arg = m >> 23 & 31
        if kind == PAWN_CASTLE:
            self.castling, self.ep, self.halfmove = self.stack.pop()[2:]
            us = self._turn_undone()
            self._swap_cells(m >> 9 & 511, m & 511, us | self.PAWN_T)  # and back
            return m
        if kind == THRONE and arg:
            us = self.us ^ (WHITE | BLACK)
            p = self._pawn_home(arg - 1, us)
            self.cells[p] = EMPTY
            self.counts[us | self.PAWN_T] -= 1
        Position.pop(self)
        return m

    def trim(self):
        Position.trim(self)
        del self.xstack[: len(self.xstack) - len(self.stack)]

    def effects(self, m, buf):
        frm = m & 511
        to = m >> 9 & 511
        kind = m >> 19 & 15
        arg = m >> 23 & 31
        us = self.us
        piece = self.cells[frm]
        if kind == PAWN_CASTLE:
            buf[0] = frm
            buf[1] = self.cells[to]
            buf[2] = to
            buf[3] = us | arg if arg else piece
            return 2
        if kind == THRONE:
            n = ChessPosition.effects(self, m & ~(511 << 19), buf)
            if arg:
                buf[2 * n] = self._pawn_home(arg - 1, us)
                buf[2 * n + 1] = us | self.PAWN_T
                n += 1
            return n
        if kind == EP:
            buf[0] = frm
            buf[1] = EMPTY
            buf[2] = to
            buf[3] = piece
            buf[4] = self._ep_pawn(to, us)
            buf[5] = EMPTY
            return 3
        return ChessPosition.effects(self, m & ~(15 << 19) if kind == KSTEP else m, buf)

    def _move_suffix(self, m):
        kind = m >> 19 & 15
        if kind == PAWN_CASTLE and m >> 23 & 31:
            return self.game.letter[m >> 23 & 31].lower()
        if kind == THRONE and m >> 23 & 31:
            return "," + self.game.layout.name(self._pawn_home((m >> 23 & 31) - 1, self.us))
        if kind == KSTEP:
            return ",k"
        return ""

    # ---- the end ------------------------------------------------------------------------

    def is_insufficient_material(self):
        # Only bare Kings that have both used their throne visit (§6.6).
        if self.flags & 3 != 3:
            return False
        for sq in self.game.layout.squares:
            c = self.cells[sq]
            if c and c & 31 != self.KING:
                return False
        return True

    def _key(self):
        # FIDE's same position has the same moves: the units that have moved are part of it.
        return bytes(self.cells) + bytes((self.us, self.castling, self.ep & 255, self.ep >> 8, self.flags)) + \
            self.moved.to_bytes(13, "little")

    def repetition_plies(self):
        # §6.6: repetitions as FIDE counts them.  A king's pawn steps back and a pawn
        # castling swaps back, so a pawn move does not end the positions that may come
        # again, as in chess; a capture, a promotion, a castling or a throne visit does
        # (material, rights and flags never come back).
        stack = self.stack
        xs = self.xstack  # the moves as made (the core's stack holds a throne visit's plainly)
        n = 0
        for i in range(len(stack) - 1, -1, -1):
            m = xs[i][0]
            kind = m >> 19 & 15
            if stack[i][1] or kind == PROMO or kind == CASTLE or kind == THRONE or kind == PAWN_CASTLE and m >> 23 & 31:
                break
            n += 1
        return n

    def history_needed(self):
        return 8 + min(self.repetition_plies(), 150)


POSITION = HundredPosition


def new(fen=None):
    return HundredPosition(GAME, fen)
