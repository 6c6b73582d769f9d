"""The board's side of the Millennium ChessLink protocol: a pure state machine, fed the
bytes a chess program sends and giving back the bytes a ChessLink board would answer
(`eboard emulate chesslink`, docs/chesslink.md).

The protocol is the one Millennium's engineer published for the ChessLink module ("Magic
Chessboard Communications Protocol", D. Woodfield, 25/10/17; the copy read here was in
python-mchess, mchess/magic-board.md): 38400 baud, 7 data bits, odd parity, 1 stop bit;
printable ASCII; every message a command letter, its data as upper-case hex digits, and a
block check: the XOR of every character before it, as two hex digits.

    S            -> s + 64 piece codes (A8 ... H8, A7 ... H1; KQRBNP white, kqrbnp black, . empty)
    L tt + 81 LED codes -> l      tt: the slot time (4.096 ms units); an LED code's bits b7..b0
                                  are its on/off pattern, one bit a slot; LED 1 is at the A8
                                  corner, 9 at A1, 73 at H8, 81 at H1 (9 x 9 square corners)
    X            -> x             every LED off
    T            -> (nothing)     reset: LEDs off, status sent again; the E2ROM stays
    V            -> v + 4 hex     the version
    W aa dd      -> w aa dd       write E2ROM address aa; R aa -> r aa dd reads it
      00 b0: 1 = no block check (for typing at a terminal); 01: the scan time (2.048 ms
      units, 15-255, less sets 20); 02 b2..b0: automatic status reports (000 every scan,
      001 none, 010 every [03] x 4.096 ms, 011-111 on a change); 03: that time; 04: LEDs'
      brightness

**Parity on a pseudo-terminal.**  A pty has no line: no baud, no parity, no framing.  The
ChessLink programs that read the board over its USB-serial adapter (python-mchess,
picochess's driver) open the port 8N1 and do the parity themselves: they put each
character's odd-parity bit in bit 7 when they write and strip bit 7 when they read, so
bit 7 carries the parity exactly as a real 7O1 line seen 8N1 does.  This board does the
same: every byte it sends has its odd-parity bit in bit 7; a byte it receives with bit 7
set must have odd parity over its 8 bits (else it is a parity error, as a UART would flag
it, and the message it is in is dropped); a byte with bit 7 clear is taken as a 7-bit
character, as a program that set 7O1 on the pty itself writes it (the pty passes its 7 bits
and adds no parity bit).

**Framing.**  The command letter fixes a message's length.  Bytes that start no command
are dropped; a message whose check or hex digits are wrong, or with a parity error, is
not answered, and reading starts again at its second byte (so a junk letter never eats a
good command after it); a message left half-sent for STALE_MS is dropped the same way.
"""

from __future__ import annotations

BAUD = 38400
STALE_MS = 1000  # a half-sent message waits this long for the rest of its bytes
REPORT_MIN_MS = 30  # automatic reports no oftener than this (a scan is 30.72 ms at the least)
VERSION = (0x01, 0x00)  # what `V` answers: this emulation's version, 1.0
FILES = "abcdefgh"
PIECES = "KQRBNPkqrbnp."
# The data characters after each command letter (without the two check digits).
DATA = {"S": 0, "L": 2 + 81 * 2, "X": 0, "T": 0, "V": 0, "W": 4, "R": 2}
HEX = "0123456789ABCDEFabcdef"
# E2ROM defaults (magic-board.md): checks on, scan 20 x 2.048 ms, a report every scan.
E2ROM_DEFAULTS = {0x00: 0x00, 0x01: 20, 0x02: 0x00, 0x03: 20, 0x04: 15}


def parity(ch: int) -> int:
    """The 7-bit character ch with its odd-parity bit in bit 7."""
    ch &= 0x7F
    return ch | (0x80 if bin(ch).count("1") % 2 == 0 else 0)


def check(text: str) -> str:
    """The block check of a message's characters: their XOR as two upper-case hex digits."""
    x = 0
    for c in text:
        x ^= ord(c) & 0x7F
    return "%02X" % x


def encode(text: str, checked: bool = True) -> bytes:
    """The bytes of a message as they go on the line: its check appended, odd parity in bit 7."""
    full = text + check(text) if checked else text
    return bytes(parity(ord(c)) for c in full)


