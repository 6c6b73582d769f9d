"""The computer as the opponent in `eboard play`: which side it plays, which engine and how
long it thinks, its thinking in a thread of its own (the board's link keeps being served
meanwhile), and the result when a flag falls.

    opp = Opponent.parse("3", side="black")       # our engine at level 3, or "uci", "uci:PATH"
    job = opp.think(fen, game, clock)             # a Job: job.done(), job.reply, job.error
"""

from __future__ import annotations

import threading
import time

from firmware.rules import new_position
from firmware.rules.board import BLACK, WHITE
from host.record import Clock

SIDE_BITS = {"white": WHITE, "black": BLACK}
DEFAULT_MS = 1000  # the computer's time a move on a clock, without a level or --engine-time


class OpponentError(ValueError):
    """An engine choice that cannot be used: the message says why, in words."""


class Job:
    """One search in a thread: for a move of the computer's, or a hint for the player."""

    def __init__(self, kind: str, fen: str, target, *args) -> None:  # type: ignore[no-untyped-def]
        self.kind = kind  # "move" or "hint"
        self.fen = fen  # the position it searches (the board must still show it)
        self.reply = None  # the engine's Reply when done
        self.error: str | None = None
        self.started = time.perf_counter()
        self.ended = self.started  # when the search was over (bench/onboard.py)
        self.thread = threading.Thread(target=self._run, args=(target, *args), daemon=True)
        self.thread.start()

    def _run(self, target, *args) -> None:  # type: ignore[no-untyped-def]
        try:
            self.reply = target(*args)
        except Exception as e:  # noqa: BLE001 (an engine failure of any kind is said in words; play goes on)
            self.error = f"the engine failed: {e}"
        self.ended = time.perf_counter()

    def done(self) -> bool:
        return not self.thread.is_alive()

    def wait(self, timeout_s: float | None = None) -> None:
        self.thread.join(timeout_s)


class Opponent:
    """The computer's side, engine ("ours", "uci", "uci:PATH"), level and time a move."""

    def __init__(self, side: str, engine: str = "ours", level_no: int | None = None,
                 movetime_ms: int | None = None) -> None:
        from host import engine as eng

        if side not in SIDE_BITS:
            raise OpponentError(f"the computer plays white or black, not {side!r}")
        self.side = side
        self.engine = engine
        self.level_no = level_no
        try:
            self.lvl = eng.level(level_no) if level_no is not None else None
        except ValueError as e:
            raise OpponentError(str(e)) from None
        self.movetime_ms = movetime_ms

    @classmethod
    def parse(cls, spec: str, side: str, level_no: int | None = None, movetime_ms: int | None = None) -> Opponent:
        """spec: a level (1-8: our engine), "ours", "uci" or "uci:PATH"; OpponentError."""
        from host.engine import engine_problem

        if spec.isdigit():
            return cls(side, "ours", int(spec), movetime_ms)
        why = engine_problem(spec)
        if why is not None:
            raise OpponentError(why + " (or a level, 1-8)")
        return cls(side, spec, level_no, movetime_ms)

    def describe(self) -> str:
        """'our engine, level 3 (casual: ...)' for the view and the web page."""
        who = "our engine" if self.engine == "ours" else "Stockfish/Fairy-Stockfish (UCI)" if self.engine == "uci" else self.engine[4:]
        if self.lvl is not None:
            who += f", level {self.lvl.number} ({self.lvl.name})"
        if self.movetime_ms is not None:
            who += f", {self.movetime_ms / 1000:g} s a move"
        return who

    def name(self, engine_name: str | None = None) -> str:
        """The computer's name in the archive (PGN White/Black): 'eboard engine, level 3', or
        the UCI engine's own name once known ('Stockfish 16, level 3'), else 'UCI engine'."""
        who = "eboard engine" if self.engine == "ours" else engine_name or "UCI engine"
        return who + (f", level {self.lvl.number}" if self.lvl is not None else "")

    def limits(self, clock: Clock | None, now_ms: float):  # type: ignore[no-untyped-def]
        """What the engine may spend on this move: its time a move (--engine-time, else the
        level's own, else DEFAULT_MS); on a clock, as engines manage their time, a share of
        the time left plus most of the increment (Limits.budget's), never more than that."""
        from host.engine import Limits

        per_move = self.movetime_ms if self.movetime_ms is not None else self.lvl.movetime_ms if self.lvl else None
        if clock is None:
            return Limits(movetime_ms=per_move)
        on_clock = Limits(white_ms=clock.left("white", now_ms), black_ms=clock.left("black", now_ms),
                          white_inc_ms=clock.inc_ms, black_inc_ms=clock.inc_ms)
        share, _ = on_clock.budget(self.side == "white")  # (hard: the most the move may take)
        return Limits(movetime_ms=max(10, min(per_move or DEFAULT_MS, int((share or 0) * 1000))))

    def think(self, kind: str, game: str, fen: str, limits) -> Job:  # type: ignore[no-untyped-def]
        """A search of the position in a thread (kind "move": the computer's; "hint")."""
        from host.engine import choose

        pos = new_position(game, fen)
        return Job(kind, fen, choose, pos, limits, self.engine, self.lvl if kind == "move" else None)


def flag_result(game: str, fen: str, flagged: str) -> str:
    """The result when `flagged`'s time is out: the other side wins, unless it cannot mate
    by any series of legal moves (chess: the core's test, FIDE 6.9), then a draw.  (The
    other games' dead positions, bare kings, end the game by themselves before any flag.)"""
    pos = new_position(game, fen)
    winner = "black" if flagged == "white" else "white"
    cannot = getattr(pos, "cannot_mate", None)
    if cannot is not None and cannot(SIDE_BITS[winner]):
        return "1/2-1/2"
    return "1-0" if winner == "white" else "0-1"
