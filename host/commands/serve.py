"""`eboard serve`: a club room. One bridge per board, each in its own thread with its own
connection to the archive (SQLite in WAL mode takes the writers one at a time).

A follower never dies in silence: a board that is missing or busy is waited for (and
said so), a full disk holds the messages in memory and is retried until space returns,
a malformed board line is logged and skipped, and an unexpected error is reported and
the follower starts again.  serve exits 0 only when it was asked to stop.

serve also watches the archive file: deleted (or replaced) under it, the archive is
written out again from the copy SQLite still holds open, while the followers hold their
messages; a damaged write-ahead log is emptied into the archive at once (SQLite would
drop its changes at the next open).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

from firmware.rules import MoveError, new_position
from host.record import Archive, ArchiveError
from host.record import Bridge
from host.record import end_words, move_text_words
from host.link import End, Event, Move, printable
from host.web import board_feed

RETRY_S = 1.0


class Room:
    """What the followers share: the output, a stop, and the archive's path, with a pause
    while the archive file is written again (each follower closes its connection and
    says so in `closed`)."""

    def __init__(self, path: Path) -> None:
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.path = path
        self.paused = threading.Event()
        self.closed: set[str] = set()
        self.own: set[str] = set()  # the ports of serve's own virtual boards, which stop with it
        self.voice: Voice | None = None  # --speak, --words

    def say(self, port: str, text: str, err: bool = False) -> None:
        with self.lock:
            print(f"{printable(port)}: {printable(text)}", file=sys.stderr if err else sys.stdout, flush=True)


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


def _open(port: str, room: Room) -> Archive | None:
    said = None
    while not room.stop.is_set():
        try:
            return Archive(room.path)
        except ArchiveError as e:
            if str(e) != said:
                room.say(port, f"{e}: retrying", err=True)
                said = str(e)
        room.stop.wait(RETRY_S)
    return None


def _follow(port: str, room: Room, web: bool = False) -> None:
    archive = _open(port, room)
    if archive is None:
        return

    def said(seq: int, event: Event) -> None:
        if event.word in ("move", "undo", "end", "newgame", "start", "alert"):
            room.say(port, event.text)
        if room.voice is not None:
            room.voice.heard(port, event, bridge, archive)

    bridge = Bridge(port, archive, on_change=said)
    bridge.on_warning = lambda text: room.say(port, text, err=True)
    was: tuple[bool, str | None, str | None] = (False, None, None)
    feed = board_feed(bridge, archive) if web else None  # the web room's club room
    try:
        while not room.stop.is_set():
            if room.paused.is_set():  # the archive file is being written again
                archive.close()
                with room.lock:
                    room.closed.add(port)
                while room.paused.is_set() and not room.stop.is_set():
                    room.stop.wait(0.1)
                reopened = _open(port, room)
                if reopened is None:
                    return
                archive = bridge.archive = reopened
                feed = board_feed(bridge, archive) if web else None
                bridge.close()  # catch up again, against the archive as it is now
                continue
            try:
                bridge.poll(0.2)
                if feed is not None:
                    feed.flush()
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
        if bridge.unsaved:
            room.say(port, f"{len(bridge.unsaved)} messages were never stored ({bridge.trouble}); "
                           "the board keeps its moves: serve again to fetch them", err=True)
        archive.close()


def _restore(keeper: Archive, why: str, room: Room, threads: list[threading.Thread]) -> Archive:
    """The archive written again from keeper's open copy, once every follower has closed
    its connection (an old connection closing last deletes the log by its name); at the
    same path if it is free, else beside it.  Returns the archive open again."""
    room.say("archive", f"{why} under serve: the moves are held meanwhile, and the archive is written again "
                        "from the copy still open", err=True)
    room.paused.set()
    while not room.stop.is_set():
        with room.lock:
            waiting = [t for t in threads if t.is_alive() and t.name not in room.closed]
        if not waiting:
            break
        room.stop.wait(0.1)
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
    keeper = Archive(target)
    room.path = target
    room.closed.clear()
    room.paused.clear()
    room.say("archive", f"the archive is at {target} again: nothing was lost")
    return keeper


def _watch(keeper: Archive, room: Room, threads: list[threading.Thread]) -> Archive:
    """One look at the archive file (serve's main thread, every second)."""
    why = keeper.gone()
    if why is not None:
        return _restore(keeper, why, room, threads)
    if keeper.wal_damaged():
        time.sleep(0.05)  # (a log being started afresh is written in one go: look twice)
        if keeper.wal_damaged() and keeper.checkpoint():
            room.say("archive", f"the write-ahead log {keeper.path}-wal was damaged: everything it held is now in "
                                f"{keeper.path}, nothing was lost", err=True)
    return keeper


def serve(ports: list[str], archive_path: str | None, seconds: float | None, web: bool = False,
          own: tuple[str, ...] = (), speaker=None) -> int:  # type: ignore[no-untyped-def]
    """Follow the boards on ports until interrupted (or seconds); own: the ports of virtual
    boards that stop with serve (their unfinished games are adjourned); speaker: a
    host.record.Speaker that says every board's moves and ends (--speak, --words)."""
    try:
        keeper = Archive(archive_path)  # made (schema, WAL) once, before the threads open it
    except ArchiveError as e:
        print(f"eboard: {e}", file=sys.stderr)
        return 2
    room = Room(keeper.path)
    room.own.update(own)
    room.voice = Voice(speaker, ports) if speaker is not None else None
    # SIGTERM (a service manager's stop) ends serve as Ctrl-C does: the followers close.
    try:
        signal.signal(signal.SIGTERM, signal.default_int_handler)
    except ValueError:  # not the main thread (a test calling serve())
        pass
    threads = [threading.Thread(target=_follow, args=(p, room, web), name=p, daemon=True) for p in ports]
    for t in threads:
        t.start()
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
                    keeper = _watch(keeper, room, threads)
                except ArchiveError as e:
                    room.say("archive", str(e), err=True)
                next_look = time.monotonic() + 1.0
    except KeyboardInterrupt:
        pass
    finally:
        room.stop.set()
        for t in threads:
            t.join(timeout=5)
        keeper.close()
        if speaker is not None and speaker.aloud:
            speaker.close()  # the last words said before serve ends
    return rc
