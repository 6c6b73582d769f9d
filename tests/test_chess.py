"""Orthodox chess: perft on the standard suite, python-chess as an oracle, the draw rules."""

import os
import random

import chess
import pytest

from firmware.rules import FenError, MoveError, new_position

# The usual perft suite (chessprogramming.org), with the depths issue #2 asks for.
PERFT = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", [20, 400, 8902, 197281, 4865609]),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", [48, 2039, 97862, 4085603]),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2812, 43238]),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", [6, 264, 9467, 422333]),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", [44, 1486, 62379, 2103487]),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", [46, 2079, 89890, 3894594]),
]


# The suite's run stops below a million leaves a depth (about 4 s at most); the full depths,
# 15 M leaves: EBOARD_PERFT_DEEP=1 (bench/README.md).
DEEP = bool(os.environ.get("EBOARD_PERFT_DEEP"))


@pytest.mark.parametrize("fen,counts", PERFT, ids=["start", "kiwipete", "pos3", "pos4", "pos5", "pos6"])
def test_perft_matches_the_standard_suite(fen, counts):
    pos = new_position("chess", fen)
    counts = counts if DEEP else [n for n in counts if n < 1_000_000]
    assert [pos.perft(d) for d in range(1, len(counts) + 1)] == counts
    assert pos.fen() == fen  # perft leaves the position as it found it


def _playout(seed, plies=120):
    rng = random.Random(seed)
    ours = new_position("chess")
    ref = chess.Board()
    for _ in range(plies):
        got = sorted(ours.move_str(m) for m in ours.legal_moves())
        want = sorted(m.uci() for m in ref.legal_moves)
        assert got == want, ref.fen()
        assert ours.fen() == ref.fen(en_passant="fen")
        assert ours.is_check() == ref.is_check()
        if not want:
            break
        uci = rng.choice(want)
        ours.push_str(uci)
        ref.push_uci(uci)
    return ours, ref


@pytest.mark.parametrize("seed", range(40))
def test_random_games_match_python_chess(seed):
    ours, ref = _playout(seed)
    # and every move comes back off the stack
    while ours.stack:
        ours.pop()
        ref.pop()
        assert ours.fen() == ref.fen(en_passant="fen")


def test_outcomes_match_python_chess_along_random_games():
    for seed in range(60):
        rng = random.Random(1000 + seed)
        ours = new_position("chess")
        ref = chess.Board()
        for _ in range(300):
            o = ours.outcome()
            r = ref.outcome()
            if r is None:
                assert o is None, (ref.fen(), o)
            else:
                assert o is not None and o.result() == r.result(), ref.fen()
                assert o.reason == r.termination.name.lower().replace("_", "-"), ref.fen()
                break
            uci = rng.choice([m.uci() for m in ref.legal_moves])
            ours.push_str(uci)
            ref.push_uci(uci)


def test_checkmate_and_stalemate():
    pos = new_position("chess")
    for uci in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        pos.push_str(uci)
    o = pos.outcome()
    assert o.reason == "checkmate" and o.result() == "0-1"
    pos = new_position("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert pos.outcome().reason == "stalemate" and pos.outcome().result() == "1/2-1/2"


def test_repetition_rules_threefold_by_claim_fivefold_automatically():
    pos = new_position("chess")
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    for uci in shuffle * 2:
        pos.push_str(uci)
    assert pos.repetitions() == 3
    assert pos.outcome() is None
    assert pos.outcome(claim=True).reason == "threefold-repetition"
    for uci in shuffle * 2:
        pos.push_str(uci)
    assert pos.repetitions() == 5
    assert pos.outcome().reason == "fivefold-repetition"


def test_an_en_passant_right_that_cannot_be_used_does_not_break_a_repetition():
    # After 1.e4 the FEN carries e3, but no black pawn can take: the positions repeat.
    pos = new_position("chess", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    pos.push_str("e2e4")
    for uci in ["e8d8", "e1d1", "d8e8", "d1e1"] * 2:
        pos.push_str(uci)
    assert pos.repetitions() == 3


def test_fifty_and_seventy_five_move_rules():
    pos = new_position("chess", "4k3/8/8/8/8/8/R7/4K3 w - - 99 80")
    assert pos.outcome(claim=True) is None
    pos.push_str("a2b2")
    assert pos.outcome() is None and pos.outcome(claim=True).reason == "fifty-moves"
    pos = new_position("chess", "4k3/8/8/8/8/8/R7/4K3 w - - 149 80")
    pos.push_str("a2b2")
    assert pos.outcome().reason == "seventyfive-moves"


@pytest.mark.parametrize(
    "fen,dead",
    [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", True),
        ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", True),
        ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", True),
        ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", True),  # bishops on squares of one colour
        ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", False),
        ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", False),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", False),
    ],
)
def test_insufficient_material(fen, dead):
    pos = new_position("chess", fen)
    assert pos.is_insufficient_material() == dead
    assert pos.is_insufficient_material() == chess.Board(fen).is_insufficient_material()


@pytest.mark.parametrize(
    "fen",
    [
        "",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",  # 7 ranks
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # 9 files
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",  # no double step behind it
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "rnbqxbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # no such piece
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",  # no black king
        "Pnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # pawn on the last rank
        "4k3/8/8/8/8/8/8/4K2r b - - 0 1",  # the side not to move is in check
        "rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ],
)
def test_a_broken_fen_is_refused_and_changes_nothing(fen):
    pos = new_position("chess")
    pos.push_str("e2e4")
    before = pos.fen()
    with pytest.raises(FenError):
        pos.set_fen(fen)
    assert pos.fen() == before and len(pos.stack) == 1


def test_castling_rights_without_their_pieces_are_dropped():
    pos = new_position("chess", "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1")
    assert pos.fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"


def test_move_strings_are_parsed_against_the_legal_moves():
    pos = new_position("chess", "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1")
    assert {pos.move_str(m) for m in pos.moves_from(pos.game.layout.cell("e7"))} == {
        "e7e8q",
        "e7e8r",
        "e7e8b",
        "e7e8n",
    }
    for bad in ["e7e8", "e7e8k", "e2e4", "e7", "zz", "e7e8qq", "e1e1"]:
        with pytest.raises(MoveError):
            pos.parse_move(bad)
    pos.push_str("e7e8n")
    assert pos.fen() == "4N3/6k1/8/8/8/8/8/4K3 b - - 0 1"
