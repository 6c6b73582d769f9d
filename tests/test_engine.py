"""The engine (host/engine): behaviour, not strength.  Mates, the President's capture, a
checkers chain, never an illegal move in any game, the hash kept right along random
games, the movetime kept, the `eboard bestmove` contract, and real UCI engines (skipped,
saying what to install, when absent).  Strength is bench/engine.py's."""

import random
import re
import subprocess
import sys

import pytest
from conftest import ROOT

from firmware.rules import GAMES, new_position
from firmware.rules.board import BLACK, WHITE
from firmware.rules.position import Position
from firmware.rules.search_hooks import TRAITS, legal_moves_from, pass_back, pass_turn, pseudo_moves_from, types_apart
from host.engine import LEVELS, Limits, best_move, choose, level, uci
from host.engine.captures import (FAST_GAMES, attacked, captures, captures_to, evasions, evasions_served, fast_moves,
                                  recaptures)
from host.engine.search import MATE, MATE_BOUND, Searcher
from host.engine.tables import Tracked

chess = pytest.importorskip("chess", reason="pip install chess")


def _random_position(gid, rng, plies):
    pos = new_position(gid)
    for _ in range(plies):
        ms = pos.legal_moves()
        if not ms:
            break
        pos.push(rng.choice(ms))
    return pos


# ---- the incremental hash --------------------------------------------------------------


@pytest.mark.parametrize("gid", GAMES)
def test_incremental_hash_and_score_match_a_full_count_along_random_games(gid):
    rng = random.Random(gid)
    for _ in range(2):
        t = Tracked(new_position(gid))
        for _ply in range(70):
            ms = t.pos.legal_moves()
            if not ms:
                break
            for m in rng.sample(ms, min(8, len(ms))):
                before = bytes(t.pos.cells), t.h, t.score, t.score_eg, t.hs
                t.push(m)
                assert (t.h, t.score) == t.full(), t.pos.fen()
                assert (t.score_eg, t.hs) == t.full_more(), t.pos.fen()  # chess's tapered terms
                t.pop()
                assert (bytes(t.pos.cells), t.h, t.score, t.score_eg, t.hs) == before
            t.push(rng.choice(ms))


def test_chess_pawn_structure_shelter_and_rook_files():
    """The structure term (White's, middle game and endgame) sees a passed pawn by its rank,
    a doubled and an isolated pawn, a king without its shield, and a rook on an open file."""
    from host.engine.evaluate import _chess_structure

    def terms(fen):
        return _chess_structure(new_position("chess", fen))

    base = "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1"
    assert terms(base) == (0, 0)
    passed6 = terms("6k1/5ppp/P7/8/8/8/5PPP/6K1 w - - 0 1")
    passed4 = terms("6k1/5ppp/8/8/P7/8/5PPP/6K1 w - - 0 1")
    assert passed6[1] > passed4[1] >= 0  # (isolated too: the same -15 for both)
    assert terms("6k1/5ppp/8/8/8/5P2/5PPP/6K1 w - - 0 1")[1] < 0  # doubled f-pawns
    assert terms("6k1/5ppp/8/8/8/8/6PP/6K1 w - - 0 1")[0] < 0  # the f-file open beside the king
    assert terms("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")[0] > 0  # a rook on the open a-file


def test_the_structure_key_decides_the_structure_term():
    """The structure term is cached by Tracked's structure key (pawns, rooks, and a king only
    on its first two ranks, where its shelter counts): along random games, kings walking
    too, two positions with one key have one structure term."""
    from host.engine.evaluate import _chess_structure

    seen: dict[int, tuple[int, int]] = {}
    king_moves = lambda p, m: p.cells[p.move_from(m)] & 31 == p.game.royal  # noqa: E731
    for pos, _ in _walk("chess", "structure key", 12, 160, king_moves, 0.4):
        key = Tracked(pos).hs
        assert seen.setdefault(key, _chess_structure(pos)) == _chess_structure(pos), pos.fen()
    assert len(seen) > 200


