"""A local lichess for the tests: the Board API's endpoints as lichess's published API
describes them (https://lichess.org/api#tag/Board), played by a scripted opponent.

  GET  /api/account                          {"id", "username"}; 401 without the token
  GET  /api/stream/event                     NDJSON: gameStart for each game begun
  POST /api/board/seek                       held open until the seek is paired (a game begins)
  POST /api/challenge/{id}/accept            the challenge's game begins (its id: the challenge's)
  GET  /api/board/game/stream/{id}           NDJSON: gameFull, then gameState at each change,
                                             chatLine, opponentGone
  POST /api/board/game/{id}/move/{uci}       the player's move (python-chess checks it), then the
                                             opponent's scripted answer
  POST /api/board/game/{id}/draw/{yes|no}, /takeback/{yes|no}, /resign, /abort

A Script says what the opponent does: its moves in order, and at which ply it offers a
draw, accepts one, flags, or the connection drops (before the player's move reaches the
server, or after it was played and before its answer)."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import chess

TOKEN = "lip_fakeTOKENfor-the-tests-0123456789"
ME = "player"


@dataclass
class Script:
    game_id: str
    colour: str  # the player's side
    replies: list[str]  # the opponent's moves, in order
    offer_draw_with: set[int] = field(default_factory=set)  # the opponent's nth move (0-based) comes with a draw offer
    accept_draw: bool = False  # the opponent accepts the player's draw offer
    accept_takeback: bool = False  # the opponent accepts the player's takeback offer
    flag_at_ply: int | None = None  # after the player's move makes this many plies, the opponent's flag falls
    lose_move_at_ply: int | None = None  # the player's move of this ply does not reach the server (down for a while)
    lose_answer_at_ply: int | None = None  # the player's move of this ply is played, its answer lost (down for a while)
    clock: tuple[int, int] = (180000, 2000)
    chat: str | None = "Good luck, have fun"


class Game:
    def __init__(self, script: Script) -> None:
        self.s = script
        self.board = chess.Board()
        self.status = "started"
        self.winner: str | None = None
        self.offers = {"wdraw": False, "bdraw": False, "wtakeback": False, "btakeback": False}
        self.times = {"white": script.clock[0], "black": script.clock[0]}
        self.replied = 0
        self.posted: list[str] = []  # every move the player POSTed that was played
        self.refused: list[str] = []

    def state(self) -> dict:
        d = {"type": "gameState", "moves": " ".join(m.uci() for m in self.board.move_stack),
             "wtime": self.times["white"], "btime": self.times["black"], "winc": self.s.clock[1],
             "binc": self.s.clock[1], "status": self.status, **self.offers}
        if self.winner:
            d["winner"] = self.winner
        return d

    def full(self) -> dict:
        me = {"id": ME, "name": "Player", "rating": 1500}
        them = {"id": "opponent", "name": "Opponent", "rating": 1600}
        return {"type": "gameFull", "id": self.s.game_id, "variant": {"key": "standard", "name": "Standard"},
                "clock": {"initial": self.s.clock[0], "increment": self.s.clock[1]}, "speed": "blitz", "rated": False,
                "white": me if self.s.colour == "white" else them, "black": them if self.s.colour == "white" else me,
                "initialFen": "startpos", "state": self.state()}

    def opponent_to_move(self) -> bool:
        return (self.board.turn == chess.WHITE) != (self.s.colour == "white")

    def reply(self) -> None:
        """The opponent's scripted move, if it is its turn and the game is on."""
        if self.status != "started" or not self.opponent_to_move() or self.replied >= len(self.s.replies):
            return
        move = chess.Move.from_uci(self.s.replies[self.replied])
        assert move in self.board.legal_moves, f"the script's move {move} is not legal"
        self.board.push(move)
        mover = "black" if self.board.turn == chess.WHITE else "white"
        self.times[mover] -= 1500
        if self.replied in self.s.offer_draw_with:
            self.offers[mover[0] + "draw"] = True
        self.replied += 1
        self.ended()

    def ended(self) -> None:
        if self.board.is_checkmate():
            self.status, self.winner = "mate", ("black" if self.board.turn == chess.WHITE else "white")
        elif self.board.is_stalemate():
            self.status = "stalemate"


