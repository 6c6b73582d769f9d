"""Issue #21, break 1 on the emulated Pico: a 200-ply Lippo game's `history` (continuation
lines, docs/protocol.md "Long replies") and Lippo's `moves` reach the host whole, before
and after a reset that resumes the game from its journal.  Too slow for the suite (some
10 minutes of wall time on a loaded 2-core machine, stock MicroPython), so a bench:

    .venv/bin/python bench/long_reply_pico.py [--plies 200] [--uf2 UF2]

Exits 1, saying what differed, if a reply came back short.
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
from host.link import BoardLink, emulated_board, wait_firmware  # noqa: E402
from host.link.pico import run_bench  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plies", type=int, default=200)
    ap.add_argument("--uf2", type=Path, default=None, help="an image with the firmware frozen in")
    args = ap.parse_args()
    pos = new_position("lippo")
    rng = Rand(7)
    moves: list[str] = []
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        pico = emulated_board(Path(tmp), args.uf2)
        try:
            with BoardLink(pico.port, timeout_s=120) as link:
                link.hello(timeout_s=60)
                link.request("new lippo")
                for _ in range(args.plies):
                    m = lasting_move(pos, pos.legal_moves(), rng)
                    moves.append(pos.move_str(m))
                    pos.push(m)
                    link.request("move " + moves[-1])
                history = link.request("history").split()[1:]
                legal = link.request("moves").split()[1:]
            pico.control("reset")
            pico.wait_usb()
            wait_firmware(pico.port)
            with BoardLink(pico.port, timeout_s=120) as link:
                link.hello(timeout_s=120)
                again = link.request("history").split()[1:]
        finally:
            pico.stop()
    size = len(" ".join(moves))
    bad = [what for what, ok in (("history", history == moves), ("history after a reset", again == moves),
                                 ("moves", sorted(legal) == sorted(pos.move_str(m) for m in pos.legal_moves())))
           if not ok]
    print(f"{args.plies}-ply Lippo game on the emulated Pico: history {size} bytes "
          f"({size // 200 + 1} lines), {len(legal)} legal moves: "
          f"{'whole' if not bad else 'SHORT: ' + ', '.join(bad)}; {time.monotonic() - t0:.0f} s wall")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(run_bench(main))
