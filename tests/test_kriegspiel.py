"""The Kriegspiel umpire and the players' own views (kriegspiel.md), and battle chess's
screened setup (battle-setup.md): every JSON case, python-chess as an oracle on random
games, and the non-interference rule of §10 checked over all moves of random positions."""

import json
import random
import subprocess

import chess
import pytest
from conftest import RULES
from test_cli import EBOARD

from firmware.rules import new_position
from firmware.rules import battle
from firmware.rules.board import WHITE, BLACK
from firmware.rules.kriegspiel import Umpire, checks, new_view, view_fen

CASES = json.loads((RULES / "kriegspiel_cases.json").read_text())
LEAKS = {c["id"]: c for c in CASES["leak_cases"]}


def play(case, rules="seed"):
    ump = Umpire(new_position("chess", case["fen"]), rules=rules)
    out = ump.start(fresh=False) if rules == "icc" else []
    for a in case["attempts"]:
        out += ump.ask() if a == "ask" else ump.attempt(a)
    return ump, out


@pytest.mark.parametrize("case", CASES["cases"], ids=lambda c: c["id"])
def test_referee_case(case):
    ump, out = play(case)
    assert out == case["expected"]
    # python-chess writes the en-passant square only when a capture is possible
    assert ump.pos.fen().split()[:3] == case["fen_after"].split()[:3]


@pytest.mark.parametrize("case", CASES["cases"], ids=lambda c: c["id"])
def test_referee_case_under_icc_switches(case):
    assert play(case, "icc")[1] == case["icc_expected"]


def hints(fen, side, frm=None):
    view = new_view("chess", view_fen(new_position("chess", fen), side))
    return sorted(s for s in map(view.move_str, view.legal_moves()) if frm is None or s.startswith(frm))


@pytest.mark.parametrize("case", [c for c in CASES["leak_cases"] if c["kind"] == "move_hints"], ids=lambda c: c["id"])
def test_hints_come_from_own_men_only(case):
    side = WHITE if case["viewer"] == "white" else BLACK
    assert hints(case["fen"], side, case["piece_square"]) == sorted(case["hints_must_equal"])


def test_own_view_has_no_en_passant_square():
    case = LEAKS["leak-fen-ep-square"]
    assert view_fen(new_position("chess", case["fen"]), WHITE) == case["own_view_fen"]


@pytest.mark.parametrize("key", ["leak-fen-halfmove-clock", "leak-fen-castling-rights"])
def test_hidden_moves_leave_the_view_and_the_sheet_identical(key):
    case = LEAKS[key]
    seen = set()
    for move in case["hidden_moves"]:
        ump = Umpire(new_position("chess", case["fen_before"]))
        ump.attempt(move)
        seen.add((ump.view_fen(WHITE), json.dumps(ump.told[0])))
    assert len(seen) == 1
    (fen, _), = seen
    if "own_view_board_fen" in case:
        assert fen.split()[0] == case["own_view_board_fen"]
    assert fen.split()[4] == "0"  # the half-move clock is never told


def test_every_illegal_reason_is_one_message():
    outs = set()
    for c in LEAKS["leak-illegal-reason"]["cases"]:
        ump = Umpire(new_position("chess", c["fen"]))
        outs.add(json.dumps(ump.attempt(c["attempt"])))
    assert outs == {json.dumps([{"type": "move_impossible", "side": "white", "audience": "both"}])}


def test_capture_names_the_square_only():
    c = LEAKS["leak-capture-type"]
    out = Umpire(new_position("chess", c["fen"])).attempt(c["attempt"])
    assert out[1] == {"type": "capture", "side": "white", "square": "d5", "audience": "both"}


def test_double_check_order_is_canonical():
    c = LEAKS["leak-double-check-order"]
    for fen in c["fens"]:
        pos = new_position("chess", fen)
        assert [a["direction"] for a in checks(pos, pos.kings[0], BLACK)] == c["required_announcement"]


