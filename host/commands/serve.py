"""`eboard serve`: a club room, or a hall.  One follower (a Bridge) a board, each in its own
thread waiting on its board's one file descriptor (poll(): host/link/port.py); one archive
connection for all of them (host.record.SharedArchive), opened with the boards by the
session room's Hall (host/session/home.py).  A board costs serve two descriptors at most:
its port, and a virtual board's other end; a host given more boards than its descriptors
allow is refused in words at the start (`capacity`).

A follower never dies in silence: a board that is missing or busy is waited for (and
said so), a full disk holds the messages in memory and is retried until space returns,
a malformed board line is logged and skipped, and an unexpected error is reported and
the follower starts again.  serve exits 0 only when it was asked to stop.

serve also watches the archive file: deleted (or replaced) under it, the archive is
written out again from the copy its connection still holds open, while the followers
wait for the archive; a damaged write-ahead log is emptied into the archive at once
(SQLite would drop its changes at the next open).
"""

from __future__ import annotations

import os
import resource
import signal
import sys
import threading
import time

from firmware.rules import MoveError, new_position
from host.record import Archive, ArchiveError, Clock, SharedArchive
from host.record import Bridge
from host.record import end_words, move_text_words
from host.link import End, Event, Move, NewGame, NewPosition, Undo, printable
from host.web import board_feed

RETRY_S = 1.0
WAIT_S = 0.5  # a follower's wait for its board's next line (a stop is heard within it)
SPARE_FDS = 64  # descriptors kept for the rest of serve (the archive, the web room's own cap, a log)
STACK = 512 * 1024  # a follower's thread stack: a hall's hundreds of threads, not 8 MB each


def capacity(per_board: int) -> tuple[int, int]:
    """(the boards serve can follow here, the process's descriptor limit), its soft limit of
    open files first raised as far as the hard one allows (Debian's soft 1024 holds about
    480 boards at two descriptors each)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        try:
            want = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        soft = 1 << 20
    return max(0, (soft - SPARE_FDS) // per_board), soft


ROUND_HEAD = ["board", "white", "black"]


class RoundFileError(ValueError):
    """A round file that cannot be read: the message names the file, its line and why."""


def read_round_file(path: str) -> dict[int, tuple[str, str]]:
    """A round file (CSV: a header row `board,white,black`, then one line a board: its
    number from 1, White's and Black's names) -> board number -> (White, Black);
    RoundFileError in words."""
    import csv

    from host.record import tag_value_ok

    try:
        with open(path, encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise RoundFileError(f"cannot read the round file {path}: {getattr(e, 'strerror', None) or e}") from None
    rows = [(n, r) for n, r in enumerate(rows, 1) if any(c.strip() for c in r)]
    if not rows or [c.strip().lower() for c in rows[0][1]] != ROUND_HEAD:
        raise RoundFileError(f"{path}: the round file's first line is the header board,white,black")
    pairs: dict[int, tuple[str, str]] = {}
    for n, row in rows[1:]:
        cells = [c.strip() for c in row]
        if len(cells) != 3:
            raise RoundFileError(f"{path}, line {n}: a board's line is board,white,black (3 fields), not {len(cells)}")
        board, white, black = cells
        if not (board.isascii() and board.isdigit() and 1 <= int(board) <= 999):
            raise RoundFileError(f"{path}, line {n}: the board is a number from 1, not {board!r}")
        if int(board) in pairs:
            raise RoundFileError(f"{path}, line {n}: board {int(board)} is paired twice")
        for name in (white, black):
            if not name or not tag_value_ok(name):
                raise RoundFileError(f"{path}, line {n}: a player's name is one line of text, not {name!r}")
        pairs[int(board)] = (white, black)
    if not pairs:
        raise RoundFileError(f"{path}: the round file pairs no board (a line board,white,black a board)")
    return pairs


def round_tags(pairs: dict[int, tuple[str, str]], round_: str, board: int, event: str | None = None) -> dict[str, str]:
    """The tags of a game of the round on board number `board`: Round, Board, White, Black
    (and Event); only Round and Board for a board the round file does not pair."""
    tags = {"round": round_, "board": str(board)}
    if board in pairs:
        tags["white"], tags["black"] = pairs[board]
    if event:
        tags["event"] = event
    return tags


class Room:
    """What the followers share: the output, a stop, and the ports of serve's own virtual
    boards (which stop with it)."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.own: set[str] = set()
        self.voice: Voice | None = None  # --speak, --words
        self.broadcast = None  # --broadcast: a host.online.Broadcast, told of every change
        self.control: str | None = None  # --clock: every board's games on this clock

    def say(self, port: str, text: str, err: bool = False) -> None:
        with self.lock:
            print(f"{printable(port)}: {printable(text)}", file=sys.stderr if err else sys.stdout, flush=True)


