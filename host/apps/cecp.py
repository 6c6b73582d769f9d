"""`eboard xboard`: a player behind CECP, the XBoard/WinBoard protocol version 2
(engine-intf.html, XBoard 4.9).

Chess is XBoard's `normal` and Chess960 its `fischerandom` (castling said and read as
O-O and O-O-O there, as engine-intf.html has it; the king taking its own rook is read too);
every other game of the core is an engine-defined variant
of its notation.md id: on `variant lippo` the engine answers
`setup (PIECETOCHAR) 12x12+0_fairy FEN`, which gives XBoard the board's size, the
pieces' letters (each on a picture of its own) and the start position.  XBoard does not
know these pieces' moves: it must run with legality testing off (-testLegality false,
Options > Test Legality), and the engine says `Illegal move` for a move that is not.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from firmware.rules import GAMES, FenError, MoveError, new_position
from host.engine import Info, Limits
from host.record import parse as parse_san
from host.record import san

from .coords import Coords
from .player import EnginePlayer, Front, Game, Out, Player

# XBoard 4.9's piece types in the order of its -pieceToCharTable (the king last): our
# letters are put on these pictures (the pawn on the pawn, the royal on the king).
XB_TYPES = "PNBRQFEACWMOHIJGDVLSU"
VARIANT = {"chess": "normal", "chess960": "fischerandom"}  # XBoard's own names; the others are ours
# A game XBoard has a variant of its own for (with another start): our `setup` names it as
# the parent, or XBoard turns the game into "fairy", which the second engine never heard of
# and the match never starts.
PARENT = {"courier": "courier"}


def variant_name(game: str) -> str:
    return VARIANT.get(game, game)


def piece_table(game: str) -> str:
    """The -pieceToCharTable for a game: each of its letters on a picture of XBoard's."""
    g = new_position(game).game
    slots = ["."] * len(XB_TYPES)
    king = "."
    rest = []
    for t in range(1, len(g.letter)):
        c = g.letter[t]
        if t == g.royal:
            king = c
        elif t == g.pawn:
            slots[0] = c
        elif c in XB_TYPES[1:] and slots[XB_TYPES.index(c)] == ".":
            slots[XB_TYPES.index(c)] = c
        else:
            rest.append(c)
    for c in rest:
        slots[slots.index(".", 1)] = c
    white = "".join(slots) + king
    return white + white.lower()


def setup_line(game: str) -> str:
    """The `setup` command that defines the game for XBoard (None for chess)."""
    pos = new_position(game)
    lay = pos.game.layout
    parent = PARENT.get(game, "fairy")
    return f"setup ({piece_table(game)}) {lay.files}x{lay.ranks}+0_{parent} {Coords(pos, cecp=True).fen_out(pos.fen())}"


