"""Club room soak (issue #21, break 5): `eboard serve --sim N` for a given number of
minutes, its virtual hands playing every game of the rules core in turn, and then per
game the plies archived and the boards that stuck (a game in progress whose moves stopped
coming for STUCK_S while its board's hands were still playing).

    .venv/bin/python bench/club_soak.py [MINUTES] [BOARDS]      (default 10 minutes, 8 boards)

Target: no stuck board, and every game's plies growing for as long as the room runs.
"""

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware.rules import GAMES  # noqa: E402
from host.record import Archive  # noqa: E402

EBOARD = str(Path(sys.executable).parent / "eboard")
STUCK_S = 60  # the hands move every few seconds (a lippo blast's calm is 2.8 s)
LOOK_S = 10


def look(path):
    """{board: (game id, game, plies, ended)} of each board's newest game, {game: plies
    archived}, and the empty games filed under a port's name, not a board's id (a board
    heard before it said who it is)."""
    newest, plies, strays = {}, {g: 0 for g in GAMES}, []
    a = Archive(path)
    try:
        for g in a.games():
            n = len(a.moves(g.id))
            plies[g.game] = plies.get(g.game, 0) + n
            if g.board.startswith("/dev/"):
                strays.append((g.id, g.board, g.game, n))
                continue
            if g.board not in newest or g.id > newest[g.board][0]:
                newest[g.board] = (g.id, g.game, n, bool(g.ended))
    finally:
        a.close()
    return newest, plies, strays


def main():
    minutes = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    boards = int(sys.argv[2]) if len(sys.argv) > 2 else len(GAMES)
    with tempfile.TemporaryDirectory(prefix="club-soak-") as tmp:
        path = Path(tmp) / "club.sqlite"
        env = dict(os.environ, HOME=tmp, EBOARD_DATA=tmp)
        proc = subprocess.Popen([EBOARD, "serve", "--sim", str(boards), "--archive", str(path)], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        seen = {}  # board -> (game id, plies, when they last grew)
        stuck = {}  # board -> (game, plies) of a game whose moves stopped
        end = time.monotonic() + minutes * 60
        plies, strays = {}, []
        try:
            while time.monotonic() < end and proc.poll() is None:
                time.sleep(LOOK_S)
                if not path.exists():
                    continue
                newest, plies, strays = look(path)
                now = time.monotonic()
                for board, (gid, game, n, ended) in newest.items():
                    was = seen.get(board)
                    if was is None or was[:2] != (gid, n) or ended:
                        seen[board] = (gid, n, now)
                    elif now - was[2] > STUCK_S:
                        stuck[board] = (game, n)
        finally:
            proc.send_signal(signal.SIGINT)
            err = proc.communicate(timeout=60)[1]
    print(f"club room: {boards} virtual boards, {minutes:g} minutes, serve exited {proc.returncode}")
    print(f"{'game':<12}{'plies':>8}{'stuck boards':>14}")
    for g in GAMES:
        n_stuck = sum(1 for game, _ in stuck.values() if game == g)
        print(f"{g:<12}{plies.get(g, 0):>8}{n_stuck:>14}")
    for board, (game, n) in sorted(stuck.items()):
        print(f"stuck: {board} in {game} after {n} plies")
    for gid, board, game, n in strays:
        print(f"a game filed under the port, not the board: #{gid} {game} on {board}, {n} plies")
    troubles = [line for line in err.splitlines() if "internal error" in line or "Traceback" in line]
    for line in troubles[:10]:
        print("serve said:", line)
    return 1 if stuck or troubles or proc.returncode != 0 else 0


if __name__ == "__main__":
    sys.exit(main())
