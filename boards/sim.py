"""The virtual board's hardware: a switch matrix set by commands, an LED sink, a clock.

Time is virtual: it moves only when `sim wait MS` runs the scan loop (every SCAN_MS), so
a sensor script plays the same way every time.  With realtime=True (the interactive
virtual board) main.py also advances it with the wall clock.
"""

from array import array

from firmware.terms import Refused, check_args, whole
from firmware.journal import Journal, record

N = 12
USAGE = "sim lift|place SQ, sim wait MS, sim setup, sim occupancy, sim cut BYTES, sim fault ..., sim seen"
SCAN_MS = 10  # 100 Hz (the Pico scans at 200 Hz: the settle times are multiples of both)
# A realtime virtual board whose switches have not changed for CALM_MS (no move's rest due,
# no lift unsaid) scans this seldom, or sooner for its hands' next step: a hall's hundred
# boards on one machine sleep between their steps (bench/hall_pg.py).  Every timer of the
# firmware counts milliseconds: a move's calm ends at most IDLE_SCAN_MS late.
IDLE_SCAN_MS = 50
CALM_MS = 100


class Matrix:
    """144 reed switches whose state the test or the player sets.  With a path, the
    switches' state is kept in that file: pieces stay on a board whose power is cut."""

    faults = None  # a simfaults.Faults once `sim fault` has planted one

    def __init__(self, path=None):
        self.occ = bytearray(N * N)
        # The rows a scan reads, worked out again only when occ changed: a realtime virtual
        # board scans 100 times a second, and a hall runs a hundred of them on one machine.
        self.seen = None
        self.rows = array("H", bytes(2 * N))
        self.changes = 0  # scans that saw the switches change
        self.path = path
        if path:
            try:
                with open(path, "rb") as f:
                    data = f.read()
                if len(data) == N * N:
                    self.occ[:] = data
            except OSError:
                pass

    def _keep(self):
        if self.path:
            with open(self.path, "wb") as f:
                f.write(self.occ)

    def scan(self, rows):
        if self.faults is not None:
            for r in range(N):
                rows[r] = self.faults.levels(self.occ, r) >> N
            return
        occ = self.occ
        if occ != self.seen:  # (a test may write occ itself: compared, not told)
            self.seen = bytearray(occ)
            self.changes += 1
            for r in range(N):
                bits = 0
                for c in range(N):
                    if occ[r * N + c]:
                        bits |= 1 << c
                self.rows[r] = bits
        seen = self.rows
        for r in range(N):  # (a slice assignment would allocate its slice: idle scans allocate nothing)
            rows[r] = seen[r]

    def probe(self, echo):
        """The self-test's line probe (boards/pico.py has the real one): echo[i] is the mask
        of the 24 lines (rows, then columns) high while line i alone is driven; echo[24]
        with none driven."""
        from boards import simfaults

        simfaults.probe(self, echo)

    def set(self, p, closed):
        self.occ[p] = 1 if closed else 0
        self._keep()

    def show_position(self, pos, geo):
        """Put pieces exactly where the position has them (the margin is left alone)."""
        for p in geo.game_squares:
            self.occ[p] = 1 if pos.cells[geo.cell(p)] else 0
        self._keep()


class Leds:
    """Keeps the last frame shown; a dead LED (`sim fault led`) shows nothing (`sim seen`)."""

    def __init__(self):
        self.frame = bytearray(N * N)
        self.brightness = 0
        self.shows = 0

    dead = None  # a bytearray (1: dead) once `sim fault led` plants one

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


try:
    from time import ticks_ms as _wall  # the wall clock, looked up once, not every scan
except ImportError:  # CPython, in tests
    from time import monotonic

    def _wall():
        return int(monotonic() * 1000)


