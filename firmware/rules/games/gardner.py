"""Gardner's minichess (minichess.md): chess on 5 x 5, no double step, no en passant, no
castling; promotion to Q, R, B or N; FIDE's end and draw rules."""

from .chess import PIECES, ChessPosition, make_game

START = "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1"

GAME = make_game("gardner", 5, 5, "abcde", PIECES, START, castlings=())
GAME.double_ranks = (-1, -1)  # minichess.md §3.1: no double step
GAME.ep = False


POSITION = ChessPosition  # the class a player's Kriegspiel view derives from


def new(fen=None):
    return ChessPosition(GAME, fen)
