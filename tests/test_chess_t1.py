"""chess-T1 (chess-t1.md): every case of chess-t1_cases.json, the appendix game, and a naive
second generator written from the spec (a dict of squares, no code shared with the
core) compared with the core on random positions."""

import json
import random
import re
import sys

import pytest
from conftest import ROOT, RULES, random_positions, tuple_board

from firmware.rules import new_position
from firmware.rules.board import BLACK, WHITE
from firmware.rules.games import chess_t1
from firmware.rules.position import CAPTURE

sys.path.insert(0, str(ROOT / "tests" / "mpy"))
from fenutil import board_fen  # noqa: E402

DATA = json.loads((RULES / "chess-t1_cases.json").read_text())
CASES = DATA["cases"]
FILES = "abcdefgh"


def fen_of(position, side, used=None):
    fen = board_fen(position, side, str, FILES, 8)
    if used and (used.get("w") or used.get("b")):
        fen += " " + ("P" if used.get("w") else "") + ("p" if used.get("b") else "")
    return fen


def position_of(case):
    fen = fen_of(case["position"], case["side_to_move"], case.get("prince_promotion_used"))
    return chess_t1.new(fen, case.get("ruleset") != "2024-fragment")


def ours(text, promote_to=None):
    # "d2:b4", "e6÷d8", "g7-g8" -> "d2b4" ...; the promotion letter if chosen
    m = re.fullmatch(r"([a-h][1-8])[-:÷]([a-h][1-8])", text)
    assert m, text
    return m[1] + m[2] + (promote_to.lower() if promote_to else "")


def names(pos, ms):
    lay = pos.game.layout
    return [(lay.name(pos.move_from(m)), lay.name(pos.move_to(m)), m) for m in ms]


def forces(pos, expected):
    sums, _ = pos.strength_map()
    lay = pos.game.layout
    for sq, (w, b) in expected.items():
        c = lay.cell(sq)
        assert (sums[0][c] / 2, sums[1][c] / 2) == (w, b), sq


def check_result(pos, text):
    o = pos.outcome()
    assert o is not None, text
    assert o.winner == (WHITE if text.startswith("white") else BLACK)
    for word, reason in (("King captured", "king-captured"), ("castle capture", "castle-captured"), ("blockade", "blockade")):
        if word in text:
            assert o.reason == reason, (o, text)


