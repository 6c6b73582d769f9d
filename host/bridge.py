"""The bridge: follows one board over its serial link and archives everything it says.

On connect (and on every reconnect) it asks the board which game it is playing and its
moves, matches them with the archive, and asks for every message after the last one
stored (`since`): a dropped link, a pulled cable or a killed host loses no move, and the
archive's (board, seq) key stores none twice.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from host.archive import Archive, ArchiveError, malformed
from host.link import BoardError, BoardLink, BridgeTimeout, LinkError

RECONNECT_S = 0.3
HOLD_MAX = 20_000  # messages held in memory while the archive refuses them; then the board waits


class Bridge:
    """One board, one archive."""

    def __init__(
        self,
        port: str,
        archive: Archive,
        key: str | None = None,
        on_change: Callable[[int, str], None] | None = None,
        timeout_s: float = 5.0,
    ) -> None:
        self.port = port
        self.archive = archive
        self.key = key  # the board's id, from its version line, unless given
        self.on_change = on_change
        self.timeout_s = timeout_s
        self.link: BoardLink | None = None
        self.game_id: int | None = None
        self.reconnects = 0
        self._next_try = 0.0
        self._held: list[tuple[int, str]] | None = None  # events that came during catch-up
        self.unsaved: list[tuple[int, str]] = []  # messages the archive has not taken yet, in order
        self.trouble: str | None = None  # why the archive refuses them (a full disk ...)
        self.last_error: str | None = None  # why the board cannot be reached, while it cannot
        self.on_warning: Callable[[str], None] | None = None  # a board line skipped, and why

    # ---- connection ---------------------------------------------------------------------

    def connect(self) -> None:
        """Open the link and catch up with the board; LinkError if it cannot."""
        link = BoardLink(self.port, timeout_s=self.timeout_s, on_event=self._on_event, on_noise=self._on_noise)
        try:
            version = link.hello().split()
            if self.key is None:
                # Messages are filed under the board's own id: a port name is reused.
                self.key = version[4] if len(version) > 4 else self.port
            self.link = link
            self._catch_up()
        except (LinkError, BridgeTimeout, BoardError):
            link.close()
            self.link = None
            raise

    def _catch_up(self) -> None:
        assert self.link is not None
        # Which game is the board playing?  Events that arrive while we ask are held until
        # we know, then filed like any other.
        self._held = []
        try:
            game, start = self.link.request("game").split()[1:3]
        finally:
            held, self._held = self._held, None
        fen = None if start == "-" else start
        self.game_id = None
        cur = self.archive.current_game(self.key)
        if cur is not None and cur.game == game and cur.fen == fen:
            self.game_id = cur.id  # the game we were following: go on with it
        if self.game_id is None:
            self.game_id = self.archive.new_game(self.key, game, fen)
        for seq, text in held:
            self._on_event(seq, text)
        # Everything said since the last message stored, in order (a message stored
        # before is skipped) ...
        self.link.request("since %d" % self.archive.last_seq(self.key))
        # ... and the moves the board made while no host listened, older than what it
        # keeps in RAM.
        assert self.game_id is not None
        self.archive.add_moves(self.game_id, self.link.request("history").split()[1:])

    def close(self) -> None:
        if self.link is not None:
            self.link.close()
            self.link = None

    def _lost(self) -> None:
        self.close()
        self.reconnects += 1
        self._next_try = time.monotonic() + RECONNECT_S

    def ensure(self) -> bool:
        """Connected (reconnecting if the link dropped)?"""
        if self.link is not None:
            return True
        if time.monotonic() < self._next_try:
            return False
        if not self.flush():
            return False  # the archive must take what it holds first (catch-up writes too)
        try:
            self.connect()
            self.last_error = None
            return True
        except (LinkError, BridgeTimeout, BoardError, OSError, ArchiveError) as e:
            self.last_error = str(e)
            self._next_try = time.monotonic() + RECONNECT_S
            return False

    # ---- traffic ------------------------------------------------------------------------

    def poll(self, wait_s: float = 0.0) -> None:
        """Handle what the board said (waiting up to wait_s)."""
        if len(self.unsaved) > HOLD_MAX and not self.flush():
            # Memory is not the archive: past this, the board keeps its moves (its journal)
            # and is asked for them again once the archive takes messages.
            self.close()
            time.sleep(min(wait_s, RECONNECT_S))
            return
        self.flush()
        if not self.ensure():
            time.sleep(min(wait_s, RECONNECT_S))
            return
        assert self.link is not None
        try:
            self.link.poll(wait_s)
        except (LinkError, OSError):
            self._lost()

    def flush(self) -> bool:
        """Store the messages held in memory, in order; False while the archive refuses
        them (self.trouble says why): they stay held, and nothing after them is stored."""
        while self.unsaved:
            seq, text = self.unsaved[0]
            try:
                self._file(seq, text)
            except ArchiveError as e:
                self.trouble = str(e)
                return False
            self.unsaved.pop(0)
        self.trouble = None
        return True

    def request(self, line: str) -> str:
        """A request to the board (reconnecting first if needed); BoardError if refused."""
        for _ in range(2):
            if not self.ensure():
                time.sleep(RECONNECT_S)
                continue
            assert self.link is not None
            try:
                return self.link.request(line)
            except (LinkError, OSError, BridgeTimeout) as e:
                self.last_error = str(e)
                self._lost()
        if self.trouble is not None:  # the archive, not the board: it holds what it was told
            raise LinkError(f"the archive takes nothing now ({self.trouble}); the board keeps its moves")
        raise LinkError(f"{self.port}: the board does not answer ({self.last_error})")

    def _on_noise(self, text: str) -> None:
        # A line that is not a message (a diagnostic, or what no board says): logged.
        if self.on_warning is not None:
            self.on_warning("not a message: " + text[:120])

    def _on_event(self, seq: int, text: str) -> None:
        if self._held is not None:
            self._held.append((seq, text))
            return
        self.unsaved.append((seq, text))
        self.flush()

    def _file(self, seq: int, text: str) -> None:
        """One message into the archive (ArchiveError if it cannot take it)."""
        bad = malformed(text)
        if bad is not None:  # no board says it: logged and skipped, it changes no game
            if self.on_warning is not None:
                self.on_warning(f"a malformed line, skipped: {text[:60]!r}: {bad}")
            return
        words = text.split()
        if not words:
            return
        if self.archive.has_event(self.key, seq):
            return  # said before: a reconnect's replay
        if words[0] == "newgame" and len(words) >= 3:
            fen = None if words[2] == "-" else " ".join(words[2:])
            cur = self.archive.current_game(self.key)
            fresh = cur is not None and cur.game == words[1] and cur.fen == fen and self.archive.is_empty(cur.id)
            # (a game opened on connect for this very newgame is not opened twice)
            self.game_id = cur.id if fresh and cur is not None else self.archive.new_game(self.key, words[1], fen)
        elif words[0] == "position" and len(words) >= 2 and self.game_id is not None:
            game = self.archive.game(str(self.game_id)).game
            self.game_id = self.archive.new_game(self.key, game, " ".join(words[1:]))
        self.archive.record(self.key, seq, text, self.game_id)
        if self.on_change is not None:
            self.on_change(seq, text)
