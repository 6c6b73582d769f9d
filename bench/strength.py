"""The engine's strength (issue 24): matches with python-chess, mate suites, depth in Lippo
and checkers12, level against level in every game, and a crash-and-illegal-move soak.
CPython only; python-chess and sunfish (`pip install sunfish; pip install 'chess>=1.11'`: PyPI's sunfish pins an
older python-chess, the project's is put back), Stockfish for its match
and to confirm the mates.

    .venv/bin/python bench/strength.py --positions DIR --sunfish 40   # vs sunfish, 0.5 s a move
    .venv/bin/python bench/strength.py --positions DIR --stockfish 40 # vs Stockfish at UCI_Elo 1350
    .venv/bin/python bench/strength.py --positions DIR --mates        # mate2, mate3, the depth-5 mate
    .venv/bin/python bench/strength.py --depth                 # Lippo and checkers12 depth in 1 s
    .venv/bin/python bench/strength.py --levels 4 --only lippo,chess   # level L vs L-2 (--balanced: even openings)
    .venv/bin/python bench/strength.py --soak 1000             # crashes and illegal moves
    .venv/bin/python bench/strength.py --ablation 5            # nodes to depth 5 without each technique
    .venv/bin/python bench/strength.py --positions DIR --selfplay null --games 20  # a match without a technique
    (--cpu-time: our engine's time on the process's CPU clock, for all but the matches)

The test positions are sunfish's (github.com/thomasahle/sunfish, tests/files), kept outside
the repository: --positions DIR (or $EBOARD_POSITIONS) names the folder holding
chessathome_openings.fen, mate2.fen and mate3.fen.  The chess matches play a seeded sample
of chessathome_openings.fen, each opening with both colours; our engine plays in this process through host.engine.best_move
with the same movetime the opponent gets (Limit(time=...)), sunfish (`python -m sunfish`,
the interpreter running this bench) and Stockfish run as UCI subprocesses.  A game python-chess
does not end (checkmate, stalemate, insufficient material, threefold/fifty-move claims) in
--max-plies plies is a draw.  Elo: the logistic difference of the score, with a 95 % interval
from the games' own variance (wins, draws and losses).  A move of ours that is not legal in
python-chess's board loses the game and is counted.  Nothing here is tuned on: the suites and
openings are the test, self-play positions (seeded games from the start) are the tuning ground.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from firmware.rules import GAMES, new_position  # noqa: E402
from firmware.rules.board import BLACK, WHITE  # noqa: E402
from host.engine import Limits, best_move, level  # noqa: E402
from host.engine import search  # noqa: E402
from host.engine.search import MATE, MATE_BOUND, TECHNIQUES  # noqa: E402

POSITIONS = {"dir": os.environ.get("EBOARD_POSITIONS", "")}  # --positions: sunfish's tests/files


def position_file(name: str) -> str:
    """The path of one of sunfish's test files in --positions DIR; SystemExit in words without it."""
    d = POSITIONS["dir"]
    path = os.path.join(d, name)
    if not d or not os.path.isfile(path):
        raise SystemExit("bench/strength.py: no %s%s: give --positions DIR (or EBOARD_POSITIONS), the folder of"
                         " sunfish's test files (chessathome_openings.fen, mate2.fen, mate3.fen)"
                         % (name, " in " + d if d else ""))
    return path
STOCKFISH = "/usr/games/stockfish"
DEPTH5_MATE = "2q1r3/4pR2/3rQ1pk/p1pnN2p/Pn5B/8/1P4PP/3R3K w - - 1 1"  # mate in 2 by Nf3 (issue 24)


# ---- scores and Elo ------------------------------------------------------------------------


