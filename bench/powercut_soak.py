"""Power-cut soak: games played by hand on a virtual board (real MicroPython behind a pty),
the power cut at random steps (a kill, or a cut in the middle of a journal record), then
powered on again.  The player checks after each move that the board took it, and plays it
again when a cut came first (as a person at the board would: the LEDs show it waiting).

    .venv/bin/python bench/powercut_soak.py [CUTS]

Prints the cuts survived, the moves played again, and the accepted moves lost or moves
invented (target: 0 and 0).
"""

import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_host import random_game  # noqa: E402
from test_power_cut import play_with_cuts  # noqa: E402


def main(cuts_wanted: int) -> None:
    rng = random.Random(2026)
    kills = torn = redone = games = problems = 0
    t0 = time.monotonic()
    while kills + torn < cuts_wanted:
        gid = rng.choice(["chess", "lippo", "checkers12"])
        moves = random_game(gid, 10, rng.randrange(10**6))
        with tempfile.TemporaryDirectory() as tmp:
            board = play_with_cuts(Path(tmp), gid, moves, rng, p_kill=0.08, p_torn=0.15)
        games += 1
        kills += board.kills
        torn += board.torn
        redone += board.redone
        problems += len(board.problems)
        for p in board.problems:
            print(f"game {games} ({gid}): {p}")
    dt = time.monotonic() - t0
    print(
        f"games {games}: power cuts {kills} by kill, {torn} in the middle of a journal record; "
        f"moves played again after a cut {redone}; accepted moves lost or moves invented: {problems} ({dt:.0f} s)"
    )


main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
