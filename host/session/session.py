"""The session of one board: its bridge to the archive, the view, the computer, the clock,
and the commands a person types (`eboard play`, board-engine).

Commands, one a line:
  e2e4, Nf3, exd5, O-O, e8=Q    a move, as squares or SAN (several on a line: all or
                  none): on the virtual board the hands make it (lift, place); on a real
                  board the host sends it, and the board shows how to make it
  lift SQ, place SQ, wait MS     the virtual board's hands, one at a time
  new GAME [FEN]  a new game        undo    take back (the view says which man goes back
                  where; on the virtual board the hands do it; against the computer, your
                  last move and its answer)
  new GAME [FEN] vs computer [LEVEL] [white|black]   a game against the computer (you
                  play white, or the side named; LEVEL 1-8); vs human: no computer
                  (a plain new GAME keeps the opponent of the game before)
  hint            the engine's move for you, lit h on the board until you lift a man
  make            (virtual board) the hands make the computer's move lit on the board
  promote X       choose a promotion (or on the board: lift the new piece and put it back
                  for the next choice; the one shown when play goes on is taken; no time
                  limit. A typed move like e8=Q or e7e8q chooses by itself; e7e8 asks which;
                  lippo's e11e12s keeps the Soldier)
  battle          chess from a screened free setup (docs/rules/battle-setup.md): the board
                  asks for each man in turn; on the virtual board, the hands set up
                  random arrays
  resign, draw    resign, or offer a draw (the side to move; resign|draw white|black: the
                  side named); accept or decline it (the computer answers at once)
  claim           a draw by repetition or the move count, as the rules core finds it; lippo:
                  claim perpetual|declare|demand    moves   the legal moves
  on the board    both kings on the 4 centre squares, held: both light 1-0, both dark 0-1,
                  one of each a draw (docs/results.md)
  help            this text         quit    (or end of input, Ctrl-C) adjourns the game (a new
                  GAME or battle adjourns it too): --resume ID goes on with it
  help pieces     the key to the pieces: letters, names, points, how each moves
                  (help pieces N: one piece, its moves drawn)
"""

from __future__ import annotations

import shlex
import shutil
import time
from collections.abc import Callable
from typing import TextIO

from firmware.terms import KEPT_ENDS
from firmware.rules import MoveError, new_position
from firmware.rules.board import BLACK, WHITE
from firmware.squares import Geometry
from firmware.hands import hand_moves
from host.record import Archive
from host.record import Bridge
from host.link import Alert, BoardError, BridgeTimeout, End, Event, LinkError, Move, NewGame, NewPosition, Said, Undo, read_occupancy, read_version
from host.record import Clock, fmt
from host.record import WhichPiece, parse_line, san, san_list
from host.record import computer_words, end_words, move_text_words, takeback_words
from host.session.opponent import Job, Opponent, OpponentError, flag_result
from host.session.start import check
from host.session.takeback import note as takeback_note
from host.session.view import Snapshot, correction_words, render

HELP = (__doc__ or "").partition("\n\n")[2].strip()  # the `help` page: the commands above
COMMIT_WAIT_MS = 3000  # virtual time after a move made by hand: its calm has passed
HINT_MS = 1000  # what a hint may take
DRAW_LOOK_MS = 300  # what the computer looks at a draw offered to it
DRAW_MARGIN_CP = 25  # it takes the draw unless it finds itself better by more (centipawns)
ENGINE_NAMES = ("eboard engine", "UCI engine")  # the computer's names of its own (Opponent.name), set again
CLAIM_COUNT = {"chess-t1": 40}  # the move count a draw is claimed by (the core's outcome(claim=True))
PLAYING = ("idle", "moving", "pending", "promoting", "correcting")  # board states of a game on


WAITING = {  # why the board takes no move in a state of a game (docs/protocol.md's `state`)
    "setup": "the board waits for the men to be set up as it shows",
    "moving": "a man is lifted: put it down first (or make the move with it)",
    "pending": "the move just made is not settled yet: type it again in a moment",
    "promoting": "a promotion waits for its piece: promote X first",
    "correcting": "the board waits for the men to stand as it shows (m: a man goes there, "
                  "lippo's new Soldiers too; r: a man to take away)",
    "over": "the game has ended",
}


ASK_WAIT_S = 30  # seconds the hands of a screened setup wait for the board to ask for a man


class PlayError(Exception):
    pass


