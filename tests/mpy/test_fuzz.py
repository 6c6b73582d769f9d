# heapsize=256K (the firmware's .mpy files and the fuzzer, on a 64-bit port)
"""10,000 generated bad lines at the board's protocol, under MicroPython: each gets one
reply, an error unless it came out a harmless request, and the game never changes."""

from fuzzgen import Rand, bad_line, harmless
from mpytest import check, fresh_board

from firmware import protocol

LINES = 10000

out = []
board, hw = fresh_board("fuzz", out)
for line in (b"new chess", b"sim setup", b"sim wait 100", b"sim lift e2", b"sim wait 50", b"sim place e4", b"sim wait 500"):
    protocol.handle(board, line, 0)


def snapshot():
    return board.state_words() + "|" + board.leds_text()


before = snapshot()
check(board.ply == 1, "the game did not start")
rng = Rand(20261121)
errors = 0
for i in range(LINES):
    line = bad_line(rng)
    n = len(out)
    protocol.handle(board, line, hw.clock.now())
    replies = [t for t in out[n:] if t.split(" ", 2)[1] in ("ok", "error")]
    check(len(replies) == 1, "line %d %r: %d replies" % (i, line, len(replies)))
    word = replies[0].split(" ", 2)[1]
    if word == "error":
        errors += 1
    else:
        check(harmless(line), "line %d %r was accepted: %s" % (i, line, replies[0]))
    if i % 97 == 0:
        check(snapshot() == before, "line %d %r changed the game" % (i, line))
        del out[:]
check(snapshot() == before, "the game changed")
check(board.history() == ["e2e4"], "the journal changed")
protocol.handle(board, b"ping", 0)
check(out[-1].endswith("ok pong"), "the board stopped answering")
print("lines %d, errors %d, harmless accepted %d" % (LINES, errors, LINES - errors))
print("ok")
