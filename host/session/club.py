"""`eboard serve --sim N`: a club room (or a hall) on one PC.  N virtual boards, each with
virtual hands that play random games through the board's autoplay script (boards/sim.py),
so that the room (and its web view) can be watched without any hardware: every game of
the rules core in turn, or all of them one game (`--game`, as in a chess open)."""

from __future__ import annotations

import random
import threading
import time

from firmware.app import start_position
from firmware.rules import GAMES
from firmware.rules.board import EMPTY
from firmware.rules.position import BLAST, BONUS, kind_of
from firmware.squares import Geometry
from firmware.hands import hand_moves
from firmware.journal import Journal
from firmware.promotion import promotion_order
from host.link import TemporaryBoard



def choice_of(pos, m: int) -> int | None:  # type: ignore[no-untyped-def]
    """For a promotion among pieces (moves the same hands make: the same from and to, the
    same squares emptied and filled, other pieces): how many times its new piece is lifted
    and put back before the board shows m's; None for a move of its own."""
    frm, to, hands = pos.move_from(m), pos.move_to(m), hand_moves(pos, m)
    same = [x for x in pos.legal_moves()
            if pos.move_from(x) == frm and pos.move_to(x) == to and hand_moves(pos, x) == hands]
    return promotion_order(pos, same).index(m) if len(same) > 1 else None


def hand_steps(pos, m: int) -> list[str]:  # type: ignore[no-untyped-def]
    """The sensor steps of one move on pos: its lifts, then its places, each with a short
    wait; a promotion's piece is then chosen as a player does, by lifting the new piece and
    putting it back until the board shows it (the next move's first lift makes it)."""
    geo = Geometry(pos.game.layout)
    lifts, places = hand_moves(pos, m)
    lines = []
    for verb, cells in (("lift", lifts), ("place", places)):
        for cell in cells:
            lines += [f"{verb} {geo.name(geo.phys(cell))}", "wait 60"]
    turns = choice_of(pos, m)
    if turns is not None:
        square = geo.name(geo.phys(pos.move_to(m)))
        lines.append("wait 200")  # the board sees the move complete and shows its first piece
        for _ in range(turns):
            lines += [f"lift {square}", "wait 60", f"place {square}", "wait 60"]
    return lines


def random_script(gid: str, plies: int, rng: random.Random, pause_ms: int) -> list[str]:
    """An autoplay script of one random game of gid: `game GID`, then up to plies moves
    made by hand, pause_ms apart (a longer calm where the board waits for a move that could
    grow: lippo's Fougasse and bonus Soldier)."""
    pos = start_position(gid)  # where the board's own `game GID` starts (Courier after its opening)
    lines = [f"game {gid}", "wait 500"]
    promoted = None  # the square of a promotion the next move's first lift makes
    for _ in range(plies):
        legal = pos.legal_moves()
        if not legal:
            break
        m = rng.choice(legal)
        lines += hand_steps(pos, m)
        lines.append("wait %d" % max(pause_ms, 2800 if kind_of(m) in (BLAST, BONUS) else 700))
        promoted = pos.move_to(m) if choice_of(pos, m) is not None else None
        pos.push(m)
    if promoted is not None:
        # The last move a promotion, and no next move to make it: a man touched elsewhere
        # (lifted and put back) takes the piece shown, as on a real board.
        geo = Geometry(pos.game.layout)
        other = next(p for p in geo.game_squares if geo.cell(p) != promoted and pos.cells[geo.cell(p)] != EMPTY)
        lines += [f"lift {geo.name(other)}", "wait 60", f"place {geo.name(other)}", "wait 700"]
    return lines


class Hands:
    """The hands of one board: its games, one after another for as long as the room runs,
    GAMES in turn from the board's own.  Two go into its autoplay script at the start;
    then one more into its hands file each time the board begins a game (a game's start
    in its journal), so that the board holds at most a game or two of steps however long
    the room runs (a long script held whole leaves no room for lippo's tables)."""

    def __init__(self, vb: TemporaryBoard, first: int, rng: random.Random, plies: int, pause_ms: int,
                 games: tuple[str, ...] = GAMES) -> None:
        self.vb = vb
        self.games = games
        self.next = first
        self.rng = rng
        self.plies = plies
        self.pause_ms = pause_ms
        self.journal: int | None = None  # the journal file's inode when last looked at
        self.seen = 0  # and the bytes of it read
        with open(vb.board_dir / "autoplay.txt", "w", encoding="ascii") as f:
            f.write(self.game() + self.game())

    def game(self) -> str:
        """The next game's script."""
        gid = self.games[self.next % len(self.games)]
        self.next += 1
        return "\n".join(random_script(gid, self.plies, self.rng, self.pause_ms)) + "\nwait 3000\n"

    def look(self) -> bool:
        """One more game if the board began one since the last look; False once the board
        is gone (stopped: its folder removed).  A new game is a journal written anew (a
        new file) or a game's first record appended to it (firmware/new_journal.py): only
        the records added since the last look are read."""
        if not self.vb.board_dir.exists():
            return False
        path = self.vb.board_dir / "journal.bin"
        try:
            st = path.stat()
        except OSError:
            return True  # not made yet
        begun = False
        if st.st_ino != self.journal:
            begun = self.journal is not None
            self.journal, self.seen = st.st_ino, st.st_size
        elif st.st_size > self.seen:
            journal = Journal(str(path))
            for rec in journal.records(self.seen):
                begun = begun or rec[:2] in ("N ", "K ")
            self.seen = journal.end
        if begun:
            with open(self.vb.board_dir / "hands", "a", encoding="ascii") as f:
                f.write(self.game())  # whole lines: the board takes up only those
        return True


def _feed(hands: list[Hands]) -> None:
    while hands:
        time.sleep(1.0)
        hands = [h for h in hands if h.look()]


def sim_room(n: int, seed: int = 0, plies: int = 60, pause_ms: int = 1500,
             game: str | None = None) -> list[TemporaryBoard]:
    """n virtual boards, started, each playing random games of its own (every game of the
    rules core in turn, or game's only, without end); the caller stops them (which removes
    their folders, and ends their hands)."""
    games = (game,) if game is not None else GAMES
    boards = []
    hands = []
    try:
        for i in range(n):
            vb = TemporaryBoard(prefix=f"eboard-club{i + 1}-", realtime=True)
            boards.append(vb)
            hands.append(Hands(vb, i, random.Random(seed * 1000 + i), plies, pause_ms, games))
            vb.start()
    except BaseException:
        for vb in boards:
            vb.stop()
        raise
    threading.Thread(target=_feed, args=(hands,), name="club-hands", daemon=True).start()
    return boards
