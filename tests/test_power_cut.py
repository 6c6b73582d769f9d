"""Power cuts: the virtual board killed at random points of a game played by hands (and
once in the middle of a journal record), then powered on again: every accepted move is
there, and no move that was not played.  And the host killed mid-game."""

import random
import signal
import subprocess
import time

import pytest
from test_host import BIN, hands_for, needs_mpy, random_game, timed_script

from host.record.archive import Archive
from host.link import BoardLink
from host.link.virtual import VirtualBoard


class CutBoard:
    """A virtual board whose power can be cut, with a player at it who checks, after each
    move, that the board took it, and makes it again if a cut came before it did."""

    def __init__(self, tmp_path, gid):
        self.vb = VirtualBoard(tmp_path / "board", realtime=False)
        self.vb.start()
        self.link = self._connect()
        for line in (f"new {gid}", "sim setup", "sim wait 100"):
            self.link.request(line)
        self.gid = gid
        self.kills = self.torn = self.redone = 0
        self.accepted = []  # what the board had accepted, as last seen
        self.problems = []

    def _connect(self):
        link = BoardLink(self.vb.port, timeout_s=3)
        link.hello()
        return link

    def power_on(self):
        self.link.close()
        if self.vb.alive():
            self.vb.kill()
            self.kills += 1
        else:
            self.torn += 1
        self.vb.restart()
        self.link = self._connect()
        history = self.link.request("history").split()[1:]
        if history[: len(self.accepted)] != self.accepted:
            self.problems.append(f"after the cut the board has {history}, it had accepted {self.accepted}")

    def step(self, step):
        try:
            self.link.request("sim " + step)
        except Exception:
            if self.vb.alive():
                raise
            self.power_on()  # the cut came in the middle of a journal record

    def move(self, text, steps, cut_before=(), cut_record=None):
        """Make one move: its steps, the power cut before the steps in cut_before (and
        n bytes into the journal record, with cut_record = (step, n))."""
        for i, step in enumerate(steps):
            if i in cut_before:
                self.power_on()
            if cut_record and cut_record[0] == i:
                self.link.request(f"sim cut {cut_record[1]}")
            self.step(step)
        self.step("wait 3000")
        history = self.link.request("history").split()[1:]
        if len(history) == len(self.accepted):
            # The cut came between the last place and the board taking the move: the
            # player sees the board waiting, puts things back and plays the move again.
            self.redone += 1
            self.link.request("sim setup")
            self.link.request("sim wait 100")
            for step in steps:
                self.step(step)
            self.step("wait 3000")
            history = self.link.request("history").split()[1:]
        if history != self.accepted + [text]:
            self.problems.append(f"played {self.accepted + [text]}, the board has {history}")
        self.accepted = history

    def close(self):
        self.link.close()
        self.vb.stop()


def play_with_cuts(tmp_path, gid, moves, rng, p_kill=0.1, p_torn=0.0, torn_at=None):
    """Play moves by hand, cutting the power at random steps; returns the CutBoard.
    torn_at: for each move, the byte of its journal record the power is cut at."""
    from firmware.rules import new_position

    board = CutBoard(tmp_path, gid)
    try:
        pos = new_position(gid)
        for k, text in enumerate(moves):
            m = pos.parse_move(text)
            steps = hands_for(pos, m)
            cuts = {i for i in range(len(steps)) if rng.random() < p_kill}
            record = (len(steps) - 1, rng.randrange(1, 12)) if rng.random() < p_torn else None
            if torn_at is not None:
                record = (len(steps) - 1, torn_at[k])
            board.move(text, steps, cuts, record)
            pos.push(m)
    finally:
        board.close()
    return board


@needs_mpy
@pytest.mark.parametrize("gid,seed", [("chess", 1), ("lippo", 2), ("checkers12", 3)])
def test_the_board_resumes_after_power_cuts(tmp_path, gid, seed):
    moves = random_game(gid, 8, seed)
    board = play_with_cuts(tmp_path, gid, moves, random.Random(seed), p_kill=0.15)
    assert not board.problems, board.problems
    assert board.accepted == moves and board.kills >= 2


@needs_mpy
def test_a_power_cut_in_the_middle_of_a_journal_record(tmp_path):
    # every move's record torn, each at another byte: in its length, its text ("M 12 e2e4")
    # and its CRC (a move's record is some 16 bytes)
    moves = random_game("chess", 4, 7)
    board = play_with_cuts(tmp_path, "chess", moves, random.Random(1), p_kill=0.0, torn_at=[1, 4, 7, 11])
    assert not board.problems, board.problems
    assert board.accepted == moves and board.torn == 4


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
        try:
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
        finally:
            if serve.poll() is None:  # a serve left running would grab later ptys
                serve.kill()
                serve.wait()
    assert got[-1] == moves
