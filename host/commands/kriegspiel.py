"""`eboard kriegspiel`: two boards, one umpire (kriegspiel.md).

The host is the umpire, the trusted party of §10: it alone holds the true position
(firmware/rules/kriegspiel.py).  Each board is one player's device (firmware/krieg.py):
it holds its owner's view, sends the attempts made on it, and lights what it is told.
Every line the host sends a board is built from that board's owner's knowledge only:
their own view, the verdicts on their own attempts, and the public announcements.

Each player's view on the host (the terminal) is their scoresheet: the same messages.
The umpire's full record is released when the game is over, printed and archived.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, Protocol, TextIO

from firmware.rules.board import BLACK, WHITE
from firmware.rules.kriegspiel import SIDES, Umpire
from host.link import (
    BoardError, BoardLink, BridgeTimeout, Hello, LinkError, Said, WordsError, printable, read_event, read_state,
    read_version,
)
from host.record import Speaker, words
from host.session import ArmyHands

OTHER = {WHITE: BLACK, BLACK: WHITE}


class End(Protocol):
    """One board as the match sees it: requests, and the events it has sent since."""

    def request(self, line: str) -> str: ...

    def events(self) -> list[str]: ...


def led_line(a: dict[str, object]) -> str | None:
    """The `announce` request that shows an announcement on a board's LEDs (None: no light)."""
    t = a["type"]
    if t == "move_impossible" or t == "illegal_move":
        return "announce impossible"
    if t in ("capture", "promotion"):
        return f"announce {t} {a['square']}"
    if t == "check":
        return f"announce check {a['side']} {str(a['direction']).replace(' ', '-')}"
    if t == "pawn_capture_answer":
        return "announce answer " + ("yes" if a["answer"] else "no")
    if t == "checkmate" or t == "resigned":
        return f"announce end {a['winner']}"
    if t in ("stalemate", "draw", "game_over"):
        winner = a.get("winner") or a.get("result")
        return f"announce end {winner if winner in ('white', 'black') else 'draw'}"
    return None


