"""The bridge: follows one board over its serial link and archives everything it says.

The host's rule of protocol 2 (docs/protocol.md): a board's moves are filed under the
game's uid, never under sequence numbers across games.  On connect, on every reconnect and
on every `hello` (the board was reset) the bridge asks `game`: a uid it knows goes on with
that archived game, an unknown one is a new archive game.  Then it asks for every message
after the last one stored for that game (`since`), which the board replays from RAM and
from its journal (the previous game's end and the new game's start too), and checks the
board's `history` against the archived moves: one that does not extend them is never
merged (a new archive game, and a line in words), except a board that lacks the last of
them (made while its flash was full, then lost at a power cut): the archive keeps them.  A dropped link, a pulled cable, a
killed host or a board reset loses no move, and the (board, uid, seq) key stores none
twice.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from host.record.archive import Archive, ArchiveError, malformed
from firmware.terms import HOST_ENDS
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
        on_note: Callable[[str], None] | None = None,
    ) -> None:
        self.port = port
        self.archive = archive
        self.key = key  # the board's id, from its version line, unless given
        self.on_change = on_change
        self.timeout_s = timeout_s
        self.link: BoardLink | None = None
        self.on_note = on_note  # a line in words for the person at the host
        self.game_id: int | None = None
        self.uid = ""  # the board's uid of the game being filed
        self.boot: int | None = None  # the board's power-up id (random), from its version line
        self.reconnects = 0
        self._rehello = False  # the board said hello: catch up again
        self._next_try = 0.0
        self._held: list[tuple[int, str]] | None = None  # events that came during catch-up
        self.unsaved: list[tuple[int, str]] = []  # messages the archive has not taken yet, in order
        self.trouble: str | None = None  # why the archive refuses them (a full disk ...)
        self.last_error: str | None = None  # why the board cannot be reached, while it cannot
        self.on_warning: Callable[[str], None] | None = None  # a board line skipped, and why
        # The host's own ends (`end time R`, a flag this host saw fall) it asked the board
        # for: only these are archived as results.  The rules' ends the board computes
        # itself; a host end nobody here asked for came from another program on the port.
        # (game uid, 'time R'); the archive keeps them too, for the next session.
        self.vouched: set[tuple[str, str]] = set()

    # ---- connection ---------------------------------------------------------------------

    def connect(self) -> None:
        """Open the link and catch up with the board; LinkError if it cannot."""
        link = BoardLink(self.port, timeout_s=self.timeout_s, on_event=self._on_event, on_noise=self._on_noise)
        if self._held is None:
            # Events said while hello is asked (a `newgame` of hands already at work) are
            # held until the board's id and game are known: filed earlier, they went under
            # the port's name as a game of their own.
            self._held = []
        try:
            version = link.hello().split()
            if self.key is None:
                # Messages are filed under the board's own id: a port name is reused.
                self.key = version[4] if len(version) > 4 else self.port
            self.boot = int(version[5]) if len(version) > 5 and version[5].isdigit() else None
            self.link = link
            self._catch_up()
        except (LinkError, BridgeTimeout, BoardError):
            link.close()
            self.link = None
            raise

    def _catch_up(self) -> None:
        assert self.link is not None
        self._rehello = False
        # Which game is the board playing?  Events that arrive while we ask (and since a
        # hello) are held until we know, then filed like any other.
        early = self._held or []
        self._held = []
        try:
            words = self.link.request("game").split(" ", 3)
        finally:
            held, self._held = early + self._held, None
        if len(words) < 4:
            raise BoardError("bad-reply", "game: " + " ".join(words))
        game, uid, start = words[1], words[2], words[3]
        self._switch(game, uid, None if start == "-" else start)
        self.unsaved.extend(held)
        self.flush()
        # Everything said since the last message stored for this game, in order (a
        # message stored before is skipped; the journal's replay may switch games on the
        # way: the previous game's end, then this one's start) ...
        assert self.game_id is not None
        self.link.request("since %d" % self.archive.game_last_seq(self.game_id))
        # ... and the board's own record of its game, which must extend the archived one.
        history = self.link.request("history").split()[1:]
        stored = self.archive.moves(self.game_id)
        if len(history) < len(stored) and stored[: len(history)] == history:
            # The board lacks the game's last moves: they were made while its flash was full
            # (`alert journal-full PLY`), said and archived here, and lost from its RAM at a
            # power cut.  The archive keeps them; a move the board makes at one of those
            # plies forks the record, if it is another one.
            self._note(
                f"board {self.key}: its game {self.uid} has {len(history)} moves, archive game {self.game_id} "
                f"{len(stored)}: moves {len(history) + 1} to {len(stored)} are kept only here (the board's "
                "flash was full when they were made)"
            )
        elif history[: len(stored)] != stored:
            old = self.game_id
            row = self.archive.game(str(old))
            self.game_id = self.archive.new_game(self._board(), row.game, row.fen, uid=self.uid)
            self._note(
                f"board {self.key}: its game {self.uid} no longer matches archive game {old} "
                f"(the board has {len(history)} moves, the archive {len(stored)}, apart from move "
                f"{_first_difference(history, stored) + 1}): filed as a new archive game {self.game_id}"
            )
        self.archive.add_moves(self.game_id, history)

    def _switch(self, game: str, uid: str, fen: str | None) -> None:
        """File what follows under the board's game uid: its archived game, or a new one."""
        row = self.archive.game_by_uid(self._board(), uid)
        self.uid = uid
        self.game_id = row.id if row is not None else self.archive.new_game(self._board(), game, fen, uid=uid)

    def _board(self) -> str:
        return self.key if self.key is not None else self.port

    def _note(self, text: str) -> None:
        if self.on_note is not None:
            self.on_note(text)

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
            if self._rehello:
                self._catch_up()
        except (LinkError, OSError):
            self._lost()
        except (BridgeTimeout, BoardError):
            self._lost()  # a board that reset again in the middle: start over

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
            if line.startswith("end ") and line[4:].split(" ")[0] in HOST_ENDS:
                # Before it is sent: the board says `end` before its reply, and a host that
                # dies before it comes back finds its own request in the archive next time.
                # Under the uid of the game the board plays now (asked: the newgame of a
                # game just begun may not be filed yet, under load).
                try:
                    uid = self.link.request("game").split()[2]
                except (LinkError, OSError, BridgeTimeout, BoardError, IndexError):
                    uid = self.uid
                self.vouched.add((uid, line[4:]))
                try:
                    self.archive.vouch(self._board(), uid, line[4:])
                except ArchiveError:
                    pass  # this session still knows it

            try:
                reply = self.link.request(line)
                if self._rehello:  # the board was reset meanwhile
                    self._catch_up()
                return reply
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
        words = text.split()
        if words and words[0] == "hello":
            # The board was reset: what it says from now on may be another game's; it is
            # held until poll (or request) has asked which game it plays.
            self._rehello = True
            if len(words) > 5 and words[5].isdigit():
                self.boot = int(words[5])
            if self._held is None:
                self._held = []
        if self._held is not None:
            self._held.append((seq, text))
            return
        self.unsaved.append((seq, text))
        self.flush()

    def _file(self, seq: int, text: str) -> None:
        """Store one message under the game it belongs to (switching games on a start);
        ArchiveError if the archive cannot take it."""
        bad = malformed(text)
        if bad is not None:  # no board says it: logged and skipped, it changes no game
            if self.on_warning is not None:
                self.on_warning(f"a malformed line, skipped: {text[:60]!r}: {bad}")
            return
        words = text.split()
        if not words:
            return
        uid = self.uid
        if words[0] == "newgame" and len(words) >= 4:
            uid = words[2]
        elif words[0] == "position" and len(words) >= 3:
            uid = words[1]
        if self.archive.has_event(self._board(), seq, uid):
            if uid != self.uid:  # a replayed start of a game we have: file what follows there
                self._switch(words[1] if words[0] == "newgame" else self._game_kind(), uid, None)
            return  # said before: a reconnect's replay
        if words[0] == "newgame" and len(words) >= 4:
            self._switch(words[1], uid, None if words[3] == "-" else " ".join(words[3:]))
        elif words[0] == "position" and len(words) >= 3:
            self._switch(self._game_kind(), uid, " ".join(words[2:]))
        trusted = True
        if words[0] == "end" and len(words) >= 3 and words[1] in HOST_ENDS:
            what = " ".join(words[1:3])
            trusted = (self.uid, what) in self.vouched or self.archive.vouched(self._board(), self.uid, what)
            if not trusted:
                self._note(f"board {self.key}: the board says '{text}', an end this host did not ask for "
                           "(another program on its port?): archived as unconfirmed, not as a result")
        self.archive.record(self._board(), seq, text, self.game_id, self.uid, trusted=trusted)
        if self.game_id is not None and self.game_id in self.archive.forks:
            old = self.game_id
            self.game_id = self.archive.forks.pop(old)
            self._note(f"board {self.key}: move {words[1]} disagrees with archive game {old}: "
                       f"filed as a new archive game {self.game_id}")
        if self.on_change is not None:
            self.on_change(seq, text)

    def _game_kind(self) -> str:
        return self.archive.game(str(self.game_id)).game if self.game_id is not None else "chess"


def _first_difference(a: list[str], b: list[str]) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return n
