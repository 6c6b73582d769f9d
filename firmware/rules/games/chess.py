"""Orthodox chess (FIDE Laws): castling, en passant, promotion, check, and every draw rule."""

from ..board import WHITE, BLACK, ALL8, ORTHO, DIAG, rank_of, file_of
from ..game import Game, PAWN, leap, leap_images, slide
from ..position import Position, Outcome, FenError, EP, NORMAL, DOUBLE, PROMO, kind_of

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

PIECES = (
    ("P", "pawn", 1, (PAWN,)),
    ("N", "knight", 3, (leap_images((1, 2)),)),
    ("B", "bishop", 3, (slide(DIAG),)),
    ("R", "rook", 5, (slide(ORTHO),)),
    ("Q", "queen", 9, (slide(ALL8),)),
    ("K", "king", 0, (leap(ALL8),)),
)

CASTLINGS = (
    (True, "K", "e1", "g1", "h1", "f1", ("f1", "g1"), ("e1", "f1", "g1")),
    (True, "Q", "e1", "c1", "a1", "d1", ("b1", "c1", "d1"), ("e1", "d1", "c1")),
    (False, "k", "e8", "g8", "h8", "f8", ("f8", "g8"), ("e8", "f8", "g8")),
    (False, "q", "e8", "c8", "a8", "d8", ("b8", "c8", "d8"), ("e8", "d8", "c8")),
)


def make_game(gid="chess", files=8, ranks=8, letters="abcdefgh", pieces=PIECES, start=START,
              castlings=CASTLINGS, promo="QRBN"):
    g = Game(gid, files, ranks, letters, pieces, start, royal="K")
    g.set_castlings(castlings)
    g.castle_rook = g.type_of("R") if castlings else 0
    g.check_rules = True
    g.double_ranks = (1, ranks - 2)
    g.promo_types = tuple(g.type_of(c) for c in promo)
    return g


class ChessPosition(Position):
    """A chess position; outcome() applies the FIDE end-of-game and draw rules."""

    LIGHT_KINDS = (1 << NORMAL) | (1 << DOUBLE) | (1 << PROMO)  # attacked() reads the cells

    def _check_setup(self, cells, counts, kings, us):
        g = self.game
        for side, colour in ((0, WHITE), (1, BLACK)):
            if counts[colour | g.royal] != 1:
                raise FenError("each side needs exactly one king")
        pawn = g.pawn
        for sq in g.layout.squares:
            if cells[sq] & 31 == pawn and not self._pawn_rank_ok(sq, cells[sq] & (WHITE | BLACK)):
                raise FenError("a pawn on a rank it cannot stand on")
        # The side not to move may not be in check: its king could be taken.
        saved = self.cells
        self.cells = cells
        try:
            them = us ^ (WHITE | BLACK)
            if self.attacked(kings[them >> 6], us):
                raise FenError("the side not to move is in check")
        finally:
            self.cells = saved

    def _pawn_rank_ok(self, sq, colour):
        return rank_of(sq) not in (0, self.game.layout.ranks - 1)

    def is_insufficient_material(self):
        """True if neither side can mate by any series of legal moves (FIDE 5.2.2's usual cases)."""
        g = self.game
        minors = 0
        bishop_colours = 0
        for sq in g.layout.squares:
            c = self.cells[sq]
            t = c & 31
            if not c or t == g.royal:
                continue
            letter = g.letter[t]
            if letter == "N":
                minors += 1
            elif letter == "B":
                minors += 1
                bishop_colours |= 1 << ((file_of(sq) + rank_of(sq)) & 1)
            else:
                return False
        return minors <= 1 or (bishop_colours != 3 and minors == _count(self, "B"))

    def cannot_mate(self, side):
        """True if side (WHITE or BLACK) cannot checkmate by any series of legal moves,
        whatever the other side does (FIDE 6.9: a flag fallen against such a side is a
        draw); the usual cases, as python-chess's has_insufficient_material has them."""
        g = self.game
        own = {}
        theirs = {}
        colours = 0  # square colours of every bishop on the board
        for sq in g.layout.squares:
            c = self.cells[sq]
            if not c or c & 31 == g.royal:
                continue
            letter = g.letter[c & 31]
            men = own if c & side else theirs
            men[letter] = men.get(letter, 0) + 1
            if letter == "B":
                colours |= 1 << ((file_of(sq) + rank_of(sq)) & 1)
        if own.get("P") or own.get("R") or own.get("Q"):
            return False
        if own.get("N"):
            # one knight alone, and the other side has no man to block its own king with
            return own["N"] == 1 and not own.get("B") and not any(theirs.get(x) for x in "PNBR")
        if own.get("B"):
            # bishops all on one colour, and no pawn or knight anywhere to block with
            return colours != 3 and not theirs.get("P") and not theirs.get("N")
        return True

    def _key(self):
        # The FIDE identity of a position: pieces, side to move, castling rights, and an
        # en-passant square only when the capture is really possible.
        ep = 0
        if self.ep:
            for m in self.legal_moves():
                if kind_of(m) == EP:
                    ep = self.ep
                    break
        return bytes(self.cells) + bytes((self.us, self.castling, ep & 255, ep >> 8))

    def repetition_plies(self):
        """How far back the current position may have stood before, in plies: to the last
        capture or pawn move (no position before one can come back), as far as the history
        holds."""
        return min(self.halfmove, len(self.stack))

    def repetitions(self):
        """How many times the current position has stood on the board (this one included)."""
        key = self._key()
        n = 1
        undone = []
        for i in range(self.repetition_plies()):
            undone.append(self.pop())
            if i & 1 and self._key() == key:
                n += 1
        while undone:
            self.push(undone.pop())
        return n

    def outcome(self, claim=False):
        """The end of the game, if any: mate, stalemate, dead position, 75 moves, fivefold;
        with claim=True also the 50-move rule and threefold repetition."""
        if not self.has_legal_move():
            if self.is_check():
                return Outcome("checkmate", self.us ^ (WHITE | BLACK))
            return Outcome("stalemate", None)
        if self.is_insufficient_material():
            return Outcome("insufficient-material", None)
        if self.halfmove >= 150:
            return Outcome("seventyfive-moves", None)
        reps = self.repetitions() if self.repetition_plies() >= 8 else 1
        if reps >= 5:
            return Outcome("fivefold-repetition", None)
        if claim:
            if self.halfmove >= 100:
                return Outcome("fifty-moves", None)
            if reps >= 3:
                return Outcome("threefold-repetition", None)
        return None


def _count(pos, letter):
    t = pos.game.type_of(letter)
    return pos.counts[WHITE | t] + pos.counts[BLACK | t]


GAME = make_game()


POSITION = ChessPosition  # the class a player's Kriegspiel view derives from


def new(fen=None):
    return ChessPosition(GAME, fen)
