"""Our Pico image (boards/build-image.sh): the skip of a plain clone, the UF2 it wrote, and
the frozen firmware run on the 32-bit unix port built from the same manifest.

./run-tests.sh builds both before the suite (cached); without ../shared/pico they are not
built and the tests that need them say so."""

import struct
import subprocess

import pytest
from conftest import ROOT
from test_architecture import imports, modules

SCRIPT = ROOT / "boards" / "build-image.sh"
UF2 = ROOT / "build" / "eboard-pico.uf2"
MPY32 = ROOT / "build" / "micropython-32"
NOT_BUILT = "built by ./run-tests.sh (boards/build-image.sh), which needs ../shared/pico"


IMAGE_DIR = ROOT / "boards" / "pico-image"


def frozen(manifest: str) -> set[str]:
    """The modules of ours a manifest of boards/pico-image/ freezes: the file run as
    MicroPython's makemanifest runs it, with its package/module/include read here."""
    out: set[str] = set()

    def package(name, files=None, base_path="."):
        base = (IMAGE_DIR / base_path / name).resolve()
        paths = [base / f for f in files] if files else sorted(base.rglob("*.py"))
        for p in paths:
            parts = list(p.relative_to(base.parent).with_suffix("").parts)
            out.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))

    def module(path, base_path="."):
        out.add(path[: -len(".py")])

    def include(path):
        out.update(frozen(path))

    exec((IMAGE_DIR / manifest).read_text(), {"package": package, "module": module, "include": include})
    return out


# The virtual board's profile: boards/main.py imports it only off the Pico (unix.py freezes it
# for the tests of the image on the 32-bit port).
VIRTUAL = frozen("unix.py") - frozen("eboard.py")


def runs_on_the_pico() -> set[str]:
    """Every module of ours the Pico may import: those the image's main.py imports, and
    theirs, at any depth (a lazy import in a function too), the virtual board's left out."""
    known = modules()
    todo = sorted(imports("main", IMAGE_DIR / "main.py", known))
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name in VIRTUAL:
            continue
        seen.add(name)
        todo += imports(name, known[name], known)
    return seen


def test_every_module_the_pico_imports_is_frozen_into_the_image():
    # boards/picoonce.py (the Pico's power-up code, loaded and dropped) once missing from
    # eboard.py: the image did not boot, seen only on the emulated Pico.
    runs = runs_on_the_pico()
    assert {"boards.main", "boards.pico", "boards.picoonce", "firmware.torn", "firmware.rules.games.lippo"} <= runs
    assert VIRTUAL == {"boards.sim", "boards.simrepl", "boards.simfaults"}
    assert sorted(runs - frozen("eboard.py")) == []


def build(*args, **env):
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT, timeout=60, env=env)


def test_a_plain_clone_skips_the_image_with_one_line(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "EBOARD_MPY_TARBALL": str(tmp_path / "none.tar.gz")}
    r = build("--ci", **env)
    assert r.returncode == 0 and r.stdout == ""
    assert r.stderr.splitlines() == [
        "build-image.sh: skipped: no MicroPython source: %s is missing (a plain clone); "
        "give a checkout: boards/build-image.sh PATH" % (tmp_path / "none.tar.gz")
    ]
    r = build(**env)  # asked for by a person: an error
    assert r.returncode == 1 and "is missing" in r.stderr
    r = build(str(tmp_path), **env)
    assert r.returncode == 1 and r.stderr.strip() == "build-image.sh: %s is not a MicroPython checkout (no ports/rp2)" % tmp_path
    assert not (tmp_path / ".cache").exists()


@pytest.mark.skipif(not UF2.exists(), reason=NOT_BUILT)
def test_a_second_build_of_the_same_sources_is_a_copy_from_the_cache():
    first = subprocess.run([str(SCRIPT), "--ci"], capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert first.returncode == 0, first.stderr  # a copy too when ./run-tests.sh built it just now
    again = subprocess.run([str(SCRIPT), "--ci"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert again.returncode == 0 and again.stderr.startswith("build-image.sh: build/eboard-pico.uf2 from the cache (")


@pytest.mark.skipif(not UF2.exists(), reason=NOT_BUILT)
def test_the_uf2_is_an_rp2040_image_holding_our_firmware():
    data = UF2.read_bytes()
    assert len(data) % 512 == 0
    blocks = [struct.unpack_from("<8I", data, i) for i in range(0, len(data), 512)]
    n = len(blocks)
    for k, (m0, m1, flags, addr, size, no, total, family) in enumerate(blocks):
        assert (m0, m1, struct.unpack_from("<I", data, k * 512 + 508)[0]) == (0x0A324655, 0x9E5D5157, 0x0AB16F30)
        assert flags & 0x2000 and family == 0xE48BFF56  # the RP2040's family id
        assert (addr, size, no, total) == (0x10000000 + 256 * k, 256, k, n)  # flash from its start, no gap
    flash = b"".join(data[i + 32 : i + 32 + 256] for i in range(0, len(data), 512))  # a name may span two blocks
    for name in (b"main.py", b"boards/main.py", b"boards/pico.py", b"firmware/app.py", b"firmware/selftest.py", b"firmware/rules/games/lippo.py"):
        assert name + b"\0" in flash  # the frozen modules' names
    assert b"boards/sim.py\0" not in flash


@pytest.mark.skipif(not MPY32.exists(), reason=NOT_BUILT)
@pytest.mark.parametrize("script", ["test_event_scripts.py", "test_selftest.py", "test_native_frames.py"])
def test_the_frozen_firmware_runs_on_the_32_bit_port(script, tmp_path):
    # Nothing of the firmware on the path but the frozen modules: what the image holds.
    probe = "import firmware.app, boards.sim\nprint(firmware.app.__file__, boards.sim.__file__)\n"
    (tmp_path / "where.py").write_text(probe)
    env = {"MICROPYPATH": ".frozen", "EBOARD_TMP": str(tmp_path)}
    r = subprocess.run([str(MPY32), str(tmp_path / "where.py")], capture_output=True, text=True, cwd=ROOT, env=env)
    assert r.stdout.split() == ["firmware/app.py", "boards/sim.py"], r.stdout + r.stderr  # frozen names, no folder
    r = subprocess.run(
        [str(MPY32), "-X", "heapsize=192K", str(ROOT / "tests" / "mpy" / script)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )
    assert r.returncode == 0 and "ok" in r.stdout.split(), r.stdout + r.stderr
