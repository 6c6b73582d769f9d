"""The board: the rules position, the tracker, the journal and the numbered messages.

The shell (main.py) calls step() after every scan with the matrix rows and the time,
and handle() for every line from the host; what the board says goes out through the
outbox.  Nothing here touches hardware: `hw` is a profile object from boards/ with a
matrix, leds, clock and a directory for the journal.
"""

from array import array

from firmware import leds, protocol
from firmware.debounce import Debouncer, LIFT
from firmware.journal import Journal, JournalFull
from firmware.outbox import Outbox
import gc

from firmware.rules import FenError, MoveError, GAMES, fen_shape_ok, forget_games, new_position
from firmware.rules.board import WHITE, BLACK
from firmware.debounce import ticks_diff
from firmware.tracker import Tracker, CORRECTING, OVER, SETUP, STATES, pos_last

VERSION = "0.1.0"
PROTOCOL = 1
LED_LETTERS = leds.CODES.encode()
AFTER_OPENING = {
    "courier": "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1",
}
SEQ_BLOCK = 256  # sequence numbers reserved in the journal at a time
COMPACT_AFTER = 64  # reservation records in the journal before it is rewritten without them
DEFAULT_GAME = "chess"
STUCK_MS = 10000  # a lone square wrong this long is reported as a stuck switch


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
        self.rows = array("H", bytes(24))
        self.frame = bytearray(144)
        self.text_buf = bytearray(144)  # leds_text's letters, kept: no fresh list per call
        self.shown = bytearray(144)
        self.brightness = hw.default_brightness
        self.pos = None
        self.game = DEFAULT_GAME
        self.start_fen = None
        self.seq_reserved = 0
        self.reservations = 0  # S records in the journal
        self.journal_ok = True
        self._fresh = True  # the journaled game has no move yet
        self.ply = 0  # moves made in the game (or since the host set its position)
        self.stuck_p = -1  # the square watched for a stuck switch
        self.stuck_since = 0
        self.stuck_told = False
        self.krieg = None  # a krieg.Player when the board is one Kriegspiel player's
        self.arranging = None  # an arrange.Arranger during battle chess's screened setup

    # ---- boot -------------------------------------------------------------------------

    def boot(self, now_ms):
        """Resume the journaled game, or wait for a chess set-up; says hello."""
        records = self.journal.load()
        resumed = self._replay(records)
        if not resumed:
            self.pos = new_position(DEFAULT_GAME)
            self.game = DEFAULT_GAME
            self.start_fen = None
        self.hw.matrix.scan(self.rows)
        self.debouncer.reset(self.rows)
        self.tracker.set_actual(self._occupancy())
        # A game with moves resumes at once (the board then shows what to fix, if
        # anything moved while it was off); one still being set up waits for it.
        self._follow(self.pos, setup=not resumed or self._fresh, now_ms=now_ms)
        self._reserve()
        self._send("hello eboard %d %s %s" % (PROTOCOL, self.game, STATES[self.tracker.state]))
        if self.rows[0] == 0x801 and self.rows[11] == 0x801 and sum(self.rows) == 0x1002:
            # Magnets on the four corners alone: the self-test, started without a PC.
            from firmware import selftest

            selftest.start(self, now_ms)
        self._render()

    def _follow(self, pos, setup, now_ms):
        # A Kriegspiel attempt put back is no takeback: the umpire has it already.
        self.tracker.takebacks = self.krieg is None
        self.tracker.start(pos, setup=setup, now_ms=now_ms)

    def _replay(self, records, numbers=True):
        # Rebuild the game from the journal; a record that no longer applies ends it.
        # numbers: also take up the message numbering where it was (at boot only).
        pos = None
        seq = 0
        ply = 0
        self._fresh = True
        for rec in records:
            words = rec.split(" ", 2)
            kind = words[0]
            try:
                if kind == "N":
                    fen = words[2] if len(words) > 2 and words[2] != "-" else None
                    pos = new_position(words[1], fen)
                    self.game = words[1]
                    self.start_fen = fen
                    self._fresh = True
                    self.krieg = None
                    ply = 0
                elif kind == "K":  # a Kriegspiel player's board: K game colour view-FEN
                    side, fen = words[2].split(" ", 1)
                    pos = _view(words[1], fen)
                    self.game = words[1]
                    self.start_fen = fen
                    self._fresh = True
                    self.krieg = _player(side)
                    ply = 0
                elif pos is None:
                    continue
                elif kind == "M":
                    pos.push_str(words[2])
                    pos.trim()
                    self._fresh = False
                    ply += 1
                elif kind == "U":
                    pos.pop()
                    ply -= 1
                elif kind == "P":
                    pos.set_fen(words[2])
                    self.start_fen = words[2]
                    self._fresh = False
                    ply = 0
                elif kind == "C":
                    _claim(pos, words[2])
                elif kind == "V":
                    pos = _view(self.game, words[2])
                    self._fresh = False
                elif kind == "B":
                    self._fresh = False
                if kind != "N" and kind != "K":
                    seq = max(seq, int(words[1]))
            except (ValueError, IndexError):
                break
        if numbers:
            self.outbox.seq = seq
        if pos is None:
            return False
        self.pos = pos
        self.ply = ply
        return True

    def _reserve(self):
        # Sequence numbers survive a reset: a block of them is written down before any is
        # used, and after a reset numbering goes on above the last block written.
        self.seq_reserved = self.outbox.seq + SEQ_BLOCK
        self.reservations += 1
        if self.reservations > COMPACT_AFTER:
            self._compact()
        self._journal("S %d" % self.seq_reserved)

    def _compact(self):
        # A board left on for days answers many requests: keep the journal to the game.
        records = [r for r in self.journal.load() if not r.startswith("S ")]
        records.append("S %d" % self.seq_reserved)
        try:
            self.journal.rewrite(records)
            self.reservations = 0
        except OSError:
            pass  # the old journal is still whole: it just stays long

    def _journal(self, text):
        try:
            self.journal.append(text)
            self.journal_ok = True
            return True
        except JournalFull:
            if self.journal_ok:
                self.journal_ok = False
                self._send("alert journal-full the flash is full: moves are no longer saved")
        except OSError as e:
            self._send("alert journal %s" % e)
        return False

    def _send(self, text):
        if self.outbox.seq >= self.seq_reserved:
            self._reserve()
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
        self.debouncer.feed(self.rows, now_ms)
        self.tracker.on_tick(now_ms)
        if self.krieg is not None and self.krieg.expire(now_ms):
            self.tracker.dirty = True
        self._watch_stuck(now_ms)
        self._render()

    def _watch_stuck(self, now_ms):
        # One square alone off for STUCK_MS, with the board waiting for it: its switch is
        # likely stuck (closed where no piece can be, or never closing under a piece).
        t = self.tracker
        if t.n_diff != 1 or (t.state != CORRECTING and t.state != SETUP):
            self.stuck_p = -1
            return
        p = t.diff[0]
        if p != self.stuck_p:
            self.stuck_p = p
            self.stuck_since = now_ms
            self.stuck_told = False
        elif not self.stuck_told and ticks_diff(now_ms, self.stuck_since) >= STUCK_MS:
            self.stuck_told = True
            how = "closed: a piece is seen where none can be" if t.actual[p] else "open: no piece is seen where one stands"
            self._send("alert stuck-switch %s %s" % (t.geo.name(p), how))

    def _on_switch(self, kind, p, now_ms):
        a = self.arranging
        if a is not None:
            if a.geo.name(p) != "off":
                self._send(("lift " if kind == LIFT else "place ") + a.geo.name(p))
            if a.switch(kind == LIFT, p, self._send):
                from firmware import modes

                modes.arranged(self, now_ms)
            self.tracker.dirty = True
            return
        k = self.krieg
        if k is not None:
            if k.switch(self.tracker, kind == LIFT, p):
                return  # a guess piece: nobody hears of it (L15)
            if kind != LIFT and k.asks(self.tracker, p):
                self._send("ask")
        name = self.tracker.geo.name(p)
        if name != "off":
            self._send(("lift " if kind == LIFT else "place ") + name)
        if kind == LIFT:
            self.tracker.on_lift(p, now_ms)
        else:
            self.tracker.on_place(p, now_ms)
        self._render()

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

    def moved(self, m):
        """A move is made on the board: journal it, then tell the host (in that order).
        A Kriegspiel player's move is an attempt: made on the view, sent, not journaled
        until the umpire's verdict brings the view that follows."""
        text = self.pos.move_str(m)
        if self.krieg is not None:
            self.pos.push(m)
            self.krieg.pending = m
            self._send("attempt %s" % text)
            return
        seq = self.outbox.seq + 1
        self._journal("M %d %s" % (seq, text))
        self.pos.push(m)
        self.ply += 1
        self._send("move %d %s" % (self.ply, text))
        self.pos.trim()
        self._check_end()

    def took_back(self, m):
        self.pos.pop()
        text = self.pos.move_str(m)
        seq = self.outbox.seq + 1
        self._journal("U %d %s" % (seq, text))
        self._send("undo %d %s" % (self.ply, text))
        self.ply -= 1

    def note(self, text):
        if text == "start":
            # The pieces stood ready: after a power cut the game goes on, it is not set
            # up again (the hands may be in the middle of the first move).
            self._journal("B %d" % (self.outbox.seq + 1))
        if text == "start" or text == "synced":
            self._send("%s %s" % (text, self.game))
        else:
            self._send(text)

    def _check_end(self):
        o = self.pos.outcome()
        if o is None:
            return
        text = "end %s %s" % (o.reason, o.result())
        if o.points is not None:
            text += " %d %d" % o.points
        self._send(text)

    # ---- host commands (protocol.py parses; these act) --------------------------------------

    def handle(self, line, now_ms):
        """One line from the host -> exactly one reply message (and any events it causes)."""
        reply = protocol.handle(self, line, now_ms)
        if self.pos is None:
            self._recover(now_ms)
        self._send(reply)
        self._render()

    def _recover(self, now_ms):
        # A game switch that ran out of memory even on its way back: try again with
        # whatever memory is free now, else the default game; a board always has a game.
        forget_games(self.game)
        gc.collect()
        try:
            self._replay(self.journal.load(), numbers=False)
        except MemoryError:
            self.pos = None
        if self.pos is None:
            forget_games(DEFAULT_GAME)
            gc.collect()
            self.pos = new_position(DEFAULT_GAME)
            self.game = DEFAULT_GAME
        self._follow(self.pos, setup=True, now_ms=now_ms)
        self.tracker.resync(now_ms)  # the same game goes on: its last move stays lit

    def new_game(self, gid, fen, now_ms):
        if gid not in GAMES:
            raise protocol.Refused("unknown-game", gid)
        if fen is not None and not fen_shape_ok(gid, fen):
            raise protocol.Refused("bad-fen", "not a FEN of %s (fields or ranks)" % gid)
        if fen is None:
            # Courier chess's traditional opening (courier.md §4) is played by the board:
            # the game starts from the position after it.
            fen = AFTER_OPENING.get(gid)
        self._begin(gid, lambda: new_position(gid, fen), "N %s %s" % (gid, fen or "-"), fen, None, now_ms)

    def _begin(self, gid, build, head, fen, player, now_ms):
        # A new game (or Kriegspiel view): build() makes its position, head is its first
        # journal record.  One game's tables at a time: the old game goes first.
        if gid != self.game:
            self.pos = self.tracker.pos = None
            forget_games(gid)
            gc.collect()
        try:
            pos = build()
            self.journal.rewrite([head, "S %d" % (self.outbox.seq + SEQ_BLOCK)])
        except (protocol.Refused, FenError, JournalFull, MemoryError) as e:
            if self.pos is None:  # back to the game the journal still holds
                pos = None
                forget_games(self.game)
                gc.collect()
                self._replay(self.journal.load(), numbers=False)
                self.tracker.pos = self.pos
            if isinstance(e, FenError):
                raise protocol.Refused("bad-fen", str(e))
            if isinstance(e, JournalFull):
                raise protocol.Refused("journal-full", "the flash is full")
            raise
        self.seq_reserved = self.outbox.seq + SEQ_BLOCK
        self.reservations = 0
        self.pos = pos
        self.game = gid
        self.start_fen = fen
        self.ply = 0
        self.krieg = player
        self.arranging = None
        self._send("newgame %s %s" % (gid, fen or "-"))
        self._follow(pos, setup=True, now_ms=now_ms)

    def _not_kriegspiel(self, what):
        if self.krieg is not None:
            raise protocol.Refused("kriegspiel", "%s: the umpire decides on a Kriegspiel player's board" % what)

    def set_position(self, fen, now_ms):
        self._not_kriegspiel("position")
        self.arranging = None
        try:
            self.pos.set_fen(fen)
        except FenError as e:
            raise protocol.Refused("bad-fen", str(e))
        self._journal("P %d %s" % (self.outbox.seq + 1, fen))
        self.ply = 0
        self.start_fen = fen
        self._send("position %s" % fen)
        self.tracker.resync(now_ms)

    def host_move(self, text, now_ms):
        if self.tracker.state == OVER:
            raise protocol.Refused("game-over", "the game has ended")
        try:
            m = self.pos.parse_move(text)
        except MoveError as e:
            raise protocol.Refused("illegal-move", str(e))
        self.moved(m)
        self.tracker.resync(now_ms)
        return text

    def undo(self, now_ms):
        self._not_kriegspiel("undo")
        m = pos_last(self.pos)
        if m is None:
            raise protocol.Refused("nothing-to-undo", "no move has been made")
        self.took_back(m)
        self.tracker.resync(now_ms)

    def claimed(self, what, now_ms):
        """A lippo claim was made (protocol checked it): journal it, follow it."""
        self._journal("C %d %s" % (self.outbox.seq + 1, what))
        self.tracker.resync(now_ms)
        self._check_end()

    def game_words(self):
        return "%s %s" % (self.game, self.start_fen or "-")

    def state_words(self):
        t = self.tracker
        state = STATES[t.state]
        if self.testing is not None:
            state = "selftest"
        elif self.arranging is not None:
            state = "arranging"
        return "%s %s %d %s" % (self.game, state, self.ply, self.pos.fen())

    def history(self):
        """The move strings of the game so far, read back from the journal."""
        moves = []
        for rec in self.journal.load():
            words = rec.split(" ", 2)
            if words[0] in ("N", "P"):
                moves = []
            elif words[0] == "M":
                moves.append(words[2])
            elif words[0] == "U" and moves:
                moves.pop()
        return moves

    def since(self, n):
        """Re-send the events said after number n: those kept in RAM, and before them
        the moves and takebacks of the journal.  Returns how many lines were sent."""
        kept, low = self.outbox.kept_since(n)
        sent = 0
        if n + 1 < low:
            ply = 0
            for rec in self.journal.load():
                words = rec.split(" ", 2)
                if words[0] == "N" or words[0] == "P":
                    ply = 0
                elif words[0] == "M":
                    ply += 1
                    line = "%s move %d %s" % (words[1], ply, words[2])
                elif words[0] == "U":
                    line = "%s undo %d %s" % (words[1], ply, words[2] if len(words) > 2 else "-")
                    ply -= 1
                if words[0] in ("M", "U") and n < int(words[1]) < low:
                    self.outbox.write(line)
                    sent += 1
        for line in kept:
            # Events only: an old reply would pass for the answer to this request.
            words = line.split(" ", 2)
            if words[1] != "ok" and words[1] != "error":
                self.outbox.write(line)
                sent += 1
        return sent

    def leds_text(self):
        buf = self.text_buf
        for p in range(144):
            buf[p] = LED_LETTERS[self.frame[p]]
        return buf.decode()


def _view(gid, fen):
    # Kriegspiel's modules load only on a Kriegspiel player's board.
    from firmware.rules.kriegspiel import new_view

    return new_view(gid, fen)


def _player(side):
    from firmware.krieg import Player
    from firmware.rules.kriegspiel import colour

    return Player(colour(side))


def _claim(pos, what):
    """Carry out a lippo claim (protocol `claim`, journal record C); MoveError if refused."""
    if what == "perpetual":
        pos.claim_perpetual()
    elif what == "declare":
        pos.declare_end()
    elif what == "demand":
        # §6: the side to move demands it of the side that just moved illegally
        pos.demand_president_move(pos.us ^ (WHITE | BLACK))
    else:
        raise MoveError("no claim %r" % what)
