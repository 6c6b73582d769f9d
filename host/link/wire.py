"""The host side of the serial link (docs/protocol.md), over one port (host/link/port.py).

Every board line is "<seq> <text>".  A reply to a request is "ok ..." or "error ...";
anything else is an event.  A reply too long for one line comes in pieces: continuation
lines "+ <words>" right before it, put back in place here.  Other lines that do not start
with a number are the board's diagnostics (a traceback, a REPL banner) and are passed to
on_noise.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from host.link.port import Port, PortError

PROTOCOL = 3
MAX_LINE = 512  # docs/protocol.md: a board's line has at most 512 bytes
SEQ_MAX = 1 << 30  # the largest number a board says (and `since` takes)
BURST = 512  # lines handled by one poll: a board that floods cannot hold the host
MAX_PIECES = 512  # continuation lines before one reply (docs/protocol.md, Long replies)
REPLAY_WAITS = 24  # a replay (`since`) may take this many timeouts while its messages keep coming
PIECE = 200  # a continuation line holds the words that fit in 200 bytes, and no fewer

# Bytes a board says are shown as text: control characters (an ANSI escape could fake a
# line on the terminal) become \xNN; the protocol allows printable ASCII only.
_ESCAPES = {c: "\\x%02x" % c for c in [*range(32), 127]}


def printable(text: str) -> str:
    """text with every control character and every non-ASCII one escaped (\\xNN, \\uNNNN)."""
    return text.encode("ascii", "backslashreplace").decode("ascii").translate(_ESCAPES)


def _stray_piece(pieces: list[str], rest: str) -> str | None:
    """The first continuation line that is not a board's, or None.  A board fills each
    piece with the words that fit in PIECE bytes and starts another only when the next
    word would not fit, and its reply's own line carries the last words (docs/protocol.md,
    Long replies): a piece with room left for the word after it, or pieces before a reply
    with no words of its own, came from somewhere else (another program on the port)."""
    after = [*pieces[1:], rest]
    for piece, then in zip(pieces, after):
        word = then.partition(" ")[0]
        if not piece or not word or len(piece) + 1 + len(word) <= PIECE:
            return "+ " + piece
    return None


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
        self.boot: int | None = None  # the board's power-up id (random; protocol 2)
        self._buf = b""
        self._skipping = False  # dropping the rest of an over-long line
        self._pieces: list[str] = []  # continuation lines of the reply to come
        self._pieces_over = 0  # continuation lines past MAX_PIECES, dropped
        try:
            self.ser = Port(port, timeout=0.05)  # one descriptor, poll(): a hall's hundreds of boards
        except PortError as e:
            if e.why == "busy":
                raise LinkError(f"{port} is busy: another program has it open (another eboard, mpremote, a serial "
                                f"terminal): close it; `fuser {port}` names it") from None
            if e.why == "missing":
                raise LinkError(f"{port}: no such port (is the board plugged in?)") from None
            raise LinkError(f"{port}: {e}") from None

    def close(self) -> None:
        try:
            self.ser.close()
        except OSError:
            pass

    def __enter__(self) -> BoardLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- lines --------------------------------------------------------------------------

    def _take(self) -> str | None:
        """A whole line from the buffer, or None; a line over MAX_LINE is cut off here,
        so a board that streams bytes without a newline costs a bounded buffer."""
        line, nl, rest = self._buf.partition(b"\n")
        if not nl:
            if len(self._buf) > MAX_LINE:
                self._skipping = True
                self._buf = b""
            return None
        self._buf = rest
        if self._skipping:  # the rest of an over-long line
            self._skipping = False
            if self.on_noise:
                self.on_noise(f"(a line over {MAX_LINE} bytes, dropped)")
            return ""
        if len(line) > MAX_LINE + 1:
            if self.on_noise:
                self.on_noise(f"(a line over {MAX_LINE} bytes, dropped)")
            return ""
        return printable(line.decode("ascii", "backslashreplace").rstrip("\r"))

    def _read_line(self, deadline: float) -> str | None:
        """The next line: waits for one until the deadline, but always reads what has
        already arrived (a poll with no time to wait still hears the board)."""
        while True:
            line = self._take()
            if line is not None:
                return line
            late = time.monotonic() >= deadline
            try:
                n = self.ser.in_waiting
                if late and not n:
                    return None
                if not n and not self.ser.wait(deadline - time.monotonic()):
                    continue  # the deadline passed: one more look, then None
                chunk = self.ser.read(4096)
            except OSError as e:
                raise LinkError(f"{self.port}: the link dropped ({e})") from None
            self._buf += chunk
            if late:  # one read past the deadline, no more: a flood cannot hold us here
                return self._take()

    def _dispatch(self, line: str) -> tuple[int, str] | None:
        seq_text, _, text = line.partition(" ")
        if seq_text == "+":  # a piece of the reply to come
            if len(self._pieces) < MAX_PIECES:
                self._pieces.append(text)
            else:
                self._pieces_over += 1
            return None
        if not seq_text.isdigit():
            if line and self.on_noise:
                self.on_noise(line)
            return None
        seq = int(seq_text) if len(seq_text) <= 10 else 0
        if not 1 <= seq <= SEQ_MAX:  # numbers are bounded on both sides: a line that is not
            if self.on_noise:  # the board's is logged and skipped
                self.on_noise(f"(a message number out of range, skipped: {line[:40]})")
            return None
        self.last_seq = max(self.last_seq, seq)
        if self._pieces or self._pieces_over:
            text = self._whole(text)
        return seq, text

    def _whole(self, text: str) -> str:
        """A numbered line after continuation lines: the whole reply, its pieces put back
        after "ok <command>"; an error or an event takes none (they were a broken reply's)."""
        pieces, over = self._pieces, self._pieces_over
        self._pieces, self._pieces_over = [], 0
        word, cmd, rest = (text.split(" ", 2) + ["", ""])[:3]
        if word != "ok":
            if word != "error" and self.on_noise:
                self.on_noise(f"({len(pieces) + over} continuation lines with no reply after them, dropped)")
            return text
        if over:
            if self.on_noise:
                self.on_noise(f"(a reply of over {MAX_PIECES} continuation lines, dropped)")
            return f"error too-long the board's reply 'ok {cmd}' ran over {MAX_PIECES} lines: dropped"
        stray = _stray_piece(pieces, rest)
        if stray is not None:  # (the reply's error says it: the caller asks again)
            return (f"error bad-reply the reply 'ok {cmd}' came after a continuation line the board did not send "
                    f"({stray[:60]}): refused")
        return " ".join(["ok", cmd, *pieces, rest]).rstrip(" ")

    def _next(self, deadline: float) -> tuple[int, str] | None:
        """The next numbered message before the deadline (diagnostics go to on_noise)."""
        noise = 0
        while True:
            line = self._read_line(deadline)
            if line is None:
                return None
            got = self._dispatch(line)
            if got is not None:
                return got
            noise += 1
            if noise > BURST and time.monotonic() >= deadline:
                return None

    def poll(self, wait_s: float = 0.0) -> list[Event]:
        """Events that arrived (waiting up to wait_s for the first)."""
        out: list[Event] = []
        deadline = time.monotonic() + wait_s
        while len(out) < BURST:
            got = self._next(deadline if not out else time.monotonic())
            if got is None:
                return out
            out.append(got)
            if self.on_event:
                self.on_event(*got)
        return out

    def request(self, line: str, timeout_s: float | None = None, replay: bool = False) -> str:
        """Send one line; the reply text after "ok " (BoardError for "error ...").  A request
        is one line of printable ASCII, always: one that is not (a newline or U+2028 would
        split it into two requests, whose replies then go out of step) is refused here,
        before any byte of it is sent, as the board refuses such a line (`bad-bytes`).

        replay (`since`): the board's answer is every message it missed, then the reply;
        the wait starts again with each message that comes (a loaded board or host takes
        longer than the timeout over a long replay, and one cut short is asked again), for
        up to REPLAY_WAITS timeouts in all."""
        bad = next((i for i, c in enumerate(line) if not " " <= c <= "~"), None)
        if bad is not None:
            raise BoardError("bad-bytes", f"{printable(line[bad])} at {bad + 1} of a request: a request to the board is one "
                                          "line of printable ASCII (nothing of it was sent)")
        try:
            self.ser.write(line.encode("ascii") + b"\n")
        except OSError as e:
            raise LinkError(f"{self.port}: the link dropped ({e})") from None
        wait = self.timeout_s if timeout_s is None else timeout_s
        deadline = time.monotonic() + wait
        cap = deadline + (self.timeout_s if not replay else wait * (REPLAY_WAITS - 1))  # (events flooding)
        while True:
            got = self._next(deadline)
            if got is None or time.monotonic() > cap:
                raise BridgeTimeout(f"no reply to {line.split()[0] if line.split() else 'the line'!r}")
            if replay:
                deadline = min(cap, time.monotonic() + wait)
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
        ("version 3 <firmware> <profile> <board id> <boot>"), and keeps its board id and
        power-up id in board_id and boot.  Replies owed to another program's lines (one
        that gave up on a board too busy to answer) are passed over: the version asked
        for is followed by `since` a number no board reaches, and the link is ours once
        that number comes back (docs/protocol.md, Framing)."""
        # A newline first ends whatever half line another program (mpremote, a reset)
        # left in the board's buffer; the error it may earn is not our reply.
        token = random.randrange(SEQ_MAX >> 1, SEQ_MAX)
        self.ser.write(b"\nversion\nsince %d\n" % token)
        deadline = time.monotonic() + timeout_s
        mine = "ok since %d " % token
        text = None
        while True:
            got = self._next(deadline)
            if got is None or time.monotonic() > deadline + timeout_s:
                raise LinkError(f"{self.port}: no answer: not an eboard, or not running its firmware")
            seq, line = got
            if line.startswith("ok version"):
                words = line.split()
                if len(words) < 3 or words[2] != str(PROTOCOL):
                    raise LinkError(f"{self.port}: the board speaks protocol {words[2:3]}, this host {PROTOCOL}")
                text = line  # the last before our number's reply is the answer to ours
            elif line.startswith(mine) and text is not None:
                break
            elif not line.startswith(("ok", "error")) and self.on_event:
                self.on_event(seq, line)
        words = text.split()
        self.board_id = words[5] if len(words) > 5 else ""
        self.boot = int(words[6]) if len(words) > 6 and words[6].isdigit() else None
        return text[3:]