class Match:
    """The umpire between two boards.  say(side, text) shows a line in side's view;
    public(text), if given, shows a line both players hear, once (the umpire's screen).

    A board that refuses a request, does not answer, drops off the link or reboots does not
    end the match: its side is put right (resync) once it answers again.  keep(actions),
    if given, is called with every action the umpire took (an attempt, ask, resign) before
    the boards hear of it: a match rebuilt from them (resume) is the same match."""

    def __init__(self, umpire: Umpire, white: End, black: End, say: Callable[[int, str], None],
                 speak: Callable[[str], None] | None = None, min_delay_s: float = 0.0,
                 public: Callable[[str], None] | None = None,
                 keep: Callable[[list[str]], None] | None = None,
                 notice: Callable[[str], None] | None = None, lang: str = "ru") -> None:
        self.ump = umpire
        # L21: every attempt is answered after the same minimum delay, so the time to an
        # answer tells nothing of the hidden position.
        self.min_delay_s = min_delay_s
        self.ends = {WHITE: white, BLACK: black}
        self.say = say
        self.speak = speak
        self.lang = lang  # the language speak says the announcements in
        self.public = public
        self.keep = keep
        self.notice = notice or (lambda text: None)
        self.actions: list[str] = []
        self.shown = [0, 0]  # scoresheet lines shown in each view
        self.stale: dict[int, str] = {}  # sides whose board must be put right, and why

    @property
    def gid(self) -> str:
        return str(self.ump.pos.game.id)

    def start(self) -> None:
        for side in self.ends:
            self._send(side, f"krieg {self.gid} {SIDES[side]} {self.ump.view_fen(side)}")
        self._announce(self.ump.start(), self.ump.pos.us)

    def resume(self, actions: list[str]) -> None:
        """The umpire's actions taken again (the match was started before: start() has been
        replayed by the caller's Umpire), without a word to the boards or the views."""
        for a in actions:
            self._act(a)
        self.shown = [len(self.ump.told[0]), len(self.ump.told[1])]
        for side in self.ends:
            self.stale.setdefault(side, "resumed")

    def _act(self, action: str) -> list[dict[str, Any]]:
        verb, _, arg = action.partition(" ")
        out: list[dict[str, Any]]
        if verb == "attempt":
            out = self.ump.attempt(arg)
        elif verb == "ask":
            out = self.ump.ask()
        else:
            out = self.ump.resign(WHITE if arg == "white" else BLACK)
        self.actions.append(action)
        if self.keep is not None:
            self.keep(self.actions)
        return out

    # ---- the boards ------------------------------------------------------------------------

    def _send(self, side: int, line: str) -> str | None:
        """line to side's board; None if it could not take it (the side is then put right
        by heal(), once its board answers)."""
        from host.link import BoardError, BridgeTimeout, LinkError

        if side in self.stale:
            return None
        try:
            return self.ends[side].request(line)
        except (BoardError, BridgeTimeout, LinkError, OSError) as e:
            self._fault(side, f"{line.split()[0]}: {e}")
            return None

    def _fault(self, side: int, why: str) -> None:
        if side not in self.stale:
            self.notice(f"{SIDES[side]}'s board: {why}: waiting for it to answer")
        self.stale[side] = why

    def heal(self) -> None:
        """Put right every side whose board failed, if it answers now."""
        for side in list(self.stale):
            before = self.stale[side]
            if self.resync(side):
                del self.stale[side]
                if before != "resumed":
                    self.notice(f"{SIDES[side]}'s board answers again")
            elif before == "resumed":
                self.notice(f"{SIDES[side]}'s board: {self.stale[side]}: waiting for it to answer")

    def resync(self, side: int) -> bool:
        """Make side's board hold the umpire's view of side: an attempt the umpire played
        is confirmed, one it did not is put back, a board that lost its game is given it
        again (`krieg`).  False if the board does not answer yet."""
        from host.link import BoardError, BridgeTimeout, LinkError

        end = self.ends[side]
        want = self.ump.view_fen(side)
        try:
            reopen = getattr(end, "reopen", None)
            if reopen is not None:
                reopen()
            fen = read_state(end.request("state")).fen
            try:
                if fen.split()[0] == want.split()[0] and fen != want:
                    end.request("verdict legal " + want)  # its attempt, which the umpire played
                else:
                    end.request("verdict impossible")  # an attempt the umpire never played
            except BoardError:
                pass  # no attempt waits (no-attempt), or not a Kriegspiel board (below)
            fen = read_state(end.request("state")).fen
            if fen != want:
                try:
                    end.request("view " + want)
                except BoardError:  # a board that lost its Kriegspiel game: it is given again
                    end.request(f"krieg {self.gid} {SIDES[side]} {want}")
        except (BoardError, BridgeTimeout, LinkError, OSError, WordsError) as e:
            self.stale[side] = str(e)
            return False
        return True

    def pump(self) -> bool:
        """Handle what the boards have sent; True if anything was."""
        from host.link import LinkError

        busy = False
        for side, end in self.ends.items():
            if side in self.stale:
                continue
            try:
                texts = end.events()
            except (LinkError, OSError) as e:
                self._fault(side, str(e))
                continue
            for text in texts:
                busy = True
                self.on_event(side, text)
        return busy

    def on_event(self, side: int, text: str) -> None:
        try:
            said = read_event(text)
        except WordsError:
            return  # no board says it: it changes nothing
        ump = self.ump
        mine = side == ump.pos.us and not ump.over
        if isinstance(said, Said) and said.word == "attempt" and mine:
            self.attempt(side, said.args[0], on_board=True)
        elif said.word == "ask" and mine:
            self.ask(side)
        elif isinstance(said, Hello):  # the board was reset: whatever it waited for is gone
            self._fault(side, "it restarted")

    def _drop_early(self, side: int) -> None:
        # What side's board said while the other side's move was being answered was said
        # before it knew it had the move: no pre-moves (the `view` it was sent has already
        # put such an attempt back).
        take = getattr(self.ends[side], "take_queued", None)
        for text in take() if take is not None else []:
            if text.partition(" ")[0] not in ("attempt", "ask"):
                self.on_event(side, text)

    def attempt(self, side: int, move: str, on_board: bool = False) -> list[dict[str, object]]:
        """side's attempt, made on its board (waiting there for the verdict) or typed on the
        host: judged, and answered to both boards."""
        import time

        due = time.monotonic() + self.min_delay_s
        out = self._act("attempt " + move)
        time.sleep(max(0.0, due - time.monotonic()))
        first = out[0]["type"]
        if first == "rejected":
            if on_board:
                self._send(side, f"verdict rejected {out[0]['reason']}")
        elif first in ("move_impossible", "illegal_move"):
            if on_board:
                self._send(side, "verdict impossible")
        else:
            # A typed move: the board then shows how to make it, as after `move`.
            self._send(side, ("verdict legal " if on_board else "view ") + self.ump.view_fen(side))
            self._send(OTHER[side], "view " + self.ump.view_fen(OTHER[side]))
            self._drop_early(OTHER[side])
        self._announce(out, side)
        return out

    def ask(self, side: int) -> None:
        self._announce(self._act("ask"), side)

    def resign(self, side: int) -> None:
        self._announce(self._act("resign " + SIDES[side]), side)

    def _announce(self, out: list[dict[str, object]], mover: int) -> None:
        for a in out:
            line = led_line(a)
            if line is None:
                continue
            for side in self.ends:
                if a["audience"] == "both" or side == mover:
                    self._send(side, line)
        for side in (WHITE, BLACK):
            sheet = self.ump.told[side >> 6]
            for a in sheet[self.shown[side >> 6]:]:
                self.say(side, words(a))
            self.shown[side >> 6] = len(sheet)
        for a in out:
            if a["audience"] == "both":
                if self.public is not None:
                    self.public(words(a))
                if self.speak is not None:
                    self.speak(words(a, self.lang))

    def result(self) -> tuple[str, str]:
        """('1-0' | '0-1' | '1/2-1/2', reason) of a finished game."""
        last = self.ump.told[0][-1]
        winner = last.get("winner") or last.get("result")
        res = "1-0" if winner == "white" else "0-1" if winner == "black" else "1/2-1/2"
        return res, str(last.get("reason", last["type"]))

    def record(self) -> dict[str, object]:
        """The umpire's full record and both scoresheets: only once the game is over."""
        rec = dict(self.ump.full_record())
        rec["white_sheet"] = self.ump.told[0]
        rec["black_sheet"] = self.ump.told[1]
        return rec


