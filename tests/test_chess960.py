"""Chess960 in the rules core against python-chess's Chess960 (chess.Board(fen, chess960=True)):
the 960 numbered starts, move lists and perft along the divide tree on a sample of starts
and on edge positions (castling through or into check, king and rook on each other's
destinations or already on their own), and the FEN castling field both ways.  The full
960 x depth 3 and the deeper sample are bench/chess960.py's (a minute and more)."""

import pytest

from firmware.rules import FenError, MoveError, new_position
from firmware.rules.games.chess960 import start_fen

chess = pytest.importorskip("chess", reason="need python-chess (pip install chess)")

# Edge positions.  The first eleven are from chessprogramming.org's Chess960 perft results
# (as python-chess's examples/perft/chess960.perft lists them); the rest are ours.
EDGES = (
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
    "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
    "qn1rbbkr/ppp2p1p/1n1pp1p1/8/3P4/P6P/1PP1PPPK/QNNRBB1R w hd - 2 9",
    "nqn2krb/p1prpppp/1pbp4/7P/5P2/8/PPPPPKP1/NQNRB1RB w g - 3 9",
    "1nqr1rbb/pppkp1pp/1n3p2/3p4/1P6/5P1P/P1PPPKP1/NNQR1RBB w - - 1 9",
    "nnrkbbqr/1p2pppp/p2p4/2p5/8/1N2P1P1/PPPP1P1P/1NKRBBQR w hc - 0 9",
    "nnrkrbbq/pppp2pp/8/4pp2/4P3/P7/1PPPBPPP/NNKRR1BQ w c - 0 9",
    "n1rk1qbb/pppprpp1/2n4p/4p3/2PP3P/8/PP2PPP1/NNRKRQBB w ECc - 1 9",
    "bnqnrbkr/1pp2pp1/p7/3pP2p/4P1P1/8/PPPP3P/BNQNRBKR w HEhe d6 0 9",
    "4k3/8/8/8/8/8/8/6KR w H - 0 1",  # the king already on g1: only the rook moves
    "4k3/8/8/8/8/8/8/R1K5 w A - 0 1",  # the king already on c1
    "4k3/8/8/8/8/8/8/4K1R1 w G - 0 1",  # the rook on the king's destination
    "4k3/8/8/8/8/8/8/2R2K2 w C - 0 1",
    "4k3/8/8/8/8/8/8/5KR1 w G - 0 1",  # king and rook on each other's destinations
    "4k3/8/8/8/8/8/8/2RK4 w C - 0 1",
    "4k3/8/8/8/8/8/8/5KRr w G - 0 1",  # the swap would leave the king in check
    "4k3/8/8/8/8/8/8/rRK5 w B - 0 1",  # the king stays, the rook leaves it in check
    "4k3/8/8/8/8/8/8/rR1K4 w B - 0 1",  # the rook leaving b1 opens the a1 rook's line to c1
    "4k3/8/8/8/8/8/3r4/1R3K1R w BH - 0 1",  # the long way through check (d1), the short one free
    "4k3/8/8/8/2b5/8/8/1R1K1R2 w BF - 0 1",  # a bishop on the king's way
    "4k3/8/8/8/8/8/8/q2RK2R w DH - 0 1",  # a queen behind the castling rook
    "1r2k3/8/8/8/8/8/8/RK5R w AH - 0 1",
    "r3k3/8/8/8/8/8/8/1RK4R w BH - 0 1",
    "rk4r1/8/8/8/8/8/8/1R3KR1 b BGag - 0 1",
    "1rk3r1/8/8/8/8/8/8/1RK3R1 w BGbg - 0 1",
    "2rkr3/8/8/8/8/8/8/2RKR3 w CEce - 0 1",
    "rkr5/8/8/8/8/8/8/RKR5 w ACac - 0 1",
)
SAMPLE = (0, 1, 2, 100, 205, 333, 518, 600, 707, 959)


def _no_ep(fen):
    # python-chess writes the en-passant square only where a capture is legal; we after
    # every double step (docs/notation.md): the rest must agree.
    f = fen.split()
    del f[3]
    return f


def _walk(fen, depth):
    """Along the divide tree: our legal moves (UCI_Chess960 strings) and FEN against
    python-chess's at every node; the first difference in words, else None."""
    pos = new_position("chess960", fen)
    board = chess.Board(fen, chess960=True)

    def node(d):
        ours = {pos.move_str(m): m for m in pos.legal_moves()}
        theirs = {board.uci(m): m for m in board.legal_moves}
        if set(ours) != set(theirs):
            return "%s: only ours %s, only python-chess's %s" % (
                board.fen(), sorted(set(ours) - set(theirs)), sorted(set(theirs) - set(ours)))
        if _no_ep(pos.fen()) != _no_ep(board.fen()) or _no_ep(pos.fen(shredder=True)) != _no_ep(board.shredder_fen()):
            return "FEN %s, python-chess %s" % (pos.fen(), board.fen())
        if d == 1:
            return None
        for s in sorted(ours):
            pos.push(ours[s])
            board.push(theirs[s])
            why = node(d - 1)
            pos.pop()
            board.pop()
            if why:
                return why
        return None

    return node(depth)


def test_the_960_starts_are_python_chess_numbers():
    for n in range(960):
        assert start_fen(n) == chess.Board.from_chess960_pos(n).fen(), n
    assert start_fen(518) == new_position("chess").fen() == new_position("chess960").fen()
    for bad in (-1, 960):
        with pytest.raises(ValueError, match="0 to 959"):
            start_fen(bad)


