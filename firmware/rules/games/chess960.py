"""Chess960 (Fischer random chess, FIDE Laws Guidelines II): chess from one of 960 start
positions, numbered 0-959 as Scharnagl numbers them (518 is the usual one).  Castling puts
the king and the rook on the usual squares (g and f, or c and d) wherever they started,
with every square between them and their destinations free (but for the two of them) and
the king's way (its square, those it crosses, its destination) not attacked.

Moves: castling is the king taking its own rook (`e1h1`, as UCI_Chess960 writes it): the
king's destination alone would be ambiguous (a king on f1 steps to g1 and castles there).
FEN: the castling field is read in X-FEN (`KQkq`: the outermost rook on that side) and
Shredder-FEN (the rook's file, `HAha`), mixed as X-FEN allows; fen() writes X-FEN as
python-chess's fen() does, fen(shredder=True) Shredder-FEN.

The castlings differ between start positions, so a position carries a Game of its own:
GAME's tables with the castlings of its FEN's rights (rights are only ever lost).
"""

from ..board import BLACK, EMPTY, WHITE, file_of, index
from ..game import Game
from ..position import CASTLE, FenError, Position
from . import chess


class _Castlings(Game):
    """base's tables (a chess Game) with these castlings (set_castlings' specs)."""

    def __init__(self, base, specs):
        for k, v in base.__dict__.items():
            setattr(self, k, v)
        self.id = "chess960"
        self.set_castlings(specs)
        for c in self.castlings:
            c.to = c.rook  # the king takes its own rook


START = chess.START  # number 518

GAME = _Castlings(chess.GAME, ())  # chess's own tables: the board holds them once
_ROOK = GAME.castle_rook
_KING = GAME.royal
_FILES = "abcdefgh"


def start_fen(n):
    """The FEN of start position n (0-959, Scharnagl's numbering); ValueError otherwise."""
    if not 0 <= n <= 959:
        raise ValueError("a Chess960 start is numbered 0 to 959, not %d" % n)
    row = [""] * 8
    n, b = divmod(n, 4)
    row[2 * b + 1] = "B"  # the light-squared bishop: b, d, f or h
    n, b = divmod(n, 4)
    row[2 * b] = "B"
    n, q = divmod(n, 6)
    _put(row, q, "Q")
    # The knights on two of the five squares left: pair n of (0,1), (0,2), ... (3,4).
    for i in range(4):
        if n < 4 - i:
            _put(row, i + 1 + n, "N")  # the later one first: the earlier's count stands
            _put(row, i, "N")
            break
        n -= 4 - i
    for man in "RKR":
        _put(row, 0, man)
    back = "".join(row)
    return "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w KQkq - 0 1" % (back.lower(), back)


def _put(row, k, man):
    # The man on the k-th empty square of the row.
    for f in range(8):
        if not row[f]:
            if k == 0:
                row[f] = man
                return
            k -= 1


def _spec(white, short, king, rook):
    # A castling of notation's tuple (game.set_castlings) from the king's and rook's files.
    rank = "1" if white else "8"
    king_to = 6 if short else 2
    rook_to = 5 if short else 3
    lo = min(king, rook, king_to, rook_to)
    hi = max(king, rook, king_to, rook_to)
    empty = tuple(_FILES[f] + rank for f in range(lo, hi + 1) if f != king and f != rook)
    step = 1 if king_to >= king else -1
    safe = tuple(_FILES[f] + rank for f in range(king, king_to + step, step))
    letter = "K" if short else "Q"
    return (white, letter if white else letter.lower(), _FILES[king] + rank, _FILES[king_to] + rank,
            _FILES[rook] + rank, _FILES[rook_to] + rank, empty, safe)


_games = {}  # castling specs -> their game: one start's positions share one


def _game_for(specs):
    key = tuple(specs)
    if key.count(None) == len(key):  # no castling right at all
        return GAME
    g = _games.get(key)
    if g is None:
        if len(_games) >= 8:
            _games.clear()
        g = _games[key] = _Castlings(GAME, specs)
    return g


