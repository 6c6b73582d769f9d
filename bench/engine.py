"""The engine's figures (issue 13): speed and depth from the start, and its score against
a 1-ply greedy player, a random mover and Stockfish at Skill Level 0; and (issue 22)
Fairy-Stockfish given the board's rules of courier and gardner (host/engine/variants.ini)
against it, with every move it makes checked by the core.  CPython only.

    .venv/bin/python bench/engine.py                  # the issue's table: 20 games a match, 1 s a move
    .venv/bin/python bench/engine.py --quick          # 4 games a match, 100 ms a move
    .venv/bin/python bench/engine.py --games 10 --movetime 200 --only lippo,chess --skip-stockfish
    .venv/bin/python bench/engine.py --fairy-only --movetime 100    # 20 games each: its refused moves

A match alternates colours.  A game the rules have not ended after --max-plies plies is
adjudicated: Lippo by its points (lippo.md §8.4), the others by the engine's own material
count (a lead of more than two pawns' worth wins, else a draw).  Win 1, draw 1/2.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from firmware.app import start_position
from firmware.rules import GAMES
from firmware.rules.board import BLACK, WHITE
from host.engine import Limits, best_move
from host.engine.tables import Tracked

def speed(gid: str, seconds: float) -> tuple[int, int, int]:
    """(depth, nodes, nodes per second) of a search of `seconds` from the start."""
    reply = best_move(start_position(gid), Limits(movetime_ms=int(seconds * 1000)))
    last = reply.infos[-1]  # the deepest finished iteration; nodes count from the start
    return last.depth, last.nodes, last.nodes * 1000 // max(1, last.time_ms)


def victim_value(pos, m) -> int:  # type: ignore[no-untyped-def]
    if not pos.takes(m):
        return -1
    if pos.game.id == "checkers12":
        return len(pos.captured(m))
    c = pos.cells[pos.move_to(m)]
    if c & 31 == pos.game.royal and pos.game.royal:
        return 10_000
    return pos.game.points[c & 31] if c else 1  # en passant: a pawn


def greedy(pos, rng):  # type: ignore[no-untyped-def]
    """Captures the most valuable piece, else a random move."""
    ms = pos.legal_moves()
    best = max(victim_value(pos, m) for m in ms)
    return rng.choice([m for m in ms if victim_value(pos, m) == best]) if best >= 0 else rng.choice(ms)


def random_mover(pos, rng):  # type: ignore[no-untyped-def]
    return rng.choice(pos.legal_moves())


def adjudicate(pos) -> int | None:  # type: ignore[no-untyped-def]
    """WHITE, BLACK or None for a game stopped at the ply cap."""
    if pos.game.id == "lippo":
        w, b = pos.points()
        return WHITE if w > b else BLACK if b > w else None
    score = Tracked(pos).score
    return WHITE if score > 200 else BLACK if score < -200 else None


def play_game(gid: str, engine_white: bool, opponent, movetime_ms: int, max_plies: int,  # type: ignore[no-untyped-def]
              rng: random.Random) -> float:
    """The engine's score in one game: 1, 1/2 or 0."""
    pos = start_position(gid)
    ours = WHITE if engine_white else BLACK
    winner = None
    for _ in range(max_plies):
        o = pos.outcome()
        if o is not None:
            winner = o.winner
            break
        if pos.us == ours:
            m = best_move(pos, Limits(movetime_ms=movetime_ms)).move
        else:
            m = opponent(pos, rng)
        pos.push(m)
        pos.trim()
    else:
        o = pos.outcome()
        winner = o.winner if o is not None else adjudicate(pos)
    return 0.5 if winner is None else (1.0 if winner == ours else 0.0)


def match(gid: str, opponent, games: int, movetime_ms: int, max_plies: int, seed: int) -> float:  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    return sum(play_game(gid, i % 2 == 0, opponent, movetime_ms, max_plies, rng) for i in range(games))


def stockfish_opponent(movetime_ms: int):  # type: ignore[no-untyped-def]
    from host.engine import uci

    session = uci.Session("chess", "uci", {"Skill Level": 0})

    def move(pos, rng):  # type: ignore[no-untyped-def]
        return session.move(pos, Limits(movetime_ms=movetime_ms)).move

    return session, move


