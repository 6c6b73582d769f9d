"""`eboard uci`: a player (our engine, or the board) behind the UCI protocol, on a chess
program's stdin/stdout.

Every game of the rules core is a `UCI_Variant` (notation.md's ids; `chess` as
python-chess and Fairy-Stockfish name it), and `UCI_Chess960` makes chess Chess960
(castling as the king taking its own rook, `e1h1`); squares as chess programs write them
(coords.py).  The search runs in a thread, so that `stop` is read while it thinks.  A
line we cannot use is answered `info string ...`, and the engine goes on.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from firmware.rules import GAMES, FenError, MoveError
from host.engine import Info, Limits

from .coords import Coords
from .player import EnginePlayer, Front, Game, Out, Player

LEVEL_OPTION = "Skill Level"


class UciFront(Front):
    """One UCI conversation: handle() takes a line, and says what the protocol wants."""

    def __init__(self, player: Player, out: Out) -> None:
        self.player = player
        self.out = out
        self.game = Game("chess")
        self.variant = "chess"  # the game played: UCI_Variant's, or chess960 where UCI_Chess960 asks
        self.uci_variant = "chess"
        self.chess960 = False
        self.coords = Coords(self.game.pos)
        self.thread: threading.Thread | None = None
        self.held = threading.Event()  # set: bestmove may be said (go infinite / ponder hold it)
        self.pondering: tuple[Limits, bool] | None = None  # `go ponder`: the limits for ponderhit
        self.job: dict[str, bool] = {}  # the search under way: "drop" forgets its move

    # ---- the lines ------------------------------------------------------------------

    def handle(self, cmd: str, args: list[str], line: str) -> bool:
        """One line from the program; False after `quit`."""
        try:
            if cmd == "quit":
                return False
            handler = getattr(self, "cmd_" + cmd, None)
            if handler is None:
                self.out(f"info string unknown command {cmd[:40]!r}: ignored")
            else:
                handler(args)
        except (ValueError, MoveError, FenError) as e:
            self.out(f"info string {cmd}: {e}")
        return True

    def internal(self, text: str) -> None:
        self.out("info string " + text)

    def finish(self) -> None:
        """quit (or the end of input): a search under way is stopped, its move not said."""
        if self.thread is not None:
            self.player.stop()
            self.held.set()
            self.thread.join()
        self.player.close()

    def cmd_uci(self, args: list[str]) -> None:
        self.out(f"id name {self.player.name}")
        self.out("id author the eboard project")
        self.out("option name UCI_Variant type combo default chess " + " ".join(f"var {g}" for g in GAMES))
        self.out("option name UCI_Chess960 type check default false")
        if isinstance(self.player, EnginePlayer):
            self.out(f"option name {LEVEL_OPTION} type spin default 8 min 1 max 8")
        self.out("uciok")

    def cmd_isready(self, args: list[str]) -> None:
        self.out("readyok")

    def cmd_debug(self, args: list[str]) -> None:
        pass

    def cmd_register(self, args: list[str]) -> None:
        pass

    def cmd_setoption(self, args: list[str]) -> None:
        if "name" not in args:
            raise ValueError("setoption name NAME [value VALUE]")
        rest = args[args.index("name") + 1:]
        if "value" in rest:
            name, value = " ".join(rest[: rest.index("value")]), " ".join(rest[rest.index("value") + 1:])
        else:
            name, value = " ".join(rest), ""
        if name.lower() == "uci_variant":
            if value not in GAMES:
                raise ValueError(f"no game {value!r}: the games are {', '.join(GAMES)}")
            self._busy_check("setoption")
            self.uci_variant = value
            self._variant()
        elif name.lower() == "uci_chess960":
            if value.lower() not in ("true", "false"):
                raise ValueError(f"UCI_Chess960 is true or false, not {value!r}")
            self._busy_check("setoption")
            self.chess960 = value.lower() == "true"
            self._variant()
        elif name.lower() == LEVEL_OPTION.lower() and isinstance(self.player, EnginePlayer):
            if not value.isdigit() or not 1 <= int(value) <= 8:
                raise ValueError(f"{LEVEL_OPTION} runs from 1 (beginner) to 8 (full strength), not {value!r}")
            self.player.level = None if int(value) == 8 else int(value)
        else:
            raise ValueError(f"no option {name!r}")

    def _variant(self) -> None:
        # UCI_Chess960 makes chess Chess960 (castling written as the king taking its rook,
        # the core's own move strings), whichever of the two options came first.
        v = self.uci_variant
        self.variant = "chess960" if self.chess960 and v == "chess" else v
        self.game = Game(self.variant)
        self.coords = Coords(self.game.pos)

    def cmd_ucinewgame(self, args: list[str]) -> None:
        self._busy_check("ucinewgame")
        self.game = Game(self.variant)
        self.player.new_game()

    def cmd_position(self, args: list[str]) -> None:
        self._busy_check("position")
        if not args or args[0] not in ("startpos", "fen"):
            raise ValueError("position startpos|fen FEN [moves M ...]")
        moves: list[str] = []
        if "moves" in args:
            i = args.index("moves")
            args, moves = args[:i], args[i + 1:]
        root = None
        if args[0] == "fen":
            if len(args) < 2:
                raise ValueError("position fen: the FEN is missing")
            root = self.coords.fen_into(" ".join(args[1:]))
        game = Game(self.variant)
        try:
            game.set(self.variant, root, [])
        except (FenError, ValueError) as e:
            raise ValueError(f"not a position of {self.variant}: {e}") from None
        for i, m in enumerate(moves):
            try:
                ours = game.pos.move_str(self.coords.parse(game.pos, m))
            except MoveError:
                # The last legal position is kept, and the player (the board) is shown it:
                # a `go` then searches, or waits for a move made, there.
                self.out(f"info string position: move {i + 1}, {m}, is not legal in {self.variant} there: "
                         f"the position is the one before it")
                break
            game.push(ours)
        self.game = game
        said = self.player.position(game)
        if said:
            self.out("info string " + said)

    def cmd_go(self, args: list[str]) -> None:
        self._busy_check("go")
        limits, infinite, ponder = self._limits(args)
        if ponder:
            # Pondering is cheap here: nothing is searched until ponderhit (then the
            # move's own limits), and a stop gives the quickest move.
            self.pondering = (limits, infinite)
            self.held.clear()
            self._start(Limits(depth=1), hold=True)
            return
        self._start(limits, hold=infinite)

    def cmd_ponderhit(self, args: list[str]) -> None:
        if self.pondering is None or self.thread is None:
            raise ValueError("no `go ponder` under way")
        limits, infinite = self.pondering
        self.pondering = None
        self.job["drop"] = True  # its depth-1 move is forgotten: the search begins now
        self.held.set()
        self.thread.join()
        self.thread = None
        self._start(limits, hold=infinite)

    def cmd_stop(self, args: list[str]) -> None:
        if self.thread is None:
            return
        self.pondering = None
        self.player.stop()
        self.held.set()
        self.thread.join()
        self.thread = None

    def _busy_check(self, what: str) -> None:
        """A search under way ends before the position changes (the GUI should have said stop)."""
        if self.thread is not None and not self.thread.is_alive():
            self.thread = None
        if self.thread is not None:
            self.out(f"info string {what} while searching: the search was stopped")
            self.cmd_stop([])

    def _limits(self, args: list[str]) -> tuple[Limits, bool, bool]:
        names = {"wtime": "white_ms", "btime": "black_ms", "winc": "white_inc_ms", "binc": "black_inc_ms",
                 "movestogo": "moves_to_go", "movetime": "movetime_ms", "depth": "depth", "nodes": "nodes"}
        kw: dict[str, int] = {}
        infinite = ponder = False
        i = 0
        while i < len(args):
            w = args[i]
            if w == "infinite":
                infinite = True
            elif w == "ponder":
                ponder = True
            elif w in names:
                if i + 1 >= len(args) or not args[i + 1].lstrip("-").isdigit():
                    raise ValueError(f"{w} needs a number")
                kw[names[w]] = int(args[i + 1])
                i += 1
            elif w in ("searchmoves", "mate"):
                raise ValueError(f"{w} is not supported")
            else:
                raise ValueError(f"unknown word {w!r}")
            i += 1
        for k in ("depth", "nodes", "movetime_ms", "moves_to_go"):
            if k in kw and kw[k] < 1:
                raise ValueError(f"{k} must be 1 or more")
        if infinite and not any(k in kw for k in ("depth", "nodes", "movetime_ms")):
            kw["depth"] = 64
        return Limits(**kw), infinite, ponder  # type: ignore[arg-type]

    def _start(self, limits: Limits, hold: bool) -> None:
        if hold:
            self.held.clear()
        else:
            self.held.set()
        if isinstance(self.player, EnginePlayer):
            self.player.ready()
        game = self.game
        coords = self.coords
        job = self.job = {"drop": False}

        def on_info(info: Info) -> None:
            head, _, pv = info.line().partition(" pv ")
            seld = f" seldepth {info.seldepth}" if getattr(info, "seldepth", None) else ""
            head = head.replace(f"info depth {info.depth}", f"info depth {info.depth}{seld}", 1)
            self.out(head + ((" pv " + " ".join(coords.out(m) for m in pv.split())) if pv else ""))

        def work() -> None:
            try:
                move = self.player.think(game, limits, on_info)
            except Exception as e:  # our bug: said, and the program still gets a bestmove
                self.out(f"info string the search failed: {type(e).__name__}: {e}")
                move = None
            self.held.wait()
            if job["drop"]:
                return
            if move is None and game.pos.outcome() is None:
                # "(none)" is a position with no legal move (a GUI reads mate or stalemate):
                # a player with moves left that gives none (the board left the position, a
                # stop before the person moved) says so, and answers UCI's null move.
                self.out("info string no move was made in this position: bestmove 0000 (UCI's null move)")
                self.out("bestmove 0000")
                return
            self.out("bestmove " + (coords.out(move) if move else "(none)"))

        self.thread = threading.Thread(target=work, name="uci-search", daemon=True)
        self.thread.start()


def run(inp: Iterable[str], out: Out, player: Player | None = None) -> int:
    """The UCI conversation on inp/out until quit or the end of input."""
    return UciFront(player or EnginePlayer(), out).run(inp)
