"""The `eboard` command.

    eboard moves GAME [--fen FEN | --start N]          every legal move, one a line
    eboard perft GAME DEPTH [--fen FEN | --start N]    leaf count of the move tree, last line
    eboard bestmove GAME [--fen FEN] [--movetime MS | --depth N] [--engine ours|uci|uci:PATH] [--level N]
                                           the engine's move on one line, info lines on stderr
    eboard umpire GAME [--fen FEN]         Kriegspiel umpire: attempts on stdin, JSON out
    eboard kriegspiel (--white PORT --black PORT | --sim)
                                           Kriegspiel on two boards, the host as umpire
    eboard sim [--game GAME]               a virtual board: its port on the first line
    eboard web [PORT] [--host HOST]        the browser view (--web [PORT] on play, serve,
                                           kriegspiel serves it beside them)
    eboard replay-sensors FILE --game GAME [--fen FEN] [--pico [--uf2 UF2]]
                                           a sensor script through a virtual board
    eboard tag ID NAME VALUE               set a game's White, Black, Event, Site, Date,
                                           Round or Board
    eboard delete ID                       remove a game from the archive
    eboard serve (--port PORT ... | --sim N [--game GAME])
                                           follow boards (or N virtual ones) and archive
    eboard lichess (--port PORT | --sim | --pico) [--seek MIN+INC | --accept ID | --game ID]
                                           a lichess game on the board (LICHESS_TOKEN)
    eboard emulate chesslink (--port PORT | --sim | --pico)
                                           the board as a Millennium ChessLink board on a
                                           pseudo-terminal (its path the first line)

Errors (unknown game, malformed FEN, bad depth) are one line on stderr and exit 2;
--debug shows the traceback instead.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from firmware.rules import FenError, GAMES, new_position
from host.web import add_arguments as web_arguments
from host.web import port as web_port


TAG_OPTIONS = ("white", "black", "event", "site", "date", "round", "board")  # play's PGN tag options
MAX_DEPTH = 99  # deeper than any count that ends; deeper still would exhaust Python's stack


class CliError(Exception):
    """An error a person can act on: printed as one line, exit status 2."""


def _position(game: str, fen: str | None):  # type: ignore[no-untyped-def]
    if game not in GAMES:
        raise CliError(f"unknown game {game!r}; games: {', '.join(GAMES)}")
    if fen is not None and not fen.strip():
        raise CliError(f"bad FEN for {game}: it is empty")
    try:
        return new_position(game, fen)
    except FenError as e:
        raise CliError(f"bad FEN for {game}: {e}") from None


def _fen_or_start(args: argparse.Namespace) -> str | None:
    """--fen, or chess960's --start N as its FEN (None: the game's start)."""
    if args.start is None:
        return args.fen  # type: ignore[no-any-return]
    if args.fen is not None:
        raise CliError("give --fen or --start, not both")
    if args.game != "chess960":
        what = f"{args.game} has one start position" if args.game else "give --game chess960"
        raise CliError(f"--start numbers the 960 starts of chess960; {what}")
    from firmware.rules.games.chess960 import start_fen

    try:
        return start_fen(int(args.start))
    except ValueError:
        raise CliError(f"bad --start {args.start!r}: a whole number from 0 to 959 (518: the usual one)") from None


def _start(game: str | None, fen: str | None) -> str | None:
    """Check a game and FEN given on the command line before any board hears of them; the
    FEN as the board is sent it (one line: host.session.check)."""
    from host.session import check

    if game is None:
        return fen
    try:
        return check(game, fen)
    except ValueError as e:
        raise CliError(str(e)) from None


def _options_moves(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="game id: " + ", ".join(GAMES))
    p.add_argument("--fen", help="position (default: the start position)")
    p.add_argument("--start", metavar="N", help=START_HELP)


def cmd_moves(args: argparse.Namespace) -> int:
    pos = _position(args.game, _fen_or_start(args))
    out = [pos.move_str(m) for m in pos.legal_moves()]
    sys.stdout.write("".join(s + "\n" for s in out))
    return 0


def _options_perft(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("depth", help="plies deep: 0 to 99 (0: the position itself, 1)")
    p.add_argument("--fen", help=FEN_HELP)
    p.add_argument("--start", metavar="N", help=START_HELP)
    p.add_argument("--divide", action="store_true", help="also print the count below each move")


def cmd_perft(args: argparse.Namespace) -> int:
    try:
        depth = int(args.depth)
    except ValueError:
        raise CliError(f"bad depth {args.depth!r}: a whole number from 0 to {MAX_DEPTH}") from None
    if not 0 <= depth <= MAX_DEPTH:
        raise CliError(f"bad depth {depth}: a whole number from 0 to {MAX_DEPTH}")
    pos = _position(args.game, _fen_or_start(args))
    if args.divide and depth > 0:
        for m in pos.legal_moves():
            name = pos.move_str(m)
            pos.push(m)
            print(name, pos.perft(depth - 1))
            pos.pop()
    print(pos.perft(depth))
    return 0


def _whole(text: str, what: str, low: int) -> int:
    try:
        n = int(text)
    except ValueError:
        raise CliError(f"bad {what} {text!r}: a whole number from {low} up") from None
    if n < low:
        raise CliError(f"bad {what} {n}: a whole number from {low} up")
    return n


def _options_bestmove(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="game id: " + ", ".join(GAMES))
    p.add_argument("--fen", help="position (default: the start position)")
    p.add_argument("--movetime", metavar="MS", help="think this many milliseconds (default: 1000)")
    p.add_argument("--depth", metavar="N", help="search this many plies deep instead")
    p.add_argument("--engine", default="ours",
                   help="ours (default), uci (Stockfish or Fairy-Stockfish on PATH) or uci:PATH; "
                        "without a UCI engine for the game ours plays and says so")
    p.add_argument("--level", metavar="N", help="1 (beginner: errs on purpose) to 8 (ten seconds a move)")


def cmd_bestmove(args: argparse.Namespace) -> int:
    from host import engine

    pos = _position(args.game, args.fen)
    if args.movetime is not None and args.depth is not None:
        raise CliError("give --movetime or --depth, not both")
    movetime = _whole(args.movetime, "movetime", 1) if args.movetime is not None else None
    depth = _whole(args.depth, "depth", 1) if args.depth is not None else None
    lvl = None
    if args.level is not None:
        try:
            lvl = engine.level(_whole(args.level, "level", 1))
        except ValueError as e:
            raise CliError(str(e)) from None
    spec = args.engine
    why = engine.engine_problem(spec)
    if why is not None:
        raise CliError(why)
    if not pos.has_legal_move():
        o = pos.outcome()
        over = f" ({o.reason.replace('-', ' ')}, {o.result()})" if o is not None else ""
        raise CliError(f"no move to choose: the game is over in this position{over}")
    limits = engine.Limits(depth=depth, movetime_ms=movetime)
    reply = engine.choose(pos, limits, spec, lvl)
    print(reply.move_str, flush=True)
    if reply.note:
        print("info string " + reply.note, file=sys.stderr)
    for info in reply.infos:
        print(info.line(), file=sys.stderr)
    return 0


def _options_umpire(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="chess, courier, gardner or lippo")
    p.add_argument("--fen", help="the true position (default: the start position)")
    p.add_argument("--rules", choices=("seed", "icc"), default="seed",
                   help="seed (default) or icc: ICC wild 16's announcements; icc prints the first turn's pawn tries first")


def cmd_umpire(args: argparse.Namespace) -> int:
    import json

    from firmware.rules.kriegspiel import Umpire

    pos = _position(args.game, args.fen)
    try:
        ump = Umpire(pos, rules=args.rules)
    except ValueError as e:
        raise CliError(str(e)) from None
    if args.rules == "icc":  # the pawn tries of the first turn come before any attempt
        print(json.dumps(ump.start(fresh=False), ensure_ascii=False), flush=True)
    for raw in sys.stdin:
        token = raw.strip()
        if not token or token.startswith("#"):
            continue
        out = ump.ask() if token == "ask" else ump.attempt(token)
        print(json.dumps(out, ensure_ascii=False), flush=True)
    return 0


def _options_kriegspiel(p: argparse.ArgumentParser) -> None:
    p.add_argument("--white", help="White's board's port")
    p.add_argument("--black", help="Black's board's port")
    p.add_argument("--sim", action="store_true", help="two virtual boards; typed moves are made by virtual hands")
    p.add_argument("--game", help="chess (default), courier, gardner or lippo")
    p.add_argument("--fen", help="the true start position (default: chess's screened battle setup; another game's start)")
    p.add_argument("--standard", action="store_true", help="start from the usual array, castling allowed (ICC's rule)")
    p.add_argument("--seed", type=int, help="--sim: the virtual hands' random arrays (default: new ones each run)")
    p.add_argument("--archive", help=ARCHIVE_HELP)
    p.add_argument("--speak", action="store_true", help="say the announcements aloud (espeak-ng; Russian unless --lang en)")
    speech_arguments(p, "ru")
    p.add_argument("--white-view", metavar="PATH",
                   help="where White's own lines go (attempts, refusals): a file, or White's own terminal (/dev/pts/N)")
    p.add_argument("--black-view", metavar="PATH", help="the same for Black")
    p.add_argument("--new", action="store_true", help="abandon an unfinished game on these boards and start another")
    p.add_argument("--json", action="store_true", help="print the umpire's record at the end as JSON (default: a scoresheet)")
    p.add_argument("--resume", metavar="ID", help="--sim: go on with an adjourned Kriegspiel game of the archive")
    web_arguments(p)


def cmd_kriegspiel(args: argparse.Namespace) -> int:
    from functools import partial

    from host.record import ArchiveError
    from host.commands.kriegspiel import run
    from host.link import BoardError, BridgeTimeout, LinkError
    from host.link import VirtualBoardError
    from host.session import HomeError
    from host.web import kriegspiel_feed

    if args.resume is not None and not args.sim:
        raise CliError("--resume goes on with a game adjourned on virtual boards (--sim); on real boards the same "
                       "command run again resumes the game they hold")
    if args.resume is not None and (args.fen or args.standard or args.game or args.new):
        raise CliError("--resume takes the game, its start and its record from the archive: "
                       "give no --game, --fen, --standard or --new with it")
    args.game = args.game or "chess"
    if not args.sim and not (args.white and args.black):
        raise CliError("give --white PORT and --black PORT, or --sim for two virtual boards")
    if not args.sim:
        _distinct_ports([args.white, args.black])
    try:
        from firmware.rules.kriegspiel import GAMES as KRIEG_GAMES

        if args.game not in KRIEG_GAMES:
            raise CliError(f"Kriegspiel is played in {', '.join(KRIEG_GAMES)}, not {args.game!r}")
        args.fen = _start(args.game, args.fen)
        fen = args.fen or ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" if args.standard else None)
        with _web(args) as server:
            feed = None if server is None else partial(kriegspiel_feed, server)
            rc = run(args.white, args.black, args.sim, fen, args.archive, args.speak, args.seed, args.game,
                     lang=args.lang or "ru", print_words=args.words,
                     white_view=args.white_view, black_view=args.black_view, new=args.new, web=feed,
                     json_record=args.json, resume=args.resume)
            if server is not None:  # the record stays readable on the pages until the end of input
                print("web: the pages stay up until the end of input (Ctrl-D) or Ctrl-C", flush=True)
                try:
                    sys.stdin.read()
                except KeyboardInterrupt:
                    pass
            return rc
    except (LinkError, VirtualBoardError, ArchiveError, BridgeTimeout, BoardError, HomeError) as e:
        raise CliError(str(e)) from None


def _options_sim(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", help="start this game, its pieces set up")
    p.add_argument("--fen", help="--game: " + FEN_HELP)
    p.add_argument("--dir", help="the virtual board's flash (default: a new temporary folder)")
    p.add_argument("--fresh", action="store_true", help="run what is on the board's flash, not the source tree")


def cmd_sim(args: argparse.Namespace) -> int:
    import time

    from host.link import BoardError, BoardLink, BridgeTimeout, LinkError
    from host.link import ROOT, TemporaryBoard, VirtualBoard, VirtualBoardError

    args.fen = _start(args.game, args.fen)
    if args.fen and not args.game:
        raise CliError("--fen needs --game GAME: the game the position belongs to")
    board_dir = args.dir or "a temporary folder"
    try:
        # --fresh: a board with only its own filesystem (what flash.sh put there);
        # otherwise the firmware runs straight from this source tree.  A temporary
        # folder is removed when the board stops.
        source = None if args.fresh else ROOT
        vb = (VirtualBoard(args.dir, source=source, realtime=True) if args.dir
              else TemporaryBoard(prefix="eboard-sim-", source=source, realtime=True))
        port = vb.start()
    except VirtualBoardError as e:
        raise CliError(str(e)) from None
    except OSError as e:
        raise CliError(f"cannot use {board_dir} for the virtual board: {e.strerror}") from None
    try:
        if args.game and not args.fresh:
            try:
                with BoardLink(port) as link:
                    link.hello()
                    link.request("new " + args.game + (" " + args.fen if args.fen else ""))
                    link.request("sim setup")  # the virtual hands set the pieces up
            except (LinkError, BridgeTimeout, BoardError) as e:
                raise CliError(f"virtual board: {e}") from None
        print(port, flush=True)  # only once the board is ready and free for another program
        while vb.alive() or vb.restarts:
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    except (BoardError, LinkError) as e:
        raise CliError(f"virtual board: {e}") from None
    finally:
        vb.stop()
    return 0


def _options_replay_sensors(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="one event a line: lift SQ, place SQ, wait MS, # comment")
    p.add_argument("--game", required=True, help=GAME_HELP)
    p.add_argument("--fen", help=FEN_HELP)
    p.add_argument("--pico", action="store_true", help="on an emulated Pico (boards/emu) instead of the virtual board")
    p.add_argument("--uf2", help="--pico: a MicroPython image with the firmware in it (default: stock + flash.sh)")


def cmd_replay_sensors(args: argparse.Namespace) -> int:
    import tempfile

    from host.link import BoardError, BoardLink, BridgeTimeout, LinkError, Move, Undo, WordsError, read_event, read_state
    from host.link import VirtualBoardError

    _check_uf2(args)
    try:
        lines = open(args.file, encoding="utf-8").read().splitlines()
    except OSError as e:
        raise CliError(f"cannot read {args.file}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise CliError(f"{args.file} is not a sensor script (text: lift SQ, place SQ, wait MS)") from None
    args.fen = _start(args.game, args.fen)
    steps: list[tuple[int, str]] = []
    for i, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        if words[0] in ("lift", "place") and len(words) == 2:
            if not _sensor_square(args.game, words[1]):
                raise CliError(f"{args.file}:{i}: {line}: {words[1]} is not a square of {args.game}")
            steps.append((i, f"sim {words[0]} {words[1]}"))
        elif words[0] == "wait" and len(words) == 2 and words[1].isdigit():
            steps.append((i, f"sim wait {words[1]}"))
        else:
            raise CliError(f"{args.file}:{i}: not a sensor event: {raw.strip()!r} (lift SQ, place SQ, wait MS)")
    made = [0]  # the moves the board said

    def on_event(seq: int, text: str) -> None:
        try:
            said = read_event(text)
        except WordsError:
            return
        if isinstance(said, Move):
            made[0] += 1
            print(said.move, flush=True)
        elif isinstance(said, Undo):
            print("undo " + said.move, flush=True)

    with tempfile.TemporaryDirectory(prefix="eboard-replay-") as tmp:
        try:
            vb = _board(args, tmp, realtime=False)
        except VirtualBoardError as e:
            raise CliError(str(e)) from None
        try:
            with BoardLink(vb.port, timeout_s=30, on_event=on_event) as link:
                link.hello(timeout_s=20)
                request = _hands(args, vb, link.request)
                try:
                    request("new " + args.game + (" " + args.fen if args.fen else ""))
                except BoardError as e:
                    raise CliError(f"bad FEN for {args.game}: {e.detail}") from None
                request("sim setup")
                request("sim wait 100")
                watch = _Calm(made)
                for i, step in steps:
                    try:
                        request(step)
                    except BoardError as e:  # the board's words, not its code (a man not there)
                        raise CliError(f"{args.file}:{i}: {step[4:]}: {(e.detail or e.code).split(': ')[-1]}") from None
                    watch.step(i, step, request)
                request("sim wait 5000")  # let a last move settle
                watch.step(0, "sim wait 5000", request)
                state = read_state(request("state"))
                print("fen " + state.fen)
                if state.state != "idle":  # e.g. correcting: the men stand otherwise than the position
                    print(f"the board ends {state.state}, not idle: the men do not stand as this position says"
                          + (watch.why(args.file) or (" (events with no wait between them fall in the same scan)"
                                                      if watch.same_scan else " (a move left unfinished, or men misplaced)")),
                          file=sys.stderr)
        except (LinkError, BridgeTimeout, WordsError) as e:
            raise CliError(f"virtual board: {e}") from None
        finally:
            vb.stop()
    return 0


class _Calm:
    """replay-sensors' watch on the board's calm (issue #34, 7): a move complete on the board
    is made only after COMMIT_MS with no event (the player may still change it); a script
    that touches the board sooner, with nothing after it that explains a move, leaves that
    move unmade.  After each wait the board's state is asked: a move pending, then another
    event before its calm, then no move said: why() names both lines."""

    def __init__(self, made: list[int]) -> None:
        self.made = made  # the count of moves the board said (replay-sensors' on_event)
        self.pending: tuple[int, int] | None = None  # (the line that completed a move, moves said then)
        self.touched = 0  # the first event after it, before its calm was over
        self.last = 0  # the script's last lift or place
        self.dropped: tuple[int, int] | None = None
        self.before = -1  # the last lift or place with no wait after it yet
        self.same_scan = False  # two events with no wait between them (one scan reads both)

    def step(self, line: int, step: str, request) -> None:  # type: ignore[no-untyped-def]
        from host.link import read_state

        if not step.startswith("sim wait"):
            self.same_scan = self.same_scan or self.last == self.before
            self.last = self.before = line
            if self.pending is not None and not self.touched:
                self.touched = line
            return
        self.before = -1
        state = read_state(request("state")).state
        if self.pending is not None and state != "pending" and self.touched and self.made[0] == self.pending[1]:
            self.dropped = (self.pending[0], self.touched)
        if state == "pending" and self.pending is None:
            self.pending, self.touched = (self.last, self.made[0]), 0
        elif state != "pending":
            self.pending = None

    def why(self, path: str) -> str:
        from firmware.tracker import COMMIT_MS

        if self.dropped is None:
            return ""
        done, touched = self.dropped
        return (f": {path}:{done} completed a move, but {path}:{touched} touched the board before its calm "
                f"({COMMIT_MS} ms without an event) was over, and no move explains what followed: the board never "
                f"made that move (a wait of {COMMIT_MS + 100} or more after a move lets it stand)")


def _sensor_square(game: str, name: str) -> bool:
    """A square a sensor script may name: the game's, "off" (beside the board) or @P (a
    physical square, boards/sim.py)."""
    from firmware.squares import Geometry

    if name == "off" or name[:1] == "@" and name[1:].isdigit():
        return True
    try:
        Geometry(new_position(game).game.layout).parse(name)
    except ValueError:
        return False
    return True


def _board(args: argparse.Namespace, tmp: str, realtime: bool):
    """A started virtual board, or with --pico an emulated Pico (VirtualBoardError if
    neither can run)."""
    from pathlib import Path

    from host.link import VirtualBoard, VirtualBoardError

    if not getattr(args, "pico", False):
        vb = VirtualBoard(tmp + "/board", realtime=realtime)
        vb.start()
        return vb
    from host.link import PicoError, emulated_board
    try:
        return emulated_board(Path(tmp), Path(args.uf2) if args.uf2 else None)
    except PicoError as e:
        raise VirtualBoardError(f"emulated Pico: {e}") from None


def _check_uf2(args: argparse.Namespace) -> None:
    """--uf2 goes with --pico, and names a file that is there."""
    if not args.uf2:
        return
    if not args.pico:
        raise CliError("--uf2 is the emulated Pico's image: it needs --pico")
    if not os.path.isfile(args.uf2) or not os.access(args.uf2, os.R_OK):
        raise CliError(f"cannot read the image {args.uf2}: not a readable file")


def _hands(args: argparse.Namespace, board, request):
    """The `sim` hand commands: the virtual board's own, or the emulated Pico's hands."""
    if not getattr(args, "pico", False):
        return request
    from host.link import SimCommands

    return SimCommands(board, request)


def _options_play(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", help="the board's serial port")
    p.add_argument("--sim", action="store_true", help="start a virtual board and play on it")
    p.add_argument("--pico", action="store_true", help="start an emulated Pico (boards/emu) and play on it")
    p.add_argument("--start", metavar="N", help=START_HELP)
    p.add_argument("--uf2", help="--pico: a MicroPython image with the firmware in it (default: stock + flash.sh)")
    p.add_argument("--game", help="start this game (default: go on with the board's game; lippo on --sim)")
    p.add_argument("--fen", help="--game: " + FEN_HELP)
    p.add_argument("--battle", action="store_true", help="chess from a screened free setup, man by man (docs/rules/battle-setup.md)")
    p.add_argument("--seed", type=int, help="--battle on --sim/--pico: the virtual hands' random arrays (default: new ones each run)")
    p.add_argument("--archive", help=ARCHIVE_HELP)
    p.add_argument("--resume", metavar="ID", help="go on with an adjourned game of the archive (a game id, or last)")
    p.add_argument("--engine", nargs="?", const="ours", metavar="LEVEL|ours|uci|uci:PATH",
                   help="play against the computer: our engine (a level 1-8), or a UCI engine for chess, courier, gardner")
    p.add_argument("--side", choices=("white", "black"), help="--engine: the side you play (default white)")
    p.add_argument("--level", help="--engine: the level, 1 (beginner) to 8")
    p.add_argument("--engine-time", metavar="S", help="--engine: seconds a move for the computer (default: its level's, else 1); on a --clock, a share "
                        "of its time left plus the increment, never more")
    p.add_argument("--clock", metavar="MIN+INC", help="a clock for both players, started by the first move: minutes each, "
                   "seconds added a move (5+3, Fischer); 5d3: a simple delay of 3 s a move; 5b3: Bronstein's "
                   "(a move's time given back, up to 3 s); --resume goes on with the times it had")
    for tag in TAG_OPTIONS:
        p.add_argument("--" + tag, help=f"the {tag.capitalize()} of the games played (PGN tag; later: eboard tag)")
    p.add_argument("--round-file", metavar="FILE", help="the names of --board N's players from a round's pairings "
                   "(CSV: board,white,black, as serve's), with --round N")
    p.add_argument("--speak", action="store_true", help="say every move aloud, the computer's too, and the end "
                   "(espeak-ng)")
    speech_arguments(p, "en")
    web_arguments(p)


def cmd_play(args: argparse.Namespace) -> int:
    from pathlib import Path

    from host.commands import play
    from host.session import PlayError
    from host.record import ArchiveError
    from host.link import BoardError, BridgeTimeout, LinkError
    from host.link import VirtualBoardError

    if not args.sim and not args.port and not args.pico:
        raise CliError("play needs --port PORT (a board on USB), --sim (a virtual board) or --pico (an emulated one)")
    _check_uf2(args)
    if args.start is not None:
        args.fen = _fen_or_start(args)  # chess960's start N, as its FEN
    if args.resume and (args.game or args.fen or args.battle):
        raise CliError("--resume goes on with an archived game: it takes no --game, --fen or --battle")
    if args.fen and args.battle:
        raise CliError("--battle starts from the screened set-up: it takes no --fen")
    if args.battle and args.game not in (None, "chess"):  # (it was ignored: a chess game began)
        raise CliError(f"--battle is chess from a screened free set-up: it takes no --game {args.game}")
    from host.record import ArchiveError as TagError, own_tag, pgn_date, tag_value_ok

    for t in TAG_OPTIONS:
        if getattr(args, t) and not tag_value_ok(getattr(args, t)):
            raise CliError(f"--{t} is one line of text, without control characters: not {getattr(args, t)!r}")
    for t in ("round", "board"):
        try:
            own_tag(t, getattr(args, t) or "")
        except TagError as e:
            raise CliError(f"--{t}: {e}") from None
    if args.date:
        if not pgn_date(args.date):
            raise CliError(f"--date is YYYY.MM.DD, with ?? for what is not known (2026.11.22), not {args.date!r}")
    pairs = _round_file(args)
    if pairs is not None:  # the players' names of the board, unless named here
        paired = pairs[int(args.board)]
        args.white, args.black = args.white or paired[0], args.black or paired[1]
    if args.fen and not args.game and not args.sim:
        raise CliError("--fen needs --game GAME: the game the position belongs to")
    args.fen = _start(args.game or ("lippo" if args.sim else None), args.fen)
    opponent, control = _opponent(args)
    try:
        tags = {t: getattr(args, t) for t in TAG_OPTIONS if getattr(args, t)}
        pico = (Path(args.uf2) if args.uf2 else True) if args.pico else None
        speaker = _speaker(args, "en")
        with _web(args) as server:
            return play.run(args.port, args.sim, args.game, args.fen, args.archive, battle=args.battle,
                            tags=tags, web=server is not None, pico=pico, resume=args.resume,
                            opponent=opponent, control=control, speaker=speaker, seed=args.seed)
    except (PlayError, LinkError, BridgeTimeout, BoardError, ArchiveError, VirtualBoardError) as e:
        raise CliError(f"board: {e}" if isinstance(e, (BridgeTimeout, BoardError)) else str(e)) from None


def _options_lichess(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", help="the board's serial port")
    p.add_argument("--sim", action="store_true", help="a virtual board (its hands make your opponent's moves)")
    p.add_argument("--pico", action="store_true", help="an emulated Pico (boards/emu)")
    p.add_argument("--uf2", help="--pico: a MicroPython image with the firmware in it (default: stock + flash.sh)")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--seek", metavar="MIN+INC", help="seek a game with this clock (10+5; lichess's Board API takes "
                     "rapid and slower, and correspondence)")
    how.add_argument("--accept", metavar="ID|any", help="accept the challenge ID, or (any) the first that comes")
    how.add_argument("--game", metavar="ID", help="join your game ID, under way (the board starts from its position)")
    p.add_argument("--rated", action="store_true", help="--seek: a rated game (default casual)")
    p.add_argument("--color", choices=("white", "black", "random"), default="random", help="--seek: your side")
    p.add_argument("--server", default="https://lichess.org", metavar="URL",
                   help="the lichess server (default https://lichess.org)")
    p.add_argument("--token-file", metavar="FILE", help="the API token (scope board:play) in a file of mode 600; "
                   "else the environment's LICHESS_TOKEN")
    p.add_argument("--archive", help=ARCHIVE_HELP)
    p.add_argument("--speak", action="store_true", help="say every move aloud, your opponent's too, and the end (espeak-ng)")
    speech_arguments(p, "en")
    web_arguments(p)


def cmd_lichess(args: argparse.Namespace) -> int:
    """Without --seek, --accept or --game: the first game of yours that starts (on lichess.org,
    say) or is under way is played on the board."""
    import re
    from pathlib import Path

    from host.commands import lichess
    from host.link import BoardError, BridgeTimeout, LinkError, VirtualBoardError
    from host.online import Api, ApiError, Offline, OnlineError, TokenError, load_token
    from host.record import ArchiveError
    from host.session import PlayError

    if [bool(args.sim), bool(args.port), bool(args.pico)].count(True) != 1:
        raise CliError("lichess needs one board: --port PORT (a board on USB), --sim (a virtual board) or --pico (an emulated one)")
    _check_uf2(args)
    seek = None
    if args.seek is not None:
        m = re.fullmatch(r"(\d{1,3}(?:\.\d+)?)\+(\d{1,3})", args.seek)
        if m is None:
            raise CliError(f"--seek is MIN+INC, minutes each and seconds added a move (10+5), not {args.seek!r}")
        seek = {"time": m.group(1), "increment": m.group(2), "rated": "true" if args.rated else "false",
                "color": args.color, "variant": "standard"}
    elif args.rated or args.color != "random":
        raise CliError("--rated and --color go with --seek")
    for what, value in (("--game", args.game), ("--accept", args.accept)):
        if value is not None and not (value.isascii() and value.isalnum() and len(value) <= 12):
            raise CliError(f"{what}: a lichess id is letters and digits (the end of its link), not {value!r}")
    try:
        token = load_token(args.token_file)
        api = Api(args.server, token)
    except (TokenError, ValueError) as e:
        raise CliError(str(e)) from None
    try:
        me = api.account()
    except (ApiError, Offline) as e:
        raise CliError(f"lichess: {e}") from None
    print(f"lichess: signed in as {me.get('username', me['id'])} on {args.server}", flush=True)
    try:
        pico = (Path(args.uf2) if args.uf2 else True) if args.pico else None
        speaker = _speaker(args, "en")
        with _web(args) as server:
            return lichess.run(api, me["id"], args.port, args.sim, args.archive, pico=pico, game=args.game, seek=seek,
                               accept=args.accept, web=server is not None, speaker=speaker)
    except (OnlineError, PlayError, LinkError, BridgeTimeout, BoardError, ArchiveError, VirtualBoardError) as e:
        raise CliError(f"board: {e}" if isinstance(e, (BridgeTimeout, BoardError)) else str(e)) from None


def _speaker(args: argparse.Namespace, lang: str):  # type: ignore[no-untyped-def]
    """--speak, --words and --lang (default lang): a host.record.Speaker, or None; CliError
    in words where espeak-ng is missing."""
    from host.record import Speaker

    if args.lang is not None and not (args.speak or args.words):
        raise CliError("--lang is the language of --speak or --words: give one of them")
    if args.speak and args.words:
        raise CliError("--speak says the moves aloud, --words prints them: give one")
    if not (args.speak or args.words):
        return None
    try:
        return Speaker(args.lang or lang, aloud=args.speak, out=sys.stdout)
    except FileNotFoundError as e:
        raise CliError(f"{e} (or --words prints the same sentences)") from None


def speech_arguments(p: argparse.ArgumentParser, lang: str) -> None:
    """--words and --lang of the commands that say the moves (issue #37; --speak beside them)."""
    p.add_argument("--words", action="store_true", help="print what --speak says, one sentence a line (for a "
                   "screen reader)")
    p.add_argument("--lang", choices=("en", "ru"), help=f"the language of --speak and --words (default {lang})")


def _opponent(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """play's --engine, --side, --level, --engine-time and --clock, checked: (Opponent or
    None, the clock's control or None); CliError in words."""
    from host.record import Clock, ClockError
    from host.session import Opponent, OpponentError

    if args.engine is None and (args.side or args.level is not None or args.engine_time is not None):
        raise CliError("--side, --level and --engine-time go with --engine (play against the computer)")
    if args.clock is not None:
        try:
            Clock.parse(args.clock)
        except ClockError as e:
            raise CliError(f"--clock: {e}") from None
    if args.engine is None:
        return None, args.clock
    movetime = None
    if args.engine_time is not None:
        try:
            seconds = float(args.engine_time)
        except ValueError:
            seconds = -1.0
        if not 0.01 <= seconds <= 3600:  # (nan fails both)
            raise CliError(f"--engine-time is seconds a move, from 0.01 to 3600: not {args.engine_time!r}")
        movetime = round(seconds * 1000)
    level_no = _whole(args.level, "level", 1) if args.level is not None else None
    side = args.side or "white"
    try:
        opp = Opponent.parse(args.engine, "black" if side == "white" else "white", level_no, movetime)
    except OpponentError as e:
        raise CliError(str(e)) from None
    return opp, args.clock


def _archive(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The archive of games, show, export, tag and delete: one that is not there is not made."""
    from host.record import Archive, ArchiveError

    try:
        return Archive(args.archive, create=False)
    except ArchiveError as e:
        raise CliError(str(e)) from None


def _options_games(p: argparse.ArgumentParser) -> None:
    p.add_argument("--archive", help=ARCHIVE_HELP)


def cmd_games(args: argparse.Namespace) -> int:
    from host.record import result_text

    a = _archive(args)
    rows = a.games()
    if not rows:
        print(f"no games yet in {a.name}")
    krieg = a.kriegspiel_ids()
    for g in rows:
        n = len(a.moves(g.id))
        state = result_text(g)
        kind = "Kriegspiel" if g.id in krieg else ""
        if a.sealed(g):
            state += ", sealed"
        players = "" if g.white == g.black == "?" else f"  {g.white} - {g.black}"  # tagged (eboard tag)
        print(f"{g.id:>4}  {g.started[:16].replace('T', ' ')}  {g.game:<10} {kind:<10} {n:>4} {'ply  ' if n == 1 else 'plies'}  {state}  [{g.board}]{players}")
    return 0


def _get_game(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from host.record import ArchiveError

    a = _archive(args)
    try:
        return a, a.game(args.id)
    except ArchiveError as e:
        raise CliError(str(e)) from None


def _unsealed(a, g) -> None:  # type: ignore[no-untyped-def]
    """CliError for a Kriegspiel game not over: nobody may see its moves yet."""
    if a.sealed(g):
        raise CliError(f"game {g.id} is a Kriegspiel game not over ({g.reason or 'in progress'}): "
                       "its moves are sealed until it ends")


def _options_show(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", help="a game id, or last")
    p.add_argument("--delay", type=float, default=0.0, help="seconds between moves")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--final", action="store_true", help="only the final position")
    which.add_argument("--ply", metavar="N", help="only the position after ply N (0: the start)")
    p.add_argument("--archive", help=ARCHIVE_HELP)


def cmd_show(args: argparse.Namespace) -> int:
    import time

    from firmware.rules import MoveError, new_position
    from host.record import plies, result_text, san_list, unreadable
    from host.session import Snapshot, render

    if not 0 <= args.delay <= 3600:
        raise CliError(f"bad delay {args.delay}: seconds, from 0 to 3600")
    a, g = _get_game(args)
    _unsealed(a, g)
    moves = a.moves(g.id)
    why = unreadable(g)
    if why is not None:
        raise CliError(why)
    last = len(moves)
    if args.ply is not None:
        if not (args.ply.isascii() and args.ply.isdigit()) or int(args.ply) > last:
            raise CliError(f"bad ply {args.ply}: game {g.id} has plies 0 to {last}")
        last = int(args.ply)
    first = last if args.final or args.ply is not None else 0  # the first position printed
    pos = new_position(g.game, g.fen)
    played: list[str] = []
    # Shown, not recorded: the game's own line heads it, no "archived as" under each position.
    print(f"game {g.id}: {g.game}, {g.white} - {g.black}, {g.event}, {g.started[:16].replace('T', ' ')}, "
          f"{plies(len(moves))}")
    snap = Snapshot(game=g.game, state="replay", fen=pos.fen(), moves=played, port=f"archive {a.name}")
    if first == 0:
        print(render(snap))
    sans = san_list(g.game, g.fen, moves[:last])
    for i, m in enumerate(moves[:last]):
        try:
            pos.push_str(m)
        except MoveError as e:
            raise CliError(f"game {g.id}: move {len(played) + 1} {m} does not replay: {e}") from None
        played.append(sans[i])
        if i + 1 < first:
            continue
        snap.fen = pos.fen()
        if args.delay:
            time.sleep(args.delay)
        print(render(snap))
    print("result " + result_text(g))
    return 0


def _chosen(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """(archive, the games export writes): the ids given (each a number or last), the games
    of --event, or --all; CliError if none is given, one is not there, or an id given is
    a sealed Kriegspiel game.  Sealed games of --event and --all are left out, with a word
    on stderr."""
    from host.record import ArchiveError

    if not (args.ids or args.event or args.all or args.round):
        raise CliError("export needs games: a game id (or last), several ids, --event NAME, --round N or --all")
    a = _archive(args)
    chosen, seen = [], set()
    try:
        for ref in args.ids:
            g = a.game(ref)
            _unsealed(a, g)
            if g.id not in seen:
                seen.add(g.id)
                chosen.append(g)
    except ArchiveError as e:
        raise CliError(str(e)) from None
    if args.event is not None or args.all or args.round is not None:
        try:
            of_round = {g.id for g in a.round_games(args.round)} if args.round is not None else None
        except ArchiveError as e:
            raise CliError(str(e)) from None
        more = [g for g in a.games() if args.all or (args.event is None or g.event == args.event)
                and (of_round is None or g.id in of_round)]
        if args.event is not None and not more:
            raise CliError(f"no games of event {args.event!r}" + (f" in round {args.round}" if args.round else "")
                           + f" in {a.name}")
        if args.round is not None and not more:
            raise CliError(f"no games of round {args.round} in {a.name} (eboard tag ID Round N, or play --round N)")
        if of_round is not None:  # a round's games by board number
            order = [g.id for g in a.round_games(args.round)]
            more.sort(key=lambda g: order.index(g.id))
        if not more and not chosen:
            raise CliError(f"no games yet in {a.name}")
        for g in more:
            if a.sealed(g):
                print(f"game {g.id} left out: a Kriegspiel game not over, its moves sealed until it ends", file=sys.stderr)
            elif g.id not in seen:
                seen.add(g.id)
                chosen.append(g)
    if not chosen:
        raise CliError("nothing to export: every game chosen is sealed")
    return a, chosen


def _options_export(p: argparse.ArgumentParser) -> None:
    p.add_argument("ids", nargs="*", metavar="ID", help="game ids, or last")
    p.add_argument("--event", metavar="NAME", help="every game of this Event (set with eboard tag ID Event NAME)")
    p.add_argument("--round", metavar="N", help="every game of this Round (with --event: of that event), by board "
                   "number: one PGN per round")
    p.add_argument("--all", action="store_true", help="every game of the archive")
    p.add_argument("--pgn", action="store_true", help="as PGN (the default; kept for older scripts)")
    p.add_argument("--sheet", choices=("white", "black"), help="a Kriegspiel player's own scoresheet, as text")
    p.add_argument("-o", "--output", help="a file (default: standard output)")
    p.add_argument("--archive", help=ARCHIVE_HELP)


def cmd_export(args: argparse.Namespace) -> int:
    from host.record import games_pgn, round_pgn, scoresheet

    a, games = _chosen(args)
    left_out = 0
    if args.sheet:
        if len(games) != 1:
            raise CliError("--sheet writes one game's scoresheet: give one game id")
        g = games[0]
        record = a.kriegspiel_record(g.id)
        if record is None:
            raise CliError(f"game {g.id} is not a Kriegspiel game: it has no scoresheets")
        try:
            text = scoresheet(record, args.sheet)
        except ValueError as e:
            raise CliError(f"game {g.id}: {e}") from None
    else:  # PGN, the games one after the other as in a PGN database
        if args.round is not None and not (args.ids or args.all):  # a round's PGN: the one broadcast writes
            text, notes = round_pgn(a, args.round, args.event)
        else:  # a game no rules core reads is named, and the others are exported
            text, notes = games_pgn(a, games)
        for note in notes:
            print(note, file=sys.stderr)
        left_out = len(notes)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise CliError(f"cannot write {args.output}: {e.strerror}") from None
    else:
        sys.stdout.write(text)
    return 1 if left_out else 0


def _options_tag(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", help="a game id, or last")
    p.add_argument("name", help="White, Black, Event, Site, Date (YYYY.MM.DD), Round (3), Board (5), WhiteElo, "
                   "WhiteType, ... (the PGN tags eboard keeps)")
    p.add_argument("value", help="the new value (quoted if it has spaces; \"\" removes a Round, Board, ...)")
    p.add_argument("--archive", help=ARCHIVE_HELP)


def cmd_tag(args: argparse.Namespace) -> int:
    from host.record import ArchiveError

    a, g = _get_game(args)
    try:
        a.set_tag(g.id, args.name, args.value)
    except ArchiveError as e:
        raise CliError(str(e)) from None
    return 0


def _options_delete(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", help="a game id, or last")
    p.add_argument("--archive", help=ARCHIVE_HELP)


def cmd_delete(args: argparse.Namespace) -> int:
    from host.record import ArchiveError

    a, g = _get_game(args)
    try:
        a.delete(g.id)
    except ArchiveError as e:
        raise CliError(str(e)) from None
    print(f"game {g.id} ({g.game}, {g.started[:16].replace('T', ' ')}) deleted")
    return 0


def _options_serve(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", action="append", help="a board's port (repeat for more)")
    p.add_argument("--sim", type=int, metavar="N",
                   help=f"also N virtual boards (1 to {SIM_MAX}) whose hands play random games")
    p.add_argument("--game", help="--sim: every virtual board plays this game (default: every game in turn)")
    p.add_argument("--seed", type=int, default=0, help="--sim: the random games' seed")
    p.add_argument("--archive", help=ARCHIVE_HELP)
    p.add_argument("--seconds", type=float, help="stop after this long (default: until interrupted)")
    p.add_argument("--round-file", metavar="FILE", help="a round's pairings, CSV: board,white,black; board N is the "
                   "N-th board serve follows (the --port boards in order, then --sim's): its games are named and tagged")
    p.add_argument("--round", metavar="N", help="--round-file: the round (PGN Round) of its games")
    p.add_argument("--event", metavar="NAME", help="--round-file: the Event of its games")
    p.add_argument("--speak", action="store_true", help="say every board's moves and ends aloud, one voice for the "
                   "room: \"board 2: knight takes e5\" (espeak-ng)")
    p.add_argument("--clock", metavar="MIN+INC", help="every board's games on this clock, started by the first move "
                   "(90+30; 5d3, 5b3 as play's): each move's time left kept ([%%clk] in the PGN)")
    p.add_argument("--broadcast", metavar="DIR", help="--round-file: the round live in DIR/round-N/games.pgn (and "
                   "game-B.pgn a board; lichess-org/broadcaster's layout), rewritten within a second of each move; "
                   "--web serves it at /broadcast/N/games.pgn (docs/broadcast.md)")
    p.add_argument("--broadcast-round", metavar="ID", help="--round-file: also push the round to this lichess "
                   "broadcast round (its 8-letter id), every 2 s at most; the token (scope study:write) in "
                   "LICHESS_TOKEN or --token-file")
    p.add_argument("--token-file", metavar="FILE", help="--broadcast-round: the token in a file of mode 600")
    p.add_argument("--server", default="https://lichess.org", metavar="URL",
                   help="--broadcast-round: the lichess server (default https://lichess.org)")
    speech_arguments(p, "en")
    web_arguments(p)


SIM_MAX = 256  # serve --sim's virtual boards: a hall on one PC (bench/hall.py)
SIM_MB = 14  # the memory one virtual board takes (its MicroPython process, 512 KB heap: 13 MB; bench/hall.py)


def _serve_capacity(ports: int, sim: int) -> None:
    """Refuse, in words and before anything starts, more boards than this host can follow:
    more than its file descriptors allow (a port costs serve one, a virtual board two), or
    virtual boards beyond its free memory."""
    from host.commands.serve import capacity

    need = ports + 2 * sim
    most, limit = capacity(1)
    if need > most:
        raise CliError(f"{ports + sim} boards are more than this host can follow: serve may open {limit} files "
                       f"(ulimit -n), and needs {need} for them besides its own; raise the limit (ulimit -n "
                       f"{need + 1024}) or share the boards out between hosts")
    if sim:
        free = _available_mb()
        if free is not None and sim * SIM_MB > free:
            raise CliError(f"{sim} virtual boards need about {sim * SIM_MB} MB, and this host has {free} MB free: "
                           f"at most {max(1, free // SIM_MB)} here")


def _available_mb() -> int | None:
    """The memory free for new programs (Linux's MemAvailable), or None where unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def cmd_serve(args: argparse.Namespace) -> int:
    from host.commands.serve import serve
    from host.session import HomeError, open_hall

    if not args.port and args.sim is None:
        raise CliError("serve needs --port PORT (once per board) or --sim N (N virtual boards playing random games)")
    if args.sim is not None and not 1 <= args.sim <= SIM_MAX:
        raise CliError(f"bad --sim {args.sim}: from 1 to {SIM_MAX} virtual boards")
    if args.game is not None:
        if not args.sim:
            raise CliError("--game is the game of serve's virtual boards: give --sim N too")
        _start(args.game, None)
    _distinct_ports(args.port or [])
    _serve_capacity(len(args.port or []), args.sim or 0)
    pairs = _round_file(args)
    control = _serve_clock(args)
    make_broadcast = _broadcast(args)
    speaker = _speaker(args, "en")
    with _web(args) as server:  # a port in use is said before any virtual board starts
        if args.sim:
            print(f"starting {args.sim} virtual board{'s' if args.sim != 1 else ''}; their hands play random games ...",
                  flush=True)
        try:
            hall = open_hall(args.archive, args.port or [], args.sim or 0, args.game, args.seed)
        except HomeError as e:
            raise CliError(str(e)) from None
        with hall:
            for i, port in enumerate(hall.own, 1):
                print(f"virtual board {i}: {port}", flush=True)
            tags = None
            if pairs is not None:  # board number i is the i-th port followed: --port's, then --sim's
                from host.commands.serve import round_tags

                ports = hall.ports
                unpaired = sorted(set(pairs) - set(range(1, len(ports) + 1)))
                if unpaired:
                    print(f"eboard: the round file pairs board {unpaired[0]}, but serve follows {len(ports)} board"
                          f"{'s' if len(ports) != 1 else ''}: its pairing waits for no board", file=sys.stderr)
                tags = [round_tags(pairs, args.round, i, args.event) for i in range(1, len(ports) + 1)]
            broadcast = make_broadcast(hall.archive, print_say) if make_broadcast is not None else None
            if broadcast is not None and server is not None:
                print(f"the round's PGN: {server.url}/broadcast/{args.round}/games.pgn", flush=True)
            return serve(hall.archive, hall.ports, args.seconds, web=server is not None, own=hall.own, round_tags=tags,
                         speaker=speaker, broadcast=broadcast, clock=control)


def print_say(text: str, err: bool) -> None:
    """A broadcast's words on serve's output, as a follower's are ("broadcast: ...")."""
    from host.link import printable

    print(f"broadcast: {printable(text)}", file=sys.stderr if err else sys.stdout, flush=True)


def _serve_clock(args: argparse.Namespace) -> str | None:
    """serve --clock MIN+INC, checked (CliError in words); None without it."""
    from host.record import Clock, ClockError

    if args.clock is None:
        return None
    try:
        Clock.parse(args.clock)
    except ClockError as e:
        raise CliError(f"--clock: {e}") from None
    return str(args.clock).strip()


def _broadcast(args: argparse.Namespace) -> Callable[[Any, Callable[[str, bool], None]], Any] | None:
    """serve --broadcast DIR, --broadcast-round ID: checked before any board starts (the
    folder made, the token read: CliError in words, never the token); a maker of the round's
    Broadcast over serve's archive (make(archive, say)), or None without either."""
    import re

    from host.online import Api, BroadcastError, TokenError, check_round_id, load_token

    if args.broadcast is None and args.broadcast_round is None:
        if args.token_file is not None:
            raise CliError("--token-file goes with --broadcast-round ID (a lichess broadcast round to push to)")
        return None
    if args.round_file is None:
        raise CliError("--broadcast and --broadcast-round broadcast a round: give --round-file FILE --round N too")
    if not re.fullmatch(r"[0-9]{1,6}", args.round):
        raise CliError(f"--broadcast: the round is a number (3), not {args.round!r}: its boards make it R.B")
    api = None
    try:
        if args.broadcast_round is not None:
            check_round_id(args.broadcast_round)
            token = load_token(args.token_file, scope="study:write")
            api = Api(args.server, token, scope="study:write")
        if args.broadcast is not None:
            from host.online import round_folder

            folder = round_folder(args.broadcast, args.round)
            folder.mkdir(parents=True, exist_ok=True)
    except (BroadcastError, TokenError, ValueError) as e:
        raise CliError(str(e)) from None
    except OSError as e:
        raise CliError(f"--broadcast: cannot make the folder {args.broadcast}: {e.strerror}") from None

    def make(archive, say):  # type: ignore[no-untyped-def]
        from host.online import Broadcast

        return Broadcast(archive, args.round, args.event, args.broadcast, api, args.broadcast_round, say)

    return make


def _round_file(args: argparse.Namespace) -> dict[int, tuple[str, str]] | None:
    """--round-file FILE --round N (and --event, --board where the command has them),
    checked: the pairings, or None without --round-file; CliError in words."""
    from host.commands.serve import RoundFileError, read_round_file
    from host.record import ArchiveError, own_tag, tag_value_ok

    board = getattr(args, "board", None)
    if args.round_file is None:
        if args.round is not None and getattr(args, "command", "") == "serve":
            raise CliError("--round goes with --round-file FILE (the round's pairings: board,white,black)")
        return None
    if args.round is None:
        raise CliError("--round-file needs --round N: the round its pairings are for")
    try:
        own_tag("Round", args.round)
    except ArchiveError as e:
        raise CliError(f"--round: {e}") from None
    if args.event is not None and not tag_value_ok(args.event):
        raise CliError(f"--event is one line of text, without control characters: not {args.event!r}")
    try:
        pairs = read_round_file(args.round_file)
    except RoundFileError as e:
        raise CliError(str(e)) from None
    if getattr(args, "command", "") == "play" and (board is None or not board.isdigit() or int(board) not in pairs):
        raise CliError("--round-file: give --board N, a board the file pairs (" + ", ".join(map(str, sorted(pairs))) + ")")
    return pairs


def _distinct_ports(ports: list[str]) -> None:
    """One board, one port: the same port given twice is a slip."""
    seen: set[str] = set()
    for p in ports:
        real = os.path.realpath(p)
        if real in seen:
            raise CliError(f"{p} is given twice: each board has a port of its own")
        seen.add(real)


@contextmanager
def _web(args: argparse.Namespace) -> Iterator[Any]:
    """The web room beside a command when --web asks for it (else None), stopped after it."""
    if getattr(args, "web", None) is None:
        yield None
        return
    from host.web import WebUnavailable, start

    try:
        server = start(args.archive, args.web_host, args.web)
    except WebUnavailable as e:
        raise CliError(str(e)) from None
    try:
        yield server
    finally:
        server.stop()


def _options_web(p: argparse.ArgumentParser) -> None:
    p.add_argument("listen", nargs="?", type=web_port, default=8080, metavar="PORT", help="default 8080 (0: any free port)")
    p.add_argument("--host", dest="web_host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1; 0.0.0.0 opens it to the network)")
    p.add_argument("--archive", help=ARCHIVE_HELP)
    p.add_argument("--seconds", type=float, help="stop after this long (default: until interrupted)")


def cmd_web(args: argparse.Namespace) -> int:
    import time

    args.web = args.listen
    with _web(args):
        try:
            end = time.monotonic() + args.seconds if args.seconds else None
            while end is None or time.monotonic() < end:
                time.sleep(0.2)
        except KeyboardInterrupt:
            pass
    return 0


def cmd_uci(args: argparse.Namespace) -> int:
    from host.apps import Out, lines_in, uci_run

    return uci_run(lines_in(sys.stdin), Out(sys.stdout))


def cmd_xboard(args: argparse.Namespace) -> int:
    from host.apps import Out, cecp_run, lines_in

    return cecp_run(lines_in(sys.stdin), Out(sys.stdout))


def _options_board_engine(p: argparse.ArgumentParser) -> None:
    be_where = p.add_mutually_exclusive_group(required=True)
    be_where.add_argument("--port", help="the board's serial port")
    be_where.add_argument("--sim", action="store_true",
                          help="a virtual board whose hands make the lit moves and play the person's side (our engine)")
    be_where.add_argument("--pico", action="store_true", help="an emulated Pico (boards/emu), its hands as --sim's")
    p.add_argument("--xboard", action="store_true", help="speak CECP (XBoard) instead of UCI")
    p.add_argument("--level", default="2", help="--sim/--pico: the level (1-8) of the virtual person's moves (default 2)")
    p.add_argument("--archive", help="the SQLite archive (default: ~/.local/share/eboard/games.sqlite)")


def cmd_board_engine(args: argparse.Namespace) -> int:
    from host.commands import boardengine

    try:
        return boardengine.run(args)
    except boardengine.CliError as e:
        raise CliError(str(e)) from None


def _options_emulate(p: argparse.ArgumentParser) -> None:
    p.add_argument("protocol", choices=["chesslink"], help="the board protocol to speak")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--port", help="the board's serial port")
    where.add_argument("--sim", action="store_true", help="a virtual board (its hands: lines in its folder's `hands`)")
    where.add_argument("--pico", action="store_true", help="an emulated Pico (boards/emu)")
    p.add_argument("--archive", help=ARCHIVE_HELP)


def cmd_emulate(args: argparse.Namespace) -> int:
    from host.commands import emulate

    try:
        return emulate.run(args)
    except emulate.CliError as e:
        raise CliError(str(e)) from None


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("eboard")
    except PackageNotFoundError:
        return "(not installed)"


ARCHIVE_HELP = ("the SQLite archive (default: ~/.local/share/eboard/games.sqlite; EBOARD_DATA, XDG_DATA_HOME), or a "
                "hall's PostgreSQL archive: postgresql://USER[:PASSWORD]@HOST[:PORT]/DB (docs/postgresql.md)")
FEN_HELP = "the position, as FEN (docs/rules/notation.md; default: the game's start)"
GAME_HELP = "game id: " + ", ".join(GAMES)
START_HELP = "chess960: start position number N, 0-959 (518: the usual one), instead of --fen"


def _options_help(p: argparse.ArgumentParser) -> None:
    p.add_argument("topic", nargs="?", metavar="COMMAND", help="a command")


def cmd_help(args: argparse.Namespace) -> int:
    """eboard help [COMMAND]: the list of commands, or one command's options."""
    p = build_parser()
    if args.topic is None:
        sys.stdout.write(p.format_help())
        return 0
    sub = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
    if args.topic not in sub.choices:
        raise CliError(f"no command {args.topic!r}: eboard help lists them")
    sys.stdout.write(sub.choices[args.topic].format_help())
    return 0


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise CliError(message)


# eboard's commands, in the order `eboard --help` lists them: (name, help, the function that
# adds its options (beside its handler, above), its handler).
COMMANDS: list[tuple[str, str, Callable[[argparse.ArgumentParser], None] | None, Callable[[argparse.Namespace], int]]] = [
    ("moves", "list the legal moves of a position", _options_moves, cmd_moves),
    ("perft", "count the leaf nodes of the move tree", _options_perft, cmd_perft),
    ("bestmove", "the engine's move in a position (info lines on stderr)", _options_bestmove, cmd_bestmove),
    ("umpire", "Kriegspiel umpire: attempts on stdin, one JSON line of announcements each", _options_umpire, cmd_umpire),
    ("kriegspiel", "Kriegspiel on two boards, the host as umpire", _options_kriegspiel, cmd_kriegspiel),
    ("sim", "run a virtual board; prints its port, runs until interrupted", _options_sim, cmd_sim),
    ("replay-sensors", "feed a sensor script to a virtual board; print its moves", _options_replay_sensors, cmd_replay_sensors),
    ("play", "play a game with the live view (on a board, or --sim)", _options_play, cmd_play),
    ("lichess", "play a lichess game on the board: a seek, a challenge, or a game of yours (docs/lichess.md)", _options_lichess, cmd_lichess),
    ("games", "list the archived games", _options_games, cmd_games),
    ("show", "replay an archived game in the terminal", _options_show, cmd_show),
    ("export", "write archived games out as PGN (several: one PGN file)", _options_export, cmd_export),
    ("tag", "set an archived game's White, Black, Event, Site, Date, Round or Board (its PGN tags)", _options_tag, cmd_tag),
    ("delete", "remove an archived game", _options_delete, cmd_delete),
    ("serve", "follow several boards at once and archive their games", _options_serve, cmd_serve),
    ("uci", "our engine as a UCI engine on stdin/stdout, for chess programs (Arena, Cute Chess, En Croissant; every game by UCI_Variant)", None, cmd_uci),
    ("xboard", "our engine as a CECP (XBoard/WinBoard) engine on stdin/stdout, every game", None, cmd_xboard),
    ("board-engine", "the board as a UCI (or --xboard: CECP) engine: the program's moves are lit on the board, the moves made on it go back", _options_board_engine, cmd_board_engine),
    ("emulate", "the board as another board for chess programs: chesslink (Millennium) on a pseudo-terminal, its path the first line printed", _options_emulate, cmd_emulate),
    ("web", "the browser view: the archive, and whatever this process follows", _options_web, cmd_web),
    ("help", "this list, or one command's options (eboard help play)", _options_help, cmd_help),
]


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="eboard", description="Electronic 12 x 12 game board: rules and host tools.")
    p.add_argument("--debug", action="store_true", help="show tracebacks")
    p.add_argument("--version", action="version", version="eboard " + _version())
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, text, options, handler in COMMANDS:
        cp = sub.add_parser(name, help=text)
        if options is not None:
            options(cp)
        cp.set_defaults(func=handler)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        # Started in the background by a script's shell (`eboard serve &`), which leaves
        # Ctrl-C ignored: `kill -INT` still stops serve, play and web as Ctrl-C does.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        if not argv:  # eboard alone: what it can do
            sys.stdout.write(build_parser().format_help())
            return 0
        args = build_parser().parse_args(argv)
        rc: int = args.func(args)
        return rc
    except CliError as e:
        if debug:
            raise
        print(f"eboard: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:  # noqa: BLE001 (a bug of ours: one line, never a traceback; --debug shows it)
        if debug:
            raise
        print(f"eboard: internal error (a bug; --debug shows where): {type(e).__name__}: {e}", file=sys.stderr)
        return 70


if __name__ == "__main__":
    sys.exit(main())
