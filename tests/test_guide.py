"""The board guides a given start position man by man (`guide GAME FEN`, firmware/arrange.py),
as it guides battle chess's screened set-up: chess960's starts (issue #37, item 3).  For
each man asked for (King, Queen, Rooks, Bishops, Knights, Pawns; White's, then Black's) the
board lights `d` on exactly the squares where the start has that man and that are still
empty (the oracle: python-chess's Chess960 start, chess.Board.from_chess960_pos), refuses a
man put anywhere else (`r`), and begins the chess960 game once both armies stand."""

import sys

import pytest
from conftest import ROOT

from firmware.rules.games.chess960 import start_fen

sys.path.insert(0, str(ROOT / "tests" / "mpy"))
from scriptrun import Runner  # noqa: E402

chess = pytest.importorskip("chess", reason="need python-chess (pip install chess)")
ORDER = "KQRBNP"


def lit(r: Runner, code: str) -> set[str]:
    for word in r.led_groups().split():
        if word.startswith(code + ":"):
            return set(word[2:].split(","))
    return set()


def asked(r: Runner) -> tuple[str, str]:
    last = [t.split() for t in r.out if t.split()[1:2] == ["arrange"]][-1]
    return last[2], last[3]


@pytest.mark.parametrize("number", [0, 518, 959, 357])
def test_a_chess960_start_is_guided_man_by_man(tmp_path, number):
    oracle = chess.Board.from_chess960_pos(number)
    fen = start_fen(number)
    assert fen.split()[0] == oracle.board_fen()
    r = Runner(str(tmp_path / "j"))
    assert r.send("new chess").startswith("ok")
    r.send("sim setup")
    r.send("sim wait 100")
    assert r.send(f"guide chess960 {fen}") == "ok guide chess960"
    assert r.send("state").split()[3] == "arranging"
    assert len(lit(r, "r")) == 32  # the old game's men are taken away first
    for p in range(144):
        if r.hw.matrix.occ[p]:
            r.send(f"sim lift @{p}")
    r.send("sim wait 100")
    wrong_tried = False
    for colour, side in ((chess.WHITE, "white"), (chess.BLACK, "black")):
        for letter in ORDER:
            squares = {chess.square_name(s) for s in oracle.pieces(chess.Piece.from_symbol(letter).piece_type, colour)}
            while squares:
                assert asked(r) == (side, letter)
                assert lit(r, "d") == squares, (side, letter, r.led_groups())
                assert lit(r, "n")  # which man: under its files, in the margin
                if not wrong_tried:  # a man put where the start has none is refused
                    r.send("sim place e4")
                    r.send("sim wait 100")
                    assert lit(r, "r") == {"e4"} and asked(r) == (side, letter)
                    r.send("sim lift e4")
                    r.send("sim wait 100")
                    wrong_tried = True
                sq = sorted(squares)[0]
                r.send(f"sim place {sq}")
                r.send("sim wait 100")
                squares.discard(sq)
    r.send("sim wait 500")
    assert any(t.split()[1:3] == ["newgame", "chess960"] for t in r.out), r.out[-5:]
    state = r.send("state").split()
    assert state[2:4] == ["chess960", "idle"] and " ".join(state[5:]) == fen
    assert "e2e4" in r.send("moves")


def test_a_guide_that_cannot_be_is_refused_in_words(tmp_path):
    r = Runner(str(tmp_path / "j"))
    r.send("new chess")
    assert r.send("guide lippo x").startswith("error bad-args")
    assert r.send("guide chess960 not/a/fen w - - 0 1").startswith("error bad-fen")
    assert r.send("state").split()[2:4] == ["chess", "setup"]

