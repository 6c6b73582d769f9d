"""SAN and PGN: SAN written and read over the rules core's moves, checked against
python-chess (chess) and Fairy-Stockfish (courier, gardner); PGN export in the standard's
export format, read back by python-chess and pyffish; tags; Kriegspiel's announcements."""

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import chess
import chess.pgn
import pytest

from firmware.rules import GAMES, MoveError, new_position
from firmware.rules.board import BLACK
from firmware.rules.games import courier
from firmware.rules.kriegspiel import Umpire
from host.link import read_event
from host.record.archive import Archive
from host.record.notation import parse, parse_line, san
from host.record.pgn import export, read_moves
from test_host import random_game

BIN = Path(sys.executable).parent


def archived(where, gid, moves, fen=None, end=None, **tags):
    """A game archived in where: a folder (its a.sqlite), or what --archive takes."""
    a = Archive(where if isinstance(where, str) else where / "a.sqlite")
    g = a.new_game("b1", gid, fen, **tags)
    for i, m in enumerate(moves):
        a.record("b1", i + 1, read_event(f"move {i + 1} {m}"), g)
    if end:
        a.record("b1", len(moves) + 1, read_event("end " + end), g)
    return a, a.game(str(g))


# ---- SAN -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_san_is_python_chess_san_and_reads_back(seed):
    rng = random.Random(seed)
    board = chess.Board()
    pos = new_position("chess")
    for _ in range(150):
        ms = pos.legal_moves()
        if not ms:
            break
        m = rng.choice(ms)
        text = san(pos, m)
        ref = board.san(chess.Move.from_uci(pos.move_str(m)))
        assert text == ref, board.fen()
        assert parse(pos, text) == m and parse(pos, pos.move_str(m)) == m
        board.push_san(ref)
        pos.push(m)


def test_san_input_forgives_case_and_dashes_where_unambiguous():
    pos = new_position("chess", "r3k2r/pP6/8/3p4/4P3/8/8/R3K1NR w KQkq - 0 1")
    for typed, want in [("Nf3", "g1f3"), ("nf3", "g1f3"), ("Ng1-f3", "g1f3"), ("g1-f3", "g1f3"), ("exd5", "e4d5"),
                        ("ed5", "e4d5"), ("e4:d5", "e4d5"), ("O-O-O", "e1c1"), ("0-0-0", "e1c1"), ("o-o-o", "e1c1"),
                        ("bxa8=Q", "b7a8q"), ("bxa8q", "b7a8q"), ("b8=N", "b7b8n"), ("b7b8N", "b7b8n")]:
        assert pos.move_str(parse(pos, typed)) == want, typed
    two_rooks = new_position("chess", "4k3/8/8/8/8/8/8/R4RK1 w - - 0 1")
    with pytest.raises(MoveError, match="Rd1 is ambiguous: Rad1, Rfd1"):
        parse(two_rooks, "Rd1")
    assert two_rooks.move_str(parse(two_rooks, "Rad1")) == "a1d1"


