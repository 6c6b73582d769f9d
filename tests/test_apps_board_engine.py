"""`eboard board-engine --sim`: the board as a UCI player in python-chess, against
Stockfish (issue #24).  Stockfish's moves are lit on the virtual board and its hands make
them; the person's moves (our engine's, by the same hands) go back as bestmove; every
move is in the archive."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("chess")
import chess  # noqa: E402
import chess.engine  # noqa: E402

from host.record import Archive  # noqa: E402

EBOARD = shutil.which("eboard", path=str(Path(sys.executable).parent)) or "eboard"
STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")


@pytest.mark.skipif(STOCKFISH is None, reason="need stockfish (apt-get install stockfish)")
def test_the_board_plays_stockfish_to_the_end(tmp_path, monkeypatch):
    monkeypatch.setenv("EBOARD_DATA", str(tmp_path))
    archive = tmp_path / "games.sqlite"
    sf = chess.engine.SimpleEngine.popen_uci(STOCKFISH, timeout=120)
    sf.configure({"Skill Level": 0, "Threads": 1})
    board_engine = chess.engine.SimpleEngine.popen_uci(
        [EBOARD, "board-engine", "--sim", "--level", "1", "--archive", str(archive)], timeout=300,
        env=dict(os.environ, EBOARD_DATA=str(tmp_path)))
    try:
        assert board_engine.id["name"] == "eboard board"
        board = chess.Board()
        board_side = chess.BLACK
        while not board.is_game_over(claim_draw=True) and board.ply() < 120:
            if board.turn == board_side:
                r = board_engine.play(board, chess.engine.Limit(time=1))
            else:
                r = sf.play(board, chess.engine.Limit(time=0.02))
            assert r.move in board.legal_moves
            board.push(r.move)
        # a real game: 20 plies at least, or Stockfish mated the person (level 1: every other
        # move a random one, drawn afresh each run) sooner, and that is an end as good
        assert board.ply() >= 20 or board.is_game_over(claim_draw=True), board.move_stack
        # the program's last move is lit and made too, and the board gives no move after the end
        if board.turn == board_side and board.is_game_over():
            assert board_engine.play(board, chess.engine.Limit(time=1)).move is None
        board_engine.quit()
    finally:
        sf.quit()
        board_engine.close()
    a = Archive(str(archive))
    try:
        games = [g for g in a.games() if a.moves(g.id)]
        assert len(games) == 1, "one game in the archive"
        filed = a.moves(games[0].id)
    finally:
        a.close()
    played = [m.uci() for m in board.move_stack]
    # every move the board accepted is filed, in order: the whole game
    assert filed == played[: len(filed)] and len(filed) >= len(played) - (0 if board.is_game_over() else 1)