def fairy_opponent(gid: str, movetime_ms: int):  # type: ignore[no-untyped-def]
    """Fairy-Stockfish (Skill Level 0) on the board's rules of gid: (session, move function,
    the moves it was asked for and the words of each one refused).  A refused move is
    replaced by our engine's, as play does."""
    from host.engine import uci

    session = uci.Session(gid, "uci", {"Skill Level": 0})
    asked: list[int] = []
    refused: list[str] = []

    def move(pos, rng):  # type: ignore[no-untyped-def]
        asked.append(1)
        try:
            return session.move(pos, Limits(movetime_ms=movetime_ms)).move
        except uci.Refused as e:
            refused.append(str(e))
            return best_move(pos, Limits(movetime_ms=movetime_ms)).move

    return session, move, asked, refused


def fairy_matches(games: int, movetime: int, max_plies: int, seed: int) -> None:
    """courier and gardner: Fairy-Stockfish against our engine, its refused moves counted."""
    from host.engine import uci

    print("\n%d games a match against Fairy-Stockfish at Skill Level 0 on the board's rules, %d ms a move"
          % (games, movetime))
    print()
    print("| game | our score | its moves | refused |")
    print("|---|---|---|---|")
    for g in ("courier", "gardner"):
        try:
            session, fsf, asked, refused = fairy_opponent(g, movetime)
        except uci.Unavailable as e:
            print("| %s | not run: %s | | |" % (g, e))
            continue
        t0 = time.perf_counter()
        try:
            score = match(g, fsf, games, movetime, max_plies, seed)
        finally:
            session.close()
        print("| %s | %.1f/%d | %d | %d |  %.0f s" % (g, score, games, len(asked), len(refused),
                                                     time.perf_counter() - t0), flush=True)
        for words in refused[:5]:
            print("  refused: " + words)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="4 games a match, 100 ms a move, 160 plies at most")
    ap.add_argument("--games", type=int, help="games per match (default 20)")
    ap.add_argument("--movetime", type=int, help="ms per engine move (default 1000)")
    ap.add_argument("--max-plies", type=int, help="adjudicate after this many plies (default 300)")
    ap.add_argument("--only", help="comma-separated game ids (default: every game)")
    ap.add_argument("--skip-matches", action="store_true", help="the speed table only")
    ap.add_argument("--skip-stockfish", action="store_true")
    ap.add_argument("--fairy-only", action="store_true", help="Fairy-Stockfish in courier and gardner only")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    games = a.games or (4 if a.quick else 20)
    movetime = a.movetime or (100 if a.quick else 1000)
    max_plies = a.max_plies or (160 if a.quick else 300)
    gids = a.only.split(",") if a.only else list(GAMES)
    for g in gids:
        if g not in GAMES:
            ap.error("unknown game %r" % g)

    print("engine on CPython %s, %s" % (sys.version.split()[0], time.strftime("%Y-%m-%d %H:%M")))
    if a.fairy_only:
        fairy_matches(games, movetime, max_plies, a.seed + 3)
        return 0
    print()
    print("| game | depth in 1 s | nodes | nodes/s |")
    print("|---|---|---|---|")
    for g in gids:
        depth, nodes, nps = speed(g, 1.0)
        print("| %s | %d | %d | %d |" % (g, depth, nodes, nps), flush=True)
    if a.skip_matches:
        return 0
    print()
    print("%d games a match, colours alternating, %d ms a move, adjudicated after %d plies" % (games, movetime, max_plies))
    print()
    print("| game | vs greedy (1 ply) | vs random |")
    print("|---|---|---|")
    for g in gids:
        t0 = time.perf_counter()
        vs_greedy = match(g, greedy, games, movetime, max_plies, a.seed)
        vs_random = match(g, random_mover, games, movetime, max_plies, a.seed + 1)
        print("| %s | %.1f/%d (%d %%) | %.1f/%d (%d %%) |  %.0f s" % (
            g, vs_greedy, games, 100 * vs_greedy / games, vs_random, games, 100 * vs_random / games,
            time.perf_counter() - t0), flush=True)
    if not a.skip_stockfish and "chess" in gids:
        from host.engine import uci

        try:
            session, sf = stockfish_opponent(movetime)
        except uci.Unavailable as e:
            print("\nchess vs Stockfish Skill Level 0: not run (%s)" % e)
            return 0
        try:
            score = match("chess", sf, games, movetime, max_plies, a.seed + 2)
        finally:
            session.close()
        print("\nchess vs %s at Skill Level 0: %.1f/%d (%d %%)" % (session.name, score, games, 100 * score / games))
    if "courier" in gids or "gardner" in gids:
        fairy_matches(games, movetime, max_plies, a.seed + 3)
    return 0


if __name__ == "__main__":
    sys.exit(main())