def elo(score: float) -> float:
    """The Elo difference of an expected score in (0, 1); +-inf at the ends."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def elo_line(wins: int, draws: int, losses: int) -> str:
    """'W-D-L, score x/n (p %), Elo d +- e (95 %: lo..hi)'."""
    n = wins + draws + losses
    if not n:
        return "no games"
    p = (wins + draws / 2) / n
    var = (wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p**2) / n
    se = math.sqrt(var / n)
    lo, hi = elo(max(p - 1.96 * se, 1e-9)), elo(min(p + 1.96 * se, 1 - 1e-9))
    return "%d-%d-%d, %.1f/%d (%.1f %%), Elo %+.0f (95 %%: %+.0f .. %+.0f)" % (
        wins, draws, losses, wins + draws / 2, n, 100 * p, elo(p), lo, hi)


# ---- chess matches against UCI engines ------------------------------------------------------


def openings(n_games: int, seed: int) -> list[str]:
    """n_games / 2 openings of the chess@home file, seeded, each to be played with both colours."""
    with open(position_file("chessathome_openings.fen")) as f:
        fens = [line.strip() for line in f if line.strip()]
    return random.Random(seed).sample(fens, (n_games + 1) // 2)


def uci_opponent(name: str):  # type: ignore[no-untyped-def]
    """A python-chess SimpleEngine: "sunfish" (this interpreter) or "stockfish" at UCI_Elo 1350."""
    import chess.engine

    if name == "sunfish":
        return chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "sunfish"])
    eng = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    eng.configure({"UCI_LimitStrength": True, "UCI_Elo": 1350, "Threads": 1, "Hash": 16})
    return eng


def chess_game(fen: str, ours_white: bool, opponent, movetime_ms: int, max_plies: int,  # type: ignore[no-untyped-def]
               stats: dict[str, int], off: frozenset[str] = frozenset()) -> float:
    """Our engine's score (1, 1/2, 0) in one game from fen; stats counts depths and illegal moves."""
    import chess
    import chess.engine

    board = chess.Board(fen)
    pos = new_position("chess", fen)
    ours = chess.WHITE if ours_white else chess.BLACK
    for _ in range(max_plies):
        if board.is_game_over(claim_draw=True):
            break
        if board.turn == ours:
            reply = best_move(pos, Limits(movetime_ms=movetime_ms), off=off)
            done = [i for i in reply.infos if i.complete]
            stats["depth"] += done[-1].depth if done else 0
            stats["moves"] += 1
            move = chess.Move.from_uci(reply.move_str)
            if move not in board.legal_moves:
                stats["illegal"] += 1
                return 0.0
        else:
            move = opponent.play(board, chess.engine.Limit(time=movetime_ms / 1000)).move
        board.push(move)
        pos.push(pos.parse_move(move.uci()))
    o = board.outcome(claim_draw=True)
    if o is None or o.winner is None:
        return 0.5
    return 1.0 if o.winner == ours else 0.0


def uci_match(name: str, games: int, movetime_ms: int, max_plies: int, seed: int, part: tuple[int, int] = (1, 1)) -> None:
    """Our engine against sunfish or Stockfish, each opening with both colours; a line a game.
    part (k, n): the k-th of n slices of the openings (a match run as n processes at once)."""
    k, n = part
    opp = uci_opponent(name)
    label = opp.id.get("name", name) + (" at UCI_Elo 1350" if name == "stockfish" else "")
    print("\nchess vs %s: %d games%s, %d ms a move, openings seed %d, a draw after %d plies"
          % (label, games, " (part %d of %d)" % (k, n) if n > 1 else "",
             movetime_ms, seed, max_plies), flush=True)
    w = d = lost = 0
    stats = {"depth": 0, "moves": 0, "illegal": 0}
    t0 = time.perf_counter()
    try:
        for i, fen in enumerate(openings(games, seed)):
            if i % n != k - 1:
                continue
            for ours_white in (True, False):
                if 2 * i + (not ours_white) >= games:
                    break
                s = chess_game(fen, ours_white, opp, movetime_ms, max_plies, stats)
                w, d, lost = w + (s == 1), d + (s == 0.5), lost + (s == 0)
                print("  game %d (%s, opening %d): %s   running %s" % (
                    w + d + lost, "white" if ours_white else "black", i + 1, s, elo_line(w, d, lost)), flush=True)
    finally:
        opp.quit()
    print("chess vs %s: %s; our mean depth %.1f; illegal moves %d; %.0f s" % (
        label, elo_line(w, d, lost), stats["depth"] / max(1, stats["moves"]), stats["illegal"],
        time.perf_counter() - t0), flush=True)


# ---- mates ----------------------------------------------------------------------------------