class Chess960Position(chess.ChessPosition):
    """A Chess960 position: chess, with castling as the start's king and rooks stood."""

    def _parse_castling(self, field, cells):
        specs = []
        if field != "-":
            asked = ([], [])  # the rook files each side's letters name
            seen = ""
            for ch in field:
                up = ch.upper()
                side = 0 if ch == up else 1
                if up not in "KQABCDEFGH" or ch in seen:
                    raise FenError("bad castling field %r" % field)
                seen += ch
                king, rooks = _home(cells, side)
                f = -1
                if up == "K":
                    f = rooks[-1] if rooks and rooks[-1] > king else -1
                elif up == "Q":
                    f = rooks[0] if rooks and rooks[0] < king else -1
                elif "ABCDEFGH".find(up) in rooks:
                    f = "ABCDEFGH".find(up)
                if f >= 0:
                    asked[side].append(f)
            # One castling a side of the king, with the outermost rook named; its right's
            # bit by the side (K Q k q: 1 2 4 8), so a FEN read back keeps the same bits.
            specs = [None, None, None, None]
            for side in (0, 1):
                king, rooks = _home(cells, side)
                fs = asked[side]
                if king >= 0 and fs:
                    if max(fs) > king:
                        specs[2 * side] = _spec(side == 0, True, king, max(fs))
                    if min(fs) < king:
                        specs[2 * side + 1] = _spec(side == 0, False, king, min(fs))
        g = self._next_game = _game_for(specs)
        rights = 0
        for c in g.castlings:
            rights |= c.bit
        return rights

    def _set_extra(self, extra):
        self.game = self._next_game
        del self._next_game
        chess.ChessPosition._set_extra(self, extra)

    def fen(self, shredder=False):
        """The position as FEN: castling rights in X-FEN (K/Q unless another rook stands
        further out on that side: then the rook's file), or Shredder-FEN (files only)."""
        parts = chess.ChessPosition.fen(self).split(" ")
        parts[2] = self.castling_field(shredder)
        return " ".join(parts)

    def castling_field(self, shredder=False):
        """The FEN castling field of the rights held: X-FEN, or Shredder-FEN; `-` if none."""
        out = ""
        for c in self.game.castlings:
            if self.castling & c.bit:
                f = file_of(c.rook)
                ch = _FILES[f]
                if not shredder:
                    king, rooks = _home(self.cells, 0 if c.white else 1)
                    outer = rooks[-1] if c.letter in "Kk" else rooks[0]
                    if outer == f:
                        ch = "k" if c.letter in "Kk" else "q"
                out += ch.upper() if c.white else ch
        return out or "-"

    # Castling moves the king and the rook by their castling's squares, which may be each
    # other's or their own: the king's walk is made as a plain move (clocks and turn as
    # push has them) with the rook taken up before and put down after; where the king
    # stays, the rook's walk is.  Either way the side's castling rights go.

    def _castling_of(self, m):
        frm = m & 511
        to = m >> 9 & 511
        for c in self.game.castlings:
            if c.king == frm and c.to == to:
                return c

    def push(self, m):
        if m >> 19 & 15 != CASTLE:
            Position.push(self, m)
            return
        c = self._castling_of(m)
        cells = self.cells
        if c.king != c.king_to:
            rook = cells[c.rook]
            cells[c.rook] = EMPTY
            Position.push(self, c.king | c.king_to << 9)
            cells[c.rook_to] = rook
        else:  # the king stays: the rook's walk is the move (the rook always moves then)
            Position.push(self, c.rook | c.rook_to << 9)
        for d in self.game.castlings:
            if d.white == c.white:
                self.castling &= ~d.bit
        self.stack[-1] = (m,) + self.stack[-1][1:]

    def pop(self):
        m = self.stack[-1][0]
        if m >> 19 & 15 != CASTLE:
            return Position.pop(self)
        c = self._castling_of(m)
        cells = self.cells
        if c.king != c.king_to:
            rook = cells[c.rook_to]
            cells[c.rook_to] = EMPTY
            self.stack[-1] = (c.king | c.king_to << 9,) + self.stack[-1][1:]
            Position.pop(self)
            cells[c.rook] = rook
        else:
            self.stack[-1] = (c.rook | c.rook_to << 9,) + self.stack[-1][1:]
            Position.pop(self)
        return m

    def effects(self, m, buf):
        """As Position.effects; a castling's squares that change only (the king or the
        rook may stay, or stand on each other's)."""
        if m >> 19 & 15 != CASTLE:
            return Position.effects(self, m, buf)
        c = self._castling_of(m)
        cells = self.cells
        n = 0
        for sq in (c.king, c.rook):
            if sq != c.king_to and sq != c.rook_to:
                buf[2 * n] = sq
                buf[2 * n + 1] = EMPTY
                n += 1
        for sq, man in ((c.king_to, cells[c.king]), (c.rook_to, cells[c.rook])):
            if cells[sq] != man:
                buf[2 * n] = sq
                buf[2 * n + 1] = man
                n += 1
        return n


def _home(cells, side):
    # (file of the side's king on its back rank or -1, files of its rooks there, a to h).
    colour = BLACK if side else WHITE
    rank = 7 if side else 0
    king = -1
    rooks = []
    for f in range(8):
        x = cells[index(f, rank)]
        if x == colour | _KING:
            king = f
        elif x == colour | _ROOK:
            rooks.append(f)
    return king, rooks


POSITION = Chess960Position


def new(fen=None):
    return Chess960Position(GAME, fen)
