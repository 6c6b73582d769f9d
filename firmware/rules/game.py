"""A game as data: its board, its pieces as move tables, its pawns, castlings and promotions.

A game module (chess.py, lippo.py, ...) builds one Game from declarative piece
descriptions; the generic generator in position.py walks the resulting tables.  Each
piece type gets:

  jumps   offsets of plain leaps: what stands between is ignored
  bent    (offset, via, via2) two-stage leaps: the turning square(s) frm+via must lie on
          the board, what stands on them is ignored (lippo.md §4.4, A1, A2)
  slides  ray directions, blocked by the first piece
  blasts  offsets of captures made without moving (lippo's Fougasse, lippo.md §5.13)
  pawn    forward-only men: push, double step, diagonal capture, en passant, promotion

The attack tables (which offsets a piece of each type attacks from) are derived from
the same tables, so a rule is written once.
"""

from array import array

from .board import Layout, delta, images

# Where a game begins on the board after an opening the board plays itself, by game id
# (courier.md §4: Courier's four traditional moves a side; Fairy-Stockfish's start).
AFTER_OPENING = {"courier": "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1"}


# Move descriptions used by the game modules.  Vectors are (files, ranks).
def leap(vectors):
    """Plain leaps to these offsets."""
    return ("leap", tuple(vectors))


def leap_images(*pairs):
    """Plain leaps to every sign/swap image of each (a, b)."""
    out = []
    for a, b in pairs:
        out += images(a, b)
    return leap(out)


def slide(dirs):
    """Rays along these directions, stopping at the first piece."""
    return ("slide", tuple(dirs))


def two_stage(first, second, may_stop):
    """A jump to each turning offset in first, then one of second(turn) (or a stop)."""
    routes = []
    for t in first:
        if may_stop:
            routes.append((t, t))
        for e in second(t):
            routes.append(((t[0] + e[0], t[1] + e[1]), t))
    return ("bent", tuple(routes))


def blast(vectors):
    """Captures an enemy on these offsets without moving."""
    return ("blast", tuple(vectors))


PAWN = ("pawn", ())


def _tables(moves):
    """A piece's move descriptions -> (jumps, bent routes, slides, blasts, is_pawn)."""
    jumps = []
    bent = {}
    slides = []
    blasts = []
    is_pawn = False
    for kind, data in moves:
        if kind == "leap":
            for v in data:
                d = delta(v[0], v[1])
                if d not in jumps:
                    jumps.append(d)
        elif kind == "slide":
            slides += [delta(v[0], v[1]) for v in data]
        elif kind == "bent":
            for v, via in data:
                d = delta(v[0], v[1])
                vias = bent.setdefault(d, [])
                w = delta(via[0], via[1])
                if w not in vias:
                    vias.append(w)
        elif kind == "blast":
            blasts += [delta(v[0], v[1]) for v in data]
        elif kind == "pawn":
            is_pawn = True
    routes = []
    for d in sorted(bent):
        vias = bent[d]
        if d in jumps or d in vias:
            # A straight route: the destination on the board means the turn is too.
            if d not in jumps:
                jumps.append(d)
            continue
        if len(vias) > 2:
            raise ValueError("more than two turning squares for one offset")
        routes += [d, vias[0], vias[-1]]
    return _packed(jumps), routes, _packed(slides), _packed(blasts), is_pawn


class Castling:
    """One castling: the right's bit, FEN letter, and the squares it uses."""

    def __init__(self, layout, white, bit, letter, king, king_to, rook, rook_to, empty, safe):
        c = layout.cell
        self.white = white
        self.bit = bit
        self.letter = letter
        self.king = c(king)
        self.king_to = c(king_to)
        self.to = self.king_to  # the move's to cell (chess960's castling: the rook's, king takes rook)
        self.rook = c(rook)
        self.rook_to = c(rook_to)
        self.empty = tuple(c(s) for s in empty)
        self.safe = tuple(c(s) for s in safe)  # squares the king may not be attacked on


