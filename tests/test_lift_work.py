"""A lift's work, counted, not timed: the lines the rules core (firmware/rules) runs and the
calls into it while the board makes a lifted piece's hints and frame, bounded per game, for
every piece of the side to move in each game's start position and in positions of random
games, each lift made as bench/hint.py makes it (the position set up, nothing touched
before, the turn's list of moves not made yet).

Issue #38: a castling rook (a Lippo Fortress, a chess rook) lifted with no move of its own
finished the turn's whole list of moves, listed a few pieces a scan since e3e9c9f, to find
whether a castling explained the lift: 168 calls into the core in Lippo where every other
lift makes 26 at most (38 ms on the emulated Pico), 111 in chess (31).  A castling is the
royal piece's move: its moves alone are asked now (the tracker's _castle_rook).  The calls miss the
work inside one: 100-square chess's King asked attacked() a destination, some 170 lines
each (11 ms on the chip), so the lines are counted too.  Those of the core's machine code
on the chip (compat.late's functions: hundred.hits, Grosschess's next_new, chess-t1's
add_reachers), run here as Python compiled from a string, are not: the lines counted are
the ones the chip interprets."""

import random
import runpy
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
    from common import lift_work, own_pieces, put_back  # bench/hint.py's lifts, the same, their work counted
finally:
    del sys.path[:2]

# The most calls into the core a lift may make, a game: some 1.5 times the most found over
# 100 positions of random games a game (chess 31, lippo 26, checkers12 42, courier 22,
# gardner 26, chess960 25 over these 25); listing the turn's moves costs chess 111, Lippo 168,
# 100-square chess 564, Grosschess 1,455.  100-square chess, Grosschess and chess-t1 some 1.35
# times the most over 100 positions: 111 (a castling rook's lift: the King's moves, each
# tested), 127 and 84 (chess-t1 56 since its strength test of a piece by its reach; 55 over
# these 25 before its strengths on a capture's cell went to machine code, 40 after).
BOUND = {"chess": 50, "lippo": 40, "checkers12": 64, "courier": 40, "gardner": 40, "chess960": 40,
         "hundred": 150, "grosschess": 170, "chess-t1": 52}
# The most lines of the core a lift may run, a game: some 1.2 times the most over these 25
# positions (chess 1,405, lippo 459, checkers12 1,246, courier 911, gardner 1,148, chess960
# 1,235, hundred 1,069, grosschess 1,206, chess-t1 1,113).  On the emulated Pico with our
# image a line costs 4-7 us, so these bounds hold the work where it is.  100-square chess,
# Grosschess and chess-t1 ran 1,862, 2,082 and 1,603 here (2,499, 2,392 and 1,732 over 100
# positions, 11-17 ms on the chip) before their attack tests went to machine code (issue
# #38): a King's 12 calls of attacked(), some 150 lines each (hundred.hits), the 24 squares
# round a King and a new unit's moves made where it cannot reach (Grosschess's next_new,
# _box_reach), the 64 squares and each piece tested against each capture (chess-t1's
# next_reacher); over 100 positions now 1,069, 1,206 and 1,282 (big sliders' moves).
# chess-t1's lift of a piece with captures (the Konnet) made each piece's field that may
# reach one, and tested each capture against it: 1,113 lines over these 25 (d5, 11.8 ms
# on stock MicroPython's emulated Pico at d6 of bench/hint-worst.txt); the strengths on the
# captures' cells are machine code now (chess_t1.add_reachers): 396.  100-square chess's test
# of a move far from the King (hundred.far) and Grosschess's of the treacherous Queen's way
# (next_treach) are machine code too, and her capture's check test is made in the cells: 1,089
# and 1,227 lines over these 25 before, 589 and 750 after (a long-range man's 20 moves, each a
# call of 16 lines and a frame on MicroPython's heap).
LINES = {"chess": 1700, "lippo": 560, "checkers12": 1500, "courier": 1100, "gardner": 1400, "chess960": 1500,
         "hundred": 720, "grosschess": 900, "chess-t1": 520}
