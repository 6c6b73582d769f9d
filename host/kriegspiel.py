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
import shutil
import subprocess
import sys
from collections.abc import Callable
from typing import Protocol

from firmware.rules.board import BLACK, WHITE
from firmware.rules.kriegspiel import SIDES, Umpire

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


RU = {"white": "Белые", "black": "Чёрные"}
EN_DIR = {
    "rank": "along a rank", "file": "along a file", "long_diagonal": "on the long diagonal",
    "short_diagonal": "on the short diagonal", "diagonal": "on a diagonal", "knight": "by a knight's move",
}
RU_DIR = {
    "rank": "по горизонтали", "file": "по вертикали", "long_diagonal": "по большой диагонали",
    "short_diagonal": "по малой диагонали", "diagonal": "по диагонали", "knight": "конём",
}


def words(a: dict[str, object], lang: str = "en") -> str:
    """An announcement as the umpire says it (§5: seed wording in Russian, or English)."""
    t = a["type"]
    side = str(a.get("side", ""))
    ru = lang == "ru"
    who = RU.get(side, side) if ru else side.capitalize()
    if t == "attempt":
        return ("Вы пробуете " if ru else "You try ") + str(a["move"])
    if t == "moved":
        return f"{who} сделали ход." if ru else f"{who} has moved."
    if t in ("move_impossible", "illegal_move"):
        return "Ход невозможен." if ru else "Move impossible."
    if t == "capture":
        return f"{who} бьют на поле {a['square']}." if ru else f"{who} captures on {a['square']}."
    if t == "promotion":
        return f"Превращение на поле {a['square']}." if ru else f"Promotion on {a['square']}."
    if t == "check":
        d = str(a["direction"])
        return f"{who} шахуют {RU_DIR.get(d, d)}." if ru else f"{who} checks {EN_DIR.get(d, d)}."
    if t == "pawn_capture_question":
        return "Могу ли бить?" if ru else "Can I capture?"
    if t == "pawn_capture_answer":
        return ("Да." if a["answer"] else "Нет.") if ru else ("Yes." if a["answer"] else "No.")
    if t == "checkmate":
        w = str(a["winner"])
        return f"Мат. {RU[w]} выиграли." if ru else f"Checkmate. {w.capitalize()} wins."
    if t == "stalemate":
        return "Пат. Ничья." if ru and a["result"] == "draw" else "Stalemate: " + str(a["result"]) + "."
    if t == "draw":
        return "Ничья." if ru else f"Draw ({a['reason']})."
    if t == "rejected":
        return ("Отказ: " if ru else "Refused by your board: ") + str(a["reason"])
    if t == "resigned":
        return f"{who} сдались." if ru else f"{who} resigns."
    if t == "opening_played":
        return "Дебют сыгран." if ru else "The traditional opening is played."
    if t == "setup_conflict":
        return "Расстановка недопустима." if ru else "Setup conflict: set up again."
    return json.dumps(a, ensure_ascii=False)


