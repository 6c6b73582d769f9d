"""The `eboard moves` / `eboard perft` contract of notation.md, run as a real console script."""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

EBOARD = shutil.which("eboard", path=str(Path(sys.executable).parent)) or "eboard"


# An archive of the tests' own: never the machine's home archive (another eboard's, maybe newer).
ENV = dict(os.environ, EBOARD_DATA=tempfile.mkdtemp(prefix="eboard-test-cli-"))


def run(*args):
    return subprocess.run([EBOARD, *args], capture_output=True, text=True, timeout=120, env=ENV)


def test_moves_of_the_start_positions():
    r = run("moves", "chess")
    assert r.returncode == 0 and len(r.stdout.split()) == 20 and "e2e4" in r.stdout.split()
    r = run("moves", "lippo")
    assert r.returncode == 0 and len(r.stdout.split()) == 150
    r = run("moves", "checkers12", "--fen", "12/12/12/12/12/12/12/12/12/2m9/1M10/12 w - - 0 1")
    assert r.stdout.split() == ["b2d4"]


def test_perft_prints_the_count_last():
    r = run("perft", "chess", "3")
    assert r.returncode == 0 and r.stdout.splitlines()[-1] == "8902"
    r = run("perft", "lippo", "2", "--fen", "kmhagdpgahmk/eontlffltnoe/ussssssssssu/12/12/12/12/12/12/"
            "USSSSSSSSSSU/EONTLFFLTNOE/KMHAGDPGAHMK w KQkq - 0 1")
    assert r.stdout.splitlines()[-1] == "22500"
    r = run("perft", "checkers12", "0")
    assert r.stdout.splitlines()[-1] == "1"
    r = run("perft", "chess", "2", "--divide")
    lines = r.stdout.splitlines()
    assert len(lines) == 21 and lines[-1] == "400" and sum(int(x.split()[1]) for x in lines[:-1]) == 400


