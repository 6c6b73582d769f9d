"""The web room's one door: a small in-process hub that the host's commands publish to.

`play`, `serve` and `kriegspiel` run in their own threads and call publish(); the web
server (host/web/server.py, in a thread of its own) listens.  The hub keeps the latest
state of every topic, so a page opened late starts from it.  It imports nothing of the
web framework: a command without `--web` pays for a dict and a lock.

Topics:
  board:<slug>                  a board's snapshot (BoardFeed)
  krieg:<match>:white|black     one Kriegspiel player's own view and lines (KriegFeed)
  krieg:<match>:public          what everybody may know; the full record after the end
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

Listener = Callable[[str, dict[str, Any]], None]


class Hub:
    """Topics -> their latest data, and the listeners told of every change."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latest: dict[str, dict[str, Any]] = {}
        self.listeners: list[Listener] = []
        self.secrets: dict[str, dict[str, str]] = {}  # match -> {side: token}

    def publish(self, topic: str, data: dict[str, Any]) -> None:
        with self.lock:
            self.latest[topic] = data
            listeners = list(self.listeners)
        for listen in listeners:
            listen(topic, data)

    def get(self, topic: str) -> dict[str, Any] | None:
        with self.lock:
            return self.latest.get(topic)

    def topics(self, prefix: str) -> list[str]:
        with self.lock:
            return sorted(t for t in self.latest if t.startswith(prefix))

    def listen(self, listener: Listener) -> None:
        with self.lock:
            self.listeners.append(listener)

    def unlisten(self, listener: Listener) -> None:
        with self.lock:
            if listener in self.listeners:
                self.listeners.remove(listener)


HUB = Hub()