class Match:
    """The umpire between two boards.  say(side, text) shows a line in side's view."""

    def __init__(self, umpire: Umpire, white: End, black: End, say: Callable[[int, str], None],
                 speak: Callable[[str], None] | None = None, min_delay_s: float = 0.0,
                 public: Callable[[str], None] | None = None) -> None:
        self.ump = umpire
        # L21: every attempt is answered after the same minimum delay, so the time to an
        # answer tells nothing of the hidden position.
        self.min_delay_s = min_delay_s
        self.ends = {WHITE: white, BLACK: black}
        self.say = say
        self.speak = speak
        self.public = public  # a line everybody may hear (the web room's spectators)
        self.shown = [0, 0]  # scoresheet lines shown in each view

    @property
    def gid(self) -> str:
        return str(self.ump.pos.game.id)

    def start(self) -> None:
        for side, end in self.ends.items():
            end.request(f"krieg {self.gid} {SIDES[side]} {self.ump.view_fen(side)}")
        self._announce(self.ump.start(), self.ump.pos.us)

    def pump(self) -> bool:
        """Handle what the boards have sent; True if anything was."""
        busy = False
        for side, end in self.ends.items():
            for text in end.events():
                busy = True
                self.on_event(side, text)
        return busy

    def on_event(self, side: int, text: str) -> None:
        w = text.split()
        ump = self.ump
        mine = side == ump.pos.us and not ump.over
        if w[:1] == ["attempt"] and len(w) == 2 and mine:
            self.attempt(side, w[1], on_board=True)
        elif w[:1] == ["ask"] and mine:
            self._announce(ump.ask(), side)

    def attempt(self, side: int, move: str, on_board: bool = False) -> list[dict[str, object]]:
        """side's attempt, made on its board (waiting there for the verdict) or typed on the
        host: judged, and answered to both boards."""
        import time

        due = time.monotonic() + self.min_delay_s
        out = self.ump.attempt(move)
        time.sleep(max(0.0, due - time.monotonic()))
        end = self.ends[side]
        first = out[0]["type"]
        if first == "rejected":
            if on_board:
                end.request(f"verdict rejected {out[0]['reason']}")
        elif first in ("move_impossible", "illegal_move"):
            if on_board:
                end.request("verdict impossible")
        else:
            # A typed move: the board then shows how to make it, as after `move`.
            end.request(("verdict legal " if on_board else "view ") + self.ump.view_fen(side))
            self.ends[OTHER[side]].request("view " + self.ump.view_fen(OTHER[side]))
        self._announce(out, side)
        return out

    def ask(self, side: int) -> None:
        self._announce(self.ump.ask(), side)

    def resign(self, side: int) -> None:
        self._announce(self.ump.resign(side), side)

    def _announce(self, out: list[dict[str, object]], mover: int) -> None:
        for a in out:
            line = led_line(a)
            if line is None:
                continue
            for side, end in self.ends.items():
                if a["audience"] == "both" or side == mover:
                    end.request(line)
        for side in (WHITE, BLACK):
            sheet = self.ump.told[side >> 6]
            for a in sheet[self.shown[side >> 6]:]:
                self.say(side, words(a))
            self.shown[side >> 6] = len(sheet)
        if self.public is not None:
            for a in out:
                if a["audience"] == "both":
                    self.public(words(a))
        if self.speak is not None:
            for a in out:
                if a["audience"] == "both":
                    self.speak(words(a, "ru"))

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
                   hands: Callable[[int, str], None] | None = None, wait: Callable[[], None] | None = None) -> str:
    """Each board guides its owner's array (battle-setup.md, firmware/arrange.py); the
    host joins them into the start FEN, or has both set up again after a conflict.
    hands(side, letter): virtual hands placing the man a board asks for."""
    from firmware.rules import battle

    while True:
        arrays: dict[int, str] = {}
        for side, end in ends.items():
            end.request("battle " + SIDES[side])
        while len(arrays) < 2:
            busy = False
            for side, end in ends.items():
                for text in end.events():
                    busy = True
                    w = text.split()
                    if w[:1] == ["arrange"] and len(w) == 3 and hands is not None:
                        hands(side, w[2])
                    elif w[:1] == ["array"] and len(w) == 3:
                        bad = battle.errors(w[2], side)
                        if bad:  # a board that lets a bad array through: its owner is told
                            say(side, "Your array breaks " + ", ".join(bad) + ": set it up again.")
                            end.request("battle " + SIDES[side])
                        else:
                            arrays[side] = w[2]
                            say(side, "Your army stands.")
                            say(OTHER[side], "The other army stands.")
            if not busy and wait is not None:
                wait()
        try:
            return battle.start_fen(arrays[WHITE], arrays[BLACK])
        except battle.SetupConflict:
            for side in ends:
                say(side, words({"type": "setup_conflict"}))


def random_array(colour: int, seed: int) -> str:
    """A random valid array of one side (for virtual hands)."""
    import random

    from firmware.rules import battle

    rnd = random.Random(seed)
    placed: list[tuple[str, int, int]] = []
    for letter in battle.ARMY:
        f, r = rnd.choice(battle.allowed(letter, colour, placed))
        placed.append((letter, f, r))
    return battle.field([(p if colour == WHITE else p.lower(), f, r) for p, f, r in placed])


