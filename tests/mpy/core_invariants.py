"""The rules core's invariants, checked along random games of every game: one checker for
the suite (tests/test_invariants.py), the bench (bench/invariants.py) and the MicroPython
unix port (tests/mpy/test_invariants.py).  Nothing in firmware/ imports it: the board pays
nothing for it.

Each check compares what the core keeps as it goes with the same thing worked out here
from the board's bytes alone; what the history alone decides (which units have moved,
chess-T1's Prince promotions, Lippo's bonus Soldiers) is followed here move by move from
what each move says it does (its effects(), itself checked against the cells it leaves):

  after every push  the piece counts, the royal squares, the points, the padding around
                    the board, the castling rights (never gained; their rook, and their
                    king unless a castling moved it, at home), the en-passant square (set
                    exactly after a double step, empty, the pawn beyond it), the game's
                    own marks (Lippo's converted sides, owed Soldiers and bonus Soldiers;
                    the moved units of 100-square chess and Grosschess; chess-T1's Prince
                    promotions), the side to move and the clocks, and the move's effects()
                    (what the board's tracker and the engine's hash are told) against the
                    cells the move left
  after every pop   every byte of the position as it was before the push
  along the games   FEN out and in is the identity (every field, every byte of state);
                    the legal moves, has_legal_move() and the end are those of the same
                    position read from its FEN, with no history behind it
  along searches    (CPython, checked_search) the engine's Tracked: its Zobrist hash and
                    score against a sum over the board, its key against a fresh
                    position's, after every push of our engine's search

    chk = Checker("lippo")
    chk.walk(10000, Rand(1))        # random games, to their end, until 10,000 positions
    chk.violations, chk.problems    # how many, and the first few in words
"""

from firmware.rules import game_module
from firmware.rules.board import BLACK, EMPTY, STRIDE, WHITE

BOTH = WHITE | BLACK
EXTRAS = ("flags", "pending", "moved", "used", "end_ply")  # the games' own state beside the board
FIELDS = ("cells", "counts", "kings", "side to move", "castling", "en passant", "half-move clock",
          "move number", "game state", "stack", "stack top", "second stack")
_DOUBLE = 1  # the core's move kinds (position.py): a pawn's double step
_KEEP = 5  # problems kept in words


def snapshot(pos):
    """Every byte of the position's state: board, counts, royal squares, rights, clocks, the
    game's own fields, and its undo stacks (by length and top entry)."""
    xs = getattr(pos, "xstack", None)
    return (
        bytes(pos.cells), bytes(pos.counts), (pos.kings[0], pos.kings[1]), pos.us, pos.castling, pos.ep,
        pos.halfmove, pos.fullmove, tuple(getattr(pos, a, None) for a in EXTRAS),
        len(pos.stack), pos.stack[-1] if pos.stack else None, None if xs is None else (len(xs), xs[-1] if xs else None),
    )


def differing(a, b, last=len(FIELDS)):
    """The names of the snapshot fields that differ."""
    return [FIELDS[i] for i in range(last) if a[i] != b[i]]


