"""Debounced lift/place events -> moves, takebacks, corrections and LED frames.

The tracker compares two occupancies of the physical board (its Occupancy): `expected`,
from the rules position, and `actual`, from the switches.  The squares where they differ
(the diff) are explained by the turn's legal moves (its Matcher): a move whose squares
cover the diff is under way; one whose result the board shows (and whose captured squares
were lifted and placed again) is complete, and is made after COMMIT_MS of calm, so a piece
slid across squares never makes a move.  A promotion's moves wait for the player's choice
(promotion.py).  Anything no move explains is a wrong placement: the board shows which
squares to fix (CORRECTING) until it matches again; the move just made, put back, is a
takeback (correction.py).  The two classes are here, not in modules of their own: a frozen
module keeps its globals in RAM, and a stock one its code, and the image has a few hundred
bytes to spare.

Every rule of every game reaches the tracker through Position.legal_moves, moves_among and
effects: the tracker knows no game.
"""

from array import array

from firmware import leds
from firmware.rules.board import EMPTY, STRIDE
from firmware.rules.position import CASTLE
from firmware.rules.compat import const, late
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
# The hint list's room, made once a game (Tracker.start): a list made before a lift and grown
# in it is moved by MicroPython's allocator, whose free sends its next searches back to the
# list's old place.  On stock MicroPython, the heap uncollected since a new game's set-up,
# each search for a run of blocks in that lift then went from there through the whole heap,
# some 1 ms each on the emulated Pico (a 100-square chess King's first lift 11.5 ms, 5.8 ms
# again: issue #38).  `del list[:]` keeps the room.  The most moves of one man found over 150
# random games a game: chess 15, 100-square chess 27, Grosschess 21, chess-t1 15, courier 13;
# on a board of more than 100 squares twice the room (Lippo 63, checkers12 10).
_HINT_ROOM = const(32)

# A dark frame, written as a literal: frozen, it stays in the image's flash (bytes(N * N) is
# made in RAM).
_BLANK = (
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
)


# ---- the occupancy diff -------------------------------------------------------------------

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


class Occupancy:
    """What the position means and what the switches show, square by square: `expected`
    is the position's (a man stands on the square, 1, or none, 0), `actual` the switches';
    `diff[:n_diff]` holds the game's squares where they differ, in square order, kept up
    to date event by event.  `touched` holds each square's last lift's number among the
    turn's events (`ev`): a square emptied and filled again (a capture) looks the same as
    one never touched, and only this tells them apart."""

    def __init__(self):
        self.actual = bytearray(N * N)
        self.expected = bytearray(N * N)
        self.touched = array("H", bytes(2 * N * N))  # event number of each square's last lift
        self.ev = 0  # events this turn
        self.diff = bytearray(N * N)
        self.n_diff = 0
        self.diff_ok = False  # diff[:n_diff] holds the squares where actual != expected

    def expect(self, pos, geo):
        """The occupancy pos means, and no square touched yet (a new turn)."""
        expect(pos.cells, geo.cell_at, self.expected, self.touched)
        self.diff_ok = False
        self.ev = 0

    def find(self, geo):
        """diff[:n_diff] made good (all the game's squares compared, if an event could not
        keep it)."""
        if not self.diff_ok:
            sq = geo.game_squares
            self.n_diff = find_diff(self.actual, self.expected, sq, len(sq), self.diff)
            self.diff_ok = True

    def switch(self, p, full, game):
        """Square p's switch is now full (1) or empty (0), an event of the turn; game: p is
        one of the game's squares (the margin's never enter the diff)."""
        self.actual[p] = full
        if self.diff_ok and game:
            # One square enters or leaves the diff (kept in square order), instead of
            # comparing all 144 squares again at every event.
            diff = self.diff
            n = self.n_diff
            i = 0
            while i < n and diff[i] < p:
                i += 1
            if i < n and diff[i] == p:  # back as expected: out of the diff
                for j in range(i, n - 1):
                    diff[j] = diff[j + 1]
                self.n_diff = n - 1
            elif full != self.expected[p]:
                for j in range(n, i, -1):
                    diff[j] = diff[j - 1]
                diff[i] = p
                self.n_diff = n + 1
        self.ev += 1
        if not full:
            self.touched[p] = self.ev


# ---- the turn's moves, matched against the diff ---------------------------------------------

LIST_PIECES = 4  # pieces whose moves a scan adds to the turn's list (the board listens between)

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


