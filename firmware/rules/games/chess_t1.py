"""chess-T1 (Sh. Khasanov; chess-t1.md with its recommended readings, 2025 edition by
default).

Every piece has a mobility field M(p) (§5): the squares it could move to were they empty,
the first piece on a slide included.  The same field gives its moves and its strength
(§8): a capture needs the side's sum of strengths on the square to beat the defender's,
counted before the move.  Royal pieces (King, Konnet, Prince) alone may stand on the
castle squares c1-f1 and c8-f8; a Scout captures whatever it hits, and on a castle square
exchanges itself for the victim.  No check rule: a King can be taken.  The game ends when
a King is taken, when a side holds the enemy castle with no enemy royal piece in it, or
when the side to move has no move (blockade: it loses).  Draws (threefold repetition,
40 moves without capture) are claims.

FEN: castling and en-passant fields are always "-"; the half-move clock counts plies
since the last capture or exchange; an optional seventh field lists the sides whose
Prince-to-Konnet promotion is used ("P", "p", "Pp").

Moves: from-to; a chosen promotion adds its letter (g7g8c; c2c1p for a Wer Knecht
entering a free enemy castle square); automatic promotions (Knecht to Wer Knecht, Prince
to Konnet) and the Scout's exchange are plain from-to.
"""

from array import array

from ..board import WHITE, BLACK, EMPTY, OFF, ORTHO, DIAG, ALL8, STRIDE, index, rank_of, delta
from ..compat import compile_fn
from ..game import Game, leap, leap_images
from ..position import Position, Outcome, FenError, CAPTURE, PROMO

START = "rspckpsr/iiiiiiii/8/8/8/8/IIIIIIII/RSPCKPSR w - - 0 1"

# letter, name, strength in half units (§2), leaps
PIECES = (
    ("K", "King", 3, (leap(ALL8),)),
    ("C", "Konnet", 6, (leap([(k * x, k * y) for k in (1, 2) for x, y in ORTHO]),)),
    ("P", "Prince", 3, (leap(ORTHO),)),
    ("R", "Ritter", 4, (leap([(k * x, k * y) for k in (1, 2) for x, y in ORTHO]),)),
    ("I", "Knecht", 2, ()),
    ("V", "Wer Knecht", 3, ()),
    ("S", "Scout", 0, (leap_images((1, 2)),)),
)

EXCHANGE = 7  # move kind: the Scout and its victim on a castle square both leave
AUTO = 8  # move kind: a promotion nobody chooses (arg: the new type)


def build(wk_enters_enemy_castle=True):
    g = Game("chess-t1", 8, 8, "abcdefgh", PIECES, START, royal="K")
    g.ep = False
    g.wk_castle = wk_enters_enemy_castle  # R7.3: the 2025 edition (the default)
    return g


GAME = build()
KING = GAME.type_of("K")
KONNET = GAME.type_of("C")
PRINCE = GAME.type_of("P")
RITTER = GAME.type_of("R")
KNECHT = GAME.type_of("I")
WER = GAME.type_of("V")
SCOUT = GAME.type_of("S")
ROYAL = (1 << KING) | (1 << KONNET) | (1 << PRINCE)
REACH = 3  # the farthest a piece's field goes, in files or ranks (the diagonal slides)
DIAG_RANGE = 3  # the Prince's and the Konnet's diagonal slides (§5)
CHOICES = (RITTER, PRINCE, KONNET, SCOUT)  # R7.2, in the order a board offers them
_CASTLE_FILES = (2, 3, 4, 5)
_DIAGS = tuple(delta(x, y) for x, y in DIAG)


def _castle_table():
    # cell -> the colour whose castle it is (0: none)
    t = bytearray(450)
    for f in _CASTLE_FILES:
        t[index(f, 0)] = WHITE
        t[index(f, 7)] = BLACK
    return bytes(t)


CASTLE = _castle_table()


def royal(t):
    return ROYAL >> t & 1


