"""One lichess game played on the board: lichess's game stream on one side, the board's
session (host.session's Session: its bridge, archive and view) on the other, kept the same.

The board's moves (the archive's record of its game) and lichess's moves (the last
gameState) are compared after every event of either, and the difference decides:

  lichess has one move more, the opponent's   -> the board is asked to show it (`move`),
                                                 the virtual hands make it (--sim, --pico)
  the board has one move more, the player's   -> it is sent (POST .../move/UCI), once: the
                                                 next gameState has it; while lichess is
                                                 not reachable it waits, shown as not sent,
                                                 and goes when the stream is back and its
                                                 gameFull says it is still missing
  lichess took moves back (a takeback agreed) -> the board takes them back (`undo`)
  anything else                               -> said in words; nothing is sent

So a move is never played twice: it is sent only while lichess's own record lacks it.
"""

from __future__ import annotations

import time
from typing import Any

from firmware.rules import MoveError, new_position
from host.link import BoardError
from host.record import Clock, san

from .api import Api, ApiError, Offline, Stream

RETRY_S = (0.5, 1, 2, 4, 8, 15)  # waits before trying a dropped stream again, then every last one
VARIANTS = {"standard": "chess", "fromPosition": "chess", "chess960": "chess960"}  # lichess's -> the core's
ENDS = {  # lichess's status -> (the archive's reason, what happened in words); the winner decides the result
    "mate": ("checkmate", "checkmate"),
    "resign": ("resign", "{loser} resigned"),
    "stalemate": ("stalemate", "stalemate"),
    "timeout": ("abandoned", "{loser} left the game and {winner} claimed the win"),
    "draw": ("draw", "a draw"),
    "outoftime": ("time", "{loser}'s flag fell"),
    "aborted": ("aborted", "the game was aborted"),
    "noStart": ("aborted", "{loser} did not start the game"),
    "cheat": ("rules-infraction", "{loser} was found cheating"),
    "variantEnd": ("variant-end", "the variant's end"),
    "unknownFinish": ("unknown-finish", "an end lichess does not name"),
}
BOARD_ENDS = ("checkmate", "stalemate")  # ends the board says itself, once the last move stands on it


class LichessClock(Clock):
    """The clocks as lichess's stream tells them: the view and the web page count the side
    to move down from the last gameState; the flag is lichess's to call, never ours."""

    def __init__(self, initial_ms: int, inc_ms: int) -> None:
        mins = initial_ms / 60000
        super().__init__(initial_ms, inc_ms, f"{mins:g}+{inc_ms // 1000}")

    def told(self, wtime: int, btime: int, turn: str | None, now_ms: float) -> None:
        self.left_ms = {"white": int(wtime), "black": int(btime)}
        self.running = turn
        self.since_ms = now_ms

    def flagged(self, now_ms: float) -> str | None:
        return None  # lichess says when a flag falls (status outoftime)

    def run(self, side: str | None, now_ms: float) -> None:
        pass  # only lichess's states start and stop it


