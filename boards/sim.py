"""The virtual board's hardware: a switch matrix set by commands, an LED sink, a clock.

Time is virtual: it moves only when `sim wait MS` runs the scan loop (every SCAN_MS), so
a sensor script plays the same way every time.  With realtime=True (the interactive
virtual board) main.py also advances it with the wall clock.
"""

N = 12
SCAN_MS = 10  # 100 Hz, as the real board


class Matrix:
    """144 reed switches whose state the test or the player sets."""

    def __init__(self):
        self.occ = bytearray(N * N)

    def scan(self, rows):
        occ = self.occ
        for r in range(N):
            bits = 0
            for c in range(N):
                if occ[r * N + c]:
                    bits |= 1 << c
            rows[r] = bits

    def set(self, p, closed):
        self.occ[p] = 1 if closed else 0

    def show_position(self, pos, geo):
        """Put pieces exactly where the position has them (the margin is left alone)."""
        for p in geo.game_squares:
            self.occ[p] = 1 if pos.cells[geo.cell(p)] else 0


class Leds:
    """Keeps the last frame shown."""

    def __init__(self):
        self.frame = bytearray(N * N)
        self.brightness = 0
        self.shows = 0

    def show(self, frame, brightness):
        self.frame[:] = frame
        self.brightness = brightness
        self.shows += 1


class Clock:
    """Virtual milliseconds; with realtime, the wall clock's run on top of them."""

    def __init__(self, realtime):
        self.ms = 0  # advanced by run_for
        self.realtime = realtime
        self.t0 = _wall()

    def now(self):
        if self.realtime:
            return self.ms + _wall() - self.t0
        return self.ms


def _wall():
    try:
        from time import ticks_ms
    except ImportError:  # CPython, in tests
        from time import monotonic

        return int(monotonic() * 1000)
    return ticks_ms()


class Hardware:
    """The sim profile: what main.py and Board need from a board."""

    name = "sim"
    is_sim = True
    default_brightness = 64

    def __init__(self, journal_path="journal.bin", realtime=False):
        self.matrix = Matrix()
        self.leds = Leds()
        self.clock = Clock(realtime)
        self.journal_path = journal_path
        self.realtime = realtime

    def run_for(self, board, ms):
        """Let ms of virtual time pass, scanning every SCAN_MS."""
        end = self.clock.ms + ms
        while self.clock.ms + SCAN_MS <= end:
            self.clock.ms += SCAN_MS
            board.step(self.clock.now())
        self.clock.ms = end

    def feed_watchdog(self):
        pass

    def interrupted(self, board, stdin, write):
        """Ctrl-C on the link: like a real board, drop into the REPL (for mpremote)."""
        from boards import simrepl

        simrepl.repl(stdin)

    def square(self, name, geo, lifting):
        """A square name (or "off") -> physical square; -1 for "off" with no margin
        square to use (off the board); None if that finger move is impossible."""
        occ = self.matrix.occ
        if name == "off":
            for p in range(N * N):
                if geo.cell(p) == 0 and occ[p] == (1 if lifting else 0):
                    return p
            return -1
        try:
            p = geo.parse(name)
        except ValueError:
            return None
        if occ[p] != (1 if lifting else 0):
            return None
        return p