class CecpFront(Front):
    """One CECP conversation."""

    def __init__(self, player: Player, out: Out) -> None:
        self.player = player
        self.out = out
        self.game = Game("chess")
        self.coords = Coords(self.game.pos, cecp=True)
        self.force = False
        self.engine_side = "b"  # the side the engine plays (`new`: Black)
        self.post = False
        self.depth: int | None = None  # sd
        self.movetime_ms: int | None = None  # st
        self.base_ms: int | None = None  # level
        self.inc_ms = 0
        self.mps = 0
        self.own_cs: int | None = None  # time (centiseconds)
        self.their_cs: int | None = None  # otim
        self.thread: threading.Thread | None = None
        self.gen = 0  # bumped by every change of the game: a search of an older one is forgotten
        self.lock = threading.Lock()

    def internal(self, text: str) -> None:
        self.out("tellusererror " + text)

    def finish(self) -> None:
        self._stop()
        self.player.close()

    def handle(self, cmd: str, args: list[str], line: str) -> bool:
        if cmd == "quit":
            return False
        if cmd == "?":
            self.player.stop()  # move now: the search gives its best so far
            return True
        handler = getattr(self, "cmd_" + cmd, None)
        try:
            if handler is not None:
                handler(args)
            elif cmd in IGNORED:
                pass
            elif not args and len(cmd) >= 4 and cmd[0].isalpha() and cmd[1].isdigit():
                self.cmd_usermove([cmd])  # a bare move (usermove=1 asks for the word, but be kind)
            else:
                self.out(f"Error (unknown command): {cmd[:40]}")
        except (ValueError, FenError) as e:
            self.out(f"Error ({e}): {line.strip()[:60]}")
        return True

    # ---- the commands -----------------------------------------------------------------

    def cmd_xboard(self, args: list[str]) -> None:
        pass

    def cmd_protover(self, args: list[str]) -> None:
        variants = ",".join(variant_name(g) for g in GAMES)
        self.out(f'feature myname="{self.player.name}" variants="{variants}" setboard=1 usermove=1 '
                 "sigint=0 sigterm=0 ping=1 san=0 colors=0 time=1 draw=0 reuse=1 analyze=0 debug=1")
        self.out("feature done=1")

    def cmd_new(self, args: list[str]) -> None:
        self._stop()
        self._set(Game("chess"))
        self.force = False
        self.engine_side = "b"
        self.depth = None
        self.player.new_game()

    def cmd_variant(self, args: list[str]) -> None:
        name = args[0] if args else ""
        game = {v: g for g, v in VARIANT.items()}.get(name, name)
        if game not in GAMES:
            raise ValueError(f"unknown variant {name}")
        self._stop()
        self._set(Game(game))
        if game not in VARIANT:  # (XBoard knows chess and fischerandom)
            self.out(setup_line(game))
        self._said()

    def cmd_force(self, args: list[str]) -> None:
        self._stop()
        self.force = True

    def cmd_go(self, args: list[str]) -> None:
        self.force = False
        self.engine_side = self.game.pos.fen().split()[1]
        self._think()

    def cmd_playother(self, args: list[str]) -> None:
        self.force = False
        self.engine_side = "b" if self.game.pos.fen().split()[1] == "w" else "w"

    def cmd_usermove(self, args: list[str]) -> None:
        if len(args) != 1:
            raise ValueError("usermove needs one move")
        self._stop()
        pos = self.game.pos
        try:
            m = _castling_in(pos, args[0]) or self.coords.parse(pos, args[0])
        except MoveError:
            self.out(f"Illegal move: {args[0]}")
            return
        if pos.outcome() is not None:
            self.out(f"Illegal move (the game is over): {args[0]}")
            return
        self.game.push(pos.move_str(m))
        self._changed()
        if not self._ended() and not self.force and self.game.pos.fen().split()[1] == self.engine_side:
            self._think()

    def cmd_setboard(self, args: list[str]) -> None:
        if not args:  # (it was the start position, silently)
            raise ValueError("setboard needs a FEN")
        self._stop()
        g = Game(self.game.game)
        fen = self.coords.fen_into(" ".join(args))
        start = new_position(g.game).fen()
        if fen.split()[:2] == start.split()[:2] and fen.split()[2:3] == ["-"]:
            # XBoard writes no castling rights in a game it does not know (it sends the
            # first engine's `setup` position to the second so): the start keeps its own.
            fen = start
        try:
            g.set(self.game.game, fen, [])
        except (FenError, ValueError) as e:
            self.out(f"tellusererror Illegal position: {e}")
            return
        self._set(g)
        self._said()

    def cmd_undo(self, args: list[str]) -> None:
        self._stop()
        try:
            self.game.pop()
        except MoveError as e:
            raise ValueError(str(e)) from None
        self._changed()

    def cmd_remove(self, args: list[str]) -> None:
        self.cmd_undo([])
        self.cmd_undo([])

    def cmd_ping(self, args: list[str]) -> None:
        self.out("pong " + (args[0] if args else ""))

    def cmd_result(self, args: list[str]) -> None:
        self._stop()
        self.force = True

    def cmd_post(self, args: list[str]) -> None:
        self.post = True

    def cmd_nopost(self, args: list[str]) -> None:
        self.post = False

    def cmd_sd(self, args: list[str]) -> None:
        self.depth = _number(args, "sd DEPTH")

    def cmd_st(self, args: list[str]) -> None:
        # XBoard's clock counts the move's way through the pipes too: a tenth kept back
        self.movetime_ms = max(50, _number(args, "st SECONDS", low=1) * 900 - 50)
        self.base_ms = None

    def cmd_level(self, args: list[str]) -> None:
        if len(args) != 3:
            raise ValueError("level MPS BASE INC")
        mins, _, secs = args[1].partition(":")
        try:
            self.mps = int(args[0])
            self.base_ms = int((int(mins) * 60 + (int(secs) if secs else 0)) * 1000)
            self.inc_ms = int(float(args[2]) * 1000)
        except ValueError:
            raise ValueError("level MPS BASE INC: numbers (BASE in minutes, or min:sec)") from None
        self.movetime_ms = None

    def cmd_time(self, args: list[str]) -> None:
        self.own_cs = _number(args, "time CENTISECONDS", low=-10**9)

    def cmd_otim(self, args: list[str]) -> None:
        self.their_cs = _number(args, "otim CENTISECONDS", low=-10**9)

    # ---- thinking ---------------------------------------------------------------------

    def _limits(self) -> Limits:
        if self.movetime_ms is not None:
            return Limits(depth=self.depth, movetime_ms=self.movetime_ms)
        if self.own_cs is not None:
            own, their = self.own_cs * 10, (self.their_cs if self.their_cs is not None else self.own_cs) * 10
            white = self.game.pos.fen().split()[1] == "w"
            togo = None
            if self.mps:
                done = len(self.game.moves) // 2
                togo = self.mps - done % self.mps
            return Limits(depth=self.depth, white_ms=own if white else their, black_ms=their if white else own,
                          white_inc_ms=self.inc_ms, black_inc_ms=self.inc_ms, moves_to_go=togo)
        if self.depth is not None:
            return Limits(depth=self.depth)
        return Limits(movetime_ms=1000)

    def _think(self) -> None:
        if self._ended():
            return
        if isinstance(self.player, EnginePlayer):
            self.player.ready()
        game, gen, coords, limits = self.game, self.gen, self.coords, self._limits()

        def on_info(info: Info) -> None:
            if self.post:
                pv = " ".join(coords.out(m) for m in info.pv)
                self.out(f"{info.depth} {info.score} {info.time_ms // 10} {info.nodes} {pv}")

        def work() -> None:
            try:
                move = self.player.think(game, limits, on_info)
            except Exception as e:  # our bug: said in words
                self.out(f"tellusererror the engine failed: {type(e).__name__}: {e}")
                return
            with self.lock:
                if gen != self.gen or move is None:
                    return
                said = _castling_out(game.pos, move) or coords.out(move)
                game.push(move)
                self.gen += 1
                self.out("move " + said)
                self._ended()

        self.thread = threading.Thread(target=work, name="cecp-search", daemon=True)
        self.thread.start()

    def _stop(self) -> None:
        """A search under way is stopped and its move forgotten."""
        with self.lock:
            self.gen += 1
        if self.thread is not None:
            self.player.stop()
            self.thread.join()
            self.thread = None

    def _set(self, game: Game) -> None:
        self.game = game
        self.coords = Coords(game.pos, cecp=True)
        self._changed()

    def _changed(self) -> None:
        with self.lock:
            self.gen += 1
        said = self.player.position(self.game)
        if said:
            self.out("telluser " + said)

    def _said(self) -> None:
        pass

    def _ended(self) -> bool:
        """The game over: its result said the CECP way (RESULT {why})."""
        o = self.game.pos.outcome()
        if o is None:
            return False
        self.out(f"{o.result()} {{{o.reason.replace('-', ' ')}}}")
        return True