class BoardClock:
    """serve --clock MIN+INC: a board's game on a clock that starts with its first move (as
    e-board clocks do, and play's), the mover's time left after each move kept in the archive
    (PGN's and a broadcast's [%clk]); a takeback runs the mover's time again, an end stops it."""

    def __init__(self, control: str) -> None:
        self.control = control
        self.game_id: int | None = None
        self.clock: Clock | None = None
        self.first = "white"  # the side to move at the game's start

    def heard(self, event: Event, game_id: int | None, archive: SharedArchive, now_ms: float) -> None:
        if game_id is None:
            return
        if game_id != self.game_id or isinstance(event, (NewGame, NewPosition)):
            self.game_id = game_id
            self.clock = Clock.parse(self.control)
            row = archive.game(str(game_id))
            try:
                self.first = "white" if new_position(row.game, row.fen).fen().split()[1:2] == ["w"] else "black"
            except (MoveError, ValueError):
                self.first = "white"
            if not row.time_control:
                archive.set_time_control(game_id, self.clock.pgn_time_control())
        c = self.clock
        assert c is not None
        if isinstance(event, Move):
            other = "black" if self.first == "white" else "white"
            left = c.moved(now_ms, self.first if event.ply % 2 else other)
            if left is not None:
                archive.set_clock(game_id, event.ply, left)
        elif isinstance(event, Undo) and c.running is not None:
            c.run("white" if c.running == "black" else "black", now_ms)
        elif isinstance(event, End):
            c.run(None, now_ms)


class Voice:
    """serve --speak (--words): one voice for the room, each board's moves and ends said in
    turn as "board 2: knight takes e5." (the board's number: its place among serve's ports)."""

    def __init__(self, speaker, ports: list[str]) -> None:  # type: ignore[no-untyped-def]
        self.speaker = speaker  # a host.record.Speaker (its queue: one sentence after the other)
        self.number = {port: i for i, port in enumerate(ports, 1)}
        self.lock = threading.Lock()

    def heard(self, port: str, event: Event, bridge: Bridge, archive: Archive) -> None:
        lang = self.speaker.lang
        if isinstance(event, Move) and bridge.game_id is not None:
            row = archive.game(str(bridge.game_id))
            try:  # the position before the move, from the archive's record of the game
                pos = new_position(row.game, row.fen)
                for m in archive.moves(bridge.game_id)[: event.ply - 1]:
                    pos.push_str(m)
                text = move_text_words(row.game, pos.fen(), event.move, lang)
            except (MoveError, ValueError):
                text = event.move
        elif isinstance(event, End):
            text = end_words(event.reason, event.result, lang)
        else:
            return
        board = ("доска" if lang.startswith("ru") else "board") + f" {self.number.get(port, port)}"
        with self.lock:
            self.speaker.say(f"{board}: {text}")