@pytest.mark.parametrize("gid", GAMES)
def test_the_quiescence_captures_are_the_pseudo_moves_that_take(gid):
    """captures(pos), generated alone, is the core's pseudo-moves that capture, in their
    order (Lippo's: the same moves, by its target sets), along random games (promotions,
    en passant, Lippo's bonus Soldier included); Lippo's fast_moves is all its pseudo-moves."""
    rng = random.Random("captures " + gid)
    seen = 0
    for _ in range(6):
        pos = new_position(gid)
        for _ in range(160):
            want = [m for m in pos.pseudo_moves() if pos.takes(m)]
            if gid in FAST_GAMES:
                assert sorted(captures(pos)) == sorted(want), pos.fen()
                assert sorted(fast_moves(pos)) == sorted(pos.pseudo_moves()), pos.fen()
            else:
                assert captures(pos) == want, pos.fen()
            seen += len(want)
            ms = pos.legal_moves()
            if not ms or pos.outcome() is not None:
                break
            caps = [m for m in ms if pos.takes(m)]
            pos.push(rng.choice(caps if caps and rng.random() < 0.3 else ms))
    assert seen > 20


@pytest.mark.parametrize("gid", FAST_GAMES)
def test_the_sets_attack_and_occupy_as_the_core_says(gid):
    """Where the moves are made by sets (Lippo): captures.attacked() is the core's
    attacked() on every square for both sides, captures_to() the captures landing on each
    square, the core's patt and end tests given it
    answer as with its own, and Tracked's occupied squares (by side and by piece) are the
    board's, along random games (pushed and popped back)."""
    rng = random.Random("sets " + gid)
    for _ in range(3):
        pos = new_position(gid)
        t = Tracked(pos)
        squares = pos.game.layout.squares

        def occupied():
            return ([{sq for sq in squares if pos.cells[sq] & side} for side in (WHITE, BLACK)],
                    [{sq for sq in squares if code and pos.cells[sq] == code} for code in range(128)])

        for _ in range(120):
            assert (t.occ, t.pieces) == occupied(), pos.fen()
            for sq in squares:
                for by in (WHITE, BLACK):
                    assert attacked(pos, sq, by, t.pieces) == pos.attacked(sq, by), (pos.fen(), sq, by)
            caps = captures(pos)
            for sq in squares:
                want = sorted(m for m in caps if pos.move_to(m) == sq)
                assert sorted(captures_to(pos, (sq,), t.pieces)) == want, (pos.fen(), sq)
            sets = lambda sq, by: attacked(pos, sq, by, t.pieces)  # noqa: E731
            for us in (WHITE, BLACK):
                p = pos.kings[us >> 6]
                if p:
                    them = us ^ (WHITE | BLACK)
                    assert pos._closed(p, us, them, sets) == pos._closed(p, us, them), pos.fen()
            reason = pos.end_reason(sets)
            pos._changed()
            assert reason == pos.end_reason(), pos.fen()
            ms = pos.legal_moves()
            if not ms:
                break
            caps = [m for m in ms if pos.takes(m)]
            t.push(rng.choice(caps if caps and rng.random() < 0.4 else ms))
        while t.saved:
            t.pop()
            assert (t.occ, t.pieces) == occupied(), pos.fen()


def _walk(gid, seed, games, plies, prefer, share):
    """(position, its legal moves) along `games` seeded random games of gid, each move one of
    those prefer(pos, m) picks with probability `share` (the position is used before it moves)."""
    rng = random.Random(seed)
    for _ in range(games):
        pos = new_position(gid)
        for _ in range(plies):
            ms = pos.legal_moves()
            if not ms or pos.outcome() is not None:
                break
            yield pos, ms
            some = [m for m in ms if prefer(pos, m)]
            pos.push(rng.choice(some if some and rng.random() < share else ms))


@pytest.mark.parametrize("gid", GAMES)
def test_the_evasions_of_a_check_are_the_cores_legal_moves(gid):
    """captures.evasions(pos), found from the checker's squares, is pos.legal_moves() in its
    order, in every position in check along random games (checks sought out) of the games
    it serves: chess and its kin."""
    if not evasions_served(new_position(gid)):
        assert gid not in ("chess", "courier", "gardner")
        return
    seen = 0
    for pos, ms in _walk(gid, "evasions " + gid, 40, 200, _gives_check, 0.5):
        if pos.is_check():
            assert evasions(pos) == ms, pos.fen()
            seen += 1
    assert seen > 200


