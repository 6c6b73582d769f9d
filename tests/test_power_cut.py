"""Power cuts: the virtual board killed at random points of a game played by hands (and
once in the middle of a journal record), then powered on again: every accepted move is
there, and no move that was not played.  And the host killed mid-game."""

import random
import signal
import subprocess
import time

import pytest
from test_host import BIN, hands_script, needs_mpy, random_game, timed_script

from host.archive import Archive
from host.link import BoardLink
from host.vboard import VirtualBoard


def play_with_cuts(tmp_path, gid, moves, cuts, torn=None):
    """Play moves by hand on a virtual board, killing it before the steps in cuts (and,
    with torn=(step, n), cutting the power n bytes into the journal record that step
    writes).  Returns the board's history at the end."""
    vb = VirtualBoard(tmp_path / "board", realtime=False)
    vb.start()
    link = BoardLink(vb.port, timeout_s=3)
    try:
        link.hello()
        link.request(f"new {gid}")
        link.request("sim setup")
        link.request("sim wait 100")
        steps = hands_script(gid, moves)
        for i, step in enumerate(steps):
            if i in cuts or (torn and i == torn[0] + 1 and not vb.alive()):
                link.close()
                if vb.alive():
                    vb.kill()
                vb.restart()
                link = BoardLink(vb.port, timeout_s=3)
                link.hello()
            if torn and i == torn[0]:
                link.request(f"sim cut {torn[1]}")
            try:
                link.request("sim " + step)
            except Exception:
                if vb.alive():
                    raise  # only the torn write may end the board
        if not vb.alive():
            link.close()
            vb.restart()
            link = BoardLink(vb.port, timeout_s=3)
            link.hello()
        link.request("sim wait 3000")
        return link.request("history").split()[1:]
    finally:
        link.close()
        vb.stop()


@needs_mpy
@pytest.mark.parametrize("gid,seed", [("chess", 1), ("lippo", 2), ("checkers12", 3)])
def test_the_board_resumes_after_power_cuts(tmp_path, gid, seed):
    moves = random_game(gid, 8, seed)
    n_steps = len(hands_script(gid, moves))
    rng = random.Random(seed)
    cuts = set(rng.sample(range(1, n_steps), 4))
    assert play_with_cuts(tmp_path, gid, moves, cuts) == moves


@needs_mpy
@pytest.mark.parametrize("nbytes", [1, 3, 7])
def test_a_power_cut_in_the_middle_of_a_journal_record(tmp_path, nbytes):
    moves = random_game("chess", 4, 7)
    steps = hands_script("chess", moves)
    # the wait after the second move's last place: the move is made, and journaled, then
    waits = [i for i, s in enumerate(steps) if s == "wait 3000"]
    assert play_with_cuts(tmp_path, "chess", moves, set(), torn=(waits[1], nbytes)) == moves


@needs_mpy
def test_a_killed_host_and_its_restart_lose_nothing(tmp_path):
    moves = random_game("chess", 14, 21)
    lines, ms = timed_script("chess", moves)
    d = tmp_path / "board"
    d.mkdir()
    (d / "autoplay.txt").write_text("\n".join(lines) + "\n")
    archive = tmp_path / "a.sqlite"
    with VirtualBoard(d, realtime=True) as vb:
        args = [BIN / "eboard", "serve", "--archive", archive, "--port", vb.port]
        serve = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(ms / 1000 / 3)
        serve.send_signal(signal.SIGKILL)  # the host dies mid-game
        serve.wait()
        time.sleep(ms / 1000 / 3)  # the board plays on, nobody listens
        serve = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + ms / 1000 + 60
        got = []
        while time.monotonic() < deadline:
            time.sleep(0.5)
            a = Archive(archive)
            got = [a.moves(g.id) for g in a.games() if a.moves(g.id)]
            a.close()
            if got and got[-1] == moves:
                break
        serve.send_signal(signal.SIGINT)
        serve.communicate(timeout=30)
    assert got[-1] == moves
