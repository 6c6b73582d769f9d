"""Kriegspiel and the archive's commands walked as a person walks them (issue #21): the real
`eboard` console script in a pseudo-terminal (pexpect), typed into line by line."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect", reason="pip install pexpect (the test extra)")

EBOARD = shutil.which("eboard", path=str(Path(sys.executable).parent)) or "eboard"
WAIT_S = 120  # a guard only: a virtual board's start on a busy machine


def eboard(tmp_path, *args):
    """One eboard command run to its end: (exit code, stdout, stderr)."""
    env = dict(os.environ, EBOARD_DATA=str(tmp_path))
    r = subprocess.run([EBOARD, *args], capture_output=True, text=True, timeout=WAIT_S, env=env)
    return r.returncode, r.stdout, r.stderr


class Krieg:
    """`eboard kriegspiel --sim ...` in a pty; type() a line, then expect() what comes."""

    def __init__(self, tmp_path, *args):
        env = dict(os.environ, EBOARD_DATA=str(tmp_path))
        self.p = pexpect.spawn(EBOARD, ["kriegspiel", "--sim", *args], env=env, encoding="utf-8",
                               timeout=WAIT_S, dimensions=(50, 200))
        self.p.expect("Type a move")

    def type(self, line):
        self.p.sendline(line)

    def expect(self, pattern):
        self.p.expect(pattern)
        return self.p.before + self.p.after

    def quit(self):
        self.type("quit")
        self.expect(r"\[y/N\]")
        self.type("y")
        self.p.expect(pexpect.EOF)
        text = self.p.before
        self.p.close()
        return text


def test_a_pawn_tries_a_capture_onto_a_square_its_own_board_shows_empty(tmp_path):
    k = Krieg(tmp_path, "--standard")
    k.type("e4")
    k.expect(r"\[white\] White has moved\.")
    k.type("d5")
    k.expect(r"\[black\] Black has moved\.")
    k.type("ask")
    k.expect(r"\[white\] Yes\.")
    k.expect(r"around the board: .*W the umpire's Yes")  # the answer in its own words, not "winner"
    k.type("exd5")  # d5 looks empty on White's own board: the umpire judges it
    k.expect(r"\[white\] You try e4d5")
    k.expect(r"\[black\] White captures on d5\.")
    k.type("c5")
    k.expect(r"\[black\] Black has moved\.")
    k.type("ask")
    k.expect(r"\[white\] Yes\.")  # en passant
    k.type("dxc6")  # c6 looks empty on White's board, and is empty: still a capture (e.p.)
    k.expect(r"\[black\] White captures on c5\.")
    k.type("Qh4")  # Black's queen cannot pass its own e7 pawn: a typing error, told Black only
    k.expect(r"\[black\] Qh4: ")
    k.type("board")
    told = k.expect(r"the umpire told you: [^\r\n]*\r\n")
    assert "Qh4" not in told.split("the umpire told you:")[-1]  # a typing error is no attempt
    k.type("bxc6")
    k.expect(r"\[white\] Black captures on c6\.")
    k.quit()


def _port(proc):
    proc.expect(r"(/dev/pts/\d+|/tmp/\S+)")
    return proc.match.group(1)


def test_each_player_s_secret_page_goes_to_their_own_view_only(tmp_path):
    env = dict(os.environ, EBOARD_DATA=str(tmp_path))
    boards = [pexpect.spawn(EBOARD, ["sim"], env=env, encoding="utf-8", timeout=WAIT_S) for _ in range(2)]
    try:
        ports = [_port(b) for b in boards]
        views = {side: tmp_path / f"{side}.txt" for side in ("white", "black")}
        k = pexpect.spawn(EBOARD, ["kriegspiel", "--white", ports[0], "--black", ports[1], "--standard",
                                   "--web", "0", "--white-view", str(views["white"])],
                          env=env, encoding="utf-8", timeout=WAIT_S, dimensions=(50, 200))
        k.expect("Type a move")
        screen = k.before
        assert "/k/" in screen and re.search(r"web, spectators: \S+/k/\w+/watch", screen)
        assert not re.search(r"/k/\w+/(?!watch)\S+", screen)  # no player's secret on the shared screen
        assert "give --black-view PATH" in screen
        white = views["white"].read_text()
        assert len(re.findall(r"/k/\w+/(?!watch)\S{43}", white)) == 1 and "web, white:" in white
        k.sendline("quit")
        k.expect(r"\[y/N\]")
        k.sendline("y")
        k.expect("kept")
        k.sendeof()
        k.expect(pexpect.EOF)
    finally:
        for b in boards:
            b.kill(2)
            b.close()


def _first_move(game):
    """A legal first move of White's in game's start, as squares."""
    from firmware.app import start_position

    pos = start_position(game)
    return pos.move_str(pos.legal_moves()[0])


@pytest.mark.parametrize("game", ["chess", "courier", "gardner", "lippo"])
def test_kriegspiel_in_every_game_to_a_resignation(tmp_path, game):
    """Every game Kriegspiel plays, as its help lists the commands: help, an attempt
    (not in chess, whose default start is the screened free setup), board, resign; the
    game ends in words and is archived as a Kriegspiel game."""
    k = Krieg(tmp_path, "--game", game)
    k.type("help")
    k.expect(r"resign +the side to move resigns")
    if game != "chess":
        k.type(_first_move(game))
        k.expect(r"\[white\] White has moved\.")
        k.type("board")
        k.expect(r"the umpire told you: [^\r\n]*White has moved")
    k.type("resign")
    winner = "1-0" if game != "chess" else "0-1"  # the side to move resigns: Black after an attempt
    k.expect(r"The game is over: " + winner)
    k.expect(r"archived as game 1")
    k.p.expect(pexpect.EOF)
    code, out, _ = eboard(tmp_path, "games")
    assert code == 0 and re.search(rf"^ +1 .* {game} +Kriegspiel .* {winner} \(resigned\)", out, re.M), out


def test_ctrl_c_in_kriegspiel_keeps_the_game_in_the_archive(tmp_path):
    """The README: "the game is kept in the archive as it goes". Found by the walk: after
    an attempt, Ctrl-C, and `eboard games` says there are no games."""
    k = Krieg(tmp_path, "--standard")
    k.type("e4")
    k.expect(r"\[white\] White has moved\.")
    k.p.sendintr()
    k.p.expect(pexpect.EOF)
    k.p.close()
    assert "Traceback" not in k.p.before
    code, out, _ = eboard(tmp_path, "games")
    assert code == 0 and re.search(r"^ +1 .* chess +Kriegspiel +1 ply +adjourned", out, re.M), out
