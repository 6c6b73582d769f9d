"""The board's words (host/link/words.py): every reply and event read once, checked as it is
read, refused in words where it is not a board's.  The lines are docs/protocol.md's own
(its examples), and the legality of a history is the rules core's, checked against
python-chess where the game is chess."""

import chess
import pytest

from host.link import (
    End, Game, Hello, Move, NewGame, Said, State, Undo, WordsError, read_event, read_game, read_history, read_leds,
    read_moves, read_state, read_version,
)
from host.link.wire import _stray_piece

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_the_protocol_docs_replies_read_as_values():
    assert read_state("state chess idle 1 rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1") == State(
        "chess", "idle", 1, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    assert read_state("state chess idle 1 " + START).turn == "white"
    assert read_game("game chess 5eed0002 -") == Game("chess", "5eed0002", None)
    v = read_version("version 3 0.1.0 sim sim-000000000000 41")
    assert (v.protocol, v.profile, v.board_id, v.boot) == (3, "sim", "sim-000000000000", 41)
    assert read_leds("leds " + "." * 144) == "." * 144
    assert read_moves("moves e2e4 d2d4") == ("e2e4", "d2d4")
    # a Kriegspiel player's board holds its own view: a FEN the core reads as a view
    assert read_state("state chess setup 0 8/8/8/8/8/8/4P3/4K3 w - - 0 1").fen == "8/8/8/8/8/8/4P3/4K3 w - - 0 1"
    # a long reply with no words ends in a space
    assert read_history("history ", Game("chess", "5eed0002", None)).moves == ()


def test_the_protocol_docs_events_read_as_values():
    assert read_event("move 1 e2e4") == Move("move 1 e2e4", 1, "e2e4")
    assert read_event("undo 2 e7e5") == Undo("undo 2 e7e5", 2, "e7e5")
    assert read_event("end checkmate 0-1") == End("end checkmate 0-1", "checkmate", "0-1", None)
    assert read_event("end president-captured 1-0 12 3").points == (12, 3)
    assert read_event("newgame chess 5eed0002 -") == NewGame("newgame chess 5eed0002 -", "chess", "5eed0002", None)
    assert read_event("hello eboard 3 chess setup 41") == Hello("hello eboard 3 chess setup 41", "chess", "setup", 41)
    assert read_event("arrange white K") == Said("arrange white K", "arrange", ("white", "K"))
    assert read_event("alert journal-full 51").kind == "journal-full"
    assert read_event("selftest fault closed e5").args == ("fault", "closed", "e5")


@pytest.mark.parametrize("reply,why", [
    ("game junk chess 5eed0002 -", "'junk' is not a game"),  # the forged `+ junk` merged before `ok game`
    ("game chess 5EED0002 -", "not a game uid"),
    ("game chess 5eed02 -", "not a game uid"),
    ("game chess 5eed0002 rnbqkbnr/pppppppp w", "not a chess position"),
    ("game chess", "'game' says 3 or more words"),
    ("state chess dancing 0 " + START, "not a board's state"),
    ("state shogi idle 0 " + START, "'shogi' is not a game"),
    ("state chess idle x " + START, "a ply is a number"),
    ("version x", "a protocol version is a number"),
    ("leds ...", "a frame is 144 letters"),
])
def test_a_reply_no_board_says_is_refused_in_words(reply, why):
    with pytest.raises(WordsError, match=why.replace("(", r"\(")):
        word = reply.split()[0]
        {"game": read_game, "state": read_state, "version": read_version, "leds": read_leds}[word](reply)


@pytest.mark.parametrize("text,why", [
    ("move 0 e2e4", "a ply is a number from 1"),
    ("move 1 \\x1b[2J", "is not a move"),
    ("move 1", "'move' says 2 words"),
    ("end checkmate 1-0 x y", "end's points are two whole numbers"),
    ("end", "'end' says 2 to 4 words"),
    ("end checkmate 2-0", "a result is"),
    ("newgame junk 5eed0002 -", "'junk' is not a game"),
    ("newgame chess 5eed0002 8/8 w", "not a chess position"),
    ("frobnicate 1", "not an event of the board's"),
    ("move  1 e2e4", "not an event"),
    ("arrange purple K", "not a side"),
])
def test_an_event_no_board_says_is_refused_in_words(text, why):
    with pytest.raises(WordsError, match=why):
        read_event(text)


def test_a_history_is_read_only_when_its_moves_are_legal_in_turn():
    board = chess.Board()
    played = []
    for uci in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "e1g1"]:
        assert chess.Move.from_uci(uci) in board.legal_moves  # the oracle agrees each is legal
        board.push_uci(uci)
        played.append(uci)
    g = Game("chess", "5eed0002", None)
    assert read_history("history " + " ".join(played), g).moves == tuple(played)
    with pytest.raises(WordsError, match="move 2 of the history, e2e4, is not legal"):
        read_history("history e2e4 e2e4", g)
    # from the game's own start: after 1. e4 from a FEN, e7e5 is Black's first
    after = Game("chess", "5eed0002", board.fen())
    assert read_history("history d7d6", after).moves == ("d7d6",)
    with pytest.raises(WordsError, match="not legal"):
        read_history("history e2e4", after)


def test_a_continuation_line_the_board_did_not_send_is_found():
    # The board fills each piece to 200 bytes and carries the last words on its own line.
    words = ["e2e4"] * 100
    pieces, piece = [], []
    for w in words[:-1]:
        if len(" ".join(piece + [w])) > 200:
            pieces.append(" ".join(piece))
            piece = []
        piece.append(w)
    rest = " ".join(piece + [words[-1]])
    assert _stray_piece(pieces, rest) is None
    assert _stray_piece(["e2e4 e7e5"], "") == "+ e2e4 e7e5"  # before `ok history` of a game with no move
    assert _stray_piece(["junk"], "chess 5eed0002 -") == "+ junk"  # before `ok game`
    assert _stray_piece(["e2e4 e7e5", *pieces], rest) == "+ e2e4 e7e5"  # before a real long reply's pieces
