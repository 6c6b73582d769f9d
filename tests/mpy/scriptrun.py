"""Event scripts: a player's hands on the virtual board, and what the board must answer.

Runs on CPython (tests/test_event_scripts.py) and on MicroPython
(tests/mpy/test_event_scripts.py) alike, on the real Board with the sim profile.

A script is one step a line ('#' starts a comment):

  game GAME [FEN]       a new game, its position set up on the board, the board started
  lift SQ | place SQ    a hand on a square (SQ a square of the game, or "off")
  wait MS               time passes (the board scans every 10 ms)
  send LINE             a protocol line from the host; its reply is kept
  reset                 a power cut: a new Board on the same journal and switches
  expect moves M ...    the moves accepted since the last "expect moves" (or "-" for none)
  expect leds C:SQ,SQ   the lit squares, by colour letter (firmware/leds.py), or "-"
  expect state NAME     the tracker's state
  expect fen FEN        the position
  expect said TEXT      some message since the last "expect said" contains TEXT
  expect unsaid TEXT    no message since the last "expect said" (or unsaid) contains TEXT
  expect reply TEXT     the last reply starts with TEXT
"""

from boards import sim
from firmware import leds
from firmware import protocol
from firmware.app import Board
from firmware.tracker import STATES


class ScriptError(Exception):
    pass


class Runner:
    """One virtual board driven by script steps."""

    def __init__(self, journal_path):
        self.hw = sim.Hardware(journal_path=journal_path)
        self.out = []
        self.moves_seen = 0
        self.said_seen = 0
        self.reply = ""
        self.board = Board(self.hw, self.out.append)
        self.board.boot(0)

    def send(self, line):
        n = len(self.out)
        protocol.handle(self.board, line.encode(), self.hw.clock.now())
        for text in self.out[n:]:
            words = text.split(" ", 2)
            if len(words) > 1 and words[1] in ("ok", "error"):
                self.reply = text.split(" ", 1)[1]
        return self.reply

    def must(self, line):
        r = self.send(line)
        if not r.startswith("ok"):
            raise ScriptError("%s -> %s" % (line, r))
        return r

    def moves(self):
        """Accepted moves (and takebacks as "undo:M") since the last call."""
        out = []
        for i in range(self.moves_seen, len(self.out)):
            words = self.out[i].split(" ")
            if len(words) >= 4 and words[1] == "move":
                out.append(words[3])
            elif len(words) >= 4 and words[1] == "undo":
                out.append("undo:" + words[3])
        self.moves_seen = len(self.out)
        return out

    def led_groups(self):
        """The lit squares as "C:sq,sq" words, sorted."""
        geo = self.board.tracker.geo
        groups = {}
        frame = self.board.frame
        for p in range(144):
            c = frame[p]
            if c:
                groups.setdefault(leds.CODES[c], []).append(p)
        words = []
        for code in sorted(groups):
            words.append(code + ":" + ",".join(geo.name(p) for p in groups[code]))
        return " ".join(words) or "-"

    def step(self, line):
        words = line.split()
        if not words:
            return
        cmd = words[0]
        if cmd == "game":
            self.must("new " + " ".join(words[1:]))
            self.must("sim setup")
            self.must("sim wait 100")
            self.moves()
            self.said_seen = len(self.out)
        elif cmd in ("lift", "place"):
            self.must("sim %s %s" % (cmd, words[1]))
        elif cmd == "wait":
            self.must("sim wait " + words[1])
        elif cmd == "send":
            self.send(line[5:])
        elif cmd == "reset":
            occ = self.hw.matrix.occ
            journal = self.hw.journal_path
            self.hw = sim.Hardware(journal_path=journal)
            self.hw.matrix.occ[:] = occ
            self.out.append("- reset")
            self.board = Board(self.hw, self.out.append)
            self.board.boot(0)
        elif cmd == "expect":
            self.expect(words[1], " ".join(words[2:]))
        else:
            raise ScriptError("unknown step " + cmd)

    def expect(self, what, text):
        if what == "moves":
            got = " ".join(self.moves()) or "-"
        elif what == "leds":
            got = self.led_groups()
        elif what == "state":
            got = STATES[self.board.tracker.state]
        elif what == "fen":
            got = self.board.pos.fen()
        elif what == "said" or what == "unsaid":
            lines = self.out[self.said_seen :]
            self.said_seen = len(self.out)
            for t in lines:
                if text in t:
                    if what == "said":
                        return
                    raise ScriptError("said %r, which should not be" % t)
            if what == "said":
                raise ScriptError("nothing said contains %r; said: %s" % (text, " | ".join(lines[-12:])))
            return
        elif what == "reply":
            if not self.reply.startswith(text):
                raise ScriptError("reply %r, expected %r" % (self.reply, text))
            return
        else:
            raise ScriptError("unknown expectation " + what)
        if got != text:
            raise ScriptError("%s: got %r, expected %r" % (what, got, text))


def run_script(text, journal_path):
    """Run a script's steps; ScriptError naming the line if an expectation fails."""
    r = Runner(journal_path)
    n = 0
    for i, line in enumerate(text.split("\n")):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            r.step(line)
        except ScriptError as e:
            raise ScriptError("line %d (%s): %s" % (i + 1, line, e))
        n += 1
    return r
