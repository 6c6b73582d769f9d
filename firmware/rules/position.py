"""A position of any chess-like game: a padded bytearray board, the side to move, and state.

Moves are small ints (at most 28 bits, so a small int on a 32-bit MicroPython too):

  bits 0-8    from cell          bits 9-17   to cell
  bit  18     CAPTURE            bits 19-22  kind (NORMAL, DOUBLE, EP, CASTLE, PROMO, BLAST, BONUS)
  bits 23-27  argument: the promotion piece type, or a game's own extra (lippo's bonus file + 1)

A move list is a plain list of such ints: generating the moves of one piece allocates
the list and nothing else.  The generator is table driven (game.py); games with extra
rules subclass Position and hook push/pop and the generator.
"""

from .compat import const
from .board import N, EMPTY, WHITE, BLACK, OFF, STRIDE, rank_of

CAPTURE = const(1 << 18)
NORMAL = const(0)
DOUBLE = const(1)
EP = const(2)
CASTLE = const(3)
PROMO = const(4)
BLAST = const(5)
BONUS = const(6)

_SQ = const(511)
# The 8 unit steps; a horizontal span is shorter than N, a vertical or diagonal one
# longer, so one of these divides a king-to-pinner span to a quotient below N.
_UNITS = (1, -1, STRIDE, -STRIDE, STRIDE + 1, STRIDE - 1, -STRIDE + 1, -STRIDE - 1)
_KIND = const(19)
_ARG = const(23)
KIND_SHIFT = const(_KIND)  # public: the host's search makes moves of its own (host/engine/captures.py)


class FenError(ValueError):
    """A FEN that does not describe a position of the game."""


class MoveError(ValueError):
    """A move string that is malformed or not legal in the position."""


def kind_of(m):
    return m >> _KIND & 15


def to_sq(m):
    return m >> 9 & _SQ


def is_capture(m):
    return m & CAPTURE != 0


