"""Chess960 perft against python-chess's (issue #37): every one of the 960 numbered starts
at depth 3, a sample at depth 4 and 5, and the edge positions of tests/test_chess960.py.

    .venv/bin/python bench/chess960.py [DEPTH [SAMPLE_DEPTH ...]]    # default 3, then 4 and 5

Prints each difference (the start's number and FEN, both counts, and the first move whose
subtree differs), then the totals and the time our core and python-chess took.
Target: 0 differences.  The suite runs a sample (tests/test_chess960.py).
"""

import sys
import time

sys.path.insert(0, __file__.rsplit("/", 2)[0] if "/" in __file__ else "..")

import chess  # noqa: E402

from firmware.rules.games.chess960 import new, start_fen  # noqa: E402

SAMPLE = (0, 1, 100, 205, 333, 518, 600, 707, 888, 959)  # starts counted deeper
SAMPLE_5 = SAMPLE[:3]  # depth 5 (some 5 million nodes each): three of them


def theirs(board, depth):
    if depth <= 1:
        return board.legal_moves.count() if depth == 1 else 1
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += theirs(board, depth - 1)
        board.pop()
    return n


def first_difference(fen, depth):
    """The move (UCI_Chess960) below which the counts first differ, or a move-list
    difference, along the divide tree; None if they agree."""
    pos = new(fen)
    board = chess.Board(fen, chess960=True)
    ours = {pos.move_str(m): m for m in pos.legal_moves()}
    known = {board.uci(m): m for m in board.legal_moves}
    if set(ours) != set(known):
        return "moves only ours %s, only python-chess's %s" % (
            sorted(set(ours) - set(known)), sorted(set(known) - set(ours)))
    for s in sorted(ours):
        pos.push(ours[s])
        board.push(known[s])
        if depth > 1 and pos.perft(depth - 1) != theirs(board, depth - 1):
            return s + ": " + (first_difference(board.fen(), depth - 1) or "?")
        pos.pop()
        board.pop()
    return None


def compare(label, fen, depth, times):
    t0 = time.perf_counter()
    a = new(fen).perft(depth)
    t1 = time.perf_counter()
    b = theirs(chess.Board(fen, chess960=True), depth)
    times[0] += t1 - t0
    times[1] += time.perf_counter() - t1
    if a != b:
        print("DIFF %s (%s) depth %d: ours %d, python-chess %d; %s" % (
            label, fen, depth, a, b, first_difference(fen, depth)))
        return 0, a
    return 1, a


def main():
    args = [int(x) for x in sys.argv[1:]]
    depth = args[0] if args else 3
    deeper = args[1:] or [4, 5]
    from test_chess960 import EDGES  # the suite's edge positions

    runs = [("start %d" % n, start_fen(n), depth) for n in range(960)]
    for d in deeper:
        runs += [("start %d" % n, start_fen(n), d) for n in (SAMPLE_5 if d >= 5 else SAMPLE)]
    runs += [("edge", fen, d) for fen in EDGES for d in (3, 4)]
    times = [0.0, 0.0]
    agree = nodes = 0
    t0 = time.time()
    for label, fen, d in runs:
        ok, n = compare(label, fen, d, times)
        agree += ok
        nodes += n
    sampled = ", ".join("%d at depth %d" % (len(SAMPLE_5 if d >= 5 else SAMPLE), d) for d in deeper)
    print("%d of %d counts agree (%d differences): 960 starts at depth %d, %s, %d edge positions "
          "at depth 3 and 4; %d nodes" % (agree, len(runs), len(runs) - agree, depth, sampled, len(EDGES), nodes))
    print("time: ours %.1f s, python-chess %.1f s, all %.0f s" % (times[0], times[1], time.time() - t0))


sys.path.insert(0, (__file__.rsplit("/", 2)[0] if "/" in __file__ else "..") + "/tests")
main()
