"""UCI engines as the opponent in chess, courier and gardner, through python-chess's
chess.engine (Stockfish; Fairy-Stockfish given the board's own rules).

python-chess's own `play()` needs a chess.Board, which has 8 x 8 squares only, so the
search runs as a custom command over the same engine object (`SimpleEngine.communicate`):
`position fen ...`, `go ...`, the `info` lines, `bestmove`.  Positions and moves cross
between notation.md and the engine:

  chess    the same FEN and the same move strings
  gardner  Fairy-Stockfish's `eboard-gardner` of variants.ini (beside this file): the same
           FEN (5 x 5) and moves
  courier  Fairy-Stockfish's `eboard-courier` of variants.ini: the seed's rules, not its
           built-in `courier` (the historical game: a wazir Schleich, no double step, a bare
           king loses, whose king moves can be illegal on the board).  Its files are a-l
           where ours skip j (courier.md §1), so the k, l, m files become j, k, l and back;
           the Schleich goes as a Mann (they move alike, and Debian's Fairy-Stockfish 11.1
           has one commoner type); our FEN's en-passant field (no en passant) goes as "-".

Fairy-Stockfish reads variants.ini through its VariantPath option.  Before its first
move a session compares the engine's legal moves in the game's start position with ours
(`go perft 1`): an engine that did not take the file plays other rules and is not used
(Unavailable, in words).  Every move an engine returns is checked with the core too: one
the core refuses is not played (Refused names the engine, its move and the position); our
engine plays instead, and the reply says so.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
from pathlib import Path

import chess.engine

from firmware.rules.board import WHITE
from firmware.rules.position import MoveError, Position

from .limits import Level, Limits, Reply
from .search import MATE, Info

# Which engines play which game, tried in this order; the UCI_Variant to ask for.
ENGINES = {"chess": ("stockfish", "fairy-stockfish"), "courier": ("fairy-stockfish",), "gardner": ("fairy-stockfish",)}
VARIANT = {"chess": None, "courier": "eboard-courier", "gardner": "eboard-gardner"}
VARIANTS_INI = Path(__file__).with_name("variants.ini")  # the board's rules, for Fairy-Stockfish
INSTALL = "apt-get install stockfish fairy-stockfish (Debian), or give one with --engine uci:PATH"
ANSWER_S = 10  # the longest wait for an answer that is not a search (perft 1)

OURS = "abcdefghiklm"  # courier's files (no j)
THEIRS = "abcdefghijkl"


class Unavailable(Exception):
    """No UCI engine can play this position; the message says why, in words."""


class Refused(Unavailable):
    """The engine's move is not legal on the board (the message names engine, move, position)."""


def find(gid: str) -> str | None:
    """The first engine for the game on PATH (Debian puts them in /usr/games), or None."""
    path = os.environ.get("PATH", "") + os.pathsep + "/usr/games"
    for name in ENGINES.get(gid, ()):
        found = shutil.which(name, path=path)
        if found:
            return found
    return None


def to_engine(gid: str, text: str) -> str:
    """A move string (notation.md) -> the engine's."""
    return _files(text, OURS, THEIRS) if gid == "courier" else text


def from_engine(gid: str, text: str) -> str:
    """An engine's move -> notation.md's string."""
    return _files(text, THEIRS, OURS) if gid == "courier" else text


def _files(text: str, src: str, dst: str) -> str:
    # A letter followed by a digit is a file; a trailing promotion letter stays.
    out = []
    for i, ch in enumerate(text):
        if i + 1 < len(text) and text[i + 1].isdigit() and ch in src:
            out.append(dst[src.index(ch)])
        else:
            out.append(ch)
    return "".join(out)


def fen_for_engine(pos: Position) -> str:
    """The position's FEN as the engine reads it (courier: the Schleich as a Mann, no
    en-passant square; see variants.ini)."""
    fields = pos.fen().split()
    if pos.game.id == "courier":
        fields[0] = fields[0].replace("W", "M").replace("w", "m")
        fields[3] = "-"
    return " ".join(fields[:6])


def go_line(pos: Position, limits: Limits, lvl: Level | None) -> str:
    """The UCI `go` command for these limits (a level's time when none is given)."""
    if limits.depth is not None and limits.movetime_ms is None and limits.white_ms is None:
        return "go depth %d" % limits.depth
    if limits.movetime_ms is not None:
        return "go movetime %d" % limits.movetime_ms
    if limits.white_ms is not None or limits.black_ms is not None:
        parts = ["go"]
        for name, value in (("wtime", limits.white_ms), ("btime", limits.black_ms),
                            ("winc", limits.white_inc_ms), ("binc", limits.black_inc_ms),
                            ("movestogo", limits.moves_to_go)):
            if value is not None:
                parts.append("%s %d" % (name, max(0, value)))
        return " ".join(parts)
    return "go movetime %d" % (lvl.movetime_ms if lvl and lvl.movetime_ms else 1000)


