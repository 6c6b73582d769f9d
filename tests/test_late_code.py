"""Code a board needs seldom is loaded for its work and forgotten after (issue #23's heap):
a power-up's (firmware/power_up.py) and the requests a host sends seldom: what it reads
back (firmware/readback.py) and its changes to the game (firmware/host_edits.py).  On
stock MicroPython a module's bytecode takes heap for as long as it is loaded: each request
still answers as docs/protocol.md says, and leaves no such module behind, whether it was
carried out or refused."""

import sys

import pytest

from boards import sim
from firmware import protocol
from firmware.app import Board

LATE = ("firmware.power_up", "firmware.readback", "firmware.host_edits", "firmware.torn")


def loaded():
    return [name for name in LATE if name in sys.modules]


@pytest.fixture
def board(tmp_path):
    hw = sim.Hardware(journal_path=str(tmp_path / "journal.bin"))
    out = []
    b = Board(hw, out.append)
    b.boot(0)
    assert loaded() == []
    return b, out


def ask(b, out, line):
    out.clear()
    protocol.handle(b, line.encode(), 0)
    assert loaded() == [], line
    return out


@pytest.mark.parametrize(
    "line, reply",
    [
        ("version", "ok version 3 "),
        ("since 0", "ok since 0 "),
        ("history", "ok history"),
        ("brightness 40", "ok brightness 40"),
        ("position 4k3/8/8/8/8/8/8/4K2R w K - 0 1", "ok position"),
        ("claim declare", "error bad-claim claims are lippo's"),
        ("brightness 300", "error bad-args"),
        ("position 4k3/8/8", "error bad-fen"),
        ("since", "error bad-args"),
        ("history 3", "error bad-args"),
    ],
)
def test_a_seldom_request_answers_and_leaves_no_code_behind(board, line, reply):
    b, out = board
    said = ask(b, out, line)
    assert reply in said[-1], said


def test_a_game_switch_that_fails_takes_the_journaled_game_up_again_and_drops_that_code(board, monkeypatch):
    # The replay of the journal's game (power_up.py) serves a failed game switch too.
    b, out = board
    ask(b, out, "new lippo")
    ask(b, out, "sim setup")
    ask(b, out, "sim wait 100")
    from firmware import app

    def short(gid, fen=None):
        raise MemoryError("memory allocation failed")

    monkeypatch.setattr(app, "start_position", short)
    said = ask(b, out, "new hundred")
    assert "error no-memory" in said[-1]
    assert b.game == "lippo" and b.pos.game.id == "lippo" and b.tracker.pos is b.pos
    said = ask(b, out, "history")
    assert said[-1].endswith("ok history ")


def test_the_greeting_resends_a_games_events_from_the_journal(board):
    # since N re-reads the journal (readback.py) for the events the RAM no longer keeps.
    b, out = board
    for line in ("new chess", "sim setup", "sim wait 100", "move e2e4", "move e7e5"):
        ask(b, out, line)
    said = ask(b, out, "since 0")
    moves = [line.split(" ", 1)[1] for line in said if " move " in line]
    assert moves == ["move 1 e2e4", "move 2 e7e5"], said
    assert ask(b, out, "history")[-1].endswith("ok history e2e4 e7e5")


def test_a_damaged_journal_is_set_aside_at_power_up_and_that_code_dropped(tmp_path):
    # Journal.verdict's damage and set_aside (firmware/torn.py) are loaded only for it.
    path = tmp_path / "journal.bin"
    path.write_bytes(b"\x05\x00hello\x00\x00\x00\x00" + b"\x00" * 40)  # a bad checksum, more after it
    out = []
    b = Board(sim.Hardware(journal_path=str(path)), out.append)
    b.boot(0)
    assert any("alert journal-damaged a bad checksum after 0 good records" in line for line in out), out
    assert (tmp_path / "journal.bin.bad").exists() and loaded() == []
