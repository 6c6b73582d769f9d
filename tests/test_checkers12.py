"""Lippo's 12 x 12 checkers: the manual's examples, and the spec's own capture generator
(lippo_check.py) as an oracle on random positions."""

import random

import pytest
from lippo_util import FILES, fenutil, spec_checker, vectors

from firmware.rules import FenError, new_position
from firmware.rules.games import checkers12

CK = vectors()["checkers"]


def fen_of(board, side="w"):
    return fenutil.board_fen(board, side, lambda code: "M" if code == "m" else "K")


def moves(pos):
    return sorted(pos.move_str(m) for m in pos.legal_moves())


def test_start_position_is_the_dark_squares_of_three_ranks_each():
    pos = new_position("checkers12")
    board = {pos.game.layout.name(sq): pos.cells[sq] for sq in pos.game.layout.squares if pos.cells[sq]}
    assert len(board) == 36
    assert set(board) == set(CK["setup"])
    assert [pos.perft(d) for d in (1, 2, 3)] == [11, 121, 1452]


@pytest.mark.parametrize("vec", CK["vectors"], ids=[v["id"] for v in CK["vectors"]])
def test_the_manuals_examples(vec):
    board = vec.get("board") or {vec["from"]: "wm"}
    side = "b" if vec.get("side_to_move") == "black" else "w"
    pos = new_position("checkers12", fen_of(board, side))
    got = moves(pos)
    if vec["mode"] == "no_moves":
        assert got == [] and pos.outcome().result() == "1-0"
    elif vec["mode"] == "capture_sequence":
        longest = max(len(s) for s in got)
        ends = {s[-2:] for s in got if len(s) == longest}
        want = vec["expected_longest_sequence"]["path"]
        assert {s[: -2] for s in got if len(s) == longest} == {"".join(want[:-1])}
        assert ends == set(want[-1].split("|"))
        m = pos.parse_move("".join(want[:-1]) + "h8")
        caps = [pos.game.layout.name(sq) for sq in pos.captured(m)]
        assert caps == vec["expected_longest_sequence"]["captured"]
        pos.push(m)
        assert pos.fen() == "12/12/12/12/7K4/12/12/12/12/12/12/12 b - - 0 1"
        pos.pop()
        assert pos.fen() == fen_of(board, side)
    else:
        assert [s[len(vec["from"]):] for s in got] == vec["expected"]


def test_capturing_is_compulsory():
    pos = new_position("checkers12", fen_of({"c3": "wm", "d4": "bm", "l3": "wm"}))
    assert moves(pos) == ["c3e5"]


def test_going_on_is_compulsory_unless_the_flag_says_otherwise():
    board = {"a1": "wm", "b2": "bm", "d4": "bm"}
    pos = new_position("checkers12", fen_of(board))
    assert moves(pos) == ["a1c3e5"]
    checkers12.GAME.must_continue = False
    try:
        assert moves(pos) == ["a1c3", "a1c3e5"]
    finally:
        checkers12.GAME.must_continue = True


def test_a_man_crowned_during_a_capture_goes_on_as_a_king():
    # f10 x g11 lands on h12 and is crowned; as a king it then takes k10 at a distance.
    pos = new_position("checkers12", fen_of({"f10": "wm", "g11": "bm", "k10": "bm"}))
    assert moves(pos) == ["f10h12l9", "f10h12m8"]
    pos.push_str("f10h12m8")
    assert pos.fen() == "12/12/12/12/11K/12/12/12/12/12/12/12 b - - 0 1"


def test_men_on_light_squares_and_uncrowned_men_on_the_far_rank_are_refused():
    with pytest.raises(FenError):
        new_position("checkers12", fen_of({"b1": "wm"}))
    with pytest.raises(FenError):
        new_position("checkers12", fen_of({"b12": "wm"}))


def _random_board(rng):
    dark = [f"{f}{r}" for r in range(1, 13) for x, f in enumerate(FILES) if (x + r) % 2 == 1]
    board = {}
    for s in rng.sample(dark, rng.randint(2, 30)):
        code = rng.choice("wb") + rng.choice("mmmk")
        if code[1] == "m" and int(s[1:]) == (12 if code[0] == "w" else 1):
            code = code[0] + "k"
        board[s] = code
    return board


def test_moves_match_the_spec_checker_on_random_positions():
    chk = spec_checker()
    rng = random.Random(11)
    captures_seen = 0
    for _ in range(400):
        board = _random_board(rng)
        side = rng.choice("wb")
        want = set()
        for frm, code in board.items():
            if code[0] == side:
                for path, _ in chk.ck_capture_sequences(board, frm):
                    want.add("".join(path))
        if want:
            captures_seen += 1
        else:
            for frm, code in board.items():
                if code[0] == side:
                    want |= {frm + to for to in chk.ck_simple_moves(board, frm)}
        pos = new_position("checkers12", fen_of(board, side))
        assert set(moves(pos)) == want, fen_of(board, side)
        assert len(moves(pos)) == len(want)
        for m in pos.legal_moves():
            before = pos.fen()
            pos.push(m)
            pos.pop()
            assert pos.fen() == before
    assert captures_seen > 100


# Issue #22: a king's chain that flies back over its own start square (e5, empty while the
# king moves) took itself among its victims: the counts went wrong, then underflowed.
OVER_ITS_START = "1m1m1m3m2/12/1m9M/12/3m1m3M1m/2m9/7m1M2/m1m1k7/5M6/2M9/12/2M9 b - - 0 62"
UNDERFLOW = "1m1m1m3m2/12/1m9M/12/3m1m3M1m/2m9/7m1M2/m1m9/12/2M5m3/12/2M1M7 b - - 0 59"


def test_a_chain_over_its_own_start_square_takes_only_the_men_it_jumps():
    pos = new_position("checkers12", OVER_ITS_START)
    m = pos.parse_move("e5g3l7i9b2")
    assert [pos.game.layout.name(sq) for sq in pos.captured(m)] == ["f4", "k6", "k8", "c3"]
    buf = [0] * 64
    after = bytearray(pos.cells)
    for i in range(pos.effects(m, buf)):
        after[buf[2 * i]] = buf[2 * i + 1]
    king = checkers12.BLACK | checkers12.KING
    pos.push(m)
    assert after == pos.cells  # what the board's tracker and the engine's hash are told
    assert pos.counts[king] == 1 and pos.cells[pos.game.layout.cell("b2")] == king
    assert bytes(pos.counts) == bytes(new_position("checkers12", pos.fen()).counts)
    pos.pop()
    assert pos.fen() == OVER_ITS_START and bytes(pos.counts) == bytes(new_position("checkers12", OVER_ITS_START).counts)


def test_the_position_of_the_issue_is_searched_at_every_depth():
    from host.engine import Limits, best_move

    pos = new_position("checkers12", UNDERFLOW)
    for depth in range(1, 8):
        reply = best_move(pos, Limits(depth=depth))
        assert reply.move in pos.legal_moves() and pos.fen() == UNDERFLOW
