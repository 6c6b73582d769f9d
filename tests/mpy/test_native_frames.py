# heapsize=2M  (several games' modules loaded at once; the code under test allocates nothing)
"""The frame's passes compiled as machine code by MicroPython (@micropython.viper,
firmware/rules/compat.py) give what the plain loops give: the occupancy a position means, the
squares where the switches differ, the turn's moves that may explain a diff, and the LED
words with the frame's current, on random positions of several games and random frames
(issue #23 item 4).  On CPython the same
source runs as plain Python: tests/test_move_stages.py runs this script there too."""

import sys
from array import array

from fuzzgen import Rand
from mpytest import check

from firmware import leds, tracker
from firmware.rules import new_position
from firmware.rules import compat
from firmware.rules.board import EMPTY, STRIDE
from firmware.squares import Geometry, N


rng = Rand(11)
for gid in ("lippo", "chess", "checkers12", "grosschess"):
    pos = new_position(gid)
    geo = Geometry(pos.game.layout)
    exp = bytearray(N * N)
    touched = array("H", [5] * (N * N))
    diff = bytearray(N * N)
    for ply in range(40):
        tracker.expect(pos.cells, geo.cell_at, exp, touched)
        plain = bytearray(N * N)
        for c in pos.game.layout.squares:
            if pos.cells[c] != EMPTY:
                plain[c // STRIDE * N + c % STRIDE + geo.off] = 1
        check(exp == plain, "%s ply %d: the expected occupancy differs" % (gid, ply))
        check(sum(touched) == 0, "%s ply %d: touches left" % (gid, ply))
        act = bytearray(exp)
        for _ in range(5):
            act[rng.below(N * N)] ^= 1
        n = tracker.find_diff(act, exp, geo.game_squares, len(geo.game_squares), diff)
        want = [p for p in geo.game_squares if act[p] != exp[p]]
        check(list(diff[:n]) == want, "%s ply %d: the diff differs" % (gid, ply))
        ms = pos.legal_moves()
        if not ms:
            break
        pos.push(ms[rng.below(len(ms))])

# pick(): the turn's moves that may explain a diff (every move of a kind not plain; the plain
# ones whose two squares hold d0 and d1), against the same filter in plain Python.
for gid in ("lippo", "chess", "grosschess", "hundred", "chess-t1"):
    pos = new_position(gid)
    kinds = pos.PLAIN_KINDS
    squares = pos.game.layout.squares
    for ply in range(30):
        ms = pos.legal_moves()
        if not ms:
            break
        for _ in range(4):
            m = ms[rng.below(len(ms))]
            d0 = (m & 511, m >> 9 & 511, squares[rng.below(len(squares))])[rng.below(3)]
            d1 = (d0, m >> 9 & 511, m & 511)[rng.below(3)]
            plain = rng.below(2)
            got = []
            tracker.pick(ms, len(ms), plain, kinds, d0, d1, got)
            want = [x for x in ms if not kinds >> (x >> 19 & 15) & 1
                    or plain and (x & 511 == d0 or x >> 9 & 511 == d0) and (x & 511 == d1 or x >> 9 & 511 == d1)]
            check(got == want, "%s ply %d: pick gave %d moves, not %d" % (gid, ply, len(got), len(want)))
        pos.push(ms[rng.below(len(ms))])

words = array("I", bytes(4 * N * N))
for i in range(40):
    frame = bytearray(N * N)
    for p in range(N * N):
        if rng.below(3) == 0 or i % 5 == 0:
            frame[p] = rng.below(len(leds.PALETTE))
    brightness = (16, 48, 96, 255)[i % 4]
    budget = (400, 2000, 10000)[i % 3]
    ma = leds.encode(frame, brightness, words, budget)
    total = 0
    for p in range(N * N):
        c = leds.PALETTE[frame[p]]
        total += c[0] + c[1] + c[2]
    want_ma = leds.IDLE_MA_PER_LED * N * N + total * brightness * leds.MA_PER_CHANNEL // (255 * 255)
    scale = brightness
    if want_ma > budget and total:
        scale = (budget - leds.IDLE_MA_PER_LED * N * N) * 255 * 255 // (total * leds.MA_PER_CHANNEL)
        want_ma = budget
    check(ma == want_ma, "frame %d: %d mA, not %d" % (i, ma, want_ma))
    for p in range(N * N):
        c = leds.PALETTE[frame[p]]
        w = ((c[1] * scale // 255) << 16 | (c[0] * scale // 255) << 8 | c[2] * scale // 255) << 8
        check(words[leds.SERPENTINE[p]] == w, "frame %d: square %d's word" % (i, p))
if sys.implementation.name == "micropython":  # (tests/test_move_stages.py runs it on CPython too)
    for name in ("expect", "find_diff", "weigh", "fill", "pick"):
        check(compat.MADE.get(name) == "viper", "%s compiled as %s" % (name, compat.MADE.get(name)))
print("ok")
