"""The identities of boots and games (protocol 2; issue #11 points 4, 5, 6 and 9), through
real pseudo-terminals and processes: the firmware under MicroPython (host/link/virtual.py, a
256 K heap), the host's Bridge and `eboard serve` over the port, a real SQLite archive."""

import os
import signal
import sqlite3
import subprocess
import time

import pytest
from test_host import BIN, eboard, hands_for, needs_mpy, random_game, timed_script

from firmware.journal import Journal
from firmware.rules import new_position
from host.record.archive import SCHEMA_VERSION, Archive
from host.link import read_event
from host.record.bridge import Bridge
from host.link.virtual import VirtualBoard

FOOLS_MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]


class Followed:
    """A virtual board (virtual clock) with a player's hands, followed by a Bridge."""

    def __init__(self, tmp_path):
        self.dir = tmp_path / "board"
        self.vb = VirtualBoard(self.dir, realtime=False)
        self.vb.start()
        self.archive = Archive(tmp_path / "a.sqlite")
        self.said = []
        self.notes = []
        self.bridge = Bridge(
            self.vb.port, self.archive, on_change=lambda seq, said: self.said.append(said.text), on_note=self.notes.append
        )
        self.bridge.connect()

    def req(self, line):
        return self.bridge.request(line)

    def uid(self):
        return self.req("game").split()[2]

    def play(self, gid, moves, before=()):
        """Set the pieces up (start position) and play moves by hand after the moves before."""
        pos = new_position(gid)
        for text in before:
            pos.push(pos.parse_move(text))
        if not before:
            self.req("sim setup")
            self.req("sim wait 100")
        for text in moves:
            m = pos.parse_move(text)
            for step in hands_for(pos, m):
                self.req("sim " + step)
            self.req("sim wait 700")
            pos.push(m)

    def power_cut(self, mangle=None):
        boot = self.bridge.boot
        self.vb.kill()
        if mangle:
            mangle(self.dir / "journal.bin")
        self.vb.restart()
        deadline = time.monotonic() + 20
        while self.bridge.boot == boot and time.monotonic() < deadline:
            self.bridge.poll(0.2)  # the hello, and the bridge's catch-up after it
        assert self.bridge.boot != boot, "no hello after the power came back"
        return boot

    def games_with_moves(self):
        return [(g, self.archive.moves(g.id)) for g in self.archive.games() if self.archive.moves(g.id)]

    def close(self):
        self.bridge.close()
        self.archive.close()
        self.vb.stop()


@pytest.fixture
def followed(tmp_path):
    f = Followed(tmp_path)
    yield f
    f.close()


@needs_mpy
def test_a_fresh_boards_default_game_survives_a_power_cut(followed):
    # Point 4: no `new` ever: the board's default game, journaled from the start.
    moves = random_game("chess", 6, 4)
    uid = followed.uid()
    followed.play("chess", moves[:3])
    boot = followed.power_cut()
    assert followed.bridge.boot != boot  # a power-up's random id
    assert followed.uid() == uid
    assert followed.req("state").split()[2] != "setup"
    followed.play("chess", moves[3:], before=moves[:3])
    assert followed.req("history").split()[1:] == moves
    [(game, stored)] = followed.games_with_moves()
    assert game.uid == uid and stored == moves
    assert not followed.notes


def _deleted(path):
    path.unlink()


def _zeroed(path):
    path.write_bytes(bytes(path.stat().st_size))


def _garbled(path):
    path.write_bytes(os.urandom(64 * 1024))  # point 9: 64 KiB of noise, a 256 K heap


def _damaged_early(path):
    data = bytearray(path.read_bytes())
    data[12] ^= 0x55  # inside the game's first record: everything after it is still there
    path.write_bytes(bytes(data))


