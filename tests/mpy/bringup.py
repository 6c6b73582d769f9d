"""A person with a freshly built board runs the self-test (firmware/selftest.py) on the
virtual board: the hands and the eyes, for tests/test_selftest.py and its MicroPython twin.
The person sees the LEDs as the board really lights them (`sim seen`: a dead LED stays
dark), never the frame the firmware meant."""

from scriptrun import Runner

from boards import sim
from firmware import protocol
from firmware.app import Board

N = 144


class Person(Runner):
    """A Runner (its must) that keeps the events only, not every reply: the walk asks for
    the LED frame 147 times, too much to keep in a board-sized heap."""

    def __init__(self, journal, faults=()):
        self.hw = sim.Hardware(journal_path=journal)
        self.said = []  # the events, without their numbers (replies are not kept)
        self.keep = True  # False: said keeps nothing (a list of every event is the test's, not the board's heap)
        self.reply = ""
        self.board = Board(self.hw, self.hear)
        self.board.boot(0)
        for f in faults:
            self.must("sim fault " + f)

    def hear(self, line):
        text = line.split(" ", 1)[1]
        if text.startswith("ok ") or text.startswith("error "):
            self.reply = text
        elif self.keep:
            self.said.append(text)

    def send(self, line):
        protocol.handle(self.board, line.encode(), self.hw.clock.now())
        return self.reply

    def wait(self, ms):
        self.hw.run_for(self.board, ms)

    def events(self, word="selftest"):
        """The events said so far that start with word."""
        return [text for text in self.said if text.startswith(word + " ")]

    def touch(self, p, ms=60):
        self.must("sim place @%d" % p)
        self.wait(ms)
        self.must("sim lift @%d" % p)
        self.wait(ms)

    def watch_walk(self):
        """Watch the LED walk: the squares the board lit alone that stayed dark."""
        from firmware import selftest  # loaded by the board by now

        dark = []
        lit = 0
        while self.board.testing.phase == selftest.WALK:
            frame = self.must("leds").split()[2]
            seen = self.must("sim seen").split()[3]
            if frame.count("f") == 1:
                p = frame.index("f")
                lit += 1
                if seen[p] == ".":
                    dark.append(p)
            self.wait(selftest.WALK_MS)
        return dark, lit

    def bring_up(self):
        """The whole self-test as its instructions say: pieces off, watch the walk, touch
        the dark squares, then pass a magnet over every square.  Returns the walk's count
        of LEDs lit alone."""
        self.must("selftest start")
        for p in range(N):  # every piece off the board
            if self.hw.matrix.occ[p]:
                self.must("sim lift @%d" % p)
        from firmware import selftest

        self.wait(selftest.CALM_MS + 20)
        dark, lit = self.watch_walk()
        while self.board.testing.phase != selftest.DARK:
            self.wait(10)
        seen = self.must("sim seen").split()[3]
        assert seen.count(".") == len(dark), "the dark phase shows the dead LEDs dark, the rest lit"
        for p in dark:
            self.touch(p)
        self.wait(selftest.DARK_MS)
        for p in range(N):
            self.touch(p)
        return lit
