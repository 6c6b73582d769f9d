"""Disk-full soak: a virtual board plays a game (hands in real time) under `eboard serve`,
whose archive sits on a small tmpfs that fills up during the game; the space comes back
later.  Repeated over random games of chess, lippo and checkers12 (root: it mounts a tmpfs).

    .venv/bin/python bench/diskfull_soak.py [GAMES]

Prints the moves played, and the moves lost, duplicated or spliced into another game
(target: 0, 0, 0).
"""

import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_host import random_game  # noqa: E402
from test_links import serve_through_a_full_disk  # noqa: E402


def main(games: int) -> None:
    rng = random.Random(2026)
    played = lost = duplicated = spliced = 0
    t0 = time.monotonic()
    for i in range(games):
        gid = rng.choice(["chess", "lippo", "checkers12"])
        moves = random_game(gid, rng.randrange(4, 12), rng.randrange(10**6))
        with tempfile.TemporaryDirectory() as tmp:
            got, _ = serve_through_a_full_disk(Path(tmp), moves, gid)
        played += len(moves)
        stored = [m for g in got for m in g]
        games_ok = [g for g in got if g == moves[: len(g)]]
        spliced += sum(len(g) for g in got if g not in games_ok)
        best = max(games_ok, key=len, default=[])
        lost += len(moves) - len(best)
        duplicated += max(0, len(stored) - len(moves))
        print(f"game {i + 1} ({gid}): {len(moves)} moves, archived {got == [moves]}", flush=True)
    dt = time.monotonic() - t0
    print(f"games {games}: moves played {played}; lost {lost}, duplicated {duplicated}, spliced {spliced} ({dt:.0f} s)")


main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