class ArmyHands:
    """Virtual hands for a screened setup: each side's random array (seed, seed + 1),
    placed man by man as a board asks for them, through request(line)."""

    def __init__(self, seed: int) -> None:
        from firmware.rules.battle import men

        self.todo = {side: men(random_array(side, seed + (side == BLACK)), side) for side in (WHITE, BLACK)}

    @staticmethod
    def clear(request: Callable[[str], str]) -> None:
        """Lift every piece off a virtual board."""
        occ = request("sim occupancy").split()[-1]
        for p, ch in enumerate(occ):
            if ch == "1":
                request(f"sim lift @{p}")

    def place(self, request: Callable[[str], str], side: int, letter: str, wait_ms: int = 100) -> None:
        """Put down side's next man of the letter the board asked for."""
        todo = self.todo[side]
        i = next(i for i, m in enumerate(todo) if m[0].upper() == letter)
        _, f, r = todo.pop(i)
        request(f"sim place {'abcdefgh'[f]}{r + 1}")
        request(f"sim wait {wait_ms}")

    def left(self, side: int) -> int:
        return len(self.todo[side])


def espeak() -> Callable[[str], None] | None:
    """A speaker like a human umpire (espeak-ng, Russian), or None if it is not installed."""
    exe = shutil.which("espeak-ng")
    if exe is None:
        return None

    def say(text: str) -> None:
        subprocess.run([exe, "-v", "ru", text], capture_output=True, check=False)

    return say


class LinkEnd:
    """A board on a serial port (a real one, or a virtual board's pty)."""

    def __init__(self, port: str) -> None:
        from host.link import BoardLink

        self.queue: list[str] = []
        self.link = BoardLink(port, on_event=lambda seq, text: self.queue.append(text))
        self.link.hello()

    def request(self, line: str) -> str:
        return self.link.request(line)

    def events(self) -> list[str]:
        self.link.poll(0.0)
        out, self.queue = self.queue, []
        return out

    def close(self) -> None:
        self.link.close()


