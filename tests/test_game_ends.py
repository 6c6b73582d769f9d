"""Random games taken to their end in every game (issue #22): at every ply the core's end
(reason, result, points) is compared with an oracle that shares no code with it:
python-chess for chess, pyffish given the board's rules (host/engine/variants.ini) for
gardner and courier, and for the others a judge written here from the spec on the specs'
own move generators (lippo_check.py for Lippo and checkers; the naive generators of
test_hundred, test_grosschess and test_chess_t1).

The games are random with a push towards their ends: captures are preferred one time in
three, and one time in four a side takes its last move back when it can, so positions
repeat.  Half the games claim what may be claimed (the 50-move rule, threefold
repetition), half wait for what ends a game by itself."""

import random

import pytest
from conftest import tuple_board
from lippo_util import CODE, spec_checker

from firmware.rules import new_position
from firmware.rules.board import BLACK, WHITE

chess = pytest.importorskip("chess", reason="pip install chess")
pyffish = pytest.importorskip("pyffish", reason="pip install pyffish")
uci = pytest.importorskip("host.engine.uci", reason="pip install chess")
pyffish.load_variant_config(uci.VARIANTS_INI.read_text())

LC = spec_checker()
GREEDY = set()  # FENs (beside the start positions) whose games seek captures
RESULT = {WHITE: "1-0", BLACK: "0-1", None: "1/2-1/2"}


def pick(pos, ms, rng, back=True, greedy=True):
    """A random move, pushed towards the game's end (captures if greedy; moves taken back
    if back)."""
    r = rng.random()
    if greedy and r < 0.33:
        caps = [m for m in ms if pos.takes(m)]
        if caps:
            return rng.choice(caps)
    elif back and r < 0.58 and len(pos.stack) >= 2:
        back = [m for m in ms if pos.move_str(m) == _reverse(pos)]
        if back:
            return back[0]
    return rng.choice(ms)


def _reverse(pos):
    # The string of the move that takes the mover's previous move back, were it a plain one.
    m = pos.pop()
    other = pos.pop()
    text = pos.move_str(other)
    pos.push(other)
    pos.push(m)
    lay = pos.game.layout
    sqs, rest = lay.parse_squares(text)
    return lay.name(sqs[1]) + lay.name(sqs[0]) if len(sqs) == 2 and not rest else ""


def play(gid, seed, judge, plies=700, fens=(None,)):
    """One random game of gid to its end, from one of fens; judge(pos, claim, history) ->
    (reason, result, points) or None is asked at every ply.  Odd seeds claim; every other
    pair of seeds takes moves back; from a FEN not in GREEDY, captures are not sought.
    Returns the end's reason."""
    rng = random.Random(seed)
    claim = seed % 2 == 1
    back = seed // 2 % 2 == 0
    fen = fens[seed % len(fens)]
    pos = new_position(gid, fen)
    history = []  # the moves from the start, as strings
    for _ in range(plies):
        ours = pos.outcome(claim) if gid != "lippo" else pos.outcome()
        want = judge(pos, claim, history)
        got = None if ours is None else (ours.reason, RESULT[ours.winner], ours.points)
        assert got == want, (gid, pos.fen(), history[-6:])
        if ours is not None:
            return ours.reason
        m = pick(pos, pos.legal_moves(), rng, back, fen is None or fen in GREEDY)
        history.append(pos.move_str(m))
        pos.push(m)
    return "cut"


def run(gid, games, judge, **kw):
    ends = {}
    for seed in range(games):
        reason = play(gid, seed, judge, **kw)
        ends[reason] = ends.get(reason, 0) + 1
    return ends


# ---- chess: python-chess ----------------------------------------------------------------------


def chess_judge(pos, claim, history, boards=[]):  # noqa: B006 (the game's board, kept between plies)
    if not history:
        boards[:] = [chess.Board(pos.fen())]
    else:
        boards[0].push_uci(history[-1])
    board = boards[0]
    o = board.outcome()
    if o is not None and o.termination == chess.Termination.INSUFFICIENT_MATERIAL and board.is_stalemate():
        return ("stalemate", "1/2-1/2", None)  # both end the game at once: ours names the stalemate
    if o is None and claim:
        if board.is_fifty_moves():
            return ("fifty-moves", "1/2-1/2", None)
        if board.is_repetition(3):
            return ("threefold-repetition", "1/2-1/2", None)
    return None if o is None else (o.termination.name.lower().replace("_", "-"), o.result(), None)