class Position:
    """The state of one game: board, side to move, castling, en passant, clocks, history."""

    # Move kinds (a bit each) whose effects() are exactly "the from cell empties, the to
    # cell gets the moving piece": a board lights them without asking effects().  A game
    # that gives these kinds other effects, or encodes moves otherwise, says 0.
    PLAIN_KINDS = (1 << NORMAL) | (1 << DOUBLE)
    # Move kinds whose check test may move the piece in the cells alone, without push and
    # pop: for a game whose attacked() reads nothing a move changes but the cells.
    LIGHT_KINDS = 0

    def __init__(self, game, fen=None):
        self.game = game
        self.cells = game.layout.empty_board()
        self.counts = bytearray(128)  # pieces on the board, by cell code
        self.kings = [0, 0]  # cell of each side's royal piece, 0 if it has none
        self.stack = []
        self.set_fen(fen or game.start)

    # ---- FEN ------------------------------------------------------------------------

    def set_fen(self, fen):
        """Replace the whole state by the FEN's; FenError (nothing changed) if it is malformed."""
        g = self.game
        lay = g.layout
        fields = fen.split()
        if len(fields) < 4:
            raise FenError("a FEN needs at least 4 fields, got %d" % len(fields))
        rows = fields[0].split("/")
        if len(rows) != lay.ranks:
            raise FenError("%d ranks in the board field, %s has %d" % (len(rows), g.id, lay.ranks))
        cells = lay.empty_board()
        for i, row in enumerate(rows):
            r = lay.ranks - 1 - i
            f = 0
            j = 0
            while j < len(row):
                ch = row[j]
                if "0" <= ch <= "9":
                    k = j
                    while k < len(row) and "0" <= row[k] <= "9":
                        k += 1
                    if ch == "0":
                        raise FenError("bad empty run %r in rank %d" % (row[j:k], r + 1))
                    n = int(row[j:k])
                    f += n
                    j = k
                    continue
                up = ch.upper()
                t = g.letter.find(up)
                if t <= 0 or not ch.isalpha():
                    raise FenError("no piece %r in %s" % (ch, g.id))
                if f >= lay.files:
                    raise FenError("rank %d has more than %d files" % (r + 1, lay.files))
                cells[lay.squares[r * lay.files + f]] = t | (WHITE if ch == up else BLACK)
                f += 1
                j += 1
            if f != lay.files:
                raise FenError("rank %d has %d files, %s has %d" % (r + 1, f, g.id, lay.files))
        if fields[1] not in ("w", "b"):
            raise FenError("side to move must be w or b, not %r" % fields[1])
        us = WHITE if fields[1] == "w" else BLACK
        castling = self._parse_castling(fields[2], cells)
        ep = self._parse_ep(fields[3], cells, us)
        try:
            half = int(fields[4]) if len(fields) > 4 else 0
            full = int(fields[5]) if len(fields) > 5 else 1
        except ValueError:
            raise FenError("the move clocks must be whole numbers")
        if half < 0 or full < 1:
            raise FenError("half-move clock must be >= 0 and move number >= 1")
        extra = self._parse_extra(fields[6:], cells)
        counts = bytearray(128)
        kings = [0, 0]
        royal = g.royal
        for sq in lay.squares:
            c = cells[sq]
            if c:
                counts[c] += 1
                if c & 31 == royal:
                    side = c >> 6
                    if kings[side]:
                        raise FenError("more than one %s per side" % g.names[royal])
                    kings[side] = sq
        self._check_setup(cells, counts, kings, us)
        # Accepted: commit everything at once.
        self.cells[:] = cells
        self.counts[:] = counts
        self.kings[0] = kings[0]
        self.kings[1] = kings[1]
        self.us = us
        self.castling = castling
        self.ep = ep
        self.halfmove = half
        self.fullmove = full
        self.stack = []
        self._set_extra(extra)

    def _parse_castling(self, field, cells):
        if field == "-":
            return 0
        rights = 0
        for ch in field:
            for c in self.game.castlings:
                if c.letter == ch:
                    break
            else:
                raise FenError("bad castling field %r" % field)
            if rights & c.bit:
                raise FenError("castling right %r given twice" % ch)
            if self._right_usable(c, cells):
                rights |= c.bit
        return rights

    def _right_usable(self, c, cells):
        # A right whose king or rook is not at home cannot be used: it is dropped, as
        # python-chess does, rather than refusing the position.
        colour = WHITE if c.white else BLACK
        return cells[c.king] == colour | self.game.royal and cells[c.rook] == colour | self.game.castle_rook

    def _parse_ep(self, field, cells, us):
        if field == "-":
            return 0
        lay = self.game.layout
        try:
            sq = lay.cell(field)
        except ValueError:
            raise FenError("bad en-passant square %r" % field)
        fwd = STRIDE if us == WHITE else -STRIDE
        them = us ^ (WHITE | BLACK)
        if not self.game.pawn or cells[sq] != EMPTY or cells[sq - fwd] != them | self.game.pawn:
            raise FenError("en-passant square %s does not follow a double step" % field)
        return sq

    def _parse_extra(self, fields, cells):
        if fields:
            raise FenError("%s takes 6 FEN fields, got %d" % (self.game.id, 6 + len(fields)))
        return None

    def _set_extra(self, extra):
        pass

    def _check_setup(self, cells, counts, kings, us):
        """Refuse a set-up the game's rules cannot start from (FenError)."""

    def fen(self):
        """The position as FEN, in the game's letters (notation.md)."""
        g = self.game
        lay = g.layout
        rows = [self.board_field()]
        castling = ""
        for c in g.castlings:
            if self.castling & c.bit:
                castling += c.letter
        ep = lay.name(self.ep) if self.ep else "-"
        parts = [
            rows[0],
            "w" if self.us == WHITE else "b",
            castling or "-",
            ep,
            str(self.halfmove),
            str(self.fullmove),
        ]
        return " ".join(parts + self._extra_fields())

    def _extra_fields(self):
        return []

    def board_field(self, colours=WHITE | BLACK):
        """The FEN board field, showing only the men of `colours` (a player's own view)."""
        g = self.game
        lay = g.layout
        rows = []
        for r in range(lay.ranks - 1, -1, -1):
            row = ""
            run = 0
            for f in range(lay.files):
                c = self.cells[lay.squares[r * lay.files + f]]
                if not c & colours:
                    run += 1
                    continue
                if run:
                    row += str(run)
                    run = 0
                ch = g.letter[c & 31]
                row += ch if c & WHITE else ch.lower()
            if run:
                row += str(run)
            rows.append(row)
        return "/".join(rows)

    # ---- queries ----------------------------------------------------------------------

    @property
    def turn(self):
        """WHITE or BLACK: the colour bit of the side to move."""
        return self.us

    def piece_at(self, sq):
        """The cell code on a square (0 empty): colour bit | type."""
        return self.cells[sq]

    def ply(self):
        return 2 * (self.fullmove - 1) + (self.us == BLACK)

    def attacked(self, sq, by, out=None):
        """True if a piece of colour `by` could capture on sq (were an enemy there).  out: a
        list to append the cells of all such pieces to, by the same tables (a leap or bent
        route's piece may be listed twice), the answer then whether there are any."""
        g = self.game
        cells = self.cells
        aj = g.att_jumps
        for i in range(0, len(aj), 2):
            x = cells[sq - aj[i]]
            if x & by and aj[i + 1] >> (x & 31) & 1:
                if out is None:
                    return True
                out.append(sq - aj[i])
        ab = g.att_bent
        b = g.bent
        for j in range(0, len(ab), 2):
            i = ab[j]
            f = sq - b[i]
            x = cells[f]
            if x & by and ab[j + 1] >> (x & 31) & 1:
                if cells[f + b[i + 1]] != OFF or cells[f + b[i + 2]] != OFF:
                    if out is None:
                        return True
                    out.append(f)
        for d, mask in g.att_slides:
            s = sq - d
            x = cells[s]
            while x == EMPTY:
                s -= d
                x = cells[s]
            if x & by and mask >> (x & 31) & 1:
                if out is None:
                    return True
                out.append(s)
        if g.pawn:
            pawn = by | g.pawn
            back = -STRIDE if by == WHITE else STRIDE
            if cells[sq + back - 1] == pawn:
                if out is None:
                    return True
                out.append(sq + back - 1)
            if cells[sq + back + 1] == pawn:
                if out is None:
                    return True
                out.append(sq + back + 1)
        return bool(out)

    def attackers(self, sq, by):
        """The cells of the pieces of colour `by` that could capture on sq, in board order."""
        out = []
        if not sq:
            return out
        cells = self.cells
        saved = self.us
        self.us = by
        try:
            for a in self.game.layout.squares:
                c = cells[a]
                if c & by:
                    ms = []
                    Position._gen_piece(self, a, c & 31, ms)
                    for m in ms:
                        if m >> 9 & _SQ == sq and m & CAPTURE:
                            out.append(a)
                            break
        finally:
            self.us = saved
        return out

    def view_extra(self, colour):
        """The extra FEN fields (after the sixth) a player of `colour` may know: none here."""
        return []

    def is_check(self):
        """True if the side to move's royal piece is attacked."""
        k = self.kings[self.us >> 6]
        return k != 0 and self.attacked(k, self.us ^ (WHITE | BLACK))

    # ---- move generation --------------------------------------------------------------

    def pseudo_moves(self):
        """Every move by the pieces' powers, before the check rule."""
        ms = []
        cells = self.cells
        us = self.us
        gen = self._gen_piece
        for sq in self.game.layout.squares:
            c = cells[sq]
            if c & us:
                gen(sq, c & 31, ms)
        return ms

    def legal_moves(self):
        """Every legal move of the side to move (a list of move ints)."""
        return self._legal_list(False)

    def has_legal_move(self):
        """Whether the side to move has a legal move: what a game's end asks, found without
        making the list of them all (the first piece that can move ends the search)."""
        if type(self).legal_moves is not Position.legal_moves:  # a game's own move rules
            return bool(self.legal_moves())
        return bool(self._legal_list(True))

    def legal_steps(self, ms):
        """A generator that appends legal_moves() to ms, in its order, a piece at a time,
        yielding after each piece: a board spreads the turn's list over its scans.  The
        position must stand as it was whenever the generator is resumed."""
        if not self._piecewise():
            ms.extend(self.legal_moves())
            return
        us = self.us
        cells = self.cells
        check = self.game.check_rules
        if check:  # as _legal_list: one check test and one pin search a turn
            them = us ^ (WHITE | BLACK)
            k = self.kings[us >> 6]
            in_check = self._check_state(k, them)
            pins = None if in_check else self._pins(k, us, them)
        for sq in self.game.layout.squares:
            c = cells[sq]
            if c & us:
                if check:
                    self._legal_from(sq, c & 31, ms, k, pins, them, in_check)
                else:
                    self._gen_piece(sq, c & 31, ms)
                yield

    def _piecewise(self):
        # Are the legal moves the pieces' own, made piece by piece in the squares' order
        # (legal_steps)?  Not where a game has move rules of its own.
        return type(self).legal_moves is Position.legal_moves

    def _legal_list(self, first):
        # The legal moves; first: stop after the first piece that has any.
        if not self.game.check_rules:
            return self.pseudo_moves()
        us = self.us
        them = us ^ (WHITE | BLACK)
        k = self.kings[us >> 6]
        in_check = self._check_state(k, them)
        pins = None if in_check else self._pins(k, us, them)
        cells = self.cells
        ms = []
        for sq in self.game.layout.squares:
            c = cells[sq]
            if c & us:
                self._legal_from(sq, c & 31, ms, k, pins, them, in_check)
                if first and ms:
                    break
        return ms

    def _check_state(self, k, them):
        # False if the royal piece on k is not attacked; else the squares a plain move
        # (LIGHT_KINDS) of another piece must end on to answer the check: the checker's
        # and, on a slide's line, those between it and k (a leaper on a line may add some
        # that do not block: the move made tells); (0,) where two pieces check (none can);
        # True (every move tried) where a game moves more than from and to.
        if not self.attacked(k, them):
            return False
        cls = type(self)
        if cls.push is not Position.push or cls._gen_piece is not Position._gen_piece or not self.LIGHT_KINDS:
            return True
        found = []
        self.attacked(k, them, found)
        c = found[0]
        for f in found:
            if f != c:
                return (0,)
        cells = self.cells
        for d, mask in self.game.att_slides:
            if (k - c) % d == 0 and 0 < (k - c) // d <= N:
                s = k - d
                while cells[s] == EMPTY:
                    found.append(s)
                    s -= d
                if s == c:
                    return found
                del found[1:]
        return found

    def _legal_from(self, sq, t, ms, k, pins, them, in_check):
        # The check rule for the moves of one piece (check_rules games); in_check: False
        # or _check_state()'s answer.
        n = len(ms)
        if in_check:
            if sq == k:
                self._king_moves(sq, t, ms, them)
                ms[n:] = [m for m in ms[n:] if kind_of(m) != CASTLE]
                return
            self._gen_piece(sq, t, ms)
            if in_check is True:
                ms[n:] = [m for m in ms[n:] if kind_of(m) != CASTLE and self._safe_after(m)]
                return
            light = self.LIGHT_KINDS
            ms[n:] = [m for m in ms[n:] if (not light >> (m >> _KIND & 15) & 1 or m >> 9 & _SQ in in_check)
                      and kind_of(m) != CASTLE and self._safe_after(m)]
        elif sq == k:
            self._king_moves(sq, t, ms, them)
        elif pins is not None and sq in pins:
            self._pinned_moves(sq, t, ms, k, pins[sq])
        else:
            self._gen_piece(sq, t, ms)
            if self.ep and t == self.game.pawn:
                ms[n:] = [m for m in ms[n:] if kind_of(m) != EP or self._safe_after(m)]

    def moves_from(self, sq, out=None):
        """The legal moves of the piece on sq, appended to `out` (a new list if None)."""
        ms = [] if out is None else out
        c = self.cells[sq]
        if not c & self.us:
            return ms
        if self.game.check_rules:
            us = self.us
            them = us ^ (WHITE | BLACK)
            k = self.kings[us >> 6]
            in_check = self._check_state(k, them)
            pins = None if in_check else self._pins(k, us, them)
            self._legal_from(sq, c & 31, ms, k, pins, them, in_check)
        else:
            self._gen_piece(sq, c & 31, ms)
        return ms

    def castlings_from(self, sq, out):
        """The castlings of the man on sq among moves_from(sq)'s, in their order, appended to
        out: a board asks them when a castling's rook is lifted first.  A game may find them
        without testing the man's other moves (here: the royal piece's, by the check rule,
        not in check)."""
        cls = type(self)
        if self.game.check_rules and cls.legal_moves is Position.legal_moves and cls.moves_from is Position.moves_from \
                and sq == self.kings[self.us >> 6] and self.cells[sq] & self.us:
            them = self.us ^ (WHITE | BLACK)
            if not self.attacked(sq, them):  # (in check no castling: _legal_from)
                self._king_moves(sq, self.cells[sq] & 31, out, them, CASTLE)
            return out
        n = len(out)
        self.moves_from(sq, out)
        i = n
        for j in range(n, len(out)):
            m = out[j]
            if m >> _KIND & 15 == CASTLE:
                out[i] = m
                i += 1
        del out[i:]
        return out

    def moves_among(self, ms, sq, out):
        """The moves of ms (this position's legal_moves(), unchanged since) that start on
        sq, appended to out in their order: moves_from(sq) without generating again."""
        for m in ms:
            if m & _SQ == sq:
                out.append(m)
        return out

    def move_from(self, m):
        """The cell a move starts from."""
        return m & _SQ

    def move_to(self, m):
        """The cell a move ends on (for a blast: the victim's cell)."""
        return m >> 9 & _SQ

    def takes(self, m):
        """True if the move captures."""
        return m & CAPTURE != 0

    def _gen_piece(self, frm, t, ms):
        g = self.game
        cells = self.cells
        them = self.us ^ (WHITE | BLACK)
        # ms.append(...) each time: a bound method kept in a variable would be a heap
        # object on MicroPython, and a lifted piece's hints allocate nothing but the list.
        for d in g.jumps[t]:
            x = cells[frm + d]
            if x == EMPTY:
                ms.append(frm | (frm + d) << 9)
            elif x & them:
                ms.append(frm | (frm + d) << 9 | CAPTURE)
        bent = g.bent
        for i in range(g.bent_at[t], g.bent_at[t + 1], 3):
            to = frm + bent[i]
            x = cells[to]
            if x == EMPTY or x & them:
                if cells[frm + bent[i + 1]] != OFF or cells[frm + bent[i + 2]] != OFF:
                    ms.append(frm | to << 9 | (CAPTURE if x else 0))
        for d in g.slides[t]:
            to = frm + d
            x = cells[to]
            while x == EMPTY:
                ms.append(frm | to << 9)
                to += d
                x = cells[to]
            if x & them:
                ms.append(frm | to << 9 | CAPTURE)
        for d in g.blasts[t]:
            if cells[frm + d] & them:
                ms.append(frm | (frm + d) << 9 | CAPTURE | BLAST << _KIND)
        if t == g.pawn:
            self._pawn_moves(frm, ms, them)
        elif t == g.royal and self.castling:
            self._castle_moves(frm, ms)

    def _pawn_moves(self, frm, ms, them):
        cells = self.cells
        fwd = STRIDE if them == BLACK else -STRIDE
        to = frm + fwd
        if cells[to] == EMPTY:
            self._pawn_to(frm, to, 0, ms)
            if rank_of(frm) == self.game.double_ranks[them >> 6 ^ 1] and cells[to + fwd] == EMPTY:
                ms.append(frm | (to + fwd) << 9 | DOUBLE << _KIND)
        for side in (-1, 1):  # a constant tuple: no allocation
            to = frm + fwd + side
            x = cells[to]
            if x & them:
                self._pawn_to(frm, to, CAPTURE, ms)
            elif to == self.ep and self.game.ep:
                ms.append(frm | to << 9 | CAPTURE | EP << _KIND)

    def _pawn_to(self, frm, to, cap, ms):
        last = self.game.layout.ranks - 1 if self.us == WHITE else 0
        m = frm | to << 9 | cap
        if rank_of(to) != last:
            ms.append(m)
            return
        for t in self.promotions(to):
            ms.append(m | PROMO << _KIND | t << _ARG)
        if self.game.promo_optional:
            ms.append(m)

    def promotions(self, to):
        """Piece types a pawn of the side to move may become on arriving at `to`."""
        return self.game.promo_types

    def _castle_moves(self, frm, ms):
        cells = self.cells
        white = self.us == WHITE
        for c in self.game.castlings:
            if c.white == white and self.castling & c.bit and c.king == frm:
                for sq in c.empty:
                    if cells[sq] != EMPTY:
                        break
                else:
                    ms.append(frm | c.to << 9 | CASTLE << _KIND)

    # ---- the check rule ---------------------------------------------------------------

    def _safe_after(self, m):
        us = self.us
        if self.LIGHT_KINDS >> (m >> _KIND & 15) & 1:
            return self._safe_light(m)
        self.push(m)
        k = self.kings[us >> 6]
        ok = not self.attacked(k, us ^ (WHITE | BLACK))
        self.pop()
        return ok

    def _safe_light(self, m):
        # The move made in the cells only (a promotion's new piece, of the side that
        # moves, attacks nobody's own royal piece: the pawn stands in for it).
        cells = self.cells
        frm = m & _SQ
        to = m >> 9 & _SQ
        k = self.kings[self.us >> 6]
        if k == frm:
            k = to
        piece = cells[frm]
        x = cells[to]
        cells[to] = piece
        cells[frm] = EMPTY
        ok = not self.attacked(k, self.us ^ (WHITE | BLACK))
        cells[frm] = piece
        cells[to] = x
        return ok

    def _pins(self, k, us, them):
        # For each ray through the king: an own piece, then an enemy slider of that ray.
        pins = None
        cells = self.cells
        for d, mask in self.game.att_slides:
            s = k - d
            x = cells[s]
            while x == EMPTY:
                s -= d
                x = cells[s]
            if x & us:
                p = s
                s -= d
                x = cells[s]
                while x == EMPTY:
                    s -= d
                    x = cells[s]
                if x & them and mask >> (x & 31) & 1:
                    if pins is None:
                        pins = {}
                    pins[p] = s
        return pins

    def _pinned_moves(self, frm, t, ms, k, pinner):
        # A pinned piece may only move along the segment from the king to its pinner.
        tmp = []
        self._gen_piece(frm, t, tmp)
        span = pinner - k
        for d in _UNITS:
            if span % d == 0 and 0 < span // d < N:
                break
        far = span // d
        for m in tmp:
            j = (m >> 9 & _SQ) - k
            if j % d == 0 and 0 < j // d <= far:
                ms.append(m)

    def _king_moves(self, frm, t, ms, them, only=-1):
        # only: the moves of that kind alone (castlings_from)
        tmp = []
        self._gen_piece(frm, t, tmp)
        cells = self.cells
        king = cells[frm]
        cells[frm] = EMPTY  # a slider's ray goes on through the square the king leaves
        for m in tmp:
            to = m >> 9 & _SQ
            kind = m >> _KIND & 15
            if only >= 0 and kind != only:
                continue
            if kind == CASTLE:
                for c in self.game.castlings:
                    if c.king == frm and c.to == to:
                        break
                # The rook stands where it goes (chess960: it may have shielded the
                # king's way, or shield the king's square once it stands there); the king's
                # own square was looked at with it home (in check), unless the king stays.
                rook = cells[c.rook]
                cells[c.rook] = EMPTY
                cells[c.rook_to] = rook
                for sq in c.safe:
                    if (sq != frm or sq == c.king_to) and self.attacked(sq, them):
                        break
                else:
                    ms.append(m)
                cells[c.rook_to] = EMPTY
                cells[c.rook] = rook
            elif not self.attacked(to, them):
                ms.append(m)
        cells[frm] = king

    # ---- making moves ----------------------------------------------------------------

    def push(self, m):
        """Make a move (a legal one: push does not check)."""
        g = self.game
        cells = self.cells
        counts = self.counts
        frm = m & _SQ
        to = m >> 9 & _SQ
        kind = m >> _KIND & 15
        piece = cells[frm]
        moved = piece & 31
        us = self.us
        cap_sq = to
        if kind == EP:
            cap_sq = to - STRIDE if us == WHITE else to + STRIDE
        captured = cells[cap_sq]
        self.stack.append((m, captured, self.castling, self.ep, self.halfmove))
        if captured:
            counts[captured] -= 1
            cells[cap_sq] = EMPTY
            if captured & 31 == g.royal:
                self.kings[(us >> 6) ^ 1] = 0
        if kind != BLAST:
            cells[frm] = EMPTY
            if kind == PROMO:
                counts[piece] -= 1
                piece = us | m >> _ARG & 31
                counts[piece] += 1
            cells[to] = piece
            if piece & 31 == g.royal:
                self.kings[us >> 6] = to
                if kind == CASTLE:
                    for c in g.castlings:
                        if c.king == frm and c.to == to:
                            cells[c.rook_to] = cells[c.rook]
                            if c.rook != c.rook_to:
                                cells[c.rook] = EMPTY
                            break
        self.ep = (frm + to) >> 1 if kind == DOUBLE else 0
        if self.castling:
            cc = g.castle_cells  # (cell, the rights lost when it is left or taken on)
            for i in range(0, len(cc), 2):
                if cc[i] == frm or cc[i] == to:
                    self.castling &= ~cc[i + 1]
        self._turn_done(captured or moved == g.pawn)

    def _turn_done(self, reset_clock):
        """The end of push(): the half-move clock, the move number, the other side to move."""
        self.halfmove = 0 if reset_clock else self.halfmove + 1
        if self.us == BLACK:
            self.fullmove += 1
        self.us ^= WHITE | BLACK

    def _turn_undone(self):
        """The start of pop(): the side that moved is to move again; returns it."""
        self.us ^= WHITE | BLACK
        if self.us == BLACK:
            self.fullmove -= 1
        return self.us

    def pop(self):
        """Take back the last move pushed; returns it."""
        g = self.game
        cells = self.cells
        counts = self.counts
        m, captured, self.castling, self.ep, self.halfmove = self.stack.pop()
        us = self._turn_undone()
        frm = m & _SQ
        to = m >> 9 & _SQ
        kind = m >> _KIND & 15
        if kind != BLAST:
            piece = cells[to]
            if kind == CASTLE:
                for c in g.castlings:
                    if c.king == frm and c.to == to:
                        rook = cells[c.rook_to]
                        cells[c.rook_to] = EMPTY
                        cells[c.rook] = rook
                        break
            if kind == PROMO:
                counts[piece] -= 1
                piece = us | g.pawn
                counts[piece] += 1
            cells[to] = EMPTY
            cells[frm] = piece
            if piece & 31 == g.royal:
                self.kings[us >> 6] = frm
        cap_sq = to
        if kind == EP:
            cap_sq = to - STRIDE if us == WHITE else to + STRIDE
        if captured:
            cells[cap_sq] = captured
            counts[captured] += 1
            if captured & 31 == g.royal:
                self.kings[(us >> 6) ^ 1] = cap_sq
        return m

    def effects(self, m, buf):
        """What a move does to the board, without making it: (cell, code after) pairs
        written into buf (an array of at least 16 slots); returns the number of pairs.
        The board's tracker compares these with the squares a player has changed.  Side
        effects a game adds after the move (lippo's §11 Soldiers) are not included: the
        board asks for them once the move is made."""
        us = self.us
        cells = self.cells
        frm = m & _SQ
        to = m >> 9 & _SQ
        kind = m >> _KIND & 15
        if kind == BLAST:
            buf[0] = to
            buf[1] = EMPTY
            return 1
        piece = cells[frm]
        if kind == PROMO:
            piece = us | m >> _ARG & 31
        buf[0] = frm
        buf[1] = EMPTY
        buf[2] = to
        buf[3] = piece
        n = 2
        if kind == EP:
            buf[4] = to - STRIDE if us == WHITE else to + STRIDE
            buf[5] = EMPTY
            n = 3
        elif kind == CASTLE:
            for c in self.game.castlings:
                if c.king == frm and c.to == to:
                    buf[4] = c.rook
                    buf[5] = EMPTY
                    buf[6] = c.rook_to
                    buf[7] = cells[c.rook]
                    n = 4
        return n + self._more_effects(m, buf, n)

    def _more_effects(self, m, buf, n):
        return 0

    def trim(self):
        """Forget the oldest moves that no rule needs any more (the board keeps the
        whole game in its journal): the stack stays bounded in a long game."""
        keep = self.history_needed()
        if len(self.stack) > keep:
            del self.stack[: len(self.stack) - keep]

    def history_needed(self):
        """Plies of history the rules may look back on, plus a few for takebacks."""
        if self.game.check_rules:  # repetitions: back to the last capture or pawn move
            return 8 + min(self.halfmove, 150)
        return 8

    # ---- move strings ----------------------------------------------------------------

    def move_str(self, m):
        """A move int -> its string in notation.md (e2e4, e7e8q, f2f1, g11g12,g3)."""
        lay = self.game.layout
        s = lay.name(m & _SQ) + lay.name(m >> 9 & _SQ)
        if m >> _KIND & 15 == PROMO:
            s += self.game.letter[m >> _ARG & 31].lower()
        return s + self._move_suffix(m)

    def _move_suffix(self, m):
        return ""

    def _squares(self, text):
        # A move string's squares (its from and to first); MoveError if it names no move.
        try:
            sqs, rest = self.game.layout.parse_squares(text)
        except ValueError as e:
            raise MoveError("%s: %s" % (text, e))
        if len(sqs) < 2:
            raise MoveError("%r is not a move: it needs a from and a to square" % text)
        return sqs

    def parse_move(self, text):
        """A move string -> the legal move it names; MoveError if malformed or illegal."""
        sqs = self._squares(text)
        # A move's string begins with its from square: only that piece's legal moves are
        # made (moves_from: the turn's that start there, tests/test_fast_paths.py), and
        # where the string is this class's (from, to, then the rest) only those to its
        # second square are given one.
        to = sqs[1] if type(self).move_str is Position.move_str else -1
        for m in self.moves_from(sqs[0]):
            if (to < 0 or m >> 9 & _SQ == to) and self.move_str(m) == text:
                return m
        raise MoveError("illegal move %s" % text)

    def replay_move(self, text):
        """A move read back from the board's own journal -> the move int.  It was legal
        when it was journaled (every record carries its CRC), so it is looked for among
        its piece's moves by their powers alone: a long game's power-up does not make every
        turn's legal moves again.  MoveError if the piece has no such move."""
        sqs = self._squares(text)
        ms = self._powers_from(sqs[0])
        if ms is None:
            return self.parse_move(text)
        to = sqs[1]  # (a string is made only for the moves to its square: 9 ms a move on the chip, else)
        for m in ms:
            if m >> 9 & _SQ == to and self.move_str(m) == text:
                return m
        raise MoveError("illegal move %s" % text)

    def _powers_from(self, sq):
        # The moves of the side to move's piece on sq by its powers: every legal move of it,
        # no two with one string (tests/test_fast_paths.py).  None where a game's legal
        # moves are not its pieces' moves filtered (it parses among the legal moves).
        ms = []
        c = self.cells[sq]
        if c & self.us:
            self._gen_piece(sq, c & 31, ms)
        return ms

    def push_str(self, text):
        """Parse and make a move; returns the move int."""
        m = self.parse_move(text)
        self.push(m)
        return m

    # ---- counting --------------------------------------------------------------------

    def perft(self, depth):
        """Leaf nodes of the legal move tree `depth` plies deep."""
        if depth == 0:
            return 1
        ms = self.legal_moves()
        if depth == 1:
            return len(ms)
        n = 0
        for m in ms:
            self.push(m)
            n += self.perft(depth - 1)
            self.pop()
        return n

    def outcome(self, claim=False):
        """None while the game goes on, else an Outcome."""
        if self.has_legal_move():
            return None
        return Outcome("no-moves", None)


class Outcome:
    """How a game ended: reason, winner (WHITE, BLACK or None for a draw), and points."""

    def __init__(self, reason, winner, points=None):
        self.reason = reason
        self.winner = winner
        self.points = points

    def result(self):
        """'1-0', '0-1' or '1/2-1/2'."""
        if self.winner == WHITE:
            return "1-0"
        if self.winner == BLACK:
            return "0-1"
        return "1/2-1/2"

    def __repr__(self):
        return "Outcome(%s, %s)" % (self.reason, self.result())
