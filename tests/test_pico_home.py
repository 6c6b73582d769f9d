"""The emulated Pico of `play --pico` is the archive's own board (`pico-board/` beside the
archive), as `sim-board/` is for --sim: its flash and id kept from one session to the
next, a new firmware flashed onto it afresh with its id kept, and a second process given a
board of its own.  The emulator itself is stood in for (tests/test_pico_emu.py plays on
the real one): what is checked is which flash each session starts."""

from pathlib import Path

from host.session import leave_pico_home, pico_home
from host.link import pico
from host.record import Archive


class Started:
    """EmulatedPico's stand-in: notes the flash it was started on and what it held."""

    runs: list[tuple[Path, bytes]] = []

    def __init__(self, flash, log_path=None):
        self.flash = Path(flash)

    def start(self):
        Started.runs.append((self.flash, self.flash.read_bytes()))
        self.port = "/dev/null"


def test_the_archives_emulated_pico_is_kept_and_flashed_anew_for_new_firmware(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    cache.mkdir()
    for key in ("old", "new"):
        (cache / f"pico-emu-{key}.flash").write_bytes(b"firmware " + key.encode())
    monkeypatch.setenv("EBOARD_PICO_CACHE", str(cache))
    monkeypatch.setattr(pico, "EmulatedPico", Started)
    monkeypatch.setattr(pico, "wait_firmware", lambda port: "version")
    key = ["old"]
    monkeypatch.setattr(pico, "firmware_key", lambda uf2: key[0])
    archive = Archive(str(tmp_path / "data" / "games.sqlite"))
    Started.runs.clear()

    home = pico_home(archive)
    assert home[0] == tmp_path / "data" / "pico-board"
    pico.board(home[0])
    flash = home[0] / "pico.flash"
    flash.write_bytes(b"firmware old, a game journaled")  # the session plays
    (home[0] / "pico.flash.id").write_text("pico-00112233aabbccdd")  # drawn by the emulator
    other = pico_home(archive)  # a second process meanwhile: a board of its own
    assert other[1] == -1 and other[0] != home[0]
    leave_pico_home(*other)
    assert not other[0].exists()
    leave_pico_home(*home)

    home = pico_home(archive)  # the next session: the same board, its game still on it
    pico.board(home[0])
    key[0] = "new"
    leave_pico_home(*home)
    home = pico_home(archive)  # a new firmware: flashed afresh, the same chip (its id)
    pico.board(home[0])
    leave_pico_home(*home)
    assert [data for _, data in Started.runs] == [b"firmware old", b"firmware old, a game journaled", b"firmware new"]
    assert {f for f, _ in Started.runs} == {flash}
    assert (home[0] / "pico.flash.id").read_text() == "pico-00112233aabbccdd"
    archive.close()