def screened_setup(ends: dict[int, End], say: Callable[[int, str], None],
                   hands: Callable[[int, str], None] | None = None, wait: Callable[[], None] | None = None,
                   notice: Callable[[str], None] | None = None) -> str:
    """Each board guides its owner's array (battle-setup.md, firmware/arrange.py); the
    host joins them into the start FEN, or has both set up again after a conflict.
    hands(side, letter): virtual hands placing the man a board asks for.  A board that
    fails (an error, no answer, a dropped link, a malformed array) is asked again."""
    from firmware.rules import battle
    from host.link import BoardError, BridgeTimeout, LinkError

    faults = (BoardError, BridgeTimeout, LinkError, OSError)
    tell = notice or (lambda text: None)

    def ask(side: int) -> bool:
        try:
            reopen = getattr(ends[side], "reopen", None)
            if reopen is not None:
                reopen()
            ends[side].request("battle " + SIDES[side])
            return True
        except faults as e:
            if side not in down:
                tell(f"{SIDES[side]}'s board: {e}: waiting for it to answer")
            down.add(side)
            return False

    while True:
        arrays: dict[int, str] = {}
        down: set[int] = set()
        for side in ends:
            ask(side)
        while len(arrays) < 2:
            busy = False
            for side in [s for s in down if s not in arrays]:
                if ask(side):
                    down.discard(side)
                    tell(f"{SIDES[side]}'s board answers again")
            for side, end in ends.items():
                if side in down or side in arrays:
                    continue
                try:
                    texts = end.events()
                except faults as e:
                    tell(f"{SIDES[side]}'s board: {e}: waiting for it to answer")
                    down.add(side)
                    continue
                for text in texts:
                    busy = True
                    bad: list[str] = []
                    try:
                        said = read_event(text)
                    except WordsError as e:  # no board says it; an array's is answered (below)
                        said = Said(text, text.partition(" ")[0], ())
                        bad = [f"a malformed array line ({e})"]
                    if isinstance(said, Said) and said.word == "arrange" and hands is not None:
                        hands(side, said.args[1])
                    elif isinstance(said, Hello):  # the board restarted: its setup begins again
                        ask(side)
                    elif isinstance(said, Said) and said.word == "array":
                        try:
                            bad = bad or battle.errors(said.args[1], side)
                        except ValueError as e:
                            bad = [f"a malformed array ({e})"]
                        if bad:  # a board that lets a bad array through: its owner is told
                            say(side, "Your array breaks " + ", ".join(bad) + ": set it up again.")
                            ask(side)
                        else:
                            arrays[side] = said.args[1]
                            say(side, "Your army stands.")
                            say(OTHER[side], "The other army stands.")
            if not busy and wait is not None:
                wait()
        try:
            return battle.start_fen(arrays[WHITE], arrays[BLACK])
        except battle.SetupConflict:
            for side in ends:
                say(side, words({"type": "setup_conflict"}))




