"""The board: the rules position, the tracker, the journal and the numbered messages.

The loop (main.py) calls step() after every scan's beat with the time, and hands every
line from the host to protocol.handle(), which calls the board's methods and then
answer(); what the board says goes out through the outbox.  Nothing here touches
hardware: `hw` is a profile object from boards/ with a matrix, leds, clock and a path for
the journal.  The Board's parts: the tracker (firmware/tracker.py: which move?), the
logbook (firmware/journal.py's Logbook: what is journaled, and when), the debouncer (firmware/debounce.py:
lifts and places, and the stuck-switch watch); a Kriegspiel player (firmware/krieg.py), a screened setup
(firmware/arrange.py) or the self-test (firmware/selftest.py) when the board has one.
"""

import gc
from array import array
from os import urandom as _urandom

from firmware import drop_module, leds
from firmware.debounce import FIXING, Debouncer, LIFT, ticks_diff
from firmware.journal import Journal, Logbook
from firmware.outbox import Outbox
from firmware.rules import MoveError, GAMES, fen_shape_ok, new_position
from firmware.rules.game import AFTER_OPENING
from firmware.terms import DEFAULT_GAME, Refused, host_end, new_uid
from firmware.tracker import Tracker, CORRECTING, IDLE, OVER, SETUP, STATES, pos_last

LED_LETTERS = leds.CODES.encode()
PIECE = 200  # bytes of a long reply's words on one line (the line's cap is 512: docs/protocol.md)


def start_position(gid, fen=None):
    """The position a new game of gid starts from on the board: fen's, else the game's
    start, after the opening the board plays itself (Courier's).  The one source of it:
    the club room's virtual hands (host/session/club.py) and bench/engine.py start from it too."""
    return new_position(gid, fen or AFTER_OPENING.get(gid))


END_TRIES = 3  # moves the rules' search for the game's end makes and unmakes a scan (settle)
QUIET_ROOM = 40 * 1024  # free heap below which a board left idle, or after the host's move, collects:
# a move's work and the host's requests until the next host's move fit in it, so that no
# collection falls inside a lift or a move line (20-27 ms on stock MicroPython)
QUIET_MS = 1000  # ... idle this long, no switch changed: not in the scan that made a move
_mem_free = getattr(gc, "mem_free", None)  # MicroPython's; CPython has no heap of its own


