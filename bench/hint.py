"""Lift -> LED frame latency: every piece of the side to move in 100 Lippo and 100 chess
positions from random games, timed from the debounced lift to the frame handed to the LED
driver (the lift's message to the host, sent after it, is not counted; nor the driver's
encoding of the frame, printed apart), each lift timed 3 times, the best kept, so that the
host machine's scheduling does not pass for the firmware's time.  Every lift starts from the
position as set up, nothing touched before it (the board of a player about to move).  Each
game's line names its slowest lift, the square lifted and the position (FEN), so that a
rise names itself; tests/test_lift_work.py counts the same lifts' work.
Run under the MicroPython unix port:

    MICROPYPATH=.:bench:tests/mpy micropython -X heapsize=512K bench/hint.py [--once] [--each] [--quick]
                    [--fens FILE] [-n N | N] [GAME ...]

(CPython works too, for comparison.)  --fens FILE: the positions from FILE ("<game> <fen>"
a line, as --write-fens FILE writes them) instead of playing the random games here; --once:
each lift timed once (on an emulated chip, whose time is its own: bench/pico.py); --each: a
line for every lift (bench/hint_rank.py ranks them); --quick: each man put back without
its place event (put_back), some 4 times faster on an emulated chip.  An RP2040 runs
MicroPython some 50-100 times slower than this machine's unix port: multiply the figures
accordingly.
"""

import gc
from array import array

from common import ARGV, MICRO, TMP, Rand, median, now_us, own_pieces, positions_from, put_back, since_us
from fuzzgen import random_fens

from boards import sim
from firmware import protocol
from firmware.app import Board
from firmware.debounce import LIFT, PLACE

JOURNAL = TMP + "eboard-bench-hint.journal"


def measure(gid, fens, times, tries=3, worst=None, each=False, quick=False):
    """Each lift's best time into times (returned: a view of the lifts made); worst, a
    list, gets [us, fen, square] of the slowest lift.  A FEN followed by " @e5,k10 @c3" (as
    bench/hint_rank.py writes them): those squares alone are lifted.  each: a line for
    every lift ("lift <game> <square> <us> <fen>"; bench/hint_rank.py reads them).  quick:
    each man put back by put_back(), not by a place event and a resync."""
    hw = sim.Hardware(journal_path=JOURNAL)
    board = Board(hw, lambda line: None)
    board.boot(0)
    protocol.handle(board, ("new " + gid).encode(), 0)
    lit = [0, -1]  # the lift's start, and the time from it to its frame (-1: none shown yet)
    show = hw.leds.show

    def timed_show(frame, brightness):
        if lit[1] < 0:
            lit[1] = since_us(lit[0])
        return show(frame, brightness)

    hw.leds.show = timed_show
    n = 0
    for line in fens:
        fen, _, only = line.partition(" @")
        only = only.replace(" @", ",").split(",") if only else None  # (" @sample squares" after)
        todo = len([x for x in only if x]) if only else -1  # the squares left to lift here
        for p in own_pieces(board, fen):
            tracker = board.tracker
            if not todo:
                break
            if only is not None and tracker.geo.name(p) not in only:
                continue
            best = 1 << 30
            left = tries  # the best of 3: the machine's own hiccups left out
            if not n:
                left += 1  # the game's first lift once more, untimed: what it loads first
            while left:
                if board.outbox.seq + 4 >= board.logbook.seq_reserved:
                    # The lift's message would reserve the next block of message numbers
                    # (a journal write, and every 64th a rewrite): on the board that
                    # comes after the frame is out, so it is made here, untimed.
                    board.logbook.reserve()
                hw.matrix.set(p, False)
                if not MICRO:
                    gc.collect()
                free = gc.mem_free() if MICRO else 0
                lit[1] = -1
                lit[0] = now_us()
                board._on_switch(LIFT, p, 0)  # the debounced lift: tracker, hints, frame, message
                us = lit[1] if lit[1] >= 0 else since_us(lit[0])
                # MicroPython collects when its heap runs short (a Pico's collection
                # takes ~20 ms): a lift a collection fell in is timed again.
                collected = MICRO and gc.mem_free() > free
                if quick:
                    put_back(board, hw, p)
                else:
                    hw.matrix.set(p, True)
                    board._on_switch(PLACE, p, 0)
                    if collected or left > 1 or todo != 1:
                        tracker.resync(0)  # the next lift starts a clean turn: nothing touched
                    # (else the position's last lift: the next set-up makes its turn anew)
                if not collected:
                    if left <= tries:
                        best = min(best, us)
                    left -= 1
            times[n] = best
            n += 1
            todo -= 1
            if each:
                print("lift %s %s %d %s" % (gid, tracker.geo.name(p), best, fen))
            if worst is not None and (not worst or best > worst[0]):
                worst[:] = [best, fen, tracker.geo.name(p)]
    # (a view, not a copy: 3,446 Lippo lifts are 13,784 bytes, a block stock MicroPython's
    # heap on a Pico did not find after bench/pico.py's 200-ply heap game: MemoryError)
    return memoryview(times)[:n]