class Online:
    """A lichess game (its id) followed on a Session's board; step() after every poll."""

    def __init__(self, session, api: Api, game_id: str, me: str, join: bool = False,  # type: ignore[no-untyped-def]
                 now=time.monotonic) -> None:
        self.session = session
        self.join = join  # a game under way: the board starts from its position now
        self.api = api
        self.id = game_id
        self.me = me.lower()  # the account's id
        self.now = now
        self.colour: str | None = None  # the player's side, from gameFull
        self.game = "chess"
        self.initial: str | None = None  # the start FEN (None: the usual one)
        self.base = 0  # lichess's plies before the board's game began (a game joined under way)
        self.moves: list[str] = []  # lichess's moves, from the last gameState
        self.status = "created"
        self.winner: str | None = None
        self.offers: dict[str, bool] = {}  # wdraw, bdraw, wtakeback, btakeback as last told
        self.names = {"white": "White", "black": "Black"}
        self.clock: LichessClock | None = None
        self.stream: Stream | None = None
        self.fresh = False  # a gameFull came on this stream: lichess's moves are known
        self.down: str | None = None  # why the stream is down (None: up)
        self.retry_at = 0.0
        self.tries = 0
        self.posted: tuple[int, str] | None = None  # the player's move sent and not yet in a gameState
        self.unsent: str | None = None  # the player's move waiting for lichess to be back
        self.refused: tuple[int, str] | None = None  # a move lichess refused (it is taken back)
        self.lit: tuple[int, str] | None = None  # the opponent's move the board was asked to show
        self.board_game: int | None = None  # the archive's game of the board
        self.told_boot: int | None = None  # the board's boot told `computer`
        self.said: set[str] = set()  # notes said once
        self.over = False  # the end archived and said
        self.started = False  # the board's game begun
        self.last_len = 0  # lichess's plies at the last state (a takeback shortens them)
        self.waited = 0  # steps waited for the board to say the end it sees itself
        self.drew = False  # the player offered or accepted a draw
        self.speed = ""
        self.times: dict[int, int] = {}  # lichess's ply -> its mover's time left after it (ms), to archive
        self.rated = False

    # ---- the stream -------------------------------------------------------------------------

    def connect(self) -> None:
        self.stream = self.api.stream(f"/api/board/game/stream/{self.id}")
        self.fresh = False

    def close(self) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None

    def note(self, text: str) -> None:
        self.session.snap.notes.append(text)
        self.session.dirty = True

    def hear(self) -> None:
        """What the stream said since the last step: states taken, a drop said and retried."""
        if self.stream is None:
            if self.down is not None and self.now() >= self.retry_at:
                self.connect()
            return
        for kind, value in self.stream.take():
            if kind == "data" and isinstance(value, dict):
                self.event(value)
            elif kind == "refused" and getattr(value, "status", 0) != 429:  # (429: slowed down, tried again)
                raise OnlineError(f"lichess: the game {self.id} cannot be followed: {value}")
            elif kind == "down" and value != "closed":
                self.stream = None
                self.fresh = False
                if self.over or self.status not in ("started", "created"):
                    return
                wait = RETRY_S[min(self.tries, len(RETRY_S) - 1)]
                self.tries += 1
                if self.down is None:
                    self.note(f"lichess: the connection is lost ({value}): trying again in {wait} s; a move made "
                              "on the board meanwhile is sent when it is back")
                self.down = value
                self.retry_at = self.now() + wait

    def event(self, e: dict[str, Any]) -> None:
        kind = e.get("type")
        if kind == "gameFull":
            first = not self.started
            self.full(e)
            if self.down is not None:
                self.note("lichess: connected again; the game goes on")
                self.down = None
            self.tries = 0
            self.fresh = True
            if first:
                return
            self.state(e.get("state") or {})
        elif kind == "gameState":
            self.state(e)
        elif kind == "chatLine":
            self.note(f"lichess chat, {e.get('username', '?')}: {str(e.get('text', ''))[:200]}")
        elif kind == "opponentGone":
            if e.get("gone"):
                secs = e.get("claimWinInSeconds")
                self.note("lichess: your opponent has left the game" + (
                    f"; you may claim the win in {secs} s" if isinstance(secs, int) and secs > 0 else
                    "; you may claim the win now (type claim win)" if secs == 0 else ""))
            else:
                self.note("lichess: your opponent is back")

    def full(self, e: dict[str, Any]) -> None:
        """gameFull: the variant, the players, the clock; the player's side."""
        variant = (e.get("variant") or {}).get("key", "standard")
        if variant not in VARIANTS:
            raise OnlineError(f"lichess game {self.id} is {variant}: the board plays standard chess, from a position, "
                              "and chess960")
        self.game = VARIANTS[variant]
        fen = e.get("initialFen")
        self.initial = None if fen in (None, "", "startpos") else fen
        for side in ("white", "black"):
            p = e.get(side) or {}
            name = p.get("name") or p.get("id") or ("AI level %s" % p["aiLevel"] if "aiLevel" in p else side.capitalize())
            self.names[side] = str(name)
            if str(p.get("id", "")).lower() == self.me:
                self.colour = side
        if self.colour is None:
            raise OnlineError(f"lichess game {self.id} is not yours: you ({self.me}) play neither side")
        c = e.get("clock")
        if isinstance(c, dict) and self.clock is None:
            self.clock = LichessClock(int(c.get("initial", 0)), int(c.get("increment", 0)))
        self.speed = e.get("speed", "")
        self.rated = bool(e.get("rated"))
        st = e.get("state") or {}
        if not self.started:
            self.state(st, begin=True)

    @property
    def opponent(self) -> str:
        return "black" if self.colour == "white" else "white"

    def state(self, st: dict[str, Any], begin: bool = False) -> None:
        moves = str(st.get("moves", "")).split()
        shrank = len(moves) < len(self.moves)
        if moves != self.moves:
            self.refused = None  # (a move refused may be sent again in another position)
        self.moves = moves
        self.status = str(st.get("status", self.status))
        self.winner = st.get("winner")
        if self.posted is not None and (len(moves) > self.posted[0] or shrank):
            self.posted = None
        if moves and "wtime" in st:
            mover = "white" if self.turn(len(moves)) == "black" else "black"
            self.times[len(moves)] = int(st["wtime"] if mover == "white" else st.get("btime", 0))
        if self.clock is not None and "wtime" in st:
            running = self.turn(len(moves)) if self.status == "started" and len(moves) >= 2 else None
            self.clock.told(int(st["wtime"]), int(st.get("btime", 0)), running, self.session.now())
            self.session.publish()
        if begin:
            self.begin()
        self.offered(st)
        if shrank and not begin and not self.over:
            self.taken_back()
        self.session.dirty = True

    def offered(self, st: dict[str, Any]) -> None:
        """Draw and takeback offers, said in words as they come and go."""
        mine, theirs = (self.colour or "white")[0], self.opponent[0]
        for what in ("draw", "takeback"):
            if st.get(theirs + what) and not self.offers.get(theirs + what):
                self.note(f"lichess: {self.names[self.opponent]} offers a {what}: type {what} to accept, "
                          f"{what} no to decline")
            if self.offers.get(mine + what) and not st.get(mine + what) and self.status == "started" \
                    and len(self.moves) >= self.last_len:
                self.note(f"lichess: your {what} offer is declined (or lapsed with a move)")
            self.offers[theirs + what] = bool(st.get(theirs + what))
            self.offers[mine + what] = bool(st.get(mine + what))
        self.last_len = len(self.moves)

    def turn(self, plies: int) -> str:
        """The side to move after `plies` of lichess's moves."""
        white_first = (self.initial or "startpos w").split()[1] == "w"
        return "white" if (plies % 2 == 0) == white_first else "black"

    # ---- the board ----------------------------------------------------------------------------

    def begin(self) -> None:
        """The board's game begun: from lichess's start, or, for a game under way, from its
        position now (the earlier moves stay on lichess: the link is archived)."""
        s = self.session
        fen = self.initial
        if self.moves and self.join:
            pos = new_position(self.game, self.initial)
            for m in self.moves:
                pos.push_str(m)
            fen = pos.fen()
            self.base = len(self.moves)
            self.note(f"lichess: joined at ply {self.base}: the board starts from the game's position now "
                      f"(the moves before are on https://lichess.org/{self.id})")
        if self.game == "chess960" and fen is None:
            fen = self.initial
        s.adjourn("a lichess game")
        s.start(self.game, fen, again=True, forget=True)  # (a chess960 start: guided man by man on a real board)
        s.serve(0)
        self.started = True
        self.tell_board()
        if self.clock is not None:
            s.clock = self.clock
        self.note(f"lichess game https://lichess.org/{self.id}: you play {self.colour} against "
                  f"{self.names[self.opponent]}" + (f" ({self.clock.control})" if self.clock else ""))

    def archive_tags(self) -> None:
        gid = self.board_game
        if gid is None:
            return
        a = self.session.archive
        a.set_tag(gid, "Site", f"https://lichess.org/{self.id}")
        a.set_tag(gid, "White", self.names["white"])
        a.set_tag(gid, "Black", self.names["black"])
        a.set_tag(gid, "Event", f"lichess {'rated' if self.rated else 'casual'} {self.speed or ''} game".replace("  ", " "))
        if self.clock is not None:
            a.set_time_control(gid, self.clock.pgn_time_control())
        a.set_tag(gid, "LichessId", self.id)

    def tell_board(self) -> None:
        """The board told the opponent's side is the host's (`computer`): no man of that side
        is read from the pieces; its moves come from lichess.  Again after a reset."""
        s = self.session
        if self.colour is None or self.told_boot == s.bridge.boot:
            return
        s.bridge.request("computer " + self.opponent)
        self.told_boot = s.bridge.boot

    def board_moves(self) -> list[str] | None:
        """The moves of the board's game (the archive's record of it), None before it has one.
        The board's game is the bridge's: a fork (the board's record and the archive's parted)
        files it anew, and the new archive game is tagged in its turn."""
        s = self.session
        gid = s.bridge.game_id
        if gid is None:
            return None
        if gid != self.board_game:
            self.board_game = gid
            self.archive_tags()
        return s.archive.moves(gid)

    def step(self) -> None:
        """After every poll of the board: the stream heard, the board and lichess made the same."""
        self.hear()
        if not self.started or self.over:
            return
        s = self.session
        if s.clock is not self.clock and self.clock is not None:
            s.clock = self.clock  # (a new game's event makes the session's clock again)
        try:
            self.tell_board()
        except BoardError:
            pass
        self.sync()
        self.clocks()
        if self.status not in ("started", "created"):
            self.end()

    def sync(self) -> None:
        board = self.board_moves()
        if board is None:
            return
        online = self.moves[self.base:]
        n = len(board)
        if board == online:
            self.unsent = None
            return
        if len(online) > n and online[:n] == board:
            self.show(n, online[n])  # the opponent's; or the player's, made elsewhere (the website)
            return
        if n > len(online) and board[:len(online)] == online:
            if n == len(online) + 1 and self.turn(self.base + len(online)) == self.colour:
                self.send(len(online), board[-1])
            elif "behind" not in self.said:
                self.said.add("behind")
                self.note("the board has moves lichess has not: " + " ".join(board[len(online):]))
            return
        if "differ" not in self.said:
            self.said.add("differ")
            first = next(i for i in range(min(n, len(online)) + 1) if i >= min(n, len(online)) or board[i] != online[i])
            self.note(f"the board's game and lichess's differ from ply {self.base + first + 1}: nothing is sent; "
                      f"lichess has {' '.join(online[first:]) or 'nothing'}, the board {' '.join(board[first:]) or 'nothing'}")

    def clocks(self) -> None:
        """lichess's times archived with the moves the board has (over the session's own
        reckoning, which the board's move event wrote)."""
        board = self.board_moves()
        if board is None or self.board_game is None:
            return
        for ply in [p for p in self.times if p - self.base <= len(board)]:
            if ply > self.base:
                self.session.archive.set_clock(self.board_game, ply - self.base, self.times[ply])
            del self.times[ply]

    def show(self, ply: int, move: str) -> None:
        """The opponent's move shown on the board, once; the virtual hands make it."""
        if self.lit == (ply, move):
            return
        s = self.session
        st = s.bridge.state()
        if st.state not in ("idle", "over"):
            return  # a man in the player's hand, a correction: the move waits for the board
        try:
            pos = new_position(self.game, st.fen)
            m = pos.parse_move(move)
        except (MoveError, ValueError):
            self.lit = (ply, move)
            self.note(f"lichess's move {move} is not legal on the board: nothing is shown (quit, and see the game "
                      f"at https://lichess.org/{self.id})")
            return
        text = san(pos, m)
        try:
            s.bridge.request("move " + move)
        except BoardError as e:  # (tried again at the next step, said once)
            if f"lit {ply}" not in self.said:
                self.said.add(f"lit {ply}")
                self.note(f"the board does not take lichess's move {move} yet ({e}): tried again")
            return
        self.lit = (ply, move)
        mine = self.turn(self.base + ply) == self.colour
        who = "your move, made on lichess," if mine else self.names[self.opponent] + " plays"
        self.note(f"{who} {text} ({move})" + (": make it on the board" if not s.sim else ""))
        if s.sim:
            s.make_move(pos, m)  # the virtual hands make it, as a person would

    def send(self, ply: int, move: str) -> None:
        """The player's move sent, once, while lichess lacks it."""
        if self.posted == (ply, move) or self.refused == (ply, move):
            return
        if not self.fresh:
            if self.unsent != move:
                self.unsent = move
                self.note(f"your move {move} is not sent yet: lichess is not reachable; it goes when the connection "
                          "is back")
            return
        try:
            self.api.post(f"/api/board/game/{self.id}/move/{move}")
        except Offline as e:
            self.unsent = move
            self.fresh = False  # the next gameFull tells whether it arrived
            self.note(f"your move {move} is not sent: {e}; it goes when the connection is back, unless lichess has it")
            return
        except ApiError as e:
            self.refused = (ply, move)
            self.note(f"lichess refuses your move {move}: {e}: it is taken back on the board")
            self.take_back(1)
            return
        if self.unsent == move:
            self.note(f"your move {move} is sent now")
        self.unsent = None
        self.posted = (ply, move)

    def taken_back(self) -> None:
        board = self.board_moves()
        online = self.moves[self.base:]
        if board is None or len(board) <= len(online) or board[:len(online)] != online:
            return
        n = len(board) - len(online)
        self.note(f"lichess: a takeback: {n} {'move' if n == 1 else 'moves'} taken back on the board")
        self.take_back(n)

    def take_back(self, n: int) -> None:
        s = self.session
        for _ in range(n):
            s.bridge.request("undo")
        self.lit = None
        if s.sim:  # the virtual hands put the men back
            s.hand("sim setup")
            s.hand("sim wait 100")

    # ---- the end ------------------------------------------------------------------------------

    def end(self) -> None:
        """lichess's end archived (the board's own end where the board says it) and said."""
        board = self.board_moves()
        if board is not None and board != self.moves[self.base:]:
            return  # the last move first (the mate the board is to show)
        reason, words = ENDS.get(self.status, ("unknown-finish", self.status))
        result = "1-0" if self.winner == "white" else "0-1" if self.winner == "black" else (
            "*" if reason == "aborted" else "1/2-1/2")
        if reason == "draw" and self.offers.get("wdraw") is not None:
            reason = "agreement" if self.agreed else "draw"
        s = self.session
        gid = self.board_game
        row = s.archive.game(str(gid)) if gid is not None else None
        if reason in BOARD_ENDS and row is not None and not row.ended:
            if self.waited < 20:  # the board says its end in its next scan
                self.waited += 1
                return
        if reason == "time" and row is not None and not row.ended:
            try:
                s.bridge.request(f"end time {result}")
            except BoardError:
                pass
            s.serve(0)
        elif gid is not None:
            s.archive.finish(gid, result, reason)
        self.over = True
        loser = "White" if self.winner == "black" else "Black" if self.winner == "white" else "the opponent"
        winner = "White" if self.winner == "white" else "Black" if self.winner == "black" else "the other side"
        self.note(f"lichess: the game is over: {words.format(loser=loser, winner=winner)}: {result}; archived as game "
                  f"{gid} (https://lichess.org/{self.id})")
        self.close()

    @property
    def agreed(self) -> bool:
        return bool(self.offers.get("wdraw") or self.offers.get("bdraw") or self.drew)

    # ---- the player's words -------------------------------------------------------------------

    def typed(self, words: list[str]) -> bool:
        """draw, takeback (yes|no), resign, abort, claim win: False if the line is not one."""
        if not words:
            return False
        cmd = words[0]
        if cmd in ("draw", "takeback") and len(words) <= 2:
            answer = "no" if words[1:] == ["no"] else "yes" if words[1:] in ([], ["yes"]) else None
            if answer is None:
                self.note(f"{cmd}: {cmd} (offer, or accept one offered) or {cmd} no (decline)")
                return True
            if cmd == "draw" and answer == "yes":
                self.drew = True
            self.post(f"/{cmd}/{answer}", f"{cmd} {'offered or accepted' if answer == 'yes' else 'declined'}")
            return True
        if cmd in ("resign", "abort") and len(words) == 1:
            self.post(f"/{cmd}", f"{'resignation' if cmd == 'resign' else 'abort'} sent")
            return True
        if words == ["claim", "win"]:
            self.post("/claim-victory", "the win claimed")
            return True
        return False

    def post(self, tail: str, done: str) -> None:
        try:
            self.api.post(f"/api/board/game/{self.id}{tail}")
        except (Offline, ApiError) as e:
            self.note(f"{tail.strip('/').replace('/', ' ')}: {e}")
            return
        self.note(f"lichess: {done}")

    def status_lines(self) -> list[str]:
        """The view's lines for lichess: the link, the connection, a move not sent, offers."""
        out = [f"lichess https://lichess.org/{self.id}: {self.names['white']} - {self.names['black']}"
               + (f", you play {self.colour}" if self.colour else "")]
        if self.down is not None:
            out.append(f"lichess: not connected ({self.down}); trying again")
        if self.unsent is not None:
            out.append(f"not sent yet: your move {self.unsent}")
        for side in ("w", "b"):
            for what in ("draw", "takeback"):
                if self.offers.get(side + what):
                    who = "you" if side == (self.colour or "w")[0] else self.names[self.opponent]
                    out.append(f"{what} offered by {who}")
        return out


class OnlineError(Exception):
    """A lichess game that cannot be played on the board: why, in words."""