class T1Position(Position):
    """A chess-T1 position: mobility, strength, castles, promotions, game end."""

    def _set_extra(self, extra):
        self.used = extra  # bit 1: White's Prince promotion used, bit 2: Black's
        self._end = 0

    def _parse_extra(self, fields, cells):
        if len(fields) > 1:
            raise FenError("chess-t1 takes 6 or 7 FEN fields, got %d" % (6 + len(fields)))
        used = 0
        if fields and fields[0] != "-":
            for ch in fields[0]:
                bit = 1 if ch == "P" else 2 if ch == "p" else 0
                if not bit or used & bit:
                    raise FenError("bad Prince-promotion field %r" % fields[0])
                used |= bit
        return used

    def _extra_fields(self):
        if not self.used:
            return []
        return [("P" if self.used & 1 else "") + ("p" if self.used & 2 else "")]

    def view_extra(self, colour):
        mine = self.used & (1 if colour == WHITE else 2)
        return ["P" if colour == WHITE else "p"] if mine else []

    def _check_setup(self, cells, counts, kings, us):
        # A taken King ends the game (§10), and the position it leaves is written and read
        # back like any other (an archived end, a resumed game): one side may lack its King.
        if not counts[WHITE | KING] and not counts[BLACK | KING]:
            raise FenError("no King on the board")
        for sq in self.game.layout.squares:
            c = cells[sq]
            if c and CASTLE[sq] and not royal(c & 31):
                raise FenError("only royal pieces stand on castle squares")

    # ---- mobility and strength (§5, §8) ------------------------------------------------------

    def field(self, sq, out):
        """Append M(p) of the piece on sq: the cells it moves to, captures on and hits."""
        cells = self.cells
        c = cells[sq]
        t = c & 31
        for d in self.game.jumps[t]:
            if cells[sq + d] != OFF:
                out.append(sq + d)
        if t == PRINCE or t == KONNET:
            for d in _DIAGS:
                to = sq
                for _ in range(DIAG_RANGE):
                    to += d
                    x = cells[to]
                    if x == OFF:
                        break
                    out.append(to)
                    if x != EMPTY:
                        break
        elif t == KNECHT or t == WER:
            fwd = STRIDE if c & WHITE else -STRIDE
            for d in (1, -1, -fwd, fwd):
                if cells[sq + d] != OFF:
                    out.append(sq + d)
            to = sq + 2 * fwd
            r = rank_of(to)
            own = r <= 3 if c & WHITE else r >= 4
            if cells[to] != OFF and own and cells[sq + fwd] == EMPTY:
                out.append(to)
        return out

    def strength_map(self, near=None):
        """(sums, royal hits): sums[side][cell] is the side's raw strength on the cell
        in half units (side 0 White), royal[side][cell] how many of its royal pieces hit it.
        near: a list of cells whose figures alone are wanted (a lifted piece's captures):
        those cells' figures alone are made (add_reachers), the other cells are left short."""
        sqs = self.game.layout.squares
        n = len(sqs)
        sums = (bytearray(450), bytearray(450))
        roy = (bytearray(450), bytearray(450))
        pts = self.game.points
        cells = self.cells
        if near is not None:
            # (the wanted cells alone: each piece that may reach one asked for each, by the
            # offset and the cells between; its field is not made)
            k = len(near)
            got = bytearray(4 * k)
            add_reachers(cells, sqs, n, array("H", near), k, _REACH2, _STEP, pts, got)
            for j in range(k):
                to = near[j]
                sums[0][to] = got[j]
                sums[1][to] = got[k + j]
                roy[0][to] = got[2 * k + j]
                roy[1][to] = got[3 * k + j]
            return sums, roy
        tmp = []
        for sq in sqs:
            c = cells[sq]
            if not c or c & 31 == SCOUT:
                continue
            side = 0 if c & WHITE else 1
            s = pts[c & 31]
            r = ROYAL >> (c & 31) & 1  # royal(), inline: once a piece
            del tmp[:]
            self.field(sq, tmp)
            sums[side][sq] += s
            for to in tmp:
                sums[side][to] += s
                roy[side][to] += r
        return sums, roy

    def attack(self, side, sq, smap):
        """side's effective attack on sq (§8.4): on a castle square, non-royal strength
        counts only with a royal piece of the side hitting it too."""
        sums, roy = smap
        if CASTLE[sq] and not roy[side][sq]:
            return 0
        return sums[side][sq]

    # ---- moves (§4, §6, §7) ---------------------------------------------------------------

    def pseudo_moves(self):
        return self.legal_moves()

    def _powers_from(self, sq):
        return None

    def legal_moves(self):
        """Every move of the side to move; none once the game is over (§10)."""
        if self._won() is not None:
            self._end = self._won()
            return []
        ms = self._moves()
        self._end = None if ms else "blockade"
        return ms

    def _moves(self):
        ms = []
        smap = self.strength_map()
        for sq in self.game.layout.squares:
            if self.cells[sq] & self.us:
                self._piece_moves(sq, ms, smap)
        return ms

    def moves_from(self, sq, out=None):
        ms = [] if out is None else out
        if self.cells[sq] & self.us and self.end_reason() is None:
            self._piece_moves(sq, ms, None)  # the strengths on its captures' squares alone
        return ms

    def _confined(self, sq, t):
        # R6.2: the lone own royal piece in its castle, enemy royalty inside, stays in.
        us = self.us
        if not royal(t) or CASTLE[sq] != us:
            return False
        mine = enemy = 0
        for f in _CASTLE_FILES:
            x = self.cells[index(f, 0 if us == WHITE else 7)]
            if x and royal(x & 31):
                if x & us:
                    mine += 1
                else:
                    enemy += 1
        return mine == 1 and enemy > 0

    def _piece_moves(self, sq, ms, smap):
        cells = self.cells
        us = self.us
        them = us ^ (WHITE | BLACK)
        t = cells[sq] & 31
        side = 0 if us == WHITE else 1
        confined = self._confined(sq, t)
        targets = self.field(sq, [])
        for to in targets:
            x = cells[to]
            if x & us or (confined and CASTLE[to] != us):
                continue
            castle = CASTLE[to]
            if t == SCOUT:
                if x == EMPTY:
                    if not castle:
                        ms.append(sq | to << 9)
                elif castle:
                    ms.append(sq | to << 9 | CAPTURE | EXCHANGE << 19)
                else:
                    ms.append(sq | to << 9 | CAPTURE)
                continue
            if x == EMPTY:
                if castle and not royal(t):
                    if t == WER and castle == them and self.game.wk_castle and to - sq == (STRIDE if us == WHITE else -STRIDE):
                        for p in (PRINCE, KONNET):  # R7.3
                            if self._may_become(p):
                                ms.append(sq | to << 9 | PROMO << 19 | p << 23)
                    continue
                self._add(sq, to, t, 0, ms)
            elif x & them:
                if castle and not royal(t):
                    continue
                if smap is None:  # (moves_from: the strengths on its captures' squares)
                    smap = self.strength_map([c for c in targets if cells[c] & them])
                if self.attack(side, to, smap) > smap[0][1 - side][to]:
                    self._add(sq, to, t, CAPTURE, ms)

    def _may_become(self, t):
        # R7.2: at most three Princes and three Konnets of a side on the board.
        return t not in (PRINCE, KONNET) or self.counts[self.us | t] < 3

    def _add(self, sq, to, t, cap, ms):
        us = self.us
        m = sq | to << 9 | cap
        r = rank_of(to)
        fwd = to - sq == (STRIDE if us == WHITE else -STRIDE)
        if t == KNECHT and fwd and r == (5 if us == WHITE else 2):
            ms.append(m | AUTO << 19 | WER << 23)  # R7.1
        elif t == WER and r == (7 if us == WHITE else 0) and not CASTLE[to]:
            for p in CHOICES:  # R7.2: a Wer Knecht must become one of these
                if self._may_become(p):
                    ms.append(m | PROMO << 19 | p << 23)
        elif t == PRINCE and CASTLE[to] == us ^ (WHITE | BLACK) and not self.used & (1 if us == WHITE else 2) \
                and self.counts[us | KONNET] < 3:
            ms.append(m | AUTO << 19 | KONNET << 23)  # R7.4
        else:
            ms.append(m)

    def push(self, m):
        cells = self.cells
        counts = self.counts
        us = self.us
        frm = m & 511
        to = m >> 9 & 511
        kind = m >> 19 & 15
        piece = cells[frm]
        captured = cells[to]
        self.stack.append((m, captured, self.used, self.halfmove))
        if captured:
            counts[captured] -= 1
            if captured & 31 == KING:
                self.kings[captured >> 6] = 0
        cells[frm] = EMPTY
        if kind == EXCHANGE:
            counts[piece] -= 1
            cells[to] = EMPTY
        else:
            if kind == PROMO or kind == AUTO:
                counts[piece] -= 1
                piece = us | m >> 23 & 31
                counts[piece] += 1
                if kind == AUTO and piece & 31 == KONNET:
                    self.used |= 1 if us == WHITE else 2
            cells[to] = piece
            if piece & 31 == KING:
                self.kings[us >> 6] = to
        self._turn_done(captured)
        self._end = 0

    def pop(self):
        m, captured, self.used, self.halfmove = self.stack.pop()
        cells = self.cells
        counts = self.counts
        us = self._turn_undone()
        frm = m & 511
        to = m >> 9 & 511
        kind = m >> 19 & 15
        if kind == EXCHANGE:
            piece = us | SCOUT
            counts[piece] += 1
        else:
            piece = cells[to]
            if kind == PROMO or kind == AUTO:
                counts[piece] -= 1
                piece = us | (PRINCE if piece & 31 == KONNET and kind == AUTO else WER if kind == PROMO else KNECHT)
                counts[piece] += 1
            if piece & 31 == KING:
                self.kings[us >> 6] = frm
        cells[frm] = piece
        cells[to] = captured
        if captured:
            counts[captured] += 1
            if captured & 31 == KING:
                self.kings[captured >> 6] = to
        self._end = 0
        return m

    def effects(self, m, buf):
        frm = m & 511
        to = m >> 9 & 511
        kind = m >> 19 & 15
        buf[0] = frm
        buf[1] = EMPTY
        buf[2] = to
        if kind == EXCHANGE:
            buf[3] = EMPTY
        elif kind == PROMO or kind == AUTO:
            buf[3] = self.us | m >> 23 & 31
        else:
            buf[3] = self.cells[frm]
        return 2

    def move_str(self, m):
        lay = self.game.layout
        s = lay.name(m & 511) + lay.name(m >> 9 & 511)
        if m >> 19 & 15 == PROMO:
            s += self.game.letter[m >> 23 & 31].lower()
        return s

    def promotions(self, to):
        return CHOICES

    def attacked(self, sq, by):
        """True if colour `by`, were it to move, could take the piece on sq (§9)."""
        saved = self.us
        self.us = by
        try:
            smap = self.strength_map()
            lay = self.game.layout
            for a in lay.squares:
                if self.cells[a] & by:
                    for m in self._piece_moves_list(a, smap):
                        if m >> 9 & 511 == sq and m & CAPTURE:
                            return True
            return False
        finally:
            self.us = saved

    def _piece_moves_list(self, sq, smap):
        out = []
        self._piece_moves(sq, out, smap)
        return out

    def is_check(self):
        """True if the side to move's King could be taken now (an annotation, §9)."""
        k = self.kings[self.us >> 6]
        return k != 0 and self.attacked(k, self.us ^ (WHITE | BLACK))

    # ---- the end (§10) ---------------------------------------------------------------------

    def end_reason(self):
        """king-captured, castle-captured, blockade or None."""
        if self._end == 0:
            self._end = self._find_end()
        return self._end

    def _find_end(self):
        won = self._won()
        if won is None and not self._moves():
            return "blockade"
        return won

    def _won(self):
        if not self.kings[0] or not self.kings[1]:
            return "king-captured"
        if self._castle_holder() is not None:
            return "castle-captured"
        return None

    def _castle_holder(self):
        # R10.2: the side with a royal piece in the enemy castle where no enemy royal stands.
        for colour, r in ((WHITE, 0), (BLACK, 7)):
            own = enemy = 0
            for f in _CASTLE_FILES:
                x = self.cells[index(f, r)]
                if x and royal(x & 31):
                    if x & colour:
                        own += 1
                    else:
                        enemy += 1
            if enemy and not own:
                return colour ^ (WHITE | BLACK)
        return None

    def outcome(self, claim=False):
        reason = self.end_reason()
        if reason == "king-captured":
            return Outcome(reason, WHITE if self.kings[0] else BLACK)
        if reason == "castle-captured":
            return Outcome(reason, self._castle_holder())
        if reason == "blockade":
            return Outcome(reason, self.us ^ (WHITE | BLACK))
        if claim:
            if self.halfmove >= 80:
                return Outcome("forty-moves", None)
            if self.repetitions() >= 3:
                return Outcome("threefold-repetition", None)
        return None

    def repetitions(self):
        key = bytes(self.cells) + bytes((self.us, self.used))
        n = 1
        undone = []
        for i in range(len(self.stack)):
            undone.append(self.pop())
            if i & 1 and bytes(self.cells) + bytes((self.us, self.used)) == key:
                n += 1
        while undone:
            self.push(undone.pop())
        return n

    def history_needed(self):
        return 8 + min(self.halfmove, 80)