@pytest.mark.parametrize("gid", GAMES)
def test_the_recaptures_on_a_square_are_the_captures_landing_there(gid):
    """captures.recaptures(pos, sq), found from the pieces attacking sq where the core's
    generator makes every piece's moves, is captures(pos) filtered to sq, in its order, on
    every square along random games (captures sought out)."""
    seen = 0
    for pos, _ in _walk(gid, "recaptures " + gid, 4, 120, lambda p, m: p.takes(m), 0.3):
        caps = captures(pos)
        for sq in pos.game.layout.squares:
            assert recaptures(pos, sq) == [m for m in caps if pos.move_to(m) == sq], (pos.fen(), sq)
        seen += len(caps)
    assert seen > 20


def _gives_check(pos, m):
    pos.push(m)
    try:
        return pos.is_check()
    finally:
        pos.pop()


def _bare_searcher(fen, off=frozenset()):
    """A Searcher of a chess position, to call its nodes directly (no clock)."""
    s = Searcher(new_position("chess", fen), off=off)
    s.path = []
    s.deadline = float("inf")
    return s


def test_a_node_whose_moves_searched_are_all_mated_prunes_no_quiet_move(monkeypatch):
    """Late-move pruning leaves out the quiet moves after the first few, but not while every
    move searched is mated: a pruned move may be the one that is not (a false mate score
    claimed mates that were not, and chose a move for them).  Black's first ten moves in
    the core's order allow Re8#; g6, g5, h6, h5 and Kg8 do not."""
    s = _bare_searcher("7k/pppp2pp/8/8/8/8/5PPP/n3R1K1 b - - 0 1")
    monkeypatch.setattr(s, "_staged", lambda moves, ply, tt_move: iter(moves))  # the core's order
    assert s._search(1, -300, -299, 1) > -MATE_BOUND


def test_a_capture_that_mates_is_not_pruned_as_a_bad_exchange():
    """The quiescence search leaves out a bigger piece taking a defended smaller one, but
    not where it checks (as its quiet checks): Qxb2 is mate, b2 defended by the king alone."""
    fen = "1Q6/8/8/4B3/8/8/1p6/k6K w - - 0 1"
    assert _bare_searcher(fen)._quiesce(-MATE, MATE, 1, None, 0) >= MATE_BOUND
    assert _bare_searcher(fen, frozenset({"qs-checks"}))._quiesce(-MATE, MATE, 1, None, 0) < MATE_BOUND


@pytest.mark.parametrize("fen", [
    "7k/6pp/3p3Q/8/2B5/8/5PPP/6K1 w - - 0 1",  # 1.Qe6, and Qe8# or Qg8#
    "7k/2p3pp/7p/8/2Q5/8/5PPP/6K1 w - - 0 1",  # 1.Qf7, and Qf8# or Qg8#
])
def test_a_quiet_mate_threat_is_searched_where_the_other_king_is_boxed_in(fen):
    """Futility pruning leaves out a quiet move that cannot lift the score to alpha, but not
    two plies from the horizon where the other king has no square to step to: the reply and
    the quiescence search's checks show a mate that the evaluation cannot.  A null-window
    node asked for 600 cp more than it has finds the mate in two; without it, fails low."""
    s = _bare_searcher(fen)
    alpha = s._eval(1) + 600
    assert s._boxed()
    assert s._search(2, alpha, alpha + 1, 1) >= MATE_BOUND
    s = _bare_searcher(fen, frozenset({"boxed"}))
    assert s._search(2, alpha, alpha + 1, 1) <= alpha


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_a_stalemate_is_a_draw_to_the_search(depth):
    """Black is stalemated by most of White's moves (the search's lazy legality must see
    that the king has no legal move and score it as the draw it is), mated by a few."""
    pos = new_position("chess", "k7/8/1Q6/8/8/8/8/7K w - - 0 1")
    r = best_move(pos, Limits(depth=depth))
    pos.push(r.move)
    o = pos.outcome()
    assert o is None or o.winner is not None, (r.move_str, o)
    assert r.score > 500