def test_rejections_and_question_rules():
    ump = Umpire(new_position("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"))
    assert ump.ask()[0]["reason"] == "no_pawns"
    ump = Umpire(new_position("chess", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"))
    ump.ask()
    assert ump.ask()[0]["reason"] == "already_asked_this_turn"
    ump.attempt("e4d5")
    assert ump.ask()[0]["reason"] == "no_pawns"  # Black's turn: its only pawn was taken
    with pytest.raises(ValueError):
        ump.full_record()


def test_full_record_and_scoresheets_after_mate():
    ump = Umpire(new_position("chess", "6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1"))
    ump.attempt("a1b2")  # not possible on the own board: White's sheet only
    ump.attempt("a1a8")
    rec = ump.full_record()
    assert [r["attempt"] for r in rec["attempts"]] == ["a1a8"]  # a device-local refusal is no umpire answer
    assert {"type": "attempt", "move": "a1a8"} in ump.told[0]
    assert not any(a["type"] in ("attempt", "rejected") for a in ump.told[1])
    assert ump.told[1][-1] == {"type": "checkmate", "winner": "white", "audience": "both"}


# ---- python-chess as the oracle ------------------------------------------------------------


def direction(board, king, checker):
    # Written from §6.1, independently of the core: walk the two diagonal lines.
    dx = chess.square_file(checker) - chess.square_file(king)
    dy = chess.square_rank(checker) - chess.square_rank(king)
    if dx == 0:
        return "file"
    if dy == 0:
        return "rank"
    if abs(dx) != abs(dy):
        return "knight"

    def length(sx, sy):
        n = 1
        for k in (1, -1):
            f, r = chess.square_file(king) + k * sx, chess.square_rank(king) + k * sy
            while 0 <= f < 8 and 0 <= r < 8:
                n += 1
                f, r = f + k * sx, r + k * sy
        return n

    own = length(1 if dx > 0 else -1, 1 if dy > 0 else -1)
    other = length(1 if dx > 0 else -1, -1 if dy > 0 else 1)
    return "long_diagonal" if own > other else "short_diagonal"


ORDER = ["rank", "file", "long_diagonal", "short_diagonal", "knight"]


def oracle(board, uci):
    """What the seed umpire says of a legal attempt, from python-chess."""
    move = chess.Move.from_uci(uci)
    side = "white" if board.turn else "black"
    out = [{"type": "moved", "side": side, "audience": "both"}]
    if board.is_capture(move):
        sq = move.to_square
        if board.is_en_passant(move):
            sq = chess.square(chess.square_file(move.to_square), chess.square_rank(move.from_square))
        out.append({"type": "capture", "side": side, "square": chess.square_name(sq), "audience": "both"})
    if move.promotion:
        out.append({"type": "promotion", "side": side, "square": chess.square_name(move.to_square), "audience": "both"})
    board.push(move)
    king = board.king(board.turn)
    dirs = sorted((direction(board, king, c) for c in board.checkers()), key=ORDER.index)
    out += [{"type": "check", "side": side, "direction": d, "audience": "both"} for d in dirs]
    if board.is_checkmate():
        out.append({"type": "checkmate", "winner": side, "audience": "both"})
    elif board.is_stalemate():
        out.append({"type": "stalemate", "result": "draw", "audience": "both"})
    elif board.is_insufficient_material():
        out.append({"type": "draw", "reason": "insufficient_material", "audience": "both"})
    return out


def test_umpire_agrees_with_python_chess_on_random_games():
    rnd = random.Random(7)
    judged = 0
    for _ in range(40):
        board = chess.Board()
        board.castling_rights = chess.BB_EMPTY  # the seed's game has no castling
        ump = Umpire(new_position("chess", board.fen()))
        while not ump.over and board.fullmove_number < 80:
            legal = {m.uci() for m in board.legal_moves}
            yes = any(board.is_capture(m) and board.piece_type_at(m.from_square) == chess.PAWN for m in board.legal_moves)
            answer = ump.ask()
            if board.pieces(chess.PAWN, board.turn):
                assert answer[1]["answer"] is yes
            else:
                assert answer[0]["reason"] == "no_pawns"
            wf = sorted(ump.wellformed())
            assert legal <= set(wf)
            for attempt in rnd.sample(wf, min(4, len(wf))):
                out = ump.attempt(attempt)
                if out[0]["type"] == "rejected":
                    assert out[0]["reason"] == "must_try_pawn_capture"
                    continue
                judged += 1
                if attempt in legal:
                    assert out == oracle(board, attempt)
                    break
                assert out == [{"type": "move_impossible", "side": out[0]["side"], "audience": "both"}]
            else:
                if ump.obliged:  # one pawn capture must be tried first
                    attempt = next(s for s in wf if ump.wellformed()[s] and s not in ump.refused)
                    out = ump.attempt(attempt)
                    judged += 1
                    if attempt in legal:
                        assert out == oracle(board, attempt)
                        continue
                    assert out[0]["type"] == "move_impossible" and not ump.obliged
                move = rnd.choice(sorted(legal - set(ump.refused)))
                judged += 1
                assert ump.attempt(move) == oracle(board, move)
            assert ump.pos.fen().split()[0] == board.board_fen()
    assert judged > 1000


# ---- non-interference (§10.1) on every game ------------------------------------------------


def sheet_after(fen, gid, move, viewer):
    ump = Umpire(new_position(gid, fen))
    ump.attempt(move)
    return ump.view_fen(viewer) + "|" + json.dumps(ump.told[viewer >> 6])


@pytest.mark.parametrize("gid", ["chess", "lippo", "courier", "gardner"])
def test_moves_that_sound_alike_leave_the_other_player_the_same_bytes(gid):
    # For random positions: group the mover's legal moves by what the umpire announces;
    # the other player's view and scoresheet must be the same for every move of a group.
    rnd = random.Random(3)
    pos = new_position(gid)
    groups = checked = 0
    for _ in range(12):
        pos = new_position(gid)
        for _ in range(rnd.randrange(4, 40)):
            ms = pos.legal_moves()
            if not ms:
                break
            pos.push(rnd.choice(ms))
        if not pos.legal_moves():
            continue
        fen = pos.fen()
        viewer = pos.us ^ (WHITE | BLACK)
        by_sound = {}
        for m in pos.legal_moves():
            text = pos.move_str(m)
            ump = Umpire(new_position(gid, fen))
            sound = json.dumps(ump.attempt(text))
            by_sound.setdefault(sound, []).append(text)
        for moves in by_sound.values():
            seen = {sheet_after(fen, gid, m, viewer) for m in moves[:8]}
            assert len(seen) == 1, moves
            groups += 1
            checked += min(8, len(moves))
    assert groups > 10 and checked > 50


# ---- variants: checks by displacement (§9) ---------------------------------------------------


def test_lippo_checks_are_classed_by_displacement():
    # A Tank (T) jumping 3 then stepping sideways checks as a zebra from (2, 3), a camel
    # from (1, 3); a Fougasse next to the President checks by capturing in place.
    fen = "6p5/12/12/12/12/12/12/12/12/12/12/6P5 w - - 0 1"
    for tank, want in (("i9", "zebra"), ("h9", "camel"), ("g9", "file"), ("d9", "long_diagonal")):
        pos = new_position("lippo", fen)
        lay = pos.game.layout
        pos.cells[lay.cell(tank)] = WHITE | pos.game.type_of("T")
        assert [a["direction"] for a in checks(pos, lay.cell("g12"), WHITE)] == [want], tank
    ump = Umpire(new_position("lippo", "6p5/12/12/12/12/12/12/12/12/12/1s10/F5P5 w - - 0 1"))
    view = new_view("lippo", ump.view_fen(WHITE))
    assert {"a1a2", "a1b1", "a1b2"} <= set(map(view.move_str, view.legal_moves()))  # blasts tried blind
    assert ump.attempt("a1b1")[0]["type"] == "move_impossible"
    assert ump.attempt("a1b2")[:2] == [{"type": "moved", "side": "white", "audience": "both"},
                                       {"type": "capture", "side": "white", "square": "b2", "audience": "both"}]


def test_courier_and_gardner_have_plain_diagonal_squares():
    pos = new_position("gardner", "4k/5/2K2/5/4r w - - 0 1")
    lay = pos.game.layout
    pos.cells[lay.cell("e5")] = BLACK | pos.game.type_of("B")
    pos.cells[lay.cell("e1")] = 0
    assert [a["direction"] for a in checks(pos, lay.cell("c3"), BLACK)] == ["diagonal"]


def test_umpire_refuses_checkers():
    with pytest.raises(ValueError):
        Umpire(new_position("checkers12"))


def test_umpire_command_prints_a_json_line_per_attempt():
    case = next(c for c in CASES["cases"] if c["id"] == "pawntries-yes-03")
    r = subprocess.run([EBOARD, "umpire", "chess", "--fen", case["fen"]], input="\n".join(case["attempts"]) + "\n",
                       capture_output=True, text=True, timeout=60)
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(lines) == len(case["attempts"]) and sum(lines, []) == case["expected"]
    r = subprocess.run([EBOARD, "umpire", "chess", "--rules", "icc", "--fen", case["fen"]],
                       input="\n".join(case["attempts"]) + "\n", capture_output=True, text=True, timeout=60)
    assert sum((json.loads(x) for x in r.stdout.splitlines()), []) == case["icc_expected"]
    r = subprocess.run([EBOARD, "umpire", "chess", "--fen", "8/8/8 w - - 0 1"], input="", capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1


# ---- battle chess's screened setup -----------------------------------------------------------


@pytest.mark.parametrize("board, code", [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKNBR", "bishops_same_colour"),
    ("rnbqkbnr/pppppppp/8/8/8/4P3/PPPPP1PP/RNBQKBNR", "two_pawns_on_a_file"),
    ("rnbqkbnr/pppppppp/8/8/4N3/8/PPPPPPPP/RNBQKB1R", "outside_home_zone"),
    ("rnbqkbnr/pppppppp/8/8/8/8/RNBQKBNR/PPPPPPPP", "pawn_on_wrong_rank"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1", "army_count"),
])
def test_invalid_arrays(board, code):
    assert battle.errors(board, WHITE) == [code]
    assert battle.errors(board, BLACK) == []


def test_valid_arrays_and_start_conflict():
    example = "r1bqk2r/1pp1bp1p/p1npp1pn/8/8/1PN1P1PB/P1PPQP1P/R1B1K1NR"
    fen = battle.start_fen(example, example)
    assert fen == example + " w - - 0 1" and chess.Board(fen).is_valid()
    clash = "rnbq1bnr/pppppppp/k7/8/8/R7/PPPPPPPP/1NBQKBNR"
    with pytest.raises(battle.SetupConflict):
        battle.start_fen(clash, clash)


def test_allowed_squares_follow_the_rules():
    placed = [("B", 2, 0)] + [("P", f, 1) for f in range(7)]
    assert all((f + r) & 1 != 0 for f, r in battle.allowed("B", WHITE, placed))
    assert {f for f, _ in battle.allowed("P", WHITE, placed)} == {7}
    assert {r for _, r in battle.allowed("K", BLACK, [])} == {5, 6, 7}