class Session:
    """A board, its bridge to the archive, and the view."""

    def __init__(
        self, port: str, archive: Archive, sim: bool, out: TextIO, colour: bool, hands=None, timeout_s: float = 5.0
    ) -> None:
        self.port = port
        self.archive = archive
        self.sim = sim
        self.out = out
        self.colour = colour
        self.snap = Snapshot(port=port)
        self.asked: Said | None = None  # the last man the board asked for in a screened setup (`arrange`)
        self.which: dict[str, str] = {}  # a promotion asked about: its piece's letter -> the move
        self.typed = False  # the hands make a typed move: its promotion's piece is known already
        self.tags: dict[str, str] = {}  # PGN tags for every game played (--white, ...)
        self.tagged: set[int | None] = {None}
        self.dirty = True
        self.undone: list[str] = []  # moves taken back, to be said in words
        self.computer: Opponent | None = None  # the computer's side, when it plays
        self.control: str | None = None  # the time control ("5+3") each game's clock starts from
        self.clock: Clock | None = None
        self.job: Job | None = None  # the engine thinking, in its thread
        self.thought = ""  # the position the computer last answered (its move was sent)
        self.shown: tuple[str, str] | None = None  # (FEN before it, move) of the computer's move to make
        self.feed = None  # the web room's BoardFeed (--web)
        self.heard = True  # the board said something since the last refresh
        self.fen_now: str | None = None  # the board's position as its events tell it (the view's may lag)
        self.told: tuple[int | None, str] = (None, "-")  # (the board's boot, the side it was told: `computer`)
        self.now = lambda: time.monotonic() * 1000  # ms; tests give their own
        self.clock_row: int | None = None  # the screen's row of the clock's line (a terminal)
        self.clock_shown = ""  # the clock's line as it was last drawn
        self.moved_since_start = False  # a move since the board last said the men stand (start, synced)
        self.moved_since_ask = False  # a move since the host asked which piece a typed promotion takes
        self.pico = False  # an emulated Pico (its games go on with --resume ID --pico)
        self.speaker = None  # --speak, --words: a host.record.Speaker that says every move and end (issue #37)
        self.seed: int | None = None  # --seed: the virtual hands' battle arrays (None: fresh ones each time)
        self.offer: tuple[int | None, str, int] | None = None  # a draw offered: (game, side, the ply it lapses at)
        self.real_port = False  # the board is on a port of its own (--port: the resume hint names it)
        self.archive_given = False  # --archive PATH (the resume hint names it)
        self.bridge = Bridge(port, archive, on_change=self._changed, timeout_s=timeout_s, on_note=self._note)
        try:
            self.bridge.connect()
        except (LinkError, BridgeTimeout, BoardError) as e:
            raise PlayError(str(e)) from None
        # the `sim` hand commands: the virtual board's, or hands(request) for another board's
        self.hand = hands(self.bridge.request) if hands else self.bridge.request
        self.sim = sim or read_version(self.bridge.request("version")).profile == "sim"

    # ---- the computer and the clock ------------------------------------------------------------

    def versus(self, opponent: Opponent | None, control: str | None = None) -> None:
        """Play against opponent (None: two people) and on the clock control (None: no clock)
        from the next game on; the board is told which side the host plays."""
        self.computer = opponent
        self.control = control
        self.clock = Clock.parse(control) if control else None
        self.thought = ""
        self.publish()

    def _tell_board(self) -> None:
        """The board told which side the host plays (`computer`), once a game is on: its
        code is loaded only then, beside the game's tables, not before them (lippo's need
        the heap in one piece).  The board forgets it at a reset."""
        want = self.computer.side if self.computer else "-"
        boot, told = self.told
        if (boot, told) == (self.bridge.boot, want) or (want == "-" and (boot != self.bridge.boot or told == "-")):
            return
        self.bridge.request("computer " + want)
        self.told = (self.bridge.boot, want)

    def _turn(self) -> str:
        return "white" if self.snap.fen.split()[1:2] == ["w"] else "black"

    def publish(self) -> None:
        """The clocks and the computer's state to the web page (BoardFeed.annotate)."""
        if self.feed is None:
            return
        c = self.clock
        if c is not None:
            now = self.now()
            self.feed.annotate("clocks", {"white": c.left("white", now), "black": c.left("black", now),
                                          "running": c.running, "at": time.time(), "control": c.control,
                                          "delay": c.delay_left(now)})
        else:
            self.feed.annotate("clocks", None)
        if self.computer is None:
            self.feed.annotate("engine", None)
            return
        state, move, text = "shown", None, None
        if self.job is not None and self.job.kind == "move":
            state = "thinking"
        elif self.shown is not None:
            move = self.shown[1]
            pos = new_position(self.snap.game, self.shown[0])
            text = san(pos, pos.parse_move(move))
        self.feed.annotate("engine", {"side": self.computer.side, "state": state, "move": move, "san": text,
                                      "level": self.computer.describe()})

    def tick(self, now_ms: float | None = None) -> None:
        """After every poll: the clock (started, flag fallen), the computer's turn (a search
        started, or its move sent to the board), a hint done."""
        now = self.now() if now_ms is None else now_ms
        if self.dirty and self.fen_now is not None and self.snap.state in PLAYING:
            # The player's move just heard: the search starts before the view is drawn
            # again (its requests are round trips to the board, slow on a Pico).
            self._think(self.fen_now, now)
        if self.dirty:
            self.refresh()
        over = self.snap.state == "over"
        if self.snap.state in PLAYING:
            self._tell_board()
        c = self.clock
        # (the clock runs from the game's first move on: before it no flag falls, and no
        # game of no move is ended on time)
        if c is not None and not over and c.fallen is None and c.started:
            if c.running is None and self.snap.state in PLAYING:
                c.run(self._turn(), now)  # a resumed game's clock: the side to move's time runs
                self.dirty = True
                self.publish()
            flagged = c.flagged(now)
            if flagged is not None:
                result = flag_result(self.snap.game, self.snap.fen, flagged)
                self.snap.notes.append(f"{flagged.capitalize()}'s flag fell: " + (
                    "a draw (the other side cannot mate)" if result == "1/2-1/2" else f"{result}"))
                self.job = None  # a search under way is forgotten
                self.bridge.request(f"end time {result}")
                self.dirty = True
                self.publish()
                return
        job = self.job
        if job is not None and job.done():
            self.job = None
            self._finished(job)
            return
        if not over and self.snap.state in PLAYING:
            # (a move said while the view asked the board is in fen_now already)
            self._think(self.fen_now or self.snap.fen, now)

    def _think(self, fen: str, now: float) -> None:
        """The computer's search of fen started, if it is its move there (the game on, its
        clock not fallen) and fen was not searched yet."""
        opp = self.computer
        if (opp is None or self.job is not None or fen == self.thought or fen.split()[1:2] != [opp.side[0]]
                or (self.clock is not None and self.clock.fallen is not None)):
            return
        if new_position(self.snap.game, fen).outcome() is not None:
            return
        self._tell_board()
        self.thought = fen
        self.job = opp.think("move", self.snap.game, fen, opp.limits(self.clock, now))
        self.snap.notes.append(f"the computer is thinking ({opp.describe()})")
        self.dirty = True
        self.publish()

    def _finished(self, job: Job) -> None:
        if self.heard:  # the board said something while the engine thought
            self.refresh()
        self.dirty = True
        if job.error is not None or job.reply is None:
            self.snap.notes.append(job.error or "the engine gave no move")
            return
        reply = job.reply
        if reply.note:
            self.snap.notes.append(reply.note)
        if self.snap.fen != job.fen or self.snap.state == "over":
            return  # the game went on without it (a takeback, a new game, a flag)
        pos = new_position(self.snap.game, job.fen)
        text = san(pos, reply.move)
        if job.kind == "hint":
            self.bridge.request("hint " + reply.move_str)
            self.snap.notes.append(f"hint: {text} ({reply.move_str}), lit h on the board")
            return
        self.shown = (job.fen, reply.move_str)
        if reply.engine != "ours" and self.bridge.game_id is not None and self.computer is not None \
                and self.computer.engine != "ours":  # the UCI engine's own name, now known
            self._file_game(self.bridge.game_id, reply.engine)
        self.bridge.request("move " + reply.move_str)
        self.snap.notes.append(f"the computer plays {text} ({reply.move_str}): make it on the board"
                               + (" (or type make)" if self.sim else ""))
        self._say(lambda lang: computer_words(pos, reply.move, lang))
        self.publish()

    def serve(self, wait_s: float) -> None:
        """The link served for up to wait_s (less once the engine is done), then tick()."""
        if self.job is not None:
            self.bridge.poll(0)
            self.job.wait(wait_s)  # back the moment the engine has its move
        else:
            self.bridge.poll(wait_s)
        self.tick()

    def busy(self) -> bool:
        """Is the computer to move (thinking, or about to)?  Typed lines wait meanwhile."""
        if self.job is not None and self.job.kind == "move":
            return True
        opp = self.computer
        return (opp is not None and self.snap.state in PLAYING and self._turn() == opp.side
                and self.snap.fen != self.thought)

    def _say(self, sentence) -> None:  # type: ignore[no-untyped-def]
        """sentence(lang) said by the speaker, if there is one (--speak, --words)."""
        if self.speaker is not None:
            self.speaker.say(sentence(self.speaker.lang))

    def _note(self, text: str) -> None:
        # What the bridge says in words (an end no host here asked for, a fork): in the view.
        self.snap.notes.append(text)
        self.dirty = True

    def _changed(self, seq: int, said: Event) -> None:
        self.dirty = True
        self.heard = True
        word = said.word
        c = self.clock
        mover = None  # the side whose move this is, from the position before it
        if isinstance(said, Move) and self.fen_now is not None:
            mover = "white" if self.fen_now.split()[1:2] == ["w"] else "black"
            if self.shown != (self.fen_now, said.move):  # (the computer's move is said as it is sent: _finished)
                self._say(lambda lang, game=self.snap.game, fen=self.fen_now, m=said.move:
                          move_text_words(game, fen, m, lang))
            try:  # the position the board now has, known without asking it
                pos = new_position(self.snap.game, self.fen_now)
                pos.push_str(said.move)
                self.fen_now = pos.fen()
            except (MoveError, ValueError):
                self.fen_now = None
        elif word in ("undo", "newgame", "position", "hello", "end"):
            self.fen_now = None
        if isinstance(said, Move) and c is not None:
            # (the first move starts the clock, as e-board clocks do: it is charged nothing)
            left = c.moved(self.now(), mover or self._turn())
            if left is not None and self.bridge.game_id is not None:
                self.archive.set_clock(self.bridge.game_id, said.ply, left)
                self.keep_clock()
            self.publish()
        elif isinstance(said, (NewGame, NewPosition)):
            self.clock = Clock.parse(self.control) if self.control else None
            self.shown = None
            self.thought = ""
            self.publish()
        elif isinstance(said, Undo):  # a position searched before may come again: it is searched again
            self.shown = None
            self.thought = ""
            if c is not None and c.running is not None:  # the move taken back: its mover's time runs again
                c.run("white" if c.running == "black" else "black", self.now())
                self.publish()
        elif isinstance(said, End) and c is not None:
            c.run(None, self.now())
            self.publish()
        if word == "synced":
            self.shown = None
            self.publish()
        if word in ("start", "synced"):
            self.moved_since_start = False
        elif isinstance(said, Move):
            self.moved_since_start = self.moved_since_ask = True
        if isinstance(said, Undo):  # said in words by refresh (host/session/takeback.py)
            self.undone.append(said.move)
            if self.snap.state == "over":
                self.snap.notes.append("the end of the game is taken back with its last move: the game goes on")
        elif word in ("promote", "choice") and self.typed:
            pass  # the board's question of a promotion typed with its piece: answered at once, not asked
        elif word in ("end", "start", "synced", "promote", "choice", "alert", "undo", "array"):
            self.snap.notes.append(said_in_words(self.snap.game, said))
        if isinstance(said, End):
            self._say(lambda lang: end_words(said.reason, said.result, lang))
        if isinstance(said, Said) and word == "arrange":
            self.asked = said

    def refresh(self) -> None:
        self.heard = False
        st = self.bridge.state()
        self.snap.leds = self.bridge.leds()
        self.snap.game, self.snap.state, self.snap.fen = st.game, st.state, st.fen
        self.fen_now = st.fen if st.state in PLAYING else None
        if self.undone:
            self.snap.notes.append(takeback_note(st.game, st.fen, self.undone))
            self._say(lambda lang, undone=list(self.undone): takeback_words(st.game, st.fen, undone, lang))
            self.undone = []
        self.snap.game_id = self.bridge.game_id
        self.snap.status = []
        self.snap.doing = ""
        self._retire(st.state)
        if self.shown is not None and st.state in ("setup", "correcting", "moving", "pending"):
            pos = new_position(st.game, self.shown[0])
            self.snap.doing = f"waits for the computer's {san(pos, pos.parse_move(self.shown[1]))} ({self.shown[1]}) to be made"
        if self.clock is not None:
            self.snap.status.append(self.clock.text(self.now(), self._turn()))
        if self.computer is not None:
            doing = "thinking" if self.job is not None and self.job.kind == "move" else (
                f"waits for its move {self.shown[1]} to be made" if self.shown else "waits")
            self.snap.status.append(f"the computer plays {self.computer.side}: {doing}")
        game_id = self.bridge.game_id
        if game_id is not None and game_id not in self.tagged:  # --white, --black, ..., the clock
            self.tagged.add(game_id)
            self._file_game(game_id)
        self.snap.moves = []
        before = last = None  # the position before the last move, and that move
        if self.bridge.game_id:  # the moves in SAN, from the game's start
            row = self.archive.game(str(self.bridge.game_id))
            moves = self.archive.moves(self.bridge.game_id)
            self.snap.moves = san_list(row.game, row.fen, moves)
            if st.state == "correcting" and moves:
                pos = new_position(row.game, row.fen)
                for m in moves[:-1]:
                    pos.push_str(m)
                before, last = pos.fen(), moves[-1]
        if st.state == "correcting":  # which man goes where, in words
            self.snap.status.append(correction_words(st.game, st.fen, self.snap.leds, before, last))

    def _retire(self, state: str) -> None:
        """The notes of a moment gone dropped from the view (issue #34, 6): a promotion's
        question once none waits, "the computer is thinking" once it is not, its move to be
        made once it was made, the board's "play may begin" once play went on."""
        thinking = self.job is not None and self.job.kind == "move"

        def stale(note: str) -> bool:
            if state != "promoting" and note.startswith(("a promotion: which piece?", "the board shows the ")):
                return True
            if "promotes: which piece?" in note:  # the host's question of a typed move: until a move
                return self.moved_since_ask
            if note.startswith("the computer is thinking"):
                return not thinking
            if note.startswith("the computer plays ") and note.endswith(("make it on the board", "(or type make)")):
                return self.shown is None
            return note.startswith(("the men stand where they should", "the men stand as the board shows")) and (
                self.shown is not None or self.moved_since_start)

        self.snap.notes[:] = [n for n in self.snap.notes if not stale(n)]

    def _file_game(self, game_id: int, engine_name: str | None = None) -> None:
        """The game's tags as play was given them (--white, --round, ...), and the computer's
        part: its side, engine, level and time a move (`play --resume` plays it again), its
        name where no name was given (our engine's, or the UCI engine's own, `id name`, once
        it has answered: engine_name) and WhiteType/BlackType as PGN has them."""
        for name, value in self.tags.items():
            self.archive.set_tag(game_id, name, value)
        opp = self.computer
        if opp is not None:
            self.archive.set_opponent(game_id, opp.side, opp.engine, opp.level_no, opp.movetime_ms)
            named = getattr(self.archive.game(str(game_id)), opp.side)
            if opp.side not in self.tags and (named == "?" or named.startswith(ENGINE_NAMES)):
                self.archive.set_tag(game_id, opp.side, opp.name(engine_name))
            human = "black" if opp.side == "white" else "white"
            self.archive.set_tag(game_id, opp.side.capitalize() + "Type", "program")
            self.archive.set_tag(game_id, human.capitalize() + "Type", "human")
        if self.clock is not None:  # (the clocks' own record: host/record/clock.py's)
            self.archive.set_time_control(game_id, self.clock.pgn_time_control())

    def show(self) -> None:
        self.refresh()
        size = None
        if self.colour:  # a terminal: the view fits its rows, a long page cut at its width
            self.out.write("\x1b[H\x1b[2J")
            size = tuple(shutil.get_terminal_size())
        text = render(self.snap, self.colour, size)
        self.out.write(text)
        self.out.flush()
        self.dirty = False
        self.clock_row = None
        if size is not None and self.clock is not None:  # the clock's row on the screen (long rows wrap)
            row = 1
            for line in text.split("\n"):
                if line.startswith("clock "):
                    self.clock_row, self.clock_shown = row, line
                    break
                row += max(1, -(-len(line) // size[0]))

    def tick_clock(self) -> None:
        """On a terminal, the clock's row drawn again whenever its figures change (every
        second; tenths under 20 s), the cursor and what the player is typing left alone."""
        if self.clock_row is None or self.clock is None or self.dirty:
            return
        text = self.clock.text(self.now(), self._turn())
        if text != self.clock_shown:
            self.clock_shown = text
            self.out.write(f"\x1b7\x1b[{self.clock_row};1H{text}\x1b[K\x1b8")
            self.out.flush()

    def keep_clock(self) -> None:
        """The clock's control and both times into the archive (at each move, at an
        adjournment): `play --resume` goes on with them."""
        c, game_id = self.clock, self.bridge.game_id
        if c is not None and c.started and game_id is not None:
            now = self.now()
            self.archive.keep_clock(game_id, c.control, c.left("white", now), c.left("black", now))

    def resume_clock(self, control: str | None) -> None:
        """A resumed game's clock: as the archive kept it (its control, both times left), the
        side to move's time running at once; else control's, which starts with the next
        move; None and none kept: no clock."""
        game_id = self.bridge.game_id
        kept = self.archive.kept_clock(game_id) if game_id is not None else None
        if kept is None:
            self.versus(self.computer, control)
            return
        self.versus(self.computer, kept["control"])
        c = self.clock = Clock.restore(kept)
        if control is not None and control != c.control:
            self.snap.notes.append(f"--clock {control} is not taken: the game goes on with its own clock")
        st = self.bridge.state()
        turn = st.turn
        if st.state in PLAYING:
            c.run(turn, self.now())
        self.snap.notes.append(f"the clock as it was kept: White {fmt(c.left('white', 0))}, Black "
                               f"{fmt(c.left('black', 0))} ({c.control}); {turn.capitalize()}'s time runs once the men stand")
        self.publish()

    def start(self, game: str | None, fen: str | None, again: bool = False, forget: bool = False) -> None:
        """Start game (again: even if the board is playing it), else go on with the
        board's own game; on the virtual board the hands then set the pieces up.  forget:
        what the board said of its old game on connecting is not said in the new one's view
        (a promotion it waited for, a takeback)."""
        st = self.bridge.state()
        # A board still being set up gets `new` even for the game it shows: a new game is
        # journaled, so that it survives a power cut (a board's first, default game is not).
        if game is not None and (again or game != st.game or fen or st.state in ("over", "setup")):
            if forget:
                self.snap.notes.clear()
            if game == "chess960" and not self.sim:
                # A board on a port guides the men to a chess960 start man by man, as it does
                # battle chess's set-up; the game begins once both armies stand.
                self.bridge.request(f"guide chess960 {fen or new_position(game).fen()}")
                self.snap.notes.append("set up the chess960 start as the board asks, man by man "
                                       "(d: where the man asked for goes)")
                return
            self.bridge.request(f"new {game}" + (f" {fen}" if fen else ""))
        if self.sim:
            if self.bridge.state().state == "setup":
                self.hand("sim setup")  # the virtual hands set the pieces up
                self.hand("sim wait 100")

    def leave(self) -> None:
        """Quitting: a move of the computer's lit and not made yet is taken back (after a
        reset the board would read the unmoved men as a takeback; the game is adjourned at
        the player's move, and the computer thinks again when it goes on)."""
        if self.shown is None or self.computer is None:
            return
        st = self.bridge.state()
        if st.state == "over" or st.turn == self.computer.side:
            return
        pos = new_position(st.game, self.shown[0])
        text = f"{san(pos, pos.parse_move(self.shown[1]))} ({self.shown[1]})"
        self.bridge.request("undo")
        self.shown = None
        self.out.write(f"the computer's {text}: its move, not made yet, was taken back; "
                       "it thinks again when the game goes on\n")

    def adjourn(self, why: str) -> None:
        """The board's game, unfinished and with moves, adjourned before another takes the
        board (`new`, `battle`), said in words: it is never lost (a game with no move from
        its usual start is not kept, even one ended: a flag, a resignation)."""
        game_id = self.bridge.game_id
        self.keep_clock()
        if game_id is not None and self.archive.drop_unplayed(game_id):
            return
        if game_id is not None and self.archive.adjourn(game_id):
            self.snap.notes.append(f"game {game_id} adjourned ({why}): {self.resume_hint(game_id)}")

    def resume_hint(self, game_id: int) -> str:
        """The exact command that goes on with the game: its board (--port PORT, --sim,
        --pico) and archive; the opponent, level, side and names come back from the archive."""
        where = " --pico" if self.pico else f" --port {shlex.quote(self.port)}" if self.real_port else " --sim"
        archive = f" --archive {shlex.quote(self.archive.name)}" if self.archive_given else ""  # (never a password)
        return f"eboard play --resume {game_id}{where}{archive} goes on with it"

    # ---- commands ------------------------------------------------------------------------

    def command(self, line: str) -> bool:
        """Carry out one command; False to stop."""
        words = line.split()
        self.dirty = True  # every line typed, an empty one too, gets the view and a prompt again
        if not words:
            return True
        self.snap.page = ""  # a page shown stays until the next line typed
        cmd = words[0]
        which, self.which = self.which, {}
        if len(words) == 1 and cmd.lower() in which:  # "q" answers "which piece?": the queen, never quit
            line = cmd = which[cmd.lower()]
        try:
            if cmd in ("quit", "exit", "q"):
                return False
            typed = TYPED.get(cmd)
            if typed is None or not typed(self, words):
                self._moves(line)  # not a command's word, or not its form: moves typed
        except BoardError as e:
            self.snap.notes.append(refused(cmd, e))
        except (PlayError, MoveError) as e:
            self.snap.notes.append(str(e))
        self.dirty = True
        return True

    # ---- the typed commands (TYPED): each takes the line's words, and returns False where
    # they are not its form (then they are read as moves) --------------------------------------

    def _help(self, words: list[str]) -> bool:
        if words[1:2] == ["pieces"] and len(words) <= 3:
            self.snap.page = pieces_page(self.snap.game, words[2] if len(words) == 3 else None)
        else:
            self.snap.page = HELP
        return True

    # ---- results as a club files them: resign, a draw offered and accepted, a draw claimed ----

    def _side_named(self, words: list[str]) -> str:
        """The side a resignation or a draw offer is from: the one named, else the player's
        against the computer, else the side to move."""
        if len(words) == 2 and words[1] in ("white", "black"):
            return words[1]
        if len(words) != 1:
            raise PlayError(f"{words[0]} [white|black] (the side that {words[0]}s)")
        if self.computer is not None:
            return "black" if self.computer.side == "white" else "white"
        return self.bridge.state().turn

    def _playing(self, what: str):  # type: ignore[no-untyped-def]
        """The board's State, its game on; PlayError in words when the game has ended."""
        st = self.bridge.state()
        if st.state == "over":
            raise PlayError(f"{what}: the game has ended")
        return st

    def _resign(self, words: list[str]) -> bool:
        side = self._side_named(words)
        self._playing("resign")
        self.offer = None
        self.job = None  # a search under way is forgotten
        self.bridge.request("end resign " + ("0-1" if side == "white" else "1-0"))
        return True

    def _draw(self, words: list[str]) -> bool:
        side = self._side_named(words)
        st = self._playing(words[0])
        if self.computer is not None:
            self._computer_answers(st)
            return True
        # The offer stands until the other side has moved (FIDE 9.1.2: it may be made
        # before or after one's own move).
        self.offer = (self.bridge.game_id, side, st.ply + (2 if st.turn == side else 1))
        other = "Black" if side == "white" else "White"
        self.snap.notes.append(f"{side.capitalize()} offers a draw: {other} types accept (or decline, "
                               "or makes a move)")
        return True

    def _computer_answers(self, st) -> None:  # type: ignore[no-untyped-def]
        """A draw offered to the computer: our engine looks at the position for a moment and
        takes the draw unless it finds itself better (its score above a quarter pawn)."""
        from host.engine import Limits, best_move

        pos = st.position()
        if pos.outcome() is not None:
            raise PlayError("draw: the game has ended")
        score = best_move(pos, Limits(movetime_ms=DRAW_LOOK_MS)).score  # the side to move's
        if (score if st.turn == self.computer.side else -score) > DRAW_MARGIN_CP:
            self.snap.notes.append("the computer declines the draw: play on")
            return
        self.snap.notes.append("the computer accepts the draw")
        self.job = None
        self.bridge.request("end agreement 1/2-1/2")

    def _standing_offer(self, what: str) -> tuple[int | None, str, int]:
        st = self._playing(what)
        offer = self.offer
        if offer is None or offer[0] != self.bridge.game_id or st.ply >= offer[2]:
            self.offer = None
            raise PlayError(f"{what}: no draw offer stands (draw offers one)")
        return offer

    def _accept(self, words: list[str]) -> bool:
        if len(words) != 1:
            return False
        self._standing_offer("accept")
        self.offer = None
        self.bridge.request("end agreement 1/2-1/2")
        return True

    def _decline(self, words: list[str]) -> bool:
        if len(words) != 1:
            return False
        offer = self._standing_offer("decline")
        self.offer = None
        self.snap.notes.append(f"the draw offered by {offer[1].capitalize()} is declined: play on")
        return True

    def _hand(self, words: list[str]) -> bool:
        """lift SQ, place SQ, wait MS: the virtual board's hands, one at a time."""
        cmd = words[0]
        if len(words) != 2:
            raise PlayError(f"{cmd} needs one " + ("number of milliseconds: wait 500" if cmd == "wait" else f"square: {cmd} e2"))
        self._need_sim(cmd)
        if cmd != "wait":
            self._hand_square(cmd, words[1])
        self.hand(f"sim {cmd} {words[1]}")
        if cmd != "wait":
            self.hand("sim wait 60")
        return True

    def _new(self, words: list[str]) -> bool:
        if len(words) < 2:
            return False
        words = self._versus(words)
        try:
            check(words[1], " ".join(words[2:]) or None)
        except ValueError as e:
            raise PlayError(str(e)) from None
        self.adjourn("a new game")
        self.start(words[1], " ".join(words[2:]) or None, again=True)
        return True

    def _hint(self, words: list[str]) -> bool:
        if len(words) != 1:
            return False
        self.hint()
        return True

    def _make(self, words: list[str]) -> bool:
        """(virtual board) the hands make the computer's move lit on the board."""
        if len(words) != 1:
            return False
        self._need_sim("make")
        if self.shown is None:
            raise PlayError("make: no move of the computer's waits to be made")
        pos = new_position(self.snap.game, self.shown[0])
        self.make_move(pos, pos.parse_move(self.shown[1]))
        return True

    def _battle(self, words: list[str]) -> bool:
        if len(words) != 1:
            return False
        self.battle()
        return True

    def _undo(self, words: list[str]) -> bool:
        if len(words) != 1:
            return False
        game_id = self.bridge.game_id
        ended = self.archive.game(str(game_id)) if game_id is not None else None
        if ended is not None and ended.ended and ended.reason in KEPT_ENDS:
            raise PlayError(f"undo: the game ended {ENDS.get(ended.reason, ended.reason)} ({ended.result}): "
                            "a fallen flag, a resignation, a draw agreed or claimed is not taken back")
        self.bridge.request("undo")
        if self.computer is not None:
            # Against the computer a takeback is the player's: the computer's
            # move after it goes too (else it would only play it again).
            st = self.bridge.state()
            if st.ply > 0 and st.turn == self.computer.side:
                self.bridge.request("undo")
            self.shown = None
        if self.sim:  # the virtual hands put the board right
            self.hand("sim setup")
            self.hand("sim wait 100")
        return True

    def _legal_moves(self, words: list[str]) -> bool:
        """moves: the legal moves in SAN, from the board's own position."""
        if len(words) != 1:
            return False
        self.bridge.request("moves")
        pos = self.bridge.state().position()
        legal = pos.legal_moves()
        self.snap.page = ("legal moves: " + " ".join(san(pos, m, legal, marks=False) for m in legal))
        return True

    def _promote(self, words: list[str]) -> bool:
        if len(words) != 2:
            return False
        self.bridge.request(f"promote {words[1]}")
        return True

    def _claim(self, words: list[str]) -> bool:
        if self.snap.game != "lippo":
            if len(words) > 2 or words[1:] not in ([], ["draw"], ["repetition"], ["fifty"]):
                raise PlayError("claim: a draw by threefold repetition or by the count of moves (claim, alone)")
            self._playing("claim")
            try:
                self.bridge.request("end claim")
            except BoardError as e:
                if e.code != "bad-claim":
                    raise
                raise PlayError(f"claim: refused: no draw by threefold repetition or by the {CLAIM_COUNT.get(self.snap.game, 50)}"
                                f"-move rule can be claimed in this position ({self.snap.game}'s rules)") from None
            return True
        if words[1:2] not in (["perpetual"], ["declare"], ["demand"]):
            raise PlayError("claim needs one of lippo's claims: claim perpetual (§14), claim declare (§15) "
                            "or claim demand (§6)")
        if len(words) != 2:
            return False
        self.bridge.request(f"claim {words[1]}")
        other = "Black" if self._turn() == "white" else "White"  # taken: said what it does (the reply is only ok)
        self.snap.notes.append(f"claim {words[1]}: taken: " + CLAIMED[words[1]].format(other=other))
        return True

    def _versus(self, words: list[str]) -> list[str]:
        """new ... vs computer [LEVEL] [white|black] / vs human: the opponent set, the words
        of the game left."""
        if "vs" not in words:
            return words
        i = words.index("vs")
        rest = words[i + 1:]
        if rest == ["human"]:
            self.versus(None, self.control)
            return words[:i]
        if not rest or rest[0] != "computer" or len(rest) > 3:
            raise PlayError("new GAME [FEN] vs computer [LEVEL] [white|black] (the side you play), or vs human")
        level_no, side = None, "white"
        for w in rest[1:]:
            if w.isdigit():
                level_no = int(w)
            elif w in ("white", "black"):
                side = w
            else:
                raise PlayError(f"vs computer: {w!r} is neither a level (1-8) nor white or black (the side you play)")
        old = self.computer
        try:
            opp = Opponent("black" if side == "white" else "white", old.engine if old else "ours", level_no,
                           old.movetime_ms if old else None)
        except OpponentError as e:
            raise PlayError(str(e)) from None
        self.versus(opp, self.control)
        return words[:i]

    def hint(self) -> None:
        """The engine's move for the player, searched in a thread, then lit on the board."""
        if self.job is not None:
            raise PlayError("hint: the engine is busy; ask again in a moment")
        st = self.bridge.state()
        if st.state == "over":
            raise PlayError("hint: the game has ended")
        turn = st.turn
        if self.computer is not None and turn == self.computer.side:
            raise PlayError("hint: it is the computer's move")
        if self.shown is not None or st.state not in PLAYING:
            raise PlayError("hint: first put the men as the board shows" + (f" (the computer's {self.shown[1]})" if self.shown else ""))
        opp = self.computer or Opponent("white" if turn == "black" else "black")
        from host.engine import Limits

        self.job = opp.think("hint", st.game, st.fen, Limits(movetime_ms=HINT_MS))
        self.snap.notes.append("hint: the engine is looking ...")

    def battle(self, seed: int | None = None) -> None:
        """Battle chess: each side's army set up man by man as the board asks (on a virtual
        board by its hands: arrays of seed, else of self.seed, else fresh ones each time)."""
        from host.session.army import ArmyHands

        self.adjourn("battle chess")
        if not self.sim:
            self.bridge.request("battle both")
            self.snap.notes.append("set up White's army, then Black's, as the board asks ("
                                   + (self.asked.text if self.asked else "") + ")")
            return
        army = ArmyHands(self.seed if seed is None else seed)
        chess = Geometry(new_position("chess").game.layout)

        def hand(line: str) -> str:
            # The armies' squares are chess's: sent as physical squares (@N), which the
            # board reads alike whatever game it showed before (a Lippo game's names differ).
            w = line.split()
            if w[:2] == ["sim", "place"] and not w[2].startswith("@"):
                line = f"sim place @{chess.parse(w[2])}"
            return self.hand(line)

        # The hands clear the board before the setup begins, a chess game set up (no move
        # is read meanwhile): a man lifted off the margin of a Lippo board once the setup
        # has begun would be taken for a man of a finished army.
        st = self.bridge.state()
        if (st.game, st.state) != ("chess", "setup"):
            self.bridge.request("new chess")
        army.clear(hand)
        hand("sim wait 100")
        self.bridge.request("battle both")
        for side in (WHITE, BLACK):
            while army.left(side):
                army.place(hand, side, self._asked_for(hand, army, side), 60)
        hand("sim wait 500")

    def _asked_for(self, hand, army, side: int) -> str:  # type: ignore[no-untyped-def]
        """The letter of side's next man, as the board asks for it.  Its `arrange` may come
        after the hands' wait (a busy chip: the emulated Pico's stock firmware):
        the hands wait on until the board names a man of that side still to be put down."""
        name = "white" if side == WHITE else "black"
        deadline = time.monotonic() + ASK_WAIT_S
        while True:
            asked = self.asked
            if asked is not None and asked.args[0] == name and army.has(side, asked.args[1]):
                return asked.args[1]
            if time.monotonic() > deadline:
                raise PlayError(f"the board has not asked for {name}'s next man in {ASK_WAIT_S} s"
                                f" (it last said: {self.asked.text if self.asked else 'nothing'})")
            hand("sim wait 50")

    def _hand_square(self, cmd: str, name: str) -> None:
        """lift/place SQ checked before the hands move: PlayError in words."""
        if name.startswith("@"):
            return
        geo = Geometry(new_position(self.snap.game).game.layout)
        try:
            p = geo.parse(name)
        except ValueError:
            raise PlayError(f"{cmd} {name}: {name} is not a square of {self.snap.game}") from None
        full = read_occupancy(self.hand("sim occupancy"))[p] == "1"
        if cmd == "lift" and not full:
            raise PlayError(f"lift {name}: there is no man on {name}")
        if cmd == "place" and full:
            raise PlayError(f"place {name}: a man stands on {name} already")

    def _need_sim(self, what: str) -> None:
        if not self.sim:
            raise PlayError(f"{what}: only on a virtual board; on a real one, use your hands")

    def _moves(self, line: str) -> None:
        """One or more moves typed on a line (SAN or squares): all made, or none."""
        st = self.bridge.state()
        pos = st.position()
        if self.shown is not None and self.sim:
            before = new_position(st.game, self.shown[0])
            try:
                typed = parse_line(before, line)
            except MoveError:
                typed = []
            if [before.move_str(m) for m in typed] == [self.shown[1]]:
                self.make_move(before, typed[0])  # the computer's move, made by the hands
                return
            raise PlayError(f"the board waits for the computer's move {self.shown[1]} to be made first (make)")
        try:
            moves = parse_line(pos, line)
        except WhichPiece as e:
            self.which = e.answers
            self.moved_since_ask = False
            raise PlayError(f"{e} (or its letter alone: {', '.join(e.answers)})") from None
        except MoveError as e:
            raise PlayError(f"{e} (type help for the commands)") from None
        if st.state != "idle":  # a move typed now would be lost on the way: said, not made
            raise PlayError(f"{line.strip()}: not now: {WAITING.get(st.state, 'the board is busy')}")
        if self.computer is not None and len(moves) > 1:
            raise PlayError("one move at a time against the computer")
        for m in moves:
            self.make_move(pos, m)
            pos.push(m)

    def make_move(self, pos, m: int) -> None:  # type: ignore[no-untyped-def]
        """Make move m of pos on the board: the virtual hands lift and place its men (--sim),
        else the host's `move` request lights it for the player."""
        if not self.sim:
            self.bridge.request(f"move {pos.move_str(m)}")
            return
        geo = Geometry(pos.game.layout)
        lifts, places = hand_moves(pos, m)
        self.typed = True
        try:
            for verb, cells in (("lift", lifts), ("place", places)):
                for cell in cells:
                    self.hand(f"sim {verb} {geo.name(geo.phys(cell))}")
                    self.hand("sim wait 60")
            if self.bridge.state().state == "promoting":
                letter = pos.move_str(m)[-1]
                self.bridge.request("promote " + (letter if letter.isalpha() else "-"))
        finally:
            self.typed = False
        self.hand(f"sim wait {COMMIT_WAIT_MS}")


# The commands a person types, by their first word (the others are moves: Session._moves).
TYPED: dict[str, Callable[[Session, list[str]], bool]] = {
    "help": Session._help,
    "resign": Session._resign,
    "draw": Session._draw, "offer": Session._draw,
    "accept": Session._accept, "decline": Session._decline,
    "lift": Session._hand, "place": Session._hand, "wait": Session._hand,
    "new": Session._new,
    "hint": Session._hint,
    "make": Session._make,
    "battle": Session._battle,
    "undo": Session._undo,
    "moves": Session._legal_moves,
    "promote": Session._promote,
    "claim": Session._claim,
}

REFUSED = {  # the board's error words (docs/protocol.md), as a person reads them
    "illegal-move": "that move is not legal now",
    "game-over": "the game has ended",
    "nothing-to-undo": "there is no move to take back",
    "no-promotion": "no promotion waits for that piece",
    "bad-claim": "that claim cannot be made now",
    "bad-square": "no such square, or the square is not as that needs (lift: a man there; place: an empty square)",
    "journal-full": "the board's memory for games is full",
    "no-memory": "the board has not the memory for that",
    "unknown-game": "no such game",
    "bad-fen": "not a position of that game",
    "internal": "a fault of the board's program (it goes on)",
}
CLAIMED = {  # lippo's claims, once the board has taken one (lippo.md, A18, A19)
    "perpetual": "a perpetual attack protested (§14): the game ends after 6 more moves each",
    "declare": "the end declared (§15): the game ends after 56 more moves each",
    "demand": "{other} must move the President next, to a safe square (§6)",
}
ENDS = {"time": "on time", "surrender": "by surrender", "claim": "by a claim", "resign": "by resignation",
        "agreement": "drawn by agreement", "threefold-repetition": "drawn by threefold repetition (claimed)",
        "fifty-moves": "drawn by the 50-move rule (claimed)", "forty-moves": "drawn by the 40-move rule (claimed)"}
ALERTS = {
    "setup-conflict": "the two arrays put Black's king in check: both are set up again",
    "journal-full": "the board's memory for moves is full: moves are no longer saved on the board (the archive keeps them)",
    "journal": "the board could not save to its memory",
    "journal-damaged": "the board's memory of its game was damaged: it began a new game (the archive keeps the old one)",
    "stuck-switch": "a square's switch seems stuck",
}


def pieces_page(game: str, letter: str | None) -> str:
    """help pieces [LETTER]: the game's key to the pieces, or one piece's part of it; PlayError
    in words for a letter that is none of the game's."""
    import re

    from host.session.pieces import text

    key = text(game)
    if letter is None:
        return key
    for part in re.split(r"\n(?=[A-Z], )", key)[1:]:
        if part.startswith(letter.upper() + ", "):
            return part.strip()
    letters = " ".join(p[0] for p in re.split(r"\n(?=[A-Z], )", key)[1:])
    raise PlayError(f"help pieces {letter}: no piece of {game} has that letter ({letters})")


def _piece(game: str, letter: str) -> str:
    from firmware.rules import game_module

    g = game_module(game).GAME
    t = g.letter.find(letter.upper())
    return g.names[t].lower() if t > 0 else letter


def said_in_words(game: str, said: Event) -> str:
    """A board's event (docs/protocol.md) in words, for the view."""
    word = said.word
    if word == "start":
        return "the men stand where they should: play may begin"
    if word == "synced":
        return "the men stand as the board shows: play goes on"
    if isinstance(said, Said) and word == "promote":
        choices = [f"promote {x} ({'it stays as it is' if x == '-' else _piece(game, x)})" for x in said.args]
        return ("a promotion: which piece? " + ", ".join(choices)
                + " (on the board: lift the new piece and put it back for the next)")
    if isinstance(said, Said) and word == "choice":
        return f"the board shows the {_piece(game, said.args[0])} as the promotion piece (promote {said.args[0]} takes it)"
    if isinstance(said, Said) and word == "array":
        return f"{said.args[0].capitalize()}'s army stands"
    if isinstance(said, Undo):
        return f"move {said.ply} taken back"
    if isinstance(said, End):
        reason = ENDS.get(said.reason, said.reason.replace("-", " "))
        points = f" (points: White {said.points[0]}, Black {said.points[1]})" if said.points is not None else ""
        return f"the game is over, {reason}: {said.result}{points}"
    if isinstance(said, Alert) and said.kind == "journal-full" and said.detail.partition(" ")[0].isdigit():
        return (f"the board warns: its memory for moves is full: the moves from ply {said.detail.partition(' ')[0]} on "
                "are not saved on the board, only in the archive")
    if isinstance(said, Alert):
        return "the board warns: " + ALERTS.get(said.kind, said.kind.replace("-", " ")) + (
            f" ({said.detail})" if said.detail else "")
    return said.text


def refused(cmd: str, e: BoardError) -> str:
    """The board's refusal of a command, in words (its detail, which is for programs, kept
    only where no words are known)."""
    words = REFUSED.get(e.code)
    return f"{cmd}: the board refuses: " + (words if words else str(e))