class Matcher:
    """The moves of tracker t's turn (t.pos, t.geo), and which of them explain the diff of
    its occupancy (t.occ): a move does when its effects cover every square of the diff; it
    is under way, or complete when the board shows its result and the squares it captures
    on were lifted and filled again."""

    def __init__(self, t):
        self.t = t
        self.buf = array("H", bytes(2 * 200))  # effects() scratch: up to 100 pairs
        self.moves = []  # the turn's legal moves, as far as listed (all once listing is None)
        self.listing = None  # the generator listing them, a few pieces a scan (list_some)
        self.picked = []  # pick()'s: the turn's moves that may explain the diff (reused)
        self.complete = []  # the moves the board shows made (reused)

    def new_turn(self, pos):
        # The turn's legal moves are listed a few pieces a scan (list_some), not all at
        # once after the move: a lift's hints come from its piece alone, and whatever needs
        # the whole list before the scans have made it finishes it (all).
        self.moves = []
        self.listing = pos.legal_steps(self.moves)

    def list_some(self):
        """A few more pieces' moves of the turn listed (a scan's share)."""
        if self.listing is not None:
            n = 0
            for _ in self.listing:
                n += 1
                if n == LIST_PIECES:
                    break
            else:
                self.listed()

    def all(self):
        """The turn's legal moves, all of them: what the scans have not listed yet is
        listed now."""
        if self.listing is not None:
            for _ in self.listing:
                pass
            self.listed()
        return self.moves

    def listed(self):
        # The list made a piece at a time grew by doubling its room: a Lippo turn's 200 and
        # more moves held up to twice that, kept until the turn ends.  Copied once to its
        # length (stock MicroPython's heap and our image's: what a turn keeps at its peak).
        # The grown list is emptied, its room given back at once: a stale word on the C
        # stack (the collector cannot tell it from a pointer) kept all its ~1 KB alive in
        # single plies' `mem` on the emulated Pico, the 200-ply game's peak.
        self.listing = None
        grown = self.moves
        self.moves = grown[:]
        grown.clear()

    def piece_moves(self, cell, out):
        """The moves of the man on cell appended to out: among the turn's once they are
        all listed, else straight from the core."""
        if self.listing is None:
            self.t.pos.moves_among(self.moves, cell, out)
        else:
            self.t.pos.moves_from(cell, out)

    def unplain(self):
        """The turn's moves of kinds not in PLAIN_KINDS (in a list reused: the caller's
        loop must end before the next pick)."""
        ms = self.all()
        kinds = self.t.pos.PLAIN_KINDS
        if not kinds:
            return ms
        picked = self.picked
        del picked[:]
        pick(ms, len(ms), 0, kinds, 0, 0, picked)
        return picked

    def swaps(self):
        """The board shows the position again: the moves that leave it so (two pieces
        lifted and put back on each other's squares, 100-square chess's pawn castling),
        into complete."""
        complete = self.complete
        del complete[:]
        if self.t.occ.ev > 1:
            for m in self.unplain():  # (a plain move never leaves the squares as they were)
                if self.match(m, 0) == 2:
                    complete.append(m)
        return complete

    def sort(self, n, hint):
        """The turn's moves that explain the n squares of the diff: those under way
        appended to hint, those complete into complete (returned)."""
        t = self.t
        pos = t.pos
        geo = t.geo
        occ = t.occ
        act = occ.actual
        diff = occ.diff
        complete = self.complete
        del complete[:]
        # A plain move (its from square emptied, its to square filled: PLAIN_KINDS) covers
        # the diff only if every square of it is one of those two: pick() keeps those.
        kinds = pos.PLAIN_KINDS
        ms = self.all()
        if kinds:
            picked = self.picked
            del picked[:]
            pick(ms, len(ms), 1 if n <= 2 else 0, kinds, geo.cell(diff[0]), geo.cell(diff[n - 1]), picked)
            ms = picked
        for m in ms:
            if kinds >> (m >> 19 & 15) & 1:
                # Its effects are its two squares, f emptied and t filled by the mover (in
                # every game): match's answer without effects() (a capture put down was
                # matched against some 50 moves of a long-range man, 35 ms on the chip).
                f = m & 511
                to = m >> 9 & 511
                pt = geo.phys(to)
                if act[geo.phys(f)] or not act[pt] or pos.cells[to] != EMPTY and not occ.touched[pt]:
                    k = 1
                else:
                    k = 2
            else:
                k = self.match(m, n)
            if k == 2:
                complete.append(m)
            elif k == 1:
                hint.append(m)  # under way: what it lights
        return complete

    def match(self, m, n, diff=None, undo=False):
        """0: m does not explain the diff; 1: m covers it (under way); 2: complete.
        undo: m was just made (pos is the position before it) and is being put back."""
        t = self.t
        pos = t.pos
        geo = t.geo
        buf = self.buf
        occ = t.occ
        diff = occ.diff if diff is None else diff
        k = pos.effects(m, buf)
        for i in range(n):
            cell = geo.cell(diff[i])
            for j in range(k):
                if buf[2 * j] == cell:
                    break
            else:
                return 0
        act = occ.actual
        touched = occ.touched
        for j in range(k):
            cell = buf[2 * j]
            p = geo.phys(cell)
            after = buf[2 * j + 1] != EMPTY
            before = pos.cells[cell] != EMPTY
            if undo:
                after, before = before, after
            if act[p] != after:
                return 1
            if after and before and not touched[p]:
                return 1  # a capture (or its undoing): the square emptied and filled again
        return 2

    def grows(self, m):
        """Could the player still be making a bigger move that includes m's squares (a
        capture after a Fougasse's victim went, castling after the rook moved, the
        President's move with its bonus Soldier)?"""
        pos = self.t.pos
        buf = self.buf
        k = pos.effects(m, buf)
        cells = [buf[2 * j] for j in range(k)]
        # A plain move has 2 effects: never more than m's.
        for x in self.unplain() if k >= 2 else self.all():
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