def test_lippo_soldiers_of_section_11_and_12_are_hashed():
    # White's last Soldier is taken: §11 puts Soldiers on f2 and g2 (the Fougasse's square
    # and an empty one); and the President's §12 bonus Soldier.
    t = Tracked(new_position("lippo", "6p5/12/12/12/12/12/12/12/12/1s10/S4F6/6P5 b - - 0 1"))
    t.push(t.pos.parse_move("b3a2"))
    assert t.pos.cells[t.pos.game.layout.cell("g2")] and (t.h, t.score) == t.full()
    t = Tracked(new_position("lippo", "p11/5P6/12/12/12/12/12/12/12/12/12/12 w - - 0 1"))
    bonus = [m for m in t.pos.legal_moves() if "," in t.pos.move_str(m)]
    assert bonus
    t.push(bonus[0])
    assert (t.h, t.score) == t.full()


# ---- what it finds ----------------------------------------------------------------------


def _mates_in_one_after_every_reply(fen, move_uci):
    board = chess.Board(fen)
    board.push_uci(move_uci)
    for reply in list(board.legal_moves):
        board.push(reply)
        if not any(board.gives_check(m) and _is_mate_after(board, m) for m in board.legal_moves):
            return False
        board.pop()
    return True


def _is_mate_after(board, m):
    board.push(m)
    mate = board.is_checkmate()
    board.pop()
    return mate


@pytest.mark.parametrize("fen", [
    "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1",  # Morphy: 1.Ra6 bxa6 2.b7#
    "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",  # 1.Nf6+ gxf6 2.Bxf7#
])
def test_finds_a_mate_in_two_in_chess(fen):
    reply = best_move(new_position("chess", fen), Limits(depth=4))
    assert reply.infos[-1].score >= MATE_BOUND
    assert _mates_in_one_after_every_reply(fen, reply.move_str)  # python-chess checks it


def test_takes_the_president_in_lippo():
    # The Fortress on a1 can take Black's President on a12, the Adjutant a Gas on f6
    # (14 points): the President is the game (lippo.md §8.3).
    pos = new_position("lippo", "p11/12/12/12/12/12/5g6/12/12/12/12/K4DP5 w - - 0 1")
    reply = best_move(pos, Limits(depth=2))
    assert reply.move_str == "a1a12"
    assert pos.move_to(reply.move) == pos.kings[1]


def test_lippo_president_runs_from_a_surrender():
    # Black's Fortress on m1 attacks White's President on a1 along the first rank...
    # whatever White plays must leave the President unattacked or take first.
    pos = new_position("lippo", "11p/12/12/12/12/12/12/12/12/12/12/P10k w - - 0 1")
    reply = best_move(pos, Limits(depth=2))
    pos.push(reply.move)
    assert not pos.attacked(pos.kings[0], pos.us)


def test_lippo_sees_a_surrender_at_its_horizon():
    # A position of a level game (random opening, then levels 5 and 3): 44 of White's 141
    # moves let Black attack the President so that no move ends the attack (4 a, surrender).
    # A 2-ply search meets the attack in its quiescence search, where an attacked President
    # is searched as a check is (every move, no standing pat), so it plays none of them.
    fen = "km3dpgahmk/eontaffl1noe/usssss1ssssu/6s5/6h5/6g5/12/12/8S1S1/USSSSSSS1S1U/EONTLFFLTNO1/KMHAGDPGAH1K w KQkq - 0 7"
    pos = new_position("lippo", fen)

    def lets_black_force_a_surrender(m):
        pos.push(m)
        try:
            for r in pos.legal_moves():
                pos.push(r)
                try:
                    if pos.end_reason() == "surrender":
                        return True
                finally:
                    pos.pop()
            return False
        finally:
            pos.pop()

    assert lets_black_force_a_surrender(pos.parse_move("e1f4"))  # the 2-ply move before
    reply = best_move(pos, Limits(depth=2))
    assert not lets_black_force_a_surrender(reply.move), reply.move_str


