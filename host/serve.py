"""`eboard serve`: a club room. One bridge per board, each in its own thread with its own
connection to the archive (SQLite in WAL mode takes the writers one at a time)."""

from __future__ import annotations

import sys
import threading
import time

from host.archive import Archive, ArchiveError
from host.bridge import Bridge
from host.web import board_feed


def _follow(port: str, archive_path: str | None, stop: threading.Event, out_lock: threading.Lock,
            web: bool = False) -> None:
    try:
        archive = Archive(archive_path)
    except ArchiveError as e:
        with out_lock:
            print(f"{port}: {e}", file=sys.stderr)
        return

    def said(seq: int, text: str) -> None:
        word = text.split()[0]
        if word in ("move", "undo", "end", "newgame", "start", "alert"):
            with out_lock:
                print(f"{port}: {text}", flush=True)

    bridge = Bridge(port, archive, on_change=said)
    feed = board_feed(bridge, archive) if web else None  # the web room's club room
    was_up = False
    try:
        while not stop.is_set():
            bridge.poll(0.2)
            if feed is not None:
                feed.flush()
            up = bridge.link is not None
            if up != was_up:
                with out_lock:
                    print(f"{port}: {'connected' if up else 'link lost, reconnecting'}", flush=True)
                was_up = up
    finally:
        bridge.close()
        archive.close()


def serve(ports: list[str], archive_path: str | None, seconds: float | None, web: bool = False) -> int:
    try:
        Archive(archive_path).close()  # made (schema, WAL) once, before the threads open it
    except ArchiveError as e:
        print(f"eboard: {e}", file=sys.stderr)
        return 2
    stop = threading.Event()
    lock = threading.Lock()
    threads = [threading.Thread(target=_follow, args=(p, archive_path, stop, lock, web), daemon=True) for p in ports]
    for t in threads:
        t.start()
    try:
        end = time.monotonic() + seconds if seconds else None
        while end is None or time.monotonic() < end:
            time.sleep(0.2)
            if not any(t.is_alive() for t in threads):
                break
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=5)
    return 0
