"""The virtual board's REPL: what MicroPython's own REPL does on a real board's USB port,
so that mpremote (and flash.sh --sim) can talk to the virtual board.

The firmware hands the link to repl() once it has answered the `repl` request, as a real
board's firmware stops for MicroPython's REPL (a stray Ctrl-C never does: the unix port
reads a pseudo-terminal in raw mode, where Ctrl-C is a byte like any other, and the
firmware drops it).  A fresh virtual board with no main.py runs this file as its whole
program.

Supported: the friendly REPL (one line at a time), the raw REPL (Ctrl-A; code ends with
Ctrl-D, answered "OK", its output, Ctrl-D, its error, Ctrl-D), its raw-paste mode (Ctrl-E A
Ctrl-A; flow control by windows of PASTE_WINDOW bytes: mpremote sends without pausing, where
the plain raw REPL makes it wait 10 ms every 256 bytes), Ctrl-B back to the friendly REPL, Ctrl-D soft reboot, and
machine.reset().  Reached by the `repl` request, it reboots the board into play once no byte
has come for the idle time the request gave (the chip's REPL does the same: boards/pico.py,
idle_reset); after a soft reboot into the raw REPL (mpremote) it waits as long as it takes.
A reboot ends the process with EXIT_REBOOT (run main.py again) or
EXIT_RAW (come back in the raw REPL); host/link/virtual.py restarts it on the same port.
"""

import sys

EXIT_REBOOT = 75
EXIT_RAW = 76
BANNER = "MicroPython (virtual eboard); Ctrl-D: soft reboot\r\n"
PASTE_WINDOW = 512  # raw-paste's flow control: bytes the host may send a Ctrl-A (under 128 << 8)


class _Machine:
    """machine, as the virtual board's code sees it: reset() reboots the board."""

    def reset(self):
        _exit(EXIT_REBOOT)

    def idle(self):
        pass


def _exit(code):
    try:
        sys.stdout.flush()
    except AttributeError:
        pass
    sys.exit(code)


def _out(text):
    sys.stdout.write(text)


IDLE = [0, None]  # the idle time (ms; 0: none) and the link's poll, set by repl()


def _read(stdin):
    if IDLE[0] and not IDLE[1].poll(IDLE[0]):
        _out("\r\nthe REPL stood idle: the board goes back to play\r\n")
        _exit(EXIT_REBOOT)
    b = stdin.read(1)
    if not b:
        _exit(0)  # the port is gone
    return b[0]


def repl(stdin, raw=False, idle_s=0):
    """Run the REPL on the link until a reboot ends the process (idle_s: after that many
    seconds with no byte, a reboot into play; 0, never)."""
    if idle_s:
        import select

        IDLE[1] = select.poll()
        IDLE[1].register(stdin, select.POLLIN)
        IDLE[0] = idle_s * 1000
    sys.modules["machine"] = _Machine()
    env = {"__name__": "__main__"}
    if not raw:
        _out(BANNER + ">>> ")
    line = bytearray()
    while True:
        if raw:
            raw = _raw(stdin, env)
            _out(BANNER + ">>> ")
            continue
        b = _read(stdin)
        if b == 1:  # Ctrl-A
            raw = True
        elif b == 2:  # Ctrl-B
            _out("\r\n" + BANNER + ">>> ")
        elif b == 3:  # Ctrl-C
            line = bytearray()
            _out("\r\nKeyboardInterrupt: \r\n>>> ")
        elif b == 4:  # Ctrl-D
            _out("\r\nsoft reboot\r\n")
            _exit(EXIT_REBOOT)
        elif b == 13 or b == 10:
            _out("\r\n")
            _friendly(bytes(line), env)
            line = bytearray()
            _out(">>> ")
        elif b == 8 or b == 127:
            if line:
                line = line[:-1]
                _out("\b \b")
        elif b >= 32:
            line.append(b)
            _out(chr(b))


def _friendly(line, env):
    # A line of any bytes: one that is not UTF-8 is an error, as on a real board, and
    # the REPL goes on.
    try:
        src = line.decode()
    except UnicodeError:
        _out("UnicodeError: the line is not UTF-8\r\n")
        return
    if not src.strip():
        return
    try:
        try:
            code = compile(src, "<stdin>", "eval")
        except SyntaxError:
            exec(src, env)
            return
        v = eval(code, env)
        if v is not None:
            _out(repr(v) + "\r\n")
    except SystemExit:
        raise
    except BaseException as e:
        sys.print_exception(e, sys.stdout)


def _raw(stdin, env):
    """The raw REPL; returns False when Ctrl-B leaves it."""
    _out("raw REPL; CTRL-B to exit\r\n>")
    code = bytearray()
    while True:
        b = _read(stdin)
        if b == 5 and not code:  # Ctrl-E A Ctrl-A: raw-paste
            if _read(stdin) == 65 and _read(stdin) == 1:
                _paste(stdin, env)
            continue
        if b == 1:
            code = bytearray()
            _out("\r\nraw REPL; CTRL-B to exit\r\n>")
        elif b == 2:
            _out("\r\n")
            return False
        elif b == 3:
            code = bytearray()
        elif b == 4:
            if not code:
                _out("soft reboot\r\n")
                _exit(EXIT_RAW)
            _out("OK")
            _run(code, env)
            code = bytearray()
        else:
            code.append(b)


def _paste(stdin, env):
    """Raw-paste, as MicroPython's pyexec.c does it: "R\\x01", the window's size and a
    Ctrl-A (two windows free), a Ctrl-A each time a window is read; the host's Ctrl-D ends
    the code (acknowledged with one) and it runs, a Ctrl-C abandons it (a KeyboardInterrupt)."""
    _out("R\x01" + chr(PASTE_WINDOW & 0xFF) + chr(PASTE_WINDOW >> 8) + "\x01")
    code = bytearray()
    left = PASTE_WINDOW
    while True:
        b = _read(stdin)
        if b == 3 or b == 4:
            _out("\x04")
            if b == 3:
                _out("\x04KeyboardInterrupt: \r\n\x04>")
                return
            break
        code.append(b)
        left -= 1
        if not left:
            left = PASTE_WINDOW
            _out("\x01")
    _run(code, env)


def _run(code, env):
    """Run a raw REPL's code: its output, Ctrl-D, its error, Ctrl-D, the prompt."""
    err = None
    try:
        exec(bytes(code).decode(), env)
    except SystemExit:
        raise
    except BaseException as e:
        err = e
    _out("\x04")
    if err is not None:
        sys.print_exception(err, sys.stdout)
    _out("\x04>")


if __name__ == "__main__":
    # A virtual board with no program: its REPL is all there is.
    repl(sys.stdin.buffer, raw="--raw-repl" in sys.argv)
