"""Power-cut soak: games played by hand on a virtual board (real MicroPython behind a pty),
the power cut at random steps (a kill, or a cut in the middle of a journal record), then
powered on again.  Prints the kills survived and the moves lost or invented (target 0, 0).

    .venv/bin/python bench/powercut_soak.py [KILLS]
"""

import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_host import hands_script, random_game  # noqa: E402

from host.link import BoardLink  # noqa: E402
from host.vboard import VirtualBoard  # noqa: E402


def main(kills_wanted: int) -> None:
    rng = random.Random(2026)
    kills = torn = lost = invented = games = 0
    t0 = time.monotonic()
    while kills + torn < kills_wanted:
        gid = rng.choice(["chess", "lippo", "checkers12"])
        moves = random_game(gid, 10, rng.randrange(10**6))
        steps = hands_script(gid, moves)
        with tempfile.TemporaryDirectory() as tmp:
            vb = VirtualBoard(Path(tmp) / "board", realtime=False)
            vb.start()
            link = BoardLink(vb.port, timeout_s=3)
            link.hello()
            for line in (f"new {gid}", "sim setup", "sim wait 100"):
                link.request(line)
            for step in steps:
                r = rng.random()
                if r < 0.08:  # pull the plug
                    link.close()
                    vb.kill()
                    vb.restart()
                    link = BoardLink(vb.port, timeout_s=3)
                    link.hello()
                    kills += 1
                elif r < 0.10:  # the plug goes in the middle of the next journal record
                    link.request(f"sim cut {rng.randrange(1, 12)}")
                try:
                    link.request("sim " + step)
                except Exception:
                    if vb.alive():
                        raise
                if not vb.alive():
                    torn += 1
                    link.close()
                    vb.restart()
                    link = BoardLink(vb.port, timeout_s=3)
                    link.hello()
                    link.request("sim wait 3000")
            link.request("sim wait 3000")
            got = link.request("history").split()[1:]
            link.close()
            vb.stop()
        games += 1
        lost += sum(1 for a, b in zip(moves, got + [None] * len(moves)) if a != b)
        invented += max(0, len(got) - len(moves))
        if got != moves:
            print(f"game {games} ({gid}): played {moves}, recorded {got}")
    dt = time.monotonic() - t0
    print(f"games {games}, kills {kills}, cuts mid-record {torn}: moves lost {lost}, invented {invented} ({dt:.0f} s)")


main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
