"""Games played by the virtual board's hands with sensor faults thrown in: contact bounce,
a bumped neighbour, a piece slid across a square, a lift the switch reports late.  The
board must record the same moves as without the noise, or show a correction and recover;
it must never record a wrong move.  Runs on CPython and on MicroPython."""

from fuzzgen import Rand, lasting_move

from boards import sim
from firmware import protocol
from firmware.app import Board
from firmware.hands import hand_moves
from firmware.tracker import OVER

NEIGHBOURS = (-13, -12, -11, -1, 1, 11, 12, 13)


class Noisy:
    def __init__(self, gid, journal, seed):
        self.hw = sim.Hardware(journal_path=journal)
        self.board = Board(self.hw, lambda line: None)
        self.board.boot(0)
        for line in ("new " + gid, "sim setup", "sim wait 100"):
            protocol.handle(self.board, line.encode(), 0)
        self.rng = Rand(seed)
        self.faults = 0
        self.recoveries = 0
        self.expected = []

    def do(self, line):
        protocol.handle(self.board, line.encode(), 0)

    def touch(self, verb, p, ms):
        occ = self.hw.matrix.occ
        if (verb == "lift") != (occ[p] == 1):
            return
        occ[p] = 1 if verb == "place" else 0
        self.do("sim wait %d" % ms)

    def noise(self, moving):
        """One fault, somewhere that is not the moving squares."""
        rng = self.rng
        occ = self.hw.matrix.occ
        geo = self.board.tracker.geo
        kind = rng.below(3)
        squares = geo.game_squares
        p = squares[rng.below(len(squares))]
        if p in moving:
            return
        self.faults += 1
        if kind == 0:  # contact bounce: a few 3 ms blips
            for _ in range(1 + rng.below(3)):
                occ[p] ^= 1
                self.do("sim wait 3")
                occ[p] ^= 1
                self.do("sim wait 3")
        elif kind == 1 and occ[p]:  # a bumped neighbour, off its square for a moment
            occ[p] = 0
            self.do("sim wait %d" % (10 + rng.below(25)))
            occ[p] = 1
            self.do("sim wait 20")
        else:  # a piece in passing over an empty square
            if not occ[p]:
                occ[p] = 1
                self.do("sim wait %d" % (5 + rng.below(30)))
                occ[p] = 0
                self.do("sim wait 20")

    def play(self, m):
        """Make m with the hands, noise thrown in; returns True if the board made it."""
        pos = self.board.pos
        geo = self.board.tracker.geo
        text = pos.move_str(m)
        lifts, places = hand_moves(pos, m)
        moving = [geo.phys(c) for c in lifts + places]
        late = self.rng.below(6) == 0 and lifts  # the switch under a lifted piece opens late
        before = self.board.ply
        steps = [("lift", geo.phys(c)) for c in lifts] + [("place", geo.phys(c)) for c in places]
        if late:
            self.faults += 1
            first = steps.pop(0)
            steps.insert(len(steps), first)  # the lift registers only after the place
        for verb, p in steps:
            if self.rng.below(3) == 0:
                self.noise(moving)
            if verb == "place" and self.rng.below(4) == 0:
                # slid in: over a neighbouring empty square on the way, briefly
                q = p + NEIGHBOURS[self.rng.below(8)]
                if 0 <= q < 144 and not self.hw.matrix.occ[q] and q not in moving:
                    self.faults += 1
                    self.touch("place", q, 5 + self.rng.below(30))
                    self.touch("lift", q, 20)
            self.touch(verb, p, 60)
        self.choose(text)
        self.do("sim wait 3000")
        made = self.board.ply == before + 1
        if not made:
            # The board could not tell: it shows a correction.  The player puts things back
            # as the position says and makes the move again, calmly.
            self.recoveries += 1
            self.do("sim setup")
            self.do("sim wait 200")
            for verb, p in [("lift", geo.phys(c)) for c in lifts] + [("place", geo.phys(c)) for c in places]:
                self.touch(verb, p, 60)
            self.choose(text)
            self.do("sim wait 3000")
        return text

    def choose(self, text):
        # A promotion: the player's choice, as the host sends it (or cycles on the board).
        if self.board.tracker.state == 4:  # PROMOTING
            letter = text[-1]
            self.do("promote " + (letter if "a" <= letter <= "z" else "-"))


def run(gid, plies, seed, journal):
    n = Noisy(gid, journal, seed)
    board = n.board
    for _ in range(plies):
        ms = board.pos.legal_moves()
        if not ms:
            break
        n.expected.append(n.play(lasting_move(board.pos, ms, n.rng)))
        got = board.history()
        # never a wrong move: what the board recorded is exactly the moves played
        if got != n.expected:
            return n, "recorded %s, played %s" % (got[-3:], n.expected[-3:])
        if board.tracker.state == OVER:
            break
    return n, None