def test_checkers_takes_the_longer_chain():
    # c3 takes d4 and f6 (c3e5g7, a chain A22 makes it finish); l3 could take k4 only.
    pos = new_position("checkers12", "12/m11/12/12/12/12/5m6/12/3m5m2/2M7M1/12/12 w - - 0 1")
    moves = {pos.move_str(m) for m in pos.legal_moves()}
    assert "c3e5g7" in moves and "l3i5" in moves
    reply = best_move(pos, Limits(depth=3))
    assert reply.move_str == "c3e5g7"


# ---- never illegal, always in time --------------------------------------------------------


@pytest.mark.parametrize("gid", GAMES)
def test_never_an_illegal_move_from_random_positions(gid):
    rng = random.Random(13)
    for _ in range(3):
        pos = _random_position(gid, rng, rng.randrange(0, 40))
        legal = pos.legal_moves()
        if not legal:
            continue
        fen = pos.fen()
        reply = best_move(pos, Limits(depth=2, movetime_ms=400))
        assert pos.fen() == fen  # the caller's position is untouched
        assert reply.move in legal  # the core's own legal moves are the oracle
        assert pos.parse_move(reply.move_str) == reply.move


def test_keeps_to_its_movetime(monkeypatch):
    # Behaviour, not speed: a search asked for 300 ms stops once its clock says they have
    # gone.  The clock is the test's, a millisecond a look (the search looks every 16
    # nodes): the machine's load cannot move it (a wall-clock bound failed under load).
    from host.engine import search

    looks = [0]

    def clock():
        looks[0] += 1
        return looks[0] / 1000

    monkeypatch.setattr(search, "CLOCK", clock)
    for gid in ("chess", "lippo"):
        looks[0] = 0
        reply = best_move(new_position(gid), Limits(movetime_ms=300))
        assert reply.move in new_position(gid).legal_moves()
        assert 300 <= looks[0] <= 310, (gid, looks[0])  # ran to its time, and no further


@pytest.mark.parametrize("gid", GAMES)
def test_the_search_hooks_give_the_cores_own_moves(gid):
    """firmware/rules/search_hooks, the core's side of the search: every game has its
    traits; the pseudo-moves from every square are pseudo_moves() in its order (where the
    game makes them a piece at a time), those to one square the same filtered; the legal
    moves from every square legal_moves(); a pass undone leaves the position as it was."""
    assert gid in TRAITS
    rng = random.Random("hooks " + gid)
    for plies in (0, 12, 30):
        pos = _random_position(gid, rng, plies)
        squares = pos.game.layout.squares
        fen = pos.fen()
        if types_apart(pos) is not None:
            ms = pseudo_moves_from(pos, squares, [])
            assert ms == pos.pseudo_moves(), fen
            for sq in squares[::7]:
                assert pseudo_moves_from(pos, squares, [], (sq,)) == [m for m in ms if m >> 9 & 511 == sq], fen
        if pos.game.check_rules and type(pos).legal_moves is Position.legal_moves:
            assert legal_moves_from(pos, squares, []) == pos.legal_moves(), fen
        us = pos.us
        done = pass_turn(pos)
        assert pos.us != us and pos.ep == 0
        pass_back(pos, done)
        assert pos.fen() == fen


def test_a_null_move_asks_lippos_end_afresh_for_the_side_it_hands_the_move(monkeypatch):
    # The core caches Lippo's end (surrender, patt) for the side to move; a null move
    # hands the move to the other side without a push: its node must not read the cache
    # of the side that passed, and the cache is that side's again after.
    from host.engine import search

    inner = search.Searcher._search
    null = search.Searcher._null_search
    seen = []

    def spy_null(self, depth, beta, ply, key):
        self.pos.end_reason()  # known for the side that passes (the search's own may not have asked it yet)
        before = self.pos._end
        self.in_null = True
        try:
            return null(self, depth, beta, ply, key)
        finally:
            assert self.pos._end == before
            seen.append(before)

    def spy_search(self, depth, alpha, beta, ply, *rest):
        if getattr(self, "in_null", False):
            self.in_null = False
            assert self.pos._end == 0, self.pos._end
        return inner(self, depth, alpha, beta, ply, *rest)

    monkeypatch.setattr(search.Searcher, "_null_search", spy_null)
    monkeypatch.setattr(search.Searcher, "_search", spy_search)
    rng = random.Random("null lippo")
    for _ in range(3):
        best_move(_random_position("lippo", rng, rng.randrange(4, 30)), Limits(depth=4))
    assert seen and all(x is None for x in seen)  # null moves made, where the game went on