def test_chess_games_end_as_python_chess_says():
    ends = run("chess", 48, chess_judge, plies=400, fens=(None, None) + ENDGAMES)
    assert {"checkmate", "stalemate", "insufficient-material", "seventyfive-moves", "fifty-moves",
            "threefold-repetition", "fivefold-repetition"} <= set(ends), ends


ENDGAMES = ("4k3/8/8/8/8/8/8/R3K3 w - - 0 40", "4k3/8/8/8/8/8/8/R3K2R w - - 0 40")  # seldom mated: long games


# ---- gardner and courier: pyffish on the board's rules -------------------------------------------


def ffish_judge(variant, automatic):
    """pyffish's end of the position, named as the core names ends: its own mates,
    stalemates, insufficient material, n-move and n-fold rules (checked against counts
    made here from its FENs).  automatic: courier.md §6 (every draw by itself, bare kings
    only); else minichess.md §3: chess's (75 moves and fivefold by themselves, 50 moves
    and threefold by claim, FIDE's dead positions)."""
    fens = []

    def judge(pos, claim, history):
        gid = pos.game.id
        if not history:
            del fens[:]
            fens.append(uci.fen_for_engine(pos))  # the game's start, as given
        else:
            fens.append(pyffish.get_fen(variant, fens[-1], [uci.to_engine(gid, history[-1])]))
        fen = fens[-1]
        fields = fen.split()
        halfmove = int(fields[4])
        reps = sum(1 for f in fens if f.split()[:4] == fields[:4])
        us = pos.us
        if not pyffish.legal_moves(variant, fen, []):
            value = pyffish.game_result(variant, fen, [])
            winner = None if value == 0 else (us if value > 0 else us ^ (WHITE | BLACK))
            return ("checkmate" if pyffish.gives_check(variant, fen, []) else "stalemate", RESULT[winner], None)
        if halfmove >= 99 or reps >= 2:  # (a pyffish call costs milliseconds: near the rules only)
            anchor = len(fens) - 1 - halfmove  # the last capture or pawn move: what repeats lies after it
            moves = [uci.to_engine(gid, t) for t in history[anchor:]]
            optional, value = pyffish.is_optional_game_end(variant, fens[anchor], moves)
            assert optional == (halfmove >= 100 or reps >= 3) and value == 0, (fen, reps)
        # FIDE's dead positions and bare kings have no pawn, rook, queen or mann
        insufficient = not any(c in "pPrRqQmM" for c in fields[0]) and pyffish.has_insufficient_material(
            variant, fen, []) == (True, True)
        draw = "1/2-1/2"
        if automatic:
            if sum(1 for c in fields[0] if c.isalpha()) == 2:
                assert pyffish.has_insufficient_material(variant, fen, []) == (True, True)
                return ("insufficient-material", draw, None)
            if halfmove >= 100:
                return ("fifty-moves", draw, None)
            return ("threefold-repetition", draw, None) if reps >= 3 else None
        if insufficient:
            return ("insufficient-material", draw, None)
        return fide_draw(halfmove, reps, claim)

    return judge


def fide_draw(halfmove, reps, claim):
    """FIDE's draws by the counts: 75 moves and fivefold by themselves, 50 moves and
    threefold by claim; None if none."""
    reason = None
    if halfmove >= 150:
        reason = "seventyfive-moves"
    elif reps >= 5:
        reason = "fivefold-repetition"
    elif claim and halfmove >= 100:
        reason = "fifty-moves"
    elif claim and reps >= 3:
        reason = "threefold-repetition"
    return reason and (reason, "1/2-1/2", None)


def test_gardner_games_end_as_fairy_stockfish_says():
    ends = run("gardner", 16, ffish_judge("eboard-gardner", False))
    assert {"checkmate", "stalemate", "insufficient-material"} <= set(ends), ends


COURIER_ENDINGS = (
    "5k6/12/12/4m7/12/7M4/12/5K6 w - - 0 40",  # Mann against Mann: bare kings, or a lost Mann
    "k11/7R4/1K10/12/12/12/12/12 w - - 0 40",  # the rook mates, or stalemates (which wins)
)
GREEDY.add(COURIER_ENDINGS[0])


