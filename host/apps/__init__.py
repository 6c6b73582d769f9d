"""The fronts to chess programs: our engine, or the board, as a UCI or CECP (XBoard)
engine on a program's standard input and output (issue #24).

    from host.apps import uci_run, cecp_run, EnginePlayer, Out
    uci_run(lines_in(sys.stdin), Out(sys.stdout))

A Player answers `go` (player.py: EnginePlayer is our engine; the board's player is
host/commands/boardengine.py's); Coords (coords.py) writes squares as chess programs do.
"""

from __future__ import annotations

from .coords import Coords
from .player import VERSION, EnginePlayer, Game, Out, Player, lines_in
from .cecp import run as cecp_run
from .uci import run as uci_run

__all__ = ["VERSION", "Coords", "EnginePlayer", "Game", "Out", "Player", "cecp_run", "lines_in", "uci_run"]