# ---- the state machine ------------------------------------------------------------------------

class Tracker:
    """The board's state machine; the shell feeds it events and renders its frame.  Its
    parts, by idea: the occupancy diff (occ, occupancy.py), the turn's moves matched
    against it (matcher, matching.py), a promotion's choice (promo, promotion.py, while one
    waits); here the states, the calm before a move is made, the takeback, the host's
    word (its move shown, its side locked, the end it declared) and the LED frame."""

    def __init__(self, sink):
        self.sink = sink  # sink.moved(m), sink.took_back(m), sink.note(text)
        self.occ = Occupancy()
        self.matcher = Matcher(self)
        self.tentative = None  # the last move seen complete this turn
        self.tentative_ev = 0
        self.hint = []  # moves lit for the player (reused; with room, start())
        self.hint_from = -1  # physical square of the lifted piece the hint is for
        self.promo = None  # the promotion waiting (PROMOTING): firmware/promotion.py's
        self.pos = None
        self.geo = None
        self.state = SETUP
        self.pending = None
        self.deadline = 0
        self.last = None  # physical squares of the last move, as (from, to)
        self.outcome = None
        self.starting = False
        self.undoing = False  # the diff is a takeback under way: show only what is left
        self.takebacks = True  # the last move put back is taken back
        self.showing = None  # the host's move the board shows how to make (`move`), until synced
        self.shown_fx = None  # (its stack entry, its effects): firmware/shown.py's, kept
        self.hinted = None  # the move lit as a hint (`hint`), until the next lift or place
        self.locked = 0  # the side the host plays (`computer`): none of its moves is read here
        self.ended = None  # an Outcome the host declared (`end`: a flag fell), or None
        self.end_due = False  # a move made here: the game's end not looked at yet (look_at_end)
        self.dirty = True  # the frame must be drawn again

    # ---- set-up -------------------------------------------------------------------------

    def start(self, pos, setup, now_ms=0):
        """Follow pos; with setup, first wait for the board to show its position."""
        self.pos = pos
        if self.geo is None or self.geo.layout is not pos.game.layout:
            self.geo = Geometry(pos.game.layout)
            self.hint = [None] * (_HINT_ROOM if len(self.geo.game_squares) <= 100 else 2 * _HINT_ROOM)
            del self.hint[:]  # (its room: _HINT_ROOM's why)
        self.state = SETUP if setup else IDLE
        self.starting = setup
        self.last = None
        self.showing = None
        self._new_turn()
        self._evaluate(now_ms)

    def set_actual(self, occupancy):
        """The switches' state without events (power-up): a 144-byte 0/1 occupancy."""
        self.occ.actual[:] = occupancy
        self.occ.diff_ok = False

    def _new_turn(self):
        pos = self.pos
        # The occupancy the position means (this runs before the host's move is lit), and
        # no square touched yet.
        self.occ.expect(pos, self.geo)
        self.tentative = None
        self.pending = None
        self.promo = None
        self.hinted = None
        self.matcher.new_turn(pos)
        if self.end_due:  # the move was made here: the end is looked at in the next scan
            self.outcome = self.ended
        else:
            self.outcome = self.ended or pos.outcome()
        if self.outcome is not None:
            self.state = OVER
        elif self.state != SETUP:
            self.state = IDLE

    def preview(self, fx=None):
        """The host's move, just made on pos: ready render() to draw at once the frame that
        resync(now_ms, shown=True) will draw, before the slow parts (the journal, the end
        of the game, the next turn's legal moves).  False if resync may draw another (the
        pieces stand as after the move already).  resync must follow.  fx: the move's
        effects, made before it (shown.effects_before): not made again to draw it."""
        if fx is not None:
            self.shown_fx = (self.pos.stack[-1], fx)
        occ = self.occ
        occ.expect(self.pos, self.geo)
        occ.find(self.geo)
        if not occ.n_diff:
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
        game = self.geo.cell(p) != MARGIN
        self.occ.switch(p, 0, game)
        if game:  # (the margin is a parking place for captured pieces)
            self._event(p, now_ms, True)

    def on_place(self, p, now_ms):
        self.hinted = None
        game = self.geo.cell(p) != MARGIN
        self.occ.switch(p, 1, game)
        if game:
            self._event(p, now_ms, False)

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
        self.promo = None
        self._evaluate(now_ms)

    def on_tick(self, now_ms):
        """Called after every scan: makes a pending move once its calm is over; lists a
        few more pieces' moves of the turn (once the game's end is known: the listing
        asks it first, and its search goes a few moves a scan, Board.settle)."""
        if not self.end_due:
            self.matcher.list_some()
        st = self.state
        if (st == PENDING or st == PROMOTING and not self.takebacks) and self.deadline \
                and ticks_diff(now_ms, self.deadline) >= 0:
            self._commit(self.promo.shown() if st == PROMOTING else self.pending, now_ms)

    def choose(self, letter, now_ms):
        """The host picks the promotion piece (its letter, or "-" to decline); False if none."""
        if self.state != PROMOTING:
            return False
        m = self.promo.named(self.pos, letter)
        if m is None:
            return False
        self._commit(m, now_ms)
        return True

    def _event(self, p, now_ms, lifted):
        promo = self.promo
        if self.state == PROMOTING:
            if p == self._phys_to(promo.choices[0]):
                # Lifting the new piece and putting it back shows the next choice.
                if lifted:
                    promo.up = True
                    return
                if promo.up:
                    promo.up = False
                    self.tentative = promo.next()
                    self.dirty = True
                    if not self.takebacks:
                        self.deadline = now_ms + _promotion().KRIEG_PROMO_MS
                    self.sink.note("choice " + _promotion().choice_letter(self.pos, self.tentative))
                    return
            if lifted and not promo.up:
                # No time limit: the choice stays open until the host names it (`promote`) or
                # the game moves on (a lift elsewhere): then the piece shown is the one chosen.
                self._commit(promo.shown(), now_ms, self.occ.ev - 1)
                return
        self._evaluate(now_ms)
        m = self.tentative
        if self.state == CORRECTING and m is not None and _correction().explains_after(self, m):
            # Nothing explains the change but the next move after a complete one (a
            # quick reply, perhaps onto the very square just played): make that move,
            # keeping what was touched since, and look again.
            self._commit(m, now_ms, self.tentative_ev)

    # ---- the heart: what does the board show? ----------------------------------------------

    def _evaluate(self, now_ms):
        self.dirty = True
        geo = self.geo
        occ = self.occ
        act = occ.actual
        diff = occ.diff
        occ.find(geo)
        n = occ.n_diff
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
        matcher = self.matcher
        if n == 0:
            # The board shows the position again; unless two pieces were lifted and put
            # back on each other's squares: a swap (100-square chess's pawn castling).
            if matcher.swaps():
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
                matcher.piece_moves(cell, self.hint)
                plain = True
                if occ.ev > 1:  # only this lift touched the board yet: nothing to look at
                    for m in self.hint:
                        if pos.takes(m) and occ.touched[geo.phys(pos.move_to(m))]:
                            plain = False
                            break
                if plain and self.hint:
                    self.hint_from = diff[0]
                    self.state = MOVING
                    self.pending = None
                    return
                del self.hint[:]
                if plain and not self._castle_rook(n):
                    # A piece with no move lifted: nothing can follow but putting it back.
                    self.state = CORRECTING
                    self.pending = None
                    self.undoing = False
                    return
        if matcher.sort(n, self.hint):
            covering = len(self.hint) > 0
            del self.hint[:]
            self._complete(now_ms, covering and matcher.grows(matcher.complete[0]))
            return
        if self.hint:
            self.state = MOVING
            self.pending = None
            return
        if self._takeback(now_ms):
            return
        self.state = CORRECTING
        self.pending = None
        self.undoing = _correction().on_its_way_back(self)

    def _complete(self, now_ms, growing):
        pos = self.pos
        complete = self.matcher.complete
        m = complete[0]
        if self.tentative is None or self.tentative != m:
            self.tentative = m
            self.tentative_ev = self.occ.ev
        if len(complete) > 1:
            froms = 0
            for x in complete:
                if pos.move_from(x) != pos.move_from(m) or pos.move_to(x) != pos.move_to(m):
                    froms += 1
            if froms == 0:
                # The same squares, other pieces: a promotion to choose.
                if self.state != PROMOTING:
                    promo = self.promo = _promotion().Promotion(pos, complete)
                    self.state = PROMOTING
                    self.deadline = 0 if self.takebacks else now_ms + _promotion().KRIEG_PROMO_MS
                    self.tentative = promo.choices[0]
                    self.sink.note("promote " + promo.letters(pos))
                return
            # Two pieces could have done it (two Fougasses by one victim): the one the
            # player touched, else wait for a touch.
            picked = None
            for x in complete:
                if self.occ.touched[self.geo.phys(pos.move_from(x))]:
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

    def _commit(self, m, now_ms, keep_after=None):
        """Make m; keep_after: keep the touches of events after that number (they belong
        to the next move already under way)."""
        self.pending = None
        sq = self._move_squares(m)
        self.sink.moved(m)
        self.last = sq
        if self.state != OVER:
            self.state = IDLE
        kept = None
        touched = self.occ.touched
        if keep_after is not None:
            kept = [(p, touched[p] - keep_after) for p in range(N * N) if touched[p] > keep_after]
        self._new_turn()  # (the promotion's menu goes with it: made again when next needed, RAM)
        if kept:
            occ = self.occ
            for p, t in kept:
                touched[p] = t
                occ.ev = max(occ.ev, t)
        self._evaluate(now_ms)

    def _move_squares(self, m):
        return (self.geo.phys(self.pos.move_from(m)), self.geo.phys(self.pos.move_to(m)))

    def _phys_to(self, m):
        return self.geo.phys(self.pos.move_to(m))

    def _castle_rook(self, n):
        """An own man with no move lifted (n: the diff, his square alone): is he the rook of a
        castling, lifted first?  The one way an own piece's square is part of another piece's
        move.  (Here, not in correction.py: a lift's path must not load a module, some 20 ms
        from stock MicroPython's file system.)"""
        pos = self.pos
        if not pos.castling:
            return False
        cell = self.geo.cell(self.occ.diff[0])
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
        # (Into the hint list, empty here: its room was made at the game's start, _HINT_ROOM.)
        matcher = self.matcher
        ms = self.hint
        k = pos.kings[pos.us >> 6]
        if matcher.listing is None:
            matcher.piece_moves(k, ms)  # (among the turn's moves, all listed)
        else:
            pos.castlings_from(k, ms)  # (the royal piece's other moves not tested)
        for m in ms:
            if m >> 19 & 15 == CASTLE and matcher.match(m, n):  # kind_of(m), inline: a lift's path
                del ms[:]
                return True
        del ms[:]
        return False

    def _arrived(self, m):
        p = self.geo.phys(self.pos.move_to(m))
        if not self.occ.actual[p]:
            return False
        return self.pos.cells[self.pos.move_to(m)] == EMPTY or self.occ.touched[p] != 0

    def _takeback(self, now_ms):
        # The last move put back: taken back.
        m = _correction().put_back(self)
        if m is None:
            return False
        self.sink.took_back(m)
        self.state = IDLE
        self._new_turn()
        prev = pos_last(self.pos)
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
        occ = self.occ
        if st == CORRECTING and self.undoing:
            _correction().render_undoing(self, frame)
            return
        if st == SETUP or st == CORRECTING or st == OVER and self.showing is not None:
            diff = occ.diff
            exp = occ.expected
            for i in range(occ.n_diff):
                p = diff[i]
                frame[p] = leds.MISSING if exp[p] else leds.EXTRA
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
        act = occ.actual
        buf = self.matcher.buf
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
                if act[p] != (after != EMPTY):
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


def _correction():
    # A takeback, or the board put right: code loaded only once a diff is left unexplained.
    from firmware import correction

    return correction


def _promotion():
    # The promotion's choice: code loaded only once a promotion is offered.
    from firmware import promotion

    return promotion
