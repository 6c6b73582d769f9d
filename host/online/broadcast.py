"""A round broadcast live (issue #35): the round's PGN (host.record.round_pgn: every board in
board order, the seven-tag roster with Round "R.B", Result "*" until the end, [%clk] after
every move where the games are on a clock) kept current while serve follows the boards:

- written to a folder in the layout of lichess-org/broadcaster and DGT's LiveChess:
  DIR/round-N/games.pgn (the round) and game-B.pgn (board B's game), each written whole
  beside its name and renamed over it, so that a reader never sees half a file;
- pushed to a lichess broadcast round (POST /api/broadcast/round/{id}/push, the PGN as
  text/plain, a token with the study:write scope), at most once every PUSH_EVERY_S, retried
  with backoff while lichess does not answer or refuses; lichess's answer for each game and
  a refusal are said in words, the token never (host/online/api.py).

The web room serves the same PGN at /broadcast/<round>/games.pgn (host.web: round_pgn too).
docs/broadcast.md is the setup."""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from host.online.api import Api, ApiError, Offline
from host.record import round_pgn

PUSH_EVERY_S = 2.0  # lichess's push: at most one every 2 s
BACKOFF_S = (2.0, 4.0, 8.0, 15.0, 30.0, 60.0)  # the waits after the 1st, 2nd ... failure in a row
SLOW_DOWN_S = 60.0  # after a 429: lichess asks for a minute
MAX_GAMES = 100  # the games lichess takes in one push
WAKE_S = 0.2  # the broadcast's look for changes when none was signalled (a push waiting for its turn)
ROUND_ID = re.compile(r"[A-Za-z0-9]{8}")
ROUND_NAME = re.compile(r"[0-9]{1,6}(\.[0-9]{1,6})*")


class BroadcastError(ValueError):
    """A broadcast that cannot be set up (a round id, a folder): in words."""


def check_round_id(text: str) -> str:
    """A lichess broadcast round's id (its 8 letters and digits, the last part of the round's
    address); BroadcastError in words."""
    if not ROUND_ID.fullmatch(text):
        raise BroadcastError(f"--broadcast-round is a lichess broadcast round's id, 8 letters and digits (the "
                             f"end of the round's address, lichess.org/broadcast/.../.../ID), not {text!r}")
    return text


def round_folder(folder: str | os.PathLike[str], round_: str) -> Path:
    """The round's folder in broadcaster's layout: DIR/round-N."""
    return Path(folder) / f"round-{round_}"


def split_games(text: str) -> list[str]:
    """A PGN of several games (round_pgn's) -> each game's text."""
    return [g + "\n\n" for g in re.split(r"\n\n(?=\[Event )", text.strip("\n")) if g.strip()] if text.strip() else []


def board_of(game: str) -> str | None:
    m = re.search(r'^\[Board "(\d+)"\]$', game, re.M)
    return m.group(1) if m else None


