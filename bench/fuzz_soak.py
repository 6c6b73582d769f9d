"""A million bad lines at the board, through its line reader, under MicroPython:

    MICROPYPATH=.:tests/mpy:bench micropython -X heapsize=256K bench/fuzz_soak.py [LINES]

Prints the count of crashes (an exception out of the board) and of state changes
(target: zero and zero)."""

import os
import sys

from fuzzgen import Rand, bad_line, harmless

from boards import sim
from firmware import protocol
from firmware.app import Board
from firmware.main import LineReader

LINES = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
journal = "/tmp/eboard-fuzz-soak.journal"
try:
    os.remove(journal)
except OSError:
    pass
replies = [0]
hw = sim.Hardware(journal_path=journal)


def count(line):
    words = line.split(" ", 2)
    if len(words) > 1 and (words[1] == "ok" or words[1] == "error"):
        replies[0] += 1


board = Board(hw, count)
board.boot(0)
for line in (b"new lippo", b"sim setup", b"sim wait 100", b"move f3f5", b"sim setup", b"sim wait 100"):
    protocol.handle(board, line, 0)
before = board.state_words() + board.leds_text()
crashes = 0
changes = 0
accepted = 0
reader = LineReader()


def on_line(line):
    global crashes, accepted
    try:
        n = replies[0]
        protocol.handle(board, line, 0)
        if harmless(line):
            accepted += 1
        if replies[0] != n + 1:
            crashes += 1
            if crashes <= 3:
                print("no single reply to %r" % line[:60])
    except Exception as e:
        crashes += 1
        if crashes <= 3:
            print("crash on %r: %r" % (line[:60], e))


rng = Rand(1)
for i in range(LINES):
    for b in bad_line(rng):
        reader.put(b, on_line)
    reader.put(10, on_line)
    if i % 1000 == 999:
        if board.state_words() + board.leds_text() != before:
            changes += 1
            before = board.state_words() + board.leds_text()
print("lines %d: crashes %d, state changes %d (harmless requests among them: %d)" % (LINES, crashes, changes, accepted))