def test_courier_games_end_as_fairy_stockfish_says():
    ends = run("courier", 10, ffish_judge("eboard-courier", True), plies=200, fens=COURIER_ENDINGS)
    assert {"checkmate", "insufficient-material", "threefold-repetition", "fifty-moves"} <= set(ends), ends


# ---- the others: a judge from the spec, on the spec's own generators ------------------------------


def spec_board(pos, code_of):
    """{square name: colour + the spec's code} of a position (square names of its layout)."""
    lay = pos.game.layout
    out = {}
    for sq in lay.squares:
        c = pos.cells[sq]
        if c:
            out[lay.name(sq)] = ("w" if c & WHITE else "b") + code_of(pos.game.letter[c & 31])
    return out


def checkers_judge(pos, claim, history):
    # lippo.md §10: a side with no move (the spec's own generator) loses.
    board = spec_board(pos, str.lower)
    side = "w" if pos.us == WHITE else "b"
    for frm, code in board.items():
        if code[0] == side and (LC.ck_capture_sequences(board, frm) or LC.ck_simple_moves(board, frm)):
            return None
    return ("no-moves", RESULT[pos.us ^ (WHITE | BLACK)], None)


def test_checkers_games_end_as_the_spec_generator_says():
    ends = run("checkers12", 6, checkers_judge, plies=400)
    assert ends.get("no-moves", 0) >= 5, ends


def lippo_attacks(board, by):
    """The squares side `by` attacks (lippo.md §8.3: where a piece of it could capture were an
    enemy there), by lippo_check.py's generator; and its pieces' squares, which need asking
    one by one (a piece does not capture its own side)."""
    out = set()
    for frm, code in board.items():
        if code[0] != by:
            continue
        x, y = LC.xy(frm)
        if code[1:] == "S":  # a Soldier takes diagonally forward only
            steps = [(-1, 1), (1, 1)] if by == "w" else [(-1, -1), (1, -1)]
        elif code[1:] == "F":  # a Fougasse takes its neighbours in place
            steps = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
        else:
            out |= {to for to, _ in LC.gen_moves(board, frm)}
            continue
        out |= {LC.sq(x + dx, y + dy) for dx, dy in steps if LC.on_board(x + dx, y + dy)}
    return out


def lippo_attacked(board, s, by):
    if board.get(s, " ")[0] == by:  # one of its own: an enemy stands in for it
        board = dict(board)
        board[s] = ("b" if by == "w" else "w") + "S"
    return s in lippo_attacks(board, by)


def lippo_judge(pos, claim, history):
    # lippo.md §8.3 and §8.4 (A15-A17), with lippo_check.py's generator and points table.
    board = spec_board(pos, CODE.get)
    side = "w" if pos.us == WHITE else "b"
    other = "b" if side == "w" else "w"
    points = {c: sum(LC.PIECES[code[1:]][2] for code in board.values() if code[0] == c) for c in "wb"}
    presidents = {code[0]: s for s, code in board.items() if code[1:] == "P"}
    fields = pos.fen().split()
    reason = None
    if len(presidents) < 2:
        reason = "president-captured"
    elif len(fields) > 8 and fields[8] == "0":
        reason = "claim"  # §14/§15: the plies the claim left have run out
    elif lippo_attacked(board, presidents[side], other):
        reason = "surrender"  # unless a move ends the attack or takes their President (4 а)
        for m in pos.legal_moves():
            if pos.move_str(m)[-len(presidents[other]):] == presidents[other] and pos.takes(m):
                reason = None
                break
            pos.push(m)
            after = spec_board(pos, CODE.get)
            pos.pop()
            mine = next(s for s, code in after.items() if code == side + "P")
            if not lippo_attacked(after, mine, other):
                reason = None
                break
        if reason:
            points[side] -= LC.PIECES["P"][2]  # the surrendered President counts as lost
    else:
        alone = dict(board)
        del alone[presidents[side]]  # 4 б: attacks as if the President had left its square
        x, y = LC.xy(presidents[side])
        hits = lippo_attacks(alone, other)
        closed = all(
            LC.sq(x + dx, y + dy) in hits if board.get(LC.sq(x + dx, y + dy), " ")[0] != other
            else lippo_attacked(alone, LC.sq(x + dx, y + dy), other)
            for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx or dy) and LC.on_board(x + dx, y + dy))
        if closed:
            reason = "patt"
        elif not pos.legal_moves():
            reason = "no-moves"
    if reason is None:
        return None
    w, b = points["w"], points["b"]
    return (reason, "1-0" if w > b else "0-1" if b > w else "1/2-1/2", (w, b))