class Checker:
    """The invariants of one game; counts the positions checked and the violations."""

    def __init__(self, gid, fen=None):
        mod = game_module(gid)
        self.mod = mod
        self.gid = gid
        self.fen = fen or getattr(mod, "AFTER_OPENING", None)  # courier: where the board starts
        pos = mod.new(self.fen)
        g = pos.game
        self.game = g
        self.cls = type(pos)
        self.squares = g.layout.squares
        self.blank = g.layout.empty_board()
        self.initial = mod.new().cells  # the start array: 100-square's moved units stand there
        self.paths = gid == "checkers12"  # moves are paths, not from/to/kind ints
        self.by_hand = gid in ("hundred", "grosschess")  # castling rights kept by the rules' own code
        if self.by_hand:
            from firmware.rules.games.hundred import CASTLED, THRONE

            self.castled = CASTLED
            self.throne = THRONE
        # What the history alone decides, followed here move by move from what each move
        # does (its effects): 100-square's units that have moved (a bit a square), chess-T1's
        # Prince promotions used, Lippo's bonus Soldiers had (a bit a side).  A stack: one
        # entry for the start and one a push.
        self.model = [self._model_of(pos)]
        self.buf = [0] * 512
        self.checked = 0  # positions checked after a push
        self.lines = 0  # of them, positions along the games (FEN and moves checked too)
        self.violations = 0
        self.problems = []
        self.ends = {}  # reason -> games ended so

    def fail(self, pos, what):
        self.violations += 1
        if len(self.problems) < _KEEP:
            self.problems.append("%s: %s (%s)" % (self.gid, what, pos.fen()))

    # ---- one push, one pop ----------------------------------------------------------------

    def push(self, pos, m, push=None):
        """Make m on pos (by push(m), default pos.push) and check the position it leaves;
        returns what pop() checks against."""
        before = snapshot(pos)
        buf = self.buf
        after = bytearray(pos.cells)
        n = pos.effects(m, buf)
        for i in range(n):
            after[buf[2 * i]] = buf[2 * i + 1]
        model = self._model_after(pos, m, n)
        mover = pos.us
        (push or pos.push)(m)
        self.model.append(model)
        self.checked += 1
        self.check_state(pos, m, mover, before, after)
        return before

    def pop(self, pos, before, pop=None):
        """Take the last move back (by pop(), default pos.pop) and check that every byte is
        as it was."""
        (pop or pos.pop)()
        self.model.pop()
        now = snapshot(pos)
        if now != before:
            self.fail(pos, "pop left %s changed" % ", ".join(differing(before, now)))

    def check_state(self, pos, m, mover, before, after):
        """The incremental state after move m (by mover) against the board's bytes."""
        g = self.game
        cells = pos.cells
        counts = bytearray(128)
        kings = [0, 0]
        points = [0, 0]
        frame = bytearray(self.blank)
        n_types = len(g.letter)
        for sq in self.squares:
            c = cells[sq]
            if not c:
                continue
            frame[sq] = c
            t = c & 31
            if c & ~(BOTH | 31) or not c & BOTH or c & BOTH == BOTH or not 0 < t < n_types:
                self.fail(pos, "a bad code %d on %s" % (c, g.layout.name(sq)))
                return
            side = 0 if c & WHITE else 1
            counts[c] += 1
            points[side] += g.points[t]
            if t == g.royal:
                if kings[side]:
                    self.fail(pos, "two royal pieces of one side")
                kings[side] = sq
        if frame != cells:
            self.fail(pos, "the padding around the board changed")
        if counts != pos.counts:
            wrong = [g.letter[c & 31] if c & WHITE else g.letter[c & 31].lower()
                     for c in range(128) if counts[c] != pos.counts[c]]
            self.fail(pos, "piece counts wrong for %s after %s" % ("".join(wrong), pos_move(pos, m)))
        if kings[0] != pos.kings[0] or kings[1] != pos.kings[1]:
            self.fail(pos, "royal squares %r, the board has %r" % (list(pos.kings), kings))
        own_points = getattr(pos, "points", None)
        if own_points is not None and tuple(own_points()) != (points[0], points[1]):
            self.fail(pos, "points %r, the board has %r" % (own_points(), points))
        if after != cells:
            self._effects(pos, m, after)
        if pos.us != mover ^ BOTH:
            self.fail(pos, "the side to move did not change")
        if pos.fullmove != before[7] + (1 if mover == BLACK else 0):
            self.fail(pos, "move number %d after %d" % (pos.fullmove, before[7]))
        if pos.halfmove != 0 and pos.halfmove != before[6] + 1:
            self.fail(pos, "half-move clock %d after %d" % (pos.halfmove, before[6]))
        self._rights(pos, before[4])
        self._ep(pos, m, mover)
        self._marks(pos)

    def _effects(self, pos, m, after):
        # Lippo's §11 Soldiers are left out of effects() (the board asks for them once the
        # move is made): only the squares of its own undo record may differ.
        allowed = ()
        if self.gid == "lippo":
            allowed = [sq for sq, _ in pos.xstack[-1][1] or ()]
        for sq in self.squares:
            if after[sq] != pos.cells[sq] and sq not in allowed:
                self.fail(pos, "effects() of the last move said %d on %s, the move left %d"
                          % (after[sq], self.game.layout.name(sq), pos.cells[sq]))
                return

    def _rights(self, pos, rights_before):
        g = pos.game  # chess960: a start's castlings are its positions' own
        cells = pos.cells
        if pos.castling & ~rights_before:
            self.fail(pos, "a castling right came back")
        for c in g.castlings:
            if not pos.castling & c.bit:
                continue
            colour = WHITE if c.white else BLACK
            king_home = cells[c.king] == colour | g.royal
            if self.by_hand and not king_home:
                # 100-square §6.1: two castlings a game; after one, the King may walk on.
                king_home = pos.flags & self.castled[0 if c.white else 1]
            if cells[c.rook] != colour | g.castle_rook or not king_home:
                self.fail(pos, "castling right %s without its king and rook at home" % c.letter)

    def _ep(self, pos, m, mover):
        ep = pos.ep
        double = not self.paths and m >> 19 & 15 == _DOUBLE
        if double and ep != ((m & 511) + (m >> 9 & 511)) >> 1:
            self.fail(pos, "no en-passant square after a double step")
        if ep and not double:
            self.fail(pos, "an en-passant square after a move that is no double step")
        if ep:
            beyond = ep + (STRIDE if mover == WHITE else -STRIDE)
            if pos.cells[ep] != EMPTY or pos.cells[beyond] != mover | self.game.pawn:
                self.fail(pos, "en-passant square %s with no pawn beyond it" % self.game.layout.name(ep))

    def _model_of(self, pos):
        # The marks a position read from a FEN starts with: its own.
        if self.by_hand:
            return pos.moved
        if self.gid == "chess-t1":
            return pos.used
        if self.gid == "lippo":
            return pos.flags & 3
        return 0

    def _model_after(self, pos, m, n):
        # The marks after move m (its n effects in self.buf), from the marks before it.
        marks = self.model[-1]
        buf = self.buf
        if self.by_hand:
            # A unit has moved once it arrives on a square by a move; the pawn a King's
            # throne visit puts on its pawn rank has not (hundred.md §6.3, 22).
            number = self.game.layout.number
            placed = m >> 19 & 15 == self.throne
            to = m >> 9 & 511
            for i in range(n):
                bit = 1 << number[buf[2 * i]]
                if buf[2 * i + 1] == EMPTY or placed and buf[2 * i] != to:
                    marks &= ~bit
                else:
                    marks |= bit
        elif self.gid == "chess-t1":
            # R7.4: a Prince that arrives a Konnet has used its side's promotion.
            prince = self.mod.PRINCE
            if pos.cells[m & 511] & 31 == prince and buf[3] & 31 == self.mod.KONNET:
                marks |= 1 if pos.us == WHITE else 2
        elif self.gid == "lippo" and m >> 19 & 15 == 6:  # §12: a bonus Soldier
            marks |= self.mod.BONUS_TAKEN[pos.us >> 6]
        return marks

    def _marks(self, pos):
        cells = pos.cells
        mod = self.mod
        marks = self.model[-1]
        if self.gid == "chess-t1" and pos.used != marks:
            self.fail(pos, "Prince promotions used %d, the game's moves say %d" % (pos.used, marks))
        if self.gid == "lippo":
            if pos.flags & 3 != marks:
                self.fail(pos, "bonus Soldiers had %d, the game's moves say %d" % (pos.flags & 3, marks))
            for side, colour in ((0, WHITE), (1, BLACK)):
                soldiers = 0
                for sq in self.squares:
                    if cells[sq] == colour | mod.SOLDIER:
                        soldiers += 1
                if not soldiers and not pos.flags & mod.CONVERTED[side]:
                    self.fail(pos, "a side without Soldiers not converted (lippo.md §11)")
            for sq in pos.pending:
                side = 0 if sq in mod.FOUGASSE_HOMES[0] else 1
                if cells[sq] == EMPTY or not pos.flags & mod.CONVERTED[side]:
                    self.fail(pos, "a Soldier owed on %s, free or not converted" % self.game.layout.name(sq))
        elif self.by_hand:
            lay = self.game.layout
            for sq in self.squares:
                mark = pos.moved >> lay.number[sq] & 1
                if not cells[sq] or cells[sq] != self.initial[sq]:
                    if mark:
                        self.fail(pos, "%s marked moved with no unit of its start there" % lay.name(sq))
                elif mark != marks >> lay.number[sq] & 1:
                    self.fail(pos, "the unit on its start square %s %s, the game's moves say otherwise"
                              % (lay.name(sq), "marked moved" if mark else "not marked moved"))
            if pos.moved >> len(self.squares):
                self.fail(pos, "a moved mark off the board")

    # ---- along the games ---------------------------------------------------------------

    def check_line(self, pos, ms):
        """pos (its legal moves ms) against the same position read from its FEN: every field,
        every byte of state, the legal moves and the end.  Returns the end (an Outcome or None)."""
        self.lines += 1
        fen = pos.fen()
        try:
            fresh = self.cls(self.game, fen)
        except ValueError as e:
            self.fail(pos, "its own FEN is refused: %s" % e)
            return pos.outcome()
        if fresh.fen() != fen:
            self.fail(pos, "FEN read back as %s" % fresh.fen())
        a = snapshot(pos)
        b = snapshot(fresh)
        diff = differing(a, b, 9)
        if diff:
            self.fail(pos, "read from its FEN, %s differ" % ", ".join(diff))
        theirs = fresh.legal_moves()
        if sorted(ms) != sorted(theirs):
            only = [pos.move_str(x) for x in ms if x not in theirs]
            fresh_only = [fresh.move_str(x) for x in theirs if x not in ms]
            self.fail(pos, "legal moves depend on the history: %s only with it, %s only without"
                      % (" ".join(only) or "none", " ".join(fresh_only) or "none"))
        if pos.has_legal_move() != bool(ms):
            self.fail(pos, "has_legal_move() says %s with %d legal moves" % (pos.has_legal_move(), len(ms)))
        end = pos.outcome()
        if end is None or "repetition" not in end.reason:  # a repetition needs the history
            other = fresh.outcome()
            if (end is None) != (other is None) or end is not None and (
                    end.reason != other.reason or end.winner != other.winner or end.points != other.points):
                self.fail(pos, "the end depends on the history: %r, read from its FEN %r" % (end, other))
        return end

    def walk(self, positions, rng, children=8, plies=500, claims=True, each=None):
        """Random games from the start, each to its end (or `plies` plies), until `positions`
        positions have been checked: along each game, `children` of the moves of every
        position are pushed, checked and popped, then one (a capture one time in three)
        is played and the position it leaves checked against its FEN.  each(pos): called
        at every position along the games (the bench's searches)."""
        starts = getattr(self.mod, "start_fen", None)  # chess960: a numbered start each game
        while self.checked < positions:
            pos = self.mod.new(starts(rng.below(960)) if starts else self.fen)
            self.model = [self._model_of(pos)]
            ply = 0
            while self.checked < positions:
                ms = pos.legal_moves()
                end = self.check_line(pos, ms) if ply else pos.outcome()
                if end is not None or not ms or ply >= plies:
                    reason = end.reason if end is not None else "no-moves" if not ms else "cut"
                    self.ends[reason] = self.ends.get(reason, 0) + 1
                    break
                if each is not None:
                    each(pos)
                k = len(ms)
                for i in range(k if k <= children else children):
                    m = ms[i if k <= children else rng.below(k)]
                    self.pop(pos, self.push(pos, m))
                m = ms[rng.below(k)]
                if rng.below(3) == 0:
                    caps = [x for x in ms if pos.takes(x)]
                    if caps:
                        m = caps[rng.below(len(caps))]
                self.push(pos, m)
                ply += 1
                if claims and rng.below(200) == 0:
                    self._claim(pos, rng)
        return self

    def _claim(self, pos, rng):
        # Lippo's claims change the state beside the moves (§6 demand, §14, §15).
        if self.gid != "lippo" or pos.end_reason() is not None:
            return
        k = rng.below(3)
        if k == 0:
            pos.declare_end()
        elif k == 1 and pos.perpetual_attacker() is not None:
            pos.claim_perpetual()
        elif k == 2:
            pos.demand_president_move(pos.us)


