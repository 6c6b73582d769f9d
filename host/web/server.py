"""The web server (aiohttp): pages, server-sent event streams, the archive, nothing else.

It runs in a thread of its own with its own event loop, beside the command that started
it, and listens to the hub (host/web/hub.py): a publish from a board's thread reaches the
open pages' streams through loop.call_soon_threadsafe, rendered once per topic.

What it refuses: any method but GET and HEAD; any path it does not serve; a Kriegspiel
player's page or stream without that player's own secret (compared in constant time;
a wrong secret and an unknown match get the same 404); an archive entry of a Kriegspiel
game not yet over; on a loopback address, any Host header but its own (DNS rebinding); a connection beyond
the cap (`max_connections()`, held under the process's file descriptor limit): it gets a
503 in words, and the console one line a burst, so a flood of clients neither starves the
pages already open nor those opened after it.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import resource
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from host.record import Archive, ArchiveError, result_text, san_list, unreadable
from host.web import render
from host.web.hub import HUB, Hub, game_tags, hall_place

STATIC = Path(__file__).resolve().parent / "static"
STATIC_TYPES = {"app.js": "text/javascript", "style.css": "text/css"}
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}
KEEPALIVE_S = 15.0
MAX_CONNECTIONS = 512  # open pages, streams and requests together; fewer under a low `ulimit -n`
SPARE_FDS = 64  # file descriptors kept for the rest of the process (boards, archive, engine)
BURST_S = 10.0  # a refusal or an accept error this long after the last one starts a new burst
REFUSE_WAIT_S = 5.0  # how long a refused client may take to send its request
PLACES_S = 5.0  # how long the archive's rounds are kept before they are read again
Parts = dict[str, str]


def max_connections() -> int:
    """The connections the server keeps open at once: MAX_CONNECTIONS, or half the file
    descriptors the process may open beside SPARE_FDS if fewer (at least 16); the other
    half is room for the connections being refused."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(16, min(MAX_CONNECTIONS, (soft - SPARE_FDS) // 2))


class Counted(asyncio.Protocol):
    """aiohttp's protocol for one connection, telling the server when the connection ends."""

    def __init__(self, inner: asyncio.Protocol, closed: Callable[[], None]) -> None:
        self.inner = inner
        self.closed = closed

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed()
        self.inner.connection_lost(exc)


class Refused(asyncio.Protocol):
    """A connection beyond the cap: it reads the request, answers 503 in words, closes (the
    request read first, so the close is a clean one and the answer arrives)."""

    def __init__(self, cap: int) -> None:
        body = (f"too many connections: this board's web view keeps {cap} open at once; "
                "try again when some pages close\n").encode()
        self.answer = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                       b"Retry-After: 5\r\nCache-Control: no-store\r\nConnection: close\r\n"
                       b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        self.transport: asyncio.Transport | None = None
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.timer = asyncio.get_running_loop().call_later(REFUSE_WAIT_S, self._answer)

    def data_received(self, data: bytes) -> None:
        if b"\r\n\r\n" in data or len(data) > 8192:
            self._answer()

    def eof_received(self) -> bool | None:
        self._answer()
        return None

    def _answer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(self.answer)
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()


class Sub:
    """One open event stream: the topics it wants, and what is waiting to be sent."""

    def __init__(self, want: Callable[[str], bool], parts: Callable[[str, dict[str, Any]], Parts]) -> None:
        self.want = want
        self.parts = parts
        self.pending: dict[str, dict[str, Any]] = {}
        self.ready = asyncio.Event()


def _not_found() -> web.Response:
    return web.Response(status=404, text="not found\n")