class LinkEnd:
    """A board on a serial port (a real one, or a virtual board's pty).  A link that drops
    is opened again by reopen(); board_id is the board's own id (its version line)."""

    def __init__(self, port: str) -> None:
        self.port = port
        self.queue: list[str] = []
        self.link: BoardLink | None = None
        self.board_id = port
        self.reopen()

    def reopen(self) -> None:
        """Open the link if it is not open (LinkError if the board is not there yet)."""
        from host.link import BoardLink

        if self.link is not None:
            return
        link = BoardLink(self.port, on_event=lambda seq, text: self.queue.append(text))
        try:
            version = read_version(link.hello())
        except BaseException:
            link.close()
            raise
        self.link = link
        self.queue.clear()  # said before we listened (its hello): resync reads its state instead
        if version.board_id:
            self.board_id = version.board_id

    def request(self, line: str) -> str:
        from host.link import LinkError

        if self.link is None:
            raise LinkError(f"{self.port}: not connected")
        try:
            return self.link.request(line)
        except (LinkError, OSError):
            self.close()
            raise

    def events(self) -> list[str]:
        from host.link import LinkError

        if self.link is not None:
            try:
                self.link.poll(0.0)
            except (LinkError, OSError):
                self.close()
                raise
        return self.take_queued()

    def take_queued(self) -> list[str]:
        """The events read so far (during requests), without reading more."""
        out, self.queue = self.queue, []
        return out

    def close(self) -> None:
        if self.link is not None:
            self.link.close()
            self.link = None


def _views(white_view: str | None, black_view: str | None, sim: bool, out: TextIO) -> dict[int, TextIO]:
    """Where each player's own lines go: their file or terminal; with --sim (one person
    plays both sides at one terminal), the screen."""
    files: dict[int, TextIO] = {}
    for side, path in ((WHITE, white_view), (BLACK, black_view)):
        if path:
            try:
                files[side] = open(path, "a", encoding="utf-8", buffering=1)
            except OSError as e:
                from host.record import ArchiveError

                raise ArchiveError(f"cannot write {SIDES[side]}'s view to {path}: {e.strerror}") from None
        elif sim:
            files[side] = out
    return files


def adjourned_game(arch: Any, ref: str) -> dict[str, Any]:
    """{'id', 'game', 'fen', 'opening', 'actions'} of an adjourned Kriegspiel game of the
    archive; ArchiveError in words if it is none, is over, or cannot be resumed."""
    from host.record import ArchiveError

    g = arch.game(ref)
    kept = arch.kriegspiel_adjourned(g.id)
    if kept is None or not arch.sealed(g):
        if g.id in arch.kriegspiel_ids():
            raise ArchiveError(f"game {g.id} is over ({g.result}): it cannot be resumed")
        raise ArchiveError(f"game {g.id} is not a Kriegspiel game: eboard play --sim --resume {g.id} goes on with it")
    if kept["actions"] is None:
        raise ArchiveError(f"game {g.id} was adjourned by an older eboard, which did not keep the umpire's "
                           "actions: it cannot be resumed (it stays sealed)")
    return {"id": g.id, "game": g.game, "fen": g.fen, "opening": kept["opening"], "actions": kept["actions"]}


