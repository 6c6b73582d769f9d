"""The firmware on an emulated Pico (boards/emu: rp2040js running MicroPython's own
RP2040 firmware), reached as a board on USB through a pseudo-terminal.

`./flash.sh PORT` puts the firmware onto stock MicroPython once (test_flash_sh); the
flash image it leaves is shared by the other tests, each on its own copy.  With
EBOARD_PICO_UF2 (default build/eboard-pico.uf2), every test runs on that image too.
Slow by nature: each test is a real chip running for seconds of emulated time.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from conftest import ROOT
from pico_util import run_pico, run_virtual

from host.link import BoardError, BoardLink
from host.link.pico import EmulatedPico, Hands, PicoError, firmware_key, make_flash, missing, wait_firmware
from host.link.virtual import VirtualBoard

WHY = missing()
pytestmark = pytest.mark.skipif(WHY is not None, reason=f"no emulated Pico: {WHY}")

IMAGE_UF2 = Path(os.environ.get("EBOARD_PICO_UF2", ROOT / "build" / "eboard-pico.uf2"))
MPREMOTE = str(ROOT / ".venv" / "bin" / "mpremote") if (ROOT / ".venv" / "bin" / "mpremote").exists() else "mpremote"


@pytest.fixture(scope="session", params=["stock", "image"])
def flashed(request, tmp_path_factory):
    """(the firmware's name, a flash image with our firmware running), made once for all
    workers (a lock beside pytest's temporary folders)."""
    kind = request.param
    if kind == "image" and not IMAGE_UF2.exists():
        pytest.skip(f"no eboard image at {IMAGE_UF2} (EBOARD_PICO_UF2)")
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's folder, above the workers' own
    uf2 = IMAGE_UF2 if kind == "image" else None
    image = shared / f"pico-{kind}-{firmware_key(uf2)}.flash"
    with open(shared / "pico-flash.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not image.exists():
            try:
                report = make_flash(image, uf2, log=shared / f"pico-{kind}.log")
            except PicoError as e:
                pytest.fail(str(e))
            image.with_suffix(".flashsh").write_text(report)
    return kind, image


@pytest.fixture
def pico(flashed, tmp_path):
    """A running emulated Pico on a copy of the flashed image."""
    kind, image = flashed
    flash = tmp_path / "pico.flash"
    shutil.copy(image, flash)
    p = EmulatedPico(flash, log_path=tmp_path / "pico.log")
    p.start()
    wait_firmware(p.port)
    yield p
    p.stop()


def test_flash_sh(flashed):
    """./flash.sh PORT onto stock MicroPython copied and verified every file, and the
    board then booted main.py into its game (the fixture checked its hello)."""
    kind, image = flashed
    if kind != "stock":
        pytest.skip("flash.sh is for stock MicroPython")
    said = image.with_suffix(".flashsh").read_text()
    assert "verified" in said and "files on" in said


SCRIPTS = ["chess_captures", "chess_castling", "chess_en_passant", "chess_promotion"]
SCRIPTS += ["lippo_fougasse", "checkers_chain"]


@pytest.mark.parametrize("name", SCRIPTS)
def test_script_same_as_virtual_board(name, pico, tmp_path):
    """The real pico profile on the emulated chip: the same moves, the same LED colours
    at every checkpoint, the same final position as the virtual board."""
    text = (ROOT / "tests" / "scripts" / f"{name}.txt").read_text()
    with BoardLink(pico.port, timeout_s=30) as link:
        link.hello(timeout_s=20)
        brightness = int(link.request("brightness").split()[1])
    with VirtualBoard(tmp_path / "vboard", realtime=False) as vb:
        want = run_virtual(vb.port, text, brightness)
    got = run_pico(pico, pico.port, text)
    assert len(got.points) == len(want.points)
    for (step, moves_w, frame_w), (_, moves_g, frame_g) in zip(want.points, got.points):
        assert moves_g == moves_w, step
        if frame_w:
            assert frame_g is not None, f"{step}: no LED frame came out of the chip"
            diff = [p for p in range(144) if frame_g[p] != frame_w[p]]
            assert not diff, f"{step}: LED colours differ on physical squares {diff}"
    assert got.points[-1][0] == want.points[-1][0]  # the final state line


def _history(link: BoardLink) -> list[str]:
    return link.request("history").split()[1:]


def test_power_cut_in_journal_write(pico):
    """The power fails in the middle of the flash writes that journal a move (planted:
    the emulator dies part way through a program or erase): after power-on the board
    has every move it had accepted, and none that was not played."""
    hands = Hands(pico)
    with BoardLink(pico.port, timeout_s=30) as link:
        link.hello(timeout_s=20)
        link.request("new chess")
    hands.setup("chess", None)
    hands.play("wait 200")
    accepted: list[str] = []
    moves = [("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("b8", "c6"), ("f1", "c4")]
    cuts = {1: "1 0.5", 2: "2 0.3", 3: "1 0.95"}  # move index -> cut K F
    cut_seen = 0
    boots = set()  # the power-ups' ids, as the board says them
    for i, (a, b) in enumerate(moves):
        if i in cuts:
            pico.control("cut " + cuts[i])
        try:
            hands.play(f"lift {a}", "wait 150", f"place {b}", "wait 600")
        except PicoError:
            pass  # the power went
        if not pico.alive():
            cut_seen += 1
            pico.restart()
            wait_firmware(pico.port)
        with BoardLink(pico.port, timeout_s=30) as link:
            link.hello(timeout_s=20)
            boots.add(link.boot)
            history = _history(link)
        assert history in (accepted, accepted + [a + b]), f"after move {a}{b}: {history}, accepted {accepted}"
        if history == accepted:  # not taken before the cut: the player makes it again
            back = (f"lift {b}", "wait 150", f"place {a}", "wait 600")
            hands.play(*back, f"lift {a}", "wait 150", f"place {b}", "wait 600")
            with BoardLink(pico.port, timeout_s=30) as link:
                link.hello(timeout_s=20)
                history = _history(link)
        accepted.append(a + b)
        assert history == accepted
    assert cut_seen >= 2  # the planted cuts did come in journal writes
    assert len(boots) == cut_seen + 1  # a new random id at every power-up


def _mpremote(port: str, code: str, timeout_s: float = 120) -> str:
    done = subprocess.run([MPREMOTE, "connect", port, "exec", code], capture_output=True, text=True, timeout=timeout_s)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_ctrl_c_stops_the_watchdog(pico):
    """mpremote interrupts the running firmware (whose watchdog runs) for its raw REPL:
    the REPL stays usable past the watchdog's 4 s, no reset comes."""
    before = pico.control("resets")[0]
    code = "import time\nt = time.ticks_ms()\ntime.sleep(6)\nprint(time.ticks_diff(time.ticks_ms(), t))"
    out = _mpremote(pico.port, code)
    assert int(out.split()[-1]) >= 6000
    assert pico.control("resets")[0] == before


HANG = "import time\nfrom boards import pico\nhw = pico.Hardware()\nwhile True:\n    time.sleep_ms(100)"


def test_watchdog_resets_a_hung_board(pico):
    """The pico profile's watchdog, then a hang (a loop waiting for what never comes):
    the chip resets and boots main.py into its game again."""
    assert pico.control("resets")[0] == "ok resets 0 0"
    subprocess.run(
        [MPREMOTE, "connect", pico.port, "exec", "--no-follow", HANG],
        capture_output=True,
        timeout=120,
    )
    deadline = time.monotonic() + 120
    while pico.control("resets")[0] != "ok resets 1 1":
        assert time.monotonic() < deadline, "no watchdog reset"
        time.sleep(0.5)
    assert "pico" in wait_firmware(pico.port)


SCAN = """from boards.pico import Matrix
from array import array
rows = array('H', bytes(24))
Matrix().scan(rows)
print(list(rows))"""


def test_diodes_keep_ghosts_away(pico):
    """boards/pico.py's scan on the modelled matrix: three switches closed in an L;
    with the diodes, exactly those three are read; a board without diodes reads a
    fourth, a ghost, at the corner of the rectangle."""
    occ = ["0"] * 144
    for p in (1 * 12 + 2, 1 * 12 + 7, 5 * 12 + 7):  # rows 1, 1, 5; columns 2, 7, 7
        occ[p] = "1"
    pico.control("set " + "".join(occ))
    want = [0] * 12
    want[1] = 1 << 2 | 1 << 7
    want[5] = 1 << 7
    assert eval(_mpremote(pico.port, SCAN).strip().splitlines()[-1]) == want
    pico.control("diodes 0")
    ghost = eval(_mpremote(pico.port, SCAN).strip().splitlines()[-1])
    assert ghost[5] == 1 << 7 | 1 << 2  # the ghost at row 5, column 2
    pico.control("diodes 1", "stuck 0 1")  # a planted fault: a1's switch stuck closed
    stuck = eval(_mpremote(pico.port, SCAN).strip().splitlines()[-1])
    assert stuck[0] == 1 and stuck[1:] == want[1:]


def test_replay_sensors_on_the_emulated_pico(flashed, tmp_path):
    """`eboard replay-sensors --pico` prints what it prints on the virtual board."""
    kind, image = flashed
    if kind != "stock":
        pytest.skip("the CLI's --pico runs stock MicroPython + flash.sh unless given --uf2")
    shutil.copy(image, tmp_path / f"pico-emu-{firmware_key(None)}.flash")
    script = ROOT / "tests" / "scripts" / "chess_en_passant.txt"
    steps = [s for s in script.read_text().splitlines() if s.split()[:1] in (["lift"], ["place"], ["wait"])]
    game = script.read_text().split("game ", 1)[1].splitlines()[0].split(" ", 1)
    sensors = tmp_path / "sensors.txt"
    sensors.write_text("\n".join(steps) + "\n")
    cmd = [str(ROOT / ".venv" / "bin" / "eboard"), "replay-sensors", str(sensors), "--game", game[0], "--fen", game[1]]
    env = dict(os.environ, EBOARD_PICO_CACHE=str(tmp_path))
    on_vboard = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    on_pico = subprocess.run([*cmd, "--pico"], capture_output=True, text=True, timeout=300, env=env)
    assert on_vboard.returncode == 0, on_vboard.stderr
    assert on_pico.returncode == 0, on_pico.stderr
    assert on_pico.stdout == on_vboard.stdout
    assert "fen " in on_pico.stdout


def test_dead_led_planted(pico):
    """A dead LED planted in the chain stays dark where the firmware lights it; its
    neighbours still show their colours."""
    hands = Hands(pico)
    with BoardLink(pico.port, timeout_s=30) as link:
        link.hello(timeout_s=20)
        link.request("new chess")
    hands.setup("chess", None)
    e3, e4, e2 = hands.square("e3"), hands.square("e4"), hands.square("e2")
    pico.control(f"dead {e3}")
    hands.play("wait 1000", "lift e2", "wait 100")  # the chip takes its time over 32 pieces
    frame = pico.frame()
    assert frame is not None
    assert frame[e3] == (0, 0, 0)
    lit = [p for p in range(144) if frame[p] != (0, 0, 0)]
    assert e4 in lit and e2 in lit, lit  # a destination, the lifted piece


def test_a_full_flash(pico, tmp_path):
    """Issue #23 item 3, on the chip's own littlefs: the flash filled with files (as a
    person's files on the board would), then 60 plies of Lippo by a host that archives
    them.  The board says the first ply it does not save; `state` and `history` agree
    while it runs; after a power cut every power-up says it again, the board has the moves
    before that ply, and the archive has all 60 in one game."""
    import sys

    sys.path.insert(0, str(ROOT / "tests" / "mpy"))
    from fuzzgen import Rand, lasting_move

    from firmware.rules import new_position
    from host.record import Archive, Bridge

    with BoardLink(pico.port, timeout_s=30) as link:
        link.hello(timeout_s=20)
        link.request("new lippo")
    fill = (ROOT / "tests" / "mpy" / "fillflash.py").read_text() + "\nprint(len(fill('')), os.statvfs('/')[3])"
    filled = _mpremote(pico.port, fill, timeout_s=600).split()
    # not a block free (littlefs counts some blocks twice in its size: -2 seen, never above 0)
    assert int(filled[-1]) <= 0, filled
    pico.control("reset")
    pico.wait_usb()
    wait_firmware(pico.port)
    archive = Archive(tmp_path / "a.sqlite")
    said: list[str] = []
    bridge = Bridge(pico.port, archive, on_change=lambda seq, text: said.append(text), timeout_s=30)
    bridge.connect()
    pos = new_position("lippo")
    rng = Rand(23)
    played = []
    for _ in range(60):
        text = pos.move_str(lasting_move(pos, pos.legal_moves(), rng))
        bridge.request("move " + text)
        pos.push(pos.parse_move(text))
        played.append(text)
    bridge.poll(0.5)
    alerts = [t for t in said if t.startswith("alert journal-full")]
    assert len(alerts) == 1, said[-5:]
    first = int(alerts[0].split()[2])
    assert 1 <= first <= 60
    assert int(bridge.request("state").split()[3]) == 60
    assert bridge.request("history").split()[1:] == played
    pico.kill()  # the power is cut
    pico.restart()
    pico.wait_usb()
    # The bridge keeps the port open (the same pty across the cut): it hears the power-up's
    # hello and the alert after it, and catches up.
    said.clear()
    deadline = time.monotonic() + 300
    while not any(t.startswith("alert journal-full") for t in said) and time.monotonic() < deadline:
        bridge.poll(1)
    bridge.poll(1)
    assert [t.split()[2] for t in said if t.startswith("alert journal-full")] == [str(first)], said
    assert bridge.request("history").split()[1:] == played[: first - 1]
    assert int(bridge.request("state").split()[3]) == first - 1
    games = [g for g in archive.games() if archive.moves(g.id)]
    assert [archive.moves(g.id) for g in games] == [played]
    # `new` on the full flash: the board's old games dropped to make room, else refused
    try:
        reply = bridge.request("new chess")
    except BoardError as e:
        reply = f"{e.code} {e}"
    assert reply == "new chess" or reply.startswith("journal-full"), reply
    bridge.close()
    archive.close()