GRACE_S = 3.0  # what an engine may take beyond its time before it counts as hung
DEPTH_S = 60.0  # the deadline of a search to a depth, which has no time of its own


def deadline_s(limits: Limits, lvl: Level | None, white: bool) -> float:
    """How long a `go` may go unanswered: the time it was given (go_line's), plus a grace."""
    if limits.movetime_ms is None and limits.white_ms is None and limits.black_ms is None:
        if limits.depth is not None:
            return DEPTH_S
        return (lvl.movetime_ms if lvl and lvl.movetime_ms else 1000) / 1000 + GRACE_S
    hard, _ = limits.budget(white)
    return (hard or 0.0) + GRACE_S


class _Exchange(chess.engine.BaseCommand[list[str]]):
    """Lines sent, then every line the engine says until one that starts with `last`."""

    def __init__(self, engine: chess.engine.Protocol, lines: list[str], last: str) -> None:
        super().__init__(engine)
        self.lines = lines
        self.last = last
        self.said: list[str] = []

    def start(self) -> None:
        for line in self.lines:
            self._engine.send_line(line)

    def line_received(self, line: str) -> None:
        self.said.append(line)
        if line.startswith(self.last):
            self.result.set_result(self.said)
            self.set_finished()

    def cancel(self) -> None:
        self._engine.send_line("stop")


_PERFT_LINE = re.compile(r"^([a-z]+[0-9]+[a-z]+[0-9]+[a-z]?): 1$")


def _info(gid: str, line: str) -> Info:
    # "info depth 12 seldepth 16 multipv 1 score cp 31 nodes 1234 nps .. time 56 pv e2e4 .."
    w = line.split()
    depth = nodes = time_ms = 0
    score = 0
    pv: list[str] = []
    i = 1
    while i < len(w):
        if w[i] == "depth":
            depth = int(w[i + 1])
        elif w[i] == "nodes":
            nodes = int(w[i + 1])
        elif w[i] == "time":
            time_ms = int(w[i + 1])
        elif w[i] == "score" and i + 2 < len(w):
            n = int(w[i + 2])
            if w[i + 1] == "cp":
                score = n
            else:  # mate in n moves: plies as our scores count them
                score = MATE - (2 * n - 1) if n > 0 else -(MATE + 2 * n)
            i += 1
        elif w[i] == "pv":
            pv = [from_engine(gid, m) for m in w[i + 1:]]
            break
        i += 1
    return Info(depth, score, nodes, time_ms, pv)


def skill(lvl: Level | None) -> int | None:
    """The engine's Skill Level (0..20) for one of our levels, None for full strength."""
    if lvl is None:
        return None
    return min(20, (lvl.number - 1) * 3)