@pytest.mark.parametrize(
    "args,word",
    [
        (("moves", "go"), "unknown game"),
        (("perft", "shogi", "1"), "unknown game"),
        (("moves", "chess", "--fen", "rnbqkbnr/pppppppp/8/8 w - - 0 1"), "bad FEN"),
        (("moves", "lippo", "--fen", "garbage"), "bad FEN"),
        (("perft", "chess", "x"), "bad depth"),
        (("perft", "chess", "-1"), "bad depth"),
        (("perft", "chess"), "required"),
        (("perft", "chess", "999"), "bad depth"),
        (("sim", "--game", "shogi"), "unknown game"),
        (("play", "--sim", "--date", "tomorrow"), "YYYY.MM.DD"),
        (("sim", "--game", "chess", "--fen", "8/8 w - - 0 1"), "bad FEN for chess"),
        (("sim", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"), "--fen needs --game"),
        (("replay-sensors", "/no/such/file", "--game", "chess"), "cannot read"),
        (("umpire", "checkers12"), "Kriegspiel"),
        (("kriegspiel", "--sim", "--game", "shogi"), "Kriegspiel is played in"),
        (("show", "last", "--delay", "-1"), "bad delay"),
        (("play", "--sim", "--battle", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"), "takes no --fen"),
        (("nosuch",), "invalid choice"),
        (("moves", "chess", "--fen", ""), "empty"),
        (("kriegspiel", "--sim", "--fen", "bad"), "bad FEN for chess"),
        (("sim", "--dir", "/proc/no/such"), "cannot use /proc/no/such"),
        (("umpire", "chess", "--rules", "x"), "invalid choice"),
        (("web", "70000"), "bad port 70000"),
        (("show", "last", "--delay", "1e308"), "bad delay"),
        (("show", "last", "--delay", "nan"), "bad delay"),
        (("show", "99999999999999999999999"), "is not a game id"),
        (("serve", "--port", "/no/a", "--port", "/no/./a"), "/no/./a is given twice"),
        (("kriegspiel", "--white", "/no/a", "--black", "/no/a"), "/no/a is given twice"),
        (("play", "--sim", "--white", "Bob\n[Result"), "one line of text"),
        (("bestmove", "chess", "--fen", "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"), "over in this position (checkmate, 1-0)"),
        (("replay-sensors", "/no/such", "--game", "chess", "--uf2", "x.uf2"), "needs --pico"),
        (("replay-sensors", "/no/such", "--game", "chess", "--pico", "--uf2", "/no/such.uf2"), "cannot read the image"),
        (("play", "--pico", "--uf2", "/proc"), "cannot read the image /proc"),
        (("replay-sensors", "/bin/sh", "--game", "chess"), "is not a sensor script"),
        (("play", "--sim", "--web", "99999"), "bad port 99999"),
        (("web", "0", "--archive", "/proc/no/such/a.sqlite"), "cannot create /proc/no/such"),
    ],
)
def test_errors_are_one_line_and_a_non_zero_exit(args, word):
    r = run(*args)
    assert r.returncode != 0
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and word in lines[0] and "Traceback" not in r.stderr


def test_eboard_alone_lists_its_commands_and_version_answers():
    r = run()
    assert r.returncode == 0 and all(c in r.stdout for c in ("moves", "play", "export", "kriegspiel", "serve"))
    r = run("--version")
    assert r.returncode == 0 and r.stdout.startswith("eboard 0.")


def test_a_start_is_checked_before_any_board_hears_of_it(tmp_path):
    chess_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    for args, words in [
        (("play", "--sim", "--fen", chess_fen), ("bad FEN for lippo", "add --game chess")),
        (("play", "--sim", "--game", "chess", "--fen", chess_fen.replace("pppppppp", "ppppppp")),
         ("bad FEN for chess", "rank 7")),
        (("play", "--sim", "--game", "chess", "--fen", chess_fen.replace(" w ", " x ")), ("bad FEN for chess",)),
    ]:
        r = run(*args, "--archive", str(tmp_path / "a.sqlite"))
        assert r.returncode == 2 and r.stdout == "", (args, r.stderr)
        assert r.stderr.count("\n") == 1 and all(w in r.stderr for w in words), (args, r.stderr)
    assert not (tmp_path / "a.sqlite").exists()  # state unchanged: no archive made


def test_looking_in_an_archive_that_is_not_there_makes_none(tmp_path):
    path = tmp_path / "no" / "such" / "a.sqlite"
    r = run("games", "--archive", str(path))
    assert r.returncode == 0 and r.stdout.strip() == f"no games yet in {path}"
    for args, word in [(("show", "999"), "no game 999"), (("export", "x", "--pgn"), "not a game id"),
                       (("delete", "0"), "no game 0"), (("tag", "1", "White", "Bob"), "no game 1"),
                       (("play", "--sim", "--resume", "5"), "no game 5")]:
        r = run(*args, "--archive", str(path))
        assert r.returncode == 2 and r.stdout == "" and "Traceback" not in r.stderr, (args, r.stderr)
        assert r.stderr.count("\n") == 1 and word in r.stderr, (args, r.stderr)
    assert not (tmp_path / "no").exists()  # nothing made: no folder, no file, no sim-board/


def test_serve_says_a_web_port_in_use_before_any_virtual_board_starts(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        r = run("serve", "--sim", "1", "--web", str(s.getsockname()[1]), "--archive", str(tmp_path / "a.sqlite"))
    assert r.returncode == 2 and r.stdout == "" and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and "cannot listen" in r.stderr


def test_the_view_does_not_say_archived_before_the_archive_keeps_the_game():
    from host.session import Snapshot, render

    start = Snapshot(game="chess", fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", game_id=4)
    assert "game #4: archived once a move is made" in render(start)
    own = Snapshot(game="chess", fen="4k3/8/8/8/8/8/8/4K3 w - - 0 1", game_id=4)  # a FEN's game is kept at once
    assert "archived as game #4" in render(own)
    start.moves = ["e4"]
    assert "archived as game #4" in render(start)


def test_replay_sensors_says_when_the_board_ends_out_of_step(tmp_path):
    script = tmp_path / "same_scan.txt"
    script.write_text("lift e2\nplace e4\nlift e7\nplace e5\n")  # no wait: one scan, the board corrects
    r = run("replay-sensors", str(script), "--game", "chess")
    assert r.returncode == 0 and r.stdout == "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
    assert r.stderr.count("\n") == 1 and "ends correcting, not idle" in r.stderr


def test_a_backgrounded_serve_still_stops_on_sigint(tmp_path):
    # A script's `eboard serve &` inherits Ctrl-C ignored: kill -INT must stop it cleanly.
    import signal

    p = subprocess.Popen([EBOARD, "serve", "--sim", "1", "--archive", str(tmp_path / "a.sqlite")],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        seen = []  # serve has set its Ctrl-C handler before its first line; it is following once connected
        while not seen or not seen[-1].endswith(": connected\n"):
            seen.append(p.stdout.readline())
            assert seen[-1], "".join(seen)  # serve ended before it followed its board
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=60)
        out = "".join(seen) + out
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 0, out[-2000:]
    assert "Traceback" not in out
