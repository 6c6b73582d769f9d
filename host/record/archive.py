"""The game archive: every board message and every game, as it happens, in SQLite (WAL) or,
for a hall of hosts, PostgreSQL (store.py: where the two differ).

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
Schema 6: clocks_kept (a clock game's control and both times left, as of its last move or its
adjournment: `play --resume` goes on with them), tags (the PGN tags of a game beyond the
columns: Round, Board, WhiteType, ...: one row a tag) and opponents (the computer's side,
engine, level and time a move in a game played against it: `play --resume` plays it again).
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

from firmware.rules.game import AFTER_OPENING
from firmware.terms import KEPT_ENDS
from host.link import End, Event, Move, Undo
from host.record.store import Store, is_url, shown

SCHEMA_VERSION = 6
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
    id {id},
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
    id {id},
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
CREATE TABLE IF NOT EXISTS clocks_kept(
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    control TEXT NOT NULL,
    white_ms INTEGER NOT NULL,
    black_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tags(
    game_id INTEGER NOT NULL REFERENCES games(id),
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY(game_id, name)
);
CREATE TABLE IF NOT EXISTS opponents(
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    side TEXT NOT NULL,
    engine TEXT NOT NULL,
    level INTEGER,
    movetime_ms INTEGER
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
# The PGN tags a game may be given beyond the columns (the tags table): the round and board
# of a club's evening, and the standard's supplemental tags a club files (PGN 9).
OWN_TAGS = ("Round", "Board", "WhiteElo", "BlackElo", "WhiteTitle", "BlackTitle", "WhiteTeam", "BlackTeam",
            "WhiteType", "BlackType", "Annotator", "Section", "Stage", "Opening", "ECO", "LichessId")
# The tags the archive writes itself, from the game (its result, start, clock): never set by hand.
DERIVED = ("Result", "FEN", "SetUp", "Variant", "Termination", "TimeControl", "WhitePoints", "BlackPoints",
           "Mode", "PlyCount")


# A game from its usual start: no FEN, or the one the board begins it from by itself
# (courier's traditional opening, played by the board: AFTER_OPENING).
USUAL_START = "(fen IS NULL OR fen IN (" + ", ".join("?" * len(AFTER_OPENING)) + "))"
SEQ_MAX = 1 << 30  # the largest message number a board says (docs/protocol.md)
STARTS = "(text LIKE 'newgame %' OR text LIKE 'position %')"  # the events that begin a game


def pgn_date(text: str) -> bool:
    """Is text a PGN Date (YYYY.MM.DD, any part ?? where unknown)?"""
    parts = text.split(".")
    return len(parts) == 3 and all(
        len(p) == n and (p == "?" * n or p.isdigit()) for p, n in zip(parts, (4, 2, 2))
    )


def tag_value_ok(text: str) -> bool:
    """Can text be a PGN tag's value: one line, no control characters (PGN 8.1.1)?"""
    return text.isprintable()


SQLITE_HEAD = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database file


class ArchiveError(Exception):
    """The archive cannot be used: one line a person can act on."""


def own_tag(name: str, value: str) -> str:
    """A tag of the archive's tags table (Round, Board, or another of OWN_TAGS),
    checked: its name as PGN spells it; ArchiveError in words for a name or value refused."""
    import re

    known = {n.lower(): n for n in OWN_TAGS}
    if name.lower() not in known:
        raise ArchiveError(f"no tag {name!r}: the tags that can be set are {', '.join(TAGS.values())}, "
                           f"{', '.join(OWN_TAGS)} (eboard writes {', '.join(DERIVED)} itself)")
    name = known[name.lower()]
    if not tag_value_ok(value):
        raise ArchiveError(f"a {name} is one line of text, without control characters: not {value!r}")
    if name == "Round" and value and not re.fullmatch(r"\?|-|[0-9]{1,6}(\.[0-9]{1,6})*", value):
        raise ArchiveError(f"a Round is a number (3), a round and its game (3.1), ? or -: not {value!r}")
    if name == "Board" and value and not re.fullmatch(r"[1-9][0-9]{0,5}", value):
        raise ArchiveError(f"a Board is a number from 1: not {value!r}")
    return name


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