def square_index(name: str) -> int:
    """A square's place in a status report (a8 = 0, h8 = 7, a7 = 8 ... h1 = 63)."""
    return (8 - int(name[1])) * 8 + FILES.index(name[0])


def status_of(fen: str) -> str:
    """The 64 piece codes of a status report, from a FEN's board field."""
    out = []
    for row in fen.split()[0].split("/"):
        for c in row:
            out.append("." * int(c) if c.isdigit() else c)
    text = "".join(out)
    if len(text) != 64:
        raise ValueError(f"not an 8 x 8 board: {fen!r}")
    return text


def corners(name: str) -> tuple[int, int, int, int]:
    """The four LEDs (0-80) at a square's corners: LED k is corner column k // 9 (0 left of
    the a-file), corner row k % 9 (0 above the 8th rank)."""
    f = FILES.index(name[0])
    top = 8 - int(name[1])
    return (9 * f + top, 9 * f + top + 1, 9 * (f + 1) + top, 9 * (f + 1) + top + 1)


SQUARES = [f + str(r) for r in range(8, 0, -1) for f in FILES]


def lit_squares(leds: bytes | bytearray) -> list[str]:
    """The squares the program lit, a8 first: those whose four corner LEDs are on in the
    same slot of their patterns (two squares lit in turn, as python-mchess shows a move,
    do not light the one between them), less those all of whose corners are the corners of
    other lit squares (e2 and e4 lit alike light every corner of e3 too)."""
    lit = []
    for sq in SQUARES:
        a, b, c, d = corners(sq)
        if leds[a] & leds[b] & leds[c] & leds[d]:
            lit.append(sq)
    for sq in list(lit):
        others: set[int] = set()
        for o in lit:
            if o != sq:
                others.update(corners(o))
        if all(k in others for k in corners(sq)):
            lit.remove(sq)
    return lit


