"""A move's work spread over the scans (issue #23 item 4): a move made on the board is
journaled and said in its scan, its game's end looked at in the next, before that scan's
events (and before any request), a checkpoint in an idle second; the frame's passes over the 144 squares made by one source
that the chip compiles to machine code (firmware/rules/compat.py) give the frames the plain loops
gave."""

import runpy
import sys

from conftest import ROOT

from firmware import tracker

sys.path.insert(0, str(ROOT / "tests" / "mpy"))
from scriptrun import Runner  # noqa: E402

FOOLS_MATE = (("f2", "f3"), ("e7", "e5"), ("g2", "g4"))


def _mated_but_one(tmp_path):
    r = Runner(str(tmp_path / "journal.bin"))
    r.step("game chess")
    for a, b in FOOLS_MATE:
        for line in ("lift " + a, "wait 50", "place " + b, "wait 500"):
            r.step(line)
    r.moves()
    r.step("lift d8")
    r.step("wait 50")
    r.step("place h4")
    return r


def _scan(r):
    """One scan of the virtual board; the messages it said."""
    n = len(r.out)
    r.hw.clock.ms += 10
    r.board.step(r.hw.clock.now())
    return r.out[n:]


def test_the_end_is_looked_at_in_the_scan_after_the_move(tmp_path):
    r = _mated_but_one(tmp_path)
    said = []
    for _ in range(100):  # the calm, then the scan that makes the move
        said = [t.split(" ", 1)[1] for t in _scan(r) if " place " not in t]
        if said:
            break
    assert said == ["move 4 d8h4"]  # journaled, said; no end yet
    assert r.board.journal.load()[-1].split(" ")[2] == "d8h4"
    said = _scan(r)
    assert [t.split(" ", 1)[1] for t in said] == ["end checkmate 0-1"]
    assert tracker.STATES[r.board.tracker.state] == "over"
    r.step("expect leds L:a1,b1,c1,d1,e1,f1,g1,h1 W:a8,b8,c8,d8,e8,f8,g8,h8 l:h4")


def test_a_request_after_the_move_finds_its_end_said(tmp_path):
    r = _mated_but_one(tmp_path)
    for _ in range(100):
        if any(" move " in t for t in _scan(r)):
            break
    assert r.board.after_due  # the end not looked at yet ...
    reply = r.send("state")  # ... a request sees the board as after it
    assert reply.split(" ")[3] == "over", reply
    assert [t.split(" ", 1)[1] for t in r.out[-2:]] == ["end checkmate 0-1", reply]
    assert not r.board.after_due


def test_a_checkpoint_waits_for_the_board_to_stand_idle(tmp_path, monkeypatch):
    # A checkpoint unmakes and remakes up to 40 moves (some 200 ms of a Lippo game on the
    # chip): not in a scan after the move, nor in a lift's, but once the board has stood
    # idle for a second, or after the reply to the host's move.
    from firmware import journal as logbook

    monkeypatch.setattr(logbook, "CHECKPOINT_EVERY", 3)
    r = Runner(str(tmp_path / "journal.bin"))
    r.step("game chess")
    for a, b in FOOLS_MATE[:2]:
        for line in ("lift " + a, "wait 50", "place " + b, "wait 500"):
            r.step(line)
    for line in ("lift g2", "wait 50", "place g4"):
        r.step(line)
    for _ in range(100):
        if any(" move " in t for t in _scan(r)):
            break

    def checkpoints():
        return [rec for rec in r.board.journal.load() if rec.startswith("X ")]

    assert r.board.journal.load()[-1].endswith(" g2g4") and not checkpoints()
    _scan(r)  # the end looked at
    assert r.board.logbook.checkpoint_due and not checkpoints()
    r.send("state")  # a request: its reply, and a host's next line, not kept waiting behind it
    assert r.board.logbook.checkpoint_due and not checkpoints()
    # The hands on the switches themselves: a `sim` request would be a request.
    d8 = r.board.tracker.geo.parse("d8")
    r.hw.matrix.set(d8, False)  # a lift's scans: its hints, no checkpoint
    for _ in range(10):
        _scan(r)
    r.hw.matrix.set(d8, True)
    for _ in range(60):
        _scan(r)
    assert not checkpoints()
    for _ in range(50):  # a second idle
        _scan(r)
    assert len(checkpoints()) == 1 and not r.board.logbook.checkpoint_due


