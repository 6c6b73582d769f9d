"""The game archive: every board message and every game, in SQLite (WAL), as it happens.

A board's game has an identity of its own, its uid (protocol 2): games are found by it,
never by sequence numbers across games.  A board message is stored under (board, game
uid, seq) once: a message sent again after a reconnect changes nothing.  Moves are stored
by (archive game, ply) and never overwritten by a different move: a move that disagrees
with the stored one forks the record into a new archive game.  Every message is committed
as it arrives, so a host killed at any point keeps everything received before.

Schema 2 (from 1: games.uid added; events keyed by (board, uid, seq), old rows uid '').
Schema 3: games.date.  Schema 4: games.time_control (PGN's TimeControl, '300+3') and
moves.clock_ms (the mover's time left after the move, on a clock game); older rows NULL.
Schema 5: kriegspiel_adjourned (an adjourned Kriegspiel game's umpire actions, to resume
it) and host_ends (the ends a host asked a board for, noted before they are sent).
"""

from __future__ import annotations

import datetime as _dt
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from firmware.terms import HOST_ENDS
from host.link import End, Event, Move, Undo

SCHEMA_VERSION = 5
# Every message a board said, once: (board, game uid, seq) is its identity.
EVENTS = """
CREATE TABLE IF NOT EXISTS {name}(
    board TEXT NOT NULL,
    uid TEXT NOT NULL DEFAULT '',
    seq INTEGER NOT NULL,
    at TEXT NOT NULL,
    game_id INTEGER,
    text TEXT NOT NULL,
    PRIMARY KEY(board, uid, seq)
);
"""
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games(
    id INTEGER PRIMARY KEY,
    board TEXT NOT NULL,
    game TEXT NOT NULL,
    fen TEXT,
    started TEXT NOT NULL,
    ended TEXT,
    result TEXT NOT NULL DEFAULT '*',
    reason TEXT,
    white_points INTEGER,
    black_points INTEGER,
    white TEXT NOT NULL DEFAULT '?',
    black TEXT NOT NULL DEFAULT '?',
    event TEXT NOT NULL DEFAULT 'Casual game',
    site TEXT NOT NULL DEFAULT '?',
    uid TEXT,
    date TEXT,
    time_control TEXT
);
CREATE TABLE IF NOT EXISTS moves(
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    seq INTEGER,
    at TEXT NOT NULL,
    clock_ms INTEGER,
    PRIMARY KEY(game_id, ply)
);
CREATE TABLE IF NOT EXISTS kriegspiel(
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    record TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS kriegspiel_live(
    id INTEGER PRIMARY KEY,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    game TEXT NOT NULL,
    fen TEXT NOT NULL,
    opening INTEGER NOT NULL,
    actions TEXT NOT NULL DEFAULT '[]',
    started TEXT NOT NULL,
    updated TEXT NOT NULL,
    ended TEXT,
    how TEXT
);
CREATE TABLE IF NOT EXISTS kriegspiel_adjourned(
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    opening INTEGER NOT NULL DEFAULT 0,
    actions TEXT
);
CREATE TABLE IF NOT EXISTS host_ends(
    board TEXT NOT NULL,
    uid TEXT NOT NULL,
    what TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY(board, uid, what)
);
""" + EVENTS.format(name="events") + """
CREATE INDEX IF NOT EXISTS games_uid ON games(board, uid);
CREATE INDEX IF NOT EXISTS events_game ON events(game_id, seq);
"""
# Schema 1 -> 2, in one transaction: the uid column, and events re-keyed by game uid.
MIGRATE_1_2 = """
ALTER TABLE games ADD COLUMN uid TEXT;
""" + EVENTS.format(name="events2") + """
INSERT INTO events2(board, uid, seq, at, game_id, text) SELECT board, '', seq, at, game_id, text FROM events;
DROP TABLE events;
ALTER TABLE events2 RENAME TO events;
"""
# Schema 2 -> 3: a PGN Date of its own (eboard tag); 3 -> 4: the clock (play --clock).
# 4 -> 5: kriegspiel_adjourned, the umpire's actions of an adjourned Kriegspiel game (to resume
# it), which also seals it whatever its tags say; one adjourned before (event Kriegspiel, not
# over, no actions kept) stays sealed; and host_ends, the ends (`end time R`) a host asked a
# board for, noted before they are sent, so that a host that died before the board's `end`
# came back knows it for its own in its next session.
MIGRATE_ADD = (
    ("2", "3", (("games", "date", "TEXT"),)),
    ("3", "4", (("games", "time_control", "TEXT"), ("moves", "clock_ms", "INTEGER"))),
)


TAGS = {"white": "White", "black": "Black", "event": "Event", "site": "Site", "date": "Date"}  # column -> PGN tag


SEQ_MAX = 1 << 30  # the largest message number a board says (docs/protocol.md)


def pgn_date(text: str) -> bool:
    """Is text a PGN Date (YYYY.MM.DD, any part ?? where unknown)?"""
    parts = text.split(".")
    return len(parts) == 3 and all(
        len(p) == n and (p == "?" * n or p.isdigit()) for p, n in zip(parts, (4, 2, 2))
    )


def tag_value_ok(text: str) -> bool:
    """Can text be a PGN tag's value: one line, no control characters (PGN 8.1.1)?"""
    return text.isprintable()


class ArchiveError(Exception):
    """The archive cannot be used: one line a person can act on."""


@dataclass
class GameRow:
    id: int
    board: str
    game: str
    fen: str | None
    started: str
    ended: str | None
    result: str
    reason: str | None
    white_points: int | None
    black_points: int | None
    white: str
    black: str
    event: str
    site: str
    uid: str | None = None
    date: str | None = None  # the PGN Date when set by hand (else the day it started)
    time_control: str | None = None  # PGN TimeControl ('300+3') of a game played on a clock


def result_text(g: GameRow) -> str:
    """A game's result in the one form every listing uses: '1-0 (checkmate)', 'adjourned',
    'in progress' (and the points of a game that has them)."""
    if g.reason == "adjourned" or not g.ended:
        return g.reason or "in progress"
    points = f" {g.white_points}-{g.black_points}" if g.white_points is not None else ""
    return (g.result or "*") + (f" ({g.reason})" if g.reason else "") + points


def default_path() -> Path:
    base = os.environ.get("EBOARD_DATA") or os.path.join(
        os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share"), "eboard"
    )
    return Path(base) / "games.sqlite"


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


def _translate(e: sqlite3.Error, path: Path) -> ArchiveError:
    text = str(e)
    if "disk is full" in text or "disk full" in text:
        return ArchiveError(f"the disk holding {path} is full: free some space; nothing was lost before this")
    if "not a database" in text or "malformed" in text or "file is encrypted" in text:
        return ArchiveError(f"{path} is not a readable game archive (damaged?): move it away and start a new one")
    if "readonly" in text or "unable to open" in text:
        return ArchiveError(f"cannot write {path}: {text}")
    if "locked" in text:
        return ArchiveError(f"{path} is locked by another program")
    return ArchiveError(f"archive {path}: {text}")


def _wal_header_ok(head: bytes) -> bool:
    # sqlite.org/fileformat.html, 4.1: the magic number says the byte order of the
    # checksum, which runs over the first 24 bytes as pairs of 32-bit words.
    magic = int.from_bytes(head[:4], "big")
    if magic not in (0x377F0682, 0x377F0683):
        return False
    order: Literal["big", "little"] = "big" if magic == 0x377F0683 else "little"
    s0 = s1 = 0
    for i in range(0, 24, 8):
        s0 = (s0 + int.from_bytes(head[i : i + 4], order) + s1) & 0xFFFFFFFF
        s1 = (s1 + int.from_bytes(head[i + 4 : i + 8], order) + s0) & 0xFFFFFFFF
    return head[24:28] == s0.to_bytes(4, "big") and head[28:32] == s1.to_bytes(4, "big")


class Archive:
    """One SQLite archive file."""

    def __init__(self, path: str | os.PathLike[str] | None = None, create: bool = True) -> None:
        """create=False (a command that only looks, or looks up a game first): a missing file
        stays missing, and reads as an empty archive."""
        self.path = Path(path) if path is not None else default_path()
        missing = not create and not self.path.exists()
        try:
            if not missing:
                self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ArchiveError(f"cannot create {self.path.parent}: {e.strerror}") from None
        try:
            where = ":memory:" if missing else self.path
            self.db = sqlite3.connect(where, isolation_level=None, timeout=10, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is not None and row[0] == "1":
                self._migrate_1_2()
                row = ("2",)
            for old, new, columns in MIGRATE_ADD:  # schemas 3 and 4: columns added
                if row is not None and row[0] == old:
                    self._add_columns(new, columns)
                    row = (new,)
            self.db.executescript(SCHEMA)
            if row is not None and row[0] == "4":
                self._migrate_4_5()
                row = ("5",)
            if row is None:
                # (OR IGNORE: another process may have made the same archive at the same moment)
                self.db.execute("INSERT OR IGNORE INTO meta VALUES('schema', ?)", (str(SCHEMA_VERSION),))
            elif row[0] != str(SCHEMA_VERSION):
                raise ArchiveError(f"{self.path} has archive schema {row[0]}; this eboard reads {SCHEMA_VERSION}")
        except sqlite3.Error as e:
            raise _translate(e, self.path) from None
        self.identity = self._identity()
        self.forks: dict[int, int] = {}  # archive game -> the game its record forked into

    # ---- the file under us (a long-running serve watches it) --------------------------------

    def _identity(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_dev, st.st_ino

    def gone(self) -> str | None:
        """Why the file this archive has open is no longer at its path (deleted, or
        another file put there), or None.  SQLite goes on writing into the open file:
        whatever is written then is lost when it is closed."""
        now = self._identity()
        if now == self.identity:
            return None
        return f"{self.path} was deleted" if now is None else f"{self.path} was replaced by another file"

    def wal_damaged(self) -> bool:
        """Is the write-ahead log's header damaged?  SQLite reads it only when the archive
        is opened next: then it would drop every change the log holds."""
        try:
            with open(str(self.path) + "-wal", "rb") as f:
                head = f.read(32)
        except OSError:
            return False
        return len(head) == 32 and not _wal_header_ok(head)

    def checkpoint(self) -> bool:
        """Everything in the write-ahead log into the archive file, and the log emptied
        (the connection knows the log's frames without its header); False if busy."""
        row = self._run("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return row is not None and row[0] == 0

    def copy_to(self, path: Path) -> None:
        """The whole archive, as this connection sees it, into a new file at path."""
        try:
            target = sqlite3.connect(path)
            try:
                self.db.backup(target)
            finally:
                target.close()
        except sqlite3.Error as e:
            raise _translate(e, path) from None

    def _add_columns(self, version: str, columns: tuple[tuple[str, str, str], ...]) -> None:
        """Schema `version`: the columns (table, name, type) added where missing, in one transaction."""
        self.db.execute("BEGIN IMMEDIATE")
        for table, name, kind in columns:
            if name not in [c[1] for c in self.db.execute(f"PRAGMA table_info({table})")]:
                self.db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
        self.db.execute("UPDATE meta SET value=? WHERE key='schema'", (version,))
        self.db.execute("COMMIT")

    def _migrate_1_2(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for stmt in MIGRATE_1_2.split(";"):
                if stmt.strip():
                    self.db.execute(stmt)
            self.db.execute("UPDATE meta SET value='2' WHERE key='schema'")
            self.db.execute("COMMIT")
        except sqlite3.Error:
            self.db.execute("ROLLBACK")
            raise

    def _migrate_4_5(self) -> None:
        with self._transaction():
            self.db.execute("INSERT OR IGNORE INTO kriegspiel_adjourned(game_id, actions) SELECT id, NULL FROM games "
                            "WHERE event='Kriegspiel' AND ended IS NULL AND id NOT IN (SELECT game_id FROM kriegspiel)")
            self.db.execute("UPDATE meta SET value='5' WHERE key='schema'")

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction (taken at once: writers wait their turn); rolled back and
        ArchiveError on an SQLite error."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            yield
            self.db.execute("COMMIT")
        except sqlite3.Error as e:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise _translate(e, self.path) from None

    def _run(self, sql: str, args: tuple[object, ...] = ()) -> sqlite3.Cursor:
        try:
            return self.db.execute(sql, args)
        except sqlite3.Error as e:
            raise _translate(e, self.path) from None

    # ---- writing ------------------------------------------------------------------------

    def new_game(self, board: str, game: str, fen: str | None, uid: str | None = None, **tags: str) -> int:
        """A new game on a board (uid: the board's identity of it); the board's
        unfinished game before it is closed."""
        self.drop_empty(board)
        self._run(
            "UPDATE games SET ended=?, reason=COALESCE(reason, 'abandoned') WHERE board=? AND ended IS NULL",
            (_now(), board),
        )
        cur = self._run(
            "INSERT INTO games(board, game, fen, started, white, black, event, site, uid) VALUES(?,?,?,?,?,?,?,?,?)",
            (
                board,
                game,
                fen,
                _now(),
                tags.get("white", "?"),
                tags.get("black", "?"),
                tags.get("event", "Casual game"),
                tags.get("site", "?"),
                uid,
            ),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def current_game(self, board: str) -> GameRow | None:
        row = self._run(
            "SELECT * FROM games WHERE board=? AND ended IS NULL ORDER BY id DESC LIMIT 1", (board,)
        ).fetchone()
        return GameRow(*row) if row else None

    def game_by_uid(self, board: str, uid: str) -> GameRow | None:
        """The board's archived game of that uid (the latest, if its record forked)."""
        row = self._run("SELECT * FROM games WHERE board=? AND uid=? ORDER BY id DESC LIMIT 1", (board, uid)).fetchone()
        return GameRow(*row) if row else None

    def record(self, board: str, seq: int, said: Event, game_id: int | None, uid: str = "",
               trusted: bool = True) -> bool:
        """Store one board message of game uid; False if it was stored before (a message
        sent again).  A move that disagrees with the stored one forks the game: the new
        archive game is then in self.forks[game_id].  An `end` not trusted (a host's end
        that no host here asked for) is stored as said, and its game marked unconfirmed,
        never given its result."""
        with self._transaction():
            cur = self.db.execute(
                "INSERT OR IGNORE INTO events(board, uid, seq, at, game_id, text) VALUES(?,?,?,?,?,?)",
                (board, uid, seq, _now(), game_id, said.text),
            )
            fresh = cur.rowcount == 1
            if fresh and game_id is not None:
                filed = self._apply(game_id, seq, said, trusted)
                if filed != game_id:
                    self.db.execute("UPDATE events SET game_id=? WHERE board=? AND uid=? AND seq=?", (filed, board, uid, seq))
        return fresh

    def _apply(self, game_id: int, seq: int, said: Event, trusted: bool = True) -> int:
        """Apply a message to its game; returns the game it was filed in (a fork's)."""
        if isinstance(said, Move):
            old = self.db.execute("SELECT move FROM moves WHERE game_id=? AND ply=?", (game_id, said.ply)).fetchone()
            if old is not None and old[0] != said.move:
                game_id = self._fork(game_id, said.ply)
            self.db.execute(
                "INSERT OR IGNORE INTO moves(game_id, ply, move, seq, at) VALUES(?,?,?,?,?)",
                (game_id, said.ply, said.move, seq, _now()),
            )
            # An adjourned game played on (its board followed again): no longer adjourned.
            self.db.execute("UPDATE games SET reason=NULL WHERE id=? AND ended IS NULL AND reason='adjourned'", (game_id,))
        elif isinstance(said, Undo):
            self.db.execute("DELETE FROM moves WHERE game_id=? AND ply>=?", (game_id, said.ply))
            # A takeback after the rules' end (the board allows it) reopens the game: the result
            # of a position no longer on the board is no longer the game's. A host's end (a
            # fallen flag) stands: the board stays over.
            kept = ("diverged", "abandoned", *HOST_ENDS)
            self.db.execute("UPDATE games SET ended=NULL, reason=NULL, result='*', white_points=NULL, "
                            f"black_points=NULL WHERE id=? AND ended IS NOT NULL AND COALESCE(reason, '') NOT IN "
                            f"({', '.join('?' * len(kept))})", (game_id, *kept))
        elif isinstance(said, End) and not trusted:
            self.db.execute("UPDATE games SET reason=? WHERE id=? AND ended IS NULL",
                            (f"unconfirmed {said.what}", game_id))
        elif isinstance(said, End):
            w, b = said.points if said.points is not None else (None, None)
            self.db.execute(
                "UPDATE games SET ended=?, reason=?, result=?, white_points=?, black_points=? WHERE id=?",
                (_now(), said.reason, said.result, w, b, game_id),
            )
        return game_id

    def _fork(self, game_id: int, ply: int) -> int:
        # The board's record and the archive's part ways at ply: the archived game stays
        # as it is; a new game gets the plies before it (and what comes next).
        row = self.db.execute("SELECT board, game, fen, uid FROM games WHERE id=?", (game_id,)).fetchone()
        self.db.execute("UPDATE games SET ended=COALESCE(ended, ?), reason=COALESCE(reason, 'diverged') WHERE id=?",
                        (_now(), game_id))
        cur = self.db.execute("INSERT INTO games(board, game, fen, started, uid) VALUES(?,?,?,?,?)",
                              (row[0], row[1], row[2], _now(), row[3]))
        fork = cur.lastrowid
        assert fork is not None
        self.db.execute("INSERT INTO moves(game_id, ply, move, seq, at, clock_ms) "
                        "SELECT ?, ply, move, seq, at, clock_ms FROM moves WHERE game_id=? AND ply<?", (fork, game_id, ply))
        self.forks[game_id] = fork
        return fork

    def add_kriegspiel(self, board: str, game: str, fen: str | None, record: dict[str, object],
                       result: str, reason: str, game_id: int | None = None) -> int:
        """A finished Kriegspiel game: its true moves, and the umpire's full record with
        both scoresheets (a JSON object), stored only once the game is over; game_id: the
        adjourned game it ends (resumed), else a new one."""
        import json

        if game_id is None:
            game_id = self.new_game(board, game, fen, event="Kriegspiel")
        moves = record.get("moves", [])
        assert isinstance(moves, list)
        with self._transaction():
            self._put_moves(game_id, moves)
            self.db.execute("UPDATE games SET ended=?, result=?, reason=? WHERE id=?", (_now(), result, reason, game_id))
            self.db.execute("INSERT INTO kriegspiel(game_id, record) VALUES(?,?)",
                            (game_id, json.dumps(record, ensure_ascii=False)))
            self.db.execute("DELETE FROM kriegspiel_adjourned WHERE game_id=?", (game_id,))
        return game_id

    def kriegspiel_adjourn(self, game_id: int, moves: list[str], opening: bool, actions: list[str]) -> None:
        """An adjourned Kriegspiel game: its true moves so far (sealed), and the umpire's
        actions (attempts, asks), from which `kriegspiel --sim --resume` rebuilds the match."""
        import json

        with self._transaction():
            self._put_moves(game_id, moves)
            self.db.execute("INSERT OR REPLACE INTO kriegspiel_adjourned(game_id, opening, actions) VALUES(?,?,?)",
                            (game_id, int(opening), json.dumps(actions)))
            self.db.execute("UPDATE games SET reason='adjourned' WHERE id=? AND ended IS NULL", (game_id,))

    def kriegspiel_adjourned(self, game_id: int) -> dict[str, Any] | None:
        """{'opening': bool, 'actions': [...] or None (adjourned by an eboard that kept none)}
        of an adjourned Kriegspiel game, or None if it is not one."""
        import json

        row = self._run("SELECT opening, actions FROM kriegspiel_adjourned WHERE game_id=?", (game_id,)).fetchone()
        if row is None:
            return None
        return {"opening": bool(row[0]), "actions": None if row[1] is None else json.loads(row[1])}

    # ---- a Kriegspiel game in progress (the umpire's, so that a restarted umpire resumes it) ----

    def kriegspiel_live_new(self, white: str, black: str, game: str, fen: str, opening: bool) -> int:
        """A Kriegspiel game begins between two boards (their ids); an unfinished one of
        theirs before it is abandoned."""
        import json

        self._run("UPDATE kriegspiel_live SET ended=?, how='abandoned' WHERE white=? AND black=? AND ended IS NULL",
                  (_now(), white, black))
        cur = self._run(
            "INSERT INTO kriegspiel_live(white, black, game, fen, opening, actions, started, updated)"
            " VALUES(?,?,?,?,?,?,?,?)", (white, black, game, fen, int(opening), json.dumps([]), _now(), _now()))
        assert cur.lastrowid is not None
        return cur.lastrowid

    def kriegspiel_live_save(self, live_id: int, actions: list[str]) -> None:
        """Every action the umpire has taken (an attempt, ask, resign): from them and the
        start, the match is rebuilt exactly."""
        import json

        self._run("UPDATE kriegspiel_live SET actions=?, updated=? WHERE id=?", (json.dumps(actions), _now(), live_id))

    def kriegspiel_live(self, white: str, black: str) -> dict[str, Any] | None:
        """The unfinished Kriegspiel game between these boards, or None."""
        cur = self._run("SELECT * FROM kriegspiel_live WHERE white=? AND black=? AND ended IS NULL"
                        " ORDER BY id DESC LIMIT 1", (white, black))
        row = cur.fetchone()
        return dict(zip([d[0] for d in cur.description], row)) if row else None

    def kriegspiel_live_end(self, live_id: int, how: str) -> None:
        self._run("UPDATE kriegspiel_live SET ended=?, how=? WHERE id=?", (_now(), how, live_id))

    def drop_empty(self, board: str) -> None:
        """Forget the board's unfinished games with no move from the usual start (a
        board's boot game, a game started and left at once): the archive holds games, not
        noise.  A game from a position of its own (a FEN, a screened set-up) is kept."""
        for (game_id,) in self._run("SELECT id FROM games WHERE board=? AND ended IS NULL AND reason IS NULL AND fen IS NULL "
                                "AND NOT EXISTS (SELECT 1 FROM moves WHERE game_id=games.id) "
                                "AND NOT EXISTS (SELECT 1 FROM kriegspiel WHERE game_id=games.id)", (board,)).fetchall():
            self.delete(game_id)

    def delete(self, game_id: int) -> None:
        """Remove a game and its moves (its board's messages stay, filed under no game);
        ArchiveError if there is no such game."""
        with self._transaction():
            self.db.execute("UPDATE events SET game_id=NULL WHERE game_id=?", (game_id,))
            self.db.execute("DELETE FROM moves WHERE game_id=?", (game_id,))
            self.db.execute("DELETE FROM kriegspiel WHERE game_id=?", (game_id,))
            self.db.execute("DELETE FROM kriegspiel_adjourned WHERE game_id=?", (game_id,))
            gone = self.db.execute("DELETE FROM games WHERE id=?", (game_id,)).rowcount
        if gone != 1:
            raise ArchiveError(f"no game {game_id} in {self.path}")

    def adjourn(self, game_id: int) -> bool:
        """A game left unfinished on purpose (`quit`): adjourned, to be resumed
        (`eboard play --resume ID`), not in progress forever.  False if it was not
        unfinished (or had no move from the usual start: then it is not kept at all)."""
        row = self._run("SELECT board FROM games WHERE id=? AND ended IS NULL AND fen IS NULL", (game_id,)).fetchone()
        if row is not None and not self.moves(game_id):
            self.drop_empty(row[0])
            return False
        cur = self._run("UPDATE games SET reason='adjourned' WHERE id=? AND ended IS NULL AND reason IS NULL", (game_id,))
        return cur.rowcount == 1

    def finish(self, game_id: int, result: str, reason: str) -> bool:
        """A game that ended off the board (an online game resigned, drawn by agreement,
        aborted, abandoned): its result and reason ("resign", "agreement", "aborted" ...;
        pgn.TERMINATION says which Termination each is).  False if it had ended already."""
        if result not in ("1-0", "0-1", "1/2-1/2", "*"):
            raise ArchiveError(f"a result is 1-0, 0-1, 1/2-1/2 or *, not {result!r}")
        cur = self._run("UPDATE games SET ended=?, result=?, reason=? WHERE id=? AND ended IS NULL",
                        (_now(), result, reason, game_id))
        return cur.rowcount == 1

    def resumed(self, game_id: int, board: str, uid: str) -> None:
        """An adjourned game goes on as the board's game uid (on that board, or another)."""
        self._run("UPDATE games SET board=?, uid=?, ended=NULL, reason=NULL WHERE id=?", (board, uid, game_id))

    def kriegspiel_ids(self) -> set[int]:
        """The ids of the Kriegspiel games: those with the umpire's record, and the adjourned
        ones (their record is not released: they are sealed), whatever their tags say."""
        rows = self._run("SELECT game_id FROM kriegspiel UNION SELECT game_id FROM kriegspiel_adjourned").fetchall()
        return {int(r[0]) for r in rows}

    def sealed(self, g: GameRow) -> bool:
        """True for a Kriegspiel game not over: its moves are the umpire's, told to nobody
        until the game ends (kriegspiel.md §10, L20)."""
        return g.ended is None and g.id in self.kriegspiel_ids()

    def kriegspiel_record(self, game_id: int) -> dict[str, object] | None:
        import json

        row = self._run("SELECT record FROM kriegspiel WHERE game_id=?", (game_id,)).fetchone()
        return json.loads(row[0]) if row else None

    def add_moves(self, game_id: int, moves: list[str]) -> None:
        """Moves known from the board's own history (a game found in progress): only
        onto plies not stored yet (the caller checks that they extend the record)."""
        with self._transaction():
            self._put_moves(game_id, moves)

    def _put_moves(self, game_id: int, moves: list[str]) -> None:
        for ply, move in enumerate(moves, 1):
            self.db.execute("INSERT OR IGNORE INTO moves(game_id, ply, move, seq, at) VALUES(?,?,?,NULL,?)",
                            (game_id, ply, move, _now()))

    def set_clock(self, game_id: int, ply: int, ms: int) -> None:
        """The mover's time left (ms) after move `ply` of the game (a stored move)."""
        self._run("UPDATE moves SET clock_ms=? WHERE game_id=? AND ply=?", (ms, game_id, ply))

    def set_time_control(self, game_id: int, control: str) -> None:
        """The game's PGN TimeControl ('300+3': seconds, + the increment)."""
        self._run("UPDATE games SET time_control=? WHERE id=?", (control, game_id))

    def clocks(self, game_id: int) -> dict[int, int]:
        """ply -> the mover's time left (ms) after it, for the moves that have one."""
        return dict(self._run("SELECT ply, clock_ms FROM moves WHERE game_id=? AND clock_ms IS NOT NULL", (game_id,)))

    def vouch(self, board: str, uid: str, what: str) -> None:
        """A host here asks the board for the end `what` ('time 1-0') of its game uid."""
        self._run("INSERT OR IGNORE INTO host_ends(board, uid, what, at) VALUES(?,?,?,?)", (board, uid, what, _now()))

    def vouched(self, board: str, uid: str, what: str) -> bool:
        """Did a host here ask the board for that end of that game (in any session)?"""
        row = self._run("SELECT 1 FROM host_ends WHERE board=? AND uid=? AND what=?", (board, uid, what)).fetchone()
        return row is not None

    def has_event(self, board: str, seq: int, uid: str = "") -> bool:
        row = self._run("SELECT 1 FROM events WHERE board=? AND uid=? AND seq=?", (board, uid, seq)).fetchone()
        return row is not None

    def game_last_seq(self, game_id: int) -> int:
        """The highest message number stored for the archive game (0: none)."""
        # (a number above SEQ_MAX, stored by an older host, would make `since` refused for ever)
        row = self._run("SELECT MAX(seq) FROM events WHERE game_id=? AND seq<=?", (game_id, SEQ_MAX)).fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    def set_tag(self, game_id: int, name: str, value: str) -> None:
        """Set a game's White, Black, Event, Site or Date (any case; a Date as PGN writes it,
        YYYY.MM.DD with ?? for what is not known); ArchiveError for another name, a malformed
        Date, or no such game."""
        column = name.lower()
        if column not in TAGS:
            raise ArchiveError(f"no tag {name!r}: the tags that can be set are {', '.join(TAGS.values())}")
        if not tag_value_ok(value):
            raise ArchiveError(f"a {TAGS[column]} is one line of text, without control characters: not {value!r}")
        if column == "date" and not pgn_date(value):
            raise ArchiveError(f"a Date is YYYY.MM.DD, with ?? for what is not known (2026.11.22, 1934.??.??), not {value!r}")
        if self._run("UPDATE games SET " + column + "=? WHERE id=?", (value, game_id)).rowcount != 1:
            raise ArchiveError(f"no game {game_id} in {self.path}")

    # ---- reading ------------------------------------------------------------------------

    def games(self) -> list[GameRow]:
        return [GameRow(*r) for r in self._run("SELECT * FROM games ORDER BY id")]

    def game(self, ref: str) -> GameRow:
        """A game by id, or "last"; ArchiveError if there is no such game."""
        if ref == "last":
            row = self._run("SELECT * FROM games ORDER BY id DESC LIMIT 1").fetchone()
        elif ref.isascii() and ref.isdigit() and int(ref) < 2**63:  # (SQLite's integers are 64-bit)
            row = self._run("SELECT * FROM games WHERE id=?", (int(ref),)).fetchone()
        else:
            raise ArchiveError(f"{ref!r} is not a game id (a number, or 'last')")
        if row is None:
            raise ArchiveError(f"no game {ref} in {self.path}" if ref != "last" else f"no games in {self.path}")
        return GameRow(*row)

    def moves(self, game_id: int) -> list[str]:
        return [r[0] for r in self._run("SELECT move FROM moves WHERE game_id=? ORDER BY ply", (game_id,))]

    def events(self, board: str) -> list[tuple[int, str]]:
        return list(self._run("SELECT seq, text FROM events WHERE board=? ORDER BY seq", (board,)))