def mate_suite(path: str, moves: int, movetime_ms: int) -> None:
    """Positions with a mate in `moves`: solved when our move comes with a mate score in at most
    that many moves, and Stockfish (if present) agrees the move mates that fast."""
    import chess
    import chess.engine

    with open(path) as f:
        # (the files' move numbers are 0 in places: the position is the first four fields)
        fens = [" ".join(line.split()[:4]) + " 0 1" for line in f if line.strip()]
    sf = chess.engine.SimpleEngine.popen_uci(STOCKFISH) if os.path.exists(STOCKFISH) else None
    solved = 0
    missed = []
    t0 = time.perf_counter()
    try:
        for fen in fens:
            reply = best_move(new_position("chess", fen), Limits(movetime_ms=movetime_ms))
            ok = reply.score >= MATE_BOUND and MATE - reply.score <= 2 * moves - 1
            if ok and sf is not None:
                board = chess.Board(fen)
                board.push(chess.Move.from_uci(reply.move_str))
                if not board.is_checkmate():
                    # (deep enough: at depth 6 Stockfish 15.1 misses some mates in 1 after a quiet key move)
                    info = sf.analyse(board, chess.engine.Limit(depth=2 * moves + 10))
                    m = info["score"].pov(board.turn).mate()
                    # Stockfish gives a mate, not always the shortest (at depth 16 it calls some
                    # mates in 2 after a quiet king move mates in 3): where it says longer, or
                    # none, an exact search over every move decides.
                    ok = (m is not None and -m <= moves - 1) or mated_within(board, moves - 1)
            solved += ok
            if not ok:
                missed.append(fen)
    finally:
        if sf is not None:
            sf.quit()
    print("%s (mate in %d), %d ms a position: %d/%d solved, %.0f s" % (
        os.path.basename(path), moves, movetime_ms, solved, len(fens), time.perf_counter() - t0), flush=True)
    for fen in missed[:20]:
        print("  missed: " + fen)


def mated_within(board, moves: int) -> bool:  # type: ignore[no-untyped-def]
    """Whether the side to move in python-chess's board is mated in at most `moves` moves
    whatever it plays: an exact search over every move of both sides (checks first)."""
    if board.is_checkmate():
        return True
    if moves <= 0 or board.is_game_over():
        return False
    for reply in list(board.legal_moves):
        board.push(reply)
        try:
            if not mates_within(board, moves):
                return False
        finally:
            board.pop()
    return True


def mates_within(board, moves: int) -> bool:  # type: ignore[no-untyped-def]
    """Whether the side to move mates in at most `moves` moves (exactly, every move tried)."""
    ms = sorted(board.legal_moves, key=lambda m: not board.gives_check(m))
    for m in ms:
        board.push(m)
        try:
            if board.is_checkmate() or (moves > 1 and mated_within(board, moves - 1)):
                return True
        finally:
            board.pop()
    return False


def mates(movetime_ms: int) -> None:
    print()
    mate_suite(position_file("mate3.fen"), 3, movetime_ms)
    mate_suite(position_file("mate2.fen"), 2, movetime_ms)
    for d in range(1, 7):
        reply = best_move(new_position("chess", DEPTH5_MATE), Limits(depth=d))
        if reply.score >= MATE_BOUND:
            break
    print("%s: the mate found at depth %d (%s, %d nodes, %d ms)" % (
        DEPTH5_MATE, d, reply.move_str, reply.infos[-1].nodes, reply.infos[-1].time_ms), flush=True)


# ---- depth ----------------------------------------------------------------------------------


def middle_game(gid: str, plies: int, seed: int, depth: int = 2):  # type: ignore[no-untyped-def]
    """A seeded middle game of gid: four random plies, then `depth`-ply play to `plies` plies; the
    next seed's if the game ends, or a side has a forced win at depth 1 or only one move."""
    rng = random.Random(seed)
    while True:
        pos = new_position(gid)
        for ply in range(plies):
            if pos.outcome() is not None:
                break
            ms = pos.legal_moves()
            pos.push(rng.choice(ms) if ply < 4 else best_move(pos, Limits(depth=depth)).move)
        if pos.outcome() is None and len(pos.legal_moves()) > 1 \
                and abs(best_move(pos, Limits(depth=1)).score) < MATE_BOUND:
            return pos


def finished_depth(pos, movetime_ms: int) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """(deepest finished iteration, nodes a second) of a search of movetime_ms."""
    reply = best_move(pos, Limits(movetime_ms=movetime_ms))
    done = [i for i in reply.infos if i.complete]
    last = reply.infos[-1]
    return (done[-1].depth if done else 0), last.nodes * 1000 // max(1, last.time_ms)


