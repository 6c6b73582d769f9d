"""`eboard serve`: a club room. One bridge per board, each in its own thread with its own
connection to the archive (SQLite in WAL mode takes the writers one at a time).

A follower never dies in silence: a board that is missing or busy is waited for (and
said so), a full disk holds the messages in memory and is retried until space returns,
a malformed board line is logged and skipped, and an unexpected error is reported and
the follower starts again.  serve exits 0 only when it was asked to stop.
"""

from __future__ import annotations

import sys
import threading
import time

from host.archive import Archive, ArchiveError
from host.bridge import Bridge
from host.link import printable

RETRY_S = 1.0


class Room:
    """What the followers share: the output, and a stop."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.lock = threading.Lock()

    def say(self, port: str, text: str, err: bool = False) -> None:
        with self.lock:
            print(f"{printable(port)}: {printable(text)}", file=sys.stderr if err else sys.stdout, flush=True)


def _open(port: str, archive_path: str | None, room: Room) -> Archive | None:
    said = None
    while not room.stop.is_set():
        try:
            return Archive(archive_path)
        except ArchiveError as e:
            if str(e) != said:
                room.say(port, f"{e}: retrying", err=True)
                said = str(e)
        room.stop.wait(RETRY_S)
    return None


def _follow(port: str, archive_path: str | None, room: Room) -> None:
    archive = _open(port, archive_path, room)
    if archive is None:
        return

    def said(seq: int, text: str) -> None:
        word = text.split()[0]
        if word in ("move", "undo", "end", "newgame", "start", "alert"):
            room.say(port, text)

    bridge = Bridge(port, archive, on_change=said)
    bridge.on_warning = lambda text: room.say(port, text, err=True)
    was: tuple[bool, str | None, str | None] = (False, None, None)
    try:
        while not room.stop.is_set():
            try:
                bridge.poll(0.2)
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
        bridge.close()
        if bridge.unsaved:
            room.say(port, f"{len(bridge.unsaved)} messages were never stored ({bridge.trouble}); "
                           "the board keeps its moves: serve again to fetch them", err=True)
        archive.close()


def serve(ports: list[str], archive_path: str | None, seconds: float | None) -> int:
    try:
        Archive(archive_path).close()  # made (schema, WAL) once, before the threads open it
    except ArchiveError as e:
        print(f"eboard: {e}", file=sys.stderr)
        return 2
    room = Room()
    threads = [threading.Thread(target=_follow, args=(p, archive_path, room), daemon=True) for p in ports]
    for t in threads:
        t.start()
    rc = 0
    try:
        end = time.monotonic() + seconds if seconds else None
        while end is None or time.monotonic() < end:
            time.sleep(0.2)
            if not any(t.is_alive() for t in threads):
                print("eboard: every follower has stopped", file=sys.stderr)
                rc = 1
                break
    except KeyboardInterrupt:
        pass
    finally:
        room.stop.set()
        for t in threads:
            t.join(timeout=5)
    return rc