def _follow(port: str, room: Room, archive: SharedArchive, web: bool = False,
            tags: dict[str, str] | None = None) -> None:
    """Follow one board; tags: the round's (Round, Board, White, Black) given to each game
    begun on it while serve runs, and to the game it holds when serve comes, unless that
    game has a Round already."""
    tagged: set[int] = set()
    clock = BoardClock(room.control) if room.control else None

    def said(seq: int, event: Event) -> None:
        if event.word in ("move", "undo", "end", "newgame", "start", "alert"):
            room.say(port, event.text)
        if clock is not None:
            clock.heard(event, bridge.game_id, archive, time.monotonic() * 1000)
        if room.voice is not None:
            room.voice.heard(port, event, bridge, archive)
        if room.broadcast is not None:
            room.broadcast.changed()

    writer = _own_connection(archive)
    bridge = Bridge(port, writer, on_change=said)  # type: ignore[arg-type]
    bridge.on_warning = lambda text: room.say(port, text, err=True)
    was: tuple[bool, str | None, str | None] = (False, None, None)
    feed = board_feed(bridge, archive) if web else None  # the web room's club room
    try:
        while not room.stop.is_set():
            try:
                bridge.poll(WAIT_S)
                if feed is not None:
                    feed.flush()
                if tags and bridge.game_id is not None and bridge.game_id not in tagged:
                    tagged.add(bridge.game_id)
                    _tag_game(archive, bridge.game_id, tags, lambda text: room.say(port, text))
                    if feed is not None:
                        feed.dirty = True  # its round's page shows it now, not at its next move
                    if room.broadcast is not None:
                        room.broadcast.changed()
            except Exception as e:  # our bug: said in one line, and the follower goes on
                room.say(port, f"internal error ({type(e).__name__}: {e}): the follower starts again", err=True)
                bridge.close()
                room.stop.wait(RETRY_S)
            up = bridge.link is not None
            now = (up, None if up else bridge.last_error, bridge.trouble)
            if now != was:
                if now[2] is not None:
                    room.say(port, f"{now[2]}: {len(bridge.unsaved)} messages held in memory, "
                                   "retrying until the archive takes them", err=True)
                elif was[2] is not None:
                    room.say(port, "the archive takes messages again: nothing was lost")
                if up and not was[0]:
                    room.say(port, "connected")
                elif not up and now[1] != was[1] and now[1] is not None:
                    room.say(port, f"waiting for {port}: {now[1]}; retrying")
                elif not up and was[0]:
                    room.say(port, "link lost, reconnecting")
                was = now
    finally:
        game_id = bridge.game_id
        if port in room.own and game_id is not None and not bridge.unsaved:
            try:  # its board stops with serve: the game is adjourned, never in progress for ever
                if archive.adjourn(game_id):
                    room.say(port, f"game {game_id} adjourned (its virtual board stops): "
                                   f"eboard play --sim --resume {game_id} goes on with it")
            except ArchiveError as e:
                room.say(port, str(e), err=True)
        bridge.close()
        if writer is not archive:
            writer.close()
        if bridge.unsaved:
            room.say(port, f"{len(bridge.unsaved)} messages were never stored ({bridge.trouble}); "
                           "the board keeps its moves: serve again to fetch them", err=True)


def _own_connection(archive: SharedArchive) -> Archive | SharedArchive:
    """What a follower files through: on PostgreSQL a connection of its own, whose
    statements the server runs beside the other followers' (one connection shared under
    a lock made a host's 32 followers wait their turn, several round trips a message, and a
    host started again never caught up with their replays: bench/hall_pg.py 4 x 32); on
    SQLite, or if the server refuses one more, the shared one."""
    if not archive.shared:
        return archive
    try:
        return Archive(archive.path)
    except ArchiveError:
        return archive


def _tag_game(archive: SharedArchive, game_id: int, tags: dict[str, str], say) -> None:  # type: ignore[no-untyped-def]
    if "Round" in archive.tags(game_id):
        return
    for name, value in tags.items():
        archive.set_tag(game_id, name, value)
    say(f"game {game_id}: round {tags['round']}, board {tags['board']}"
        + (f": {tags['white']} - {tags['black']}" if "white" in tags else ""))


