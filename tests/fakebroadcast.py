"""A local lichess for the broadcast tests: the push of a broadcast round's PGN, as lichess's
API reference describes it (https://lichess.org/api#tag/Broadcasts: "Push PGN to a
broadcast round"), each request checked as it comes:

  POST /api/broadcast/round/{id}/push   Authorization: Bearer <a token with study:write>,
                                        Content-Type text/plain, the round's games as PGN
                                        (up to 100); answered {"games": [{"tags", "moves"} or
                                        {"tags", "error"}]}, as python-chess reads each game

The server can answer 500 to the next `fail` pushes (a lichess that fails and comes back), or
a status of `refuse` to every one (401: a wrong token).  Every request that is not a push as
documented is refused and kept in `wrong`, which the tests assert empty."""

from __future__ import annotations

import io
import threading
import time
from http.server import ThreadingHTTPServer

import chess.pgn
import fakelichess

TOKEN = "lip_fakeBROADCASTtoken-0123456789"
ROUND_ID = "aBcD1234"


class Push:
    def __init__(self, at: float, text: str, games: list[chess.pgn.Game]) -> None:
        self.at = at  # time.monotonic() when it came
        self.text = text
        self.games = games


def read_games(text: str) -> list[chess.pgn.Game]:
    """Every game of a PGN text, as python-chess reads it."""
    f = io.StringIO(text)
    out = []
    while (game := chess.pgn.read_game(f)) is not None:
        out.append(game)
    return out


class Broadcasts(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.lock = threading.Lock()
        self.pushes: list[Push] = []  # the pushes taken (200)
        self.failed = 0  # the pushes answered 500
        self.wrong: list[str] = []  # requests not as lichess documents them
        self.fail = 0  # answer 500 to this many pushes
        self.refuse: int | None = None  # answer this status to every push
        self.errors: dict[str, str] = {}  # a game's Board -> the error lichess says of it
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


class Handler(fakelichess.Handler):
    """fakelichess's handler (its quiet log, its JSON answers), answering the push alone."""

    server: Broadcasts  # type: ignore[assignment]

    def do_GET(self) -> None:
        self.server.wrong.append(f"GET {self.path}")
        self.send_json(404, {"error": "Not found"})

    def do_POST(self) -> None:
        srv = self.server
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.path != f"/api/broadcast/round/{ROUND_ID}/push":
            srv.wrong.append(f"POST {self.path}")
            self.send_json(404, {"error": "Not found"})
            return
        with srv.lock:
            if srv.refuse is not None:
                self.send_json(srv.refuse, {"error": "No such token" if srv.refuse == 401 else "Refused"})
                return
            if srv.fail:
                srv.fail -= 1
                srv.failed += 1
                self.send_json(500, {"error": "Internal server error"})
                return
        if self.headers.get("Authorization") != "Bearer " + TOKEN:
            srv.wrong.append("Authorization: not the token")
            self.send_json(401, {"error": "No such token"})
            return
        if self.headers.get("Content-Type", "").split(";")[0].strip() != "text/plain":
            srv.wrong.append(f"Content-Type {self.headers.get('Content-Type')}")
            self.send_json(400, {"error": "text/plain PGN"})
            return
        text = body.decode("utf-8")
        games = read_games(text)
        if not games or len(games) > 100:
            srv.wrong.append(f"{len(games)} games in a push")
            self.send_json(400, {"error": "1 to 100 games"})
            return
        answer = []
        for g in games:
            tags = {k: g.headers[k] for k in ("Event", "Round", "White", "Black", "Board") if k in g.headers}
            error = srv.errors.get(g.headers.get("Board", "")) or (str(g.errors[0]) if g.errors else None)
            answer.append({"tags": tags, "error": error} if error else
                          {"tags": tags, "moves": len(list(g.mainline_moves()))})
        with srv.lock:
            srv.pushes.append(Push(time.monotonic(), text, games))
        self.send_json(200, {"games": answer})
