"""The bridge: follows one board over its serial link and archives everything it says.

The host's rule of protocol 2 (docs/protocol.md): a board's moves are filed under the
game's uid, never under sequence numbers across games.  On connect, on every reconnect and
on every `hello` (the board was reset) the bridge asks `game`: a uid it knows goes on with
that archived game, an unknown one is a new archive game.  Then it asks for every message
after the last one stored for that game (`since`), which the board replays from RAM and
from its journal (the games before it that the board keeps: ends, starts, moves), and checks the
board's `history` against the archived moves: one that does not extend them is never
merged (a new archive game, and a line in words), except a board that lacks the last of
them (made while its flash was full, then lost at a power cut): the archive keeps them.  A dropped link, a pulled cable, a
killed host or a board reset loses no move, and the (board, uid, seq) key stores none
twice.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable

from firmware.terms import HOST_ENDS
from firmware.rules import FenError, MoveError, new_position
from firmware.rules.kriegspiel import new_view
from host.link import (
    BoardError, BoardLink, BridgeTimeout, End, Event, Game, Hello, LinkError, Move, NewGame, NewPosition, WordsError, read_event,
    read_fen, read_game, read_history, read_leds, read_state, read_version, History, State,
)
from host.record.archive import Archive, ArchiveError

RECONNECT_S = 0.3
# The catch-up's `game` and `history` wait this many timeouts: one that times out starts the
# whole catch-up (hello, game, the replay) again, and on a loaded machine (bench/hall_pg.py
# 4 x 32, load 20-40) the next one timed out too, for minutes, while the board's games went
# by unfollowed and out of its journal.
CATCH_UP_WAITS = 6
HOLD_MAX = 20_000  # messages held in memory while the archive refuses them; then the board waits


class Bridge:
    """One board, one archive."""

    def __init__(
        self,
        port: str,
        archive: Archive,
        key: str | None = None,
        on_change: Callable[[int, Event], None] | None = None,
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
        # The board's game is being asked (on connect, after a hello): what it says meanwhile
        # is left to the replay of `since` that follows, which says it again in order.
        self._asking = False
        self._begun: int | None = None  # the message number of the start of the game being filed
        self._replaying = False  # a `since` is being answered: a hello in it is an old one
        self.unsaved: list[tuple[int, Event]] = []  # messages the archive has not taken yet, in order
        self._played: tuple[int, int, object] | None = None  # (archive game, plies, its position): moves checked
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
        # Events said while hello is asked (a `newgame` of hands already at work) wait for
        # the replay: filed now, they went under the port's name as a game of their own.
        self._asking = True
        try:
            version = read_version(link.hello())
            if self.key is None:
                # Messages are filed under the board's own id: a port name is reused.
                self.key = version.board_id or self._port_key()
            self.boot = version.boot
            self.link = link
            self._catch_up()
        except WordsError as e:
            link.close()
            self.link = None
            raise BoardError("bad-reply", str(e)) from None
        except (LinkError, BridgeTimeout, BoardError):
            link.close()
            self.link = None
            raise

    def _catch_up(self) -> None:
        assert self.link is not None
        self._rehello = False
        # Which game is the board playing?  What the board says while we ask (and since a
        # hello) is not filed: `since` below says it again, in order, each message in its
        # game.  Filed now, it went under the game the board plays now, and before what
        # the board missed telling us: a message of an older game that the board replays
        # late to a host before us (one that gave up on it, loaded) in the middle of our
        # hello, or a move said now, stored past moves never received if the replay is then
        # cut short (bench/hall_pg.py: games forked, and filed twice).
        self._asking = True
        try:
            now = read_game(self.link.request("game", timeout_s=self.timeout_s * CATCH_UP_WAITS))
        finally:
            self._asking = False
        self._switch(now.game, now.uid, now.fen)
        assert self.game_id is not None
        # The number to ask `since` for: the game's last move stored with every move before
        # it (Archive.game_last_seq), never a message stored past messages that never came.
        last = self.archive.game_last_seq(self.game_id)
        if self._begun is None:
            # Its start not stored: a message replayed before its first stored one is of a
            # game before it (numbers only rise; its start, replayed, switches to it).
            self._begun = self.archive.game_first_seq(self.game_id)
        # Everything said since the last message stored for this game, in order (a
        # message stored before is skipped; the journal's replay may switch games on the
        # way: the previous game's end, then this one's start; where the archived moves
        # have a gap, since the move before it) ...
        self._replaying = True
        try:
            self.link.request("since %d" % last, replay=True)
        finally:
            self._replaying = False
        # ... and the board's own record of its game, which must extend the archived one.
        wait = self.timeout_s * CATCH_UP_WAITS
        said = self.link.request("history", timeout_s=wait)
        if self.uid != now.uid and self.game_id is not None:
            # A game begun after `game` was answered (its `newgame`, in the replay or before
            # this reply, is filed and followed): the history is that game's.  Read against
            # the game asked about, it was refused, and the whole catch-up made again
            # (bench/hall_pg.py, issue #35: seven times in a run).
            row = self.archive.game(str(self.game_id))
            now = Game(row.game, self.uid, row.fen)
        history = list(read_history(said, now).moves)
        # Compared ply by ply: moves a host missed (a replay cut short) are gaps that the
        # board's history fills, not a disagreement.
        stored = self.archive.plies(self.game_id)
        apart = next((p for p in sorted(stored) if p <= len(history) and history[p - 1] != stored[p]), None)
        if apart is None and stored and max(stored) > len(history):
            # The board lacks the game's last moves: they were made while its flash was full
            # (`alert journal-full PLY`), said and archived here, and lost from its RAM at a
            # power cut.  The archive keeps them; a move the board makes at one of those
            # plies forks the record, if it is another one.
            self._note(
                f"board {self.key}: its game {self.uid} has {len(history)} moves, archive game {self.game_id} "
                f"{max(stored)}: moves {len(history) + 1} to {max(stored)} are kept only here (the board's "
                "flash was full when they were made)"
            )
        elif apart is not None:
            old = self.game_id
            row = self.archive.game(str(old))
            self.game_id = self.archive.new_game(self._board(), row.game, row.fen, uid=self.uid)
            self._note(
                f"board {self.key}: its game {self.uid} no longer matches archive game {old} "
                f"(the board has {len(history)} moves, the archive {max(stored)}, apart from move "
                f"{apart}): filed as a new archive game {self.game_id}"
            )
        self.archive.add_moves(self.game_id, history)
        self._played = None

    def _switch(self, game: str, uid: str, fen: str | None) -> None:
        """File what follows under the board's game uid: its archived game, or a new one."""
        row = self.archive.game_by_uid(self._board(), uid)
        self.uid = uid
        self.game_id = row.id if row is not None else self.archive.new_game(self._board(), game, fen, uid=uid)
        self._begun = self.archive.game_start(self.game_id)

    def _board(self) -> str:
        return self.key if self.key is not None else self._port_key()

    def _port_key(self) -> str:
        """A board that says no id of its own is filed under its port: in an archive that
        several hosts write, the port on this host."""
        return f"{socket.gethostname()}:{self.port}" if self.archive.shared else self.port

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
        except (BridgeTimeout, BoardError, WordsError) as e:
            # A board that reset again in the middle, or a reply that is not the board's
            # (another program's lines on the port): start over.
            if isinstance(e, WordsError) and self.on_warning is not None:
                self.on_warning(f"a reply refused, asked again: {e}")
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
            if line.startswith("end ") and line[4:].split(" ")[0] in HOST_ENDS:
                # Before it is sent: the board says `end` before its reply, and a host that
                # dies before it comes back finds its own request in the archive next time.
                # Under the uid of the game the board plays now (asked: the newgame of a
                # game just begun may not be filed yet, under load).
                try:
                    uid = read_game(self.link.request("game")).uid
                except (LinkError, OSError, BridgeTimeout, BoardError, WordsError):
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
            except WordsError as e:  # the catch-up's replies were not the board's: asked again
                self.last_error = str(e)
                self._lost()
        if self.trouble is not None:  # the archive, not the board: it holds what it was told
            raise LinkError(f"the archive takes nothing now ({self.trouble}); the board keeps its moves")
        raise LinkError(f"{self.port}: the board does not answer ({self.last_error})")

    def state(self) -> State:
        """The board's `state` (BoardError bad-reply for a reply that is not a board's)."""
        try:
            return read_state(self.request("state"))
        except WordsError as e:
            raise BoardError("bad-reply", str(e)) from None

    def history(self) -> History:
        """The board's history of its game, each move legal in turn (BoardError bad-reply as state)."""
        try:
            return read_history(self.request("history"), read_game(self.request("game")))
        except WordsError as e:
            raise BoardError("bad-reply", str(e)) from None

    def leds(self) -> str:
        """The board's LED frame: 144 letters (BoardError bad-reply as state)."""
        try:
            return read_leds(self.request("leds"))
        except WordsError as e:
            raise BoardError("bad-reply", str(e)) from None

    def _on_noise(self, text: str) -> None:
        # A line that is not a message (a diagnostic, or what no board says): logged.
        if self.on_warning is not None:
            self.on_warning("not a message: " + text[:120])

    def _on_event(self, seq: int, text: str) -> None:
        try:
            said = read_event(text)
        except WordsError as e:  # no board says it: logged and skipped, it changes no game
            if self.on_warning is not None:
                self.on_warning(f"a malformed line, skipped: {e}")
            return
        if isinstance(said, Hello) and not self._replaying:
            # The board was reset: what it says from now on may be another game's; it waits
            # for poll (or request) to ask which game it plays, and for the replay then.
            # (A hello in the replay of `since` is a reset of long ago: filed, it asks
            # nothing again.)
            self._rehello = True
            self._asking = True
            if said.boot is not None:
                self.boot = said.boot
        if self._asking:
            return
        self.unsaved.append((seq, said))
        self.flush()

    def _file(self, seq: int, said: Event) -> None:
        """Store one message under the game it belongs to (switching games on a start);
        ArchiveError if the archive cannot take it."""
        uid = self.uid
        if isinstance(said, (NewGame, NewPosition)):
            uid = said.uid
        elif self._begun is not None and seq < self._begun:
            self._file_earlier(seq, said)
            return
        if self.archive.has_event(self._board(), seq, uid):
            if uid != self.uid:  # a replayed start of a game we have: file what follows there
                # (from its own start: a game forgotten as empty is made again here, and a
                # Courier game or a position begins from a FEN)
                self._switch(said.game if isinstance(said, NewGame) else self._game_kind(), uid, said.fen)
            return  # said before: a reconnect's replay
        if isinstance(said, NewGame):
            self._switch(said.game, uid, said.fen)
        elif isinstance(said, NewPosition):
            try:
                read_fen(self._game_kind(), said.fen)
            except WordsError as e:
                if self.on_warning is not None:
                    self.on_warning(f"a malformed line, skipped: {e}")
                return
            self._switch(self._game_kind(), uid, said.fen)
        elif isinstance(said, Move) and not self._legal(said):
            if self.on_warning is not None:
                self.on_warning(f"a malformed line, skipped: {said.text!r}: not a legal move in the game it extends")
            return
        trusted = True
        if isinstance(said, End) and said.reason in HOST_ENDS:
            trusted = (self.uid, said.what) in self.vouched or self.archive.vouched(self._board(), self.uid, said.what)
            if not trusted:
                self._note(f"board {self.key}: the board says '{said.text}', an end this host did not ask for "
                           "(another program on its port?): archived as unconfirmed, not as a result")
        self.archive.record(self._board(), seq, said, self.game_id, self.uid, trusted=trusted)
        if isinstance(said, (NewGame, NewPosition)):
            self._begun = seq
        if self.game_id is not None and self.game_id in self.archive.forks:
            old = self.game_id
            self.game_id = self.archive.forks.pop(old)
            self._played = None
            assert isinstance(said, Move)
            self._note(f"board {self.key}: move {said.ply} disagrees with archive game {old}: "
                       f"filed as a new archive game {self.game_id}")
        if not isinstance(said, Move):
            self._played = None  # (a takeback, a new game: the position is made again when needed)
        if self.on_change is not None:
            self.on_change(seq, said)

    def _file_earlier(self, seq: int, said: Event) -> None:
        """A message numbered before the start of the game being filed belongs to an earlier
        game (numbers only rise): filed under the game whose start is the last before it.
        (A replay that a loaded board sends late reaches a later link: filed under the game
        being played, the game before's last moves forked it.)"""
        start = self.archive.started_before(self._board(), seq)
        row = self.archive.game_by_uid(self._board(), start[0]) if start is not None else None
        if row is None and start is not None and isinstance(said, (Move, End)):
            # Its game was forgotten as empty when the next one began, before its moves
            # came (a replay late under load): made again, or they are lost (bench/hall_pg.py).
            began = read_event(start[1])
            if isinstance(began, NewGame):
                self.archive.refile(self._board(), began.game, began.fen, began.uid)
                row = self.archive.game_by_uid(self._board(), began.uid)
        if row is None:
            if self.on_warning is not None:
                self.on_warning(f"a message of a game this host never saw begin, skipped: {said.text!r}")
            return
        kept = (self.uid, self.game_id, self._begun, self._played)
        self.uid, self.game_id, self._begun, self._played = row.uid or "", row.id, None, None
        try:
            self._file(seq, said)
        finally:
            self.uid, self.game_id, self._begun, self._played = kept

    def _legal(self, said: Move) -> bool:
        """Is the move legal after the archived moves before its ply?  True where they are
        not all known (a game whose start this host missed) or the game is not one of the
        rules core's (an old archive row): nothing to check it against."""
        game_id = self.game_id
        if game_id is None:
            return True
        played = self._played
        if played is None or played[0] != game_id or played[1] != said.ply - 1:
            before = self.archive.moves(game_id)[: said.ply - 1]
            if len(before) < said.ply - 1:
                return True
            row = self.archive.game(str(game_id))
            try:
                try:
                    pos = new_position(row.game, row.fen)
                except FenError:
                    pos = new_view(row.game, row.fen)
                for m in before:
                    pos.push(pos.parse_move(m))
            except (ValueError, MoveError):
                return True
            played = (game_id, len(before), pos)
        pos = played[2]
        try:
            pos.push(pos.parse_move(said.move))  # type: ignore[attr-defined]
        except MoveError:
            self._played = played
            return False
        self._played = (game_id, said.ply, pos)
        return True

    def _game_kind(self) -> str:
        return self.archive.game(str(self.game_id)).game if self.game_id is not None else "chess"

