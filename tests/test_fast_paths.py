"""The rules core's shortcuts give the answers of the long way round.

A check test may move a piece in the cells alone instead of making the move
(Position.LIGHT_KINDS: chess and its kin, 100-square chess, Grosschess), and 100-square
chess and Grosschess take a move far from the own King as legal when the King is safe
(hundred.far).  Every legal move list along random games is compared with the
one the full make-test-unmake gives, and each lifted piece's moves with their share."""

import random

import pytest

from firmware.rules import MoveError, new_position
from firmware.rules.position import CASTLE
from firmware.rules.games import hundred


def _slow_legal(pos):
    # The same generator with the shortcuts switched off: every move made and tested.
    pos.FAR_KINDS = 0
    pos.LIGHT_KINDS = 0
    try:
        return pos.legal_moves()
    finally:
        del pos.FAR_KINDS
        del pos.LIGHT_KINDS


@pytest.mark.parametrize("gid,games", [("hundred", 6), ("grosschess", 6), ("chess", 10), ("courier", 4)])
def test_shortcuts_agree_with_making_every_move(gid, games):
    rnd = random.Random(12)
    positions = 0
    checks = 0
    for _ in range(games):
        pos = new_position(gid)
        for _ in range(70):
            fast = pos.legal_moves()
            assert sorted(fast) == sorted(_slow_legal(pos)), pos.fen()
            positions += 1
            checks += pos.is_check()
            # Lifted pieces ask for one unit's moves: the same answer.
            for sq in pos.game.layout.squares[::7]:
                if pos.cells[sq] & pos.us:
                    assert sorted(pos.moves_from(sq)) == sorted(m for m in fast if m & 511 == sq)
            if not fast:
                break
            pos.push(rnd.choice(fast))
    assert positions > 150 and checks > 0  # positions in check were among them


@pytest.mark.parametrize("gid", ["chess", "courier", "gardner"])
def test_a_check_is_answered_by_the_moves_that_making_every_move_finds(gid):
    """Position._check_state: a side in check tries only the plain moves to the checker's
    square or between it and the king (none in a double check); the same list as making
    and testing every move, along random games that give check whenever they can."""
    rnd = random.Random("checks " + gid)
    checked = doubles = 0
    for _ in range(12):
        pos = new_position(gid)
        for _ in range(90):
            fast = pos.legal_moves()
            if pos.is_check():
                checked += 1
                k = pos.kings[pos.us >> 6]
                doubles += len(pos.attackers(k, pos.us ^ 96)) > 1
                assert sorted(fast) == sorted(_slow_legal(pos)), pos.fen()
            if not fast:
                break
            checks = []
            for m in fast:
                pos.push(m)
                if pos.is_check():
                    checks.append(m)
                pos.pop()
            pos.push(rnd.choice(checks if checks and rnd.random() < 0.7 else fast))
    assert checked > 60 and (doubles > 0 or gid != "chess"), (checked, doubles)  # chess: double checks too


def test_far_moves_are_really_taken_without_a_test():
    pos = new_position("grosschess", "rnbzkqgbnr/popsvimpop/1p1pppp1p1/10/10/10/10/1P1PPPP1P1/POPSVIMPOP/RNBZKQGBNR w KQkq - 0 1")
    k = pos.kings[0]
    far = [m for m in pos.legal_moves() if pos.FAR_KINDS >> (m >> 19 & 15) & 1 and m & 511 != k and hundred.far(pos.cells, m, k, 0)]
    assert len(far) >= 6  # the a-, b-, h-, i- and k-side pawns' steps


@pytest.mark.parametrize("gid", ["chess", "lippo", "checkers12", "courier", "gardner", "hundred", "grosschess", "chess-t1"])
def test_a_lifted_piece_has_the_same_moves_among_the_turns(gid):
    # The board finds a lifted piece's hints among the turn's legal moves (moves_among),
    # not by generating them again: the same moves in the same order as moves_from.
    rnd = random.Random(5)
    pos = new_position(gid)
    for _ in range(60):
        ms = pos.legal_moves()
        for sq in pos.game.layout.squares:
            if pos.cells[sq] & pos.us:
                assert pos.moves_among(ms, sq, []) == pos.moves_from(sq), (pos.fen(), sq)
        if not ms:
            break
        pos.push(rnd.choice(ms))


@pytest.mark.parametrize("gid", ["chess", "courier", "gardner", "chess-t1", "hundred", "lippo", "checkers12"])
def test_has_legal_move_says_what_the_list_of_moves_says(gid):
    # An outcome asks whether a move exists; the search stops at the first piece that has
    # one.  Along random games played to their end (mates and stalemates included), and in
    # positions with one man left to move.
    rnd = random.Random(5)
    seen = {True: 0, False: 0}
    for _ in range(4):
        pos = new_position(gid)
        for _ in range(300):
            ms = pos.legal_moves()
            assert pos.has_legal_move() == bool(ms)
            seen[bool(ms)] += 1
            if not ms or pos.outcome() is not None:
                break
            pos.push(rnd.choice(ms))
    if gid == "chess":
        for fen, moves in [
            ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", False),  # stalemate
            ("6rk/6pp/8/8/8/8/8/R5K1 w - - 0 1", True),
            ("k7/8/1QK5/8/8/8/8/8 b - - 0 1", False),  # stalemate
            ("k7/1Q6/2K5/8/8/8/8/8 b - - 0 1", False),  # mate
        ]:
            assert new_position("chess", fen).has_legal_move() is moves
    assert seen[True]


