"""Issue #38's hint figure in two stages: the lifts of 100 positions a game ranked on this
machine, the heaviest timed on the emulated Pico.  Timing every lift on the chip takes some
30 minutes of wall time a game (hundred's 1,935 lifts); the heaviest K lifts a game and a
sample take a few.  Run (CPython):

    .venv/bin/python bench/hint_rank.py --fens bench/hint-100.txt --out FILE [-k 30]
                     [--sample 8] [--times EACH] [--check GAME:SQUARE:FEN...] [GAME ...]

Each lift (every piece of the side to move, made as bench/hint.py makes it) is ranked two
ways: by the lines of the rules core it runs and the calls into it (CPython's tracer, as
tests/test_lift_work.py counts them: the core's machine code on the chip is not counted),
and by its time on the 32-bit unix port with the firmware frozen in (build/micropython-32,
`bench/hint.py --each`, best of 3; it runs the machine code).  A game's selection: its top
K by each, and a sample of its other lifts (every lift equally likely, one seed: the
chip's median).  FILE gets one line a position ("<game> <fen> @e5,k10": the squares to
lift), for `bench/pico.py --fens FILE --positions 1000`.  --times EACH: the unix port's
lines from a file (bench/hint.py --each's output) instead of running it.  --check: a lift
known from a full chip run (its FEN's beginning will do): its rank by each measure, and
whether the selection holds it.  `bench/hint_rank.py --report CHIP_OUT FILE`: each game's
max (FEN, square) and medians from the chip's lines (bench/pico.py --each's output).
"""

import argparse
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench"), str(ROOT / "tests" / "mpy")]

from common import TMP, lift_work, positions_from  # noqa: E402

from boards import sim  # noqa: E402
from firmware import protocol  # noqa: E402
from firmware.app import Board  # noqa: E402

GAMES = ("lippo", "chess", "checkers12", "courier", "gardner", "hundred", "grosschess", "chess-t1")


def counted(gid, fens):
    """{(fen, square): lines + calls} of every lift of gid's positions."""
    hw = sim.Hardware(journal_path=TMP + "eboard-bench-hint-rank.journal")
    board = Board(hw, lambda line: None)
    board.boot(0)
    protocol.handle(board, ("new " + gid).encode(), 0)
    out = {}
    for fen in fens:
        for name, work in lift_work(board, hw, fen):
            out[(fen, name)] = work[0] + work[1]
    return out


def unix_times(path, games, fens_file, n):
    """{game: {(fen, square): us}} from bench/hint.py --each's lines (run here if path is None)."""
    if path is None:
        exe = ROOT / "build" / "micropython-32"
        if not exe.exists():
            raise SystemExit("bench/hint_rank.py: no build/micropython-32 (boards/build-image.sh makes it)")
        text = subprocess.run(
            [str(exe), "-X", "heapsize=512K", str(ROOT / "bench" / "hint.py"), "--each", "--fens", fens_file, "-n",
             str(n), *games],
            check=True, capture_output=True, text=True, cwd=ROOT,
            env={"MICROPYPATH": ":".join([str(ROOT / "bench"), str(ROOT / "tests" / "mpy"), str(ROOT)])},
        ).stdout
    else:
        text = Path(path).read_text()
    out = {g: {} for g in games}
    for line in text.splitlines():
        w = line.split(" ", 4)
        if w[0] == "lift" and w[1] in out:
            out[w[1]][(w[4], w[2])] = int(w[3])
    return out


def ranks(scores):
    """{lift: its rank (1: the heaviest)} by score."""
    return {k: i + 1 for i, k in enumerate(sorted(scores, key=lambda k: -scores[k]))}


def report(chip_out, selection):
    """Each game's figures from a chip run of the selection (bench/pico.py --each's output):
    its max with the FEN and square, the median of the lifts timed and of the sample."""
    sampled = set()
    for line in Path(selection).read_text().splitlines():
        gid, _, rest = line.partition(" ")
        fen, _, squares = rest.partition(" @")
        for sq in squares.partition(" @")[2].split(","):
            sampled.add((gid, fen, sq))
    got = {}
    for line in Path(chip_out).read_text().splitlines():
        w = line.split(" ", 4)
        if w[0] == "lift" and len(w) == 5:
            got.setdefault(w[1], []).append((int(w[3]), w[2], w[4]))
    for gid, lifts in got.items():
        us, sq, fen = max(lifts)
        sample = sorted(u for u, s, f in lifts if (gid, f, s) in sampled)
        print(f"{gid}: max {us / 1000:.1f} ms ({sq} in {fen}), median {median(lifts) / 1000:.1f} ms over the "
              f"{len(lifts)} lifts timed, median of its {len(sample)} sampled {median(sample) / 1000:.1f} ms")


def median(xs):
    xs = sorted(xs)
    if not xs:
        return 0
    x = xs[len(xs) // 2]
    return x[0] if isinstance(x, tuple) else x


def main():
    if sys.argv[1:2] == ["--report"]:  # --report CHIP_OUT SELECTION
        report(sys.argv[2], sys.argv[3])
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fens", default=str(ROOT / "bench" / "hint-100.txt"))
    ap.add_argument("-n", type=int, default=100, help="positions a game")
    ap.add_argument("-k", type=int, default=30, help="the heaviest lifts a game by each measure")
    ap.add_argument("--sample", type=int, default=8, help="other lifts a game, drawn at random")
    ap.add_argument("--times", help="bench/hint.py --each's output on the unix port (default: run it)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--check", nargs="*", default=[], help="GAME:SQUARE:FEN-PREFIX, a lift known to be heavy")
    ap.add_argument("games", nargs="*", default=list(GAMES))
    a = ap.parse_args()
    times = unix_times(a.times, a.games, a.fens, a.n)
    rng = random.Random(38)
    lines = []
    for gid in a.games:
        fens = positions_from(a.fens, gid, a.n)
        work = counted(gid, fens)
        t = times[gid]
        if set(t) != set(work):
            raise SystemExit(f"bench/hint_rank.py: {gid}: the unix port's lifts are not this tree's ({len(t)} / {len(work)})")
        by_work, by_time = ranks(work), ranks(t)
        chosen = {k for k in work if by_work[k] <= a.k or by_time[k] <= a.k}
        rest = sorted(set(work) - chosen, key=lambda k: (fens.index(k[0]), k[1]))
        sample = set(rng.sample(rest, min(a.sample, len(rest))))
        print(f"{gid}: {len(work)} lifts; {len(chosen)} in the top {a.k} by work or by unix-port time, "
              f"{len(sample)} sampled; top by time {max(t.values())} us, by work {max(work.values())}")
        for spec in a.check:
            g, sq, prefix = spec.split(":", 2)
            if g != gid:
                continue
            hits = [k for k in work if k[1] == sq and k[0].startswith(prefix)]
            for k in hits:
                print(f"  check {g} {sq} in {k[0][:40]}...: rank {by_work[k]} by work ({work[k]}), "
                      f"{by_time[k]} by time ({t[k]} us): {'selected' if k in chosen else 'NOT selected'}")
            if not hits:
                print(f"  check {spec}: no such lift")
        for fen in fens:
            top = [sq for (f, sq) in work if f == fen and (f, sq) in chosen]
            other = [sq for (f, sq) in work if f == fen and (f, sq) in sample]
            if top or other:
                lines.append(f"{gid} {fen} @{','.join(top)}" + (f" @{','.join(other)}" if other else "") + "\n")
    Path(a.out).write_text("".join(lines))
    print(f"{len(lines)} positions written to {a.out}")


if __name__ == "__main__":
    main()