def run(white_port: str | None, black_port: str | None, sim: bool, fen: str | None, archive_path: str | None,
        speak: bool, seed: int | None = None, game: str = "chess", inp: TextIO = sys.stdin, out: TextIO = sys.stdout,
        white_view: str | None = None, black_view: str | None = None, new: bool = False, web=None,
        json_record: bool = False, resume: str | None = None, lang: str = "ru",
        print_words: bool = False) -> int:  # type: ignore[no-untyped-def]
    """The command: start both boards, the screened setup (unless fen is given), then
    read commands (an attempt, ask, resign, quit) from inp for the side to move, and the
    boards' attempts, until the game is over.

    The game is kept in the archive as it goes (kriegspiel_live): run again on the same
    boards, the umpire takes it up where it was (new=True abandons it and starts afresh).
    Each player's own lines (their attempts, their board's refusals) go only to their
    view (white_view, black_view: a file or a terminal); the screen shows what both hear.
    web(game, ends, tell): a feed to publish each player's lines (player(side, text)), the
    public ones (public(text)) and the end.  With sim, the side to move's own board is
    drawn (host/commands/kview.py); the record at the end prints as a scoresheet, or as JSON
    (json_record).  resume (with sim): the id of an adjourned game of the archive, which
    goes on from the umpire's actions kept with it.  HomeError in words if the archive or
    the boards cannot be had."""
    from host.session import open_pair

    with open_pair(archive_path) as home:
        sealed = None if resume is None else adjourned_game(home.archive, resume)  # said before a board starts
        files = _views(white_view, black_view, sim, out)
        table = Table(home, sim, files, out, sealed)
        try:
            table.connect(*home.start_pair(white_port, black_port, sim))
            game = table.resumed(game, new)
            table.feed = web(game, table.ends, table.hand_link) if web is not None else None  # host/web's pages
            fen = table.setup(game, fen, seed)
            table.speaker = _speaker(speak, print_words, lang, out, table.show)
            table.begin(game, fen, lang, resume)
            interrupted = table.play(inp)
            table.finish(json_record)
            return 130 if interrupted else 0
        finally:
            table.close()


def _speaker(speak: bool, print_words: bool, lang: str, out: TextIO, show: Callable[[str], None]) -> Speaker | None:
    """One speaker for every command (host.record.Speaker): aloud, or printed; None: silent."""
    if not (speak or print_words):
        return None
    try:
        return Speaker(lang, aloud=speak, out=out)
    except FileNotFoundError:
        show("espeak-ng is not installed: the umpire stays silent (apt install espeak-ng; --words prints it)")
        return None


