# heapsize=2M  (the three games' modules loaded at once)
"""The rules core's machine code (@micropython.viper, firmware/rules/compat.py: 100-square
chess's and Grosschess's attack test hundred.hits, Grosschess's next_new, chess-t1's
add_reachers) answers as the plain Python its one source makes: the squares each side
attacks and every piece's moves, counted over random positions of the three games, are the
figures CPython's plain Python gives (issue #38).  tests/test_lift_work.py runs this script
on CPython too, where the same source is plain Python: the figures are the plain code's,
and the old attacked() (before the kernels) gave them too.  chess-t1's strengths on a
lifted piece's captures (add_reachers) are those of its whole strength map."""

import sys

from fuzzgen import Rand, random_fens
from mpytest import check

from firmware.rules import new_position

# game -> (positions, attacked (square, side) pairs (-1: not asked), moves_from's moves over
# every square)
WANT = {"hundred": (12, 1137, 589), "grosschess": (12, 1302, 698), "chess-t1": (12, -1, 517)}

rng = Rand(38)
for gid in ("hundred", "grosschess", "chess-t1"):
    n, want_att, want_moves = WANT[gid]
    att = 0
    moves = 0
    for fen in random_fens(gid, n, rng):
        pos = new_position(gid, fen)
        for sq in pos.game.layout.squares:
            moves += len(pos.moves_from(sq))
            if want_att >= 0:
                for by in (32, 64):
                    if pos.attacked(sq, by):
                        att += 1
    check(want_att < 0 or att == want_att, "%s: %d attacked squares, not %d" % (gid, att, want_att))
    check(moves == want_moves, "%s: %d moves from the squares, not %d" % (gid, moves, want_moves))

# chess-t1's strengths on the cells asked (add_reachers, a lifted piece's captures) are the
# whole map's (field() of every piece) on those cells: every cell of the board asked, in
# groups of 1 to 8 (a slide's cells between, a Knecht's double step from its own half)
pairs = 0
for fen in random_fens("chess-t1", 12, rng):
    pos = new_position("chess-t1", fen)
    whole = pos.strength_map()
    sqs = list(pos.game.layout.squares)
    at = 0
    while at < len(sqs):
        near = sqs[at:at + 1 + at % 8]
        at += len(near)
        part = pos.strength_map(near)
        for side in (0, 1):
            for to in near:
                pairs += 1
                check(part[0][side][to] == whole[0][side][to] and part[1][side][to] == whole[1][side][to],
                      "chess-t1 %s: strength on %d not the whole map's" % (fen, to))
check(pairs == 1536, "chess-t1: %d cells compared" % pairs)

# Each kernel is machine code on MicroPython: one viper can not compile falls back to
# bytecode without a word (compat.compile_fn), slower on the chip and with its frame on
# the heap (issue #38)
if sys.implementation.name == "micropython":
    from firmware.rules import compat

    for name in ("hits", "far", "next_new", "next_treach", "add_reachers"):
        check(compat.MADE.get(name) == "viper", "%s compiled as %s" % (name, compat.MADE.get(name)))
print("ok")
