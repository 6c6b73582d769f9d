"""Who answers a chess program's `go`: our engine (EnginePlayer), or the physical board
(host/commands/boardengine.py's BoardPlayer), behind one small interface the fronts use."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import TextIO

from firmware.rules import FenError, MoveError, new_position
from host.engine import Halt, Info, Limits, best_move, level

VERSION = "1.0"


class Out:
    """The front's standard output: whole lines, flushed, one writer at a time (the
    search thread and the reader both write)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.lock = threading.Lock()

    def __call__(self, line: str) -> None:
        with self.lock:
            try:
                self.stream.write(line + "\n")
                self.stream.flush()
            except (BrokenPipeError, ValueError):  # the program went away: nothing to say it to
                pass


class Front:
    """A protocol's conversation: lines in until quit or the end of input; handle() says
    False at quit, finish() stops what runs and lets the player go."""

    def run(self, lines: Iterable[str]) -> int:
        for line in lines:
            words = line.split()
            try:
                if words and not self.handle(words[0], words[1:], line):
                    break
            except Exception as e:  # noqa: BLE001 (a bug of ours: said in the protocol's words, and on)
                self.internal(f"{words[0][:40]}: internal error (a bug): {type(e).__name__}: {e}")
        self.finish()
        return 0

    def handle(self, cmd: str, args: list[str], line: str) -> bool:
        raise NotImplementedError

    def internal(self, text: str) -> None:
        raise NotImplementedError

    def finish(self) -> None:
        raise NotImplementedError


def lines_in(stream: TextIO) -> Iterable[str]:
    """A program's lines, as they come (a pipe is not read ahead); bytes that are not
    UTF-8 are replaced, never a traceback."""
    import io

    raw = getattr(stream, "buffer", None)
    if raw is not None:
        stream = io.TextIOWrapper(raw, encoding="utf-8", errors="replace", newline=None)
    return iter(stream.readline, "")


class Game:
    """The game a chess program set: the game id, the root FEN (None: the start) and the
    moves since; pos is the position after them."""

    def __init__(self, game: str = "chess") -> None:
        self.game = game
        self.root: str | None = None
        self.moves: list[str] = []  # our notation
        self.pos = new_position(game)

    def set(self, game: str, root: str | None, moves: list[str]) -> None:
        """The game from root (None: its start) and moves (our strings); FenError or
        MoveError in words, and then nothing changes."""
        pos = new_position(game, root) if root else new_position(game)
        for i, m in enumerate(moves):
            try:
                pos.push_str(m)
            except MoveError:
                raise MoveError(f"move {i + 1}, {m}, is not legal there") from None
        self.game, self.root, self.moves, self.pos = game, root, list(moves), pos

    def push(self, move: str) -> None:
        self.pos.push_str(move)
        self.moves.append(move)

    def pop(self) -> None:
        if not self.moves:
            raise MoveError("no move to take back")
        self.pos.pop()
        self.moves.pop()

    def fen(self) -> str:
        return self.pos.fen()


class Player:
    """What answers `go`.  think() runs in the front's search thread and returns our move
    string (None: no move, the game is over); stop() may come from the reader thread."""

    name = "eboard"

    def think(self, game: Game, limits: Limits, on_info: Callable[[Info], None]) -> str | None:
        raise NotImplementedError

    def stop(self) -> None:
        pass

    def new_game(self) -> None:
        pass

    def position(self, game: Game) -> str | None:
        """The chess program set game (a new position or a move): what to say about it, or None."""
        return None

    def close(self) -> None:
        pass


class EnginePlayer(Player):
    """Our engine (host/engine), at a level (None: full strength)."""

    name = f"eboard {VERSION}"

    def __init__(self) -> None:
        self.level: int | None = None
        self.halt = Halt()

    def think(self, game: Game, limits: Limits, on_info: Callable[[Info], None]) -> str | None:
        pos = game.pos
        if pos.outcome() is not None:
            return None
        lvl = level(self.level) if self.level is not None else None
        reply = best_move(pos, limits, lvl, on_info=on_info, halt=self.halt)
        return reply.move_str

    def stop(self) -> None:
        self.halt.stop()

    def ready(self) -> None:
        """A new search: the halt of the last one forgotten."""
        self.halt = Halt()


__all__ = ["EnginePlayer", "FenError", "Front", "Game", "lines_in", "MoveError", "Out", "Player"]
