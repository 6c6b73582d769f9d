"""lichess's Board API over HTTP, with the standard library's http.client: requests that
answer at once (a move, a draw offer, resignation ...) and NDJSON streams read in a thread
of their own (the account's events, a game's states).

    api = Api("https://lichess.org", token)
    api.account()                                  # {"id": ..., "username": ...}
    api.post(f"/api/board/game/{gid}/move/e2e4")   # ApiError: lichess said no; Offline: no answer
    stream = api.stream(f"/api/board/game/stream/{gid}")
    for kind, value in stream.take():              # ("data", dict) ..., ("down", why) once at its end

The token goes in the Authorization header and nowhere else: no message of this module names
it (docs/lichess.md)."""

from __future__ import annotations

import http.client
import json
import queue
import socket
import ssl
import threading
import urllib.parse
from typing import Any

TIMEOUT_S = 10.0  # a request's answer
# A stream says nothing for this long: taken for a dropped connection.  lichess sends an
# empty line every few seconds on its streams to keep them open, so a live one never waits so long.
STREAM_SILENCE_S = 30.0


class ApiError(Exception):
    """lichess answered, and said no: its words, and the HTTP status."""

    def __init__(self, text: str, status: int) -> None:
        super().__init__(text)
        self.status = status


class Offline(Exception):
    """No answer from lichess (no connection, a connection dropped): in words."""


class Api:
    """One lichess server (its base URL) and one account's token."""

    def __init__(self, server: str, token: str, timeout_s: float = TIMEOUT_S,
                 silence_s: float = STREAM_SILENCE_S, scope: str = "board:play") -> None:
        url = urllib.parse.urlsplit(server)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise ValueError(f"--server is an http:// or https:// address (https://lichess.org), not {server!r}")
        self.server = server.rstrip("/")
        self.scheme = url.scheme
        self.host = url.hostname
        self.port = url.port
        self.base = url.path.rstrip("/")
        self.headers = {"Authorization": "Bearer " + token, "Accept": "application/json",
                        "User-Agent": "eboard (the 12 x 12 board's host; docs/lichess.md)"}
        self.timeout_s = timeout_s
        self.silence_s = silence_s
        self.scope = scope  # the token's scope these requests need (a 403 names it)

    def connection(self, timeout_s: float) -> http.client.HTTPConnection:
        if self.scheme == "https":
            return http.client.HTTPSConnection(self.host, self.port, timeout=timeout_s,
                                               context=ssl.create_default_context())
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout_s)

    def open(self, method: str, path: str, form: dict[str, str] | None, timeout_s: float,
             text: str | None = None):  # type: ignore[no-untyped-def]
        """(connection, its socket, the response) of a request whose answer is OK; ApiError, Offline.
        form: its body as a form; text: its body as text/plain (a PGN pushed)."""
        body = urllib.parse.urlencode(form).encode() if form else None
        headers = dict(self.headers)
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        elif text is not None:
            body = text.encode("utf-8")
            headers["Content-Type"] = "text/plain; charset=utf-8"
        conn = self.connection(timeout_s)
        try:
            conn.request(method, self.base + path, body=body, headers=headers)
            sock = conn.sock
            resp = conn.getresponse()
        except (OSError, http.client.HTTPException) as e:
            conn.close()
            raise Offline(f"{self.server} does not answer ({why(e)})") from None
        if resp.status >= 400:
            try:
                text = resp.read().decode("utf-8", "replace")
            except (OSError, http.client.HTTPException):
                text = ""
            conn.close()
            raise ApiError(refusal(text, resp.status, self.scope), resp.status)
        return conn, sock, resp

    def call(self, method: str, path: str, form: dict[str, str] | None = None, text: str | None = None) -> Any:
        """A request answered at once: its JSON (None for an empty answer)."""
        conn, _, resp = self.open(method, path, form, self.timeout_s, text)
        try:
            data = resp.read()
        except (OSError, http.client.HTTPException) as e:
            raise Offline(f"{self.server}: the answer was cut off ({why(e)})") from None
        finally:
            conn.close()
        try:
            return json.loads(data) if data.strip() else None
        except ValueError:
            raise Offline(f"{self.server}: an answer that is not JSON") from None

    def post(self, path: str, form: dict[str, str] | None = None) -> Any:
        return self.call("POST", path, form)

    def account(self) -> dict[str, Any]:
        """GET /api/account: who the token is."""
        me = self.call("GET", "/api/account")
        if not isinstance(me, dict) or not isinstance(me.get("id"), str):
            raise Offline(f"{self.server}: /api/account did not say who you are")
        return me

    def stream(self, path: str, method: str = "GET", form: dict[str, str] | None = None) -> Stream:
        return Stream(self, method, path, form)


