"""Debounced lift/place events -> moves, takebacks, corrections and LED frames.

The tracker compares two occupancies of the physical board: `expected`, from the rules
position, and `actual`, from the switches.  The squares where they differ (the diff) are
explained by the legal moves: a move whose squares cover the diff is under way; one whose
result the board shows (and whose captured squares were lifted and placed again) is
complete, and is made after COMMIT_MS of calm, so a piece slid across squares never makes
a move.  Anything no move explains is a wrong placement: the board shows which squares to
fix (CORRECTING) until it matches again.  The move just made, put back, is a takeback.

Every rule of every game reaches the tracker through Position.legal_moves, moves_among and
effects: the tracker knows no game.
"""

from array import array

from firmware import leds
from firmware.rules.board import EMPTY, STRIDE
from firmware.rules.compat import const, late
from firmware.rules.position import CASTLE
from firmware.debounce import ticks_diff
from firmware.squares import Geometry, MARGIN, N


SETUP = const(0)  # waiting for the board to show the position (a new game, or a change
# made from the host: its move, an undo, a position): no move is read until it does
IDLE = const(1)  # the board shows the position
MOVING = const(2)  # a move is under way
PENDING = const(3)  # a complete move waits for calm
PROMOTING = const(4)  # a promotion waits for its piece to be chosen
CORRECTING = const(5)  # the board matches no legal continuation
OVER = const(6)  # the game has ended
STATES = ("setup", "idle", "moving", "pending", "promoting", "correcting", "over")

COMMIT_MS = 400  # calm before a complete move is made
LONG_COMMIT_MS = 2500  # ... when it could still grow into another move (a capture after a
# Fougasse's victim is taken off, a bonus Soldier after the President's move)
LIST_PIECES = 4  # pieces whose moves a scan adds to the turn's list (the board listens between)
KRIEG_PROMO_MS = 3000  # a Kriegspiel board (no takebacks) takes the piece shown after this calm:
# it holds no enemy man whose lift could say that play goes on; elsewhere no time limit

_BLANK = bytes(N * N)

# The frame's passes over the 144 squares, machine code on the chip (compat.compile_fn):
# in Python they cost the host's move some 4 ms before its LEDs on the emulated Pico.
# Each is compiled at its first call, which rebinds it; its source is held by the stand-in
# alone, and freed with it (stock MicroPython's heap).
expect = late("""
def expect(cells: ptr8, cell_at: ptr16, exp: ptr8, touched: ptr16):
    p = 0
    while p < 144:
        c = cell_at[p]
        v = 0
        if c:
            if cells[c]:
                v = 1
        exp[p] = v
        touched[p] = 0
        p += 1
""", "expect", "viper", globals())  # exp[p] = a piece stands on p; no square touched
find_diff = late("""
def find_diff(act: ptr8, exp: ptr8, squares: ptr8, n: int, diff: ptr8) -> int:
    k = 0
    i = 0
    while i < n:
        p = squares[i]
        if act[p] != exp[p]:
            diff[k] = p
            k += 1
        i += 1
    return k
""", "find_diff", "viper", globals())  # the squares where act, exp differ -> their count
# The turn's moves that may explain a diff, out of a Lippo turn's 200 and more: every move
# of a kind not in kinds (PLAIN_KINDS), and, with plain, the plain moves whose two squares
# hold d0 and d1 both.  In Python a capture put down went over the turn's moves twice, some
# 12 ms of its scan on the emulated Pico (22.0 ms from the place to the next scan).
pick = late("""
def pick(ms, n: int, plain: int, kinds: int, d0: int, d1: int, out):
    i = 0
    while i < n:
        x = ms[i]
        m = int(x)
        if (kinds >> ((m >> 19) & 15)) & 1:
            if plain:
                f = m & 511
                t = (m >> 9) & 511
                if (f == d0 or t == d0) and (f == d1 or t == d1):
                    out.append(x)
        else:
            out.append(x)
        i += 1
""", "pick", "viper", globals())


def warm():
    """pick() compiled ahead, some 0.1 s after hello (main.py): its first call compiles
    it, some 10 ms of the first move's place on the chip."""
    pick((), 0, 0, 0, 0, 0, None)


