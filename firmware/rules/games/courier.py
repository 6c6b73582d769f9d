"""Courier chess (courier.md) on 12 x 8, with the seed's rules by default: the Schleich
moves like the Mann (a king that is not royal), pawns may double-step, no en passant, no
castling, promotion to a ferz only, stalemate wins for the side that gives it.

The historical switches (courier.md §9) build another Game: make_game(schleich="wazir",
double_step=False) gives Fairy-Stockfish's `courier`.

The start position is the initial array (notation.md).  The four traditional moves of each
side (a2a4 g2g4 m2m4 g1g3, then Black's mirror) are played by the board when a game
begins (courier.md §4): play starts from AFTER_OPENING, Fairy-Stockfish's start position.
"""

from ..board import ALL8, DIAG, ORTHO, WHITE, BLACK
from ..game import AFTER_OPENING as OPENINGS, PAWN, leap, leap_images, slide
from ..position import Outcome
from .chess import ChessPosition, make_game

START = "rnebmkfwbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w - - 0 1"
AFTER_OPENING = OPENINGS["courier"]


def pieces(schleich="man"):
    return (
        ("P", "pawn", 1, (PAWN,)),
        ("N", "knight", 3, (leap_images((1, 2)),)),
        ("B", "courier", 3, (slide(DIAG),)),
        ("R", "rook", 5, (slide(ORTHO),)),
        ("F", "ferz", 1, (leap(DIAG),)),
        ("K", "king", 0, (leap(ALL8),)),
        ("M", "mann", 3, (leap(ALL8),)),
        ("W", "schleich", 2, (leap(ALL8 if schleich == "man" else ORTHO),)),
        ("E", "alfil", 1, (leap_images((2, 2)),)),
    )


def build(gid="courier", schleich="man", double_step=True):
    g = make_game(gid, 12, 8, "abcdefghiklm", pieces(schleich), START, castlings=(), promo="F")  # §5
    g.ep = False
    if not double_step:
        g.double_ranks = (-1, -1)
    return g


GAME = build()


class CourierPosition(ChessPosition):
    """courier.md §6: stalemate wins for the side that gives it; draws by the 50-move rule,
    threefold repetition and bare kings, all automatic."""

    def outcome(self, claim=False):
        them = self.us ^ (WHITE | BLACK)
        if not self.has_legal_move():
            return Outcome("checkmate" if self.is_check() else "stalemate", them)
        men = 0
        for sq in self.game.layout.squares:
            c = self.cells[sq]
            if c and c & 31 != self.game.royal:
                men += 1
                break
        if not men:
            return Outcome("insufficient-material", None)
        if self.halfmove >= 100:
            return Outcome("fifty-moves", None)
        if self.repetition_plies() >= 8 and self.repetitions() >= 3:
            return Outcome("threefold-repetition", None)
        return None


POSITION = CourierPosition  # the class a player's Kriegspiel view derives from


def new(fen=None):
    return CourierPosition(GAME, fen)