def run(white_port: str | None, black_port: str | None, sim: bool, fen: str | None, archive_path: str | None,
        speak: bool, seed: int = 0, game: str = "chess", inp=sys.stdin, out=sys.stdout, web=None,  # type: ignore[no-untyped-def]
        json_record: bool = False) -> int:
    """The command: start both boards, the screened setup (unless fen is given), then
    read commands (an attempt, ask, resign, quit) from inp for the side to move, and the
    boards' attempts, until the game is over.  web(game, ends, out): a feed to publish
    each player's lines (player(side, text)), the public ones (public(text)) and the end.
    With sim, the side to move's own board is drawn (host/kview.py); the record at the end
    prints as a scoresheet, or as JSON (json_record)."""
    import select
    import time

    from firmware.rules import new_position
    from firmware.squares import Geometry
    from firmware.tracker import hand_moves
    from host.notation import MoveError, parse
    from host.archive import Archive
    from host.kview import HELP, adjourn, confirm_quit, kview_shower, record_text
    from host.vboard import TemporaryBoard

    boards = []
    if sim:
        for _ in range(2):
            # The virtual boards compile the firmware from source: more heap than .mpy needs.
            vb = TemporaryBoard(prefix="eboard-krieg-", realtime=False, heap="512K")
            boards.append(vb)
        white_port, black_port = (vb.start() for vb in boards)
    assert white_port and black_port
    ends = {WHITE: LinkEnd(white_port), BLACK: LinkEnd(black_port)}

    feed = web(game, ends, out) if web is not None else None  # the web room's pages (host/web)
    heard: dict[int, list[str]] = {WHITE: [], BLACK: []}  # what each player was told
    try:
        def say(side: int, text: str) -> None:
            print(f"[{SIDES[side]}] {text}", file=out, flush=True)
            heard[side].append(text)
            if feed is not None:
                feed.player(side, text)

        opening = fen is None and game == "courier"
        if opening:  # courier.md §4: the umpire plays the traditional opening
            from firmware.app import AFTER_OPENING

            fen = AFTER_OPENING["courier"]
        if fen is None and game != "chess":
            fen = new_position(game).fen()  # the screened setup is chess's (battle-setup.md)
        if fen is None:
            hands = None
            if sim:
                army = ArmyHands(seed)

                def hands(side: int, letter: str) -> None:
                    army.place(ends[side].request, side, letter)

                for end in ends.values():  # clear both boards first
                    army.clear(end.request)
            print("Screened setup: each player sets up their army on their own board.", file=out, flush=True)
            fen = screened_setup(ends, say, hands, lambda: time.sleep(0.05))

        speaker = espeak() if speak else None
        if speak and speaker is None:
            print("espeak-ng is not installed: the umpire stays silent (apt install espeak-ng)", file=out, flush=True)
        match = Match(Umpire(new_position(game, fen)), ends[WHITE], ends[BLACK], say, speaker,
                      min_delay_s=0.0 if sim else 0.3, public=feed.public if feed is not None else None)
        if opening:
            match.ump.opening_played()
        match.start()
        if sim:
            for end in ends.values():
                end.request("sim setup")
                end.request("sim wait 200")
        print(f"Kriegspiel: white {white_port}, black {black_port}. Type a move for the side to move, "
              "ask, resign, help or quit.", file=out, flush=True)
        shown = kview_shower(match, ends, game, heard, out) if sim else None
        if shown is not None:
            shown(WHITE, force=True)
            shown(BLACK, force=True)  # each army as it stands
        while not match.ump.over:
            if shown is not None:
                shown(match.ump.pos.us)
            match.pump()
            ready = select.select([inp], [], [], 0.1)[0] if hasattr(inp, "fileno") else [inp]
            if not ready:
                continue
            line = inp.readline()
            if not line:
                break
            cmd = line.strip()
            side = match.ump.pos.us
            if not cmd:
                continue
            if cmd == "quit":
                if confirm_quit(inp, out):
                    break
                continue
            if cmd == "help":
                print(HELP, file=out, flush=True)
            elif cmd == "board" and shown is not None:
                shown(side, force=True)
            elif cmd == "ask":
                match.ask(side)
            elif cmd == "resign":
                match.resign(side)
            elif sim:
                # The virtual hands make the attempt on the mover's own board.
                end = ends[side]
                view = match.ump.view(side)
                try:  # squares or SAN, read on the mover's own view
                    m = parse(view, cmd)
                except MoveError as e:
                    say(side, words({"type": "rejected", "reason": "not_possible_on_own_board"}))
                    say(side, str(e))
                    continue
                cmd = view.move_str(m)
                geo = Geometry(view.game.layout)
                lifts, places = hand_moves(view, m)
                if not lifts and not places:  # a blast tried blind: nothing to do by hand
                    match.attempt(side, cmd)
                    continue
                for c in lifts:
                    end.request(f"sim lift {geo.name(geo.phys(c))}")
                for c in places:
                    end.request(f"sim place {geo.name(geo.phys(c))}")
                end.request("sim wait 100")
                if end.request("state").split()[2] == "promoting":
                    letter = cmd[-1]
                    end.request("promote " + (letter if letter.isalpha() else "-"))
                end.request("sim wait 1000")
                match.pump()
                for e in ends.values():  # the hands put every board right
                    e.request("sim setup")
                    e.request("sim wait 100")
                match.pump()
            else:
                match.attempt(side, cmd)
        if match.ump.over:
            rec = match.record()
            res, reason = match.result()
            print("The game is over: " + res + ". The umpire's record:", file=out)
            arch = Archive(archive_path)
            gid = arch.add_kriegspiel(f"{white_port}+{black_port}", match.gid, match.ump.start_fen, rec, res, reason)
            print(json.dumps(rec, ensure_ascii=False) if json_record else record_text(arch, gid), file=out, flush=True)
            print(f"archived as game {gid}", file=out, flush=True)
            if feed is not None:
                feed.over(rec, res, gid)
        else:  # left by quit (or the end of input): adjourned, its record still sealed
            gid = adjourn(Archive(archive_path), f"{white_port}+{black_port}", match)
            if gid is not None:
                print(f"the game is adjourned: archived as game {gid}, the umpire's record sealed", file=out, flush=True)
        return 0
    finally:
        for end in ends.values():
            end.close()
        for vb in boards:
            vb.stop()
