"""Lippo's New Chess Game: every vector of lippo_vectors.json, the spec's own generator as an
oracle, and each rule of lippo.md with its recommended reading."""

import random

import pytest
from lippo_util import LETTER, board_fen, spec_checker, vectors

from firmware.rules import FenError, MoveError, new_position
from firmware.rules.board import BLACK, WHITE
from firmware.rules.position import BLAST, DOUBLE, EP, is_capture, kind_of

V = vectors()
ALL_VECTORS = V["vectors"] + V["derived_vectors"]
START = new_position("lippo").game.start


def names(pos, ms):
    return sorted(pos.move_str(m) for m in ms)


def dests(pos, frm, ms=None):
    lay = pos.game.layout
    sq = lay.cell(frm)
    ms = pos.pseudo_moves() if ms is None else ms
    return {lay.name(pos.move_to(m)) for m in ms if pos.move_from(m) == sq}


@pytest.mark.parametrize("vec", ALL_VECTORS, ids=[v["id"] for v in ALL_VECTORS])
def test_manual_and_derived_vectors(vec):
    colour = vec["colour"][0]
    board = dict(vec["board"]) if isinstance(vec.get("board"), dict) else {}
    board[vec["from"]] = colour + vec["piece"]
    mode = vec["mode"]
    enemy = "b" if colour == "w" else "w"
    if mode == "capture_targets":
        for s in vec["expected"]:
            board[s] = enemy + "S"
    fen = board_fen(board, colour)
    if mode == "en_passant":
        fen = fen.replace(" - - 0 1", " - k4 0 1")
    pos = new_position("lippo", fen)
    sq = pos.game.layout.cell(vec["from"])
    ms = [m for m in pos.pseudo_moves() if pos.move_from(m) == sq]
    got = {pos.game.layout.name(pos.move_to(m)) for m in ms}
    if mode == "moves_empty_board":
        assert got == set(vec["expected"])
    elif mode == "capture_targets":
        assert {pos.game.layout.name(pos.move_to(m)) for m in ms if is_capture(m)} == set(vec["expected"])
    elif mode == "moves_on_board":
        kinds = {pos.game.layout.name(pos.move_to(m)): "capture" if is_capture(m) else "move" for m in ms}
        assert sorted(kinds.items()) == sorted(map(tuple, vec["expected"]))
    else:
        assert mode == "en_passant"
        eps = [m for m in ms if kind_of(m) == EP]
        assert [pos.game.layout.name(pos.move_to(m)) for m in eps] == vec["expected_captures"]
        pos.push(eps[0])
        assert pos.piece_at(pos.game.layout.cell(vec["removes"])) == 0


def test_the_fougasse_captures_without_moving():
    pos = new_position("lippo", board_fen({"f2": "wF", "f1": "bK", "g1": "wP", "a12": "bP", "e5": "wS", "e9": "bS"}))
    (m,) = [m for m in pos.legal_moves() if pos.move_from(m) == pos.game.layout.cell("f2")]
    assert pos.move_str(m) == "f2f1" and kind_of(m) == BLAST
    pos.push(m)
    assert pos.fen() == "p11/12/12/4s7/12/12/12/4S7/12/12/5F6/6P5 b - - 0 1"
    pos.pop()
    assert pos.piece_at(pos.game.layout.cell("f1")) == BLACK | pos.game.type_of("K")


def _random_board(rng):
    board = {}
    squares = [f + str(r) for f in "abcdefghiklm" for r in range(1, 13)]
    presidents = set()
    for s in rng.sample(squares, rng.randint(4, 60)):
        code = rng.choice("wb") + rng.choice(list(LETTER))
        if code[1:] == "P":
            if code in presidents:
                continue  # one President a side
            presidents.add(code)
        board[s] = code
    return board


def test_geometry_matches_the_spec_checker_on_random_boards():
    chk = spec_checker()
    rng = random.Random(7)
    compared = 0
    for _ in range(300):
        board = _random_board(rng)
        side = rng.choice("wb")
        pos = new_position("lippo", board_fen(board, side))
        ms = pos.pseudo_moves()
        for frm, code in board.items():
            if code[0] != side:
                continue
            want = {}
            for to, kind in chk.gen_moves(board, frm):
                want[to] = kind in ("capture", "capture_in_place", "en_passant")
            sq = pos.game.layout.cell(frm)
            got = {}
            for m in ms:
                if pos.move_from(m) == sq and kind_of(m) != 3:  # castling is not the checker's
                    got[pos.game.layout.name(pos.move_to(m))] = is_capture(m)
            assert got == want, (frm, code, board_fen(board, side))
            compared += 1
    assert compared > 3000