IGNORED = {"accepted", "rejected", "random", "easy", "hard", "computer", "name", "rating", "ics", "draw",
           "white", "black", "hint", "bk", "nopost", "exit", ".", "option", "memory", "cores", "egtpath"}


def _castling_in(pos, text: str) -> int:  # type: ignore[no-untyped-def]
    """fischerandom's castling as XBoard sends it (O-O, O-O-O) -> the move; 0 otherwise
    (the king taking its own rook, our own string, is read as any move)."""
    if pos.game.id == "chess960" and text.upper().replace("0", "O") in ("O-O", "O-O-O"):
        return parse_san(pos, text)
    return 0


def _castling_out(pos, move: str) -> str:  # type: ignore[no-untyped-def]
    """Our chess960 castling (the king taking its rook) as XBoard's fischerandom writes
    it (O-O, O-O-O; engine-intf.html); "" for any other move."""
    if pos.game.id != "chess960":
        return ""
    m = pos.parse_move(move)
    text = san(pos, m, marks=False)
    return text if text.startswith("O-O") else ""


def _number(args: list[str], usage: str, low: int = 0) -> int:
    if len(args) != 1 or not args[0].lstrip("-").isdigit() or int(args[0]) < low:
        raise ValueError(usage)
    return int(args[0])


def run(inp: Iterable[str], out: Out, player: Player | None = None) -> int:
    """The CECP conversation on inp/out until quit or the end of input."""
    return CecpFront(player or EnginePlayer(), out).run(inp)