def play_line(pos, steps):
    for step in steps:
        if isinstance(step, str):
            step = {"move": step}
        move = ours(step["move"], step.get("promote_to"))
        pos.push(pos.parse_move(move))
        lay = pos.game.layout
        to = lay.cell(move[2:4])
        if "becomes" in step:
            code = step["becomes"]
            assert pos.cells[to] == (WHITE if code[0] == "w" else BLACK) | pos.game.type_of(code[1]), step
        if step.get("kind") == "exchange":
            assert pos.cells[to] == 0 and pos.cells[lay.cell(move[:2])] == 0
        if step.get("expected_check_on", 0) is None:
            assert not pos.is_check(), step
        elif "expected_check_on" in step:
            assert pos.us == (WHITE if step["expected_check_on"] == "w" else BLACK)
            assert pos.is_check(), step
        if "expected_force" in step:
            forces(pos, step["expected_force"])
        if "black_king_legal" in step:
            k = lay.name(pos.kings[1])
            assert sorted(t for f, t, _ in names(pos, pos.legal_moves()) if f == k) == sorted(step["black_king_legal"])
        if "white_legal_after" in step:
            got = sorted(f"{f}-{t}" for f, t, _ in names(pos, pos.legal_moves()))
            assert got == sorted(step["white_legal_after"]), step
        if "expected_result" in step:
            check_result(pos, step["expected_result"])


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['figure']}-{c.get('piece_square')}-{c['ruleset'][:4]}")
def test_case(case):
    pos = position_of(case)
    lay = pos.game.layout
    legal = names(pos, pos.legal_moves())
    sq = case.get("piece_square")
    if sq and case.get("expected_destinations") is not None:
        dests = {t for f, t, _ in legal if f == sq}
        assert dests == set(case["expected_destinations"])
    for t in case.get("expected_non_destinations") or []:
        assert (sq, t) not in {(f, x) for f, x, _ in legal}
    if sq and "expected_captures" in case:
        caps = {t for f, t, m in legal if f == sq and m & CAPTURE and m >> 19 & 15 != chess_t1.EXCHANGE}
        assert caps == set(case["expected_captures"])
    if sq and "expected_exchanges" in case:
        ex = {t for f, t, m in legal if f == sq and m >> 19 & 15 == chess_t1.EXCHANGE}
        assert ex == set(case["expected_exchanges"])
    if "expected_safe_destinations" in case:
        # the destinations where the piece cannot be taken at once (§9)
        safe = set()
        for f, t, m in legal:
            if f == sq:
                pos.push(m)
                if not pos.attacked(m >> 9 & 511, pos.us):
                    safe.add(t)
                pos.pop()
        assert safe == set(case["expected_safe_destinations"])
    for frm, tos in (case.get("expected_captures_by_piece") or {}).items():
        assert {t for f, t, m in legal if f == frm and m & CAPTURE} == set(tos), frm
    for text in case.get("expected_non_captures") or []:
        assert (text[:2], text[3:]) not in {(f, t) for f, t, _ in legal}
    forces(pos, case.get("expected_force") or {})
    side = 0 if pos.us == WHITE else 1
    smap = pos.strength_map()
    for s, v in (case.get("expected_effective_attack") or {}).items():
        assert pos.attack(side, lay.cell(s), smap) / 2 == v
    for s, want in (case.get("promotion") or {}).items():
        got = [pos.move_str(m) for f, t, m in legal if f == (sq or f) and t == s and m >> 19 & 15 in (4, 8)]
        if isinstance(want, list):
            assert sorted(x[-1] for x in got) == sorted(w.lower() for w in want)
        else:
            assert got == [sq + s]  # automatic: one move, no letter
    if "expected_in_check" in case:
        assert pos.is_check() == case["expected_in_check"]
    for colour, want in (case.get("expected_check") or {}).items():
        c = WHITE if colour == "w" else BLACK
        assert pos.attacked(pos.kings[c >> 6], c ^ (WHITE | BLACK)) == want
    if "expected_legal_move_count" in case:
        assert len(legal) == case["expected_legal_move_count"]
    if case.get("sequence"):
        play_line(pos, case["sequence"])
    for var in case.get("variations") or []:
        p = position_of(case)
        if "move" in var:
            play_line(p, [var])
            continue
        p.push(p.parse_move(ours(var["line"][0])))
        forces(p, var.get("expected_force_after_first", {}))
        p.pop()
        play_line(p, var["line"][:2])
        if "white_king_legal_after_second" in var:
            k = lay.name(p.kings[0])
            assert sorted(t for f, t, _ in names(p, p.legal_moves()) if f == k) == sorted(var["white_king_legal_after_second"])
        play_line(p, var["line"][2:])
        forces(p, var.get("expected_force_at_end", {}))
        if "expected_terminal_check_on_at_end" in var:
            assert p.is_check()
        if "expected_result" in var:
            check_result(p, var["expected_result"])
    if "alternative" in case:
        p = position_of(case)
        play_line(p, [case["alternative"]])
    if "game" in case:
        play_appendix_game(case)


def play_appendix_game(case):
    pos = position_of(case)
    moves = re.findall(r"([a-h][1-8][-:÷][a-h][1-8])(Кт|ВК)?", case["game"])
    labels = {}
    for label, want in case["expected_force_in_game"].items():
        m = re.match(r"after (\d+)(\.\.\.|\.)", label)
        labels[2 * int(m[1]) - (1 if m[2] == "." else 0)] = want
    for ply, (text, promo) in enumerate(moves, 1):
        m = pos.parse_move(ours(text))
        if promo:
            assert m >> 19 & 15 == chess_t1.AUTO, text  # Konnet and Wer Knecht come by themselves
        pos.push(m)
        if ply in labels:
            forces(pos, labels[ply])
    assert len(moves) == 54 and pos.outcome() is None  # White resigned


def test_start_position_and_fen_round_trip():
    pos = new_position("chess-t1")
    assert pos.fen() == chess_t1.START and len(pos.legal_moves()) == 23
    for bad in ["rspckpsr/iiiiiiii/8/8/8/8/IIIIIIII/RSPCKPSR w KQ - 0 1",  # no castling field
                "rspckpsr/iiiiiiii/8/8/8/8/IIIIIIII/RSPIKPSR w - - 0 1",  # a Knecht in the castle
                "rspckpsr/iiiiiiii/8/8/8/8/IIIIIIII/RSPCKPSR w - - 0 1 X"]:
        with pytest.raises(ValueError):
            new_position("chess-t1", bad)
    fen = "4k3/8/8/8/8/8/8/4K3 b - - 7 30 Pp"
    assert new_position("chess-t1", fen).fen() == fen


def test_the_position_a_taken_king_leaves_reads_back_from_its_fen():
    # Found by the invariant checker (issue #22): the core wrote a FEN it then refused.
    pos = new_position("chess-t1", "8/r6k/i7/2I5/i6r/8/7K/R7 b - - 0 95")
    pos.push_str("h4h2")
    fen = pos.fen()
    back = new_position("chess-t1", fen)
    assert back.fen() == fen and back.legal_moves() == []
    assert (back.outcome().reason, back.outcome().result()) == ("king-captured", "0-1") == (
        pos.outcome().reason, pos.outcome().result())
    with pytest.raises(ValueError):
        new_position("chess-t1", "8/r7/i7/8/8/8/8/R7 w - - 0 1")  # no King at all


