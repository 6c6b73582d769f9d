"""The Pico's heap and speed, measured on this machine: a 32-bit MicroPython unix port
built from the Pico's own MicroPython source (its objects are the size of the Pico's).

    python3 bench/port32.py --build ../shared/pico/micropython-rp2-src.tar.gz   # once, ~1 min
    python3 bench/port32.py [--games lippo chess ...] [-n POSITIONS] [--no-heap]

--build extracts the tarball (or takes a MicroPython checkout) into --work and builds
mpy-cross and two unix ports with `gcc -m32` (gcc-multilib): plain, and with firmware/
and boards/sim.py frozen in.  Then, and on every later run:

- heap: bench/heap.py's 200-move Lippo game, with .mpy files and frozen, and a
  1,000-move game (frozen) whose live heap must not grow after move 100;
- hints: bench/hint.py on every game (every piece of 20 or -n positions; microseconds
  on this machine's unix port), and the LED frame's encoding.

The Pico's figures ran 6.6-6.9 KB above the 32-bit port's in the trial run of
../shared/pico/README.md; the estimates below add that.  Timings are a proxy: divide a
chip's budget by the ratio of its times to these (about 100x for an RP2040 at 125 MHz,
from the trial's medians).  Nothing here is a test: it prints figures.
"""

import argparse
import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("lippo", "chess", "grosschess", "hundred", "chess-t1", "checkers12", "courier", "gardner")
PICO_OVER_PORT = {"mpy": 6864, "frozen": 6640}  # trial run: emulated Pico minus 32-bit port
# The trial's lift medians on the emulated Pico (Lippo 5.2 ms, chess 4.0 ms) over the
# same firmware's on this port (45 us, 35 us from bench/hint.py): an RP2040 is ~115x slower.
PICO_TIMES_PORT = 115
LIFT_SETTLE_MS = 30  # firmware/debounce.py
BUDGET = {"mpy": 96 * 1024, "frozen": 40 * 1024}
MAKE_ARGS = ["CC=gcc -m32", "MICROPY_PY_FFI=0", "MICROPY_PY_BTREE=0", "MICROPY_PY_SSL=0",
             "MICROPY_SSL_AXTLS=0", "MICROPY_SSL_MBEDTLS=0"]


def sources(work):
    return work / "micropython"


def build(src, work):
    work.mkdir(parents=True, exist_ok=True)
    if src.is_file():
        print("extracting %s" % src, flush=True)
        with tarfile.open(src) as t:
            t.extractall(work)
    elif not (work / "micropython").exists():
        (work / "micropython").symlink_to(src.resolve())
    make(work)


def make(work):
    # Also on every run: the frozen port holds the firmware as it was when it was built.
    mp = sources(work)
    manifest = work / "manifest.py"
    manifest.write_text(
        'package("firmware", base_path=%r)\n'
        'package("boards", files=("__init__.py", "sim.py", "simrepl.py"), base_path=%r)\n' % (str(ROOT), str(ROOT))
    )
    run(["make", "-j2", "-C", str(mp / "mpy-cross")])
    unix = str(mp / "ports" / "unix")
    run(["make", "-j2", "-C", unix, "BUILD=build-32"] + MAKE_ARGS)
    run(["make", "-j2", "-C", unix, "BUILD=build-32f", "FROZEN_MANIFEST=%s" % manifest] + MAKE_ARGS)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode:
        sys.exit("port32: %s failed:\n%s%s" % (" ".join(cmd[:3]), r.stdout[-3000:], r.stderr[-3000:]))
    return r.stdout


def compile_mpy(work):
    # The firmware as flash.sh puts it on a board: .mpy files, compiled by this source's
    # mpy-cross (its bytecode version is the port's).
    out = work / "mpy"
    cross = sources(work) / "mpy-cross" / "build" / "mpy-cross"
    files = list((ROOT / "firmware").rglob("*.py")) + [ROOT / "boards" / n for n in ("__init__.py", "sim.py", "simrepl.py")]
    for f in files:
        rel = f.relative_to(ROOT).with_suffix(".mpy")
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        run([str(cross), "-o", str(out / rel), str(f)])
    return out


