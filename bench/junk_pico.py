"""Junk on the emulated Pico's USB link (issue #23, item 2): how long a flood leaves the
board deaf, and whether a move made by hand during it is kept.  Run:

    .venv/bin/python bench/junk_pico.py [--uf2 UF2] [--floods 30000:line,100000:line,200000:stream]

Without --uf2: stock MicroPython with the firmware's .mpy files (./flash.sh, a flash image
prepared once in build/); with --uf2: an image with the firmware frozen in.  For each
flood a chess game is set up, then the flood is written to the port in one go with `ping`
right behind it: a `line` is N bytes of `x` and its newline (one line over the 512-byte
cap: one `error too-long`), a `stream` N random bytes (seeded; a newline every 256 on
average, each line answered, most `bad-bytes`).  Meanwhile the emulator's hands play e2-e4
(lifted at once, put down 150 ms later in emulated time).  Printed: the deafness, the
emulated time from the ping's arrival at the chip's USB (right behind the flood: the
whole flood in the chip's buffers at once, the worst case) to `ok pong` leaving it; the
chip's time a byte of junk; the replies the junk earned; and the move, kept or not.

Emulated time counts Cortex-M0+ cycles at 125 MHz and models no flash-cache misses or wait
states: every time printed is a LOWER BOUND of a real Pico's.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host.link import BoardLink  # noqa: E402
from host.link import pico as emu  # noqa: E402

LOWER = "(emulated time: a lower bound)"


def junk(kind: str, n: int) -> bytes:
    if kind == "line":
        return b"x" * n + b"\n"
    if kind == "stream":
        return random.Random(23).randbytes(n) + b"\n"
    raise SystemExit(f"bench/junk_pico.py: no flood kind {kind!r} (line, stream)")


def _us(reply: str) -> int:
    return int(reply.split()[-1])


def flood(pico: emu.EmulatedPico, kind: str, n: int) -> dict[str, object]:
    """One flood on a fresh chess game; the figures."""
    hands = emu.Hands(pico)
    with BoardLink(pico.port, timeout_s=120) as link:
        link.hello(timeout_s=30)
        link.request("new chess")
        hands.setup("chess", None)
        hands.play("wait 300")
        link.request("ping")
        pico.control("await ok pong")
        start = _us(pico.control("time")[0])
        link.ser.write(junk(kind, n) + b"ping\n")
        link.ser.flush()
        lifted: list[str] = []
        mover = threading.Thread(
            target=lambda: lifted.extend(pico.control("lift " + str(hands.square("e2")), "wait 150",
                                                      "place " + str(hands.square("e4")), "wait 600")))
        mover.start()
        replies = 0
        buf = b""
        ponged = False
        deadline = time.monotonic() + 1800
        while not ponged:
            if time.monotonic() > deadline:
                raise SystemExit(f"bench/junk_pico.py: no pong after the {kind} of {n} bytes")
            buf += link.ser.read(link.ser.in_waiting or 1)
            *lines, buf = buf.split(b"\n")
            for line in lines:
                replies += b" error " in line
                ponged = ponged or line.rstrip().endswith(b"ok pong")
        mover.join()
        pong = _us(pico.control("seen")[0])
        arrived = _us(pico.control("serial")[0])
        history = link.request("history").split()[1:]
        state = link.request("state").split()[1]
    lift_us, place_us = _us(lifted[0]), _us(lifted[2])
    return {
        "deaf_ms": (pong - arrived) / 1000,
        "total_ms": (pong - start) / 1000,
        "us_a_byte": (pong - start) / n,
        "replies": replies,
        "lift_ms": (lift_us - start) / 1000,
        "place_ms": (place_us - start) / 1000,
        "kept": history == ["e2e4"],
        "state": state,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--uf2", help="a MicroPython image with the firmware in it (default: stock + flash.sh)")
    ap.add_argument("--floods", default="30000:line,100000:line,200000:stream", help="SIZE:line|stream, ...")
    args = ap.parse_args()
    uf2 = Path(args.uf2) if args.uf2 else None
    layout = f"our image {uf2.name}" if uf2 else "stock MicroPython, .mpy files"
    print(f"junk on the link, {layout} {LOWER}", flush=True)
    with tempfile.TemporaryDirectory(prefix="eboard-bench-junk-") as tmp:
        pico = emu.board(Path(tmp), uf2)
        try:
            for spec in args.floods.split(","):
                size, _, kind = spec.partition(":")
                t0 = time.monotonic()
                f = flood(pico, kind or "line", int(size))
                print(
                    f"{int(size):,}-byte {kind}: deaf {f['deaf_ms']:.0f} ms after it; the chip's time through it "
                    f"{f['total_ms']:.0f} ms ({f['us_a_byte']:.1f} us a byte); {f['replies']} error replies; "
                    f"e2 lifted at +{f['lift_ms']:.0f} ms, put on e4 at +{f['place_ms']:.0f} ms: "
                    f"{'kept' if f['kept'] else 'NOT KEPT'} (state {f['state']}); "
                    f"{time.monotonic() - t0:.0f} s wall",
                    flush=True,
                )
        finally:
            pico.stop()
    return 0


if __name__ == "__main__":
    sys.exit(emu.run_bench(main))