# ---- a naive second generator, from the spec alone ---------------------------------------------

STRENGTH = {"K": 3, "C": 6, "P": 3, "R": 4, "I": 2, "V": 3, "S": 0}
ROYALS = "KCP"


def castle_owner(f, r):
    if 2 <= f <= 5 and r in (0, 7):
        return "w" if r == 0 else "b"
    return None


def mobility(board, f, r):
    side, kind = board[(f, r)]
    out = []

    def on(x, y):
        return 0 <= x < 8 and 0 <= y < 8

    orth = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    if kind == "K":
        out = [(f + x, r + y) for x, y in orth + diag if on(f + x, r + y)]
    if kind in "CR":
        out = [(f + k * x, r + k * y) for x, y in orth for k in (1, 2) if on(f + k * x, r + k * y)]
    if kind == "P":
        out = [(f + x, r + y) for x, y in orth if on(f + x, r + y)]
    if kind in "PC":
        for x, y in diag:
            for k in (1, 2, 3):
                s = (f + k * x, r + k * y)
                if not on(*s):
                    break
                out.append(s)
                if s in board:
                    break
    if kind in "IV":
        fw = 1 if side == "w" else -1
        out = [(f + x, r + y) for x, y in [(1, 0), (-1, 0), (0, fw), (0, -fw)] if on(f + x, r + y)]
        two = (f, r + 2 * fw)
        if on(*two) and (two[1] <= 3 if side == "w" else two[1] >= 4) and (f, r + fw) not in board:
            out.append(two)
    if kind == "S":
        out = [(f + x, r + y) for x, y in [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
               if on(f + x, r + y)]
    return out


def naive_moves(board, side, used, wk_castle=True):
    """{(from, to, letter)} with square names; letter '' for no choice."""
    other = "b" if side == "w" else "w"
    raw = {"w": {}, "b": {}}
    roy = {"w": {}, "b": {}}
    for (f, r), (s, k) in board.items():
        if k == "S":
            continue
        for sq in [(f, r)] + mobility(board, f, r):
            raw[s][sq] = raw[s].get(sq, 0) + STRENGTH[k]
        for sq in mobility(board, f, r):
            if k in ROYALS:
                roy[s][sq] = roy[s].get(sq, 0) + 1
    home = 0 if side == "w" else 7
    in_castle = [board.get((f, home)) for f in range(2, 6)]
    mine = sum(1 for x in in_castle if x and x[0] == side and x[1] in ROYALS)
    theirs = sum(1 for x in in_castle if x and x[0] == other and x[1] in ROYALS)
    count = {k: sum(1 for v in board.values() if v == (side, k)) for k in "PC"}
    out = set()
    for (f, r), (s, k) in list(board.items()):
        if s != side:
            continue
        stuck = k in ROYALS and castle_owner(f, r) == side and mine == 1 and theirs > 0
        for (x, y) in mobility(board, f, r):
            t = board.get((x, y))
            if t and t[0] == side:
                continue
            if stuck and castle_owner(x, y) != side:
                continue
            c = castle_owner(x, y)
            name = (FILES[f] + str(r + 1), FILES[x] + str(y + 1))
            if k == "S":
                if t is None and c is None or t is not None:
                    out.add(name + ("",))
                continue
            if t is None:
                if c and k not in ROYALS:
                    fw = 1 if side == "w" else -1
                    if k == "V" and wk_castle and c == other and x == f and y == r + fw:
                        out |= {name + (p,) for p in "pc" if count[p.upper()] < 3}
                    continue
            else:
                if c and k not in ROYALS:
                    continue
                att = raw[side].get((x, y), 0)
                if c and not roy[side].get((x, y)):
                    att = 0
                if att <= raw[other].get((x, y), 0):
                    continue
            last = 7 if side == "w" else 0
            if k == "V" and y == last and not c:
                out |= {name + (p,) for p in "rpcs" if p not in "pc" or count[p.upper()] < 3}
            else:
                out.add(name + ("",))
    return out


def test_core_agrees_with_a_naive_generator_on_random_positions():
    compared = 0
    for pos in random_positions(chess_t1.new, random.Random(11), 60, 80):
        if pos.outcome() is not None:
            continue
        side = "w" if pos.us == WHITE else "b"
        core = set()
        for m in pos.legal_moves():
            s = pos.move_str(m)
            core.add((s[:2], s[2:4], s[4:]))
        assert core == naive_moves(tuple_board(pos), side, pos.used), pos.fen()
        compared += 1
    assert compared > 1000