POSITION = T1Position  # the class a player's Kriegspiel view derives from

# The offsets (to - from) a piece's field may hold, each a bit of the piece types whose
# field may (a table a colour, White's first): strength_map's test of which pieces may
# reach a lifted piece's captures.  Made by field() itself, on an empty board, from
# squares where nothing of a field falls off it (a Knecht's double step from its own
# half).  On 8 files an offset names its files and ranks apart (|files| < STRIDE / 2).
_BIAS = REACH * (STRIDE + 1)


def _reach_tables():
    pos = T1Position(GAME)
    pos.cells = GAME.layout.empty_board()
    tables = (bytearray(2 * _BIAS + 1), bytearray(2 * _BIAS + 1))
    out = []
    for side in (0, 1):
        for t in range(1, len(GAME.letter)):
            for sq in (index(3, 1), index(3, 3), index(4, 4), index(4, 6)):
                pos.cells[sq] = (WHITE if side == 0 else BLACK) | t
                del out[:]
                pos.field(sq, out)
                pos.cells[sq] = EMPTY
                for to in out:
                    tables[side][to - sq + _BIAS] |= 1 << t
        tables[side][_BIAS] = 0xFF  # a piece's strength counts on its own square too
    return tables


_REACHES = _reach_tables()
_REACH2 = _REACHES[0] + _REACHES[1]  # White's table, then Black's: add_reachers'
# A diagonal slide's offsets past its first cell (+ _BIAS) -> its step + _BIAS (0: none)
_STEP = bytearray(2 * _BIAS + 1)
for _d in _DIAGS:
    for _k in range(2, DIAG_RANGE + 1):
        _STEP[_k * _d + _BIAS] = _d + _BIAS