class Table:
    """One Kriegspiel game at the umpire's table: the home (the archive, the two boards),
    each player's view, the web feed, the match, and the lines typed for the side to move.
    files: each player's view (side -> a file or the screen); sealed: the adjourned game
    of the archive it goes on with (adjourned_game), if any."""

    def __init__(self, home: Any, sim: bool, files: dict[int, TextIO], out: TextIO,
                 sealed: dict[str, Any] | None) -> None:
        self.home = home
        self.arch = home.archive
        self.sim = sim
        self.files = files
        self.out = out
        self.sealed = sealed
        self.ends: dict[int, LinkEnd] = {}
        self.ports = ("", "")
        self.feed: Any = None
        self.speaker: Speaker | None = None
        self.heard: dict[int, list[str]] = {WHITE: [], BLACK: []}  # what each player was told
        self.live: dict[str, Any] | None = None  # the unfinished game these boards hold (real boards)
        self.live_id: int | None = None  # its row, kept as the game goes
        self.unsaved = False
        self.opening = False
        self.match: Match | None = None
        self.shown: Callable[..., None] | None = None  # draws a side's own board (sim)

    def show(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def close(self) -> None:
        """The links closed and the views; the home (archive, boards) is its owner's to close."""
        for end in self.ends.values():
            end.close()
        for f in self.files.values():
            if f is not self.out:
                f.close()

    # ---- the boards and the people -------------------------------------------------------------

    def connect(self, white_port: str, black_port: str) -> None:
        self.ports = (white_port, black_port)
        self.ends[WHITE] = LinkEnd(white_port)
        self.ends[BLACK] = LinkEnd(black_port)

    def hand_link(self, who: str, link: str) -> None:
        """A player's secret page goes to that player's own view only, never the shared screen."""
        if who not in ("white", "black"):
            self.show(f"web, {who}: {link}")
            return
        f = self.files.get(WHITE if who == "white" else BLACK)
        if f is not None:
            print(f"web, {who}: {link}", file=f, flush=True)
        else:
            self.show(f"web: {who.capitalize()}'s own page goes only to their own view: give --{who}-view PATH "
                      "(a file, or their own terminal) to hand it to them")

    def say(self, side: int, text: str) -> None:
        """A line told one player only: their view, their scoresheet, their page."""
        f = self.files.get(side)
        if f is not None:
            print(f"[{SIDES[side]}] {text}", file=f, flush=True)
        self.heard[side].append(text)
        if self.feed is not None:
            self.feed.player(side, text)

    def public(self, text: str) -> None:
        """What both players hear."""
        if not self.sim:
            self.show("[umpire] " + text)
        if self.feed is not None:
            self.feed.public(text)

    # ---- the game: where it starts, kept as it goes --------------------------------------------

    def resumed(self, game: str, new: bool) -> str:
        """The game going on: the unfinished one these boards hold (unless new, which
        abandons it), or the adjourned one resumed; else game."""
        ends, arch = self.ends, self.arch
        live = None if self.sim else arch.kriegspiel_live(ends[WHITE].board_id, ends[BLACK].board_id)
        if live is not None and new:
            arch.kriegspiel_live_end(live["id"], "abandoned")
            self.show(f"The unfinished game of {live['started'][:16]} on these boards is abandoned.")
            live = None
        self.live = live
        self.live_id = None if live is None else int(live["id"])
        if live is not None:
            return str(live["game"])
        return game if self.sealed is None else str(self.sealed["game"])

    def setup(self, game: str, fen: str | None, seed: int) -> str:
        """The start FEN: the game going on's (resumed()), the opening the umpire plays,
        the game's usual start, or the screened setup."""
        from firmware.rules import new_position

        live, sealed = self.live, self.sealed
        self.opening = fen is None and game == "courier"
        if live is not None:
            fen, self.opening = str(live["fen"]), bool(live["opening"])
        elif sealed is not None:
            fen, self.opening = sealed["fen"], sealed["opening"]
        elif self.opening:  # courier.md §4: the umpire plays the traditional opening
            from firmware.app import AFTER_OPENING

            fen = AFTER_OPENING["courier"]
        if fen is None and game != "chess":
            fen = new_position(game).fen()  # the screened setup is chess's (battle-setup.md)
        if fen is None:
            fen = self._screened(seed)
        return fen

    def _screened(self, seed: int) -> str:
        """The screened setup on both boards (on virtual ones, the hands place random arrays)."""
        import time

        hands = None
        if self.sim:
            army = ArmyHands(seed)

            def hands(side: int, letter: str) -> None:
                army.place(self.ends[side].request, side, letter)

            for end in self.ends.values():  # clear both boards first
                army.clear(end.request)
        self.show("Screened setup: each player sets up their army on their own board.")
        return screened_setup(self.ends, self.say, hands, lambda: time.sleep(0.05),  # type: ignore[arg-type]
                              notice=self.show)

    def keep(self, actions: list[str]) -> None:
        """The game on disk before the boards hear of it: a restarted umpire resumes it."""
        from host.record import ArchiveError

        if self.live_id is None and self.sealed is None:
            return
        try:
            if self.live_id is not None:
                self.arch.kriegspiel_live_save(self.live_id, actions)
            else:  # an adjourned game going on: still adjourned on disk, with every action
                self.arch.kriegspiel_adjourn(self.sealed["id"], [], self.opening, actions)
            if self.unsaved:
                self.show("The game is saved again.")
            self.unsaved = False
        except ArchiveError as e:
            if not self.unsaved:
                self.show(f"cannot save the game ({e}): it goes on in memory, saved at the next move that can be")
            self.unsaved = True

    def begin(self, game: str, fen: str, lang: str, resume: str | None) -> None:
        """The umpire and the match: resumed from the actions kept, or started afresh; each
        board told its view, the screen told who plays where."""
        from firmware.rules import new_position

        ump = Umpire(new_position(game, fen))
        self.match = match = Match(ump, self.ends[WHITE], self.ends[BLACK], self.say, self.speaker,
                                   min_delay_s=0.0 if self.sim else 0.3, public=self.public, keep=self.keep,
                                   notice=self.show, lang=lang)
        if self.opening:
            ump.opening_played()
        if self.live is not None or self.sealed is not None:
            self._resume(resume)
        else:
            if not self.sim:
                from host.record import ArchiveError

                try:
                    self.live_id = self.arch.kriegspiel_live_new(self.ends[WHITE].board_id, self.ends[BLACK].board_id,
                                                                 game, ump.start_fen, self.opening)
                except ArchiveError as e:
                    self.show(f"cannot save the game ({e}): a restarted umpire could not resume it")
            match.start()
        if self.sim:
            for end in self.ends.values():
                end.request("sim setup")
                end.request("sim wait 200")
        for side in (WHITE, BLACK):
            if side not in self.files:
                self.show(f"{SIDES[side].capitalize()}'s own lines (attempts, refusals) are shown on their board "
                          f"only: --{SIDES[side]}-view PATH sends them to a file or a terminal of their own.")
        white, black = self.ports
        self.show(f"Kriegspiel: white {printable(white)}, black {printable(black)}. "
                  "Type a move for the side to move, or help for the commands.")
        if self.sim:
            from host.commands.kview import kview_shower

            self.shown = kview_shower(match, self.ends, game, self.heard, self.out)
            self.shown(WHITE, force=True)
            self.shown(BLACK, force=True)  # each army as it stands

    def _resume(self, resume: str | None) -> None:
        match, ump, live = self.match, self.match.ump, self.live
        ump.start()
        actions = json.loads(str(live["actions"])) if live is not None else self.sealed["actions"]
        match.resume(actions)
        if live is not None:
            self.show(f"Resuming the Kriegspiel game of {live['started'][:16]} on these boards "
                      f"({len(actions)} actions so far; --new starts another).")
        else:
            self.show(f"Resuming Kriegspiel game {resume} ({len(actions)} actions so far): each player sees "
                      "their own board again.")
            for side in (WHITE, BLACK):  # each player's own scoresheet, as they were told it
                self.heard[side] += [words(a) for a in ump.told[side >> 6]]
        match.heal()

    # ---- what is typed -------------------------------------------------------------------------

    def play(self, inp: TextIO) -> bool:
        """The lines typed, and the boards' attempts, until the game is over, quit is
        confirmed or the input ends; True if Ctrl-C ended it (the game adjourned as by quit)."""
        from host.commands.console import LineInput
        from host.commands.kview import confirm_prompt

        match = self.match
        typed = LineInput(inp)
        asked = False  # quit was typed: the next line answers
        try:
            while not match.ump.over:
                if self.shown is not None:
                    self.shown(match.ump.pos.us)
                match.pump()
                match.heal()
                lines = typed.lines(0.1)
                if lines is None:
                    return False
                for line in lines:
                    cmd = line.strip()
                    if match.ump.over:
                        break
                    if asked:
                        asked = False
                        if cmd.lower() in ("y", "yes"):
                            return False
                    elif cmd == "quit":
                        self.show(confirm_prompt(self.live_id is not None))
                        asked = True
                    elif cmd:
                        self.command(match.ump.pos.us, cmd)
        except KeyboardInterrupt:
            self.show("")
            return True
        return False

    def command(self, side: int, cmd: str) -> None:
        """One typed line (not quit) for side, the side to move."""
        from host.commands.kview import HELP, HELP_BOARDS

        if cmd == "help":
            self.show(HELP if self.sim else HELP_BOARDS)
        elif cmd == "board" and self.shown is not None:
            self.shown(side, force=True)
        elif cmd == "ask":
            self.pass_time()
            self.match.ask(side)
        elif cmd == "resign":
            self.pass_time()
            self.match.resign(side)
        else:
            self.typed_attempt(side, cmd)

    def pass_time(self) -> None:
        """On virtual boards, whose time passes only as the hands say: the time a player
        takes to read a board and act, so that what was announced before this turn's action
        goes off their LEDs, as on a board of the real world (firmware/krieg.py BANNER_MS)."""
        from firmware.krieg import BANNER_MS

        if self.sim:
            for end in self.ends.values():
                try:
                    end.request(f"sim wait {BANNER_MS}")
                except (BoardError, BridgeTimeout, LinkError, OSError):
                    pass  # a board that does not answer: the match finds it and puts it right (heal)

    def typed_attempt(self, side: int, cmd: str) -> None:
        """A typed attempt, read on the mover's own view (squares or SAN; a pawn's
        diagonal onto a square that looks empty is an attempt too): a typing error is
        told the mover, and is no attempt.  On virtual boards the hands make it."""
        from host.record import MoveError, parse

        view = self.match.ump.view(side)
        try:
            m = parse(view, cmd, ask=True)  # a promotion without its piece: which one?
        except MoveError as e:  # not an attempt: the typist is told, not the scoresheet
            f = self.files.get(side)
            print(f"[{SIDES[side]}] {e}", file=f if f is not None else self.out, flush=True)
            return
        if not self.sim:
            self.match.attempt(side, view.move_str(m))
            return
        self.pass_time()
        try:
            self.sim_attempt(side, view, m)
        except (BoardError, BridgeTimeout, LinkError) as e:
            self.show(f"the virtual hands could not make {printable(cmd)}: {e}")

    def sim_attempt(self, side: int, view: Any, m: int) -> None:
        """The virtual hands make the attempt on the mover's own board."""
        from firmware.hands import hand_moves
        from firmware.squares import Geometry

        match, end = self.match, self.ends[side]
        cmd = view.move_str(m)
        geo = Geometry(view.game.layout)
        lifts, places = hand_moves(view, m)
        if not lifts and not places:  # a blast tried blind: nothing to do by hand
            match.attempt(side, cmd)
            return
        for c in lifts:
            end.request(f"sim lift {geo.name(geo.phys(c))}")
        for c in places:
            end.request(f"sim place {geo.name(geo.phys(c))}")
        end.request("sim wait 100")
        if read_state(end.request("state")).state == "promoting":
            letter = cmd[-1]
            end.request("promote " + (letter if letter.isalpha() else "-"))
        end.request("sim wait 1000")
        match.pump()
        for other in self.ends.values():  # the hands put every board right
            other.request("sim setup")
            other.request("sim wait 100")
        match.pump()

    # ---- the end -------------------------------------------------------------------------------

    def finish(self, json_record: bool) -> None:
        """A game over archived with the umpire's record, printed; one left on real boards
        kept for the same command; one left on virtual boards adjourned, its record sealed."""
        from host.commands.kview import adjourn, record_text

        match, arch = self.match, self.arch
        board = "+".join(self.ports)
        resumed = None if self.sealed is None else self.sealed["id"]
        if match.ump.over:
            rec = match.record()
            res, reason = match.result()
            self.show("The game is over: " + res + ". The umpire's record:")
            game_id = arch.add_kriegspiel(board, match.gid, match.ump.start_fen, rec, res, reason, resumed)
            self.show(json.dumps(rec, ensure_ascii=False) if json_record else record_text(arch, game_id))
            if self.live_id is not None:
                arch.kriegspiel_live_end(self.live_id, "over")
            self.show(f"archived as game {game_id}")
            if self.feed is not None:
                self.feed.over(rec, res, game_id)
        elif self.live_id is not None:
            self.show("The game is kept: run the same command again to go on with it.")
        else:  # a game on virtual boards left by quit (or the end of input): adjourned, its record sealed
            game_id = adjourn(arch, board, match, self.opening, resumed)
            self.show(f"the game is adjourned: archived as game {game_id}, the umpire's record sealed; "
                      f"eboard kriegspiel --sim --resume {game_id} goes on with it")