def test_lippo_games_end_as_the_spec_says():
    declared = new_position("lippo").fen() + " - - 40"  # §15: a declared end, 40 plies to go
    ends = run("lippo", 8, lippo_judge, plies=400, fens=(None, None, None, declared))
    assert {"president-captured", "surrender", "patt", "claim"} <= set(ends), ends


def hundred_judge(cls):
    """hundred.md §6.6 (Grosschess: the same): checkmate wins, stalemate draws (the naive
    generator of test_hundred / test_grosschess), bare Kings that have both had their
    throne visit draw, the 75-move and fivefold rules by themselves, the 50-move rule and
    threefold repetition by claim.  A position is the FEN's board, side, castling, en
    passant, flags and moved units; it repeats anywhere in the game, as in FIDE's rule."""
    keys = []

    def judge(pos, claim, history):
        from test_hundred import naive_of

        fields = pos.fen().split() + ["-", "-"]
        if not history:
            del keys[:]
        key = tuple(fields[:4] + fields[6:8])
        keys.append(key)
        naive = naive_of(pos, cls)
        draw = "1/2-1/2"
        if not naive.moves():
            king = next(s for s, v in naive.b.items() if v == (naive.side, "K"))
            if naive.attacked(king, "b" if naive.side == "w" else "w", naive.b):
                return ("checkmate", "0-1" if naive.side == "w" else "1-0", None)
            return ("stalemate", draw, None)
        if "T" in fields[6] and "t" in fields[6] and all(k == "K" for _, k in naive.b.values()):
            return ("insufficient-material", draw, None)
        return fide_draw(int(fields[4]), keys.count(key), claim)

    return judge


def test_hundred_games_end_as_the_spec_says():
    from test_hundred import Naive

    ends = run("hundred", 8, hundred_judge(Naive), plies=300, fens=HUNDRED_ENDINGS)
    assert {"checkmate", "stalemate", "threefold-repetition", "fivefold-repetition"} <= set(ends), ends


HUNDRED_ENDINGS = (
    "k9/7R2/1K8/10/10/10/10/10/10/10 w - - 0 40",  # the rook mates, or stalemates
    "k9/10/4p5/10/10/10/10/4P5/10/K9 w - - 0 1",  # kings' pawns step back and forth (§6.6)
)


def test_grosschess_games_end_as_the_spec_says():
    from test_grosschess import NaiveGross

    ends = run("grosschess", 3, hundred_judge(NaiveGross), plies=200, fens=(None,) + HUNDRED_ENDINGS)
    assert sum(ends.values()) == 3, ends


def t1_judge(pos, claim, history, keys=[]):  # noqa: B006 (the game's positions, kept between plies)
    # chess-t1.md R10: a taken King, a held enemy castle (R10.2), a side with no move loses
    # (R10.3, test_chess_t1's naive generator); claims: 40 moves, threefold (board, side and
    # the Prince promotions used, anywhere in the game).
    from test_chess_t1 import ROYALS, castle_owner, naive_moves

    fields = pos.fen().split() + ["-"]
    if not history:
        del keys[:]
    key = (fields[0], fields[1], fields[6])
    keys.append(key)
    board = tuple_board(pos)
    kings = {s for s, k in board.values() if k == "K"}
    if len(kings) < 2:
        return ("king-captured", "1-0" if "w" in kings else "0-1", None)
    for side in "wb":
        enemy = "b" if side == "w" else "w"
        inside = [v for s, v in board.items() if castle_owner(*s) == enemy and v[1] in ROYALS]
        if inside and all(s == side for s, _ in inside):
            return ("castle-captured", "1-0" if side == "w" else "0-1", None)
    used = {"w": "P" in fields[6], "b": "p" in fields[6]}
    if not naive_moves(board, fields[1], used):
        return ("blockade", "0-1" if fields[1] == "w" else "1-0", None)
    if claim and int(fields[4]) >= 80:
        return ("forty-moves", "1/2-1/2", None)
    if claim and keys.count(key) >= 3:
        return ("threefold-repetition", "1/2-1/2", None)
    return None


def test_chess_t1_games_end_as_the_spec_says():
    ends = run("chess-t1", 16, t1_judge, plies=400)
    assert {"king-captured", "castle-captured", "threefold-repetition"} <= set(ends), ends