@needs_mpy
@pytest.mark.parametrize("mangle", [_deleted, _zeroed, _garbled, _damaged_early], ids=lambda f: f.__name__[1:])
def test_a_wiped_or_damaged_journal_is_a_new_game(followed, mangle):
    # Point 4: a wiped or damaged journal never passes for the game it held; the host
    # files the next game apart, and the first game's record stays whole.
    first = random_game("chess", 4, 11)
    second = random_game("chess", 4, 12)
    followed.req("new chess")
    old = followed.uid()
    followed.play("chess", first)
    followed.power_cut(mangle)
    new = followed.uid()
    assert new != old
    damaged = mangle is not _deleted
    assert any(t.startswith("alert journal-damaged") for t in followed.said) == damaged
    assert (followed.dir / "journal.bin.bad").exists() == damaged
    assert followed.req("state").split()[2] == "setup"
    followed.play("chess", second)
    games = followed.games_with_moves()
    assert [(g.uid, m) for g, m in games] == [(old, first), (new, second)]
    assert followed.req("history").split()[1:] == second


@needs_mpy
def test_the_host_away_across_an_end_and_a_new_game_archives_both(tmp_path):
    # Points 5 and 6: eboard serve is killed during game A; the board ends A, begins B
    # (the same kind of game) and plays on, far past the 32 messages it keeps in RAM;
    # a new serve files both games whole, each with its result, nothing spliced.
    second = random_game("chess", 12, 5)
    a_lines, _ = timed_script("chess", FOOLS_MATE)
    b_lines, _ = timed_script("chess", second)
    d = tmp_path / "board"
    d.mkdir()
    a_lines = [x.replace("wait 700", "wait 1500") for x in a_lines]  # time to notice A's first move
    # The hands wait for serve to be there: A's first move is archived live.
    (d / "autoplay.txt").write_text("\n".join(["wait 4000"] + a_lines + ["wait 1500"] + b_lines) + "\n")
    path = tmp_path / "a.sqlite"
    args = [BIN / "eboard", "serve", "--archive", path]

    def archived():
        a = Archive(path)
        try:
            return [(g, a.moves(g.id)) for g in a.games() if a.moves(g.id)]
        finally:
            a.close()

    def until(check, what, seconds=60):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            got = check()
            if got:
                return got
            time.sleep(0.1)
        pytest.fail("timed out waiting for " + what)

    def b_moves():
        records = Journal(str(d / "journal.bin")).load()
        heads = [i for i, r in enumerate(records) if r[0] == "N"]
        return [r for r in records[heads[-1] :] if r[0] == "M"] if heads else []

    serve = None
    try:
        with VirtualBoard(d, realtime=True) as vb:
            serve = subprocess.Popen(args + ["--port", vb.port], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            until(lambda: any(m[:1] == FOOLS_MATE[:1] and len(m) < 4 for _, m in archived()), "game A's first move")
            serve.send_signal(signal.SIGKILL)
            serve.communicate()
            # A, then B in the journal (it keeps the game before), and B played to its end
            until(lambda: len(b_moves()) == len(second), "the board to play game B")
            serve = subprocess.Popen(args + ["--port", vb.port], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            got = until(lambda: (lambda g: g if len(g) == 2 and g[1][1] == second else None)(archived()), "the archive")
            serve.send_signal(signal.SIGINT)
            out, err = serve.communicate(timeout=30)
    finally:
        if serve is not None and serve.poll() is None:
            serve.kill()
            serve.communicate()
    (a, a_moves), (b, b_moves_stored) = got
    assert a_moves == FOOLS_MATE and (a.result, a.reason) == ("0-1", "checkmate")
    assert b_moves_stored == second and b.result == "*"
    assert a.uid != b.uid and a.game == b.game == "chess"
    assert "Traceback" not in err.decode()


V1_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games(id INTEGER PRIMARY KEY, board TEXT NOT NULL, game TEXT NOT NULL, fen TEXT,
    started TEXT NOT NULL, ended TEXT, result TEXT NOT NULL DEFAULT '*', reason TEXT,
    white_points INTEGER, black_points INTEGER, white TEXT NOT NULL DEFAULT '?',
    black TEXT NOT NULL DEFAULT '?', event TEXT NOT NULL DEFAULT 'Casual game', site TEXT NOT NULL DEFAULT '?');
CREATE TABLE moves(game_id INTEGER NOT NULL REFERENCES games(id), ply INTEGER NOT NULL, move TEXT NOT NULL,
    seq INTEGER, at TEXT NOT NULL, PRIMARY KEY(game_id, ply));
CREATE TABLE kriegspiel(game_id INTEGER PRIMARY KEY REFERENCES games(id), record TEXT NOT NULL);
CREATE TABLE events(board TEXT NOT NULL, seq INTEGER NOT NULL, at TEXT NOT NULL, game_id INTEGER,
    text TEXT NOT NULL, PRIMARY KEY(board, seq));
INSERT INTO meta VALUES('schema', '1');
INSERT INTO games(id, board, game, started) VALUES(1, 'sim-1', 'chess', 'then');
INSERT INTO moves VALUES(1, 1, 'e2e4', 5, 'then'), (1, 2, 'e7e5', 6, 'then');
INSERT INTO events VALUES('sim-1', 5, 'then', 1, 'move 1 e2e4'), ('sim-1', 6, 'then', 1, 'move 2 e7e5');
"""


def test_an_archive_of_schema_1_is_migrated_and_keeps_its_games(tmp_path):
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript(V1_SCHEMA)
    db.close()
    r = eboard("show", "1", "--archive", path)
    assert r.returncode == 0 and "e4" in r.stdout and "e5" in r.stdout, r.stdout + r.stderr
    a = Archive(path)
    assert a.events("sim-1") == [(5, "move 1 e2e4"), (6, "move 2 e7e5")]
    assert a.game("1").uid is None
    # A board's new game with the same numbers is not taken for the old one.
    g = a.new_game("sim-1", "chess", None, uid="0badc0de")
    assert a.record("sim-1", 5, read_event("move 1 d2d4"), g, uid="0badc0de")
    assert a.moves(1) == ["e2e4", "e7e5"] and a.moves(g) == ["d2d4"]
    a.close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == (str(SCHEMA_VERSION),)  # on to the newest
    db.close()


def test_a_stored_move_is_never_overwritten_by_a_different_one(tmp_path):
    a = Archive(tmp_path / "a.sqlite")
    g = a.new_game("b", "chess", None, uid="00000001")
    for seq, text in [(3, "move 1 e2e4"), (5, "move 2 e7e5"), (7, "move 3 g1f3")]:
        a.record("b", seq, read_event(text), g, uid="00000001")
    # the same plies, other moves (a record that no longer replays if merged)
    a.record("b", 9, read_event("move 2 c7c5"), g, uid="00000001")
    fork = a.forks[g]
    assert a.moves(g) == ["e2e4", "e7e5", "g1f3"]
    assert a.moves(fork) == ["e2e4", "c7c5"] and a.game(str(fork)).uid == "00000001"
    a.close()


@needs_mpy
def test_a_history_that_does_not_extend_the_archived_one_is_never_merged(followed):
    # The host's rule: the same uid with other moves (a journal restored from another
    # time, say) becomes a new archive game, and the host says so in words.
    first = random_game("chess", 3, 21)
    uid = followed.uid()
    followed.play("chess", first)

    def restored(path):
        Journal(str(path)).rewrite([f"N 0 {uid} chess -", "B 1", "M 2 d2d4", "M 3 d7d5", "S 900"])

    followed.power_cut(restored)
    assert followed.uid() == uid
    games = followed.games_with_moves()
    assert [(g.uid, m) for g, m in games] == [(uid, first), (uid, ["d2d4", "d7d5"])]
    assert len(followed.notes) == 1 and "no longer matches" in followed.notes[0], followed.notes
