"""The fronts to chess programs: our engine, or the board, as a UCI or CECP (XBoard)
engine on a program's standard input and output (issue #24).

    from host.apps import uci_run, cecp_run, EnginePlayer, Out
    uci_run(lines_in(sys.stdin), Out(sys.stdout))

A Player answers `go` (player.py: EnginePlayer is our engine; the board's player is
host/commands/boardengine.py's); Coords (coords.py) writes squares as chess programs do.
chesslink.py is the board as a Millennium ChessLink board (the protocol's board side, pure:
bytes in, bytes out; host/commands/emulate.py puts it on a pseudo-terminal).
"""

from __future__ import annotations

from .chesslink import ChessLink, Pieces, lit_squares, status_of
from .coords import Coords
from .player import VERSION, EnginePlayer, Game, Out, Player, lines_in
from .cecp import run as cecp_run
from .uci import run as uci_run

__all__ = ["VERSION", "ChessLink", "Coords", "EnginePlayer", "Game", "Out", "Pieces", "Player", "cecp_run", "lines_in",
           "lit_squares", "status_of", "uci_run"]
