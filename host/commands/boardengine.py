"""`eboard board-engine`: the board as a player in a chess program (issue #24).

The program's moves are lit on the board (`move`, docs/protocol.md) for the person to
make; the person's move made on the board goes back as the engine's (`bestmove` in UCI,
`move` in CECP).  Everything passes through play's Session and its Bridge, so every move
the board accepts is in the archive, as in `eboard play`.  On a virtual board (--sim,
--pico) the hands make the lit moves, and the person's moves are our engine's at
--level, made by the hands too.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from firmware.rules import MoveError, new_position
from host.apps import EnginePlayer, Game, Out, Player, cecp_run, lines_in, uci_run
from host.engine import Info, Limits, best_move, level
from host.link import BoardError, BridgeTimeout, LinkError
from host.session import HomeError, PlayError, Session, open_home

POLL_S = 0.05


class BoardPlayer(Player):
    """The person at the board: position() makes the board show the program's game (its
    last move lit), think() waits for the person's move on the board."""

    name = "eboard board"

    def __init__(self, session: Session, person_level: int | None = None) -> None:
        self.session = session
        self.bridge = session.bridge
        self.person_level = person_level  # virtual hands: our engine plays the person's moves
        self.stopped = False
        self.told = ""  # the side last told to the board as the program's (`computer`)

    def _state(self) -> tuple[str, str, int, str]:
        st = self.bridge.state()
        return st.game, st.state, st.ply, st.fen

    def _hands_setup(self) -> None:
        if self.session.sim:
            self.session.hand("sim setup")
            self.session.hand("sim wait 100")

    def position(self, game: Game) -> str | None:
        try:
            return self._position(game)
        except (BoardError, LinkError, BridgeTimeout, PlayError, MoveError) as e:
            return f"the board: {e}"

    def _position(self, game: Game) -> str | None:
        g, state, _, fen = self._state()
        if state == "setup" and self.session.sim:  # the virtual hands set the men up first
            self._hands_setup()
            g, state, _, fen = self._state()
        target = game.fen()
        if g == game.game and fen == target:
            if state == "setup":
                self._hands_setup()
            return None
        if game.moves and g == game.game and state != "over":
            before = new_position(game.game, game.root) if game.root else new_position(game.game)
            for m in game.moves[:-1]:
                before.push_str(m)
            if before.fen() == fen:  # the program's new move: lit, to be made
                mover = "white" if fen.split()[1] == "w" else "black"
                self._tell(mover)
                self.bridge.request("move " + game.moves[-1])
                if self.session.sim:
                    self.session.make_move(before, before.parse_move(game.moves[-1]))
                return None
        # Another game or position: the board starts it (a new game of the record).
        self.bridge.request(f"new {game.game} {target}")
        self._hands_setup()
        said = "" if (g == game.game and fen.split()[0] == new_position(g).fen().split()[0] and not game.moves
                      and game.root is None) else (
            f"the board's position ({g} {fen}) was not the program's: the board starts the program's "
            "position as a new game; set the men as it shows")
        return said or None

    def _tell(self, side: str) -> None:
        if self.told != side:
            self.bridge.request("computer " + side)
            self.told = side

    def think(self, game: Game, limits: Limits, on_info: Callable[[Info], None]) -> str | None:
        try:
            return self._think(game)
        except (BoardError, LinkError, BridgeTimeout, PlayError, MoveError) as e:
            raise ValueError(f"the board: {e}") from None

    def _think(self, game: Game) -> str | None:
        self.stopped = False
        pos = game.pos
        if pos.outcome() is not None:
            return None
        mine = "white" if pos.fen().split()[1] == "w" else "black"
        if self._state()[3] != pos.fen():  # the board shows another position: the program's first
            self._position(game)
        self._tell("black" if mine == "white" else "white")
        start = pos.fen()
        if self.session.sim:
            lvl = level(self.person_level) if self.person_level else None
            reply = best_move(pos, Limits(movetime_ms=200), lvl)
            self.session.make_move(type(pos)(pos.game, start), reply.move)
        asked = 0.0
        while not self.stopped:
            self.bridge.poll(POLL_S)
            now = time.monotonic()
            if now - asked < 0.2:
                continue
            asked = now
            g, state, _, fen = self._state()
            if fen == start or g != game.game:
                continue
            for m in pos.legal_moves():  # the move that made the board's position
                pos.push(m)
                same = pos.fen() == fen
                pos.pop()
                if same:
                    return pos.move_str(m)
            if state not in ("moving", "pending", "promoting"):
                return None  # the board went elsewhere (a takeback, a new game): no move to give
        return None

    def stop(self) -> None:
        self.stopped = True


class CliError(Exception):
    """Why board-engine cannot start, in words (the CLI says it and exits 2)."""


def run(args: argparse.Namespace) -> int:
    try:
        lvl = int(args.level)
        level(lvl)
    except ValueError:
        raise CliError(f"--level {args.level}: a level from 1 to 8") from None
    try:
        home = open_home(args.archive, args.port, args.sim, args.pico)
    except HomeError as e:
        raise CliError(str(e)) from None
    archive = home.archive
    with home:
        assert home.port is not None
        try:
            session = Session(home.port, archive, home.sim, sys.stderr, False, home.hands, timeout_s=home.timeout_s)
        except PlayError as e:
            raise CliError(str(e)) from None
        player = BoardPlayer(session, lvl)
        front = cecp_run if args.xboard else uci_run
        rc = front(lines_in(sys.stdin), Out(sys.stdout), player)
        gid = session.bridge.game_id
        if gid is not None:
            archive.adjourn(gid)
        return rc


__all__ = ["BoardPlayer", "CliError", "EnginePlayer", "run"]