def depths(movetime_ms: int) -> None:
    print("\ndepth finished in %d ms (nodes a second)" % movetime_ms)
    print("| game | from the start | middle game (seeded, 30 plies) |")
    print("|---|---|---|")
    for gid in ("lippo", "checkers12", "chess"):
        d0, n0 = finished_depth(new_position(gid), movetime_ms)
        d1, n1 = finished_depth(middle_game(gid, 30, 24), movetime_ms)
        print("| %s | %d (%d) | %d (%d) |" % (gid, d0, n0, d1, n1), flush=True)


# ---- the core's games: levels and the soak --------------------------------------------------


def opening(gid: str, rng: random.Random, plies: int):  # type: ignore[no-untyped-def]
    """A position of gid after `plies` random moves (fewer if the game ends)."""
    pos = new_position(gid)
    for _ in range(plies):
        ms = pos.legal_moves()
        if not ms or pos.outcome() is not None:
            break
        pos.push(rng.choice(ms))
    return pos


def balanced_opening(gid: str, rng: random.Random, plies: int):  # type: ignore[no-untyped-def]
    """opening(), drawn again until a 2-ply search scores it within BALANCED centipawns for the
    side to move: a random Lippo opening often hangs a piece or the President's cover at once
    (seed 24: two of six openings were won by the same colour at every level), and a game
    from a decided opening says nothing about the levels."""
    while True:
        pos = opening(gid, rng, plies)
        if pos.outcome() is None and abs(best_move(pos, Limits(depth=2)).score) <= BALANCED:
            return pos


BALANCED = 150


def adjudicate(pos) -> int | None:  # type: ignore[no-untyped-def]
    """The winner of a game stopped at the ply cap: bench/engine.py's rule (Lippo's points, else
    a material lead of more than two pawns)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from engine import adjudicate as by_material

    return by_material(pos)


def core_game(pos, players, max_plies: int, check: bool = False):  # type: ignore[no-untyped-def]
    """Plays pos out with players[WHITE >> 6] and players[BLACK >> 6] (pos -> move); the winner
    (WHITE, BLACK or None).  check: every move must be among the legal moves (AssertionError)."""
    for _ in range(max_plies):
        o = pos.outcome()
        if o is not None:
            return o.winner
        m = players[pos.us >> 6](pos)
        if check:
            assert m in pos.legal_moves(), "illegal move %s in %s" % (m, pos.fen())
        pos.push(m)
        pos.trim()
    o = pos.outcome()
    return o.winner if o is not None else adjudicate(pos)


def level_matches(games: int, gids: list[str], top: int, max_plies: int, seed: int, balanced: bool = False) -> None:
    """Level L against level L - 2 for L = 3..top in each game: games a pairing, colours alternating
    (balanced: the openings balanced_opening() keeps)."""
    print("\nlevel against the level two below it, %d games a pairing (random 2-6 ply openings%s, seed %d),"
          " adjudicated after %d plies" % (games, ", balanced" if balanced else "", seed, max_plies))
    start = balanced_opening if balanced else opening
    print("| game | " + " | ".join("%d v %d" % (lv, lv - 2) for lv in range(3, top + 1)) + " |")
    print("|---|" + "---|" * (top - 2))
    for gid in gids:
        cells = []
        for lv in range(3, top + 1):
            rng = random.Random(seed + lv)
            strong, weak = level(lv), level(lv - 2)
            score = 0.0
            for g in range(games):
                pos = start(gid, random.Random(seed * 1000 + g // 2), 2 + (g // 2) % 5)  # both colours
                ours = WHITE if g % 2 == 0 else BLACK

                def hi(p):  # type: ignore[no-untyped-def]
                    return best_move(p, None, strong, rng).move

                def lo(p):  # type: ignore[no-untyped-def]
                    return best_move(p, None, weak, rng).move

                players = [hi, lo] if ours == WHITE else [lo, hi]
                winner = core_game(pos, players, max_plies)
                score += 0.5 if winner is None else (1.0 if winner == ours else 0.0)
            cells.append("%.1f/%d (%d %%)" % (score, games, 100 * score / games))
        print("| %s | %s |" % (gid, " | ".join(cells)), flush=True)


def soak(games: int, movetime_ms: int, max_plies: int, seed: int) -> None:
    """Engine against engine over every game of the core, random openings: crashes and illegal moves."""
    rng = random.Random(seed)
    gids = list(GAMES)
    crashes = illegal = plies = 0
    t0 = time.perf_counter()
    for g in range(games):
        gid = gids[g % len(gids)]
        pos = opening(gid, rng, rng.randrange(0, 9))

        def engine(p):  # type: ignore[no-untyped-def]
            return best_move(p, Limits(movetime_ms=movetime_ms, depth=rng.choice((1, 2, 3, 4, None)))).move

        try:
            core_game(pos, [engine, engine], max_plies, check=True)
        except AssertionError as e:
            illegal += 1
            print("  illegal (%s): %s" % (gid, e), flush=True)
        except Exception:
            crashes += 1
            print("  crash (%s) at %s:\n%s" % (gid, pos.fen(), traceback.format_exc()), flush=True)
        plies += len(pos.stack)
        if (g + 1) % 10 == 0:
            print("  %d games, %d crashes, %d illegal, %.0f s" % (g + 1, crashes, illegal, time.perf_counter() - t0),
                  flush=True)
    print("soak: %d games over %s (%d ms a move at most, %d plies at most): %d crashes, %d illegal moves, %.0f s"
          % (games, ", ".join(gids), movetime_ms, max_plies, crashes, illegal, time.perf_counter() - t0), flush=True)


# ---- what each technique is worth -----------------------------------------------------------


def self_play_positions(n: int, seed: int) -> list[str]:
    """n chess positions of seeded games from the start (one-ply play, random moves among them)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        out.append(middle_game("chess", rng.randrange(12, 50), rng.randrange(1 << 30), 1).fen())
    return out