class Lichess(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.lock = threading.Condition()
        self.games: dict[str, Game] = {}
        self.started: list[str] = []  # game ids begun, in order (gameStart events)
        self.challenges: dict[str, Script] = {}
        self.seeks: list[Script] = []  # what a seek is paired with
        self.down = 0  # requests to drop (a connection lost) before answering again
        self.generation = 0  # bumped to close every open stream (a drop)
        self.log: list[str] = []  # "METHOD path" of every request answered
        self.auth_seen: set[str] = set()
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def begin(self, script: Script) -> None:
        with self.lock:
            self.games[script.game_id] = Game(script)
            self.started.append(script.game_id)
            self.lock.notify_all()

    def changed(self) -> None:
        with self.lock:
            self.lock.notify_all()

    def drop(self, requests: int) -> None:
        """The connection lost: every stream closed, the next `requests` requests dropped."""
        with self.lock:
            self.down = requests
            self.generation += 1
            self.lock.notify_all()

    def stop(self) -> None:
        self.drop(0)
        self.shutdown()
        self.server_close()


class Handler(BaseHTTPRequestHandler):
    server: Lichess
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # quiet
        pass

    def send_json(self, code: int, data: object) -> None:
        body = json.dumps(data).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def start_stream(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

    def chunk(self, obj: object | None) -> None:
        data = (json.dumps(obj) + "\n").encode() if obj is not None else b"\n"
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def gate(self) -> bool:
        """False: the request is dropped (the connection lost) or refused (no token)."""
        srv = self.server
        with srv.lock:
            if srv.down > 0:
                srv.down -= 1
                self.close_connection = True
                return False
        auth = self.headers.get("Authorization", "")
        srv.auth_seen.add(auth)
        if auth != "Bearer " + TOKEN:
            self.send_json(401, {"error": "No such token"})
            return False
        srv.log.append(f"{self.command} {self.path}")
        return True

    def do_GET(self) -> None:
        if not self.gate():
            return
        srv = self.server
        parts = self.path.strip("/").split("/")
        if self.path == "/api/account":
            self.send_json(200, {"id": ME, "username": "Player"})
        elif self.path == "/api/stream/event":
            self.events()
        elif parts[:4] == ["api", "board", "game", "stream"] and len(parts) == 5:
            game = srv.games.get(parts[4])
            if game is None:
                self.send_json(404, {"error": "No such game"})
                return
            self.game_stream(game)
        else:
            self.send_json(404, {"error": "Not found"})

    def events(self) -> None:
        srv = self.server
        self.start_stream()
        with srv.lock:  # at connection: the games under way (as lichess does), then each new one
            ongoing = [gid for gid in srv.started if srv.games[gid].status == "started"]
            sent = len(srv.started)
        gen = srv.generation
        try:
            while True:
                with srv.lock:
                    while not ongoing and sent == len(srv.started) and gen == srv.generation:
                        if not srv.lock.wait(2):
                            break
                    if gen != srv.generation:
                        return
                    todo = ongoing + srv.started[sent:]
                    ongoing = []
                    sent = len(srv.started)
                if not todo:
                    self.chunk(None)  # lichess's keep-alive
                for gid in todo:
                    g = srv.games[gid]
                    self.chunk({"type": "gameStart", "game": {"gameId": gid, "fullId": gid + "abcd",
                                "color": g.s.colour, "fen": g.board.fen(), "isMyTurn": not g.opponent_to_move(),
                                "hasMoved": bool(g.board.move_stack),
                                "variant": {"key": "standard", "name": "Standard"}, "speed": "blitz",
                                "opponent": {"id": "opponent", "username": "Opponent", "rating": 1600},
                                "compat": {"bot": False, "board": True}}})
        except OSError:
            return
        finally:
            self.close_connection = True

    def game_stream(self, game: Game) -> None:
        srv = self.server
        self.start_stream()
        gen = srv.generation
        try:
            with srv.lock:
                game.reply()  # the opponent's first move, when it is white
                last = game.state()
                self.chunk(game.full())
                chatted = False
            while True:
                if game.s.chat and not chatted:
                    self.chunk({"type": "chatLine", "username": "Opponent", "text": game.s.chat, "room": "player"})
                    chatted = True
                with srv.lock:
                    while game.state() == last and gen == srv.generation:
                        if not srv.lock.wait(2):
                            break
                    if gen != srv.generation:
                        return
                    now = game.state()
                if now == last:
                    self.chunk(None)
                    continue
                last = now
                self.chunk(now)
                if now["status"] != "started":
                    return
        except OSError:
            return
        finally:
            self.close_connection = True

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        form = self.rfile.read(length).decode() if length else ""
        if not self.gate():
            return
        srv = self.server
        parts = self.path.strip("/").split("/")
        if self.path == "/api/board/seek":
            assert "time=" in form and "increment=" in form, form
            with srv.lock:
                script = srv.seeks.pop(0)
            srv.begin(script)
            self.send_json(200, {})  # (lichess keeps it open until paired; here it is paired at once)
            return
        if parts[:2] == ["api", "challenge"] and parts[3:] == ["accept"]:
            script = srv.challenges.pop(parts[2], None)
            if script is None:
                self.send_json(404, {"error": "No such challenge"})
                return
            srv.begin(script)
            self.send_json(200, {"ok": True})
            return
        if parts[:3] != ["api", "board", "game"] or len(parts) < 5 or parts[3] not in srv.games:
            self.send_json(404, {"error": "Not found"})
            return
        game = srv.games[parts[3]]
        what, arg = parts[4], parts[5] if len(parts) > 5 else None
        with srv.lock:
            error = self.act(game, what, arg)
            srv.lock.notify_all()
        if error in ("lost", "lost-before"):  # the connection lost: no answer (after the move, or before it)
            self.close_connection = True
            if error == "lost":
                srv.drop(1)
            return
        if error:
            self.send_json(400, {"error": error})
        else:
            self.send_json(200, {"ok": True})

    def act(self, game: Game, what: str, arg: str | None) -> str | None:
        s = game.s
        if game.status != "started":
            return "This game is over"
        if what == "move":
            if game.opponent_to_move():
                game.refused.append(arg or "")
                return "Not your turn, or game already over"
            try:
                move = chess.Move.from_uci(arg or "")
            except ValueError:
                move = None
            if move is None or move not in game.board.legal_moves:
                game.refused.append(arg or "")
                return f"Illegal move: {arg}"
            ply = len(game.board.move_stack) + 1
            if s.lose_move_at_ply == ply:
                s.lose_move_at_ply = None
                self.server.down = 1
                self.server.generation += 1
                self.close_connection = True
                return "lost-before"
            game.board.push(move)
            game.posted.append(arg or "")
            for k in game.offers:
                if k.endswith("draw"):
                    game.offers[k] = False
            game.ended()
            if s.flag_at_ply == ply:
                game.status = "outoftime"
                game.winner = s.colour
                other = "black" if s.colour == "white" else "white"
                game.times[other] = 0
                return None
            game.reply()
            if s.lose_answer_at_ply == ply:
                s.lose_answer_at_ply = None
                return "lost"
            return None
        if what == "draw":
            mine, theirs = s.colour[0] + "draw", ("b" if s.colour == "white" else "w") + "draw"
            if arg == "yes":
                if game.offers[theirs] or s.accept_draw:
                    game.status = "draw"
                    game.offers[mine] = True
                else:
                    game.offers[mine] = True
            else:
                game.offers[theirs] = False
            return None
        if what == "resign":
            game.status = "resign"
            game.winner = "black" if s.colour == "white" else "white"
            return None
        if what == "abort":
            if len(game.board.move_stack) >= 2:
                return "This game can no longer be aborted"
            game.status = "aborted"
            return None
        if what == "takeback":
            if arg != "yes" or not s.accept_takeback:
                game.offers[s.colour[0] + "takeback"] = arg == "yes"
                return None
            # accepted: back to the player's move before their last (the opponent's answer too)
            game.board.pop()
            if game.opponent_to_move():
                game.board.pop()
            return None
        return f"no such action {what}"


def serve(script: Script | None = None) -> Lichess:
    srv = Lichess()
    if script is not None:
        srv.challenges[script.game_id] = script
    return srv


def wait_for(cond, guard_s: float = 60.0) -> None:
    deadline = time.monotonic() + guard_s
    while not cond():
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.02)