class WebServer:
    """`eboard web`, or `--web` beside play, serve and kriegspiel."""

    def __init__(self, archive_path: str | None, host: str = "127.0.0.1", port: int = 8080, hub: Hub = HUB) -> None:
        self.archive_path = archive_path
        self.host = host
        self.port = port
        self.hub = hub
        self.loop: asyncio.AbstractEventLoop | None = None
        self.subs: set[Sub] = set()
        self.archive: Archive | None = None
        self.error: Exception | None = None
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._cache: dict[tuple[Any, str], tuple[dict[str, Any], Parts]] = {}
        self.cap = max_connections()
        self.open = 0  # connections being served
        self._said: dict[str, float] = {}  # a console line -> when it was last said
        self._places: tuple[float, list[tuple[Any, str, int | None]]] | None = None  # (when, _archived_places)
        self._made: dict[int, tuple[object, str]] = {}  # /broadcast's round_pgn cache: a game unchanged is not made again

    # ---- life cycle ----------------------------------------------------------------------

    @property
    def url(self) -> str:
        host = self.host
        if host in ("", "0.0.0.0", "::"):
            import socket

            host = socket.gethostname()
        return f"http://{'[' + host + ']' if ':' in host else host}:{self.port}"

    def start(self) -> str:
        """Serve in a thread; the base URL.  OSError (port taken, say) if it cannot."""
        self._thread = threading.Thread(target=self._run, name="eboard-web", daemon=True)
        self._thread.start()
        self._ready.wait(30)
        if self.error is not None:
            raise self.error
        return self.url

    def _run(self) -> None:
        loop = self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            self.archive = Archive(self.archive_path)
        except ArchiveError as e:
            self.error = e
            self._ready.set()
            return
        loop.set_exception_handler(self._loop_error)
        # handler_cancellation: a page closed ends its stream at once, not at the next keepalive.
        runner = web.AppRunner(self.app(), access_log=None, shutdown_timeout=0.5, handler_cancellation=True)
        loop.run_until_complete(runner.setup())
        try:
            listener = loop.run_until_complete(loop.create_server(
                lambda: self._connection(runner), self.host or None, self.port, reuse_address=True, backlog=128))
        except OSError as e:
            self.error = OSError(f"web: cannot listen on {self.host}:{self.port}: {e.strerror}")
            self._ready.set()
            loop.run_until_complete(runner.cleanup())
            return
        if listener.sockets:
            self.port = listener.sockets[0].getsockname()[1]
        self.hub.listen(self._published)
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            self.hub.unlisten(self._published)
            for sub in self.subs:
                sub.ready.set()
            listener.close()
            loop.run_until_complete(runner.cleanup())
            left = asyncio.all_tasks(loop)
            for task in left:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
            self.archive.close()
            loop.close()

    def stop(self) -> None:
        if self.loop is not None and self._thread is not None and self._thread.is_alive():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(timeout=10)

    # ---- the cap -------------------------------------------------------------------------

    def _say_once(self, line: str) -> None:
        """line on the console, unless it was said less than BURST_S ago (once a burst)."""
        now = time.monotonic()
        last = self._said.get(line)
        self._said[line] = now
        if last is None or now - last >= BURST_S:
            print(line, file=sys.stderr, flush=True)

    def _connection(self, runner: web.AppRunner) -> asyncio.BaseProtocol:
        """The protocol of a new connection: aiohttp's under the cap, Refused beyond it."""
        if self.open >= self.cap:
            self._say_once(f"web: {self.cap} connections open, the most it keeps: refusing new ones until some close")
            return Refused(self.cap)
        server = runner.server
        assert server is not None
        self.open += 1
        return Counted(server(), self._closed)

    def _closed(self) -> None:
        self.open -= 1

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """An error the event loop reports (out of file descriptors on accept, say): one
        line a burst, no traceback; the loop goes on (asyncio retries an accept itself)."""
        exc = context.get("exception")
        why = f"{type(exc).__name__}: {exc}" if exc is not None else ""
        self._say_once(f"web: {context.get('message', 'error')}{': ' + why if why else ''}")

    # ---- the hub -------------------------------------------------------------------------

    def _published(self, topic: str, data: dict[str, Any]) -> None:
        loop = self.loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._dispatch, topic, data)
            except RuntimeError:  # the loop closed meanwhile
                pass

    def _dispatch(self, topic: str, data: dict[str, Any]) -> None:
        for sub in self.subs:
            if sub.want(topic):
                sub.pending[topic] = data
                sub.ready.set()

    def _render(self, fn: Callable[[str, dict[str, Any]], Parts], topic: str, data: dict[str, Any]) -> Parts:
        """fn's fragments for this data, rendered once however many pages are open (fn is
        one of the module's renderers, so the cache holds a topic's latest data once each)."""
        key = (fn, topic)
        hit = self._cache.get(key)
        if hit is not None and hit[0] is data:
            return hit[1]
        parts = fn(topic, data)
        self._cache[key] = (data, parts)
        return parts

    async def _stream(self, request: web.Request, want: Callable[[str], bool],
                      parts: Callable[[str, dict[str, Any]], Parts]) -> web.StreamResponse:
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream", "X-Accel-Buffering": "no"})
        await resp.prepare(request)
        sub = Sub(want, parts)
        for topic in self.hub.topics(""):
            if want(topic):
                data = self.hub.get(topic)
                if data is not None:
                    sub.pending[topic] = data
        sub.ready.set()
        self.subs.add(sub)
        try:
            while self.loop is not None and self.loop.is_running():
                try:
                    await asyncio.wait_for(sub.ready.wait(), KEEPALIVE_S)
                except TimeoutError:
                    await resp.write(b": keepalive\n\n")
                    continue
                sub.ready.clear()
                pending, sub.pending = sub.pending, {}
                if not pending:
                    continue
                out: Parts = {}
                meta = {}
                for topic, data in pending.items():
                    out.update(self._render(sub.parts, topic, data))
                    if "seq" in data:  # the board message it shows (bench/web_latency.py)
                        meta[topic] = {"seq": data["seq"], "heard_at": data.get("heard_at")}
                # now: the server's clock, from which a page counts a running clock down
                # (never from its own clock, which may differ from the server's).
                msg = json.dumps({"parts": out, "meta": meta, "now": round(time.time(), 3)}, ensure_ascii=False)
                await resp.write(b"data: " + msg.encode() + b"\n\n")
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.subs.discard(sub)
        return resp

    # ---- the application -----------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard], client_max_size=1024)
        app.on_response_prepare.append(self._headers)
        r = app.router
        r.add_get("/", self.room)
        r.add_get("/events/room", self.room_events)
        r.add_get(r"/round/{round:[A-Za-z0-9._-]{1,20}}", self.round)
        r.add_get(r"/round/{round:[A-Za-z0-9._-]{1,20}}/events", self.round_events)
        r.add_get("/board/{slug}", self.board)
        r.add_get("/board/{slug}/events", self.board_events)
        r.add_get("/archive", self.archive_list)
        r.add_get(r"/archive/{game_id:\d{1,9}}", self.replay)
        r.add_get(r"/archive/{game_id:\d{1,9}}.pgn", self.pgn)
        r.add_get(r"/broadcast/{round:[0-9]{1,6}}/games.pgn", self.broadcast)
        r.add_get(r"/archive/{game_id:\d{1,9}}/ply/{ply:\d{1,5}}", self.ply_svg)
        r.add_get("/k/{match}/watch", self.spectators)
        r.add_get("/k/{match}/watch/events", self.spectator_events)
        r.add_get("/k/{match}/{token}", self.player)
        r.add_get("/k/{match}/{token}/events", self.player_events)
        r.add_get("/static/{name}", self.static)
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
        if request.method not in ("GET", "HEAD"):
            return web.Response(status=405, text="method not allowed\n", headers={"Allow": "GET, HEAD"})
        if self.host in ("127.0.0.1", "localhost", "::1"):
            allowed = {f"127.0.0.1:{self.port}", f"localhost:{self.port}", f"[::1]:{self.port}"}
            if request.host not in allowed:
                return web.Response(status=421, text="wrong host\n")
        try:
            resp: web.StreamResponse = await handler(request)
            return resp
        except web.HTTPNotFound:
            return _not_found()
        except web.HTTPException as e:
            return web.Response(status=e.status, text=e.reason + "\n")
        except Exception as e:  # a bug of ours: one line on stderr, the page says so, serving goes on
            print(f"web: {request.path}: internal error: {e!r}", file=sys.stderr, flush=True)
            return web.Response(status=500, text="internal error\n")

    async def _headers(self, request: web.Request, resp: web.StreamResponse) -> None:
        for k, v in HEADERS.items():
            resp.headers.setdefault(k, v)

    @staticmethod
    def _html(text: str) -> web.Response:
        return web.Response(text=text, content_type="text/html", charset="utf-8")

    async def static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in STATIC_TYPES:
            return _not_found()
        return web.Response(body=(STATIC / name).read_bytes(), content_type=STATIC_TYPES[name])

    # ---- the club room and the live boards ---------------------------------------------------

    def _matches(self) -> str:
        links = []
        for topic in self.hub.topics("krieg:"):
            _, match, who = topic.split(":")
            if who == "public":
                data = self.hub.get(topic) or {}
                state = "over" if data.get("end") else "in play"
                links.append(f'<li><a href="/k/{render.esc(match)}/watch">Kriegspiel {render.esc(match)}</a> '
                             f"({render.esc(data.get('game', ''))}, {state})</li>")
        return "<h2>Kriegspiel</h2><ul>" + "".join(links) + "</ul>" if links else ""

    async def room(self, request: web.Request) -> web.Response:
        tiles = []
        for topic in self.hub.topics("board:"):
            data = self.hub.get(topic)
            if data is not None:
                s = topic.split(":", 1)[1]
                tiles.append(f'<div id="tile-{render.esc(s)}">{render.tile(s, data)}</div>')
        body = "".join(tiles)
        if not tiles:
            body = ('<p class="muted" id="none">No board followed yet: <code>eboard serve --port PORT --web</code> '
                    "or <code>eboard play --web</code> shows its boards here.</p>")
        return self._html(render.page("room.html", title="eboard: club room", stream="/events/room",
                                      tiles=body, matches=self._matches(), rounds=render.rounds_nav(self._rounds())))

    # ---- a hall: its rounds, each round's boards by number -----------------------------------

    def _archived_places(self) -> list[tuple[Any, str, int | None]]:
        """(game, round, board number) of every archived game that has a round (its tags),
        read again at most every PLACES_S: a hall's audience opening its pages at once
        reads the archive once, not once a page."""
        now = time.monotonic()
        if self._places is not None and now - self._places[0] < PLACES_S:
            return self._places[1]
        assert self.archive is not None
        out = []
        for g in self.archive.games():
            if self.archive.sealed(g) or unreadable(g) is not None:
                continue
            rnd, board = hall_place(game_tags(g, self.archive.tags(g.id)))
            if rnd is not None:
                out.append((g, rnd, board))
        self._places = (now, out)
        return out

    def _rounds(self) -> list[str]:
        """Every round the live boards and the archive know, in order (numbers as numbers)."""
        found = {str(d["round"]) for t in self.hub.topics("board:") if (d := self.hub.get(t)) and d.get("round")}
        found.update(rnd for _, rnd, _ in self._archived_places())
        return sorted(found, key=lambda r: (0, int(r), "") if r.isdigit() else (1, 0, r))

    def _in_round(self, rnd: str) -> Callable[[str], bool]:
        return lambda t: t.startswith("board:") and (self.hub.get(t) or {}).get("round") == rnd

    async def round(self, request: web.Request) -> web.Response:
        rnd = request.match_info["round"]
        rows: list[tuple[int, str]] = []  # (board number, the row)
        live: set[int] = set()
        for topic in filter(self._in_round(rnd), self.hub.topics("board:")):
            data = self.hub.get(topic)
            if data is None:
                continue
            s = topic.split(":", 1)[1]
            if data.get("game_id") is not None:
                live.add(int(data["game_id"]))
            rows.append((_order(data), f'<div id="row-{render.esc(s)}">{render.hall_row(data, "/board/" + s)}</div>'))
        assert self.archive is not None
        for g, r, board in self._archived_places():
            if r != rnd or g.id in live:
                continue
            snap = {"board_no": board, "white": g.white, "black": g.black, "moves": self.archive.moves(g.id),
                    "start_fen": g.fen, "result": g.result if g.ended else None}
            rows.append((_order(snap), f'<div id="game-{g.id}">{render.hall_row(snap, f"/archive/{g.id}")}</div>'))
        if not rows and rnd not in self._rounds():
            return _not_found()
        rows.sort(key=lambda x: x[0])
        return self._html(render.page("round.html", title=f"eboard: round {render.esc(rnd)}",
                                      stream=f"/round/{render.esc(rnd)}/events", heading=f"Round {render.esc(rnd)}",
                                      rounds=render.rounds_nav(self._rounds(), rnd),
                                      rows="".join(r for _, r in rows)))

    async def round_events(self, request: web.Request) -> web.StreamResponse:
        return await self._stream(request, self._in_round(request.match_info["round"]), _row_parts)

    async def room_events(self, request: web.Request) -> web.StreamResponse:
        return await self._stream(request, lambda t: t.startswith("board:"), _tile_parts)

    async def board(self, request: web.Request) -> web.Response:
        s = request.match_info["slug"]
        data = self.hub.get("board:" + s)
        if data is None:
            return _not_found()
        parts = render.board_parts(data)
        return self._html(render.page("board.html", title=f"eboard: {render.esc(data.get('game'))}",
                                      stream=f"/board/{render.esc(s)}/events",
                                      heading=_place(data) + f"{render.esc(data.get('game'))} on {render.esc(data.get('port'))}"
                                      + (f", {render.esc(render.players(data))}" if render.players(data) else ""),
                                      **parts))

    async def board_events(self, request: web.Request) -> web.StreamResponse:
        topic = "board:" + request.match_info["slug"]
        if self.hub.get(topic) is None:
            return _not_found()
        return await self._stream(request, lambda t: t == topic, _board_parts)

    # ---- the archive ---------------------------------------------------------------------

    def _visible(self, game_id: int):  # type: ignore[no-untyped-def]
        """The archived game, unless there is none or it is a Kriegspiel game not yet over;
        web.HTTPUnprocessableEntity naming a game no rules core reads (an old archive row)."""
        assert self.archive is not None
        try:
            g = self.archive.game(str(game_id))
        except ArchiveError:
            return None
        if self.archive.sealed(g):
            return None
        why = unreadable(g)
        if why is not None:
            raise web.HTTPUnprocessableEntity(reason=why)
        return g

    async def archive_list(self, request: web.Request) -> web.Response:
        assert self.archive is not None
        q = request.query.get("q", "")[:100].strip().lower()
        rows = []
        krieg = self.archive.kriegspiel_ids()
        for g in reversed(self.archive.games()):
            if self.archive.sealed(g):
                continue
            n = len(self.archive.moves(g.id))
            result = result_text(g)
            players = render.players({"white": g.white, "black": g.black})
            hay = " ".join([str(g.id), g.game, g.board, g.event, result, players, g.started]).lower()
            if q and not all(word in hay for word in q.split()):
                continue
            rows.append(
                f'<tr><td><a href="/archive/{g.id}">{g.id}</a></td><td class="when">{render.esc(g.started[:16].replace("T", " "))}</td>'
                f'<td><a href="/archive/{g.id}">{render.esc(g.game)}</a>{" · Kriegspiel" if g.id in krieg else ""}</td>'
                f"<td>{n}</td><td>{render.esc(result)}</td><td>{render.esc(players)}</td>"
                f'<td class="board">{render.esc(g.board)}</td></tr>'
            )
        if not rows:
            rows.append('<tr><td colspan="7" class="muted">no games' + (" found" if q else " yet") + "</td></tr>")
        return self._html(render.page("archive.html", title="eboard: archive", q=render.esc(q), rows="".join(rows)))

    def _replay_position(self, g, ply: int):  # type: ignore[no-untyped-def]
        """(position after ply moves, the moves) of an archived game."""
        from firmware.rules import MoveError, new_position

        assert self.archive is not None
        moves = self.archive.moves(g.id)
        pos = new_position(g.game, g.fen)
        last = ""
        for m in moves[:ply]:
            try:
                pos.push_str(m)
            except MoveError:
                break
            last = m
        return pos, moves, last

    def _ply_svg(self, g, ply: int) -> str:  # type: ignore[no-untyped-def]
        pos, moves, last = self._replay_position(g, ply)
        title = "the start"
        if ply and last:
            before, _, _ = self._replay_position(g, ply - 1)
            title = "after " + render.move_label(ply, g.fen, [""] * (ply - 1) + san_list(g.game, before.fen(), [last]))
        return render.board_svg(g.game, pos.fen(), _last_move_leds(pos, last), title=title)

    async def replay(self, request: web.Request) -> web.Response:
        assert self.archive is not None
        g = self._visible(int(request.match_info["game_id"]))
        if g is None:
            return _not_found()
        moves = self.archive.moves(g.id)
        sans = san_list(g.game, g.fen, moves)
        snap = {"game": g.game, "port": g.board, "state": "over" if g.ended else "in progress", "moves": moves,
                "san": sans, "start_fen": g.fen, "white": g.white, "black": g.black,
                "result": g.result if g.ended else None, "reason": g.reason}
        info = render.board_info(snap)
        if g.white_points is not None:
            info += f"<p>points: White {g.white_points}, Black {g.black_points}</p>"
        record = ""
        krieg = self.archive.kriegspiel_record(g.id)
        if krieg is not None:
            record = render.record(g.game, {"record": krieg, "result": g.result})
        who = render.players(snap)
        return self._html(render.page(
            "replay.html", title=f"eboard: game {g.id}",
            heading=f"Game {g.id}: {render.esc(g.game)}" + (f", {render.esc(who)}" if who else ""),
            game_id=str(g.id), plies=str(len(moves)), board=self._ply_svg(g, len(moves)),
            ply=f'<span data-ply="{len(moves)}">{render.esc(render.move_label(len(moves), g.fen, sans)) if moves else "start"}</span>',
            info=info,
            moves=render.move_list(sans, g.fen, link=True), record=record))

    async def ply_svg(self, request: web.Request) -> web.Response:
        g = self._visible(int(request.match_info["game_id"]))
        if g is None:
            return _not_found()
        return web.Response(text=self._ply_svg(g, int(request.match_info["ply"])), content_type="image/svg+xml")

    async def pgn(self, request: web.Request) -> web.Response:
        from host.record import export

        assert self.archive is not None
        g = self._visible(int(request.match_info["game_id"]))
        if g is None:
            return _not_found()
        return web.Response(
            text=export(g, self.archive.moves(g.id), clocks=self.archive.clocks(g.id), own=self.archive.tags(g.id)), content_type="application/x-chess-pgn",
            headers={"Content-Disposition": f'attachment; filename="eboard-{g.id}.pgn"'},
        )

    async def broadcast(self, request: web.Request) -> web.Response:
        """A round's games live, as serve --broadcast writes them (round_pgn: one game a board,
        in board order, Round R.B, [%clk]): a stable address a lichess broadcast can poll
        (200 and the PGN, even before the first game: no redirect, no 404 mid-round);
        ?event=NAME: that event's games only."""
        from host.record import round_pgn

        assert self.archive is not None
        event = request.query.get("event")
        text, _ = round_pgn(self.archive, request.match_info["round"], event, live=True, cache=self._made)
        return web.Response(text=text, content_type="application/x-chess-pgn", charset="utf-8",
                            headers={"Cache-Control": "no-cache"})

    # ---- Kriegspiel ----------------------------------------------------------------------

    def _side(self, match: str, token: str) -> str | None:
        """Whose secret this is, or None (an unknown match or a wrong secret alike)."""
        with self.hub.lock:
            tokens = dict(self.hub.secrets.get(match, {}))
        found = None
        for side, secret in tokens.items():
            if hmac.compare_digest(secret.encode(), token.encode()):
                found = side
        return found

    async def player(self, request: web.Request) -> web.Response:
        match, token = request.match_info["match"], request.match_info["token"]
        side = self._side(match, token)
        data = self.hub.get(f"krieg:{match}:{side}") if side else None
        if side is None or data is None:
            return _not_found()
        return self._html(render.page(
            "player.html", title=f"eboard: Kriegspiel, {side}", heading=f"Kriegspiel: you play {side}",
            stream=f"/k/{match}/{token}/events", **render.player_parts(data)))

    async def player_events(self, request: web.Request) -> web.StreamResponse:
        match, token = request.match_info["match"], request.match_info["token"]
        side = self._side(match, token)
        if side is None:
            return _not_found()
        topic = f"krieg:{match}:{side}"
        return await self._stream(request, lambda t: t == topic, _player_parts)

    async def spectators(self, request: web.Request) -> web.Response:
        match = request.match_info["match"]
        data = self.hub.get(f"krieg:{match}:public")
        if data is None:
            return _not_found()
        return self._html(render.page(
            "spectators.html", title="eboard: Kriegspiel", heading=f"Kriegspiel {render.esc(match)}: spectators",
            stream=f"/k/{match}/watch/events", **render.public_parts(data)))

    async def spectator_events(self, request: web.Request) -> web.StreamResponse:
        topic = f"krieg:{request.match_info['match']}:public"
        if self.hub.get(topic) is None:
            return _not_found()
        return await self._stream(request, lambda t: t == topic, _public_parts)