class Game:
    """The tables of one game id: layout, pieces, pawns, castlings, start position.

    pieces: (letter, name, points, moves) per type, types numbered from 1 in that order.
    Per type t: jumps[t], slides[t], blasts[t] are tuples of offsets; the two-stage
    routes of type t are bent[bent_at[t]:bent_at[t + 1]], (offset, via, via2) triples,
    in one flat array to keep the tables small on the board.
    """

    def __init__(self, gid, files, ranks, letters, pieces, start, royal=None):
        self.id = gid
        self.layout = Layout(files, ranks, letters)
        self.start = start
        self.letter = "?" + "".join(p[0] for p in pieces)
        self.names = ("",) + tuple(p[1] for p in pieces)
        self.points = bytes([0] + [min(p[2], 255) for p in pieces])
        jumps = [()]
        slides = [()]
        blasts = [()]
        bent = []
        bent_at = [0, 0]
        self.pawn = 0
        for i, p in enumerate(pieces):
            j, b, s, x, is_pawn = _tables(p[3])
            jumps.append(j)
            slides.append(s)
            blasts.append(x)
            bent += b
            bent_at.append(len(bent))
            if is_pawn:
                self.pawn = i + 1
        self.jumps = tuple(jumps)
        self.slides = tuple(slides)
        self.blasts = tuple(blasts)
        self.bent = _packed(bent)  # offsets within PAD: bytes
        self.bent_at = array("H", bent_at)
        self.royal = self.type_of(royal) if royal else 0
        self.castlings = ()
        self.castle_rook = 0  # the type that castles with the royal piece
        self.castle_cells = ()  # (cell, castling bits) pairs: a right dies when its cell is left
        self.check_rules = False  # True: a move may not leave the own royal piece attacked
        self.double_ranks = (1, 6)  # 0-based rank of each side's double step (white, black)
        self.ep = True
        self.promo_types = ()  # what a pawn may become (Position.promotions may refine)
        self.promo_optional = False  # True: a pawn may also stay a pawn on the last rank
        self._attack_tables()

    def type_of(self, letter):
        """Upper-case FEN letter -> piece type; ValueError if the game has no such piece."""
        t = self.letter.find(letter)
        if t <= 0:
            raise ValueError("no piece %r in %s" % (letter, self.id))
        return t

    def set_castlings(self, specs):
        """specs: (white, letter, king, king_to, rook, rook_to, empty, safe) per castling,
        its right bit 1 << its index; None: no castling with that bit."""
        out = []
        lost = {}
        for i, s in enumerate(specs):
            if s is None:
                continue
            c = Castling(self.layout, s[0], 1 << i, *s[1:])
            out.append(c)
            # A right dies when its king or rook leaves its square or is taken there.
            lost[c.king] = lost.get(c.king, 0) | c.bit
            lost[c.rook] = lost.get(c.rook, 0) | c.bit
        self.castlings = tuple(out)
        flat = []
        for sq in sorted(lost):
            flat += [sq, lost[sq]]
        self.castle_cells = _packed(flat)

    def _attack_tables(self):
        # Reverse tables: a piece of type t at sq - d attacks sq when d is in its tables.
        # att_bent is flat: (index of the route in bent, type mask) pairs, one a route.
        jumps = {}
        bent = {}
        slides = {}
        for t in range(1, len(self.letter)):
            bit = 1 << t
            for d in tuple(self.jumps[t]) + tuple(self.blasts[t]):
                jumps[d] = jumps.get(d, 0) | bit
            b = self.bent
            for i in range(self.bent_at[t], self.bent_at[t + 1], 3):
                r = (b[i], b[i + 1], b[i + 2])
                at, mask = bent.get(r, (i, 0))
                bent[r] = (at, mask | bit)
            for d in self.slides[t]:
                slides[d] = slides.get(d, 0) | bit
        # Flat (offset, type mask) pairs: a tuple of pairs took four times the RAM.
        flat = []
        for d in sorted(jumps):
            flat += [d, jumps[d]]
        self.att_jumps = _packed(flat)
        flat = []
        for r in sorted(bent):
            flat += bent[r]
        self.att_bent = _packed(flat)
        self.att_slides = tuple((d, slides[d]) for d in sorted(slides))


def _packed(values):
    """An array of ints, of the smallest items they all fit (8, 16 or 32 bits: an offset
    within PAD is a byte); an empty tuple (no RAM) if there are none."""
    if not values:
        return ()
    lo = min(values)
    hi = max(values)
    if -128 <= lo and hi < 128:
        return array("b", values)
    if -32768 <= lo and hi < 32768:
        return array("h", values)
    return array("i", values)
