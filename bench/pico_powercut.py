"""Power cuts by the hundred on the emulated Pico (issue #23 item 7): Lippo games played
by the host (`move`), with a power cut planted inside the chip's flash erases and programs
(the emulator's `cut K F`: the K-th erase or program from now, F of the way through it) one
after another, so that they fall in the journal's writes: its moves, its blocks of message
numbers, its rewrites and its checkpoints (every 50 plies).  After every power-up the
board's `history` is checked against the moves it had accepted (`ok move` heard): every
accepted move there (0 lost), and nothing beyond them but the one move in flight (0
invented); `state` must say as many plies as `history`, and the game's uid must be the
same.  The move in flight, when the board does not have it, is sent again.

    .venv/bin/python bench/pico_powercut.py [--uf2 UF2] [--cuts 200] [--plies 150] [--seed 23]

Without --uf2: stock MicroPython with the firmware's .mpy files put on by ./flash.sh (a
flash image prepared once in build/); with --uf2: an image with the firmware frozen in.
On the image the journal is a ring of raw flash sectors (firmware/ring.py), fresh ones
erased already: --dirty-ring first programs every sector but the journal's own to 0x00
(as a flash that held something else), so that each must be erased before its first use
and the cuts fall in erases too.

Measured 2026-11-24/25 (firmware 0b2e82b, --cuts 200, one run a layout): image and stock
each 200 cuts, 0 lost, 0 invented, 0 disagreeing, the game at ply 95 (3 cuts planted at a
checkpoint's ply); reset to hello after a cut 258-956 ms (image), 593-1,390 ms (stock).
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "mpy"))

from fuzzgen import Rand, lasting_move  # noqa: E402

from firmware.rules import new_position  # noqa: E402
from host.link.repl import stop_for_repl  # noqa: E402
from host.link import BoardLink  # noqa: E402
from host.link import pico as emu  # noqa: E402


RETRIES = 3  # cuts in one move's writes before it goes through uncut


class Run:
    def __init__(self, pico: emu.EmulatedPico) -> None:
        self.pico = pico
        self.link: BoardLink | None = None
        self.cuts = self.lost = self.invented = self.resent = self.disagree = 0
        self.checkpoint_cuts = 0  # cuts planted at a ply that writes a checkpoint
        self.problems: list[str] = []
        self.boot_ms: list[float] = []

    def connect(self) -> BoardLink:
        emu.wait_firmware(self.pico.port)
        link = BoardLink(self.pico.port, timeout_s=60)
        link.hello(timeout_s=30)
        self.link = link
        return link

    def power_up(self) -> BoardLink:
        if self.link is not None:
            self.link.close()
        self.pico.restart()
        link = self.connect()
        self.boot_ms.append(int(self.pico.control("hello")[0].split()[2]) / 1000)
        return link

    def history(self) -> list[str]:
        assert self.link is not None
        return self.link.request("history").split()[1:]


def ask(pico: emu.EmulatedPico, link: BoardLink, line: str) -> bool:
    """Send a request; True once its `ok` reply comes, False if the power went first
    (the link is watched in slices, so that a dead chip is seen at once)."""
    link.ser.write(line.encode() + b"\n")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        got = link._next(time.monotonic() + 0.5)
        if got is not None:
            word = got[1].split(" ", 1)[0]
            if word == "ok":
                return True
            if word == "error":
                raise SystemExit(f"bench/pico_powercut.py: {line!r} refused: {got[1]}")
        elif not pico.alive():
            return False
    raise SystemExit(f"bench/pico_powercut.py: no reply to {line!r}, the chip alive")


def play(run: Run, cuts: int, plies: int, seed: int) -> Run:
    pico = run.pico
    rng = random.Random(seed)
    link = run.connect()
    games = 0
    while run.cuts < cuts:
        if not ask(pico, link, "new lippo"):  # a cut left over from the last game's end
            run.cuts += 1
            link = run.power_up()
            continue
        uid = link.request("game").split()[2]
        pos = new_position("lippo")
        choose = Rand(seed + games)
        games += 1
        accepted: list[str] = []
        pending = False  # a cut planted, not yet come
        cut_at: dict[int, int] = {}  # ply -> cuts that fell in its move
        while (len(accepted) < plies or pending) and run.cuts < cuts:
            ms = pos.legal_moves()
            if not ms or pos.outcome() is not None:
                break
            text = pos.move_str(lasting_move(pos, ms, choose))
            if not pending and cut_at.get(len(accepted), 0) < RETRIES:
                # a cut within this move's writes (its record, a checkpoint's, a block of
                # numbers) or, when it does fewer, the next move's.  A move cut RETRIES
                # times goes through uncut (a write of many erases and programs, which
                # every K of 1-4 falls in, held the game at one ply for good)
                pico.control(f"cut {rng.randint(1, 4)} {rng.random():.3f}")
                pending = True
                if (len(accepted) + 1) % 50 == 0:
                    run.checkpoint_cuts += 1
            if ask(pico, link, "move " + text):
                accepted.append(text)
                pos.push(pos.parse_move(text))
                continue
            # The power went inside a flash write: power up, look at what the board kept.
            run.cuts += 1
            pending = False
            cut_at[len(accepted)] = cut_at.get(len(accepted), 0) + 1
            link = run.power_up()
            history = run.history()
            state = link.request("state").split()
            if history[: len(accepted)] != accepted:
                kept = sum(1 for a, b in zip(history, accepted) if a == b)
                run.lost += len(accepted) - kept
                run.problems.append(f"cut {run.cuts}: accepted {len(accepted)} moves, the board has {len(history)}")
            extra = history[len(accepted) :]
            if extra not in ([], [text]):
                run.invented += len(extra)
                run.problems.append(f"cut {run.cuts}: moves never accepted {extra[:3]} (in flight {text})")
            if int(state[3]) != len(history) or link.request("game").split()[2] != uid:
                run.disagree += 1
                run.problems.append(f"cut {run.cuts}: state {' '.join(state[1:4])}, history {len(history)} plies")
            if run.problems:
                return run
            if extra == [text]:
                accepted.append(text)
                pos.push(pos.parse_move(text))
            else:
                run.resent += 1  # the move in flight was not kept: the host sends it again
            if run.cuts % 10 == 0:
                print(f"  {run.cuts} cuts, ply {len(accepted)} of game {games}: 0 lost, 0 invented", flush=True)
    return run


DIRTY = """import os, rp2
st = os.statvfs('/')
ring = rp2.Flash().ioctl(4, 0) * 4096 - st[1] * st[2]
dev = rp2.Flash(start=0, len=ring)
mem = memoryview(dev)
n = 0
for s in range(ring // 4096):
    if bytes(mem[s * 4096 : s * 4096 + 2]) != b'EJ':
        dev.writeblocks(s, bytes(4096), 0)
        n += 1
print('dirtied', n, 'of', ring // 4096)
"""


def dirty_ring(pico: emu.EmulatedPico) -> str:
    """Every sector of the image's journal ring but those in use programmed to 0x00."""
    import subprocess

    exe = ROOT / ".venv" / "bin" / "mpremote"
    stop_for_repl(pico.port)
    done = subprocess.run([str(exe) if exe.exists() else "mpremote", "connect", pico.port, "exec", DIRTY],
                          capture_output=True, text=True, timeout=900)
    if done.returncode != 0 or "dirtied" not in done.stdout:
        raise SystemExit(f"bench/pico_powercut.py: --dirty-ring failed: {done.stdout}{done.stderr}")
    pico.power_up()  # a reset: the firmware runs again
    return done.stdout.strip()


def _stop(signum, frame) -> None:
    raise KeyboardInterrupt


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--uf2", help="a MicroPython image with the firmware in it (default: stock + flash.sh)")
    ap.add_argument("--cuts", type=int, default=200)
    ap.add_argument("--plies", type=int, default=150, help="plies a game (then a new one)")
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--dirty-ring", action="store_true", help="(--uf2) the journal ring's free sectors dirtied first")
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, _stop)  # (a job in the background ignores SIGINT)
    uf2 = Path(args.uf2) if args.uf2 else None
    layout = f"our image {uf2.name}" if uf2 else "stock MicroPython, .mpy files"
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="eboard-bench-cut-") as tmp:
        pico = emu.board(Path(tmp), uf2)
        if args.dirty_ring:
            print(dirty_ring(pico), flush=True)
        run = Run(pico)
        try:
            play(run, args.cuts, args.plies, args.seed)
        except KeyboardInterrupt:  # (Ctrl-C, kill -TERM): the figure of the cuts so far
            print("stopped by hand", flush=True)
        finally:
            pico.stop()
        log = pico.log_path.read_text(errors="replace") if pico.log_path.exists() else ""
        in_erases = log.count("(an erase)")
    for p in run.problems:
        print(p)
    boots = sorted(run.boot_ms) or [0.0]
    print(
        f"{layout}: {run.cuts} power cuts inside flash erases and programs ({in_erases} in erases; "
        f"{run.checkpoint_cuts} planted at a "
        f"checkpoint's ply); accepted moves lost {run.lost}, moves invented {run.invented}, state and history "
        f"disagreeing {run.disagree}; moves in flight sent again {run.resent}; reset to hello "
        f"{boots[0]:.0f}-{boots[-1]:.0f} ms (emulated); {time.monotonic() - t0:.0f} s wall"
    )
    return 1 if run.problems else 0


if __name__ == "__main__":
    sys.exit(emu.run_bench(main))
