"""`eboard emulate chesslink`: the board as a Millennium ChessLink board, for the chess
programs that take one (picochess, Lucas Chess on Linux, python-mchess; docs/chesslink.md).

A pseudo-terminal speaks the ChessLink protocol (host/apps/chesslink.py) for the board's
chess game: its path is the first line printed, and the program opens it as it would the
board's USB-serial port.  The board is followed through the bridge (every move archived,
as in `eboard play`): its lifts, places and moves become the status reports; the squares
the program lights (the 9 x 9 corner LEDs) are lit on the board as a hint (`hint`,
docs/protocol.md) when they are a legal move's, the only LEDs a host can light.
"""

from __future__ import annotations

import argparse
import errno
import os
import select
import sys
import time
import tty
from typing import TextIO

from firmware.rules import MoveError, new_position
from host.apps import ChessLink, Pieces, lit_squares
from host.link import BoardError, BridgeTimeout, LinkError
from host.link import Event, Hello, Move, NewGame, NewPosition, Ready, Square, Undo
from host.record import Bridge

STEP_S = 0.02  # the loop's wait for the program's bytes or the board's lines
SQUARES = {f + str(r) for f in "abcdefgh" for r in range(1, 9)}


class CliError(Exception):
    """Why the emulation cannot start, in words (the CLI says it and exits 2)."""


class Emulator:
    """The pty's ChessLink board and the real (or virtual) board behind it: step() moves
    bytes and lines both ways once."""

    def __init__(self, bridge: Bridge, out: TextIO = sys.stderr) -> None:
        self.bridge = bridge
        self.out = out
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.fen = ""
        self.pieces: Pieces | None = None
        self.stale = True  # the board's position must be asked again (`state`)
        self.link = ChessLink()
        self.shown: list[str] = []  # the squares the program lit, as last acted on
        self.hinted = ""  # the move lit on the board as a hint
        self.dropped = 0  # bytes the program did not read in time (a full pty)
        bridge.on_change = self._event
        self._sync()

    def close(self) -> None:
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def say(self, text: str) -> None:
        print(f"chesslink: {text}", file=self.out, flush=True)

    # ---- the board ------------------------------------------------------------------------------

    def _sync(self) -> None:
        """The board's game and position asked (`state`); a board that plays another game
        than chess starts a chess game (the program knows no other)."""
        st = self.bridge.state()
        if st.game != "chess":
            self.say(f"the board played {st.game}: a chess game begins (set the men up as the board shows)")
            self.bridge.request("new chess")
            st = self.bridge.state()
        fen, state = st.fen, st.state
        self.fen = fen
        if self.pieces is None:
            self.pieces = Pieces(fen)
        else:
            self.pieces.reset(fen)
        if state == "setup":  # the men are still to be set up: each is seen as he is put down
            self.pieces.clear()
        self.stale = False
        self.hinted = ""

    def _event(self, seq: int, event: Event) -> None:
        if self.pieces is None:
            return
        try:
            if isinstance(event, Square):
                if event.square in SQUARES:  # (margin squares are not said; this is for safety)
                    (self.pieces.lift if event.word == "lift" else self.pieces.place)(event.square)
                    self.hinted = ""  # the board's hint ends at a lift or a place
            elif isinstance(event, Move) and not self.stale:
                pos = new_position("chess", self.fen)  # type: ignore[no-untyped-call]
                pos.push_str(event.move)
                self.fen = pos.fen()
                self.pieces.reset(self.fen)
                self.hinted = ""
            elif isinstance(event, (Move, Undo, NewGame, NewPosition, Ready, Hello)):
                self.stale = True
        except (MoveError, ValueError, IndexError):
            self.stale = True

    def _light(self) -> None:
        """The program's LEDs on the board: the squares it lit, as a hint when they hold
        one legal move's from and to squares; else said in words, once."""
        lit = lit_squares(self.link.leds)
        if lit == self.shown:
            return
        self.shown = lit
        if not lit:
            if self.hinted:
                self._hint("-")
            return
        pos = new_position("chess", self.fen)  # type: ignore[no-untyped-call]
        found = sorted({pos.move_str(m)[:4] for m in pos.legal_moves()
                        if pos.move_str(m)[:2] in lit and pos.move_str(m)[2:4] in lit})
        if len(found) == 1:
            move = found[0]
            strs = [pos.move_str(m) for m in pos.legal_moves() if pos.move_str(m).startswith(move)]
            self._hint(move + "q" if move + "q" in strs else strs[0])
        else:
            self.say(f"the program lit {' '.join(lit)}: not one legal move, so not shown "
                     "(the board lights a move, not squares, for a host)")

    def _hint(self, move: str) -> None:
        try:
            self.bridge.request("hint " + move)
            self.hinted = "" if move == "-" else move
        except BoardError as e:
            self.say(f"the board did not light {move}: {e}")

    # ---- the loop -------------------------------------------------------------------------------

    def _write(self, data: bytes) -> None:
        if not data:
            return
        try:
            n = os.write(self.master, data)
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.EIO):
                raise
            n = 0
        self.dropped += len(data) - n

    def step(self, wait_s: float = STEP_S) -> None:
        """Once: the program's bytes answered, the board's lines followed, the status and
        the LEDs brought up to date."""
        got = b""
        ready, _, _ = select.select([self.master], [], [], wait_s)
        if ready:
            try:
                got = os.read(self.master, 4096)
            except OSError as e:
                if e.errno not in (errno.EAGAIN, errno.EIO):
                    raise
        now = time.monotonic() * 1000
        resets = self.link.resets
        self._write(self.link.feed(got, now))
        if self.link.resets != resets:
            self.shown = []
            if self.hinted:
                self._hint("-")
        self.bridge.poll(0)
        if self.stale:
            self._sync()
        assert self.pieces is not None
        self.link.set_status(self.pieces.status)
        self._write(self.link.tick(now))
        self._light()


def run(args: argparse.Namespace) -> int:
    """eboard emulate chesslink (--sim | --port PORT | --pico): until interrupted."""
    from host.session import HomeError, open_home

    if args.protocol != "chesslink":
        raise CliError(f"emulate {args.protocol}: the board emulates chesslink only")
    if sum(bool(x) for x in (args.sim, args.port, args.pico)) != 1:
        raise CliError("emulate chesslink needs one of --port PORT (a board on USB), --sim (a virtual board) "
                       "or --pico (an emulated one)")
    try:
        home = open_home(args.archive, args.port, args.sim, args.pico)
    except HomeError as e:
        raise CliError(str(e)) from None
    archive = home.archive
    emu = None
    with home:
        try:
            assert home.port is not None
            bridge = Bridge(home.port, archive, timeout_s=home.timeout_s)
            try:
                bridge.connect()
                emu = Emulator(bridge)
            except (LinkError, BridgeTimeout, BoardError) as e:
                raise CliError(f"board: {e}") from None
            print(emu.path, flush=True)
            if args.sim:
                emu.say(f"the virtual board's hands: append `lift e2`, `place e4` lines to {home.board.board_dir}/hands")
            while True:
                try:
                    emu.step()
                except (LinkError, BridgeTimeout, BoardError) as e:
                    emu.say(f"board: {e}")
                    time.sleep(0.3)
        finally:
            if emu is not None:
                emu.close()


__all__ = ["CliError", "Emulator", "run"]
