"""Sensor faults during games (tests/mpy/faults.py): the moves recorded are the moves
played, whatever the noise; a correction, when the board cannot tell, recovers."""

import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "mpy"))
import faults  # noqa: E402


@pytest.mark.parametrize("gid,seed", [("chess", 1), ("chess", 2), ("lippo", 3), ("lippo", 4), ("checkers12", 5)])
def test_noisy_games_record_the_moves_played(gid, seed, tmp_path):
    n, problem = faults.run(gid, 40, seed, str(tmp_path / "journal.bin"))
    assert problem is None, problem
    assert len(n.expected) >= 5 and n.faults >= 10
