"""The computer opponent: our own engine for every game of the rules core, and UCI
engines (Stockfish, Fairy-Stockfish) for chess, courier and gardner.

The one door into the core is `firmware.rules`; nothing imports this package but the
CLI (and play, which calls one function):

    from host.engine import choose, Limits
    reply = choose(pos, Limits(movetime_ms=1000), engine="ours", lvl=None)
    reply.move        # a move int of pos, legal
    reply.move_str    # its notation.md string
    reply.infos       # the info lines (depth, score, nodes, time)
    reply.note        # why another engine than asked played, or ""

`pos` is left as it was found.  Limits: a depth, a movetime, or a clock (base +
increment per side, as python-chess's Limit has them); a Level adds a deliberate error
rate for beginners.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from firmware.rules.board import WHITE
from firmware.rules.position import Position

from .limits import LEVELS, Halt, Level, Limits, Reply, level
from .search import Info, Searcher, kept_table

__all__ = ["LEVELS", "Halt", "Info", "Level", "Limits", "Reply", "best_move", "choose", "engine_problem", "level"]


def engine_problem(spec: str) -> str | None:
    """Why spec ("ours", "uci", "uci:PATH") names no engine choose() can take, in words;
    None if it names one."""
    import os

    if spec.startswith("uci:"):
        path = spec[4:]
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            return f"no engine at {path!r}: uci:PATH needs an executable file"
        return None
    if spec not in ("ours", "uci"):
        return f"unknown engine {spec!r}: ours, uci (the first on PATH) or uci:PATH"
    return None


def best_move(pos: Position, limits: Limits | None = None, lvl: Level | None = None,
           rng: random.Random | None = None, on_info: Callable[[Info], None] | None = None,
           halt: Halt | None = None, off: frozenset[str] = frozenset()) -> Reply:
    """Our engine's move in pos (left unchanged); ValueError if the game is over.  halt:
    stopped from another thread (and Limits.nodes) the search gives its best move so far.
    off: search techniques left out (search.TECHNIQUES; bench/strength.py measures what each
    is worth)."""
    limits = limits or Limits()
    depth = limits.depth
    movetime = limits.movetime_ms
    if lvl is not None:
        if lvl.depth is not None:
            depth = lvl.depth if depth is None else min(depth, lvl.depth)
        if lvl.movetime_ms is not None and movetime is None and limits.white_ms is None:
            movetime = lvl.movetime_ms
    if depth is None and movetime is None and limits.white_ms is None and limits.black_ms is None:
        movetime = 1000
    hard, soft = Limits(movetime_ms=movetime, white_ms=limits.white_ms, black_ms=limits.black_ms,
                        white_inc_ms=limits.white_inc_ms, black_inc_ms=limits.black_inc_ms,
                        moves_to_go=limits.moves_to_go).budget(pos.us == WHITE)
    if movetime is None and hard is None and depth is None:
        hard, soft = 1.0, 1.0
    work = type(pos)(pos.game, pos.fen())  # a copy: the caller's position is never touched
    # A level's games start each search afresh: what a deeper search learnt would lift a
    # shallow level above its depth.
    s = Searcher(work, earlier_keys(pos), off, kept_table(pos, off) if lvl is None else None)
    if halt is None and limits.nodes is None:
        move, score, infos = s.run(depth or 64, hard, on_info, soft)
    else:
        move, score, infos = _watched(s, depth or 64, hard, on_info, soft, halt, limits.nodes)
    if lvl is not None and lvl.error_rate:
        rng = rng or random.Random()
        if rng.random() < lvl.error_rate:
            others = [m for m in work.legal_moves() if m != move]
            if others:
                move = rng.choice(others)
    return Reply(move, pos.move_str(move), score, infos, "ours")


def _watched(s: Searcher, depth: int, hard: float | None, on_info: Callable[[Info], None] | None,
             soft: float | None, halt: Halt | None, nodes: int | None) -> tuple[int, int, list[Info]]:
    """Searcher.run, ended early by halt.stop() or past `nodes` nodes: a watcher thread
    moves the search's deadline to now (the search looks at it every 16 nodes)."""
    import threading

    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.002):
            if (halt is not None and halt.stopped) or (nodes is not None and s.nodes >= nodes):
                s.deadline = 0.0

    w = threading.Thread(target=watch, name="engine-halt", daemon=True)
    w.start()
    try:
        return s.run(depth, hard, on_info, soft)
    finally:
        done.set()
        w.join()


def earlier_keys(pos: Position) -> list[int]:
    """The transposition keys of the game's earlier positions back to the last capture or
    pawn move (those a repetition can come back to; the rules' repetition_plies() where
    they have one), as far as pos's history holds them;
    pos is taken back and replayed, and left as it was."""
    from .tables import Tracked

    t = Tracked(pos)
    if not t.tables.profile.repetition_draws:
        return []
    keys = []
    undone = []
    window = getattr(pos, "repetition_plies", None)  # the rules' own reach (100-square: past pawn moves)
    try:
        for _ in range(window() if window is not None else min(pos.halfmove, len(pos.stack))):
            undone.append(pos.pop())
            t.h, t.score = t.full()
            keys.append(t.key())
    finally:
        while undone:
            pos.push(undone.pop())
    keys.reverse()
    return keys


def choose(pos: Position, limits: Limits | None = None, engine: str = "ours", lvl: Level | None = None,
           rng: random.Random | None = None, on_info: Callable[[Info], None] | None = None) -> Reply:
    """The move to play in pos, by `engine`: "ours", "uci" (the first UCI engine for the
    game found on PATH) or "uci:PATH".  Without a usable UCI engine our engine plays and
    Reply.note says why."""
    if engine == "ours":
        return best_move(pos, limits, lvl, rng, on_info)
    try:
        from . import uci
    except ImportError:  # python-chess is not installed (play.sh's .venv has it)
        reply = best_move(pos, limits, lvl, rng, on_info)
        reply.note = "UCI engines need python-chess (pip install chess); our engine plays instead"
        return reply
    try:
        return uci.play(pos, limits or Limits(), engine, lvl)
    except uci.Unavailable as e:
        reply = best_move(pos, limits, lvl, rng, on_info)
        reply.note = "%s; our engine plays instead" % e
        return reply