def test_start_position():
    pos = new_position("lippo")
    assert pos.fen() == START
    assert pos.points() == (400, 400)
    assert [pos.perft(d) for d in (1, 2, 3)] == [150, 22500, 3623442]


def test_push_pop_restores_every_byte_along_random_games():
    rng = random.Random(3)
    for _ in range(12):
        pos = new_position("lippo")
        fens = []
        for _ in range(150):
            ms = pos.legal_moves()
            if not ms:
                break
            before = (bytes(pos.cells), bytes(pos.counts), list(pos.kings), pos.fen())
            m = rng.choice(ms)
            pos.push(m)
            pos.pop()
            assert (bytes(pos.cells), bytes(pos.counts), list(pos.kings), pos.fen()) == before
            fens.append(pos.fen())
            pos.push(m)
            # the counts always agree with the board
            counts = bytearray(128)
            for sq in pos.game.layout.squares:
                if pos.cells[sq]:
                    counts[pos.cells[sq]] += 1
            assert counts == pos.counts
            # the FEN alone rebuilds the same position
            again = new_position("lippo", pos.fen())
            assert sorted(again.legal_moves()) == sorted(pos.legal_moves())
        while pos.stack:
            pos.pop()
            assert pos.fen() == fens.pop()


# ---- Soldiers (§6) -----------------------------------------------------------------------

KINGS = {"g1": "wP", "g12": "bP", "a6": "wS", "a7": "bS"}  # Presidents, and a Soldier each


def lippo(extra_board, side="w", extra=""):
    board = dict(KINGS)
    board.update(extra_board)
    return new_position("lippo", board_fen(board, side, extra))


def test_soldier_steps_double_steps_only_from_its_home_rank_and_captures_forward():
    pos = lippo({"c3": "wS", "e2": "wS", "e4": "bS", "d4": "bS", "h10": "bS"})
    assert dests(pos, "c3") == {"c4", "c5", "d4"}
    assert dests(pos, "e2") == {"e3"}  # a Fougasse-born Soldier has no double step (A8)
    pos = lippo({"h10": "bS"}, side="b")
    assert dests(pos, "h10") == {"h9", "h8"}


def test_en_passant_is_written_after_every_double_step_and_lasts_one_move():
    pos = lippo({"k3": "wS"})
    pos.push_str("k3k5")
    assert pos.fen().split()[3] == "k4"  # written although no Soldier can take
    pos = lippo({"k3": "wS", "l5": "bS", "b10": "bS", "c3": "wS"})
    pos.push_str("k3k5")
    (ep,) = [m for m in pos.legal_moves() if kind_of(m) == EP]
    assert pos.move_str(ep) == "l5k4"
    pos.push_str("b10b9")
    pos.push_str("c3c4")
    assert not [m for m in pos.legal_moves() if kind_of(m) == EP]


PROMOTION_BY_FILE = {
    "a": "ke", "b": "mo", "c": "hn", "d": "at", "e": "gl", "f": "d",
    "g": "dgahmkeontlu", "h": "gl", "i": "at", "k": "hn", "l": "mo", "m": "ke",
}


@pytest.mark.parametrize("file", sorted(PROMOTION_BY_FILE))
def test_promotion_choice_depends_on_the_file_of_arrival_and_may_be_declined(file):
    board = {"g1": "wP", "a1": "bP", "a6": "wS", "a7": "bS", f"{file}11": "wS"}
    if file == "g":
        board["m12"] = "bP"
        del board["a1"]
    pos = new_position("lippo", board_fen(board))
    got = {pos.move_str(m) for m in pos.moves_from(pos.game.layout.cell(f"{file}11"))}
    assert got == {f"{file}11{file}12"} | {f"{file}11{file}12{c}" for c in PROMOTION_BY_FILE[file]}