@pytest.mark.parametrize("n", SAMPLE)
def test_starts_agree_with_python_chess(n):
    fen = start_fen(n)
    assert _walk(fen, 2) is None
    board = chess.Board(fen, chess960=True)
    assert new_position("chess960", fen).perft(3) == sum(1 for _ in _leaves(board, 3))


def _leaves(board, depth):
    if depth == 0:
        yield 1
        return
    for m in board.legal_moves:
        board.push(m)
        yield from _leaves(board, depth - 1)
        board.pop()


@pytest.mark.parametrize("fen", EDGES)
def test_edge_positions_agree_with_python_chess(fen):
    assert _walk(fen, 3) is None


def test_castling_is_the_king_taking_its_own_rook():
    pos = new_position("chess960", "4k3/8/8/8/8/8/8/6KR w H - 0 1")
    m = pos.parse_move("g1h1")  # the king stays on g1, the rook goes to f1
    pos.push(m)
    assert pos.fen() == "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"
    pos.pop()
    assert pos.fen() == "4k3/8/8/8/8/8/8/6KR w K - 0 1"
    swap = new_position("chess960", "4k3/8/8/8/8/8/8/2RK4 w C - 0 1")
    swap.push_str("d1c1")
    assert swap.fen() == "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"
    # A king on f1 stepping to g1 is a plain move; its castling is f1h1.
    pos = new_position("chess960", "4k3/8/8/8/8/8/8/5K1R w H - 0 1")
    assert {"f1g1", "f1h1"} <= {pos.move_str(m) for m in pos.legal_moves()}
    pos.push_str("f1g1")
    assert pos.fen().split()[:3] == ["4k3/8/8/8/8/8/8/6KR", "b", "-"]
    with pytest.raises(MoveError):
        new_position("chess960", "4k3/8/8/8/8/8/8/rRK5 w B - 0 1").parse_move("c1b1")


def test_the_castling_field_read_and_written():
    fen = "1r2k1r1/8/8/8/8/8/8/RR2K1R1 w - - 0 1"
    board = fen.split()[0]
    # X-FEN's K/Q: the outermost rook; a file letter: that rook; both read the same.
    for field, xfen, shredder in (("KQkq", "KQkq", "GAgb"), ("GAgb", "KQkq", "GAgb"), ("Bb", "Bq", "Bb"),
                                  ("Gk", "Kk", "Gg"), ("-", "-", "-"), ("Hh", "-", "-")):
        pos = new_position("chess960", "%s w %s - 0 1" % (board, field))
        ref = chess.Board("%s w %s - 0 1" % (board, field), chess960=True)
        assert pos.castling_field() == xfen == ref.fen().split()[2], field
        assert pos.castling_field(shredder=True) == shredder == ref.shredder_fen().split()[2], field
        again = new_position("chess960", pos.fen())
        assert again.fen() == pos.fen() and again.castling == pos.castling
    for bad in ("KK", "X", "KQkqz", "Ii"):
        with pytest.raises(FenError):
            new_position("chess960", "%s w %s - 0 1" % (board, bad))


def test_a_castling_right_goes_with_its_rook():
    moves = ("f2f4", "a7a6", "f1f2")  # start 0, bbqnnrkr: the a-side rook (f1) leaves
    pos = new_position("chess960", start_fen(0))
    ref = chess.Board(start_fen(0), chess960=True)
    for s in moves:
        pos.push_str(s)
        ref.push_uci(s)
    assert pos.castling_field() == "Kkq"
    assert _no_ep(pos.fen()) == _no_ep(ref.fen())


def test_eboard_moves_and_perft_take_a_start_number_or_a_fen():
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    eboard = shutil.which("eboard", path=str(Path(sys.executable).parent)) or "eboard"

    def run(*args):
        return subprocess.run([eboard, *args], capture_output=True, text=True, timeout=120)

    r = run("perft", "chess960", "3", "--start", "0")
    board = chess.Board.from_chess960_pos(0)
    assert r.returncode == 0 and int(r.stdout.split()[-1]) == sum(1 for _ in _leaves(board, 3))
    r = run("moves", "chess960", "--fen", "4k3/8/8/8/8/8/8/5KR1 w G - 0 1")
    theirs = chess.Board("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", chess960=True)
    assert sorted(r.stdout.split()) == sorted(theirs.uci(m) for m in theirs.legal_moves)
    assert "f1g1" in r.stdout.split()  # the castling: king f1 takes its rook on g1
    for args, words in ((("perft", "chess960", "1", "--start", "960"), "bad --start"),
                        (("moves", "chess960", "--start", "x"), "bad --start"),
                        (("moves", "chess", "--start", "3"), "one start position"),
                        (("moves", "chess960", "--start", "3", "--fen", start_fen(3)), "not both")):
        r = run(*args)
        assert r.returncode != 0 and words in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_play_a_numbered_start_on_the_virtual_board(tmp_path):
    import os
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    eboard = shutil.which("eboard", path=str(Path(sys.executable).parent)) or "eboard"
    env = dict(os.environ, EBOARD_DATA=str(tmp_path))
    r = subprocess.run([eboard, "play", "--sim", "--game", "chess960", "--start", "0"], input="f2f4\nquit\n",
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    assert "1   B  B  Q  N  N  R  K  R   1" in r.stdout and "last move: f4" in r.stdout
    r = subprocess.run([eboard, "play", "--sim", "--start", "5"], capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode != 0 and "--game chess960" in r.stderr
