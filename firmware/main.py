"""Wiring: pick the board profile, build the Board, run the loop.  Nothing else.

    micropython -m firmware.main [--realtime] [--journal PATH]     the virtual board (unix port)

On the Pico, the root main.py (written by flash.sh) calls run().
"""

import sys

SYS_PATH = sys.path[:]  # as it was: given back when the firmware stops for the REPL
if sys.platform == "rp2":
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
from firmware.common import MAX_LINE
from firmware.debounce import ticks_diff


def make_hardware(argv):
    if sys.platform == "rp2":
        from boards import pico

        return pico.Hardware()
    from boards import sim

    path = "journal.bin"
    if "--journal" in argv:
        path = argv[argv.index("--journal") + 1]
    hw = sim.Hardware(journal_path=path, realtime="--realtime" in argv, switches_path="switches")
    hw.load_autoplay("autoplay.txt")  # hands for a board nobody sits at (tests of serve)
    hw.load_hands("hands")  # and hands that come later, while a host holds the port
    return hw


class LineReader:
    """Bytes from the link -> complete lines; an over-long line is cut and flagged.
    Ctrl-C (3) is dropped like a carriage return: a stray one (line noise, a key pressed
    in a serial monitor) neither stops the board nor spoils the next request; the REPL
    is reached on purpose, with the `repl` request."""

    def __init__(self):
        self.buf = bytearray()
        self.overflow = False

    def feed(self, b, on_line):
        if b == 10:  # \n
            line = bytes(self.buf)
            self.buf = bytearray()
            if self.overflow:
                self.overflow = False
                line = b"x" * (MAX_LINE + 1)  # answered "too-long"
            on_line(line)
        elif b == 13 or b == 3:
            pass
        elif len(self.buf) > MAX_LINE:
            self.overflow = True
        else:
            self.buf.append(b)


def run(argv=None):
    argv = sys.argv if argv is None else argv
    if "--raw-repl" in argv:  # the virtual board after a soft reboot in the raw REPL
        from boards import simrepl

        simrepl.repl(sys.stdin.buffer, raw=True, interrupted=False)
    hw = make_hardware(argv)
    # No keyboard interrupt while the board plays: a byte 3 in the USB stream would drop
    # it into the REPL for good (the watchdog is released there).  The `repl` request is
    # the way in (flash.sh, mpremote after `./flash.sh --repl PORT`).
    _kbd_intr(-1)
    try:
        _serve(hw)
    except (KeyboardInterrupt, StopForRepl) as e:
        # The firmware stops for the REPL: a watchdog left running would reset the board
        # under mpremote a few seconds later.
        release = getattr(hw, "release_watchdog", None)
        if release:
            release()
        sys.path[:] = SYS_PATH
        for name in BUILTINS:  # the REPL's imports as MicroPython's own
            sys.modules.pop(name, None)
        _kbd_intr(3)
        if isinstance(e, KeyboardInterrupt):
            raise
    finally:
        _kbd_intr(3)


class StopForRepl(Exception):
    """The `repl` request was answered: the firmware ends and MicroPython's REPL follows."""


def _kbd_intr(ch):
    try:
        import micropython

        micropython.kbd_intr(ch)
    except (ImportError, AttributeError):  # CPython: the tests' own process
        pass


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
            board.outbox.send("error internal %s" % e)

    next_scan = hw.clock.now()
    while True:
        # A virtual board with a virtual clock scans only inside "sim wait": it waits
        # for the host.  Every other board scans every hw.scan_ms and reads in between.
        wait = -1
        if hw.realtime:
            wait = max(0, ticks_diff(next_scan, hw.clock.now()))
        for _, ev in poll.poll(wait):
            if not ev & select.POLLIN:
                return  # the link is gone (the virtual board's pty was closed)
            b = stdin.read(1)
            if not b:
                return
            reader.feed(b[0], on_line)
            if board.repl:  # answered `ok repl`: the REPL takes the link
                board.repl = False
                if not hw.is_sim:
                    raise StopForRepl()
                hw.interrupted(board, stdin, write)
        if hw.realtime:
            now = hw.clock.now()
            if ticks_diff(now, next_scan) >= 0:
                board.step(now)
                next_scan = now + hw.scan_ms
                hw.feed_watchdog()


if __name__ == "__main__":
    run()