@pytest.mark.parametrize("gid", ["chess", "lippo", "checkers12", "courier", "gardner", "hundred", "grosschess", "chess-t1"])
def test_a_journaled_move_is_found_again_among_its_pieces_powers(gid):
    # A power-up replays the journal with replay_move: every legal move's string names
    # that move among its piece's moves by their powers (no other move there has it),
    # along random games played to their end, checks and lippo's claims included.
    rnd = random.Random(7)
    seen = 0
    for _ in range(3):
        pos = new_position(gid)
        for _ in range(200):
            ms = pos.legal_moves()
            for m in ms:
                assert pos.replay_move(pos.move_str(m)) == m, (pos.fen(), pos.move_str(m))
            seen += len(ms)
            if not ms or pos.outcome() is not None:
                break
            pos.push(rnd.choice(ms))
    assert seen > 2000
    pos = new_position(gid)
    lay = pos.game.layout
    empty = next(sq for sq in lay.squares if not pos.cells[sq])
    with pytest.raises(MoveError):
        pos.replay_move(lay.name(empty) + lay.name(empty))


ALL_GAMES = ["chess", "lippo", "checkers12", "courier", "gardner", "hundred", "grosschess", "chess-t1"]


def _random_games(gid, seed, games, plies):
    # Positions along random games played to their end (or `plies`).
    rnd = random.Random(seed)
    for _ in range(games):
        pos = new_position(gid)
        for _ in range(plies):
            yield pos
            ms = pos.legal_moves()
            if not ms or pos.outcome() is not None:
                break
            pos.push(rnd.choice(ms))


@pytest.mark.parametrize("gid", ALL_GAMES)
def test_the_turns_moves_listed_a_piece_at_a_time_are_the_legal_moves(gid):
    # The board lists the turn's moves a few pieces a scan (legal_steps): the same list in
    # the same order, one step a piece of the side to move where the game's moves are its
    # pieces' (a step or none where a game has rules of its own).
    for pos in _random_games(gid, 3, 3, 200):
        pos.outcome()  # as the board asks first, after every move
        fen = pos.fen()
        ms = []
        steps = sum(1 for _ in pos.legal_steps(ms))
        assert ms == pos.legal_moves(), fen
        assert pos.fen() == fen
        if pos._piecewise():
            assert steps == sum(1 for sq in pos.game.layout.squares if pos.cells[sq] & pos.us)


def test_lippos_end_found_a_piece_at_a_time_is_the_end_of_the_whole_list():
    # end_reason() stops at the first move that answers; _moves_and_end lists them all.
    # legal_moves() once the end is known: the whole list's moves, or none at the end.
    seen = {}
    for pos in _random_games("lippo", 11, 30, 400):
        pos._end = 0
        ms, whole = pos._moves_and_end()
        reason = pos.end_reason()
        assert reason == whole, pos.fen()
        assert pos.legal_moves() == ([] if whole else ms), pos.fen()
        seen[reason] = seen.get(reason, 0) + 1
    assert seen.get("surrender") and seen.get("patt") and seen.get(None, 0) > 1000, seen


@pytest.mark.parametrize("gid", ALL_GAMES)
def test_a_hosts_move_string_names_that_move(gid):
    # `move` parses a host's string among its piece's moves, giving a string only to
    # those that go to its second square: every legal move is found by its string.
    seen = 0
    for pos in _random_games(gid, 9, 2, 150):
        for m in pos.legal_moves():
            assert pos.parse_move(pos.move_str(m)) == m, (pos.fen(), pos.move_str(m))
            seen += 1
    assert seen > 1000


@pytest.mark.parametrize("gid", ["chess", "lippo", "hundred", "grosschess", "chess960"])
def test_a_lifted_castling_rook_asks_the_royal_piece_s_castlings_alone(gid):
    # The board asks castlings_from(king) when a castling's rook is lifted first: the
    # castlings of moves_from(king), in their order (100-square chess and Grosschess find
    # them without testing the King's other moves).  Random games that keep the royal piece
    # home, most moves by other men, so that castlings come up.
    rnd = random.Random("castlings " + gid)
    found = 0
    for _ in range(8):
        pos = new_position(gid)
        for _ in range(60):
            ms = pos.legal_moves()
            if not ms:
                break
            k = pos.kings[pos.us >> 6]
            if k:
                want = [m for m in pos.moves_from(k) if m >> 19 & 15 == CASTLE]
                assert pos.castlings_from(k, [7]) == [7] + want, pos.fen()  # (appended)
                found += len(want)
            others = [m for m in ms if m & 511 != k]
            pos.push(rnd.choice(others or ms))
    assert found > 0