POSITIONS = 25


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
    """(square, (lines run in the core, calls into it, moves lit)) of each lift of a piece of
    the side to move in fen."""
    tracker = board.tracker
    for name, work in lift_work(board, hw, fen):
        assert STATES[tracker.state] in ("moving", "correcting"), (fen, name)
        # A lift loads no module: stock MicroPython reads one from its file system, some
        # 20 ms (a piece with no move lifted loaded firmware/correction.py for the castling
        # rook's test: 23 ms on the emulated Pico where the lift's work is 3 ms)
        assert "firmware.correction" not in sys.modules, (fen, name)
        yield name, (work[0], work[1], len(tracker.hint))


@pytest.mark.parametrize("gid", GAMES)
def test_a_lift_asks_the_core_for_little_more_than_its_piece(gid, tmp_path):
    hw = sim.Hardware(journal_path=str(tmp_path / "journal.bin"))
    board = Board(hw, lambda line: None)
    board.boot(0)
    protocol.handle(board, ("new " + gid).encode(), 0)
    worst = (0, "", "")
    most = (0, "", "")
    lit = (0, "", "")
    hint = board.tracker.hint  # made at the game's start, with its room
    lifts = 0
    for fen in _fens(gid, POSITIONS, random.Random("lift work " + gid)):
        for name, (lines, calls, moves) in _lifts(board, hw, fen):
            lifts += 1
            if calls > worst[0]:
                worst = (calls, name, fen)
            if lines > most[0]:
                most = (lines, name, fen)
            if moves > lit[0]:
                lit = (moves, name, fen)
    assert lifts > 5 * POSITIONS
    assert 0 < worst[0] <= BOUND[gid], "%d calls into the core lifting %s in %s" % worst
    assert 0 < most[0] <= LINES[gid], "%d lines of the core run lifting %s in %s" % most
    # The moves a lift lights go into a list made at the game's start with room for them: a
    # list made before a lift and grown in it sent stock MicroPython's allocator back through
    # its whole heap, search after search (tracker.room()).
    assert board.tracker.hint is hint
    assert 0 < lit[0] <= hint_room(board.tracker.geo), "%d moves lit lifting %s in %s" % lit


def hint_room(geo):
    # firmware/tracker.py's _HINT_ROOM (a const: on MicroPython no name of the module)
    return 32 if len(geo.game_squares) <= 100 else 64


def test_the_cores_machine_code_is_its_plain_python():
    # The script the unix port runs on the viper code (tests/test_micropython.py), here on
    # the plain Python the same source makes (the figures it checks are these).
    sys.path.insert(0, str(ROOT / "tests" / "mpy"))  # (its mpytest and fuzzgen)
    try:
        runpy.run_path(str(ROOT / "tests" / "mpy" / "test_native_rules.py"), run_name="__main__")
    finally:
        sys.path.remove(str(ROOT / "tests" / "mpy"))


@pytest.mark.parametrize("gid", ["grosschess", "lippo", "checkers12"])
def test_the_bench_s_quick_put_back_leaves_what_a_place_and_a_resync_leave(gid, tmp_path):
    # bench/hint.py --quick puts each lifted man back with put_back(), not the place event and
    # the resync (53 of a lift's 93 ms of emulated time): its figures hold only while the
    # tracker's state and frame after it are theirs, field by field.
    def state(board):
        t = board.tracker
        o = t.occ
        m = t.matcher
        return (STATES[t.state], bytes(o.actual), bytes(o.expected), list(o.touched), o.ev, list(m.moves),
                m.listing is not None, list(t.hint), t.hint_from, t.pending, t.tentative, t.promo, t.hinted,
                t.outcome, t.showing, t.last, bytes(board.frame), bytes(board.shown))

    after = {}
    for quick in (False, True):
        hw = sim.Hardware(journal_path=str(tmp_path / ("q" if quick else "p")))
        board = Board(hw, lambda line: None)
        board.boot(0)
        protocol.handle(board, ("new " + gid).encode(), 0)
        seen = after[quick] = []
        for fen in _fens(gid, 4, random.Random("put back " + gid)):
            for p in own_pieces(board, fen):
                hw.matrix.set(p, False)
                board._on_switch(LIFT, p, 0)
                if quick:
                    put_back(board, hw, p)
                else:
                    hw.matrix.set(p, True)
                    board._on_switch(PLACE, p, 0)
                    board.tracker.resync(0)
                    board._render()
                seen.append(state(board))
    assert len(after[True]) > 40 and after[True] == after[False]
