"""The host side of the serial link (docs/protocol.md), over pyserial.

Every board line is "<seq> <text>".  A reply to a request is "ok ..." or "error ...";
anything else is an event.  Lines that do not start with a number are the board's
diagnostics (a traceback, a REPL banner) and are passed to on_noise.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import serial

PROTOCOL = 2


class BoardError(Exception):
    """The board refused a request: code is its error word."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code} {detail}".strip())
        self.code = code
        self.detail = detail


class BridgeTimeout(Exception):
    """No reply within the timeout."""


class LinkError(Exception):
    """The port cannot be used (missing, busy, not a board)."""


Event = tuple[int, str]


class BoardLink:
    """One open connection to a board."""

    def __init__(
        self,
        port: str,
        timeout_s: float = 5.0,
        on_event: Callable[[int, str], None] | None = None,
        on_noise: Callable[[str], None] | None = None,
    ) -> None:
        self.port = port
        self.timeout_s = timeout_s
        self.on_event = on_event
        self.on_noise = on_noise
        self.last_seq = 0
        self.board_id = ""  # from the version line (hello())
        self.boot: int | None = None  # the board's power-up number (protocol 2)
        self._buf = b""
        try:
            self.ser = serial.Serial(port, 115200, timeout=0.05, exclusive=True)
        except serial.SerialException as e:
            text = str(e)
            if "busy" in text.lower() or "lock" in text.lower():
                raise LinkError(f"{port} is busy: another program has it open") from None
            if "No such file" in text or "could not open" in text:
                raise LinkError(f"{port}: no such port (is the board plugged in?)") from None
            raise LinkError(f"{port}: {text}") from None

    def close(self) -> None:
        try:
            self.ser.close()
        except (OSError, serial.SerialException):
            pass

    def __enter__(self) -> BoardLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- lines --------------------------------------------------------------------------

    def _read_line(self, deadline: float) -> str | None:
        while b"\n" not in self._buf:
            if time.monotonic() > deadline:
                return None
            try:
                chunk = self.ser.read(self.ser.in_waiting or 1)
            except (OSError, serial.SerialException) as e:
                raise LinkError(f"{self.port}: the link dropped ({e})") from None
            self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line.decode("ascii", "replace").strip("\r")

    def _dispatch(self, line: str) -> tuple[int, str] | None:
        seq_text, _, text = line.partition(" ")
        if not seq_text.isdigit():
            if line and self.on_noise:
                self.on_noise(line)
            return None
        seq = int(seq_text)
        self.last_seq = max(self.last_seq, seq)
        return seq, text

    def _next(self, deadline: float) -> tuple[int, str] | None:
        """The next numbered message before the deadline (diagnostics go to on_noise)."""
        while True:
            line = self._read_line(deadline)
            if line is None:
                return None
            got = self._dispatch(line)
            if got is not None:
                return got

    def poll(self, wait_s: float = 0.0) -> list[Event]:
        """Events that arrived (waiting up to wait_s for the first)."""
        out: list[Event] = []
        deadline = time.monotonic() + wait_s
        while True:
            got = self._next(deadline if not out else time.monotonic())
            if got is None:
                return out
            out.append(got)
            if self.on_event:
                self.on_event(*got)

    def request(self, line: str, timeout_s: float | None = None) -> str:
        """Send one line; the reply text after "ok " (BoardError for "error ...")."""
        self.ser.write(line.encode("ascii") + b"\n")
        deadline = time.monotonic() + (self.timeout_s if timeout_s is None else timeout_s)
        while True:
            got = self._next(deadline)
            if got is None:
                raise BridgeTimeout(f"no reply to {line.split()[0] if line.split() else 'the line'!r}")
            seq, text = got
            word, _, rest = text.partition(" ")
            if word == "ok":
                return rest
            if word == "error":
                code, _, detail = rest.partition(" ")
                raise BoardError(code, detail)
            if self.on_event:
                self.on_event(seq, text)

    def hello(self, timeout_s: float = 3.0) -> str:
        """Check that a board of our protocol answers; returns its version line
        ("version 2 <firmware> <profile> <board id> <boot>"), and keeps its board id and
        power-up number in board_id and boot."""
        # A newline first ends whatever half line another program (mpremote, a reset)
        # left in the board's buffer; the error it may earn is not our reply.
        self.ser.write(b"\nversion\n")
        deadline = time.monotonic() + timeout_s
        while True:
            got = self._next(deadline)
            if got is None:
                raise LinkError(f"{self.port}: no answer: not an eboard, or not running its firmware")
            seq, text = got
            if text.startswith("ok version"):
                break
            if not text.startswith(("ok", "error")) and self.on_event:
                self.on_event(seq, text)
        words = text.split()
        if len(words) < 3 or words[2] != str(PROTOCOL):
            raise LinkError(f"{self.port}: the board speaks protocol {words[2:3]}, this host {PROTOCOL}")
        self.board_id = words[5] if len(words) > 5 else ""
        self.boot = int(words[6]) if len(words) > 6 and words[6].isdigit() else None
        return text[3:]