class ChessLink:
    """One ChessLink board as a program sees it: feed() it the bytes the program sent and
    write back what it returns; tick() gives the automatic status reports when they are
    due; set_status() says what stands on the squares.  The LEDs the program asked for are
    in leds (81 pattern bytes); resets counts the `T` commands."""

    def __init__(self, status: str = "." * 64) -> None:
        self.e2rom = bytearray(256)
        for a, v in E2ROM_DEFAULTS.items():
            self.e2rom[a] = v
        self.status = status
        self.leds = bytearray(81)
        self.slot_ms = 0.0  # the LEDs' slot time, as the program set it
        self.resets = 0
        self.rejected = 0  # messages dropped: a bad check, bad digits, a parity error
        self.buf = bytearray()
        self.heard_ms = 0.0  # when the last byte came
        self.sent: str | None = None  # the status last reported
        self.sent_ms: float | None = None

    @property
    def checked(self) -> bool:
        return not self.e2rom[0] & 1

    # ---- what the program sends ---------------------------------------------------------------

    def feed(self, data: bytes, now_ms: float) -> bytes:
        """The program's bytes in; the board's answers out (with any report then due)."""
        out = bytearray()
        if self.buf and now_ms - self.heard_ms >= STALE_MS:
            self._parse(now_ms, out)  # a half-sent message left too long goes before new bytes come
        for b in data:
            if b & 0x80 and bin(b).count("1") % 2 == 0:
                b = 0  # a parity error: NUL starts no command and is no hex digit
            self.buf.append(b & 0x7F)
        if data:
            self.heard_ms = now_ms
        self._parse(now_ms, out)
        out += self.tick(now_ms)
        return bytes(out)

    def _parse(self, now_ms: float, out: bytearray) -> None:
        buf = self.buf
        while buf:
            i = 0
            while i < len(buf) and chr(buf[i]) not in DATA:
                i += 1
            del buf[:i]
            if not buf:
                return
            cmd = chr(buf[0])
            need = 1 + DATA[cmd] + (2 if self.checked else 0)
            if len(buf) < need:
                if now_ms - self.heard_ms >= STALE_MS:
                    self.rejected += 1
                    del buf[:1]
                    continue
                return
            text = bytes(buf[:need]).decode("latin-1")
            if self._valid(text):
                del buf[:need]
                out += self._answer(text[: 1 + DATA[cmd]])
            else:
                self.rejected += 1
                del buf[:1]

    def _valid(self, text: str) -> bool:
        body = text[1:]
        if not all(c in HEX for c in body):
            return False
        if not self.checked:
            return True
        return int(text[-2:], 16) == int(check(text[:-2]), 16)

    def _reply(self, text: str) -> bytes:
        return encode(text, self.checked)

    def _answer(self, text: str) -> bytes:
        cmd, data = text[0], text[1:]
        if cmd == "S":
            self.sent = self.status
            return self._reply("s" + self.status)
        if cmd == "L":
            self.slot_ms = int(data[:2], 16) * 4.096
            self.leds[:] = bytes(int(data[2 + 2 * k: 4 + 2 * k], 16) for k in range(81))
            return self._reply("l")
        if cmd == "X":
            self.leds[:] = bytes(81)
            return self._reply("x")
        if cmd == "T":
            # A reset: the LEDs and the status array cleared (the next report is sent whatever
            # it holds), the E2ROM kept, and no reply.
            self.leds[:] = bytes(81)
            self.sent = None
            self.sent_ms = None
            self.resets += 1
            return b""
        if cmd == "V":
            return self._reply("v%02X%02X" % VERSION)
        address = int(data[:2], 16)
        if cmd == "W":
            value = int(data[2:4], 16)
            if address == 0x01 and value < 15:
                value = 20  # magic-board.md: a scan time under 15 sets 20
            was_checked = self.checked
            self.e2rom[address] = value
            # The reply to the write that turns the check off (or on) is still framed as
            # the write was.
            return encode("w%02X%02X" % (address, value), was_checked)
        return self._reply("r%02X%02X" % (address, self.e2rom[address]))

    # ---- what stands on the board --------------------------------------------------------------

    def set_status(self, status: str) -> None:
        """The 64 piece codes now on the board (a8 ... h1); a change is reported as the
        automatic reports are set (tick)."""
        if len(status) != 64 or any(c not in PIECES for c in status):
            raise ValueError(f"a status is 64 of {PIECES!r}: {status!r}")
        self.status = status

    def report_every_ms(self) -> float | None:
        """How often the board reports whatever changed or not (None: only on a change or never)."""
        mode = self.e2rom[2] & 7
        if mode == 0:
            return max(REPORT_MIN_MS, self.e2rom[1] * 2.048)
        if mode == 2:
            return max(REPORT_MIN_MS, self.e2rom[3] * 4.096)
        return None

    def tick(self, now_ms: float) -> bytes:
        """The automatic status report due now (b"" if none), and a half-sent message that
        waited too long dropped."""
        if self.buf and now_ms - self.heard_ms >= STALE_MS:
            out = bytearray()
            self._parse(now_ms, out)
            if out:
                return bytes(out) + self.tick(now_ms)
        mode = self.e2rom[2] & 7
        if mode == 1:
            return b""
        every = self.report_every_ms()
        if every is not None:
            if self.sent_ms is not None and now_ms - self.sent_ms < every:
                return b""
        elif self.status == self.sent:
            return b""
        self.sent = self.status
        self.sent_ms = now_ms
        return self._reply("s" + self.status)


__all__ = ["BAUD", "ChessLink", "Pieces", "check", "corners", "encode", "lit_squares", "parity", "square_index",
           "status_of"]


class Pieces:
    """What stands on the 64 squares, followed from the board's events: the position's men
    (reset() after every move), a lifted man gone from his square until he is put down.
    The board's switches see a man, not which: one put down is the man lifted last and
    not yet put down, else the position's man of that square, else a white pawn (a man
    brought in from off the board)."""

    def __init__(self, fen: str) -> None:
        self.squares = list(status_of(fen))
        self.position = "".join(self.squares)
        self.hand: list[str] = []

    def reset(self, fen: str) -> None:
        """The pieces stand as the position says (after a move, a new game, a setup)."""
        self.squares = list(status_of(fen))
        self.position = "".join(self.squares)
        self.hand = []

    def clear(self) -> None:
        """No man on the board (a game's men still to be set up)."""
        self.squares = ["."] * 64
        self.hand = []

    def lift(self, name: str) -> None:
        i = square_index(name)
        if self.squares[i] != ".":
            self.hand.append(self.squares[i])
        self.squares[i] = "."

    def place(self, name: str) -> None:
        i = square_index(name)
        if self.hand:
            self.squares[i] = self.hand.pop()
        elif self.position[i] != ".":
            self.squares[i] = self.position[i]
        else:
            self.squares[i] = "P"

    @property
    def status(self) -> str:
        return "".join(self.squares)