def _tile_parts(topic: str, data: dict[str, Any]) -> Parts:
    s = topic.split(":", 1)[1]
    return {"tile-" + s: render.tile(s, data)}


def _row_parts(topic: str, data: dict[str, Any]) -> Parts:
    s = topic.split(":", 1)[1]
    return {"row-" + s: render.hall_row(data, "/board/" + s)}


def _order(data: dict[str, Any]) -> int:
    n = data.get("board_no")
    return int(n) if isinstance(n, int) and not isinstance(n, bool) else 999999


def _place(data: dict[str, Any]) -> str:
    """`Round 3, board 5: ` of a live board whose game has them (its tags), else ""."""
    if data.get("round") is None or data.get("board_no") is None:
        return ""
    return f"Round {render.esc(data['round'])}, board {render.esc(data['board_no'])}: "


def _board_parts(topic: str, data: dict[str, Any]) -> Parts:
    return render.board_parts(data)


def _player_parts(topic: str, data: dict[str, Any]) -> Parts:
    return render.player_parts(data)


def _public_parts(topic: str, data: dict[str, Any]) -> Parts:
    return render.public_parts(data)


def _last_move_leds(pos, move: str) -> str:  # type: ignore[no-untyped-def]
    """An LED frame lighting a replayed move's two squares as the board lights its last move."""
    from firmware.squares import Geometry

    frame = ["."] * 144
    for p in render.move_squares(Geometry(pos.game.layout), move) or ():
        frame[p] = "l"
    return "".join(frame)
