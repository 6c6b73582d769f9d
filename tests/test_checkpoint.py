"""Checkpoints in the journal (issue #23 item 4): a power-up resumed from the last
checkpoint holds byte for byte the state a replay from the start builds, and goes on the
same, over random games of every game with takebacks across the checkpoint and
repetitions (tests/mpy/checkpoints.py; tests/mpy/test_checkpoint.py on the unix port)."""

import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "mpy"))

from checkpoints import compare  # noqa: E402

from firmware.rules import GAMES  # noqa: E402


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_a_resume_from_a_checkpoint_is_a_replay_from_the_start(gid, tmp_path):
    # one random game a game id (tests/mpy/test_checkpoint.py plays other seeds on MicroPython)
    seed = 1 + sorted(GAMES).index(gid)
    used, compared, problems = compare(gid, seed, 160, str(tmp_path))
    assert not problems, problems[0]
    assert compared and used, (used, compared)
