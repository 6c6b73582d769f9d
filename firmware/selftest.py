"""The bring-up self-test, for a person with a freshly built board (docs/protocol.md,
`selftest`).  Loaded only when a self-test starts: a board playing a game never holds it.

It starts on the request `selftest start`, or with no PC at all: power the board up with
magnets on the four corner squares (a1, m1, a12, m12) and nothing else.  Its phases:

  clear     every magnet off the board: a closed switch is lit red until the switches have
            been still for CALM_MS; then the matrix lines are probed (a line high with
            nothing driving it, a line that does not go high, two lines shorted) and every
            switch still closed is named: stuck closed
  walk      every LED lit alone, white, in chain order (WALK_MS each; a chain that stops
            shows where), then the whole board red, green and blue
  dark      every LED lit white: the person touches each square that stays dark with a
            magnet, and the board names its LED dead (the Pico cannot see light); the
            phase ends DARK_MS after the last touch
  switches  every switch shown on its own LED: dim yellow untested, white closed, blue
            seen closing, red faulty; each switch is named the first time it closes
  done      every switch seen closing (or faulty): the display goes on

A state machine fed by scans with the time passed in; the hardware's `probe`, when the
profile has one, reads the lines.  Nothing is journaled: a reset leaves the self-test.
"""

from array import array

from firmware import leds
from firmware.debounce import Debouncer, PLACE, ticks_diff
from firmware.terms import Refused, check_args as _args

N = 12
FILES = "abcdefghiklm"  # the 12 x 12 board's files (no j), notation.md
CALM_MS = 3000
WALK_MS = 120
COLOUR_MS = 1000
DARK_MS = 10000
REPORT = 300  # bytes of faults named in a report (the line holds 512: docs/protocol.md)

CLEAR = 0
WALK = 1
DARK = 2
SWITCHES = 3
DONE = 4
PHASES = ("clear", "walk", "dark", "switches", "done")

UNTESTED = 0
TESTED = 1  # seen closing
FAULTY = 2  # on a faulty line, or closed at start and never opened since