def pos_move(pos, m):
    # The last move's string, read before it was made (the stack holds it): for messages.
    try:
        pos.pop()
    except Exception:  # noqa: BLE001 (a broken position: the move is named by its int)
        return "move %d" % m
    text = pos.move_str(m)
    pos.push(m)
    return text


# ---- the engine's incremental state (CPython: host/engine) ----------------------------------


def tracked_problems(t, squares, fresh=None):
    """What is wrong with the engine's Tracked t: its hash and score against a sum over the
    board, and (fresh: the same position read from its FEN) its key against a fresh one's."""
    from firmware.rules.board import SIZE

    zob = t.tables.zobrist
    val = t.tables.value
    cells = t.pos.cells
    h = 0
    s = 0
    for sq in squares:
        c = cells[sq]
        if c:
            h ^= zob[c * SIZE + sq]
            s += val[c * SIZE + sq]
    out = []
    if h != t.h:
        out.append("the engine's hash is not the board's")
    if s != t.score:
        out.append("the engine's score %d, the board's %d" % (t.score, s))
    if fresh is not None and type(t)(fresh).key() != t.key():
        out.append("the engine's key depends on the history")
    return out


def checked_search(chk, pos, depth, keys=True):
    """Our engine's search of pos to `depth`, with every push of it checked by chk (the
    core's state, effects, the pop) and the engine's own hash, score and key; returns the
    positions checked.  CPython only."""
    from host.engine.search import Searcher
    from host.engine.tables import Tracked

    befores = []
    squares = chk.squares

    class Checked(Tracked):
        def push(self, m):
            befores.append(chk.push(self.pos, m, lambda m: Tracked.push(self, m)))
            fresh = None
            if keys:
                try:
                    fresh = chk.cls(chk.game, self.pos.fen())
                except ValueError:  # a pseudo-legal move of the quiescence left a check behind
                    pass
            for what in tracked_problems(self, squares, fresh):
                chk.fail(self.pos, what)

        def pop(self):
            chk.pop(self.pos, befores.pop(), lambda: Tracked.pop(self))

    work = chk.cls(chk.game, pos.fen())
    s = Searcher(work)
    s.t = Checked(work)
    before = chk.checked
    s.run(depth, None)
    return chk.checked - before