def test_a_capture_onto_the_last_rank_promotes_by_the_file_it_arrives_on():
    pos = lippo({"e11": "wS", "f12": "bK"})
    got = {pos.move_str(m) for m in pos.moves_from(pos.game.layout.cell("e11"))}
    assert {"e11f12", "e11f12d"} <= got and "e11f12g" not in got
    pos.push_str("e11f12d")
    assert pos.piece_at(pos.game.layout.cell("f12")) == WHITE | pos.game.type_of("D")
    assert pos.points()[0] == 194 + 1 + 12
    pos.pop()
    pos.push_str("e11f12")  # declined: an inert Soldier on the last rank
    assert pos.piece_at(pos.game.layout.cell("f12")) == WHITE | pos.game.type_of("S")
    assert pos.moves_from(pos.game.layout.cell("f12")) == []


# ---- the President's bonus Soldier (§12, A11) ----------------------------------------------


def test_the_president_reaching_the_back_rank_may_bring_a_soldier():
    pos = lippo({"g11": "wP", "g1": None, "a1": "bS", "g12": None, "a12": "bP"})
    got = {pos.move_str(m) for m in pos.moves_from(pos.game.layout.cell("g11"))}
    assert {"g11g12", "g11g12,g3", "g11f12", "g11f12,f3", "g11h12,h3"} <= got
    pos.push_str("g11g12,g3")
    assert pos.piece_at(pos.game.layout.cell("g3")) == WHITE | pos.game.type_of("S")
    assert pos.fen().split()[6:] == ["B", "-", "-"]
    pos.pop()
    assert pos.piece_at(pos.game.layout.cell("g3")) == 0 and len(pos.fen().split()) == 6


def test_the_bonus_soldier_goes_left_or_right_of_a_taken_square_at_the_owners_choice():
    pos = lippo({"g11": "wP", "g1": None, "g12": None, "a12": "bP", "f3": "wS", "g3": "bS", "h3": "wS"})
    got = {pos.move_str(m) for m in pos.moves_from(pos.game.layout.cell("g11"))}
    assert {"g11g12", "g11g12,e3", "g11g12,i3"} <= got and "g11g12,g3" not in got


def test_the_bonus_is_had_once_per_side():
    pos = lippo({"g11": "wP", "g1": None, "g12": None, "a12": "bP"}, extra="B - -")
    got = {pos.move_str(m) for m in pos.moves_from(pos.game.layout.cell("g11"))}
    assert "g11g12" in got and not [s for s in got if "," in s]


def test_no_bonus_for_a_president_moving_along_the_back_rank():
    pos = lippo({"g12": None, "f12": "wP", "g1": None, "a12": None, "a1": "bP"})
    assert not [m for m in pos.moves_from(pos.game.layout.cell("f12")) if "," in pos.move_str(m)]


# ---- Fougasses become Soldiers (§11, A7) ------------------------------------------------------


def test_the_side_that_loses_its_last_soldier_gets_soldiers_on_its_fougasse_squares():
    pos = new_position("lippo", board_fen({"g1": "wP", "g12": "bP", "a7": "bS", "b6": "wS", "f2": "wF", "g11": "bF"}))
    pos.push_str("b6a7")  # Black's last Soldier is taken
    # f11 was empty: a Soldier appears there; g11's Fougasse turns into a Soldier.
    assert pos.fen().split()[0].split("/")[1] == "5ss5"
    assert pos.fen().split()[6:] == ["f", "-", "-"]
    pos.pop()
    assert pos.fen().split()[0].split("/")[1] == "6f5"


def test_an_occupied_fougasse_square_gets_its_soldier_when_it_empties():
    board = {"g1": "wP", "g12": "bP", "a7": "bS", "b6": "wS", "f11": "wG", "g11": "bF", "a1": "wS"}
    pos = new_position("lippo", board_fen(board))
    pos.push_str("b6a7")
    assert pos.fen().split()[6:] == ["f", "f11", "-"]
    pos.push_str("g12h12")
    pos.push_str("f11f10")  # the White Gas leaves f11
    assert pos.piece_at(pos.game.layout.cell("f11")) == BLACK | pos.game.type_of("S")
    assert pos.fen().split()[6:] == ["f", "-", "-"]


def test_the_conversion_fires_once_per_side():
    pos = new_position("lippo", board_fen({"g1": "wP", "g12": "bP", "a6": "wS", "b7": "wG"}, "w", "f - -"))
    pos.push_str("a6a7")
    assert pos.fen().split()[0].split("/")[1] == "12"  # Black has no Soldier, but already converted


# ---- castling (A12) -------------------------------------------------------------------------