class Tracker:
    """The board's state machine; the shell feeds it events and renders its frame."""

    def __init__(self, sink):
        self.sink = sink  # sink.moved(m), sink.took_back(m), sink.note(text)
        self.actual = bytearray(N * N)
        self.expected = bytearray(N * N)
        self.touched = array("H", bytes(2 * N * N))  # event number of each square's last lift
        self.ev = 0  # events this turn
        self.tentative = None  # the last move seen complete this turn
        self.tentative_ev = 0
        self.diff = bytearray(N * N)
        self.n_diff = 0
        self.diff_ok = False  # diff[:n_diff] holds the squares where actual != expected
        self.buf = array("H", bytes(2 * 200))  # effects() scratch: up to 100 pairs
        self.hint = []  # moves lit for the player (reused)
        self.hint_from = -1  # physical square of the lifted piece the hint is for
        self.complete = []
        self.picked = []  # pick()'s: the turn's moves that may explain the diff (reused)
        self.choices = []
        self.choice = 0
        self.pos = None
        self.geo = None
        self.state = SETUP
        self.pending = None
        self.deadline = 0
        self.promo_up = False
        self.last = None  # physical squares of the last move, as (from, to)
        self.moves = []  # the turn's legal moves, as far as listed (all once listing is None)
        self.listing = None  # the generator listing them, a few pieces a scan (on_tick)
        self.outcome = None
        self.menu = None
        self.starting = False
        self.undoing = False
        self.takebacks = True  # the last move put back is taken back
        self.showing = None  # the host's move the board shows how to make (`move`), until synced
        self.shown_fx = None  # (its stack entry, its effects): firmware/shown.py's, kept
        self.hinted = None  # the move lit as a hint (`hint`), until the next lift or place
        self.locked = 0  # the side the host plays (`computer`): none of its moves is read here
        self.ended = None  # an Outcome the host declared (`end`: a flag fell), or None
        self.end_due = False  # a move made here: the game's end not looked at yet (look_at_end)
        self.dirty = True  # the frame must be drawn again  # the diff is a takeback under way: show only what is left

    # ---- set-up -------------------------------------------------------------------------

    def start(self, pos, setup, now_ms=0):
        """Follow pos; with setup, first wait for the board to show its position."""
        self.pos = pos
        if self.geo is None or self.geo.layout is not pos.game.layout:
            self.geo = Geometry(pos.game.layout)
            self.menu = None
        self.state = SETUP if setup else IDLE
        self.starting = setup
        self.last = None
        self.showing = None
        self._new_turn()
        self._evaluate(now_ms)

    def set_actual(self, occupancy):
        """The switches' state without events (power-up): a 144-byte 0/1 occupancy."""
        self.actual[:] = occupancy
        self.diff_ok = False

    def _new_turn(self):
        pos = self.pos
        self._expect()
        self.tentative = None
        self.pending = None
        self.choices = []
        self.hinted = None
        # The turn's legal moves are listed a few pieces a scan (on_tick), not all at once
        # after the move: a lift's hints come from its piece alone, and whatever needs
        # the whole list before the scans have made it finishes it (_turn_moves).
        self.moves = []
        self.listing = pos.legal_steps(self.moves)
        if self.end_due:  # the move was made here: the end is looked at in the next scan
            self.outcome = self.ended
        else:
            self.outcome = self.ended or pos.outcome()
        if self.outcome is not None:
            self.state = OVER
        elif self.state != SETUP:
            self.state = IDLE

    def _expect(self):
        # The occupancy the position means (this runs before the host's move is lit), and
        # no square touched yet.
        expect(self.pos.cells, self.geo.cell_at, self.expected, self.touched)
        self.diff_ok = False
        self.ev = 0

    def preview(self, fx=None):
        """The host's move, just made on pos: ready render() to draw at once the frame that
        resync(now_ms, shown=True) will draw, before the slow parts (the journal, the end
        of the game, the next turn's legal moves).  False if resync may draw another (the
        pieces stand as after the move already).  resync must follow.  fx: the move's
        effects, made before it (shown.effects_before): not made again to draw it."""
        if fx is not None:
            self.shown_fx = (self.pos.stack[-1], fx)
        self._expect()
        self._find_diff()
        if not self.n_diff:
            return False
        self.state = SETUP
        self.showing = pos_last(self.pos)
        self.dirty = True
        return True

    def resync(self, now_ms, shown=False):
        """The position changed from outside (host move, undo, set position): the board
        waits until the pieces are put to match it, reading no move meanwhile.  shown: the
        change is the host's move just made, lit as a move to make (from, to, victims)."""
        # SETUP even after the end: an undo of the last move waits for its man to go back
        # (never reads that move again); _new_turn makes it OVER again if the end stands.
        self.state = SETUP
        self.starting = False
        self._new_turn()
        st = pos_last(self.pos)
        self.last = None if st is None else self._move_squares(st)
        self.showing = st if shown else None
        self._evaluate(now_ms)

    # ---- events ---------------------------------------------------------------------------

    def on_lift(self, p, now_ms):
        self.hinted = None
        self.actual[p] = 0
        self._changed(p)
        self.ev += 1
        self.touched[p] = self.ev
        self._event(p, now_ms, True)

    def on_place(self, p, now_ms):
        self.hinted = None
        self.actual[p] = 1
        self._changed(p)
        self.ev += 1
        self._event(p, now_ms, False)

    def _changed(self, p):
        # One switch changed: its square enters or leaves the diff (kept in square
        # order), instead of comparing all 144 squares again at every event.
        if not self.diff_ok or self.geo.cell(p) == MARGIN:
            return
        diff = self.diff
        n = self.n_diff
        i = 0
        while i < n and diff[i] < p:
            i += 1
        if i < n and diff[i] == p:  # back as expected: out of the diff
            for j in range(i, n - 1):
                diff[j] = diff[j + 1]
            self.n_diff = n - 1
        elif self.actual[p] != self.expected[p]:
            for j in range(n, i, -1):
                diff[j] = diff[j - 1]
            diff[i] = p
            self.n_diff = n + 1

    def _turn_moves(self):
        """The turn's legal moves, all of them: what the scans have not listed yet is
        listed now."""
        if self.listing is not None:
            for _ in self.listing:
                pass
            self.listing = None
        return self.moves

    def _unplain(self):
        """The turn's moves of kinds not in PLAIN_KINDS (in a list reused: the caller's
        loop must end before the next pick)."""
        ms = self._turn_moves()
        kinds = self.pos.PLAIN_KINDS
        if not kinds:
            return ms
        picked = self.picked
        del picked[:]
        pick(ms, len(ms), 0, kinds, 0, 0, picked)
        return picked

    def look_at_end(self, o, now_ms):
        """The game's end after a move made here (end_due: the scan that made it journaled
        it and told the host; this is the next one's first work, before its events):
        o, the position's outcome (None: the game goes on)."""
        self.end_due = False
        if o is None or self.ended is not None:
            return
        self.outcome = o
        self.state = OVER
        self.pending = None
        self.tentative = None
        self.choices = []
        self._evaluate(now_ms)

    def on_tick(self, now_ms):
        """Called after every scan: makes a pending move once its calm is over; lists a
        few more pieces' moves of the turn (once the game's end is known: the listing
        asks it first, and its search goes a few moves a scan, Board.settle)."""
        if self.listing is not None and not self.end_due:
            n = 0
            for _ in self.listing:
                n += 1
                if n == LIST_PIECES:
                    break
            else:
                self.listing = None
        st = self.state
        if (st == PENDING or st == PROMOTING and not self.takebacks) and self.deadline \
                and ticks_diff(now_ms, self.deadline) >= 0:
            self._commit(self.choices[self.choice] if st == PROMOTING else self.pending, now_ms)

    def choose(self, letter, now_ms):
        """The host picks the promotion piece (its letter, or "-" to decline); False if none."""
        if self.state != PROMOTING:
            return False
        for m in self.choices:
            if self._choice_letter(m) == letter:
                self._commit(m, now_ms)
                return True
        return False

    def _event(self, p, now_ms, lifted):
        if self.geo.cell(p) == MARGIN:
            return  # the margin is a parking place for captured pieces
        if self.state == PROMOTING and p == self._phys_to(self.choices[0]):
            # Lifting the new piece and putting it back shows the next choice.
            if lifted:
                self.promo_up = True
                return
            if self.promo_up:
                self.promo_up = False
                self.choice = (self.choice + 1) % len(self.choices)
                self.dirty = True
                if not self.takebacks:
                    self.deadline = now_ms + KRIEG_PROMO_MS
                self.tentative = self.choices[self.choice]
                self.sink.note("choice " + self._choice_letter(self.choices[self.choice]))
                return
        if self.state == PROMOTING and lifted and not self.promo_up:
            # No time limit: the choice stays open until the host names it (`promote`) or
            # the game moves on (a lift elsewhere): then the piece shown is the one chosen.
            self._commit(self.choices[self.choice], now_ms, self.ev - 1)
            return
        self._evaluate(now_ms)
        m = self.tentative
        if self.state == CORRECTING and m is not None and self._explains_after(m):
            # Nothing explains the change but the next move after a complete one (a
            # quick reply, perhaps onto the very square just played): make that move,
            # keeping what was touched since, and look again.
            self._commit(m, now_ms, self.tentative_ev)

    # ---- the heart: what does the board show? ----------------------------------------------

    def _find_diff(self):
        if not self.diff_ok:
            sq = self.geo.game_squares
            self.n_diff = find_diff(self.actual, self.expected, sq, len(sq), self.diff)
            self.diff_ok = True

    def _evaluate(self, now_ms):
        self.dirty = True
        geo = self.geo
        act = self.actual
        diff = self.diff
        self._find_diff()
        n = self.n_diff
        del self.hint[:]
        self.hint_from = -1
        if self.state == SETUP:
            if n == 0 and (self.showing is None or _shown().victims_lifted(self)):
                self.state = IDLE
                self.showing = None
                self.sink.note("start" if self.starting else "synced")
                self.starting = False
                self._new_turn()
            return
        if self.state == OVER:
            if self.showing is not None:
                # The host's move ended the game: it is still to be made on the board
                # (never read as a takeback of it meanwhile).
                if n == 0 and _shown().victims_lifted(self):
                    self.showing = None
                    self.sink.note("synced")
                return
            if n and self._takeback(now_ms):
                return
            return
        if self.pos.us == self.locked:
            # The host plays this side: the pieces must stay as they stand (a move made
            # for it by hand is shown back, never read).
            self.state = CORRECTING if n else IDLE
            self.pending = None
            self.undoing = False
            return
        complete = self.complete
        if n == 0:
            # The board shows the position again; unless two pieces were lifted and put
            # back on each other's squares: a swap (100-square chess's pawn castling).
            del complete[:]
            if self.ev > 1:
                for m in self._unplain():  # (a plain move never leaves the squares as they were)
                    if self._match(m, 0) == 2:
                        complete.append(m)
            if complete:
                self._complete(now_ms, False)
                return
            self.state = IDLE
            self.pending = None
            return
        pos = self.pos
        # A lifted piece of the side to move, alone: its hints straight from the core.
        # (Unless it could have taken on a square touched this turn: then the same diff
        # may be that capture, complete, and the full analysis below decides.)
        if n == 1 and not act[diff[0]]:
            cell = geo.cell(diff[0])
            if pos.cells[cell] & pos.us:
                # The piece's own moves: among the turn's once they are all listed.
                if self.listing is None:
                    pos.moves_among(self.moves, cell, self.hint)
                else:
                    pos.moves_from(cell, self.hint)
                plain = True
                if self.ev > 1:  # only this lift touched the board yet: nothing to look at
                    for m in self.hint:
                        if pos.takes(m) and self.touched[geo.phys(pos.move_to(m))]:
                            plain = False
                            break
                if plain and self.hint:
                    self.hint_from = diff[0]
                    self.state = MOVING
                    self.pending = None
                    return
                del self.hint[:]
                if plain and not self._castles(n):
                    # A piece with no move lifted: nothing can follow but putting it back.
                    self.state = CORRECTING
                    self.pending = None
                    self.undoing = False
                    return
        del complete[:]
        # A plain move (its from square emptied, its to square filled: PLAIN_KINDS) covers
        # the diff only if every square of it is one of those two: pick() keeps those.
        kinds = pos.PLAIN_KINDS
        ms = self._turn_moves()
        if kinds:
            picked = self.picked
            del picked[:]
            pick(ms, len(ms), 1 if n <= 2 else 0, kinds, geo.cell(diff[0]), geo.cell(diff[n - 1]), picked)
            ms = picked
        for m in ms:
            if kinds >> (m >> 19 & 15) & 1:
                # Its effects are its two squares, f emptied and t filled by the mover (in
                # every game): _match's answer without effects() (a capture put down was
                # matched against some 50 moves of a long-range man, 35 ms on the chip).
                f = m & 511
                t = m >> 9 & 511
                pt = geo.phys(t)
                if act[geo.phys(f)] or not act[pt] or pos.cells[t] != EMPTY and not self.touched[pt]:
                    k = 1
                else:
                    k = 2
            else:
                k = self._match(m, n)
            if k == 2:
                complete.append(m)
            elif k == 1:
                self.hint.append(m)  # under way: what it lights
        if complete:
            covering = len(self.hint) > 0
            del self.hint[:]
            self._complete(now_ms, covering and self._grows(complete[0]))
            return
        if self.hint:
            self.state = MOVING
            self.pending = None
            return
        if self._takeback(now_ms):
            return
        self.state = CORRECTING
        self.pending = None
        self.undoing = self._takeback_under_way()

    def _explains_after(self, m):
        # Dry run: with m made, would the board show a position or a move under way?
        pos = self.pos
        geo = self.geo
        pos.push(m)
        try:
            diff = bytearray(N * N)
            n = 0
            for p in geo.game_squares:
                if self.actual[p] != (pos.cells[geo.cell(p)] != EMPTY):
                    diff[n] = p
                    n += 1
            if n == 0:
                return True
            for x in pos.legal_moves():
                if self._match(x, n, diff):
                    return True
            return False
        finally:
            pos.pop()

    def _grows(self, m):
        # Could the player still be making a bigger move that includes m's squares (a
        # capture after a Fougasse's victim went, castling after the rook moved, the
        # President's move with its bonus Soldier)?
        pos = self.pos
        buf = self.buf
        k = pos.effects(m, buf)
        cells = [buf[2 * j] for j in range(k)]
        # A plain move has 2 effects: never more than m's.
        for x in self._unplain() if k >= 2 else self._turn_moves():
            if x == m:
                continue
            kx = pos.effects(x, buf)
            if kx <= k:
                continue
            for c in cells:
                for j in range(kx):
                    if buf[2 * j] == c:
                        break
                else:
                    break
            else:
                return True
        return False

    def _castles(self, n):
        # The one way an own piece's square is part of another piece's move: the rook of
        # a castling, lifted first.
        pos = self.pos
        if not pos.castling:
            return False
        cell = self.geo.cell(self.diff[0])
        for c in pos.game.castlings:
            if c.rook == cell and pos.castling & c.bit:
                break
        else:
            # Not a castling rook's square, or its side's right to castle with it is gone:
            # no need to look at the royal piece's moves.
            return False
        # A castling is a move of the royal piece: its moves alone, never the turn's list
        # (listed a few pieces a scan, a lift early in the turn finished it: a Lippo
        # Fortress in its corner, 200 and more moves, 38 ms on the emulated Pico).
        k = pos.kings[pos.us >> 6]
        ms = self.picked
        del ms[:]
        if self.listing is None:
            pos.moves_among(self.moves, k, ms)
        else:
            pos.moves_from(k, ms)
        for m in ms:
            if m >> 19 & 15 == CASTLE and self._match(m, n):  # kind_of(m), inline: a lift's path
                return True
        return False

    def _match(self, m, n, diff=None, undo=False):
        """0: m does not explain the diff; 1: m covers it (under way); 2: complete.
        undo: m was just made (pos is the position before it) and is being put back."""
        pos = self.pos
        geo = self.geo
        buf = self.buf
        diff = self.diff if diff is None else diff
        k = pos.effects(m, buf)
        for i in range(n):
            cell = geo.cell(diff[i])
            for j in range(k):
                if buf[2 * j] == cell:
                    break
            else:
                return 0
        act = self.actual
        for j in range(k):
            cell = buf[2 * j]
            p = geo.phys(cell)
            after = buf[2 * j + 1] != EMPTY
            before = pos.cells[cell] != EMPTY
            if undo:
                after, before = before, after
            if act[p] != after:
                return 1
            if after and before and not self.touched[p]:
                return 1  # a capture (or its undoing): the square emptied and filled again
        return 2

    def _complete(self, now_ms, growing):
        complete = self.complete
        m = complete[0]
        if self.tentative is None or self.tentative != m:
            self.tentative = m
            self.tentative_ev = self.ev
        if len(complete) > 1:
            froms = 0
            for x in complete:
                if self.pos.move_from(x) != self.pos.move_from(m) or self.pos.move_to(x) != self.pos.move_to(m):
                    froms += 1
            if froms == 0:
                # The same squares, other pieces: a promotion to choose.
                if self.state != PROMOTING:
                    self.choices = self._promotion_order(complete)
                    self.choice = 0
                    self.promo_up = False
                    self.state = PROMOTING
                    self.deadline = 0 if self.takebacks else now_ms + KRIEG_PROMO_MS
                    self.tentative = self.choices[0]
                    self.sink.note("promote " + " ".join(self._choice_letter(x) for x in self.choices))
                return
            # Two pieces could have done it (two Fougasses by one victim): the one the
            # player touched, else wait for a touch.
            picked = None
            for x in complete:
                if self.touched[self.geo.phys(self.pos.move_from(x))]:
                    picked = x if picked is None else picked
            if picked is None:
                self.state = PENDING
                self.pending = None
                self.deadline = 0
                for x in complete:
                    self.hint.append(x)
                return
            m = picked
        if self.state != PENDING or self.pending != m:
            self.state = PENDING
            self.pending = m
            self.deadline = now_ms + (LONG_COMMIT_MS if growing else COMMIT_MS)

    def _promotion_order(self, ms):
        return promotion_order(self.pos, ms)

    def _choice_letter(self, m):
        return choice_letter(self.pos, m)

    def _commit(self, m, now_ms, keep_after=None):
        """Make m; keep_after: keep the touches of events after that number (they belong
        to the next move already under way)."""
        self.pending = None
        self.menu = None  # the promotion menu's table: made again when next needed (RAM)
        sq = self._move_squares(m)
        self.sink.moved(m)
        self.last = sq
        if self.state != OVER:
            self.state = IDLE
        kept = None
        if keep_after is not None:
            kept = [(p, self.touched[p] - keep_after) for p in range(N * N) if self.touched[p] > keep_after]
        self._new_turn()
        if kept:
            for p, t in kept:
                self.touched[p] = t
                self.ev = max(self.ev, t)
        self._evaluate(now_ms)

    def _move_squares(self, m):
        return (self.geo.phys(self.pos.move_from(m)), self.geo.phys(self.pos.move_to(m)))

    def _phys_to(self, m):
        return self.geo.phys(self.pos.move_to(m))

    def _arrived(self, m):
        p = self.geo.phys(self.pos.move_to(m))
        if not self.actual[p]:
            return False
        return self.pos.cells[self.pos.move_to(m)] == EMPTY or self.touched[p] != 0

    def _takeback_under_way(self):
        # Every changed square is one of the last move's, on its way back.
        m = pos_last(self.pos)
        if m is None or not self.n_diff or not self.takebacks or self.locked:
            return False
        self.pos.pop()
        try:
            return self._match(m, self.n_diff, undo=True) != 0
        finally:
            self.pos.push(m)

    def _takeback(self, now_ms):
        pos = self.pos
        m = pos_last(pos)
        if m is None or not self.takebacks or self.ended is not None or self.locked:
            return False  # (against a host's side only the host takes back: `undo`)
        pos.pop()
        try:
            if self._match(m, self.n_diff, undo=True) != 2:
                return False
        finally:
            pos.push(m)
        self.sink.took_back(m)
        self.state = IDLE
        self._new_turn()
        prev = pos_last(pos)
        self.last = None if prev is None else self._move_squares(prev)
        self._evaluate(now_ms)
        return True

    # ---- the LED frame --------------------------------------------------------------------

    def render(self, frame):
        """Write the colour class of every physical square into frame (bytearray(144))."""
        self.dirty = False
        frame[:] = _BLANK
        st = self.state
        geo = self.geo
        pos = self.pos
        if geo is None:
            return
        if st == CORRECTING and self.undoing:
            # A takeback under way: light what is left to put back as it was.
            m = pos_last(pos)
            pos.pop()
            k = pos.effects(m, self.buf)
            for j in range(k):
                cell = self.buf[2 * j]
                p = geo.phys(cell)
                before = 1 if pos.cells[cell] else 0
                if self.actual[p] != before:
                    frame[p] = leds.MISSING if before else leds.EXTRA
            pos.push(m)
            return
        if st == SETUP or st == CORRECTING or st == OVER and self.showing is not None:
            for i in range(self.n_diff):
                p = self.diff[i]
                frame[p] = leds.MISSING if self.expected[p] else leds.EXTRA
            if st != CORRECTING and self.showing is not None:
                _shown().render_shown(self, frame)
            return
        if st == OVER:
            _menus().render_end(self, frame)
            return
        if self.last is not None and st == IDLE:
            frame[self.last[0]] = leds.LAST
            frame[self.last[1]] = leds.LAST
        if st == IDLE:
            k = pos.kings[pos.us >> 6] if pos.game.check_rules else 0
            if k and pos.is_check():
                frame[geo.phys(k)] = leds.CHECK
            if self.hinted is not None:
                frame[geo.phys(pos.move_from(self.hinted))] = leds.HINT
                frame[geo.phys(pos.move_to(self.hinted))] = leds.HINT
            return
        if st == PROMOTING:
            _menus().render_menu(self, frame)
            return
        if st == PENDING and self.pending is not None:
            frame[geo.phys(pos.move_from(self.pending))] = leds.LAST
            frame[geo.phys(pos.move_to(self.pending))] = leds.LAST
            return
        # MOVING (or an ambiguous PENDING): the moves that could follow.
        buf = self.buf
        us = pos.us
        off = geo.off
        cells = pos.cells
        plain = pos.PLAIN_KINDS if self.hint_from >= 0 else 0
        for m in self.hint:
            if plain >> (m >> 19 & 15) & 1:
                # A plain move of the piece in the hand: its destination, no more.
                cell = m >> 9 & 511
                frame[cell // STRIDE * N + cell % STRIDE + off] = leds.CAPTURE if cells[cell] else leds.DEST
                continue
            k = pos.effects(m, buf)
            for j in range(k):
                cell = buf[2 * j]
                p = cell // STRIDE * N + cell % STRIDE + off  # geo.phys(cell), inline: the hot loop
                before = pos.cells[cell]
                after = buf[2 * j + 1]
                if self.hint_from >= 0:
                    # A piece in the hand: where it may go (and what it takes on the way).
                    if p == self.hint_from:
                        continue
                    if after != EMPTY:
                        frame[p] = leds.CAPTURE if before != EMPTY else leds.DEST
                    elif before != EMPTY and not before & us:
                        frame[p] = leds.CAPTURE
                    elif before == EMPTY and frame[p] == 0:
                        frame[p] = leds.DEST  # a landing on the way (checkers)
                    continue
                # Partway through a move: what is left to do.
                if self.actual[p] != (after != EMPTY):
                    if after != EMPTY:
                        frame[p] = leds.CAPTURE if before != EMPTY else leds.DEST
                    elif frame[p] == 0:
                        frame[p] = leds.FROM if before & us else leds.CAPTURE
        if self.hint_from >= 0:
            frame[self.hint_from] = leds.FROM
        else:
            # The square of a piece in the hand: one a hinted move starts from and whose
            # piece has not arrived yet.
            for m in self.hint:
                if not self._arrived(m):
                    frame[geo.phys(pos.move_from(m))] = leds.FROM

def _shown():
    # The host's move lit as a move to make: code loaded only once a host sends one.
    from firmware import shown

    return shown


def _menus():
    # The promotion menu's frame and the game's end: code loaded only once one is drawn.
    from firmware import menus

    return menus


def pos_last(pos):
    """The last move made on pos, or None."""
    return pos.stack[-1][0] if pos.stack else None


def choice_letter(pos, m):
    """The letter of a promotion move's piece ("-": lippo's Soldier stays a Soldier)."""
    c = pos.move_str(m)[-1]
    return c if "a" <= c <= "z" else "-"


def promotion_order(pos, ms):
    """The promotion moves ms (one from and to, other pieces) in the order the board shows
    their pieces, lifting the new piece and putting it back for the next: the pieces in
    the game's order of choice, then "stay a Soldier" where allowed."""
    out = []
    for m in ms:
        if choice_letter(pos, m) != "-":
            out.append(m)
    for m in ms:
        if choice_letter(pos, m) == "-":
            out.append(m)
    return out