def square_name(p):
    """Physical square 0-143 -> its name on the 12 x 12 board ("a1" .. "m12")."""
    return FILES[p % N] + str(p // N + 1)


def parse_square(name):
    """A 12 x 12 square name, or "@P" -> physical square; ValueError if it is neither."""
    if name[:1] == "@" and name[1:].isdigit() and int(name[1:]) < N * N:
        return int(name[1:])
    f = FILES.find(name[:1])
    if f < 0 or not name[1:].isdigit() or not 1 <= int(name[1:]) <= N:
        raise ValueError("no square %s" % name)
    return (int(name[1:]) - 1) * N + f


def line_name(i):
    """Line 0-11: row (rank) i + 1; 12-23: a column (file)."""
    return "row %d" % (i + 1) if i < N else "column " + FILES[i - N]


def parse_line(kind, which):
    """("row", "3") or ("column", "c") -> line 0-23; ValueError if it is not one."""
    if kind == "row" and which.isdigit() and 1 <= int(which) <= N:
        return int(which) - 1
    if kind == "column" and len(which) == 1 and which in FILES:
        return N + FILES.find(which)
    raise ValueError("row 1-12 or column a-m")


def line_faults(echo, rows):
    """The probe's readings (echo[i]: the lines high while line i alone is driven;
    echo[24]: with none) and a scan -> faults, each a tuple of words; None if no line
    reads back its own drive (no board is that broken: the pads are not read back, as on
    rp2040js)."""
    out = []
    idle = echo[24]
    for i in range(2 * N):
        if echo[i] >> i & 1:
            break
    else:
        return None
    for i in range(2 * N):
        if idle >> i & 1:
            out.append(("line-high",) + tuple(line_name(i).split()))
    for i in range(2 * N):
        if idle >> i & 1:
            continue
        if not echo[i] >> i & 1:
            out.append(("line-low",) + tuple(line_name(i).split()))
            continue
        for j in range(i + 1, 2 * N):
            if idle >> j & 1 or not echo[j] >> j & 1:
                continue
            # A closed switch joins its row to its column, one way: no fault.
            if i < N <= j and rows[i] >> (j - N) & 1:
                continue
            if (echo[i] >> j | echo[j] >> i) & 1:
                out.append(("shorted",) + tuple(line_name(i).split()) + tuple(line_name(j).split()))
    return out


class SelfTest:
    """Fed every scan (12 row masks) with the time; says events through say(text)."""

    def __init__(self, say, probe, rows, now_ms):
        self.say = say
        self.probe = probe  # probe(echo) fills 25 line readings; None: the profile has none
        self.phase = CLEAR
        self.since = now_ms  # the phase's start, or its last change
        self.step_at = 0  # the walk's step (a chain position, then the three colours)
        self.last = array("H", rows)
        self.status = bytearray(N * N)
        self.dead_led = bytearray(N * N)
        self.faults = []  # tuples of words, in the order found
        self.debouncer = Debouncer(self._switch)
        say("selftest clear")

    # ---- the phases ---------------------------------------------------------------------

    def step(self, rows, now_ms):
        ph = self.phase
        if ph == CLEAR:
            changed = False
            for r in range(N):
                if rows[r] != self.last[r]:
                    self.last[r] = rows[r]
                    changed = True
            if changed:
                self.since = now_ms
            elif ticks_diff(now_ms, self.since) >= CALM_MS:
                self._check_lines(rows)
                self._begin(WALK, now_ms)
        elif ph == WALK:
            k = ticks_diff(now_ms, self.since) // WALK_MS
            if k >= N * N:
                k = N * N + (ticks_diff(now_ms, self.since) - N * N * WALK_MS) // COLOUR_MS
            if k >= N * N + 3:
                self.debouncer.reset(rows)
                self._begin(DARK, now_ms)
            self.step_at = k
        else:
            self.debouncer.feed(rows, now_ms)
            if ph == DARK and ticks_diff(now_ms, self.since) >= DARK_MS and not self.debouncer.busy:
                self._begin(SWITCHES, now_ms)

    def _begin(self, phase, now_ms):
        self.phase = phase
        self.since = now_ms
        self.step_at = 0
        self.say("selftest " + PHASES[phase])
        if phase == SWITCHES:
            self._check_done()

    def _check_lines(self, rows):
        found = None
        if self.probe is not None:
            echo = array("L", [0] * 25)
            self.probe(echo)
            found = line_faults(echo, rows)
        if found is None:  # no probe: a column closed on every row is a line high all the same
            found = []
            for c in range(N):
                if all(rows[r] >> c & 1 for r in range(N)):
                    found.append(("line-high", "column", FILES[c]))
        for f in found:
            self._fault(f)
            for k in range(1, len(f), 2):  # the squares on a faulty line cannot be tested
                i = parse_line(f[k], f[k + 1])
                for j in range(N):
                    self.status[i * N + j if i < N else j * N + i - N] = FAULTY
        for p in range(N * N):
            if rows[p // N] >> (p % N) & 1 and self.status[p] != FAULTY:
                self.status[p] = FAULTY
                self._fault(("closed", square_name(p)))

    def _fault(self, words):
        self.faults.append(words)
        self.say("selftest fault " + " ".join(words))

    def _switch(self, kind, p, now_ms):
        # A debounced change (the dark and switch phases).
        self.since = now_ms
        st = self.status[p]
        if kind != PLACE:
            if st == FAULTY and ("closed", square_name(p)) in self.faults:
                # Stuck closed at start, open now: a magnet had been left there after all.
                self.faults.remove(("closed", square_name(p)))
                self._tested(p)
            return
        if self.phase == DARK and st != FAULTY and not self.dead_led[p]:
            self.dead_led[p] = 1
            self._fault(("dead-led", square_name(p)))
        if st == UNTESTED:
            self._tested(p)

    def _tested(self, p):
        self.status[p] = TESTED
        self.say("selftest switch " + square_name(p))
        if self.phase == SWITCHES:
            self._check_done()

    def _count(self, st):
        n = 0
        for p in range(N * N):
            if self.status[p] == st:
                n += 1
        return n

    def _check_done(self):
        if self._count(UNTESTED) == 0:
            self.phase = DONE
            self.say("selftest done %d %d" % (self._count(TESTED), N * N))

    # ---- what the LEDs show -------------------------------------------------------------

    def render(self, frame):
        ph = self.phase
        if ph == CLEAR:
            for p in range(N * N):
                frame[p] = leds.EXTRA if self.last[p // N] >> (p % N) & 1 else leds.OFF
        elif ph == WALK:
            k = self.step_at
            if k < N * N:
                for p in range(N * N):
                    frame[p] = leds.OFF
                frame[leds.SERPENTINE[k]] = leds.FROM  # the chain's k-th LED (its own inverse)
            else:
                colour = (leds.EXTRA, leds.MISSING, leds.DEST)[k - N * N]  # red, green, blue
                for p in range(N * N):
                    frame[p] = colour
        elif ph == DARK:
            for p in range(N * N):
                frame[p] = leds.EXTRA if self.dead_led[p] else leds.FROM
        else:
            stable = self.debouncer.stable
            for p in range(N * N):
                st = self.status[p]
                if st == FAULTY:
                    frame[p] = leds.EXTRA
                elif stable[p // N] >> (p % N) & 1:
                    frame[p] = leds.FROM
                elif st == TESTED:
                    frame[p] = leds.DEST
                else:
                    frame[p] = leds.LAST

    def report(self):
        """The reply to `selftest report`: phase, switches seen closing, what is faulty."""
        untested = [square_name(p) for p in range(N * N) if self.status[p] == UNTESTED]
        shown = ",".join(untested) if 0 < len(untested) <= 16 else str(len(untested))
        # The faults while they fit in REPORT bytes, then "+<n>" for n more (each was said
        # as it was found): a board with its pieces still on at the start has dozens.
        named = []
        size = 0
        for i, f in enumerate(self.faults):
            word = ":".join(f)
            size += len(word) + 1
            if size > REPORT:
                named.append("+%d" % (len(self.faults) - i))
                break
            named.append(word)
        faults = ",".join(named) or "-"
        return "%s tested %d untested %s faults %s" % (
            PHASES[self.phase],
            self._count(TESTED),
            shown,
            faults,
        )


# ---- the board's side: the request, and the hooks of firmware/app.py ----------------------


def start(board, now_ms):
    """Hand the board's scans and LEDs to a new self-test (the game stays as it is)."""
    board.arranging = None
    board.hw.matrix.scan(board.rows)
    board.testing = SelfTest(board._send, getattr(board.hw.matrix, "probe", None), board.rows, now_ms)


def stop(board, now_ms):
    """Give the board back to its game: it follows the pieces as at power-up."""
    board.testing = None
    board.hw.matrix.scan(board.rows)
    board.debouncer.reset(board.rows)
    board.tracker.set_actual(board._occupancy())
    board._follow(board.pos, setup=board._fresh, now_ms=now_ms)
    board.tracker.dirty = True


def c_selftest(board, w, now):
    _args(w, 1, 1, "selftest start|stop|report")
    if w[0] == "start":
        start(board, now)
        return "ok selftest start"
    if w[0] not in ("stop", "report"):
        raise Refused("bad-args", "selftest start|stop|report")
    if board.testing is None:
        raise Refused("not-testing", "no self-test is running")
    if w[0] == "stop":
        stop(board, now)
        return "ok selftest stop"
    return "ok selftest report " + board.testing.report()