def test_castling_both_ways_with_no_attack_conditions():
    fen = "k5p4k/12/12/12/12/12/12/12/12/ssssssssssss/SSSSSSSSSSSS/K5P4K w KQkq - 0 1"
    pos = new_position("lippo", fen)
    got = {pos.move_str(m) for m in pos.moves_from(pos.game.layout.cell("g1"))}
    assert {"g1i1", "g1e1"} <= got
    pos.push_str("g1i1")
    assert pos.fen().split()[0].endswith("/K6KP3") and pos.fen().split()[2] == "kq"
    pos.pop()
    pos.push_str("g1e1")
    assert pos.fen().split()[0].endswith("/4PK5K") and pos.fen().split()[2] == "kq"
    # castling through a square the enemy attacks is allowed (no check rules)
    pos = new_position("lippo", fen.replace("/12/12/12/12/ss", "/12/12/7k4/12/ss").replace("k5p4k", "6p5"))
    assert "g1i1" in {pos.move_str(m) for m in pos.legal_moves()}


def test_castling_rights_go_when_the_fortress_or_president_moves():
    fen = "k5p4k/ssssssssssss/12/12/12/12/12/12/12/SSSSSSSSSSSS/12/K5P4K w KQkq - 0 1"
    pos = new_position("lippo", fen)
    pos.push_str("m1m2")
    assert pos.fen().split()[2] == "Qkq"
    pos.push_str("g12f12")
    assert pos.fen().split()[2] == "Q"
    pos.pop()
    pos.pop()
    pos.push_str("g1i1")
    assert pos.fen().split()[2] == "kq"


# ---- the end of the game (§8.3) and points (§8.4) -------------------------------------------


def test_capturing_the_president_ends_the_game_and_points_decide():
    pos = new_position("lippo", board_fen({"g1": "wP", "g2": "bG", "a12": "bP", "a6": "wS", "a7": "bS"}))
    # White takes the Gas; then Black ... but first: Black to take the President
    pos = new_position("lippo", board_fen({"g1": "wP", "g2": "bG", "a12": "bP", "a6": "wS", "a7": "bS"}, "b"))
    pos.push_str("g2g1")
    assert pos.legal_moves() == []
    o = pos.outcome()
    assert o.reason == "president-captured" and o.points == (1, 194 + 14 + 1) and o.result() == "0-1"


def test_the_captor_of_the_president_can_still_lose_on_points():
    board = {"g1": "wP", "f2": "bU", "a12": "bP", "a6": "wS", "a7": "bS"}
    for s in ["b1", "c1", "d1"]:
        board[s] = "wG"
    for s in ["h1", "i1", "k1", "l1"]:
        board[s] = "wA"
    for f in "bcdefghiklm":
        board[f + "5"] = "wG"
    pos = new_position("lippo", board_fen(board, "b"))
    pos.push_str("f2g1")
    o = pos.outcome()
    assert o.reason == "president-captured" and o.winner == WHITE  # 14 Gases, 4 Aeroplanes and a Soldier outweigh 194 + 4


def test_surrender_when_no_move_ends_the_attack():
    fen = "p4kkk4/12/12/12/12/12/12/12/12/12/12/6P5 w - - 0 1 Ff - -"
    pos = new_position("lippo", fen)
    assert pos.legal_moves() == []
    o = pos.outcome()
    assert o.reason == "surrender" and o.points == (0, 194 + 30) and o.result() == "0-1"
    # a piece that can block the file is enough to play on
    pos = new_position("lippo", fen.replace("6P5", "6PA4"))
    assert pos.outcome() is None and len(pos.legal_moves()) == 29


def test_patt_ends_the_game_with_both_presidents_counted():
    pos = new_position("lippo", "p4k1k4/12/12/12/12/12/12/12/12/12/k11/6P5 w - - 0 1 Ff - -")
    o = pos.outcome()
    assert o.reason == "patt" and o.points == (194, 194 + 30) and pos.legal_moves() == []


def test_an_own_neighbour_the_enemy_does_not_attack_prevents_patt():
    pos = new_position("lippo", "p4k1k4/12/12/12/12/12/12/12/12/12/k11/6P5 w - - 0 1 Ff - -".replace("6P5", "6PD4"))
    assert pos.outcome().reason == "patt"  # h1 is attacked by the h-file Fortress
    pos = new_position("lippo", "p4k6/12/12/12/12/12/12/12/12/12/k11/6PD4 w - - 0 1 Ff - -")
    assert pos.outcome() is None


