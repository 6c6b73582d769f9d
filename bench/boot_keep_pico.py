"""A power-up with a journal full of kept games (issue #35, firmware/new_journal.py) on the
emulated Pico (boards/emu), in emulated time.  Run:

    .venv/bin/python bench/boot_keep_pico.py [--uf2 UF2] [--games 16] [--plies 60] [--tail 6] [--resets 3]

Two journals, each made on the host by the firmware's own Board (CPython, the virtual
board's profile) playing chess by `move` requests: the baseline, one game of --tail plies;
and --games games of --plies random lasting plies, each begun with `new chess`, then a game
of --tail plies (the journal keeps the newest old games that fit 16 KB, KEEP_BYTES: with
the defaults it is full).  Each goes
onto the chip's flash with mpremote (`fs cp` to data/journal.bin, boards/pico.py), the
switches as its last position has them, and the chip is reset: the first power-up finds
the file (on our image it moves it into its flash ring, boards/picoonce.py make_journal),
then --resets power-ups are timed from the reset to `hello`.  Then the board's `game` and
`history` are checked against the game played (SystemExit if they differ), and the
replies to `history` and `since 0` timed: from the request's last byte handed to the chip
to the reply's last byte out (the emulator's `serial` control).

Without --uf2: stock MicroPython with the firmware's .mpy files (./flash.sh's); with --uf2:
an image with the firmware frozen in.  Emulated time counts Cortex-M0+ cycles at 125 MHz
and models no flash-cache misses or wait states: every time printed is a LOWER BOUND.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "mpy"))

from fuzzgen import Rand, lasting_move  # noqa: E402
from pico import mpremote, reset_to_hello  # noqa: E402  (bench/pico.py)

from host.link import BoardLink  # noqa: E402
from host.link import pico as emu  # noqa: E402
from host.link.repl import stop_for_repl  # noqa: E402

LOWER = "(emulated time: a lower bound)"


def kept_journal(path: Path, games: int, plies: int, tail: int, seed: int = 7) -> tuple[str, list[str], int]:
    """games old chess games of plies lasting moves each, then one of tail plies, journaled
    by the firmware's Board at path; the last FEN, the last game's moves, the games the
    journal holds (its N/K records)."""
    from boards import sim
    from firmware import protocol
    from firmware.app import Board

    path.unlink(missing_ok=True)
    board = Board(sim.Hardware(journal_path=str(path)), lambda line: None)
    board.boot(0)
    rng = Rand(seed)
    moves: list[str] = []
    for i, n in enumerate([plies] * games + [tail]):
        if i:  # (the first: the game a fresh board begins, chess)
            protocol.handle(board, b"new chess", 0)
        moves = []
        for _ in range(n):
            pos = board.pos
            ms = pos.legal_moves()
            if not ms or pos.outcome() is not None:
                break
            moves.append(pos.move_str(lasting_move(pos, ms, rng)))
            protocol.handle(board, b"move " + moves[-1].encode(), 0)
    from firmware.journal import Journal

    held = sum(1 for r in Journal(str(path)).records() if r[0] in "NK")
    return board.pos.fen(), moves, held


def reply_ms(pico: emu.EmulatedPico) -> float:
    """Emulated ms from the last byte handed to the chip to its last byte out."""
    w = pico.control("serial")[0].split()
    at = w.index("at")
    return (int(w[at + 2]) - int(w[at + 1])) / 1000


def measure(pico: emu.EmulatedPico, journal: Path, fen: str, moves: list[str], resets: int) -> dict[str, object]:
    stop_for_repl(pico.port)  # the firmware stops for the REPL (Ctrl-C alone is dropped in play)
    mpremote(pico.port, "fs", "cp", str(journal), ":data/journal.bin")
    pico.set_occupancy(emu.occupancy_of("chess", fen))
    first, _ = reset_to_hello(pico, 1, timeout_s=900)
    ms, slept = reset_to_hello(pico, resets, timeout_s=900)
    events: list[str] = []
    with BoardLink(pico.port, timeout_s=300) as link:
        link.hello(timeout_s=60)
        game = link.request("game")
        history = link.request("history").split()[1:]
        history_ms = reply_ms(pico)
        link.on_event = lambda seq, text: events.append(text)
        link.request("since 0", replay=True)
        since_ms = reply_ms(pico)
    if history != moves or not game.split()[1:2] == ["chess"]:
        raise SystemExit(f"boot_keep_pico: the board resumed another game: game {game!r}, history "
                         f"{len(history)} moves {history[:4]}, played {len(moves)} {moves[:4]}")
    return {"ms": ms, "busy": [a - b for a, b in zip(ms, slept)], "first": first[0], "history": history_ms,
            "since": since_ms, "events": len(events),
            "kinds": " ".join(f"{k} {n}" for k, n in sorted(_count(e.split()[0] for e in events).items()))}


def _count(words) -> dict[str, int]:
    out: dict[str, int] = {}
    for w in words:
        out[w] = out.get(w, 0) + 1
    return out


PROBE = """
import time
T = []
def mark(n):
    T.append((n, time.ticks_us()))