def test_the_move_chosen_begins_the_last_info_pv_even_when_time_runs_out_mid_depth():
    # Short movetimes end inside an iteration: a better move found there is chosen, and said.
    for seed in range(10):
        pos = _random_position("lippo", random.Random(seed), 10)
        if not pos.legal_moves():
            continue
        for ms in (30, 80):
            reply = choose(pos, Limits(movetime_ms=ms))
            # (no info at all only when not one root move was searched in time, under load)
            assert not reply.infos or reply.infos[-1].pv[0] == reply.move_str, (seed, ms)


def test_a_clock_gives_a_share_of_the_time_left():
    hard, soft = Limits(white_ms=60_000, black_ms=1_000, white_inc_ms=2_000).budget(True)
    assert (hard, soft) == (1.5 + 1.5, 1.5)  # a 40th and 3/4 of the increment; no new iteration past half
    hard, soft = Limits(white_ms=60_000, black_ms=300).budget(False)
    assert hard <= 0.1


def test_the_engine_under_a_clock_spends_its_share_counted_from_the_clock():
    """Issue #34 item 4: UCI `go wtime 60000 winc 1000` took 5.6 s for the first move and
    XBoard `level 40 5 0` 18 s (its share is 7.5 s).  Counted, never timed: the limits each
    front computes from the clock, and what the search may spend on them (its hard stop)."""
    from host.apps.cecp import CecpFront
    from host.apps.uci import UciFront

    uci = UciFront(None, lambda line: None)
    limits, _, _ = uci._limits("wtime 60000 btime 60000 winc 1000 binc 1000".split())
    hard, soft = limits.budget(True)
    assert hard == pytest.approx(60 / 40 + 0.75) and soft == pytest.approx(hard / 2)
    cecp = CecpFront(None, lambda line: None)
    cecp.cmd_level(["40", "5", "0"])
    cecp.cmd_time(["30000"])
    cecp.cmd_otim(["30000"])
    hard, soft = cecp._limits().budget(True)
    assert hard == pytest.approx(7.5) and soft == pytest.approx(3.75)  # 300 s for 40 moves
    hard, _ = Limits(white_ms=10_000, black_ms=10_000, moves_to_go=1).budget(True)
    assert hard == pytest.approx(10 / 3)  # a third at most, the period's last move too
    hard, _ = Limits(white_ms=2_000, black_ms=2_000, white_inc_ms=3_000).budget(True)
    assert hard == pytest.approx(2 / 3)  # the increment is not spent before it is added


def test_levels_err_on_purpose_and_only_at_the_low_end():
    assert [lv.number for lv in LEVELS] == list(range(1, 9))
    assert LEVELS[0].error_rate > LEVELS[3].error_rate > LEVELS[4].error_rate == 0
    with pytest.raises(ValueError, match="levels run from 1"):
        level(9)
    pos = new_position("chess")
    best = best_move(pos, Limits(depth=1)).move
    rng = random.Random(1)
    moves = {best_move(pos, Limits(depth=1), level(1), rng).move for _ in range(12)}
    assert best in moves and len(moves) > 1 and moves <= set(pos.legal_moves())


# ---- eboard bestmove --------------------------------------------------------------------

INFO = re.compile(r"^info depth \d+ score (cp -?\d+|mate -?\d+) nodes \d+ time \d+ nps \d+( pv .*)?$")