class Stream:
    """An NDJSON stream read in a thread: its objects, then ("down", why) once at its end
    (the server closed it, the connection dropped, silence too long, close())."""

    def __init__(self, api: Api, method: str, path: str, form: dict[str, str] | None) -> None:
        self.api = api
        self.items: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.closed = False
        self.sock: socket.socket | None = None
        self.conn: http.client.HTTPConnection | None = None
        self.thread = threading.Thread(target=self.run, args=(method, path, form), daemon=True)
        self.thread.start()

    def run(self, method: str, path: str, form: dict[str, str] | None) -> None:
        why_down = "the server ended the stream"
        try:
            self.conn, self.sock, resp = self.api.open(method, path, form, self.api.silence_s)
            if self.closed:
                return
            self.items.put(("open", None))
            while True:
                raw = resp.readline()
                if not raw:
                    break
                line = raw.strip()
                if not line:
                    continue  # lichess's keep-alive
                try:
                    self.items.put(("data", json.loads(line)))
                except ValueError:
                    self.items.put(("noise", line[:80].decode("utf-8", "replace")))
        except ApiError as e:
            why_down = str(e)
            self.items.put(("refused", e))
        except Offline as e:
            why_down = str(e)
        except socket.timeout:
            why_down = f"nothing heard for {self.api.silence_s:g} s"
        except (OSError, http.client.HTTPException) as e:
            why_down = why(e)
        finally:
            if self.conn is not None:
                self.conn.close()
            self.items.put(("down", "closed" if self.closed else why_down))

    def take(self) -> list[tuple[str, Any]]:
        """What the stream said since the last take (never waits)."""
        out = []
        while True:
            try:
                out.append(self.items.get_nowait())
            except queue.Empty:
                return out

    def close(self) -> None:
        self.closed = True
        sock = self.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)  # the reading thread's readline returns
            except OSError:
                pass


def why(e: BaseException) -> str:
    """A connection's failure in words (never a request's headers: the token is in them)."""
    if isinstance(e, ConnectionRefusedError):
        return "connection refused"
    if isinstance(e, (socket.timeout, TimeoutError)):
        return "no answer in time"
    if isinstance(e, http.client.RemoteDisconnected):
        return "the server closed the connection"
    if isinstance(e, socket.gaierror):
        return "the name is not known (no network?)"
    if isinstance(e, ssl.SSLError):
        return "a TLS error"
    return type(e).__name__ + (f": {e.strerror}" if isinstance(e, OSError) and e.strerror else "")


def refusal(text: str, status: int, scope: str = "board:play") -> str:
    """lichess's error answer ({"error": "..."}) in words."""
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    said = data.get("error") if isinstance(data, dict) else None
    if isinstance(said, dict):  # a form's errors: {"field": ["..."]}
        said = "; ".join(f"{k}: {' '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in said.items())
    if status == 401:
        return "lichess does not take the token (401): it is wrong, revoked or expired"
    if status == 403:
        return f"lichess refuses (403): the token lacks the {scope} scope" + (f" ({said})" if said else "")
    if status == 429:
        return "lichess asks to slow down (429): wait a minute before trying again"
    return f"lichess refuses ({status})" + (f": {said}" if said else "")