class Session:
    """One UCI engine process for one game, kept open across moves (close() it, or use
    `with`); Unavailable (in words) if none can play the game."""

    def __init__(self, gid: str, spec: str = "uci", options: dict[str, int | str] | None = None) -> None:
        if gid not in ENGINES:
            raise Unavailable("no UCI engine plays %s" % gid)
        if spec in ("uci", "uci:"):
            path = find(gid)
            if path is None:
                raise Unavailable("no UCI engine for %s on PATH (%s)" % (gid, INSTALL))
        elif spec.startswith("uci:"):
            path = spec[4:]
            if not (os.path.isfile(path) and os.access(path, os.X_OK)):
                raise Unavailable("%s is not an executable file" % path)
        else:
            raise Unavailable("unknown engine %r: ours, uci or uci:PATH" % spec)
        try:
            self.engine = chess.engine.SimpleEngine.popen_uci([path], timeout=10, stderr=subprocess.DEVNULL)
        except (OSError, chess.engine.EngineError, TimeoutError) as e:
            raise Unavailable("cannot start %s: %s" % (path, e)) from None
        self.gid = gid
        self.name = self.engine.id.get("name", os.path.basename(path))
        self.setup: list[str] = []
        try:
            variant = VARIANT[gid]
            if variant:
                if "UCI_Variant" not in self.engine.options or "VariantPath" not in self.engine.options:
                    raise Unavailable("%s cannot be given the board's rules of %s (no VariantPath option)"
                                      % (self.name, gid))
                self.engine.configure({"VariantPath": str(VARIANTS_INI)})
                # python-chess manages UCI_Variant for its own boards: it goes as a line.
                self.setup.append("setoption name UCI_Variant value " + variant)
                self._check_rules()
            if options:
                self.engine.configure(options)
        except (Unavailable, chess.engine.EngineError, TimeoutError) as e:
            self.close()
            raise Unavailable(str(e) or "%s did not answer" % self.name) from None
        self.skill: int | None = None

    def _ask(self, lines: list[str], last: str, timeout_s: float | None = None) -> list[str]:
        # The engine's lines up to the one starting with `last` (TimeoutError past timeout_s).
        if timeout_s is None:
            return self.engine.communicate(lambda proto: _Exchange(proto, lines, last))
        proto = self.engine.protocol
        coro = asyncio.wait_for(proto.communicate(lambda p: _Exchange(p, lines, last)), timeout_s)
        return asyncio.run_coroutine_threadsafe(coro, proto.loop).result()

    def _check_rules(self) -> None:
        # The engine's legal moves in the game's start position must be ours: it read
        # variants.ini, and the variant there is the board's game.
        from firmware.rules import game_module

        mod = game_module(self.gid)
        pos = mod.new(getattr(mod, "AFTER_OPENING", None))
        said = self._ask(self.setup + ["position fen " + fen_for_engine(pos), "go perft 1"], "Nodes searched",
                         ANSWER_S)
        theirs = sorted(from_engine(self.gid, m.group(1)) for m in map(_PERFT_LINE.match, said) if m)
        ours = sorted(pos.move_str(m) for m in pos.legal_moves())
        if theirs != ours:
            raise Unavailable("%s does not play the board's %s: %d legal moves in its start position, ours %d "
                              "(its variant %s of %s not taken?)"
                              % (self.name, self.gid, len(theirs), len(ours), VARIANT[self.gid], VARIANTS_INI))

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.engine.quit()
        except Exception:  # the engine may already be gone; nothing to tidy then
            self.engine.close()

    def move(self, pos: Position, limits: Limits, lvl: Level | None = None) -> Reply:
        """The engine's move in pos; Unavailable if it fails, Refused (in words) if its move
        is not legal on the board."""
        if pos.game is not _game_of(self.gid):
            raise Unavailable("%s plays %s by its standard rules only" % (self.name, self.gid))
        try:
            level_skill = skill(lvl)
            if level_skill is not None and level_skill != self.skill and "Skill Level" in self.engine.options:
                self.engine.configure({"Skill Level": level_skill})
                self.skill = level_skill
            lines = self.setup + ["ucinewgame", "position fen " + fen_for_engine(pos), go_line(pos, limits, lvl)]
            deadline = deadline_s(limits, lvl, pos.us == WHITE)
            said = self._ask(lines, "bestmove", deadline)
        except (asyncio.TimeoutError, TimeoutError):
            self.engine.close()  # it hangs: stopped, not asked to quit
            raise Unavailable("%s gave no move within %g s" % (self.name, deadline)) from None
        except chess.engine.EngineError as e:
            raise Unavailable("%s failed: %s" % (self.name, e)) from None
        words = said[-1].split()
        best = words[1] if len(words) > 1 else "(none)"
        move: int | None = None
        refusal = ""
        if best in ("(none)", "0000"):
            refusal = "%s gave no move: it holds the game over where the board's rules do not" % self.name
        else:
            text = from_engine(self.gid, best)
            try:
                move = pos.parse_move(text)
            except MoveError:
                board = " (%s on the board)" % text if text != best else ""
                refusal = "%s's move %s%s is refused: not a legal move of %s in this position" % (
                    self.name, best, board, self.gid)
        if move is None:
            raise Refused("%s (%s)" % (refusal, pos.fen()))
        infos = [_info(self.gid, line) for line in said if line.startswith("info ") and " depth " in line]
        score = infos[-1].score if infos else 0
        return Reply(move, pos.move_str(move), score, infos, self.name)


def play(pos: Position, limits: Limits, spec: str = "uci", lvl: Level | None = None,
         options: dict[str, int | str] | None = None) -> Reply:
    """The UCI engine's move in pos, from a session opened for this one move."""
    with Session(pos.game.id, spec, options) as session:
        return session.move(pos, limits, lvl)


def _game_of(gid: str) -> object:
    # The rules the UCI engines know: the games' default tables (not a variant build).
    from firmware.rules import game_module

    return game_module(gid).GAME
