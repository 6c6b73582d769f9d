"""The rules core: one engine for every game of the board, on CPython and MicroPython.

    from firmware.rules import new_position
    pos = new_position("lippo")              # or ("chess", fen)
    for m in pos.legal_moves(): print(pos.move_str(m))

Game modules are imported only when asked for, so the board loads the active game only.
"""

from .position import FenError, MoveError

__all__ = ["GAMES", "FenError", "MoveError", "fen_shape_ok", "forget_games", "game_module", "new_position"]

GAMES = ("chess", "lippo", "checkers12", "courier", "gardner", "hundred", "grosschess", "chess-t1", "chess960")
RANKS = {"chess": 8, "lippo": 12, "checkers12": 12, "courier": 8, "gardner": 5, "hundred": 10, "grosschess": 10,
         "chess-t1": 8, "chess960": 8}


def fen_shape_ok(gid, fen):
    """A cheap first look at a FEN, before the game's tables are loaded: enough fields and
    the game's number of ranks.  (The game's own parser checks everything.)"""
    fields = fen.split()
    return len(fields) >= 4 and fields[0].count("/") + 1 == RANKS.get(gid, -1)


def game_module(gid):
    """The module of a game id; ValueError for an unknown id."""
    if gid == "chess":
        from .games import chess as mod
    elif gid == "lippo":
        from .games import lippo as mod
    elif gid == "checkers12":
        from .games import checkers12 as mod
    elif gid == "courier":
        from .games import courier as mod
    elif gid == "gardner":
        from .games import gardner as mod
    elif gid == "hundred":
        from .games import hundred as mod
    elif gid == "grosschess":
        from .games import grosschess as mod
    elif gid == "chess-t1":
        from .games import chess_t1 as mod
    elif gid == "chess960":
        from .games import chess960 as mod
    else:
        raise ValueError("unknown game %r (games: %s)" % (gid, ", ".join(GAMES)))
    return mod


def forget_games(keep):
    """Drop the modules of every game but `keep`, so the board holds one game's tables."""
    import sys
    from . import games

    for gid in GAMES:
        if gid != keep:
            name = gid.replace("-", "_")
            sys.modules.pop(__name__ + ".games." + name, None)
            if hasattr(games, name):
                delattr(games, name)


def new_position(gid, fen=None):
    """A position of the game (its start position unless fen is given); FenError if bad."""
    return game_module(gid).new(fen)