# Each side's strength and royal hits on the k cells of near (the wanted cells of
# strength_map), into out: out[j] White's sum on near[j], out[k + j] Black's, out[2k + j]
# and out[3k + j] their royal hits.  A piece (not a Scout) counts on its own cell and on
# the cells its field holds, told by the offset (_REACH2, made by field() itself): a leap's
# cell is in the field; a diagonal slide's farther cell needs the cells between empty
# (_STEP), a Knecht's double step the cell passed empty and its own half.  In Python each
# piece's field and the test of each capture against it cost a lift with many captures
# some 900 lines, 10-12 ms on the emulated Pico (issue #38): machine code on the chip
# (compat.compile_fn, when the game is loaded), from this one source.
add_reachers = compile_fn("""
def add_reachers(cells: ptr8, squares: ptr16, n: int, near: ptr16, k: int, reach: ptr8, steps: ptr8, pts: ptr8,
                 out: ptr8) -> int:
    i = 0
    while i < n:
        sq = squares[i]
        c = cells[sq]
        i += 1
        t = c & 31
        if c == 0 or t == %(scout)d:
            continue
        r = 0
        side = 0
        if c & %(black)d:
            r = %(width)d
            side = k
        s = pts[t]
        roy = (%(royal)d >> t) & 1
        j = 0
        while j < k:
            to = near[j]
            if to == sq:
                out[side + j] += s
            else:
                o = to - sq + %(bias)d
                hit = 0
                if o >= 0:
                    if o < %(width)d:
                        hit = (reach[r + o] >> t) & 1
                if hit:
                    if t == %(prince)d or t == %(konnet)d:
                        e = steps[o]
                        if e:
                            d = e - %(bias)d
                            x = sq + d
                            while x != to:
                                if cells[x]:
                                    hit = 0
                                    break
                                x += d
                    elif t == %(knecht)d or t == %(wer)d:
                        if o == %(bias)d + %(double)d or o == %(bias)d - %(double)d:
                            if cells[(sq + to) >> 1]:
                                hit = 0
                            elif side:
                                if to < %(half)d:
                                    hit = 0
                            elif to >= %(half)d:
                                hit = 0
                if hit:
                    out[side + j] += s
                    out[2 * k + side + j] += roy
            j += 1
    return 0
""" % {"scout": SCOUT, "black": BLACK, "bias": _BIAS, "width": 2 * _BIAS + 1, "royal": ROYAL,
       "prince": PRINCE, "konnet": KONNET, "knecht": KNECHT, "wer": WER, "double": 2 * STRIDE,
       "half": index(0, 4)}, "add_reachers", "viper")


def new(fen=None, wk_enters_enemy_castle=True):
    return T1Position(GAME if wk_enters_enemy_castle else _fragment_game(), fen)


_FRAGMENT = []


def _fragment_game():
    # The 2024 fragment's rules (wk_enters_enemy_castle = false), built when first asked.
    if not _FRAGMENT:
        _FRAGMENT.append(build(False))
    return _FRAGMENT[0]
