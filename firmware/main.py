"""The board's loop: given a board profile's hardware (boards/), build the Board, read the
host's lines and scan the switches on their beat.  Which profile runs is not chosen here:
boards/main.py makes the drivers and calls run(hw) (the firmware imports nothing of boards/).
"""

import sys

SYS_PATH = sys.path[:]  # as it was: given back when the firmware stops for the REPL
if sys.platform == "rp2":
    # No keyboard interrupt while the board plays: a byte 3 on the USB link (line noise,
    # a key pressed in a serial monitor, mpremote's own way in) dropped it into the REPL,
    # for good (docs/protocol.md, Framing).  The `repl` request, with this power-up's boot
    # id, is the way in; after main.py, MicroPython's REPL takes Ctrl-C again.
    import micropython

    micropython.kbd_intr(-1)
    # MicroPython looks in every folder of sys.path before it takes a built-in module that
    # a file may extend (`time`, `struct`, `os`, ...): each `import struct` cost two
    # littlefs lookups (1.5 ms on the emulated Pico).  The firmware needs the folder it was
    # loaded from and the frozen modules (rp2's), no more.
    import firmware

    sys.path[:] = [".frozen"] if str(getattr(firmware, "__path__", "")).startswith(".frozen") else ["", ".frozen"]
    # And those built-in modules are never kept in sys.modules: every `from array import
    # array` looked on littlefs again (some 20 statements before hello, 1-1.5 ms each).
    # Taken once with an empty sys.path (straight to the built-in), they are kept there
    # while the firmware runs.
    _path = sys.path[:]
    sys.path[:] = []
    BUILTINS = {}
    for _name in ("array", "binascii", "os", "select", "struct", "time"):
        try:
            BUILTINS[_name] = __import__(_name)
        except ImportError:
            pass
    sys.path[:] = _path
    sys.modules.update(BUILTINS)
else:
    BUILTINS = {}

from firmware.app import Board
from firmware.tracker import warm
from firmware.terms import DETAIL, MAX_LINE
from firmware.debounce import ticks_diff
from firmware.rules.compat import late


class LineReader:
    """Bytes from the link -> request lines of at most MAX_LINE bytes.

    A longer line is dropped as it comes, nothing of it kept past the cap, and answered
    once, at its newline, as too long.  A carriage return and Ctrl-C (3) are dropped
    wherever they come: a stray Ctrl-C (line noise, a key pressed in a serial monitor)
    neither stops the board nor spoils the request around it; the REPL is reached on
    purpose, with the `repl` request and this power-up's boot id.  on_line(line) returns True when the board stops
    for the REPL: the bytes after that line are the REPL's.  A chunk of bytes at once:
    firmware/chunks.py's feed (our image's; stock MicroPython reads a byte at a time)."""

    def __init__(self):
        self.line = bytearray()
        self.overflow = False

    def put(self, b, on_line):
        """One byte; on_line's answer at a newline, else None."""
        if b == 10:
            return self.end(on_line)
        if b != 13 and b != 3 and not self.overflow:
            if len(self.line) >= MAX_LINE:
                self.too_long()
            else:
                self.line.append(b)

    def too_long(self):
        self.overflow = True
        self.line = bytearray()  # the rest of the line is dropped as it comes

    def end(self, on_line):
        line = self.line
        self.line = bytearray()
        if self.overflow:
            self.overflow = False
            line = b"x" * (MAX_LINE + 1)  # answered "too-long"
        return on_line(bytes(line))


# Stock MicroPython's byte loop: at most 64 bytes, each read, then the poll asked whether
# another is waiting; a junk line's bytes past the cap dropped right here.  Returns how
# many were read (64: the caller checks the scan's beat), 0 when no byte is left waiting,
# -1 when the link is gone, -2 when a line stopped the board for the REPL.  On the Pico it
# is compiled at its first call as machine code (@micropython.native; rp2's compiler emits
# Thumb), elsewhere as bytecode: one source for both (compat.late, which lets the source
# go once compiled: on stock MicroPython it would take heap).
byte_loop = late(
    """
def byte_loop(readinto, one, ipoll, reader, put, on_line):
    n = 0
    while n < 64:
        if not readinto(one):
            return -1
        b = one[0]
        n += 1
        if (b == 10 or not reader.overflow) and put(b, on_line):
            return -2
        for _ in ipoll(0):
            break
        else:
            return 0
    return n
""",
    "byte_loop",
    "native" if sys.platform == "rp2" else None,
    globals(),
)


