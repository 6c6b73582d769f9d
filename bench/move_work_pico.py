"""Every move's work on the emulated Pico (issue #23 item 4), in emulated time.  Run:

    .venv/bin/python bench/move_work_pico.py [--uf2 UF2] [--games lippo:200,chess:60,...] [--every 10] [--think MS]

Without --uf2: stock MicroPython with the firmware's .mpy files (./flash.sh's); with --uf2:
an image with the firmware frozen in.  The whole firmware runs (main.py, the pico profile);
the emulator's hands play a game of random moves that do not end it, White's by hand and
Black's sent by the host as `move` lines (`computer black`, as against the computer; the
hands then make that move on the board).  The emulator times, without touching the
firmware (boards/emu/README.md, control `scans` and `lineedge`):

- after White's piece is put down: the longest time between two scans' starts, from the
  scan that reads the place (the move matched) and, separately, from the scan that makes
  the move (after the tracker's calm: the journal, the `move` event, the game's end, the
  next turn) to the bench's `state` request (whose own work, a FEN made on the chip, is
  printed apart: it is not the move's): how long the board did not look at its switches;
- a lift: the same, from the scan that reads it (the hints lit);
- Black's `move` line: from its last byte handed to the chip to the first edge on the LED
  pin (the move lit), and the longest gap between scans around the request.

Emulated time counts Cortex-M0+ cycles at 125 MHz and models no flash-cache misses or
wait states: every time printed is a LOWER BOUND of a real Pico's.  A scan's own time (the
12 rows read, the debounce) is in each gap: at rest the gaps are the scan period, 5 ms.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "mpy"))

from fuzzgen import Rand, lasting_move  # noqa: E402

from firmware.rules import new_position  # noqa: E402
from firmware.hands import hand_moves  # noqa: E402
from host.link import BoardLink  # noqa: E402
from host.link import pico as emu  # noqa: E402

LOWER = "(emulated time: a lower bound)"


def gap_ms(pico: emu.EmulatedPico) -> float:
    """The longest gap between two scans' starts since the last ask (ms); counted afresh."""
    return int(pico.control("scans")[0].split()[3]) / 1000


def flash_ops(pico: emu.EmulatedPico) -> tuple[int, int]:
    """The flash erases and programs so far, and the erases among them (the emulator
    models a W25Q16: 45 ms a 4 KB sector's erase, 0.4 ms a page's program, the core
    stalled meanwhile)."""
    w = pico.control("flashops")[0].split()
    return int(w[2]), int(w[3])


def steps(verb: str, cells: list[int], geo) -> list[str]:
    return [x for c in cells for x in (f"{verb} @{geo.phys(c)}", "wait 100")]


def play(pico: emu.EmulatedPico, game: str, plies: int, seed: int, every: int = 0,
         think: int = 0) -> dict[str, list[float]]:
    """One game of `plies` plies; the figures, each a list of ms (the maxima so far printed
    every `every` plies).  think: ms the player stands back before each White move (the
    board idle: its idle work done then, as in a game at a person's pace; 0, the worst
    case: the board never stands idle a second)."""
    out: dict[str, list[float]] = {"lift": [], "place": [], "commit": [], "line": [], "request": [], "flash": [],
                                   "state": [], "erase": [], "erase_line": [], "pending": [], "commit_ply": [],
                                   "erase_place": []}
    pico.power_up()  # of its own
    with BoardLink(pico.port, timeout_s=120) as link:
        link.hello(timeout_s=30)
        hands = emu.Hands(pico)
        hands.new_game(link, game)
        link.request("computer black")
        pos = new_position(game, link.request("state").split(" ", 4)[4])
        geo = hands.geo
        rng = Rand(seed)
        for ply in range(plies):
            ms = pos.legal_moves()
            if not ms or pos.outcome() is not None:
                break
            m = lasting_move(pos, ms, rng)
            lifts, places = hand_moves(pos, m)
            text = pos.move_str(m)
            if ply % 2 == 0:  # White's, by hand
                if think:
                    hands.play(f"wait {think}")
                gap_ms(pico)
                hands.play(*steps("lift", lifts, geo))
                out["lift"].append(gap_ms(pico))
                ops = flash_ops(pico)
                hands.play(*steps("place", places, geo), "wait 150")
                out["place"].append(gap_ms(pico))  # the place read, the move matched
                out["erase_place"].append(flash_ops(pico)[1] - ops[1])
                hands.play("wait 450")
                commit = gap_ms(pico)  # the move made, and the scans after it
                st = link.request("state").split(" ", 4)
                out["state"].append(gap_ms(pico))  # the bench's own request (a FEN made): not the move's
                out["pending"].append(st[2] == "pending")
                out["commit_ply"].append(ply + 1)
                if st[2] == "pending":  # a move that could still grow waits longer
                    hands.play("wait 2600")
                    commit = max(commit, gap_ms(pico))
                    st = link.request("state").split(" ", 4)
                    gap_ms(pico)
                out["commit"].append(commit)
                now = flash_ops(pico)
                out["flash"].append(now[0] - ops[0])  # its journal's erases and programs
                out["erase"].append(now[1] - ops[1])
            else:  # Black's, the host's line; then made by hand
                gap_ms(pico)
                ops = flash_ops(pico)
                link.request(f"move {text}")
                out["line"].append(int(pico.control("lineedge")[0].split()[2]) / 1000)
                hands.play("wait 20")  # (a held core's clock runs in the hands' waits)
                out["request"].append(gap_ms(pico))
                out["erase_line"].append(flash_ops(pico)[1] - ops[1])
                hands.play(*steps("lift", lifts, geo), *steps("place", places, geo), "wait 300")
                st = link.request("state").split(" ", 4)
            pos.push(m)
            if st[2] != "idle":
                # A man the rules add (Lippo's Soldiers of section 11) is lit to be put down.
                hands.setup(game, st[4])
                hands.play("wait 300")
                st = link.request("state").split(" ", 4)
            if int(st[3]) != ply + 1 or st[2] != "idle" or st[4] != pos.fen():
                raise SystemExit(f"move_work_pico: the board is not where the game is after ply {ply + 1} "
                                 f"({text}): {' '.join(st[1:4])}")
            gap_ms(pico)  # the requests' own work is not the move's
            if every and (ply + 1) % every == 0:  # so far: a run stopped early still says something
                print(f"  ply {ply + 1}: " + "; ".join(f"{k} max {max(v):.1f}" for k, v in out.items()
                                                      if v and k in ("lift", "place", "commit", "line", "request",
                                                                     "flash", "state")), flush=True)
    return out


