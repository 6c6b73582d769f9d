"""`eboard serve --sim N`: a club room on one PC.  N virtual boards, each with virtual
hands that play random games through the board's autoplay script (boards/sim.py), so
that the room (and its web view) can be watched without any hardware."""

from __future__ import annotations

import random

from firmware.rules import new_position
from firmware.rules.position import BLAST, BONUS, kind_of
from firmware.squares import Geometry
from firmware.tracker import hand_moves
from host.link import TemporaryBoard

GAMES = ("chess", "lippo", "checkers12", "courier")  # what the boards of a sim room play, in turn
GAMES_PER_BOARD = 20


def hand_steps(pos, m: int) -> list[str]:  # type: ignore[no-untyped-def]
    """The sensor steps of one move on pos: its lifts, then its places, each with a short wait."""
    geo = Geometry(pos.game.layout)
    lifts, places = hand_moves(pos, m)
    lines = []
    for verb, cells in (("lift", lifts), ("place", places)):
        for cell in cells:
            lines += [f"{verb} {geo.name(geo.phys(cell))}", "wait 60"]
    return lines


def random_script(gid: str, plies: int, rng: random.Random, pause_ms: int) -> list[str]:
    """An autoplay script of one random game of gid: `game GID`, then up to plies moves
    made by hand, pause_ms apart (a longer calm where the board waits for a move that could
    grow: lippo's Fougasse and bonus Soldier)."""
    pos = new_position(gid)
    lines = [f"game {gid}", "wait 500"]
    for _ in range(plies):
        legal = pos.legal_moves()
        if not legal:
            break
        m = rng.choice(legal)
        lines += hand_steps(pos, m)
        lines.append("wait %d" % max(pause_ms, 2800 if kind_of(m) in (BLAST, BONUS) else 700))
        pos.push(m)
    return lines


def sim_room(n: int, seed: int = 0, plies: int = 60, pause_ms: int = 1500) -> list[TemporaryBoard]:
    """n virtual boards, started, each playing random games of its own (GAMES in turn);
    the caller stops them (which removes their folders)."""
    boards = []
    try:
        for i in range(n):
            rng = random.Random(seed * 1000 + i)
            vb = TemporaryBoard(prefix=f"eboard-club{i + 1}-", realtime=True)
            boards.append(vb)
            with open(vb.board_dir / "autoplay.txt", "w", encoding="ascii") as f:
                for g in range(GAMES_PER_BOARD):
                    gid = GAMES[(i + g) % len(GAMES)]
                    f.write("\n".join(random_script(gid, plies, rng, pause_ms)) + "\nwait 3000\n")
            vb.start()
    except BaseException:
        for vb in boards:
            vb.stop()
        raise
    return boards