def write_whole(path: Path, text: str) -> None:
    """path's new text, written beside it and renamed over it (a reader sees the old file or
    the new one, never half of one)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


class Broadcast:
    """One round, broadcast: fed by serve (changed(), from any follower's thread) and run in a
    thread of its own (run(stop)).  archive: an Archive or SharedArchive; folder: DIR or None;
    api and round_id: lichess's push, or None; say(text, err): serve's output."""

    def __init__(self, archive: Any, round_: str, event: str | None = None,
                 folder: str | os.PathLike[str] | None = None, api: Api | None = None, round_id: str | None = None,
                 say: Callable[[str, bool], None] = lambda text, err: print(text),
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.archive = archive
        self.round = round_
        self.event = event
        self.folder = round_folder(folder, round_) if folder is not None else None
        self.api = api
        self.round_id = round_id
        self.say = say
        self.now = clock
        self.made: dict[int, tuple[object, str]] = {}  # round_pgn's cache: a game unchanged is not made again
        self.dirty = threading.Event()
        self.dirty.set()  # the round as it stands when serve starts
        self.text: str | None = None  # the round's PGN as last made
        self.pushed: str | None = None  # ... as lichess last took it
        self.next_push = 0.0  # the push waits until then (the 2 s, a backoff)
        self.failures = 0  # pushes failed in a row
        self.refused: str | None = None  # the last failure said (said once, not every retry)
        self.said_games: dict[str, str] = {}  # a game's key -> what lichess last said of it
        self.said_notes: set[str] = set()
        self.said_cut = False
        self.write_error: str | None = None  # the folder's last failure said
        self.pushes = 0  # pushes lichess took
        if self.folder is not None:
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise BroadcastError(f"--broadcast: cannot make the folder {self.folder}: {e.strerror}") from None

    @property
    def path(self) -> str:
        return f"/api/broadcast/round/{self.round_id}/push"

    def changed(self) -> None:
        """A game of the round changed (a move, a takeback, a result, a new game): the
        broadcast makes the round again at once (any thread)."""
        self.dirty.set()

    def step(self) -> None:
        """One turn: the round made again if it changed, written, and pushed if its turn has come."""
        if self.dirty.is_set():
            self.dirty.clear()
            text, notes = round_pgn(self.archive, self.round, self.event, live=True, cache=self.made)
            for note in notes:
                if note not in self.said_notes:
                    self.said_notes.add(note)
                    self.say(note, True)
            if text != self.text:
                self.text = text
                if self.folder is not None:
                    self.write(text)
        if (self.api is not None and self.text and self.text != self.pushed
                and self.now() >= self.next_push):
            self.push(self.text)

    def write(self, text: str) -> None:
        assert self.folder is not None
        try:
            games = split_games(text)
            for n, game in enumerate(games, 1):
                write_whole(self.folder / f"game-{board_of(game) or n}.pgn", game)
            write_whole(self.folder / "games.pgn", text)
            if self.write_error is not None:
                self.say(f"the round is written to {self.folder} again", False)
                self.write_error = None
        except OSError as e:
            words = f"cannot write {self.folder}: {e.strerror}; tried again at the next change"
            if words != self.write_error:
                self.write_error = words
                self.say(words, True)

    def push(self, text: str) -> None:
        """The round's PGN to lichess; what it says in words; the next push's time."""
        assert self.api is not None
        games = split_games(text)
        if len(games) > MAX_GAMES:
            if not self.said_cut:
                self.said_cut = True
                self.say(f"lichess takes {MAX_GAMES} games a push: the round's first {MAX_GAMES} boards are pushed, "
                         f"not its {len(games)}", True)
            text = "".join(games[:MAX_GAMES])
        try:
            reply = self.api.call("POST", self.path, text=text)
        except (ApiError, Offline) as e:
            self.failed(e)
            return
        self.next_push = self.now() + PUSH_EVERY_S
        self.pushed = self.text
        self.pushes += 1
        if self.failures or self.pushes == 1:
            again = f" (after {self.failures} failed pushes: nothing was lost)" if self.failures else ""
            self.say(f"pushed to lichess broadcast round {self.round_id}: {len(games[:MAX_GAMES])} "
                     f"game{'s' if len(games) != 1 else ''}{again}", False)
        self.failures = 0
        self.refused = None
        self.answer(reply)

    def failed(self, e: ApiError | Offline) -> None:
        self.failures += 1
        wait = BACKOFF_S[min(self.failures, len(BACKOFF_S)) - 1]
        status = getattr(e, "status", None)
        if status == 404:
            words = (f"lichess knows no broadcast round {self.round_id} (404), or its owner has not made this "
                     "token's account a contributor")
        elif status == 429:
            words = str(e)
            wait = max(wait, SLOW_DOWN_S)
        else:
            words = str(e)
        self.next_push = self.now() + wait
        if words != self.refused:
            self.refused = words
            self.say(f"the push to lichess failed: {words}; retrying in {wait:g} s, less often while it fails; the "
                     "boards are still followed and archived" + (f", the round written to {self.folder}"
                                                         if self.folder is not None else ""), True)

    def answer(self, reply: Any) -> None:
        """lichess's answer to a push, {"games": [{"tags": {...}, "moves": N} or {"tags", "error"}]}:
        each game's error said once (and when it is gone)."""
        games = reply.get("games") if isinstance(reply, dict) else None
        if not isinstance(games, list):
            self.say("lichess's answer to the push does not list the games (it took the PGN)", True)
            return
        for n, g in enumerate(games, 1):
            if not isinstance(g, dict):
                continue
            tags = g.get("tags") if isinstance(g.get("tags"), dict) else {}
            board = tags.get("Board") or str(n)
            key = board
            error = g.get("error")
            said = str(error) if error is not None else ""
            if said == self.said_games.get(key, ""):
                continue
            self.said_games[key] = said
            who = f"{tags.get('White', '?')} - {tags.get('Black', '?')}"
            if said:
                self.say(f"lichess refuses board {board} ({who}): {said}", True)
            else:
                self.say(f"lichess takes board {board} ({who}) again: {g.get('moves', '?')} moves", False)

    def run(self, stop: threading.Event) -> None:
        """Until stop: the round made, written and pushed as it changes; then the last of it
        (a push waiting for its turn is made if that comes within PUSH_EVERY_S)."""
        while not stop.is_set():
            self.guarded()
            self.dirty.wait(WAKE_S)
        self.dirty.set()
        self.guarded()
        if self.api is not None and self.text and self.text != self.pushed:
            wait = self.next_push - self.now()
            if wait <= PUSH_EVERY_S:
                time.sleep(max(0.0, wait))
                self.guarded()

    def guarded(self) -> None:
        try:
            self.step()
        except Exception as e:  # our bug, or the archive: said, and the broadcast goes on
            words = f"the broadcast could not make the round ({type(e).__name__}: {e}); trying again"
            if words != self.write_error:
                self.write_error = words
                self.say(words, True)
            time.sleep(1.0)
