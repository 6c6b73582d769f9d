"""A lift's work, counted, not timed: the calls into the rules core (firmware/rules) while
the board makes a lifted piece's hints and frame, bounded per game, for every piece of the
side to move in each game's start position and in positions of random games, each lift
made as bench/hint.py makes it (the position set up, nothing touched before, the turn's
list of moves not made yet).

Issue #38: a castling rook (a Lippo Fortress, a chess rook) lifted with no move of its own
finished the turn's whole list of moves, listed a few pieces a scan since e3e9c9f, to find
whether a castling explained the lift: 168 calls into the core in Lippo where every other
lift makes 26 at most (38 ms on the emulated Pico), 111 in chess (31).  A castling is the
royal piece's move: its moves alone are asked now (Tracker._castles)."""

import os
import random
import sys

import pytest
from conftest import ROOT

from boards import sim
from firmware import protocol
from firmware.app import Board
from firmware.debounce import LIFT, PLACE
from firmware.rules import GAMES, new_position
from firmware.tracker import STATES

sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "tests" / "mpy")]
try:
    from common import own_pieces  # bench/hint.py's lifts, the same
finally:
    del sys.path[:2]

# The most calls into the core a lift may make, a game: some 1.5 times the most found over
# 100 positions of random games a game (chess 31, lippo 26, checkers12 42, courier 22,
# gardner 26, chess960 25 over these 25); listing the turn's moves costs chess 111, Lippo 168,
# 100-square chess 564, Grosschess 1,455.  100-square chess, Grosschess and chess-t1 some 1.35
# times the most over 100 positions: 111 (a castling rook's lift: the King's moves, each
# tested), 127 and 84.  They were 160, 231 and 114, 21-31 ms on the emulated Pico (issue #38):
# a unit near its King made and tested each of its moves for check (attacked() once a move;
# once a unit now), and a chess-t1 lift built the whole board's strength map (the strengths
# on its captures' squares alone now).
BOUND = {"chess": 50, "lippo": 40, "checkers12": 64, "courier": 40, "gardner": 40, "chess960": 40,
         "hundred": 150, "grosschess": 170, "chess-t1": 110}
POSITIONS = 25

_CORE = os.sep + "rules" + os.sep


def _fens(gid, n, rng):
    out = [new_position(gid).fen()]  # the start: both rooks of each side boxed in
    while len(out) < n + 1:
        pos = new_position(gid)
        for _ in range(10 + rng.randrange(50)):
            ms = pos.legal_moves()
            if not ms:
                break
            pos.push(rng.choice(ms))
        if pos.legal_moves():
            out.append(pos.fen())
    return out


def _lifts(board, hw, fen):
    """(square, calls into the core) of each lift of a piece of the side to move in fen."""
    tracker = board.tracker
    calls = [0]

    def count(frame, event, arg):
        if event == "call" and _CORE in frame.f_code.co_filename:
            calls[0] += 1

    for p in own_pieces(board, fen):
        hw.matrix.set(p, False)
        calls[0] = 0
        sys.setprofile(count)
        try:
            board._on_switch(LIFT, p, 0)  # the debounced lift: tracker, hints, frame
        finally:
            sys.setprofile(None)
        assert STATES[tracker.state] in ("moving", "correcting"), (fen, tracker.geo.name(p))
        yield tracker.geo.name(p), calls[0]
        hw.matrix.set(p, True)
        board._on_switch(PLACE, p, 0)
        tracker.resync(0)


@pytest.mark.parametrize("gid", GAMES)
def test_a_lift_asks_the_core_for_little_more_than_its_piece(gid, tmp_path):
    hw = sim.Hardware(journal_path=str(tmp_path / "journal.bin"))
    board = Board(hw, lambda line: None)
    board.boot(0)
    protocol.handle(board, ("new " + gid).encode(), 0)
    worst = (0, "", "")
    lifts = 0
    for fen in _fens(gid, POSITIONS, random.Random("lift work " + gid)):
        for name, n in _lifts(board, hw, fen):
            lifts += 1
            if n > worst[0]:
                worst = (n, name, fen)
    assert lifts > 5 * POSITIONS
    assert 0 < worst[0] <= BOUND[gid], "%d calls into the core lifting %s in %s" % worst