@pytest.mark.parametrize("fen,typed,reason", [
    (None, "e2e9", "e9 is not a square of chess"),
    (None, "e3e4", "there is no piece on e3"),
    (None, "e7e5", "not White's"),
    (None, "Qh5", "no queen of White's can move to h5"),
    (None, "O-O", "castling short is not possible now"),
    ("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "Kd1", "is in check, and this move does not end it"),
    ("4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1", "Nf3", "your king would be in check"),
    (None, "hello", "is not a move"),
])
def test_a_refused_move_says_why(fen, typed, reason):
    with pytest.raises(MoveError, match=reason):
        parse(new_position("chess", fen), typed)


def test_several_moves_on_a_line_are_all_played_or_none():
    pos = new_position("chess")
    before = pos.fen()
    assert [new_position("chess").move_str(parse_line(pos, "1. e4 e5 2. Nf3")[0])] == ["e2e4"]
    assert len(parse_line(pos, "e4 e5 Nf3 Nc6")) == 4
    with pytest.raises(MoveError, match="move 3 of the line: Ke3.*nothing played"):
        parse_line(pos, "e4 e5 Ke3")
    assert pos.fen() == before


def test_san_of_the_other_games_is_their_own_letters():
    pos = new_position("lippo")
    names = {san(pos, m) for m in pos.legal_moves()}
    assert {"Nb4", "s4", "s5"} <= names or {"Nb4"} <= names
    pos = new_position("lippo", "6p5/12/12/12/12/12/12/12/12/12/6P5/12 w - - 0 1")
    assert san(pos, parse(pos, "Pg3")) == "Pg3"
    pos = new_position("checkers12", "12/12/12/12/12/12/12/12/12/2m9/1M10/12 w - - 0 1")
    assert san(pos, parse(pos, "b2d4")) == "b2d4"  # checkers: squares


# ---- PGN -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_chess_pgn_is_san_and_python_chess_reads_it_to_the_same_position(tmp_path, seed):
    moves = random_game("chess", 120, seed)
    a, g = archived(tmp_path, "chess", moves, white="Anna", black="Boris", event="Club night")
    text = export(g, a.moves(g.id))
    game = chess.pgn.read_game(io.StringIO(text))
    assert not game.errors
    board = chess.Board()
    for m in moves:
        board.push_uci(m)
    assert game.end().board().fen() == board.fen()
    # The movetext is python-chess's own export of the same game, word for word.
    ours = [w for w in text.split("\n\n")[1].split() if not w[0].isdigit() and w != "*"]
    assert ours == [n.san() for n in game.mainline()]
    assert game.headers["White"] == "Anna" and game.headers["Event"] == "Club night"
    assert game.headers["Termination"] == "unterminated" and game.headers["Result"] == "*"
    for tag in ["Event", "Site", "Date", "Round", "White", "Black", "Result"]:  # the Seven Tag Roster, first
        assert tag in game.headers
    assert list(game.headers)[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]


def test_termination_takes_the_standard_values(tmp_path):
    a, g = archived(tmp_path, "chess", ["f2f3", "e7e5", "g2g4", "d8h4"], end="checkmate 0-1")
    text = export(g, a.moves(g.id))
    assert '[Termination "normal"]' in text and "Qh4# {checkmate} 0-1" in text
    game = chess.pgn.read_game(io.StringIO(text))
    assert game.end().board().is_checkmate()
    g2 = a.new_game("b1", "chess", None)
    a.add_moves(g2, ["e2e4"])
    a.new_game("b1", "chess", None)  # a new game on the board abandons g2 (one with no move is dropped)
    assert '[Termination "abandoned"]' in export(a.game(str(g2)), ["e2e4"])


def _fsf_files(text, ours, fsf):
    return "".join(fsf[ours.index(c)] if c in ours and c != "x" else c for c in text)


@pytest.mark.parametrize("gid,variant,fen", [
    ("gardner", "gardner", None),
    ("courier", "courier", courier.AFTER_OPENING),
])
def test_courier_and_gardner_pgn_read_back_by_fairy_stockfish(tmp_path, gid, variant, fen):
    pyffish = pytest.importorskip("pyffish", reason="pip install pyffish")
    ours, fsf = ("abcdefghiklm", "abcdefghijkl") if gid == "courier" else ("abcde", "abcde")

    start = fen or new_position(gid).fen()
    moves = []
    rng = random.Random(5)
    pos = new_position(gid, fen)
    for _ in range(60):
        # courier: only moves of the seed's rules that Fairy-Stockfish's rules allow too
        theirs = set(pyffish.legal_moves(variant, start, [_fsf_files(x, ours, fsf) for x in moves]))
        ms = [m for m in pos.legal_moves() if _fsf_files(pos.move_str(m), ours, fsf) in theirs]
        if not ms:
            break
        m = rng.choice(ms)
        moves.append(pos.move_str(m))
        pos.push(m)
    a, g = archived(tmp_path, gid, moves, fen=fen)
    text = export(g, a.moves(g.id))
    assert f'[Variant "{variant}"]' in text and '[SetUp "1"]' in text
    start = text.split('[FEN "')[1].split('"')[0]
    # Fairy-Stockfish reads each SAN word: the one legal move whose SAN it is.
    played = []
    for word in text.split("\n\n")[1].split():
        if word[0].isdigit() or word == "*":
            continue
        want = _fsf_files(word, ours, fsf).rstrip("+#")
        now = pyffish.get_fen(variant, start, played)
        found = [u for u in pyffish.legal_moves(variant, start, played)
                 if pyffish.get_san(variant, now, u).rstrip("+#") == want]
        assert len(found) == 1, (word, played)
        played += found
    assert pyffish.get_fen(variant, start, played).split()[:2] == pos.fen().split()[:2]


@pytest.mark.parametrize("gid", GAMES)
def test_every_game_s_pgn_reads_back_through_the_rules_core(tmp_path, gid):
    moves = random_game(gid, 60, 11)
    a, g = archived(tmp_path, gid, moves)
    text = export(g, a.moves(g.id))
    assert '[Variant "' in text and "[SetUp" in text or gid == "chess"
    assert read_moves(gid, g.fen, text) == moves


def test_kriegspiel_exports_the_umpire_s_words_and_each_sheet(tmp_path):
    ump = Umpire(new_position("chess"))
    for attempt in ["e2e4", "e7e5", "e4e5", "g1f3"]:  # e4e5: White cannot see the pawn on e5
        ump.attempt(attempt)
    ump.resign(BLACK)
    rec = dict(ump.full_record(), white_sheet=ump.told[0], black_sheet=ump.told[1])
    a = Archive(tmp_path / "a.sqlite")
    gid = a.add_kriegspiel("k", "chess", None, rec, "1-0", "resigned")
    text = export(a.game(str(gid)), a.moves(gid), a.kriegspiel_record(gid))
    assert "{White tries e4e5: Move impossible.}" in text and "2. Nf3" in text and "{resigned} 1-0" in text
    game = chess.pgn.read_game(io.StringIO(text))
    assert len(list(game.mainline())) == 3 and not game.errors
    env = dict(os.environ)
    r = subprocess.run([BIN / "eboard", "export", str(gid), "--sheet", "white", "--archive", tmp_path / "a.sqlite"],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0 and "You try e4e5" in r.stdout and "You try e7e5" not in r.stdout


def test_tags_are_set_and_edited_later(archive_at):
    a, g = archived(archive_at, "chess", ["e2e4"])
    path = archive_at
    run = lambda *args: subprocess.run([BIN / "eboard", *args, "--archive", path], capture_output=True, text=True)
    assert run("tag", "last", "White", "Anna Li").returncode == 0
    assert run("tag", "last", "site", "Tallinn").returncode == 0
    r = run("tag", "last", "Colour", "x")
    assert r.returncode == 2 and "no tag 'Colour'" in r.stderr and r.stderr.count("\n") == 1
    assert run("tag", "last", "Date", "1934.??.??").returncode == 0
    r = run("tag", "last", "date", "22/11/1934")
    assert r.returncode == 2 and "YYYY.MM.DD" in r.stderr and r.stderr.count("\n") == 1
    r = run("export", "last", "--pgn")
    assert '[White "Anna Li"]' in r.stdout and '[Site "Tallinn"]' in r.stdout and "1. e4 *" in r.stdout
    assert '[Date "1934.??.??"]' in r.stdout
    r = run("export", "last", "--sheet", "white")
    assert r.returncode == 2 and "not a Kriegspiel game" in r.stderr