def test_a_checkpoint_waits_for_an_idle_second_a_few_plies_at_most(tmp_path, monkeypatch):
    # A game played with no idle second (a quick game, a bench) had no checkpoint at all,
    # and a power-up replayed every move of it (a 200-ply Lippo game 991 ms on the image,
    # 415 with its checkpoints): a checkpoint overdue by CHECKPOINT_LATE plies goes in the
    # scan after the move.
    from firmware import journal as logbook

    monkeypatch.setattr(logbook, "CHECKPOINT_EVERY", 2)
    monkeypatch.setattr(logbook, "CHECKPOINT_LATE", 2)
    r = Runner(str(tmp_path / "journal.bin"))
    r.step("game chess")

    def checkpoints():
        return [rec for rec in r.board.journal.load() if rec.startswith("X ")]

    plies = []
    geo = r.board.tracker.geo
    for a, b in (("g1", "f3"), ("g8", "f6"), ("f3", "g1"), ("f6", "g8"), ("g1", "f3"), ("g8", "f6")):
        # The hands on the switches themselves (a `sim` request is a request), a move every
        # 0.6 s: never a second idle.
        r.hw.matrix.set(geo.parse(a), False)
        for _ in range(5):
            _scan(r)
        r.hw.matrix.set(geo.parse(b), True)
        for _ in range(55):
            _scan(r)
        plies.append((r.board.ply, len(checkpoints())))
    # due at ply 2, waited 2 plies, taken after ply 4; due again at 6
    assert plies == [(1, 0), (2, 0), (3, 0), (4, 1), (5, 1), (6, 1)], plies
    assert checkpoints()[0].split(" ")[2] == "0"  # from the game's start: 4 moves after it


def test_a_host_move_s_checkpoint_comes_after_its_reply(tmp_path, monkeypatch):
    from firmware import journal as logbook

    monkeypatch.setattr(logbook, "CHECKPOINT_EVERY", 2)
    r = Runner(str(tmp_path / "journal.bin"))
    r.step("game chess")
    r.send("move e2e4")
    n = len(r.out)
    r.send("move e7e5")
    records = r.board.journal.load()
    assert records[-1].startswith("X ") and records[-2].endswith(" e7e5"), records
    assert r.out[-1].split(" ", 1)[1] == "ok move e7e5" and len(r.out) > n
    assert not r.board.logbook.checkpoint_due


def test_the_frames_passes_are_the_plain_loops():
    # The script the unix port runs on the viper code (tests/test_micropython.py), here on
    # the plain Python the same source makes.
    runpy.run_path(str(ROOT / "tests" / "mpy" / "test_native_frames.py"), run_name="__main__")


def test_lippo_s_end_is_searched_a_few_moves_a_scan(tmp_path):
    # Black's President attacked after White's move: whether some answer exists took 78
    # moves made and unmade in one scan (213 ms on the emulated Pico). The scans after
    # the move now make at most END_TRIES each, and the listing of the turn's moves (which
    # asks the end first) waits for the search; the end found is the one a whole search finds.
    from firmware import app

    fen = "km1a1dp1ahmk/2nt1ffl1no1/usosssss1ssu/2sl4s2t/7G4/5e5e/1E7M2/5M2H1g1/4L2L1GU1/USSSgShSSSS1/1ON1TF3NOE/K1H2DP2A1K w KQkq - 0 23"
    r = Runner(str(tmp_path / "journal.bin"))
    r.step("game lippo " + fen)
    geo = r.board.tracker.geo
    r.hw.matrix.set(geo.parse("h8"), False)
    for _ in range(10):
        _scan(r)
    r.hw.matrix.set(geo.parse("m11"), True)
    pos = r.board.pos
    made = []
    push = pos.push
    pos.push = lambda m: (made.append(m), push(m))[1]
    per_scan = []
    for _ in range(200):
        said = _scan(r)
        if any(" move " in t for t in said):
            break
    while r.board.tracker.end_due:
        del made[:]
        _scan(r)
        per_scan.append(len(made))
    assert max(per_scan) <= app.END_TRIES and sum(per_scan) > 3 * app.END_TRIES, per_scan
    assert r.board.pos.end_reason() is None and tracker.STATES[r.board.tracker.state] == "idle"
    del pos.push
    whole = r.board.pos
    whole._end = 0
    assert whole.end_reason() is None
    for _ in range(100):  # the turn's list, a few pieces a scan, once the end is known
        _scan(r)
    assert r.board.tracker.matcher.listing is None and sorted(r.board.tracker.matcher.moves) == sorted(whole.legal_moves())