def _restore(archive: SharedArchive, why: str, room: Room) -> None:
    """The archive written again from its connection's open copy, the followers waiting for
    it meanwhile (the connection closed before the file is put back: a connection closing
    last deletes the log by its name); at the same path if it is free, else beside it."""
    room.say("archive", f"{why} under serve: the moves are held meanwhile, and the archive is written again "
                        "from the copy still open", err=True)

    def rewrite(keeper: Archive) -> Archive:
        target = keeper.path
        if os.path.lexists(target):
            target = target.with_name(f"{target.stem}-restored-{time.strftime('%Y%m%d-%H%M%S')}{target.suffix}")
        tmp = target.with_name(target.name + ".restoring")
        while True:
            try:
                keeper.copy_to(tmp)
                break
            except ArchiveError as e:
                room.say("archive", f"cannot write the archive again ({e}): retrying; the boards keep their moves",
                         err=True)
                if room.stop.wait(5.0):
                    return keeper  # stopping: closed by serve, as it is
        keeper.close()
        os.replace(tmp, target)
        return Archive(target)

    archive.swap(rewrite)
    if archive.gone() is None:
        room.say("archive", f"the archive is at {archive.path} again: nothing was lost")


def _watch(archive: SharedArchive, room: Room) -> None:
    """One look at the archive file (serve's main thread, every second)."""
    why = archive.gone()
    if why is not None:
        _restore(archive, why, room)
        return
    if archive.wal_damaged():
        time.sleep(0.05)  # (a log being started afresh is written in one go: look twice)
        if archive.wal_damaged() and archive.checkpoint():
            room.say("archive", f"the write-ahead log {archive.path}-wal was damaged: everything it held is now in "
                                f"{archive.path}, nothing was lost", err=True)


def serve(archive: SharedArchive, ports: list[str], seconds: float | None, web: bool = False,
          own: tuple[str, ...] = (), round_tags: list[dict[str, str]] | None = None, speaker=None,  # type: ignore[no-untyped-def]
          broadcast=None, clock: str | None = None) -> int:
    """Follow the boards on ports until interrupted (or seconds), filing into archive (the
    caller opened it, with the boards: host.session.open_hall, and closes it); own: the
    ports of virtual boards that stop with serve (their unfinished games are adjourned);
    round_tags: each port's round tags (`--round-file FILE --round N`: board number i is
    the i-th port); speaker: a host.record.Speaker that says every board's moves
    and ends (--speak, --words); broadcast: a host.online.Broadcast of the round, run in a
    thread of its own and told of every change (--broadcast); clock: every board's games on
    this clock, MIN+INC (--clock)."""
    room = Room()
    room.own.update(own)
    room.voice = Voice(speaker, ports) if speaker is not None else None
    room.broadcast = broadcast
    room.control = clock
    # SIGTERM (a service manager's stop) ends serve as Ctrl-C does: the followers close.
    try:
        signal.signal(signal.SIGTERM, signal.default_int_handler)
    except ValueError:  # not the main thread (a test calling serve())
        pass
    stack = threading.stack_size(STACK)
    try:
        threads = [threading.Thread(target=_follow, args=(p, room, archive, web, round_tags[i] if round_tags else None),
                                    name=p, daemon=True) for i, p in enumerate(ports)]
        for t in threads:
            t.start()
        sent = threading.Event()  # the broadcast's stop: once the followers have stopped (an adjournment)
        caster = threading.Thread(target=broadcast.run, args=(sent,), name="broadcast", daemon=True) if broadcast else None
        if caster is not None:
            caster.start()
    finally:
        threading.stack_size(stack)
    rc = 0
    try:
        end = time.monotonic() + seconds if seconds else None
        next_look = 0.0
        while end is None or time.monotonic() < end:
            time.sleep(0.2)
            if not any(t.is_alive() for t in threads):
                print("eboard: every follower has stopped", file=sys.stderr)
                rc = 1
                break
            if time.monotonic() >= next_look:
                try:
                    _watch(archive, room)
                except ArchiveError as e:
                    room.say("archive", str(e), err=True)
                next_look = time.monotonic() + 1.0
    except KeyboardInterrupt:
        pass
    finally:
        room.stop.set()
        for t in threads:
            t.join(timeout=5)
        sent.set()
        if caster is not None:
            caster.join(timeout=20)  # its last write, and its last push's turn (2 s) and answer
        if speaker is not None and speaker.aloud:
            speaker.close()  # the last words said before serve ends
    return rc
