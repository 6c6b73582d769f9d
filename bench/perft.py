"""Perft speed of the rules core, on CPython (with python-chess beside it) or on MicroPython.

    python bench/perft.py                   # CPython: ours and python-chess, with the ratio
    MICROPYPATH=. micropython -X heapsize=192K bench/perft.py    # the unix port: nps and heap

Both count with the same algorithm: recursive push/pop, the moves of the last ply counted
(bulk counting), as python-chess's own examples/perft does.
"""

import gc
import sys

try:
    sys.path.insert(0, __file__.rsplit("/", 2)[0] if "/" in __file__ else ".")
except NameError:
    pass

from firmware.rules import new_position

MICRO = sys.implementation.name == "micropython"
if MICRO:
    from time import ticks_us, ticks_diff

    def now_s():
        return ticks_us() / 1e6

    def elapsed(t0):
        return ticks_diff(ticks_us(), int(t0 * 1e6)) / 1e6

else:
    from time import perf_counter as now_s

    def elapsed(t0):
        return now_s() - t0


KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
RUNS = (
    ("chess", "start", CHESS_START, 4),
    ("chess", "kiwipete", KIWIPETE, 3),
    ("lippo", "start", None, 2),
    ("checkers12", "start", None, 4),
)


def best_of(fn, repeat):
    best = None
    for _ in range(repeat):
        t0 = now_s()
        n = fn()
        dt = elapsed(t0)
        if best is None or dt < best:
            best = dt
    return n, best


def python_chess_perft(fen, depth):
    import chess

    board = chess.Board(fen)

    def perft(d):
        if d == 1:
            return board.legal_moves.count()
        n = 0
        for m in board.legal_moves:
            board.push(m)
            n += perft(d - 1)
            board.pop()
        return n

    return perft(depth)


def heap_figures():
    """Bytes of heap for a Lippo position with its move list, and for one lifted piece."""
    gc.collect()
    a = gc.mem_alloc()
    pos = new_position("lippo")
    ms = pos.legal_moves()
    gc.collect()
    b = gc.mem_alloc()
    pos.end_reason()
    sq = pos.game.layout.cell("e1")  # a Gas: the piece with the most moves at the start
    gc.collect()
    c = gc.mem_alloc()
    hint = pos.moves_from(sq)
    d = gc.mem_alloc()
    return b - a, len(ms), d - c, len(hint)


def main():
    repeat = 1 if MICRO else 3
    print("interpreter: %s %s" % (sys.implementation.name, sys.version.split()[0]))
    figures = {}
    for gid, label, fen, depth in RUNS:
        pos = new_position(gid, fen)
        n, dt = best_of(lambda: pos.perft(depth), repeat)
        nps = n / dt
        figures[(gid, label)] = nps
        line = "%-10s %-9s depth %d: %9d nodes %7.3f s %9.0f nodes/s" % (gid, label, depth, n, dt, nps)
        if gid == "chess" and not MICRO:
            try:
                m, dt2 = best_of(lambda: python_chess_perft(fen, depth), repeat)
            except ImportError:
                line += "   (python-chess not installed)"
            else:
                assert m == n
                line += "   python-chess %9.0f nodes/s   ratio %.2f" % (m / dt2, nps / (m / dt2))
        print(line)
    chess_nps = min(figures[("chess", "start")], figures[("chess", "kiwipete")])
    print("lippo / chess nodes per second: %.2f" % (figures[("lippo", "start")] / chess_nps))
    if MICRO:
        pos_bytes, n_moves, hint_bytes, n_hint = heap_figures()
        print("lippo start position + its %d moves: %d bytes of heap" % (n_moves, pos_bytes))
        print("moves of one lifted piece (%d moves): %d bytes allocated" % (n_hint, hint_bytes))
        import micropython

        micropython.mem_info()


main()
