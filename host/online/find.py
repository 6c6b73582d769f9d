"""Finding the game to play: the account's event stream (/api/stream/event) read until a
game starts: one sought (a seek, POST /api/board/seek, held open until lichess pairs it),
a challenge accepted (POST /api/challenge/{id}/accept; `any`: the first that comes), or
any game of the account's that starts or is under way (lichess says those first)."""

from __future__ import annotations

import time
from collections.abc import Callable

from .api import Api, ApiError, Offline, Stream
from .game import RETRY_S, OnlineError

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


class Finder:
    """The wait for a game, stepped by the command's loop; game_id once it has started."""

    def __init__(self, api: Api, note: Callable[[str], None], seek: dict[str, str] | None = None,
                 accept: str | None = None, now=time.monotonic) -> None:  # type: ignore[no-untyped-def]
        self.api = api
        self.note = note
        self.seek_form = seek
        self.accept = accept  # a challenge's id, "any", or None
        self.now = now
        self.game_id: str | None = None
        self.events: Stream | None = api.stream("/api/stream/event")
        self.seek: Stream | None = None
        self.retry_at = 0.0
        self.tries = 0
        self.down: str | None = None
        if accept not in (None, "any"):
            self.accept_challenge(accept)
        if seek is not None:
            self.seek = api.stream("/api/board/seek", "POST", seek)
            mins = float(seek["time"])
            self.note(f"lichess: seeking a {mins:g}+{seek['increment']} {'rated' if seek.get('rated') == 'true' else 'casual'} "
                      "game ... (quit to stop)")
        elif accept == "any":
            self.note("lichess: waiting for a challenge to accept ... (quit to stop)")
        elif accept is None:
            self.note("lichess: waiting for a game of yours to start (on lichess.org, or one under way) ... (quit to stop)")

    def accept_challenge(self, cid: str) -> None:
        try:
            self.api.post(f"/api/challenge/{cid}/accept")
        except (ApiError, Offline) as e:
            raise OnlineError(f"the challenge {cid} cannot be accepted: {e}") from None
        self.note(f"lichess: challenge {cid} accepted; waiting for the game to start ...")

    def step(self) -> str | None:
        """The game's id once one has started (None meanwhile)."""
        if self.seek is not None:
            for kind, value in self.seek.take():
                if kind == "refused":
                    raise OnlineError(f"the seek: {value}")
                if kind == "down" and value != "closed" and self.game_id is None:
                    # lichess closes a seek once it is paired (the game's start follows on the
                    # events), or when it could not stand (then nothing follows: quit, seek again)
                    self.note(f"lichess: the seek is closed ({value}): paired, the game is starting; "
                              "if nothing follows, quit and seek again")
                    self.seek = None
        if self.events is None:
            if self.now() >= self.retry_at:
                self.events = self.api.stream("/api/stream/event")
            return None
        for kind, value in self.events.take():
            if kind == "refused":
                raise OnlineError(f"lichess's events: {value}")
            if kind == "down" and value != "closed":
                wait = RETRY_S[min(self.tries, len(RETRY_S) - 1)]
                self.tries += 1
                self.note(f"lichess: the connection is lost ({value}): trying again in {wait} s")
                self.events, self.retry_at = None, self.now() + wait
                return None
            if kind == "open" and self.tries:
                self.note("lichess: connected again")
                self.tries = 0
            if kind != "data" or not isinstance(value, dict):
                continue
            if value.get("type") == "gameStart":
                g = value.get("game") or {}
                gid = g.get("gameId") or g.get("id")
                # A seek's game is a new one (lichess says the games under way first, on connecting)
                fresh = not g.get("hasMoved") and str(g.get("fen", START)).split()[0] == START.split()[0]
                if isinstance(gid, str) and gid.isalnum() and (
                        gid == self.accept if self.accept not in (None, "any") else fresh if self.seek_form else True):
                    self.game_id = gid
                    self.close()
                    return gid
            elif value.get("type") == "challenge" and self.accept == "any":
                c = value.get("challenge") or {}
                who = (c.get("challenger") or {}).get("name", "?")
                if c.get("direction", "in") == "in" and isinstance(c.get("id"), str):
                    self.note(f"lichess: a challenge from {who}")
                    self.accept = c["id"]
                    self.accept_challenge(c["id"])
        return None

    def close(self) -> None:
        for s in (self.events, self.seek):
            if s is not None:
                s.close()
        self.events = self.seek = None