class Hardware:
    """The sim profile: what main.py and Board need from a board."""

    name = "sim"
    is_sim = True
    default_brightness = 64

    def __init__(self, journal_path="journal.bin", realtime=False, switches_path=None):
        self.matrix = Matrix(switches_path)
        self.leds = Leds()
        self.clock = Clock(realtime)
        self.journal_path = journal_path
        self.realtime = realtime
        self.auto_file = None  # the autoplay script, read as it runs
        self.auto_at = 0
        self.auto_clock = 0
        self.hands_path = None  # a file of more steps, read as it grows (load_hands)
        self.hands_at = 0
        self.hands_due = 0
        self.hand_steps = []  # steps read from the hands file, not yet done
        self.board = None  # the board scanned (tick)
        self.period = SCAN_MS  # the time from the last scan to the next (scan_ms)
        self.seen_at = 0  # when a scan last saw the switches change (wall ms) ...
        self.changes = 0  # ... and how many times they had changed then

    def run_for(self, board, ms):
        """Let ms of virtual time pass, scanning every SCAN_MS."""
        end = self.clock.ms + ms
        self.period = SCAN_MS
        while self.clock.ms + SCAN_MS <= end:
            self.clock.ms += SCAN_MS
            board.step(self.clock.now())
        self.clock.ms = end

    def feed_watchdog(self):
        pass

    def release_watchdog(self):
        pass

    def make_journal(self, path):
        return CuttableJournal(path)

    def board_id(self):
        """This virtual board's own id, made at its first start and kept on its flash
        (beside the journal)."""
        cut = self.journal_path.rfind("/")
        path = self.journal_path[: cut + 1] + "board-id"
        try:
            with open(path) as f:
                return f.read().strip()
        except OSError:
            pass
        import os
        from binascii import hexlify

        ident = "sim-" + hexlify(os.urandom(6)).decode()
        try:
            with open(path, "w") as f:
                f.write(ident)
        except OSError:
            pass
        return ident

    def load_autoplay(self, path):
        """A script of hands for a board with no one at it (eboard serve's tests): the
        steps of replay-sensors (lift SQ, place SQ, wait MS) and "game GAME [FEN]", run
        as the board's clock passes.  False if there is no such file.  The script is read
        a line at a time as it runs: held whole, a long one left no room for lippo's
        tables under a board's heap (bench/heap.py measures it)."""
        try:
            self.auto_file = open(path)
        except OSError:
            return False
        self.auto_at = 0
        return True

    def _next_step(self):
        # The next step ("" for a blank line): the autoplay script's, then the hands
        # file's; None when neither has one.
        if self.auto_file is not None:
            line = self.auto_file.readline()
            if line:
                return line.split("#", 1)[0].strip()
            self.auto_file.close()
            self.auto_file = None
        if self.hand_steps:
            return self.hand_steps.pop(0)
        return None

    def load_hands(self, path):
        """Hands for a board whose port another program holds (the tests of eboard
        kriegspiel on real ports; a person at a shell): steps appended to this file, in
        autoplay's form, are taken up as it grows (every 10 scans)."""
        self.hands_path = path

    def _more_hands(self):
        try:
            with open(self.hands_path) as f:
                f.seek(self.hands_at)
                text = f.read()
        except OSError:
            return
        cut = text.rfind("\n") + 1  # whole lines only: a step half written waits
        if cut:
            self.hands_at += len(text[:cut].encode())
            self.hand_steps.extend(line.split("#", 1)[0].strip() for line in text[:cut].split("\n"))

    @property
    def scan_ms(self):
        """The time to the next scan (main.py asks it after each scan of a realtime board):
        SCAN_MS, or up to IDLE_SCAN_MS while the board stands idle, up to the next hand's
        step (which its scan then makes on time)."""
        b = self.board
        period = SCAN_MS
        now = self.clock.now()
        if self.matrix.changes != self.changes or self.matrix.occ != self.matrix.seen:
            self.changes = self.matrix.changes
            self.seen_at = now
        elif (b is not None and b.testing is None and not b.after_due and b.held_lift is None
              and now - self.seen_at >= CALM_MS):
            period = IDLE_SCAN_MS
            if self.auto_file is not None or self.hand_steps:
                period = max(SCAN_MS, min(period, self.auto_at - self.auto_clock))
        self.period = period
        return period

    def tick(self, board, now_ms):
        """Before each scan: the autoplay's steps that are due.  Its clock runs the scan's
        period (SCAN_MS, or what scan_ms said), whatever the wall clock does: a machine too
        busy to scan on time slows the hands down with it, instead of making a lift and a
        place fall into one scan."""
        if self.hands_path is not None:
            self.hands_due -= 1
            if self.hands_due <= 0:
                self.hands_due = 10
                self._more_hands()
        self.board = board
        if self.auto_file is None and not self.hand_steps:
            return
        self.auto_clock += self.period
        while self.auto_clock >= self.auto_at:
            step = self._next_step()
            if step is None:
                return
            words = step.split()
            if not words:
                continue
            if words[0] == "wait":
                self.auto_at = self.auto_clock + int(words[1])
            elif words[0] == "game":
                # What `new` does, without its reply: no host asked, and a stray reply
                # would be taken for the answer to the host's next request.
                board.new_game(words[1], " ".join(words[2:]) or None, now_ms)
                self.matrix.show_position(board.pos, board.tracker.geo)
            elif words[0] == "setup":  # the pieces of the board's position, as `sim setup`
                self.matrix.show_position(board.pos, board.tracker.geo)
            elif words[0] in ("lift", "place"):
                p = self.square(words[1], board.tracker.geo, words[0] == "lift")
                if p is not None and p >= 0:
                    self.matrix.set(p, words[0] == "place")

    def request(self, board, w):
        """The `sim ...` request (docs/protocol.md, The virtual board): a finger on the
        sensors, the clock, the journal's cut and the self-test's planted faults."""
        if not w:
            raise Refused("bad-args", USAGE)
        if w[0] in ("lift", "place"):
            check_args(w, 2, 2, "sim %s SQ" % w[0])
            p = self.square(w[1], board.tracker.geo, w[0] == "lift")
            if p is None:
                raise Refused("bad-square", "%s: no %s there" % (w[1], "piece" if w[0] == "lift" else "room"))
            if p >= 0:  # -1: off the board, out of the sensors' reach
                self.matrix.set(p, w[0] == "place")
            return "ok sim %s %s" % (w[0], w[1])
        if w[0] == "wait":
            check_args(w, 2, 2, "sim wait MS")
            ms = whole(w[1], 0, 3600000, "ms")
            self.run_for(board, ms)
            return "ok sim wait %d" % ms
        if w[0] == "setup":
            check_args(w, 1, 1, "sim setup")
            self.matrix.show_position(board.pos, board.tracker.geo)
            return "ok sim setup"
        if w[0] == "cut":
            check_args(w, 2, 2, "sim cut BYTES")
            board.journal.cut_after = whole(w[1], 0, 1000, "bytes")
            return "ok sim cut %s" % w[1]
        if w[0] in ("fault", "seen"):  # the self-test's faults, planted: boards/simfaults.py
            from boards import simfaults

            try:
                return "ok sim " + simfaults.request(self, w)
            except ValueError as e:
                raise Refused("bad-args", str(e))
        if w[0] == "occupancy":
            check_args(w, 1, 1, "sim occupancy")
            return "ok sim occupancy " + "".join("1" if b else "0" for b in self.matrix.occ)
        raise Refused("bad-args", USAGE)

    def stop_for_repl(self, stdin, idle_s):
        """The `repl` request was answered: like a real board, hand the link to the REPL
        (for mpremote and flash.sh --sim), which reboots the board into play once no byte
        has come for idle_s seconds."""
        from boards import simrepl

        simrepl.repl(stdin, idle_s=idle_s)

    def square(self, name, geo, lifting):
        """A square name (or "off", or "@P" for physical square P) -> physical square; -1 for "off" with no margin
        square to use (off the board); None if that finger move is impossible."""
        occ = self.matrix.occ
        if name[:1] == "@" and name[1:].isdigit() and int(name[1:]) < N * N:  # a physical square
            p = int(name[1:])
            return p if occ[p] == (1 if lifting else 0) else None
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


class CuttableJournal(Journal):
    """The journal, with the virtual board's one fault: `sim cut N` makes the power fail
    after the next record's first N bytes reach the flash."""

    cut_after = None

    def append(self, text):
        n = self.cut_after
        if n is None:
            return Journal.append(self, text)
        self.cut_after = None
        with open(self.path, "ab") as f:
            f.write(record(text)[:n])
        raise SystemExit(0)  # the power is gone: nothing after this runs