mark('-')
from boards import pico
from firmware.app import Board
from firmware import power_up
mark('imports (boards.pico, firmware.app, power_up)')
hw = pico.Hardware()
mark('pico.Hardware()')
board = Board(hw, lambda line: None)
mark('Board(): the journal opened (make_journal)')
_replay = power_up.replay
def replay(*a, **k):
    mark('_resume: the check pass over every record (_number, verdict)')
    _replay(*a, **k)
    mark('replay of the game in play')
power_up.replay = replay
power_up.boot(board, 0)
mark('the rest of boot: scan, tracker, reserve, hello, keep_room, render')
for k in range(1, len(T)):
    print('probe %8.1f ms  %s' % (time.ticks_diff(T[k][1], T[k - 1][1]) / 1000, T[k][0]))
print('probe %8.1f ms  in all (on a soft reset, the firmware not loaded before)' % (time.ticks_diff(T[-1][1], T[0][1]) / 1000))
"""


def probe(pico: emu.EmulatedPico) -> str:
    """power_up's steps timed on the chip (ticks_us, emulated), the journal on the flash as
    it is: run from the REPL after a soft reset, the pico profile's Hardware and Board
    made as firmware/main.py makes them (its sys.path trimming not done: imports cost a
    little more).  The watchdog it starts resets the chip some 4 s after: the last step."""
    stop_for_repl(pico.port)
    out = mpremote(pico.port, "exec", PROBE)
    return "\n".join(line for line in out.splitlines() if line.startswith("probe"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--uf2", help="a MicroPython image with the firmware in it (default: stock + flash.sh)")
    ap.add_argument("--games", type=int, default=16, help="old games before the one in play")
    ap.add_argument("--plies", type=int, default=60, help="plies of each old game")
    ap.add_argument("--tail", type=int, default=6, help="plies of the game in play")
    ap.add_argument("--resets", type=int, default=3)
    ap.add_argument("--probe", action="store_true", help="then power_up's steps timed, on each journal")
    args = ap.parse_args()
    uf2 = Path(args.uf2) if args.uf2 else None
    layout = f"our image {uf2.name}" if uf2 else "stock MicroPython, .mpy files"
    with tempfile.TemporaryDirectory(prefix="eboard-bench-bootkeep-") as tmp:
        journals = []
        for name, games in (("baseline", 0), ("kept", args.games)):
            path = Path(tmp) / f"journal-{name}.bin"
            fen, moves, held = kept_journal(path, games, args.plies, args.tail)
            journals.append((name, games, path, fen, moves, held))
        pico = emu.board(Path(tmp), uf2)
        try:
            for name, games, path, fen, moves, held in journals:
                got = measure(pico, path, fen, moves, args.resets)
                ms, busy = got["ms"], got["busy"]
                what = (f"reset to hello, {layout}, a journal of {path.stat().st_size:,} B: "
                        f"{held - 1} old games kept (of {games} of {args.plies} plies played) and the game in play "
                        f"({len(moves)} plies)")
                figure = (f"{min(ms):.0f}-{max(ms):.0f} ms over {len(ms)} resets, the core busy "
                          f"{min(busy):.0f}-{max(busy):.0f} ms (the power-up that found the file {got['first']:.0f} ms); "
                          f"`history` {got['history']:.0f} ms, `since 0` {got['since']:.0f} ms "
                          f"({got['events']} events: {got['kinds']}) {LOWER}")
                print(f"{what}: {figure}", flush=True)
                if args.probe:
                    print(probe(pico), flush=True)
                    pico.power_up(900)  # (the watchdog's reset, made at once)
        finally:
            pico.stop()
    return 0


if __name__ == "__main__":
    sys.exit(emu.run_bench(main))
