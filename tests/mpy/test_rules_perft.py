"""The same perft figures under MicroPython as under CPython (tests/test_chess.py etc.)."""

from mpytest import check

import gc

from firmware.rules import forget_games, new_position

CASES = (
    ("chess", None, (20, 400, 8902, 197281)),
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", (48, 2039, 97862)),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", (14, 191, 2812, 43238)),
    ("chess", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", (6, 264, 9467)),
    ("chess", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", (44, 1486, 62379)),
    ("chess", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", (46, 2079, 89890)),
    ("lippo", None, (150, 22500)),
    ("checkers12", None, (11, 121, 1452, 17424)),
    ("gardner", None, (7, 53, 506, 4775)),
    ("courier", "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1", (36, 1302)),
    ("chess-t1", None, (23, 529, 15121)),
    ("hundred", None, (25, 625, 17646)),
    ("grosschess", None, (41, 1681)),
)

for gid, fen, counts in CASES:
    forget_games(gid)  # one game's tables at a time, as on the board
    gc.collect()
    pos = new_position(gid, fen)
    start = pos.fen()
    for d, want in enumerate(counts):
        got = pos.perft(d + 1)
        check(got == want, "%s perft %d: %d != %d" % (gid, d + 1, got, want))
    check(pos.fen() == start, gid + " perft changed the position")
print("ok")
