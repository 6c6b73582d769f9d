"""The computer's move lit on the board after the player's move is accepted (issue 13's last
figure), against the engine's own time + one scan (10 ms).  CPython; the board is the
virtual board (the firmware under the MicroPython unix port, behind a pty), or with --pico
the emulated Pico; the host is `eboard play`'s own Session, polled as play polls it.

    .venv/bin/python bench/onboard.py                   # chess, 8 moves, 200 ms a move
    .venv/bin/python bench/onboard.py --game lippo --moves 6 --engine-time 0.5
    .venv/bin/python bench/onboard.py --pico            # on the emulated Pico (slow)

For each player's move (made by the virtual hands): t0 is when the host hears the board's
`move` event (the move accepted); t1 is when the board's LED frame (`leds`) shows the
computer's move (f on its man).  The engine's time is its search's wall time in its thread.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from firmware.rules import new_position
from firmware.squares import Geometry
from firmware.hands import hand_moves
from host.session import session as play
from host.record.archive import Archive
from host.link import Event, Move
from host.session import Opponent

SCAN_MS = 10


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="chess")
    ap.add_argument("--moves", type=int, default=8)
    ap.add_argument("--engine-time", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pico", action="store_true", help="on the emulated Pico (boards/emu) instead")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    tmp = Path(tempfile.mkdtemp(prefix="eboard-bench-"))
    hands = None
    if args.pico:
        from host.link import pico as emu
        vb = emu.board(tmp, None)
        port = vb.port

        def hands(request):  # type: ignore[no-untyped-def]
            return emu.SimCommands(vb, request, hold=False)
    else:
        from host.link.virtual import TemporaryBoard

        vb = TemporaryBoard(prefix="eboard-bench-", realtime=True)
        port = vb.start()
    archive = Archive(tmp / "games.sqlite")
    rows = []
    try:
        s = play.Session(port, archive, True, io.StringIO(), False, hands, timeout_s=60 if args.pico else 5.0)
        heard = {}

        inner = s.bridge.on_change

        def changed(seq: int, said: Event) -> None:
            if isinstance(said, Move):
                heard[said.ply] = time.perf_counter()
            inner(seq, said)

        s.bridge.on_change = changed
        asked = s.bridge.request
        move_ms = []  # the board's `move` request alone: journal, position, frame, reply
        chip = []  # --pico: emulated us when each `move` request went to the chip
        chip_ms = []  # --pico: emulated ms from that to the LED frame showing the move

        def request(line: str) -> str:
            if args.pico and line.startswith("move "):
                chip.append(int(vb.control("time")[0].split()[2]))
            t = time.perf_counter()
            reply = asked(line)
            if line.startswith("move "):
                move_ms.append((time.perf_counter() - t) * 1000)
            return reply

        s.bridge.request = request  # type: ignore[method-assign]
        s.versus(Opponent("black", "ours", None, int(args.engine_time * 1000)))
        s.start(args.game, None, again=True)
        for _ in range(args.moves):
            s.tick()
            st = s.bridge.request("state").split(" ", 4)
            if st[2] == "over":
                break
            pos = new_position(st[1], st[4])
            m = rng.choice(pos.legal_moves())
            ply = int(st[3]) + 1
            # A person's hands in real time: the board accepts the move after its calm,
            # on its own clock, as on a real board.
            geo = Geometry(pos.game.layout)
            lifts, places = hand_moves(pos, m)
            steps = [f"lift {geo.name(geo.phys(c))}\nwait 60\n" for c in lifts]
            steps += [f"place {geo.name(geo.phys(c))}\nwait 60\n" for c in places]
            if args.pico:  # the emulated board's hands, its clock running on
                for step in "".join(steps).split("\n"):
                    if step:
                        s.hand("sim " + step)
            else:  # the virtual board's hands file
                with open(vb.board_dir / "hands", "a") as f:
                    f.write("".join(steps))
            thought = None
            while s.shown is None and s.snap.state != "over":
                job = s.job
                s.serve(0.05)
                if job is not None and s.job is None:
                    thought = job
            if s.shown is None:
                break
            frame = s.bridge.request("leds").split()[1]
            t1 = time.perf_counter()
            assert "f" in frame, frame
            engine_ms = (thought.ended - thought.started) * 1000 if thought else float("nan")
            rows.append(((t1 - heard[ply]) * 1000, engine_ms))
            if args.pico and chip:  # the frame last written is the one just read back
                chip_ms.append((int(vb.control("frame")[0].split()[3]) - chip[-1]) / 1000)
            s.command("make")
            s.bridge.poll(0.05)
        s.bridge.close()
    finally:
        archive.close()
        vb.stop()
    if not rows:
        print("no move was measured")
        return 1
    lit = [r[0] for r in rows]
    over = [r[0] - r[1] for r in rows]
    where = "the emulated Pico" if args.pico else "the virtual board"
    print(f"{args.game} on {where}, {len(rows)} moves of the computer's, --engine-time {args.engine_time:g} s")
    print(f"  player's move accepted -> computer's move lit: median {statistics.median(lit):.1f} ms, max {max(lit):.1f} ms")
    print(f"  the engine's own time: median {statistics.median(r[1] for r in rows):.1f} ms, max {max(r[1] for r in rows):.1f} ms")
    print(f"  the rest (host and board): median {statistics.median(over):.1f} ms, max {max(over):.1f} ms "
          f"(target: within one scan, {SCAN_MS} ms)")
    print(f"  of it, the board's `move` request (journal, position, LED frame, reply): median "
          f"{statistics.median(move_ms):.1f} ms, max {max(move_ms):.1f} ms")
    if chip_ms:
        print(f"  on the chip, in emulated time (a lower bound; the wall times above are the emulator's, slower than "
              f"a Pico): `move` request sent -> its LED frame written: median {statistics.median(chip_ms):.1f} ms, "
              f"max {max(chip_ms):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