class Board:
    """One electronic board: feed it scans and host lines; it answers through the outbox."""

    testing = None  # a selftest.SelfTest while the bring-up self-test has the board (a class
    # default: a board that never runs one keeps its instance dict as small as before)

    def __init__(self, hw, write):
        self.hw = hw
        self.outbox = Outbox(write)
        self.tracker = Tracker(self)
        self.debouncer = Debouncer(self._on_switch)
        make = getattr(hw, "make_journal", None)
        self.journal = make(hw.journal_path) if make else Journal(hw.journal_path)
        self.logbook = Logbook(self, self.journal)  # what goes into the journal, and when
        self.rows = array("H", bytes(24))
        self.frame = bytearray(144)
        self.shown = bytearray(144)
        self.brightness = hw.default_brightness
        self.pos = None
        self.game = DEFAULT_GAME
        self.start_fen = None
        self.uid = None  # the game's identity (8 hex digits), journaled with its first record
        self.boot_id = 0  # this power-up's identity, random (boot())
        self.urandom = getattr(hw, "urandom", None) or _urandom
        self.greeted = False  # hello said (an alert waits for it)
        self._fresh = True  # the journaled game has no move yet
        self.ply = 0  # moves made in the game (or since the host set its position)
        self.krieg = None  # a krieg.Player when the board is one Kriegspiel player's
        self.arranging = None  # an arrange.Arranger during battle chess's screened setup
        self.ended = None  # the host's end of the game (`end time ...`), an Outcome, or None
        self.repl = 0  # `repl` was answered: the loop (main.py) stops for the REPL, idle for at most this many s
        self.held_lift = None  # a lift's square, said once its hints are lit (_on_switch)
        self.heap_peak = 0  # the largest live heap after the firmware's own collections
        self.last_state = -1  # the tracker's state at the last scan
        self.quiet_since = 0  # when the board last changed state or a switch (ms)
        self.after_due = 0  # a move made here: its rest is the next scan's (settle)
        self.ending = None  # the rules' search for the game's end, under way (settle)
        self.gesture = None  # the result the men show by the result gesture (firmware/gesture.py)
        self.gesture_ev = -1  # the tracker's event it was read at
        self.gesture_at = 0  # and when

    # ---- memory -----------------------------------------------------------------------

    def collect(self):
        """A collection; returns the live heap after it (bytes; 0 on CPython), and keeps the
        largest seen so far in heap_peak (protocol `mem`)."""
        gc.collect()
        try:
            live = gc.mem_alloc()
        except AttributeError:  # CPython: no heap of its own to tell
            return 0
        if live > self.heap_peak:
            self.heap_peak = live
        return live

    # ---- boot -------------------------------------------------------------------------

    def boot(self, now_ms):
        """Name this power-up, resume the journaled game (or begin the default game and
        wait for its set-up); says hello, and whether the journal had to be set aside.
        Its code (firmware/power_up.py) is loaded for it and dropped after: on stock
        MicroPython a module's bytecode takes heap, and a power-up comes once."""
        from firmware import power_up

        try:
            power_up.boot(self, now_ms)
        finally:
            drop_module("firmware", "power_up")
            drop_module("firmware", "torn")  # a damaged journal's (firmware/journal.py)

    def _follow(self, pos, setup, now_ms):
        # A Kriegspiel attempt put back is no takeback: the umpire has it already.
        self.tracker.takebacks = self.krieg is None
        self.tracker.ended = self.ended
        self.tracker.start(pos, setup=setup, now_ms=now_ms)

    def journal_work(self, name, arg=None):
        """The journal's seldom work for the logbook (firmware/rewrites.py's name): its
        code loaded for it and dropped after (stock MicroPython keeps a module's code in
        the heap)."""
        from firmware import rewrites

        try:
            getattr(rewrites, name)(self.logbook, arg)
        finally:
            drop_module("firmware", "rewrites")

    def next_seq(self):
        """The number of the next message, for the journal record that goes with it: a
        held lift is said first.  (A move a lift completes, a promotion's piece chosen by
        the next move's first lift, was journaled under the lift's number, and a `since`
        replayed from the journal said it under that number: a host that had the lift
        took the move for it, said before, and lost it: bench/hall_pg.py.)"""
        if self.held_lift is not None:
            self._say_lift()
        return self.outbox.seq + 1

    def _send(self, text):
        if self.held_lift is not None:
            self._say_lift()
        if self.outbox.seq >= self.logbook.seq_reserved:
            self.logbook.reserve()
        return self.outbox.send(text)

    # ---- scanning -----------------------------------------------------------------------

    def step(self, now_ms):
        """One scan: switches -> events -> tracker; then the LED frame if it changed."""
        self.hw.tick(self, now_ms)
        self.hw.matrix.scan(self.rows)
        if self.testing is not None:  # the self-test has the switches and the LEDs
            self.testing.step(self.rows, now_ms)
            self._render()
            return
        if self.after_due:
            self.settle(now_ms, True)  # before this scan's events
        self.debouncer.feed(self.rows, now_ms)
        self.tracker.on_tick(now_ms)
        if self.krieg is not None and self.krieg.expire(now_ms):
            self.tracker.dirty = True
        t = self.tracker
        occ = t.occ
        n = occ.n_diff
        if t.state == CORRECTING and 2 <= n <= 6 and self.krieg is None:
            from firmware import gesture

            gesture.watch(self, now_ms)
        elif self.gesture_ev >= 0:
            self.gesture = None
            self.gesture_ev = -1
        lone = occ.diff[0] if n == 1 and (t.state == CORRECTING or t.state == SETUP) else -1
        if self.debouncer.stuck(lone, n, now_ms):
            how = "closed: a piece is seen where none can be" if occ.actual[lone] else "open: no piece is seen where one stands"
            self._send("alert stuck-switch %s %s" % (t.geo.name(lone), how))
        self._render()
        state = self.tracker.state
        if state != self.last_state:
            self.last_state = state
            self.quiet_since = now_ms
        elif state == IDLE and ticks_diff(now_ms, self.quiet_since) >= QUIET_MS:
            self.quiet_since = now_ms
            self.logbook.idle()  # the work no scan after a move can afford
            if _mem_free is not None and _mem_free() < QUIET_ROOM:
                # MicroPython collects when an allocation finds no room: inside a lift's
                # hints, 10-20 ms more before its LEDs on stock MicroPython (its modules'
                # bytecode is in RAM, for the collector to read through).  A board left
                # idle, the hands away for a second, collects before the heap runs that
                # short: not in the scan that made a move (8-34 ms more there on stock).
                self.collect()

    def _on_switch(self, kind, p, now_ms):
        if self.after_due:  # a move made by an event before it in this scan: its rest first
            self.settle(now_ms)
        a = self.arranging
        if a is not None:
            if a.geo.name(p) != "off":
                self._send(("lift " if kind == LIFT else "place ") + a.geo.name(p))
            if a.switch(kind == LIFT, p, self._send):
                from firmware import arrange

                arrange.arranged(self, now_ms)
            self.tracker.dirty = True
            return
        k = self.krieg
        if k is not None:
            if k.switch(self.tracker, kind == LIFT, p):
                return  # a guess piece: nobody hears of it (L15)
            if kind != LIFT and k.asks(self.tracker, p):
                self._send("ask")
        self.quiet_since = now_ms
        name = self.tracker.geo.name(p)
        if kind == LIFT:
            # The hints first, the host's message after: a lift is what the player waits
            # on.  Anything the lift itself says (a move it completes) goes after it.
            if name != "off":
                self.held_lift = name
            self.tracker.on_lift(p, now_ms)
            self._render()
            self._say_lift()
            return
        if name != "off":
            self._send("place " + name)
        self.tracker.on_place(p, now_ms)
        self._render()

    def _say_lift(self):
        name = self.held_lift
        if name is not None:
            self.held_lift = None
            self._send("lift " + name)

    def _occupancy(self):
        occ = bytearray(144)
        for r in range(12):
            bits = self.rows[r]
            for c in range(12):
                if bits >> c & 1:
                    occ[r * 12 + c] = 1
        return occ

    def _render(self):
        if self.testing is not None:
            self.testing.render(self.frame)
        elif self.tracker.dirty and self.arranging is not None:
            self.tracker.dirty = False
            self.arranging.render(self.frame)
        elif self.tracker.dirty:  # an idle scan draws nothing (and allocates nothing)
            self.tracker.render(self.frame)
            if self.krieg is not None:
                self.krieg.render(self.frame, self.tracker)
        if self.frame != self.shown:
            # A driver still sending the last frame says False: the next scan retries.
            if self.hw.leds.show(self.frame, self.brightness) is not False:
                self.shown[:] = self.frame

    # ---- what the tracker reports (its sink) ------------------------------------------------

    def moved(self, m, lit=False, text=None):
        """A move is made on the board: journal it, then tell the host (in that order).
        A Kriegspiel player's move is an attempt: made on the view, sent, not journaled
        until the umpire's verdict brings the view that follows.  lit: the host's move,
        which the player waits to see: lit first, at once; journaled, said and looked at
        (the game's end, the next turn's moves) after.  Lit, it is not yet accepted: a
        power cut then loses a move the host was never told was made.  text: m's string
        when the caller has it (the host's line)."""
        if text is None:
            text = self.pos.move_str(m)
        fx = None
        if lit and self.krieg is None and self.arranging is None and self.testing is None:
            from firmware import shown  # (loaded at `computer` already)

            fx = shown.effects_before(self.tracker, m)
        self.pos.push(m)
        if self.krieg is not None:
            self.krieg.pending = m
            self._send("attempt %s" % text)
            return
        if fx is not None and self.tracker.preview(fx):
            self._render()
        self.logbook.made(text)
        self.ply += 1
        self._send("move %d %s" % (self.ply, text))
        self.after_due = 1
        if lit:  # (the host's request: its LEDs are lit already)
            self.settle(0)
        else:
            # A move made on the board: the rest (the game's end) in the scan after this
            # one, before that scan's events, or before a request is carried out (settle):
            # no scan waits for all of a move's work.
            self.tracker.end_due = True

    def settle(self, now_ms, scan=False):
        """The rest of a move made on the board, the game's end: the next scans' first
        work (scan: a search for the end, Lippo's when the President is attacked, goes
        END_TRIES moves made and unmade a scan), or all of it before a request or a switch
        is taken.  Then the logbook's checkpoint may fall due (Logbook.settled): it waits
        for the board to stand idle or for the reply to the host's move that made it due,
        some 200 ms of a Lippo game's position unmade and made again on the chip, which no
        scan after a move can afford."""
        if not self.after_due:
            return
        search = self.ending
        if search is None:
            self.pos.trim()
            steps = getattr(self.pos, "end_search", None)
            if steps is not None:
                search = self.ending = steps()
        if search is not None:
            n = END_TRIES if scan else -1
            for _ in search:
                n -= 1
                if n == 0:
                    return  # on in the next scan
            self.ending = None
        self.after_due = 0
        o = self._check_end()
        if self.tracker.end_due:
            self.tracker.look_at_end(o, now_ms)
        self.logbook.settled(scan)

    def took_back(self, m):
        self.pos.pop()
        text = self.pos.move_str(m)
        self.logbook.undone(text)
        self._send("undo %d %s" % (self.ply, text))
        self.ply -= 1
        self.debouncer.stuck_p = FIXING  # no stuck-switch watch until the board is put right

    def note(self, text):
        if text == "start":
            # The pieces stood ready: after a power cut the game goes on, it is not set
            # up again (the hands may be in the middle of the first move).
            self.logbook.write("B %d" % self.next_seq())
        if text == "start" or text == "synced":
            self._send("%s %s" % (text, self.game))
        else:
            self._send(text)

    def declare(self, text, now_ms):
        """End the game as the players or the host say ("resign 1-0", "time 0-1"): journaled,
        then said, like the rules' own ends; the board shows the result (the end frame) and
        reads no more moves (terms.host_end)."""
        self.logbook.write("E %d %s" % (self.next_seq(), text))
        self.ended = self.tracker.ended = host_end(text)
        self._send("end " + text)
        self.tracker.resync(now_ms)

    def _check_end(self):
        o = self.pos.outcome()
        if o is None:
            return None
        text = "%s %s" % (o.reason, o.result())
        if o.points is not None:
            text += " %d %d" % o.points
        # Journaled before it is said, like a move: a host away then still learns it.
        self.logbook.write("E %d %s" % (self.next_seq(), text))
        self._send("end " + text)
        return o

    # ---- host commands (protocol.py parses and answers; these act) -------------------------

    def answer(self, reply, now_ms):
        """Send the reply to a request (protocol.handle's last step), after making sure
        the board still has a game."""
        if self.pos is None:
            self._recover(now_ms)
        self._send(reply)
        self._render()

    def _recover(self, now_ms):
        # A game switch that ran out of memory even on its way back (firmware/power_up.py).
        from firmware import power_up

        try:
            power_up.recover(self, now_ms)
        finally:
            drop_module("firmware", "power_up")

    def new_game(self, gid, fen, now_ms):
        if gid not in GAMES:
            raise Refused("unknown-game", gid)
        if fen is not None and not fen_shape_ok(gid, fen):
            raise Refused("bad-fen", "not a FEN of %s (fields or ranks)" % gid)
        if fen is None:
            # Courier chess's traditional opening (courier.md §4) is played by the board:
            # the game starts from the position after it.
            fen = AFTER_OPENING.get(gid)
        self._begin(gid, lambda: start_position(gid, fen), "N %s %s" % (gid, fen or "-"), fen, None, now_ms)

    def _begin(self, gid, build, head, fen, player, now_ms):
        # A new game (or Kriegspiel view): build() makes its position; head is its first
        # journal record without its number and uid ("N chess -", "K chess white FEN").
        # A game switch's work (firmware/power_up.py), loaded for it and dropped after.
        from firmware import power_up

        try:
            power_up.begin(self, gid, build, head, fen, player, now_ms)
        finally:
            drop_module("firmware", "power_up")

    def _not_kriegspiel(self, what):
        if self.krieg is not None:
            raise Refused("kriegspiel", "%s: the umpire decides on a Kriegspiel player's board" % what)

    def host_move(self, text, now_ms):
        if self.tracker.state == OVER:
            raise Refused("game-over", "the game has ended")
        try:
            m = self.pos.parse_move(text)
        except MoveError as e:
            raise Refused("illegal-move", str(e))
        self.moved(m, lit=True, text=text)
        self.tracker.resync(now_ms, shown=True)
        if _mem_free is not None and _mem_free() < QUIET_ROOM:
            # The player's turn comes next: room for it made now, after these LEDs, not by
            # an allocation that finds none inside the next move's work (or this one's).
            self.collect()
        return text

    def undo(self, now_ms):
        self._not_kriegspiel("undo")
        m = pos_last(self.pos)
        if m is None:
            raise Refused("nothing-to-undo", "no move has been made")
        self.took_back(m)
        self.tracker.resync(now_ms)

    def game_words(self):
        return "%s %s %s" % (self.game, self.uid, self.start_fen or "-")

    def state_words(self):
        t = self.tracker
        state = STATES[t.state]
        if self.testing is not None:
            state = "selftest"
        elif self.arranging is not None:
            state = "arranging"
        return "%s %s %d %s" % (self.game, state, self.ply, self.pos.fen())

    def history(self):
        """The move strings of the game so far, read back from the journal (a list):
        firmware/readback.py's, loaded for it and dropped after."""
        from firmware import readback

        try:
            return list(readback.played(self))
        finally:
            drop_module("firmware", "readback")

    def long_reply(self, head, words):
        """head + words as one reply, however many the words: those that do not fit on
        the reply's line go before it, PIECE bytes of them a line, as continuation lines
        "+ <words>" (docs/protocol.md, Long replies).  Returns the reply's own line."""
        if self.held_lift is not None:  # nothing comes between the pieces and their reply
            self._say_lift()
        piece = []
        size = 0
        for word in words:
            if size + len(word) > PIECE and piece:
                self.outbox.write("+ " + " ".join(piece))
                piece = []
                size = 0
            piece.append(word)
            size += len(word) + 1
        return head + " ".join(piece)

    def leds_text(self):
        buf = bytearray(144)  # (made for the request: a board's heap keeps none for it)
        for p in range(144):
            buf[p] = LED_LETTERS[self.frame[p]]
        return buf.decode()