# ---- claims: §6, §14, §15 -------------------------------------------------------------------


def test_declared_end_runs_56_moves_each():
    pos = new_position("lippo")
    pos.declare_end()
    assert pos.fen().split()[6:] == ["-", "-", "112"]
    shuffle = ["c2d4", "c11d9", "d4c2", "d9c11"] * 28
    for uci in shuffle[:-1]:
        pos.push_str(uci)
    assert pos.outcome() is None and pos.fen().split()[8] == "1"
    pos.push_str(shuffle[-1])
    o = pos.outcome()
    assert o.reason == "claim" and o.points == (400, 400) and o.result() == "1/2-1/2"
    assert pos.legal_moves() == []


def test_perpetual_attack_protest():
    fen = "p6k4/12/12/12/12/12/12/12/12/12/12/6P5 b - - 0 1 Ff - -"
    pos = new_position("lippo", fen)
    for uci in ["h12g12", "g1h1", "g12h12", "h1g1"]:
        pos.push_str(uci)
    with pytest.raises(MoveError):
        pos.claim_perpetual()  # only two attacking moves so far
    pos.push_str("h12g12")
    assert pos.game.layout.name(pos.perpetual_attacker()) == "g12"
    pos.claim_perpetual()
    assert pos.fen().split()[8] == "12"


def test_a_different_attacker_each_time_is_no_perpetual():
    fen = "p5k4k/12/12/12/12/12/12/12/12/12/12/6P5 b - - 0 1 Ff - -"
    pos = new_position("lippo", fen)
    for uci in ["g12g11", "g1h1", "m12h12", "h1g1", "h12i12"]:
        pos.push_str(uci)
    assert pos.perpetual_attacker() is None


def test_a_demand_after_an_illegal_move_forces_a_safe_president_move():
    pos = new_position("lippo", "p5k5/12/12/12/12/12/12/12/12/12/12/5P5A w - - 0 1 Ff - -")
    assert len(pos.legal_moves()) > 10
    pos.demand_president_move(WHITE)
    assert pos.fen().split()[6] == "FfD"
    assert names(pos, pos.legal_moves()) == ["f1e1", "f1e2", "f1f2"]  # g1, g2: the g-file
    pos.push_str("f1e1")
    assert pos.fen().split()[6] == "Ff"


def test_a_demand_with_no_safe_square_waits():
    # e1 and f2 are the Cavalry's, g1 and g2 the Fortress's; e2 holds an unattacked own
    # piece, so this is no patt: White plays on and the demand stays.
    pos = new_position("lippo", "p5k5/12/12/12/12/12/12/12/12/3n8/4U7/5P5A w - - 0 1 DFf - -")
    assert pos.outcome() is None
    ms = names(pos, pos.legal_moves())
    assert "m1m7" in ms and "f1g1" in ms
    pos.push_str("m1m7")
    assert pos.fen().split()[6] == "FfD"


# ---- FEN --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fen",
    [
        START + " BbFf f2,g11 5",
        START.replace("KQkq", "Kq") + " Bd - -",
        START.replace(" - 0 1", " - 7 30") + " - - 0",
    ],
)
def test_the_extra_fields_round_trip(fen):
    if "f2" in fen:
        fen = fen.replace("KQkq", "-").replace("FF", "1F").replace("ff", "f1")
    assert new_position("lippo", fen).fen() == fen


@pytest.mark.parametrize(
    "extra",
    ["X - -", "BB - -", "- f2 -", "F f3 -", "F f2,f2 -", "- - x", "- - -1", "-", "- -", "- - - -"],
)
def test_bad_extra_fields_are_refused(extra):
    with pytest.raises(FenError):
        new_position("lippo", START + " " + extra)


def test_two_presidents_of_one_side_are_refused():
    with pytest.raises(FenError):
        new_position("lippo", START.replace("KMHAGDPGAHMK", "KMHAGPPGAHMK"))


def test_move_strings():
    pos = new_position("lippo")
    for uci in ["f3f5", "k10k8", "d1d7"]:
        pos.push_str(uci)
    with pytest.raises(MoveError):
        pos.parse_move("g2g3")  # a Fougasse never moves
    assert {pos.move_str(m) for m in pos.legal_moves() if kind_of(m) == DOUBLE} >= {"b10b8", "l10l8"}
