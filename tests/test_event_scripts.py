"""The event scripts of tests/scripts (format: tests/mpy/scriptrun.py) on CPython."""

import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "mpy"))
from scriptrun import run_script  # noqa: E402

SCRIPTS = sorted((ROOT / "tests" / "scripts").glob("*.txt"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_event_script(script, tmp_path):
    run_script(script.read_text(), str(tmp_path / "journal.bin"))