class StopForRepl(Exception):
    """The `repl` request was answered: the firmware ends and MicroPython's REPL follows
    (args[0]: the seconds it may stand idle before the board goes back to play)."""


def run(hw):
    """Serve hw (a profile's hardware: boards/pico.py's, boards/sim.py's) until the link
    is gone or the `repl` request stops the firmware for MicroPython's REPL."""
    try:
        _serve(hw)
    except StopForRepl as e:
        # The firmware ends for the REPL (the `repl` request): a watchdog left running
        # would reset the board under mpremote a few seconds later; a countdown takes its
        # place, which resets the board once the REPL has stood idle (hw.idle_reset).
        hw.release_watchdog()
        hw.idle_reset(e.args[0])
        sys.path[:] = SYS_PATH
        for name in BUILTINS:  # the REPL's imports as MicroPython's own
            sys.modules.pop(name, None)


def _serve(hw):
    out = sys.stdout

    def write(line):
        out.write(line)
        out.write("\n")

    board = Board(hw, write)
    board.boot(hw.clock.now())
    reader = LineReader()
    stdin = sys.stdin.buffer
    import select

    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)

    def on_line(line):
        try:
            # The protocol's module loads with the first request, after hello: a board on
            # stock MicroPython reads every module from its filesystem, some 20 ms each.
            from firmware import protocol

            protocol.handle(board, line, hw.clock.now())
        except Exception as e:  # our bug: report it, and keep the board alive
            sys.print_exception(e)
            board.outbox.send("error internal %s" % str(e)[:DETAIL])
        return board.repl

    clock = hw.clock
    realtime = hw.realtime
    # MicroPython's stdin (on the Pico and on the unix port alike) blocks until it has
    # every byte asked for, and its poll says only whether one is there: so on stock
    # MicroPython the link is read a byte at a time, as long as the poll says there is one,
    # with a junk line's bytes dropped right here (some 45 us a byte on the chip).  Our
    # image has eboardio.take (boards/pico-image/cmod), every waiting byte in one call,
    # and firmware/chunks.py's feed splits them with bytes' own methods (loaded only then:
    # on stock MicroPython its bytecode would take heap for nothing).  Either way the scan is
    # still run on its beat in a flood.
    one = bytearray(1)
    readinto = stdin.readinto
    ipoll = poll.ipoll
    put = reader.put

    try:  # our image (boards/pico-image/cmod): the link's waiting bytes in one call
        from eboardio import take as drain
    except ImportError:
        drain = None
    chunk = view = None
    if drain:
        from firmware.chunks import feed

        chunk = bytearray(512)  # the rp2 port's stdin ring buffer holds 512
        view = memoryview(chunk)

    def take_chunks():
        while True:
            n = drain(chunk)
            if not n:
                return True
            if feed(reader, bytes(view[:n]), on_line):
                raise StopForRepl(board.repl)  # answered `ok repl`: the REPL takes the link
            if realtime and ticks_diff(clock.now(), next_scan[0]) >= 0:
                return True  # the sensors' turn

    def take():
        if drain:
            return take_chunks()
        while True:
            n = byte_loop(readinto, one, ipoll, reader, put, on_line)  # (the global: compiled once)
            if n == -1:
                return False  # the link is gone (the virtual board's pty was closed)
            if n == -2:  # answered `ok repl`: the REPL takes the link
                if not hw.is_sim:
                    raise StopForRepl(board.repl)
                idle = board.repl
                board.repl = 0
                hw.stop_for_repl(stdin, idle)
                return True
            if not n:
                return True
            if realtime and ticks_diff(clock.now(), next_scan[0]) >= 0:
                return True  # the sensors' turn

    next_scan = [clock.now()]
    cold = 20  # scans until the tracker's pick() is compiled: 0.1 s on, hello is out
    while True:
        # A virtual board with a virtual clock scans only inside "sim wait": it waits
        # for the host.  Every other board scans every hw.scan_ms and reads in between.
        wait = -1
        if realtime:
            wait = max(0, ticks_diff(next_scan[0], clock.now()))
        ready = poll.poll(wait)
        if ready and (not ready[0][1] & select.POLLIN or not take()):
            return  # the link is gone (the virtual board's pty was closed)
        if realtime:
            now = clock.now()
            if ticks_diff(now, next_scan[0]) >= 0:
                board.step(now)
                if cold:  # (not while hello is going out: a reset's time to it stays the same)
                    cold -= 1
                    if not cold:
                        warm()  # some 10 ms, else in the first move's place
                next_scan[0] = now + hw.scan_ms
                hw.feed_watchdog()