def summary(xs: list[float], unit: str = " ms") -> str:
    if not xs:
        return "-"
    s = sorted(xs)
    p99 = s[min(len(s) - 1, int(len(s) * 0.99))]
    return f"max {s[-1]:.1f}{unit}, p99 {p99:.1f}, median {s[len(s) // 2]:.1f} ({len(s)})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--uf2", help="a MicroPython image with the firmware in it (default: stock + flash.sh)")
    ap.add_argument("--games", default="lippo:200,chess:60,checkers12:60,grosschess:60", help="GAME:PLIES,...")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--every", type=int, default=10, help="print the maxima so far every N plies (0: never)")
    ap.add_argument("--think", type=int, default=0,
                    help="ms the player stands back before each White move (default 0: the board never idle)")
    args = ap.parse_args()
    uf2 = Path(args.uf2) if args.uf2 else None
    layout = f"our image {uf2.name}" if uf2 else "stock MicroPython, .mpy files"
    if args.think:
        layout += f", the player standing back {args.think} ms before each White move"
    rows = []
    with tempfile.TemporaryDirectory(prefix="eboard-bench-move-") as tmp:
        pico = emu.board(Path(tmp), uf2)
        try:
            for spec in args.games.split(","):
                game, _, n = spec.partition(":")
                t0 = time.monotonic()
                got = play(pico, game, int(n or 200), args.seed, args.every, args.think)
                plies = len(got["lift"]) + len(got["line"])
                for key, name in (
                    ("place", "White's man put down -> scanning again (the move matched)"),
                    ("commit", "the move made (after the calm) -> scanning again"),
                    ("lift", "a lift -> scanning again (its hints lit)"),
                    ("line", "Black's `move` line received -> first LED edge"),
                    ("request", "Black's `move` request: the longest gap between scans"),
                    ("state", "the bench's own `state` request after White's move (not counted above)"),
                    ("flash", "flash erases + programs while White's move is made (count, not ms)"),
                ):
                    rows.append((f"{game}, {plies} plies: {name}", summary(got[key], "" if key == "flash" else " ms")))
                    print(f"{rows[-1][0]}: {rows[-1][1]}", flush=True)
                for erased in (False, True):
                    xs = [g for g, e in zip(got["commit"], got["erase"]) if bool(e) == erased]
                    rows.append((f"{game}: the move made, of moves whose journal {'erased a sector' if erased else 'erased none'}",
                                 summary(xs)))
                    print(f"{rows[-1][0]}: {rows[-1][1]}", flush=True)
                for pending in (False, True):
                    # A move that could still grow (Lippo's) is waited on 2.6 s more: the board
                    # stands idle meanwhile, and its idle work (a checkpoint, the journal's next
                    # sector erased) falls inside the figure.
                    xs = [g for g, w in zip(got["commit"], got["pending"]) if w == pending]
                    rows.append((f"{game}: the move made, of moves {'waited on 2.6 s more (could still grow)' if pending else 'made after the calm alone'}",
                                 summary(xs)))
                    print(f"{rows[-1][0]}: {rows[-1][1]}", flush=True)
                for key, what in (("commit", "moves made"), ("place", "men put down")):
                    top = sorted(zip(got[key], got["commit_ply"], got["pending"]), reverse=True)[:3]
                    rows.append((f"{game}: the three longest {what} (ms, ply, w: waited on)",
                                 ", ".join(f"{g:.1f} at {p}{' w' if w else ''}" for g, p, w in top)))
                    print(f"{rows[-1][0]}: {rows[-1][1]}", flush=True)
                first = next((i for i, e in enumerate(got["erase"]) if e), None)
                if first is not None:
                    xs = got["erase"][first:]
                    rows.append((f"{game}: White's moves from the first that erased on",
                                 f"{sum(1 for x in xs if x)} of {len(xs)} erased (from ply {2 * first + 1})"))
                    print(f"{rows[-1][0]}: {rows[-1][1]}", flush=True)
                for key, who in (("erase_place", "White's men put down"), ("erase", "White's moves made"),
                                 ("erase_line", "Black's `move` requests")):
                    xs = got[key]
                    rows.append((f"{game}: {who} that erased a flash sector (45 ms each)",
                                 f"{sum(1 for x in xs if x)} of {len(xs)} ({sum(xs)} erases)"))
                    print(f"{rows[-1][0]}: {rows[-1][1]}", flush=True)
                print(f"  ({time.monotonic() - t0:.0f} s wall)", flush=True)
        finally:
            pico.stop()
    print()
    print(f"| figure, {layout} {LOWER} | |")
    print("|---|---|")
    for name, figure in rows:
        print(f"| {name} | {figure} |")
    return 0


if __name__ == "__main__":
    sys.exit(emu.run_bench(main))
