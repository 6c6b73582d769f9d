"""The `eboard` command.

    eboard moves GAME [--fen FEN]          every legal move, one a line
    eboard perft GAME DEPTH [--fen FEN]    leaf count of the move tree, last line

Errors (unknown game, malformed FEN, bad depth) are one line on stderr and exit 2;
--debug shows the traceback instead.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from firmware.rules import FenError, GAMES, new_position


class CliError(Exception):
    """An error a person can act on: printed as one line, exit status 2."""


def _position(game: str, fen: str | None):  # type: ignore[no-untyped-def]
    if game not in GAMES:
        raise CliError(f"unknown game {game!r}; games: {', '.join(GAMES)}")
    try:
        return new_position(game, fen)
    except FenError as e:
        raise CliError(f"bad FEN for {game}: {e}") from None


def cmd_moves(args: argparse.Namespace) -> int:
    pos = _position(args.game, args.fen)
    out = [pos.move_str(m) for m in pos.legal_moves()]
    sys.stdout.write("".join(s + "\n" for s in out))
    return 0


def cmd_perft(args: argparse.Namespace) -> int:
    try:
        depth = int(args.depth)
    except ValueError:
        raise CliError(f"bad depth {args.depth!r}: a whole number from 0 up") from None
    if depth < 0:
        raise CliError(f"bad depth {depth}: a whole number from 0 up")
    pos = _position(args.game, args.fen)
    if args.divide and depth > 0:
        for m in pos.legal_moves():
            name = pos.move_str(m)
            pos.push(m)
            print(name, pos.perft(depth - 1))
            pos.pop()
    print(pos.perft(depth))
    return 0


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise CliError(message)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="eboard", description="Electronic 12 x 12 game board: rules and host tools.")
    p.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    m = sub.add_parser("moves", help="list the legal moves of a position")
    m.add_argument("game", help="game id: " + ", ".join(GAMES))
    m.add_argument("--fen", help="position (default: the start position)")
    m.set_defaults(func=cmd_moves)
    q = sub.add_parser("perft", help="count the leaf nodes of the move tree")
    q.add_argument("game")
    q.add_argument("depth")
    q.add_argument("--fen")
    q.add_argument("--divide", action="store_true", help="also print the count below each move")
    q.set_defaults(func=cmd_perft)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    try:
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


if __name__ == "__main__":
    sys.exit(main())
