"""The club room as a person starts it (`eboard serve --sim N`, README "Clubs and tournaments"):
every game of the rules core is played by the virtual hands through the boards, and the
archive holds the moves of every game; no board sticks in correction (issue #21, break 5:
the hands planned Courier from another start than the board's)."""

import signal
import subprocess

from firmware.rules import GAMES
from host.record import Archive
from walkutil import EBOARD, person

PLIES = 10  # plies a game (fewer where the game ended sooner): every game under way
GUARD_S = 400  # a guard only: the hands move at the boards' pace, however busy the machine


def _progress(path):
    """{game: most plies of a game of it, or PLIES if one ended} from the archive."""
    got = {}
    if not path.exists():
        return got
    a = Archive(path)
    try:
        for g in a.games():
            n = PLIES if g.ended else len(a.moves(g.id))
            got[g.game] = max(got.get(g.game, 0), n)
    finally:
        a.close()
    return got


def test_serve_sim_plays_every_game_without_sticking(tmp_path):
    archive = tmp_path / "club.sqlite"
    proc = subprocess.Popen([EBOARD, "serve", "--sim", str(len(GAMES)), "--archive", str(archive)],
                            env=person(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        import time

        deadline = time.monotonic() + GUARD_S
        got = {}
        while time.monotonic() < deadline and proc.poll() is None:
            got = _progress(archive)
            if all(got.get(g, 0) >= PLIES for g in GAMES):
                break
            time.sleep(2)
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert {g: got.get(g, 0) for g in GAMES} == {g: max(got.get(g, 0), PLIES) for g in GAMES}, (got, err[-2000:])
    assert "internal error" not in err and "Traceback" not in err, err
    assert f"starting {len(GAMES)} virtual boards" in out


def test_the_hands_take_up_a_game_begun_in_the_journal_appended_or_written_anew(tmp_path):
    # The board appends a new game to its journal (firmware/new_journal.py): the hands saw
    # a new game only in a journal written anew, and stopped after their first two games.
    import random
    from types import SimpleNamespace

    from firmware.journal import Journal
    from host.session.club import Hands

    hands = Hands(SimpleNamespace(board_dir=tmp_path), 0, random.Random(1), 4, 700)
    journal = Journal(str(tmp_path / "journal.bin"))
    fed = tmp_path / "hands"

    def games_fed():
        return fed.read_text().count("\ngame ") + fed.read_text().startswith("game ") if fed.exists() else 0

    journal.rewrite(["N 1 0000000a chess -", "S 257"])
    hands.look()
    journal.append("M 2 e2e4")
    hands.look()
    assert games_fed() == 0
    journal.append("N 3 0000000b checkers12 -")
    journal.append("M 4 c3d4")
    hands.look()
    assert games_fed() == 1
    hands.look()
    journal.rewrite(["N 3 0000000b checkers12 -", "M 4 c3d4", "N 5 0000000c lippo -"])
    hands.look()
    assert games_fed() == 2