def game_tags(g: Any, own: dict[str, str]) -> dict[str, str]:
    """An archive game's PGN tags, as the archive's export writes them: the seven-tag
    roster (Round among them) and a club's Board where it has one (`eboard tag`, serve's
    --round-file); own: the game's tags of the archive's tags table (Archive.tags).  Read
    from the export, so that the web room names a game's round and board as its PGN does."""
    from host.record import export

    head = export(g, [], own=own).split("\n\n", 1)[0]
    return {name: re.sub(r"\\(.)", r"\1", value)
            for name, value in re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$', head, re.M)}


def hall_place(tags: dict[str, str]) -> tuple[str | None, int | None]:
    """(round, board number) from a game's tags; None where unknown (PGN's "?", "-", "")."""
    rnd = tags.get("Round", "").strip()
    board = tags.get("Board", "").strip()
    return (None if rnd in ("", "?", "-") else rnd), (int(board) if board.isdigit() and len(board) < 7 else None)


def slug(key: str) -> str:
    """A board's key (its id, or a port path) as a URL path segment."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", key).strip("-") or "board"


class Notation:
    """A game's moves in SAN (checkers12: its own notation), kept from one flush to the
    next: a move added costs one move's SAN, not the whole game's again."""

    def __init__(self) -> None:
        self.start: tuple[str, str | None] = ("", None)
        self.moves: list[str] = []
        self.san: list[str] = []
        self.pos: Any = None  # the position after self.moves, None once a move would not replay

    def sans(self, game: str, fen: str | None, moves: list[str]) -> list[str]:
        """The SAN of moves played from fen; a move that does not replay, and all after it,
        as they are."""
        from firmware.rules import MoveError, new_position
        from host.record import san

        if self.start != (game, fen) or moves[: len(self.moves)] != self.moves:
            self.start, self.moves, self.san = (game, fen), [], []
            try:
                self.pos = new_position(game, fen)
            except (MoveError, ValueError, KeyError):
                self.pos = None
        for text in moves[len(self.moves):]:
            if self.pos is not None:
                try:
                    m = self.pos.parse_move(text)
                    text = san(self.pos, m)
                    self.pos.push(m)
                except MoveError:
                    self.pos = None
            self.moves.append(moves[len(self.moves)])
            self.san.append(text)
        return list(self.san)


class BoardFeed:
    """Publishes one bridge's board: its game, position, LED frame and moves.

    follow() chains onto the bridge's on_change; flush(), called by the thread that owns
    the link, asks the board for its state and LED frame when something changed."""

    def __init__(self, bridge: Any, archive: Any, hub: Hub = HUB) -> None:
        self.bridge = bridge
        self.archive = archive
        self.hub = hub
        self.dirty = True
        self.seq = 0  # the last board message seen
        self.heard_at = 0.0  # time.time() it arrived (bench/web_latency.py)
        self.notes: dict[str, Any] = {}  # what the host adds: see annotate()
        self.notation = Notation()
        inner = bridge.on_change

        def changed(seq: int, said: Any) -> None:
            self.dirty = True
            self.seq = seq
            self.heard_at = time.time()
            if inner is not None:
                inner(seq, said)

        bridge.on_change = changed
        self.flush()

    def annotate(self, key: str, value: Any) -> None:
        """Add (or, with None, remove) an entry the board cannot know, published with the
        next flush in the board's snapshot under `key`:

          clocks  {"white": ms left, "black": ms left, "running": "white"|"black"|None,
                   "at": time.time() when the figures were taken, "control": "5+3"}
                  (a page counts the running side down from "at")
          engine  {"side": "white"|"black", "state": "thinking"|"shown", "move": move
                   string or None, "san": SAN or None, "level": text}
        """
        if value is None:
            self.notes.pop(key, None)
        else:
            self.notes[key] = value
        self.dirty = True

    def flush(self) -> None:
        """Publish the board if it changed since the last flush (and is connected)."""
        if not self.dirty or self.bridge.link is None:
            return
        from host.link import BoardError, BridgeTimeout, LinkError, WordsError, read_leds, read_state

        try:
            st = read_state(self.bridge.request("state"))
            leds = read_leds(self.bridge.request("leds"))
        except (BoardError, BridgeTimeout, LinkError, OSError, WordsError):
            return  # the bridge reconnects (or the replies were not the board's); the next flush tries again
        self.dirty = False
        game_id = self.bridge.game_id
        snap: dict[str, Any] = {
            "key": self.bridge.key or self.bridge.port,
            "port": self.bridge.port,
            "game": st.game,
            "state": st.state,
            "fen": st.fen,
            "leds": leds,
            "moves": [],
            "game_id": game_id,
            "result": None,
            "seq": self.seq,
            "heard_at": self.heard_at,
            **self.notes,
        }
        if game_id is not None:
            snap["moves"] = self.archive.moves(game_id)
            row = self.archive.game(str(game_id))
            rnd, board = hall_place(game_tags(row, self.archive.tags(game_id)))
            snap.update(start_fen=row.fen, white=row.white, black=row.black, round=rnd, board_no=board,
                        san=self.notation.sans(row.game, row.fen, snap["moves"]))
            if row.ended:
                snap["result"] = row.result
                snap["reason"] = row.reason
        self.hub.publish("board:" + slug(str(snap["key"])), snap)


class KriegFeed:
    """Publishes a Kriegspiel match: each player's own lines and own board, the public
    announcements, and the umpire's full record once the game is over.

    A player's board is drawn from the lines the host sends that player's board (`krieg`,
    `view`, `verdict legal`: built from that player's knowledge alone, host/commands/kriegspiel.py)
    and its LED frame; nothing is drawn before `krieg`.  Each player's topic is reached
    only through a random secret (`links()`)."""

    VIEW_LINES = ("krieg ", "view ", "verdict legal ")

    def __init__(self, game: str, ends: dict[str, Any], hub: Hub = HUB) -> None:
        self.hub = hub
        self.game = game
        self.ends = ends  # "white"/"black" -> the player's board: request(line) -> reply
        self.views: dict[str, str] = {}  # side -> the view FEN last sent to its board
        self.match = secrets.token_hex(4)
        self.tokens = {side: secrets.token_urlsafe(32) for side in ("white", "black")}
        self.lines: dict[str, list[str]] = {"white": [], "black": [], "public": []}
        for side, end in ends.items():
            self._watch(side, end)
        with hub.lock:
            hub.secrets[self.match] = dict(self.tokens)
        for side in ("white", "black"):
            self._publish(side)
        self._publish_public(None)

    def _watch(self, side: str, end: Any) -> None:
        inner = end.request

        def request(line: str) -> str:
            reply: str = inner(line)
            for head in self.VIEW_LINES:
                if line.startswith(head):
                    words = line[len(head):].split(" ")
                    # krieg GAME SIDE FEN...; view FEN...; verdict legal FEN...
                    self.views[side] = " ".join(words[2:] if head == "krieg " else words)
                    self._publish(side)
            return reply

        end.request = request

    def links(self, base: str) -> dict[str, str]:
        """The three addresses: each player's secret page and the spectators'."""
        out = {side: f"{base}/k/{self.match}/{tok}" for side, tok in self.tokens.items()}
        out["spectators"] = f"{base}/k/{self.match}/watch"
        return out

    def player(self, side: int | str, text: str) -> None:
        """A line told to one player only (their scoresheet); side: WHITE, BLACK or its name."""
        if not isinstance(side, str):
            from firmware.rules.kriegspiel import SIDES

            side = SIDES[side]
        self.lines[side].append(text)
        self._publish(side)

    def public(self, text: str) -> None:
        """A line everybody hears (the spectators too)."""
        self.lines["public"].append(text)
        self._publish_public(None)

    def over(self, record: dict[str, Any], result: str, game_id: int | None) -> None:
        """The game is over: the full record goes to everybody."""
        end = {"record": record, "result": result, "game_id": game_id}
        for side in ("white", "black"):
            self._publish(side, end)
        self._publish_public(end)

    def _leds(self, side: str) -> str:
        from host.link import BoardError, BridgeTimeout, LinkError, WordsError, read_leds

        try:
            return read_leds(self.ends[side].request("leds"))
        except (BoardError, BridgeTimeout, LinkError, OSError, WordsError):
            return ""

    def _publish(self, side: str, end: dict[str, Any] | None = None) -> None:
        fen = self.views.get(side, "")
        self.hub.publish(
            f"krieg:{self.match}:{side}",
            {"game": self.game, "side": side, "fen": fen, "leds": self._leds(side) if fen else "",
             "lines": list(self.lines[side]), "end": end, "at": time.time()},
        )

    def _publish_public(self, end: dict[str, Any] | None) -> None:
        self.hub.publish(
            f"krieg:{self.match}:public",
            {"game": self.game, "lines": list(self.lines["public"]), "end": end, "at": time.time()},
        )