def _bestmove(*args):
    return subprocess.run([sys.executable, "-m", "host.commands.cli", "bestmove", *args],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("gid", ["lippo", "checkers12", "grosschess"])
def test_bestmove_prints_one_legal_move_then_info_lines_on_stderr(gid):
    r = _bestmove(gid, "--depth", "2")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 1
    pos = new_position(gid)
    assert lines[0] in {pos.move_str(m) for m in pos.legal_moves()}
    info = r.stderr.splitlines()
    assert info and all(INFO.match(line) for line in info), r.stderr
    assert [int(line.split()[2]) for line in info] == [1, 2]


@pytest.mark.parametrize("args, words", [
    (["chss"], "unknown game"),
    (["chess", "--fen", "8/8 w - -"], "bad FEN"),
    (["chess", "--depth", "0"], "bad depth"),
    (["chess", "--movetime", "soon"], "bad movetime"),
    (["chess", "--depth", "3", "--movetime", "100"], "not both"),
    (["chess", "--level", "12"], "levels run from 1"),
    (["chess", "--engine", "gnuchess"], "unknown engine"),
    (["chess", "--engine", "uci:/no/such/engine"], "no engine at"),
    (["chess", "--fen", "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1"], "game is over"),
])
def test_bestmove_refuses_bad_input_in_one_line(args, words):
    r = _bestmove(*args)
    assert r.returncode != 0 and r.stdout == ""
    assert len(r.stderr.splitlines()) == 1 and words in r.stderr, r.stderr


def test_an_internal_error_is_one_line_not_a_traceback(monkeypatch, capsys):
    # Issue #22's crash reached the user as a traceback; a bug is now said in one line.
    from host import engine
    from host.commands import cli

    def broken(*args, **kwargs):
        raise ValueError("byte must be in range(0, 256)")

    monkeypatch.setattr(engine, "choose", broken)
    assert cli.main(["bestmove", "chess", "--depth", "1"]) == 70
    err = capsys.readouterr().err
    assert err.splitlines() == ["eboard: internal error (a bug; --debug shows where): ValueError: byte must be in range(0, 256)"]
    with pytest.raises(ValueError):
        cli.main(["--debug", "bestmove", "chess", "--depth", "1"])


def test_bestmove_falls_back_to_ours_and_says_so():
    r = _bestmove("lippo", "--depth", "1", "--engine", "uci")
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 1
    assert "no UCI engine plays lippo; our engine plays instead" in r.stderr


# ---- UCI engines ------------------------------------------------------------------------

STOCKFISH = uci.find("chess")
FAIRY = uci.find("courier")
need_stockfish = pytest.mark.skipif(STOCKFISH is None, reason="need stockfish: " + uci.INSTALL)
need_fairy = pytest.mark.skipif(FAIRY is None, reason="need fairy-stockfish: " + uci.INSTALL)


def test_courier_files_cross_to_fairy_stockfish_and_back():
    pyffish = pytest.importorskip("pyffish", reason="pip install pyffish")
    from firmware.rules.games import courier

    pos = courier.CourierPosition(courier.build("courier-hist", "wazir", False), courier.AFTER_OPENING)
    ours = sorted(uci.to_engine("courier", pos.move_str(m)) for m in pos.legal_moves())
    assert ours == sorted(pyffish.legal_moves("courier", uci.fen_for_engine(pos), []))
    assert uci.from_engine("courier", "j2j4") == "k2k4" and uci.from_engine("courier", "l7l8f") == "m7m8f"


@need_stockfish
def test_stockfish_plays_chess_through_chess_engine():
    pos = new_position("chess", "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1")
    reply = choose(pos, Limits(depth=8), "uci")
    assert reply.engine.lower().startswith(("stockfish", "fairy")) and not reply.note
    assert reply.move in pos.legal_moves() and reply.infos and reply.infos[-1].score >= MATE_BOUND


@need_fairy
@pytest.mark.parametrize("gid, fen", [
    ("courier", "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR b - - 0 1"),
    ("gardner", None),
])
def test_fairy_stockfish_plays_courier_and_gardner(gid, fen):
    pos = new_position(gid, fen)
    reply = choose(pos, Limits(movetime_ms=100), "uci:" + FAIRY, level(3))
    assert not reply.note and reply.engine.startswith("Fairy-Stockfish")
    assert reply.move in pos.legal_moves()


FAKE_ENGINE = """\
import sys
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name Liar 1.0", "uciok", sep="\\n", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        print("info depth 1 score cp 0 pv a1a1", "bestmove a1a1", sep="\\n", flush=True)
    elif word == "quit":
        break
"""


def test_a_refused_engine_move_is_said_in_words(tmp_path):
    # Issue #22: an engine's illegal move was replaced by ours with no word of it.
    liar = tmp_path / "liar"
    liar.write_text("#!%s\n%s" % (sys.executable, FAKE_ENGINE))
    liar.chmod(0o755)
    pos = new_position("chess")
    with pytest.raises(uci.Refused, match=r"Liar 1.0's move a1a1 is refused: not a legal move of chess"):
        uci.play(pos, Limits(depth=1), "uci:" + str(liar))
    reply = choose(pos, Limits(depth=1), "uci:" + str(liar))
    assert reply.engine == "ours" and reply.move in pos.legal_moves()
    assert "a1a1 is refused" in reply.note and reply.note.endswith("our engine plays instead")
    r = _bestmove("chess", "--depth", "1", "--engine", "uci:" + str(liar))
    assert r.returncode == 0 and "Liar 1.0's move a1a1 is refused" in r.stderr and "Traceback" not in r.stderr


@need_fairy
def test_fairy_stockfish_without_the_boards_rules_is_not_used(monkeypatch):
    # Its built-in courier has no double step: 27 moves where ours has 36 (26 with its own
    # wazir Schleich; this FEN gives it a Mann there).
    monkeypatch.setitem(uci.VARIANT, "courier", "courier")
    with pytest.raises(uci.Unavailable, match="does not play the board's courier: 27 legal moves"):
        uci.Session("courier", "uci:" + FAIRY)


@need_fairy
@pytest.mark.parametrize("gid", ["courier", "gardner"])
def test_fairy_stockfish_keeps_to_the_boards_rules_in_a_game(gid):
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from engine import fairy_opponent, play_game
    finally:
        sys.path.pop(0)
    session, fsf, asked, refused = fairy_opponent(gid, 20)
    try:
        play_game(gid, True, fsf, 20, 60, random.Random(4))
    finally:
        session.close()
    assert len(asked) >= 5 and refused == []


@need_stockfish
def test_bestmove_with_a_uci_engine_on_the_command_line():
    r = _bestmove("chess", "--movetime", "100", "--engine", "uci:" + STOCKFISH)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() in {new_position("chess").move_str(m) for m in new_position("chess").legal_moves()}
    assert any(INFO.match(line) for line in r.stderr.splitlines())


def test_the_games_earlier_positions_count_for_repetitions():
    from host.engine import earlier_keys

    pos = new_position("chess")
    start = Tracked(new_position("chess")).key()
    for mv in ("g1f3", "g8f6", "f3g1", "f6g8"):
        pos.push_str(mv)
    fen = pos.fen()
    keys = earlier_keys(pos)
    assert pos.fen() == fen and len(pos.stack) == 4  # taken back and replayed
    assert len(keys) == 4 and keys[0] == start == Tracked(pos).key()
    assert earlier_keys(new_position("lippo")) == []  # no draw by repetition there


def test_strength_bench_without_the_test_positions_says_where_they_are(tmp_path):
    env = {k: v for k, v in __import__("os").environ.items() if k != "EBOARD_POSITIONS"}
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "strength.py"), "--positions", str(tmp_path), "--mates"],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert "give --positions DIR" in r.stderr and "mate3.fen" in r.stderr


def test_the_strength_bench_proves_a_mate_stockfish_calls_longer():
    """bench/strength.py's exact mate search: after 1.g8=Q Black is mated in 2 whatever it
    plays (Kd5-e5 2.Kd3 Kf4 3.Qg3#; Stockfish at depth 16 had said 3), not after 1.Nc4."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("strength_bench", ROOT / "bench" / "strength.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    board = chess.Board("8/3P2P1/3N4/3k4/4N3/4K3/8/8 w - - 0 1")
    board.push_uci("g7g8q")
    assert bench.mated_within(board, 2) and not bench.mated_within(board, 1)
    board.pop()
    board.push_uci("d6c4")
    assert not bench.mated_within(board, 2)
    assert board.fen() == "8/3P2P1/8/3k4/2N1N3/4K3/8/8 b - - 1 1"  # left as it was found