def port(work, frozen):
    return str(sources(work) / "ports" / "unix" / ("build-32f" if frozen else "build-32") / "micropython")


def heap(work, mpy, frozen, plies=200):
    path = ".frozen:" if frozen else str(mpy) + ":"
    env = dict(os.environ, MICROPYPATH=path + str(ROOT / "bench") + ":" + str(ROOT / "tests" / "mpy"))
    size = "72K" if frozen else "136K"
    out = run([port(work, frozen), "-X", "heapsize=" + size, str(ROOT / "bench" / "heap.py"), str(plies)],
              env=env, cwd="/tmp")
    start, peak = map(int, re.search(r"heap at start (\d+) bytes, peak live (\d+)", out).groups())
    by_ply = {int(a): int(b) for a, b in re.findall(r"ply +(\d+): live heap +(\d+)", out)}
    return start, peak, by_ply, out


def hints(work, mpy, games, n):
    env = dict(os.environ, MICROPYPATH="%s:%s:%s" % (mpy, ROOT / "bench", ROOT / "tests" / "mpy"))
    worst = 0
    encode = 0
    for gid in games:
        cmd = [port(work, False), "-X", "heapsize=1M", str(ROOT / "bench" / "hint.py"), "-n", str(n), gid]
        line, enc = run(cmd, env=env, cwd=str(ROOT)).strip().splitlines()
        top = int(re.search(r"max (\d+) us", line).group(1))
        worst = max(worst, top)
        encode = int(re.search(r"(\d+) us", enc).group(1))
        print("  %s (Pico ~%.1f ms)" % (line, top * PICO_TIMES_PORT / 1000), flush=True)
    print("  LED frame encode %d us (Pico ~%.1f ms)" % (encode, encode * PICO_TIMES_PORT / 1000))
    print("latency, lift read to the LED frame's start, worst piece: %d ms settle + %.1f ms (Pico estimate)"
          % (LIFT_SETTLE_MS, (worst + encode) * PICO_TIMES_PORT / 1000))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", type=Path, help="MicroPython source: the tarball or a checkout")
    ap.add_argument("--work", type=Path, default=Path("/tmp/eboard-port32"))
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    ap.add_argument("-n", type=int, default=20, help="positions a game for the hint figures")
    ap.add_argument("--no-heap", action="store_true")
    a = ap.parse_args(argv)
    if a.build:
        build(a.build, a.work)
    elif not sources(a.work).exists():
        sys.exit("port32: no MicroPython source in %s: run with --build SRC first" % a.work)
    else:
        make(a.work)
    mpy = compile_mpy(a.work)
    if not a.no_heap:
        print("heap (32-bit unix port; Pico estimate = port + the trial's offset):")
        for label, frozen in (("mpy", False), ("frozen", True)):
            start, peak, _, _ = heap(a.work, mpy, frozen)
            pico = peak + PICO_OVER_PORT[label]
            print("  %-6s 200-move Lippo: start %6d B, peak %6d B; Pico ~%6d B (budget %d)"
                  % (label, start, peak, pico, BUDGET[label]), flush=True)
        _, peak, by_ply, out = heap(a.work, mpy, True, 1000)
        after = [v for k, v in by_ply.items() if k >= 100]
        played = re.search(r"plies played: (\d+)", out).group(1)
        print("  1,000-move game (frozen): %s plies; live heap at ply 100 %d B, highest after it %d B, peak %d B"
              % (played, by_ply.get(100, 0), max(after or [0]), peak))
    print("hints (lift -> LED frame, every piece of %d positions, 32-bit unix port):" % a.n, flush=True)
    hints(a.work, mpy, a.games, a.n)


if __name__ == "__main__":
    main()
