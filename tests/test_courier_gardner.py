"""Courier chess and Gardner's minichess: perft from the specs, Fairy-Stockfish (pyffish)
as the oracle with the files mapped, both for the historical switches (its built-in
`courier`) and for the board's rules (host/engine/variants.ini, the file the engine plays
from), and the board."""

import random

import pytest

from firmware.rules import new_position
from firmware.rules.games import courier

pyffish = pytest.importorskip("pyffish", reason="pip install pyffish")
uci = pytest.importorskip("host.engine.uci", reason="pip install chess")
pyffish.load_variant_config(uci.VARIANTS_INI.read_text())

OURS = "abcdefghiklm"  # courier.md §1: no j
FSF = "abcdefghijkl"


def squares_to_fsf(move):
    # letters that are files (each followed by a digit) map; a promotion letter stays
    out = []
    for i, ch in enumerate(move):
        if ch.isalpha() and i + 1 < len(move) and move[i + 1].isdigit():
            out.append(FSF[OURS.index(ch)])
        else:
            out.append(ch)
    return "".join(out)


def test_gardner_perft_matches_the_spec():
    pos = new_position("gardner")
    assert [pos.perft(d) for d in range(1, 6)] == [7, 53, 506, 4775, 52512]
    assert sorted(pos.move_str(m) for m in pos.legal_moves()) == sorted(
        ["a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "b1a3", "b1c3"]
    )


def test_courier_perft_matches_the_spec_for_both_rule_sets():
    seed_rules = new_position("courier", courier.AFTER_OPENING)
    assert [seed_rules.perft(d) for d in (1, 2, 3)] == [36, 1302, 47955]
    hist = courier.CourierPosition(courier.build("courier-hist", "wazir", False), courier.AFTER_OPENING)
    assert [hist.perft(d) for d in (1, 2, 3, 4)] == [26, 678, 18406, 500337]


def _walk(variant, pos, plies, seed, to_oracle, fen_of=lambda pos: pos.fen()):
    rng = random.Random(seed)
    moves = []
    for _ in range(plies):
        fen = fen_of(pos)
        want = sorted(pyffish.legal_moves(variant, fen, []))
        got = sorted(to_oracle(pos.move_str(m)) for m in pos.legal_moves())
        assert got == want, fen
        if not got:
            break
        m = rng.choice(pos.legal_moves())
        moves.append(m)
        pos.push(m)


@pytest.mark.parametrize("seed", range(12))
def test_gardner_moves_match_fairy_stockfish_along_random_games(seed):
    _walk("gardner", new_position("gardner"), 60, seed, lambda s: s)


@pytest.mark.parametrize("seed", range(12))
def test_courier_historical_moves_match_fairy_stockfish_along_random_games(seed):
    pos = courier.CourierPosition(courier.build("courier-hist", "wazir", False), courier.AFTER_OPENING)
    _walk("courier", pos, 80, seed, squares_to_fsf)


@pytest.mark.parametrize("seed", range(12))
def test_courier_moves_match_fairy_stockfish_given_the_boards_rules(seed):
    _walk("eboard-courier", new_position("courier", courier.AFTER_OPENING), 80, seed,
          lambda s: uci.to_engine("courier", s), uci.fen_for_engine)


@pytest.mark.parametrize("seed", range(6))
def test_gardner_moves_match_fairy_stockfish_given_the_boards_rules(seed):
    _walk("eboard-gardner", new_position("gardner"), 60, 100 + seed, lambda s: s)


@pytest.mark.parametrize("seed", range(3))
def test_perft_matches_fairy_stockfish_from_random_positions(seed):
    rng = random.Random(seed)
    for variant, pos, depth in [
        ("gardner", new_position("gardner"), 3),
        ("courier", courier.CourierPosition(courier.build("courier-hist", "wazir", False), courier.AFTER_OPENING), 3),
        ("eboard-gardner", new_position("gardner"), 3),
        ("eboard-courier", new_position("courier", courier.AFTER_OPENING), 2),  # pyffish's perft 3: ~6 s
    ]:
        for _ in range(rng.randrange(2, 16)):
            ms = pos.legal_moves()
            if not ms:
                break
            pos.push(rng.choice(ms))
        if not pos.legal_moves():
            continue
        fen = uci.fen_for_engine(pos)

        def oracle(fen, depth):
            moves = pyffish.legal_moves(variant, fen, [])
            if depth == 1:
                return len(moves)
            return sum(oracle(pyffish.get_fen(variant, fen, [m]), depth - 1) for m in moves)

        assert pos.perft(depth) == oracle(fen, depth), fen


def test_courier_stalemate_wins_for_the_side_that_gives_it():
    # Black's king on a8, boxed in by White's rook (b7, guarded) and king: no move, no check.
    pos = new_position("courier", "k11/1R10/1K10/12/12/12/12/12 b - - 0 1")
    o = pos.outcome()
    assert o.reason == "stalemate" and o.result() == "1-0"


def test_courier_promotes_to_a_ferz_only_and_has_no_en_passant():
    pos = new_position("courier", "k11/4P7/12/12/12/12/12/K11 w - - 0 1")
    assert sorted(pos.move_str(m) for m in pos.moves_from(pos.game.layout.cell("e7"))) == ["e7e8f"]
    pos = new_position("courier", "k11/12/12/12/4p7/12/3P8/K11 w - - 0 1")
    pos.push_str("d2d4")  # a double step (the seed's rules) past the pawn on e4
    assert "e4d3" not in {pos.move_str(m) for m in pos.legal_moves()}  # no en passant


def test_the_board_plays_courier_s_opening_for_the_players(tmp_path):
    from boards import sim
    from firmware import protocol
    from firmware.app import Board

    hw = sim.Hardware(journal_path=str(tmp_path / "j.bin"))
    out = []
    b = Board(hw, out.append)
    b.boot(0)
    protocol.handle(b, b"new courier", 0)
    assert b.pos.fen() == courier.AFTER_OPENING and b.history() == []
    assert new_position("courier").fen() == courier.START
    protocol.handle(b, b"sim setup", 0)
    protocol.handle(b, b"sim wait 100", 0)
    assert any(line.endswith("start courier") for line in out)