def _translate(e: BaseException, name: str) -> ArchiveError:
    """A database's error (SQLite's or PostgreSQL's) as one line a person can act on."""
    text = str(e).strip().split("\n")[0]
    if type(e).__module__.startswith("psycopg"):
        return _translate_postgresql(e, text, name)
    if "disk is full" in text or "disk full" in text:
        return ArchiveError(f"the disk holding {name} is full: free some space; nothing was lost before this")
    if "not a database" in text or "malformed" in text or "file is encrypted" in text:
        return ArchiveError(f"{name} is not a readable game archive (damaged?): move it away and start a new one")
    if "readonly" in text or "unable to open" in text:
        return ArchiveError(f"cannot write {name}: {text}")
    if "locked" in text:
        return ArchiveError(f"{name} is locked by another program")
    return ArchiveError(f"archive {name}: {text}")


def _translate_postgresql(e: BaseException, text: str, name: str) -> ArchiveError:
    state = getattr(e, "sqlstate", None) or ""
    if text.startswith("connection failed: "):  # (libpq's: the server's own words come last)
        text = text.rsplit(" failed: ", 1)[-1].replace("FATAL:  ", "")
        if "authentication" in text or "does not exist" in text:
            state = "28000"
    if state == "53100":  # disk_full
        return ArchiveError(f"the disk of the PostgreSQL server of {name} is full: free some space there; "
                            "nothing was lost before this")
    if state.startswith("28"):  # invalid authorization: a user or password refused
        return ArchiveError(f"the PostgreSQL server refuses {name}: {text} (the URL's user, password and "
                            "database; or PGPASSWORD, ~/.pgpass)")
    if state == "42501":
        return ArchiveError(f"cannot write {name}: {text} (the user needs the right to create and write tables)")
    if state in ("", "08000", "08001", "08003", "08006", "57P01", "57P02", "57P03") and "Operational" in type(e).__name__:
        return ArchiveError(f"cannot reach the PostgreSQL archive {name}: {text}")
    return ArchiveError(f"archive {name}: {text}")


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
    """One archive: an SQLite file (the default), or a PostgreSQL database that several
    hosts write at once (a postgresql:// URL); the same schema, SQL and behaviour."""

    def __init__(self, path: str | os.PathLike[str] | None = None, create: bool = True) -> None:
        """create=False (a command that only looks, or looks up a game first): a missing file
        stays missing, and reads as an empty archive (so does a database without one)."""
        self.forks: dict[int, int] = {}  # archive game -> the game its record forked into
        if is_url(path):
            self._open_postgresql(str(path), create)
            self.identity = None
            return
        self.path = Path(path) if path is not None else default_path()
        self.name = str(self.path)  # as messages show it
        missing = not create and not self.path.exists()
        try:
            if not missing:
                self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ArchiveError(f"cannot create {self.path.parent}: {e.strerror}") from None
        if not missing:
            self._refuse_other_files()
        try:
            self.db = Store.sqlite(":memory:" if missing else self.path,
                                   check=None if missing else self._refuse_other_databases)
            self._schema()
        except sqlite3.Error as e:
            raise _translate(e, self.name) from None
        self.identity = self._identity()

    def _open_postgresql(self, url: str, create: bool) -> None:
        self.path = url  # (to open it again: with its password, never shown)
        self.name = shown(url)
        try:
            self.db = Store.postgresql(url)
        except ModuleNotFoundError as e:
            raise ArchiveError(str(e)) from None
        except Exception as e:  # psycopg's errors (its module may not be importable here)
            raise _translate(e, self.name) from None
        try:
            if self.db.has_table("meta") and self._version() == str(SCHEMA_VERSION):
                return  # (no DDL at all: it would wait for, or deadlock with, the hosts writing)
            # Several hosts starting at once make the schema one at a time.
            with self.db.transaction(lock="eboard archive schema"):
                if not create and not self.db.has_table("meta"):
                    self.db.execute("SET search_path TO pg_temp")  # read as empty, nothing made
                self._schema()
        except self.db.errors as e:
            raise _translate(e, self.name) from None

    def _version(self) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        return None if row is None else str(row[0])

    def _schema(self) -> None:
        """The tables made, or an older archive's brought up to this schema."""
        self.db.execute("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is not None and row[0] == "1":
            self._migrate_1_2()
            row = ("2",)
        for old, new, columns in MIGRATE_ADD:  # schemas 3 and 4: columns added
            if row is not None and row[0] == old:
                self._add_columns(new, columns)
                row = (new,)
        self.db.script(self.db.ddl(SCHEMA))
        if row is not None and row[0] == "4":
            self._migrate_4_5()
            row = ("5",)
        if row is not None and row[0] == "5":  # 5 -> 6: the tables clocks_kept, tags and opponents, made above
            self._run("UPDATE meta SET value='6' WHERE key='schema'")
            row = ("6",)
        if row is None:
            # (no conflict: another process may have made the same archive at the same moment)
            self.db.execute("INSERT INTO meta VALUES('schema', ?) ON CONFLICT DO NOTHING", (str(SCHEMA_VERSION),))
        elif row[0] != str(SCHEMA_VERSION):
            raise ArchiveError(f"{self.name} has archive schema {row[0]}; this eboard reads {SCHEMA_VERSION}")

    @property
    def shared(self) -> bool:
        """Do several hosts write this archive (PostgreSQL)?  Then a board is known by its
        own id only, never by a port's name alone (every host has a /dev/ttyACM0)."""
        return self.db.kind != "sqlite"

    @property
    def folder(self) -> Path:
        """The folder beside the archive file, where a host keeps files of its own (for a
        PostgreSQL archive, the default archive's folder on this host)."""
        return self.path.parent if isinstance(self.path, Path) else default_path().parent

    def _refuse_other_files(self) -> None:
        """ArchiveError, before SQLite touches it, for a file that is there and not empty but
        not an SQLite database (SQLite made a 1-byte file an archive, its byte lost)."""
        try:
            with open(self.path, "rb") as f:
                head = f.read(len(SQLITE_HEAD))
        except FileNotFoundError:
            return
        except IsADirectoryError:
            raise ArchiveError(f"{self.path} is a folder, not a game archive") from None
        except OSError as e:
            raise ArchiveError(f"cannot read {self.path}: {e.strerror}") from None
        if head and head != SQLITE_HEAD:
            raise ArchiveError(f"{self.path} is not a readable game archive (not an SQLite file): it was left as it is; "
                               "give an archive's path, or a new file's")

    def _refuse_other_databases(self, conn: sqlite3.Connection) -> None:
        """ArchiveError for an SQLite database with tables but none of an archive's (our
        tables must not be written into another program's database)."""
        # (meta is the first table an archive makes: another host making this archive at
        # this moment may have made it and no other yet)
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if tables and "meta" not in tables:
            raise ArchiveError(f"{self.path} is an SQLite database but not a game archive: it was left as it is")

    # ---- the file under us (a long-running serve watches it) --------------------------------

    def _identity(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_dev, st.st_ino

    def gone(self) -> str | None:
        """Why the file this archive has open is no longer at its path (deleted, or
        another file put there), or None (always, for a PostgreSQL archive: no file here).
        SQLite goes on writing into the open file: whatever is written then is lost when
        it is closed."""
        if self.db.kind != "sqlite":
            return None
        now = self._identity()
        if now == self.identity:
            return None
        return f"{self.path} was deleted" if now is None else f"{self.path} was replaced by another file"

    def wal_damaged(self) -> bool:
        """Is the write-ahead log's header damaged?  SQLite reads it only when the archive
        is opened next: then it would drop every change the log holds."""
        if self.db.kind != "sqlite":
            return False
        try:
            with open(str(self.path) + "-wal", "rb") as f:
                head = f.read(32)
        except OSError:
            return False
        return len(head) == 32 and not _wal_header_ok(head)

    def checkpoint(self) -> bool:
        """Everything in the write-ahead log into the archive file, and the log emptied
        (the connection knows the log's frames without its header); False if busy."""
        if self.db.kind != "sqlite":
            return True
        row = self._run("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return row is not None and row[0] == 0

    def copy_to(self, path: Path) -> None:
        """The whole archive, as this connection sees it, into a new file at path (SQLite)."""
        if self.db.kind != "sqlite":
            raise ArchiveError(f"{self.name} is a PostgreSQL archive: copy it with pg_dump")
        try:
            target = sqlite3.connect(path)
            try:
                self.db.conn.backup(target)
            finally:
                target.close()
        except sqlite3.Error as e:
            raise _translate(e, str(path)) from None

    def _add_columns(self, version: str, columns: tuple[tuple[str, str, str], ...]) -> None:
        """Schema `version`: the columns (table, name, type) added where missing, in one transaction."""
        with self.db.transaction():
            for table, name, kind in columns:
                if name not in self.db.columns(table):
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
            self.db.execute("UPDATE meta SET value=? WHERE key='schema'", (version,))

    def _migrate_1_2(self) -> None:
        with self.db.transaction():
            for stmt in MIGRATE_1_2.split(";"):
                if stmt.strip():
                    self.db.execute(stmt)
            self.db.execute("UPDATE meta SET value='2' WHERE key='schema'")

    def _migrate_4_5(self) -> None:
        with self._transaction():
            self.db.execute("INSERT INTO kriegspiel_adjourned(game_id, actions) SELECT id, NULL FROM games "
                            "WHERE event='Kriegspiel' AND ended IS NULL AND id NOT IN (SELECT game_id FROM kriegspiel) "
                            "ON CONFLICT DO NOTHING")
            self.db.execute("UPDATE meta SET value='5' WHERE key='schema'")

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction (SQLite: taken at once, writers wait their turn); rolled
        back and ArchiveError on a database error."""
        try:
            with self.db.transaction():
                yield
        except self.db.errors as e:
            raise _translate(e, self.name) from None

    def _run(self, sql: str, args: tuple[object, ...] = ()) -> Any:
        try:
            return self.db.execute(sql, args)
        except self.db.errors as e:
            raise _translate(e, self.name) from None

    def _insert(self, sql: str, args: tuple[object, ...]) -> int:
        """An INSERT of one row; its id."""
        try:
            return self.db.insert(sql, args)
        except self.db.errors as e:
            raise _translate(e, self.name) from None

    # ---- writing ------------------------------------------------------------------------

    def new_game(self, board: str, game: str, fen: str | None, uid: str | None = None, **tags: str) -> int:
        """A new game on a board (uid: the board's identity of it); the board's
        unfinished game before it is closed."""
        self.drop_empty(board)
        self._run(
            "UPDATE games SET ended=?, reason=COALESCE(reason, 'abandoned') WHERE board=? AND ended IS NULL",
            (_now(), board),
        )
        return self._insert(
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
                "INSERT INTO events(board, uid, seq, at, game_id, text) VALUES(?,?,?,?,?,?) ON CONFLICT DO NOTHING",
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
                "INSERT INTO moves(game_id, ply, move, seq, at) VALUES(?,?,?,?,?) ON CONFLICT DO NOTHING",
                (game_id, said.ply, said.move, seq, _now()),
            )
            # An adjourned game played on (its board followed again): no longer adjourned.
            self.db.execute("UPDATE games SET reason=NULL WHERE id=? AND ended IS NULL AND reason='adjourned'", (game_id,))
        elif isinstance(said, Undo):
            self.db.execute("DELETE FROM moves WHERE game_id=? AND ply>=?", (game_id, said.ply))
            # A takeback after the rules' end (the board allows it) reopens the game: the result
            # of a position no longer on the board is no longer the game's. A host's end (a
            # fallen flag) stands: the board stays over.
            kept = ("diverged", "abandoned", *KEPT_ENDS)
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
        fork = self.db.insert("INSERT INTO games(board, game, fen, started, uid) VALUES(?,?,?,?,?)",
                              (row[0], row[1], row[2], _now(), row[3]))
        self.db.execute("INSERT INTO moves(game_id, ply, move, seq, at, clock_ms) "
                        "SELECT ?, ply, move, seq, at, clock_ms FROM moves WHERE game_id=? AND ply<?", (fork, game_id, ply))
        for table, cols in (("tags", "name, value"), ("opponents", "side, engine, level, movetime_ms")):
            self.db.execute(f"INSERT INTO {table}(game_id, {cols}) SELECT ?, {cols} FROM {table} WHERE game_id=? "
                            "ON CONFLICT DO NOTHING", (fork, game_id))
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
            self.db.execute("DELETE FROM clocks_kept WHERE game_id=?", (game_id,))
        return game_id

    def kriegspiel_adjourn(self, game_id: int, moves: list[str], opening: bool, actions: list[str]) -> None:
        """An adjourned Kriegspiel game: its true moves so far (sealed), and the umpire's
        actions (attempts, asks), from which `kriegspiel --sim --resume` rebuilds the match."""
        import json

        with self._transaction():
            self._put_moves(game_id, moves)
            self.db.execute("INSERT INTO kriegspiel_adjourned(game_id, opening, actions) VALUES(?,?,?) ON CONFLICT(game_id) "
                            "DO UPDATE SET opening=excluded.opening, actions=excluded.actions",
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
        return self._insert(
            "INSERT INTO kriegspiel_live(white, black, game, fen, opening, actions, started, updated)"
            " VALUES(?,?,?,?,?,?,?,?)", (white, black, game, fen, int(opening), json.dumps([]), _now(), _now()))

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
        for (game_id,) in self._run("SELECT id FROM games WHERE board=? AND ended IS NULL AND reason IS NULL AND "
                                    f"{USUAL_START} AND NOT EXISTS (SELECT 1 FROM moves WHERE game_id=games.id) "
                                    "AND NOT EXISTS (SELECT 1 FROM kriegspiel WHERE game_id=games.id)",
                                    (board, *AFTER_OPENING.values())).fetchall():
            self.delete(game_id)

    def drop_unplayed(self, game_id: int) -> bool:
        """Forget the game if no move of it was made from its usual start, even if it ended
        (a flag fallen, a resignation before the first move): True if it was forgotten."""
        row = self._run(f"SELECT 1 FROM games WHERE id=? AND {USUAL_START} AND NOT EXISTS (SELECT 1 FROM moves "
                        "WHERE game_id=games.id) AND NOT EXISTS (SELECT 1 FROM kriegspiel WHERE game_id=games.id) "
                        "AND NOT EXISTS (SELECT 1 FROM kriegspiel_adjourned WHERE game_id=games.id)",
                        (game_id, *AFTER_OPENING.values())).fetchone()
        if row is None:
            return False
        self.delete(game_id)
        return True

    def delete(self, game_id: int) -> None:
        """Remove a game and its moves (its board's messages stay, filed under no game);
        ArchiveError if there is no such game."""
        with self._transaction():
            self.db.execute("UPDATE events SET game_id=NULL WHERE game_id=?", (game_id,))
            self.db.execute("DELETE FROM moves WHERE game_id=?", (game_id,))
            self.db.execute("DELETE FROM kriegspiel WHERE game_id=?", (game_id,))
            self.db.execute("DELETE FROM kriegspiel_adjourned WHERE game_id=?", (game_id,))
            self.db.execute("DELETE FROM tags WHERE game_id=?", (game_id,))
            self.db.execute("DELETE FROM opponents WHERE game_id=?", (game_id,))
            gone = self.db.execute("DELETE FROM games WHERE id=?", (game_id,)).rowcount
        if gone != 1:
            raise ArchiveError(f"no game {game_id} in {self.name}")

    def adjourn(self, game_id: int) -> bool:
        """A game left unfinished on purpose (`quit`): adjourned, to be resumed
        (`eboard play --resume ID`), not in progress forever.  False if it was not
        unfinished (or had no move from the usual start: then it is not kept at all)."""
        row = self._run(f"SELECT board FROM games WHERE id=? AND ended IS NULL AND {USUAL_START}",
                        (game_id, *AFTER_OPENING.values())).fetchone()
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
            self.db.execute("INSERT INTO moves(game_id, ply, move, seq, at) VALUES(?,?,?,NULL,?) ON CONFLICT DO NOTHING",
                            (game_id, ply, move, _now()))

    def set_clock(self, game_id: int, ply: int, ms: int) -> None:
        """The mover's time left (ms) after move `ply` of the game (a stored move)."""
        self._run("UPDATE moves SET clock_ms=? WHERE game_id=? AND ply=?", (ms, game_id, ply))

    def set_time_control(self, game_id: int, control: str) -> None:
        """The game's PGN TimeControl ('300+3': seconds, + the increment)."""
        self._run("UPDATE games SET time_control=? WHERE id=?", (control, game_id))

    def keep_clock(self, game_id: int, control: str, white_ms: int, black_ms: int) -> None:
        """A clock game's control ('5+3', '5d3') and both times left, kept (at each move and
        at its adjournment) for `play --resume`."""
        self._run("INSERT INTO clocks_kept(game_id, control, white_ms, black_ms) VALUES(?,?,?,?) "
                  "ON CONFLICT(game_id) DO UPDATE SET control=excluded.control, white_ms=excluded.white_ms, "
                  "black_ms=excluded.black_ms", (game_id, control, white_ms, black_ms))

    def kept_clock(self, game_id: int) -> dict[str, Any] | None:
        """keep_clock's record of the game ({"control", "white", "black"}), or None."""
        row = self._run("SELECT control, white_ms, black_ms FROM clocks_kept WHERE game_id=?", (game_id,)).fetchone()
        return {"control": row[0], "white": int(row[1]), "black": int(row[2])} if row else None

    def clocks(self, game_id: int) -> dict[int, int]:
        """ply -> the mover's time left (ms) after it, for the moves that have one."""
        return dict(self._run("SELECT ply, clock_ms FROM moves WHERE game_id=? AND clock_ms IS NOT NULL", (game_id,)))

    def vouch(self, board: str, uid: str, what: str) -> None:
        """A host here asks the board for the end `what` ('time 1-0') of its game uid."""
        self._run("INSERT INTO host_ends(board, uid, what, at) VALUES(?,?,?,?) ON CONFLICT DO NOTHING", (board, uid, what, _now()))

    def vouched(self, board: str, uid: str, what: str) -> bool:
        """Did a host here ask the board for that end of that game (in any session)?"""
        row = self._run("SELECT 1 FROM host_ends WHERE board=? AND uid=? AND what=?", (board, uid, what)).fetchone()
        return row is not None

    def has_event(self, board: str, seq: int, uid: str = "") -> bool:
        row = self._run("SELECT 1 FROM events WHERE board=? AND uid=? AND seq=?", (board, uid, seq)).fetchone()
        return row is not None

    def game_last_seq(self, game_id: int) -> int:
        """The message number to ask `since` for, to fetch what the archive lacks of the game:
        that of its last move stored with every move before it (the moves from ply 1 without a
        gap), else that of its start (`newgame`, `position`), else 0 (everything the board has);
        but if its start is not stored, that of the board's last message stored before the
        game's first one, if any (what came between may be missing too).

        Never the highest number stored: a host files what the board says while it asks
        `version` and `game` before the board replays what it missed, and a replay cut short
        (a timeout under load) or a host killed in it leaves those messages stored past the
        ones never received.  A move past a gap shows it; a lifted piece past missing moves
        does not (bench/hall_pg.py: the next host asked `since` from the lift, and the game
        was filed again).  What is replayed and stored already is skipped."""
        # (a number above SEQ_MAX, stored by an older host, would make `since` refused for ever)
        start = self.game_start(game_id)
        if start is None:
            # Its start never came (a host that asked `game` filed a move said then, and its
            # replay was cut short before that start): what the board said before it, the
            # game before's end included, may not have come either (bench/hall_pg.py).  From
            # the board's last message stored before the game's first, if there is one.
            row = self._run("SELECT MAX(e.seq) FROM events e, games g WHERE g.id=? AND e.board=g.board AND "
                            "e.seq<=? AND e.seq<(SELECT MIN(seq) FROM events WHERE game_id=?)",
                            (game_id, SEQ_MAX, game_id)).fetchone()
            if row is not None and row[0] is not None:
                return int(row[0])
        row = self._run("SELECT MIN(ply) FROM moves WHERE game_id=?", (game_id,)).fetchone()
        if row is not None and row[0] == 1:
            end = self._run("SELECT MIN(ply) FROM moves m WHERE game_id=? AND NOT EXISTS "
                            "(SELECT 1 FROM moves n WHERE n.game_id=m.game_id AND n.ply=m.ply+1)", (game_id,)).fetchone()
            last = self._run("SELECT MAX(seq) FROM moves WHERE game_id=? AND ply<=? AND seq<=?",
                             (game_id, end[0], SEQ_MAX)).fetchone()
            if last is not None and last[0] is not None:
                return int(last[0])
        return start if start is not None else 0

    def game_first_seq(self, game_id: int) -> int | None:
        """The number of the first message stored under the game, or None."""
        row = self._run("SELECT MIN(seq) FROM events WHERE game_id=?", (game_id,)).fetchone()
        return int(row[0]) if row is not None and row[0] is not None else None

    def game_start(self, game_id: int) -> int | None:
        """The message number of the game's start (`newgame`, `position`) as stored, or None."""
        row = self._run("SELECT MAX(seq) FROM events WHERE game_id=? AND seq<=? AND " + STARTS,
                        (game_id, SEQ_MAX)).fetchone()
        return int(row[0]) if row is not None and row[0] is not None else None

    def started_before(self, board: str, seq: int) -> tuple[str, str] | None:
        """The uid of the board's game whose stored start is the last one numbered below seq
        (the game a message of that number belongs to: numbers only rise), and that start's
        text; or None."""
        row = self._run("SELECT uid, text FROM events WHERE board=? AND seq<? AND " + STARTS +
                        " ORDER BY seq DESC LIMIT 1", (board, seq)).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def refile(self, board: str, game: str, fen: str | None, uid: str) -> int:
        """An earlier game of the board, made again for its moves that come late: its start
        was stored, and the game forgotten as empty (drop_empty) when the board's next game
        began before they came.  It is filed as over ('abandoned' until its own end comes),
        its stored messages under it; the board's game in play is left as it is."""
        with self._transaction():
            game_id = self.db.insert("INSERT INTO games(board, game, fen, started, ended, reason, uid) "
                                     "VALUES(?,?,?,?,?,?,?)", (board, game, fen, _now(), _now(), "abandoned", uid))
            self.db.execute("UPDATE events SET game_id=? WHERE board=? AND uid=? AND game_id IS NULL",
                            (game_id, board, uid))
        return game_id

    def set_tag(self, game_id: int, name: str, value: str) -> None:
        """Set a game's White, Black, Event, Site or Date (any case; a Date as PGN writes it,
        YYYY.MM.DD with ?? for what is not known), its Round ("3", "3.1") and Board (a
        number), or another of OWN_TAGS (WhiteElo, WhiteType, ...); an empty value removes
        such a tag.  ArchiveError
        for a name not allowed, a malformed value, or no such game."""
        column = name.lower()
        if column not in TAGS:
            self._set_own_tag(game_id, name, value)
            return
        if not tag_value_ok(value):
            raise ArchiveError(f"a {TAGS[column]} is one line of text, without control characters: not {value!r}")
        if column == "date" and not pgn_date(value):
            raise ArchiveError(f"a Date is YYYY.MM.DD, with ?? for what is not known (2026.11.22, 1934.??.??), not {value!r}")
        if self._run("UPDATE games SET " + column + "=? WHERE id=?", (value, game_id)).rowcount != 1:
            raise ArchiveError(f"no game {game_id} in {self.name}")

    def _set_own_tag(self, game_id: int, name: str, value: str) -> None:
        name = own_tag(name, value)
        with self._transaction():
            if self.db.execute("SELECT 1 FROM games WHERE id=?", (game_id,)).fetchone() is None:
                raise ArchiveError(f"no game {game_id} in {self.name}")
            if value:
                self.db.execute("INSERT INTO tags(game_id, name, value) VALUES(?,?,?) "
                                "ON CONFLICT(game_id, name) DO UPDATE SET value=excluded.value", (game_id, name, value))
            else:
                self.db.execute("DELETE FROM tags WHERE game_id=? AND name=?", (game_id, name))

    def tags(self, game_id: int) -> dict[str, str]:
        """The game's own tags beyond the columns (Round, Board, ...), by name."""
        return dict(self._run("SELECT name, value FROM tags WHERE game_id=? ORDER BY name", (game_id,)))

    def round_games(self, round_: str) -> list[GameRow]:
        """The games of a round (their Round tag), by board number, then id."""
        rows = self._run("SELECT g.* FROM games g JOIN tags t ON t.game_id=g.id AND t.name='Round' WHERE t.value=? "
                         "ORDER BY (SELECT CAST(value AS INTEGER) FROM tags WHERE game_id=g.id AND name='Board'), g.id",
                         (round_,))
        return [GameRow(*r) for r in rows]

    def set_opponent(self, game_id: int, side: str, engine: str, level: int | None, movetime_ms: int | None) -> None:
        """The computer's part in a game: its side, engine ("ours", "uci", "uci:PATH"), level
        and time a move, kept so that `play --resume` plays it again."""
        self._run("INSERT INTO opponents(game_id, side, engine, level, movetime_ms) VALUES(?,?,?,?,?) "
                  "ON CONFLICT(game_id) DO UPDATE SET side=excluded.side, engine=excluded.engine, "
                  "level=excluded.level, movetime_ms=excluded.movetime_ms", (game_id, side, engine, level, movetime_ms))

    def opponent(self, game_id: int) -> tuple[str, str, int | None, int | None] | None:
        """(side, engine, level, movetime_ms) of the computer in the game, or None."""
        row = self._run("SELECT side, engine, level, movetime_ms FROM opponents WHERE game_id=?", (game_id,)).fetchone()
        return None if row is None else (row[0], row[1], row[2], row[3])

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
            raise ArchiveError(f"no game {ref} in {self.name}" if ref != "last" else f"no games in {self.name}")
        return GameRow(*row)

    def moves(self, game_id: int) -> list[str]:
        return [r[0] for r in self._run("SELECT move FROM moves WHERE game_id=? ORDER BY ply", (game_id,))]

    def plies(self, game_id: int) -> dict[int, str]:
        """The game's stored moves by ply (a host that missed some leaves gaps)."""
        return dict(self._run("SELECT ply, move FROM moves WHERE game_id=? ORDER BY ply", (game_id,)))

    def events(self, board: str) -> list[tuple[int, str]]:
        return list(self._run("SELECT seq, text FROM events WHERE board=? ORDER BY seq", (board,)))
