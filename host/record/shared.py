"""One archive connection for many followers (`eboard serve`'s threads, one a board).

A connection of its own for each board cost serve three file descriptors a board (the
archive, its write-ahead log and its shared memory) and, at a hall's hundreds of boards,
hundreds of writers waiting on SQLite's lock.  SharedArchive holds one Archive and makes
every call to it under one lock: writers take their turn in this process, and the
archive file is written again (`reopen`) by holding the lock while the followers wait.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from host.record.archive import Archive


class SharedArchive:
    """An Archive many threads call, one call at a time (attributes read as the Archive's)."""

    def __init__(self, archive: Archive) -> None:
        self.lock = threading.RLock()
        self._archive = archive

    @property
    def inner(self) -> Archive:
        return self._archive

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._archive, name)
        if not callable(value):
            return value

        def call(*args: Any, **kw: Any) -> Any:
            with self.lock:
                return getattr(self._archive, name)(*args, **kw)

        return call

    def swap(self, make: Callable[[Archive], Archive]) -> None:
        """The Archive replaced by make(the old one), under the lock: no follower's call
        runs meanwhile (make closes the old one, writes the file again, opens it)."""
        with self.lock:
            self._archive = make(self._archive)
