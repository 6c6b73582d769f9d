"""Raw switch scans -> debounced lift/place events, one square at a time.

A square's change is reported once its raw state has held for its settle time: reed
contact bounce (a few ms) and a piece wobbling on its square never get through.  A place
must hold settle_ms (40), so a square a sliding piece crosses in less is never seen; a
lift only lift_settle_ms (30), because a lift is what lights the hints and the player
waits for them (a piece crossing a square closes its switch: the opening after it is no
lift, the square was never reported closed).  Timings are passed in, so this runs the
same on the board, in the simulator and in the tests.  Nothing is allocated per scan.
"""

from array import array

from firmware.rules.compat import const

try:
    from time import ticks_diff
except ImportError:  # CPython

    def ticks_diff(a, b):
        return a - b


N = const(12)
SETTLE_MS = 40  # a place must hold this long (8 scans on the Pico, 4 on the virtual board)
LIFT_SETTLE_MS = 30  # a lift this long (6 scans at the Pico's 200 Hz; lift read to LEDs < 50 ms)
LIFT = 0
PLACE = 1
STUCK_MS = 10000  # a lone square wrong this long is reported as a stuck switch
FIXING = -2  # stuck_p while a takeback is put right: no watch


class Debouncer:
    """Feed it each scan (12 row masks, bit c = column c closed) with the time."""

    def __init__(self, emit, settle_ms=SETTLE_MS, lift_settle_ms=LIFT_SETTLE_MS):
        self.emit = emit  # emit(kind, p, now_ms): bound once, here
        self.settle_ms = settle_ms
        self.lift_settle_ms = lift_settle_ms
        self.last = array("H", bytes(2 * N))  # the previous raw scan
        self.stable = array("H", bytes(2 * N))  # what was last reported
        # when each square last changed, in ms modulo 2**16: a settle time is far shorter
        self.since = array("H", bytes(2 * N * N))
        self.busy = False  # some square differs from its reported state
        self.stuck_p = -1  # the square the stuck-switch watch follows (stuck())
        self.stuck_since = 0
        self.stuck_told = False

    def stuck(self, p, n, now_ms):
        """The stuck-switch watch, after a scan: p, the one square wrong while the board
        waits for it to be put right (-1: none, or more than one), n the squares wrong.
        True once, when p has stayed so STUCK_MS: its switch is likely stuck (closed where
        no piece can be, or never closing under a piece).  After a takeback (stuck_p =
        FIXING) the player fetches the captured man, no hurry: no watch until n is 0."""
        if self.stuck_p == FIXING:
            if n:
                return False
            self.stuck_p = -1
        if p < 0:
            self.stuck_p = -1
            return False
        if p != self.stuck_p:
            self.stuck_p = p
            self.stuck_since = now_ms
            self.stuck_told = False
        elif not self.stuck_told and ticks_diff(now_ms, self.stuck_since) >= STUCK_MS:
            self.stuck_told = True
            return True
        return False

    def reset(self, rows):
        """Take rows as the reported state without events (at power-up)."""
        for r in range(N):
            self.last[r] = rows[r]
            self.stable[r] = rows[r]
        self.busy = False

    def feed(self, rows, now_ms):
        last = self.last
        stable = self.stable
        since = self.since
        busy = False
        for r in range(N):
            raw = rows[r]
            moved = raw ^ last[r]
            if moved:
                for c in range(N):
                    if moved >> c & 1:
                        since[r * N + c] = now_ms & 0xFFFF
                last[r] = raw
            if raw != stable[r]:
                busy = True
        self.busy = busy
        if not busy:
            return
        # Two passes, lifts before places: a quick move settles as lift then place.
        for kind in range(2):  # LIFT = 0, PLACE = 1
            settle = self.lift_settle_ms if kind == LIFT else self.settle_ms
            for r in range(N):
                diff = last[r] ^ stable[r]
                if not diff:
                    continue
                for c in range(N):
                    if diff >> c & 1 and (last[r] >> c & 1) == kind:
                        p = r * N + c
                        if (now_ms - since[p]) & 0xFFFF >= settle:
                            stable[r] ^= 1 << c
                            self.emit(kind, p, now_ms)