def ablation(depth: int, n: int, seed: int) -> None:
    """Nodes and time to `depth` over n self-play positions, with everything and without each technique."""
    fens = self_play_positions(n, seed)
    print("\nnodes and time to depth %d over %d self-play chess positions (seed %d)" % (depth, n, seed))
    print("| left out | nodes | CPU time s |")
    print("|---|---|---|")
    for off in [()] + [(t,) for t in TECHNIQUES]:
        t0 = time.process_time()
        nodes = 0
        for fen in fens:
            nodes += best_move(new_position("chess", fen), Limits(depth=depth), off=frozenset(off)).infos[-1].nodes
        print("| %s | %d | %.1f |" % (", ".join(off) or "nothing", nodes, time.process_time() - t0), flush=True)


def tuning_openings(n_games: int, seed: int) -> list[str]:
    """n_games / 2 openings for self-play (the tuning ground, never the test's openings): six
    seeded random plies from the start, kept where a depth-2 search scores them within a pawn."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < (n_games + 1) // 2:
        pos = new_position("chess")
        for _ in range(6):
            pos.push(rng.choice(pos.legal_moves()))
        if pos.outcome() is None and abs(best_move(pos, Limits(depth=2)).score) < 100:
            out.append(pos.fen())
    return out


def selfplay(off: str, games: int, movetime_ms: int, max_plies: int, seed: int) -> None:
    """Chess, the full engine against itself without the techniques `off`, from tuning_openings()."""
    import chess
    import chess.engine

    left_out = frozenset(off.split(","))

    class Without:
        """The engine without `left_out`, as an object with play() like a SimpleEngine's."""

        def play(self, board, limit):  # type: ignore[no-untyped-def]
            pos = new_position("chess", board.root().fen())
            for mv in board.move_stack:
                pos.push(pos.parse_move(mv.uci()))
            reply = best_move(pos, Limits(movetime_ms=int(limit.time * 1000)), off=left_out)
            return chess.engine.PlayResult(chess.Move.from_uci(reply.move_str), None)

    w = d = lost = 0
    stats = {"depth": 0, "moves": 0, "illegal": 0}
    for fen in tuning_openings(games, seed):
        for ours_white in (True, False):
            if w + d + lost < games:
                s = chess_game(fen, ours_white, Without(), movetime_ms, max_plies, stats)
                w, d, lost = w + (s == 1), d + (s == 0.5), lost + (s == 0)
    print("\nself-play, %d ms a move: everything against no %s: %s" % (movetime_ms, off, elo_line(w, d, lost)),
          flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sunfish", type=int, metavar="GAMES", help="a match against sunfish")
    ap.add_argument("--stockfish", type=int, metavar="GAMES", help="a match against Stockfish at UCI_Elo 1350")
    ap.add_argument("--positions", metavar="DIR", help="the folder of sunfish's test files (chessathome_openings.fen,"
                    " mate2.fen, mate3.fen) for the matches and mates; default $EBOARD_POSITIONS")
    ap.add_argument("--part", default="1/1", help="K/N: play the K-th of N slices of a match's openings"
                    " (one match in N processes; add their games up)")
    ap.add_argument("--movetime", type=int, default=500, help="ms a move in the matches (default 500)")
    ap.add_argument("--max-plies", type=int, default=300, help="a game is drawn (chess) or adjudicated after this")
    ap.add_argument("--mates", action="store_true", help="mate2, mate3 (1 s a position) and the depth-5 mate")
    ap.add_argument("--depth", action="store_true", help="depth in 1 s: Lippo, checkers12, chess")
    ap.add_argument("--levels", type=int, metavar="GAMES", help="level L against L-2, GAMES a pairing")
    ap.add_argument("--top-level", type=int, default=6, help="the highest level of --levels (default 6)")
    ap.add_argument("--only", help="games of --levels, comma-separated (default: every game)")
    ap.add_argument("--balanced", action="store_true", help="--levels from openings a 2-ply search scores within"
                    " %d centipawns (a random opening that hangs a piece is drawn again)" % BALANCED)
    ap.add_argument("--soak", type=int, metavar="GAMES", help="engine games over every game: crashes, illegal moves")
    ap.add_argument("--soak-movetime", type=int, default=30, help="ms a move in the soak (default 30)")
    ap.add_argument("--ablation", type=int, metavar="DEPTH", help="nodes to DEPTH without each technique")
    ap.add_argument("--selfplay", metavar="TECHNIQUES", help="self-play against the engine without these")
    ap.add_argument("--games", type=int, default=20, help="games of --selfplay (default 20)")
    ap.add_argument("--seed", type=int, default=24)
    ap.add_argument("--cpu-time", action="store_true",
                    help="our engine's time is its process time, not the wall clock's (a loaded machine's"
                         " figures as a quiet one's; not for the matches, whose opponent keeps the wall clock)")
    a = ap.parse_args()
    if a.sunfish:
        import importlib.util

        if importlib.util.find_spec("sunfish") is None:
            ap.error("--sunfish needs PyPI's sunfish in this interpreter: pip install sunfish, then pip install 'chess>=1.11' (sunfish pins an older one)")
    if not any((a.sunfish, a.stockfish, a.mates, a.depth, a.levels, a.soak, a.ablation, a.selfplay)):
        ap.error("say what to run: --sunfish, --stockfish, --mates, --depth, --levels, --soak, --ablation, --selfplay")
    gids = a.only.split(",") if a.only else list(GAMES)
    if a.positions:
        POSITIONS["dir"] = a.positions
    if a.cpu_time:
        if a.sunfish or a.stockfish:
            ap.error("--cpu-time is for the mates, depth, levels, soak and self-play: a match's opponent keeps"
                     " the wall clock")
        search.CLOCK = time.process_time
    print("strength bench on CPython %s, %s, load average %s, %s" % (
        sys.version.split()[0], time.strftime("%Y-%m-%d %H:%M"), " ".join("%.2f" % x for x in os.getloadavg()),
        "our engine's time: process time" if a.cpu_time else "wall-clock time"))
    if a.depth:
        depths(1000)
    if a.mates:
        mates(1000)
    if a.ablation:
        ablation(a.ablation, 12, a.seed)
    if a.selfplay:
        selfplay(a.selfplay, a.games, a.movetime, a.max_plies, a.seed)
    try:
        part = tuple(int(x) for x in a.part.split("/"))
        if len(part) != 2 or not 1 <= part[0] <= part[1]:
            raise ValueError
    except ValueError:
        ap.error("--part K/N: K from 1 to N, as 2/3")
    if a.sunfish:
        uci_match("sunfish", a.sunfish, a.movetime, a.max_plies, a.seed, part)  # type: ignore[arg-type]
    if a.stockfish:
        uci_match("stockfish", a.stockfish, a.movetime, a.max_plies, a.seed + 1, part)  # type: ignore[arg-type]
    if a.levels:
        level_matches(a.levels, gids, a.top_level, a.max_plies, a.seed, a.balanced)
    if a.soak:
        soak(a.soak, a.soak_movetime, a.max_plies, a.seed)
    print("load average at the end %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