def encode_us():
    """The Pico profile's LED frame encoding (leds.encode), best of 20: it runs between a
    lift's hints and the frame's first edge on the board (the sim profile skips it)."""
    from firmware import leds

    frame = bytearray(144)
    for p in range(0, 144, 5):
        frame[p] = 1 + p % 3
    words = array("I", range(144))
    best = 1 << 30
    for _ in range(20):
        t0 = now_us()
        leds.encode(frame, 48, words, 1800)
        best = min(best, since_us(t0))
    return best


def game_positions(games, n, fens_from=None):
    """(game, its n FENs) for each game: from the file fens_from, or from random games
    (one generator for them all, so that --write-fens writes what main() plays)."""
    rng = Rand(2026)
    for gid in games:
        yield gid, positions_from(fens_from, gid, n) if fens_from else random_fens(gid, n, rng)


def main(games=("lippo", "chess"), n=100, fens_from=None, tries=3, each=False, quick=False):
    times = array("I", range(5000))  # room for every lift, allocated before anything else
    for gid, fens in game_positions(games, n, fens_from):
        gc.collect()
        worst = []
        got = measure(gid, fens, times, tries, worst, each, quick)
        print(
            "%-6s %d lifts in %d positions: median %d us, max %d us at %s in %s"
            % (gid, len(got), len(fens), median(got), max(got), worst[2], worst[1])
        )
    print("LED frame encode %d us" % encode_us())
    from firmware.rules.compat import MADE

    # (how the core's hot functions were compiled: "viper" where the port made machine code)
    print("compiled: " + ", ".join("%s %s" % (k, MADE[k]) for k in sorted(MADE)))


def write_fens(path, games, n):
    """The positions main() would play out, into path, for --fens (bench/pico.py: the
    host plays the random games, the chip only times the lifts)."""
    with open(path, "w") as f:
        for gid, fens in game_positions(games, n):
            for fen in fens:
                f.write("%s %s\n" % (gid, fen))


# bench/hint.py [--once] [--each] [--quick] [--fens FILE | --write-fens FILE] [-n N | N] [GAME ...]: the games
# to time (default: lippo and chess, 100 positions each; games named, 20 positions each
# unless N says)
_args = ARGV[1:]
_n = 0
_tries = 3
_fens = _write = None
_each = _quick = False
while _args and _args[0] in ("--once", "--each", "--quick", "--fens", "--write-fens"):
    _flag = _args.pop(0)
    if _flag == "--once":
        _tries = 1
    elif _flag == "--each":
        _each = True
    elif _flag == "--quick":
        _quick = True
    elif _flag == "--fens":
        _fens = _args.pop(0)
    else:
        _write = _args.pop(0)
if _args and _args[0] == "-n":
    _n = int(_args[1])
    _args = _args[2:]
elif _args and _args[0].isdigit():
    _n = int(_args.pop(0))
_games = tuple(_args) if _args else ("lippo", "chess")
if _write:
    write_fens(_write, _games, _n or (20 if _args else 100))
else:
    main(_games, _n or (20 if _args else 100), _fens, _tries, _each, _quick)
