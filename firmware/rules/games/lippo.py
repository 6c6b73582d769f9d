"""Lippo's New Chess Game (Tallinn 1934) on 12 x 12: lippo.md with its recommended readings.

No check (A14): every move by the pieces' powers is legal, and the President can be
taken.  The game ends when a President is taken (§9), when the side to move must
surrender (4 а, A15) or is in patt (4 б, A16), and after a §14 protest or a §15
declaration has run its course.  The result is by points (§8.4, A17).

FEN: the six standard fields, then optionally three more (docs/notation.md):
  7  flags: B/b bonus Soldier taken (§12), F/f Fougasses converted (§11),
     D/d a §6 demand for a President move pending against White/Black; "-" if none
  8  squares still owed a §11 Soldier, comma-separated, or "-"
  9  plies left before a §14/§15 end, or "-"
"""

from ..board import WHITE, BLACK, EMPTY, OFF, ALL8, ORTHO, DIAG, delta, file_of, rank_of, index
from ..game import Game, PAWN, leap, leap_images, slide, two_stage, blast
from ..position import Position, Outcome, FenError, MoveError, CASTLE, BONUS, BLAST, CAPTURE

START = (
    "kmhagdpgahmk/eontlffltnoe/ussssssssssu/12/12/12/12/12/12/"
    "USSSSSSSSSSU/EONTLFFLTNOE/KMHAGDPGAHMK w KQkq - 0 1"
)


def _times(k, dirs):
    return [(k * x, k * y) for x, y in dirs]


def _perpendicular(t):
    # The two unit diagonals at right angles to the diagonal jump t (lippo.md §5.6).
    sx = 1 if t[0] > 0 else -1
    sy = 1 if t[1] > 0 else -1
    return [(1, 0), (-1, 0), (-sx, sy), (sx, -sy)]


def _sideways(t):
    # The Tank's 1-3 squares at right angles to its 3-square jump (§5.11).
    if t[0]:
        return [(0, k) for k in (1, 2, 3, -1, -2, -3)]
    return [(k, 0) for k in (1, 2, 3, -1, -2, -3)]


def _sideways1(t):
    return [(0, 1), (0, -1)] if t[0] else [(1, 0), (-1, 0)]


def _pieces():
    # letter, name, points, moves: lippo.md §2 and §4.1; the order is notation.md's.
    # A function, so that the descriptions are garbage once the tables are built.
    return (
        ("P", "President", 194, (leap(ALL8),)),
        ("D", "Adjutant", 12, (slide(ALL8),)),
        ("G", "Gas", 14, (leap(ALL8), two_stage(_times(4, ALL8), lambda t: ALL8, True))),
        ("A", "Aeroplane", 13, (leap([v for k in range(1, 7) for v in _times(k, ALL8)]),)),
        ("H", "Shrapnel", 8, (two_stage(_times(3, ALL8), lambda t: DIAG, True),)),
        ("M", "Mortar", 6, (two_stage(_times(3, DIAG), _perpendicular, True),)),
        ("K", "Fortress", 10, (slide(ORTHO),)),
        ("E", "Grenade", 7, (two_stage(_times(4, ALL8), lambda t: ORTHO, False),)),
        ("O", "Officer", 5, (slide(DIAG),)),
        ("N", "Cavalry", 4, (leap_images((1, 2)),)),
        ("T", "Tank", 11, (leap(ORTHO), two_stage(_times(3, ORTHO), _sideways, True))),
        ("L", "Machine-gun", 9, (leap(DIAG), two_stage(_times(2, ORTHO), _sideways1, True))),
        ("F", "Fougasse", 2, (blast(ALL8),)),
        ("U", "Under-officer", 3, (leap(DIAG),)),
        ("S", "Soldier", 1, (PAWN,)),
    )

# A12: short castling on the m-side, long on the a-side; no attack conditions.
CASTLINGS = (
    (True, "K", "g1", "i1", "m1", "h1", ("h1", "i1", "k1", "l1"), ()),
    (True, "Q", "g1", "e1", "a1", "f1", ("b1", "c1", "d1", "e1", "f1"), ()),
    (False, "k", "g12", "i12", "m12", "h12", ("h12", "i12", "k12", "l12"), ()),
    (False, "q", "g12", "e12", "a12", "f12", ("b12", "c12", "d12", "e12", "f12"), ()),
)

GAME = Game("lippo", 12, 12, "abcdefghiklm", _pieces(), START, royal="P")
GAME.set_castlings(CASTLINGS)
GAME.castle_rook = GAME.type_of("K")
GAME.double_ranks = (2, 9)  # A8: only from the Soldier home rank
GAME.promo_optional = True  # A10

PRESIDENT = GAME.royal
SOLDIER = GAME.pawn
FOUGASSE = GAME.type_of("F")


def _promotion_table():
    # §13, A10: the two pieces the initial array puts on the arrival file (not the
    # Fougasse); on the g-file (the Presidents' file) any piece but President and Fougasse.
    # A Soldier is not offered: becoming a Soldier is declining (the plain move).
    # One bytes for every file, and where each file's types start (13 offsets).
    back = "KMHAGDPGAHMK"
    second = "EONTLFFLTNOE"
    types = bytearray()
    at = bytearray([0])
    for f in range(12):
        if back[f] == "P":
            letters = "DGAHMKEONTLU"
        else:
            letters = back[f] + ("" if second[f] == "F" else second[f])
        for c in letters:
            types.append(GAME.type_of(c))
        at.append(len(types))
    return bytes(types), bytes(at)


_PROMO_TYPES, _PROMO_AT = _promotion_table()

# Flag bits of LippoPosition.flags, per side index (0 White, 1 Black).
BONUS_TAKEN = (1, 2)
CONVERTED = (4, 8)
DEMAND = (16, 32)
_FLAG_LETTERS = "BbFfDd"

HOME_RANK = (2, 9)  # the Soldier home rank, 0-based
FOUGASSE_HOMES = ((index(5, 1), index(6, 1)), (index(5, 10), index(6, 10)))  # f2 g2 / f11 g11
_NEIGHBOURS = tuple(delta(x, y) for x, y in ALL8)

PERPETUAL_PLIES = 12  # §14, A18: 6 more moves by each side
DECLARED_PLIES = 112  # §15, A19: 56 more moves by each side


class LippoPosition(Position):
    """A Lippo position: the core's generator plus §6, §11, §12, game end and points."""

    def _set_extra(self, extra):
        self.flags, self.pending, left = extra
        self.end_ply = self.ply() + left if left is not None else None
        self.xstack = []
        self._changed()

    def _changed(self):
        # end_reason() is cached until the position changes: the board asks it after
        # every move, and a lifted piece's hints then need no second full generation.
        self._end = 0  # 0: not known

    def _parse_extra(self, fields, cells):
        if len(fields) not in (0, 3):
            raise FenError("lippo takes 6 or 9 FEN fields, got %d" % (6 + len(fields)))
        if not fields:
            return 0, (), None
        flags = 0
        if fields[0] != "-":
            for ch in fields[0]:
                i = _FLAG_LETTERS.find(ch)
                if i < 0 or flags & (1 << i):
                    raise FenError("bad lippo flags field %r" % fields[0])
                flags |= 1 << i
        pending = ()
        if fields[1] != "-":
            homes = FOUGASSE_HOMES[0] + FOUGASSE_HOMES[1]
            try:
                pending = tuple(self.game.layout.cell(n) for n in fields[1].split(","))
            except ValueError:
                raise FenError("bad pending-Soldier field %r" % fields[1])
            for sq in pending:
                side = 0 if sq in FOUGASSE_HOMES[0] else 1
                if sq not in homes or not flags & CONVERTED[side] or pending.count(sq) > 1:
                    raise FenError("%s is not owed a Soldier" % self.game.layout.name(sq))
        left = None
        if fields[2] != "-":
            try:
                left = int(fields[2])
            except ValueError:
                left = -1
            if left < 0:
                raise FenError("bad plies-left field %r" % fields[2])
        return flags, pending, left

    def _extra_fields(self):
        if not self.flags and not self.pending and self.end_ply is None:
            return []
        flags = "".join(c for i, c in enumerate(_FLAG_LETTERS) if self.flags >> i & 1)
        pending = ",".join(self.game.layout.name(sq) for sq in self.pending)
        left = "-" if self.end_ply is None else str(max(0, self.end_ply - self.ply()))
        return [flags or "-", pending or "-", left]

    # ---- moves ---------------------------------------------------------------------

    def promotions(self, to):
        f = file_of(to)
        return _PROMO_TYPES[_PROMO_AT[f] : _PROMO_AT[f + 1]]

    def _gen_piece(self, frm, t, ms):
        n = len(ms)
        Position._gen_piece(self, frm, t, ms)
        if t != PRESIDENT:
            return
        side = self.us >> 6
        back = 11 if side == 0 else 0
        if self.flags & BONUS_TAKEN[side] or rank_of(frm) == back:
            return
        # §12, A11: a President move that reaches the enemy back rank may bring a Soldier.
        for i in range(n, len(ms)):
            m = ms[i]
            to = m >> 9 & 511
            if rank_of(to) == back:
                for f in self._bonus_files(file_of(to), side):
                    ms.append(m | BONUS << 19 | (f + 1) << 23)

    def _bonus_files(self, f, side):
        # The Soldier home rank on the President's file, or if that square is taken the
        # first empty square to the left or to the right, at the owner's choice.
        cells = self.cells
        r = HOME_RANK[side]
        if cells[index(f, r)] == EMPTY:
            return (f,)
        out = []
        for step in (-1, 1):
            g = f + step
            while 0 <= g < 12 and cells[index(g, r)] != EMPTY:
                g += step
            if 0 <= g < 12:
                out.append(g)
        return out

    def _more_effects(self, m, buf, n):
        if m >> 19 & 15 != BONUS:
            return 0
        buf[2 * n] = index((m >> 23 & 31) - 1, HOME_RANK[self.us >> 6])
        buf[2 * n + 1] = self.us | SOLDIER
        return 1

    def view_extra(self, colour):
        side = colour >> 6
        flags = "".join(c for i, c in enumerate(_FLAG_LETTERS) if self.flags >> i & 1 and i & 1 == side)
        pending = ",".join(self.game.layout.name(sq) for sq in self.pending if sq in FOUGASSE_HOMES[side])
        left = "-" if self.end_ply is None else str(max(0, self.end_ply - self.ply()))
        if not flags and not pending and left == "-":
            return []
        return [flags or "-", pending or "-", left]

    def _move_suffix(self, m):
        if m >> 19 & 15 == BONUS:
            side = self.us >> 6
            return "," + self.game.layout.name(index((m >> 23 & 31) - 1, HOME_RANK[side]))
        return ""

    def legal_moves(self):
        """The moves of the side to move; none once the game is over (§8.3)."""
        if self._end != 0:  # the end known already (end_reason): the moves alone
            return [] if self._end else self._moves()
        ms, reason = self._moves_and_end()
        self._end = reason
        return [] if reason else ms

    def end_reason(self, attacked=None):
        """Why the game is over, or None: president-captured, surrender, patt, no-moves, claim.
        Found without listing every move where it can be (the first that answers ends
        the search): the board asks it after every move.  attacked: a test giving
        attacked()'s answers, for the position as it stands (the engine's, by sets)."""
        if self._end == 0:
            for _ in self.end_search(attacked):
                pass
        return self._end

    def _piecewise(self):
        return type(self).legal_moves is LippoPosition.legal_moves and self.end_reason() is None \
            and not self.flags & DEMAND[self.us >> 6]

    def end_search(self, attacked=None):
        """end_reason()'s search, a generator that yields after each move it makes and
        unmakes (some 2.7 ms each on the chip) and leaves the answer for end_reason(): the
        board runs a few of them a scan (firmware/app.py).  _moves_and_end's reason, a
        piece's moves at a time (the same rules); attacked as end_reason's (not asked
        after a move made)."""
        if self._end != 0:
            return
        if not self.kings[0] or not self.kings[1] or self.end_ply is not None \
                or self.flags & DEMAND[self.us >> 6]:
            self._end = self._moves_and_end()[1]
            return
        us = self.us
        them = us ^ (WHITE | BLACK)
        p = self.kings[us >> 6]
        cells = self.cells
        ms = []
        if (attacked or self.attacked)(p, them):
            # Whether some move ends the attack does not hang on the order they are tried
            # in: the President's own first, most often one of them does; then the other
            # pieces' captures (the attacker taken), then their other moves (in square
            # order, a lone answering capture once came after 78 tries).
            enemy = self.kings[them >> 6]
            side = us >> 6
            self._gen_piece(p, cells[p] & 31, ms)
            for m in ms:
                if self._answers(m, side, enemy, them):  # (each try unsets _end)
                    self._end = None
                    return
                yield
            quiet = []
            for sq in self.game.layout.squares:
                if sq != p and cells[sq] & us:
                    del ms[:]
                    self._gen_piece(sq, cells[sq] & 31, ms)
                    for m in ms:
                        if not m & CAPTURE:
                            quiet.append(m)
                        elif self._answers(m, side, enemy, them):
                            self._end = None
                            return
                        else:
                            yield
                    yield
            for m in quiet:
                if self._answers(m, side, enemy, them):
                    self._end = None
                    return
                yield
            self._end = "surrender"
            return
        if self._closed(p, us, them, attacked):
            self._end = "patt"
            return
        for sq in self.game.layout.squares:
            c = cells[sq]
            if c & us:
                self._gen_piece(sq, c & 31, ms)
                if ms:
                    self._end = None
                    return
        self._end = "no-moves"

    def _answers(self, m, side, enemy, them):
        # 4 а), A15: does move m take their President or leave ours (side's) unattacked?
        if m >> 9 & 511 == enemy and m & CAPTURE:
            return True
        self.push(m)
        ok = not self.attacked(self.kings[side], them)
        self.pop()
        return ok

    def _closed(self, p, us, them, attacked=None):
        # 4 б), A16: every neighbour of the President on the board attacked, the President
        # imagined off its square (attacked: as end_reason's).
        attacked = attacked or self.attacked
        cells = self.cells
        cells[p] = EMPTY
        closed = True
        for d in _NEIGHBOURS:
            if cells[p + d] != OFF and not attacked(p + d, them):
                closed = False
                break
        cells[p] = us | PRESIDENT
        return closed

    def moves_from(self, sq, out=None):
        """The moves of the piece on sq, appended to `out` (a new list if None).  Once
        end_reason() is known this allocates nothing but that list."""
        ms = [] if out is None else out
        if self.end_reason() is not None:
            return ms
        if self.flags & DEMAND[self.us >> 6]:
            for m in self._moves():
                if m & 511 == sq:
                    ms.append(m)
            return ms
        return Position.moves_from(self, sq, ms)

    def _moves(self):
        ms = self.pseudo_moves()
        if self.flags & DEMAND[self.us >> 6]:
            safe = self._safe_president_moves(ms)
            if safe:
                return safe
        return ms

    def _safe_president_moves(self, ms):
        # §6, A20: the President's moves to squares the enemy does not attack.
        p = self.kings[self.us >> 6]
        them = self.us ^ (WHITE | BLACK)
        out = []
        for m in ms:
            if m & 511 == p and m >> 19 & 15 != CASTLE:
                self.push(m)
                ok = not self.attacked(m >> 9 & 511, them)
                self.pop()
                if ok:
                    out.append(m)
        return out

    def _moves_and_end(self):
        if not self.kings[0] or not self.kings[1]:
            return [], "president-captured"
        if self.end_ply is not None and self.ply() >= self.end_ply:
            return [], "claim"
        ms = self._moves()
        us = self.us
        them = us ^ (WHITE | BLACK)
        p = self.kings[us >> 6]
        cells = self.cells
        if self.attacked(p, them):
            # 4 а), A15: surrender unless some move ends the attack or takes their President.
            enemy = self.kings[them >> 6]
            for m in ms:
                if m >> 9 & 511 == enemy and m & CAPTURE:
                    return ms, None
                self.push(m)
                ok = not self.attacked(self.kings[us >> 6], them)
                self.pop()
                if ok:
                    return ms, None
            return ms, "surrender"
        # 4 б), A16: patt (_closed); a side with no move at all ends the same way.
        if self._closed(p, us, them):
            return ms, "patt"
        if not ms:
            return ms, "no-moves"
        return ms, None

    def push(self, m):
        us = self.us
        side = us >> 6
        saved = (self.flags, self.pending)
        Position.push(self, m)
        self._end = 0
        cells = self.cells
        changes = None
        if m >> 19 & 15 == BONUS:
            sq = index((m >> 23 & 31) - 1, HOME_RANK[side])
            changes = [(sq, EMPTY)]
            self._put(sq, us | SOLDIER)
            self.flags |= BONUS_TAKEN[side]
        to = m >> 9 & 511
        if self.flags & DEMAND[side] and cells[to] == us | PRESIDENT:
            if not self.attacked(to, us ^ (WHITE | BLACK)):
                self.flags &= ~DEMAND[side]
        # §11, A7: a side left without Soldiers gets them on its Fougasse squares.
        counts = self.counts
        for s, colour in ((0, WHITE), (1, BLACK)):
            if not self.flags & CONVERTED[s] and counts[colour | SOLDIER] == 0:
                self.flags |= CONVERTED[s]
                for sq in FOUGASSE_HOMES[s]:
                    c = cells[sq]
                    if c == EMPTY or c == colour | FOUGASSE:
                        if changes is None:
                            changes = []
                        changes.append((sq, c))
                        self._put(sq, colour | SOLDIER)
                    else:
                        self.pending += (sq,)
        if self.pending:
            keep = ()
            for sq in self.pending:
                if cells[sq] == EMPTY:
                    if changes is None:
                        changes = []
                    changes.append((sq, EMPTY))
                    self._put(sq, (WHITE if sq in FOUGASSE_HOMES[0] else BLACK) | SOLDIER)
                else:
                    keep += (sq,)
            self.pending = keep
        self.xstack.append((saved, changes))

    def trim(self):
        Position.trim(self)
        keep = len(self.stack)
        if len(self.xstack) > keep:
            del self.xstack[: len(self.xstack) - keep]

    def _put(self, sq, code):
        old = self.cells[sq]
        if old:
            self.counts[old] -= 1
        self.cells[sq] = code
        if code:
            self.counts[code] += 1

    def pop(self):
        self._end = 0
        (self.flags, self.pending), changes = self.xstack.pop()
        if changes:
            for i in range(len(changes) - 1, -1, -1):
                sq, old = changes[i]
                self._put(sq, old)
        return Position.pop(self)

    # ---- claims (§6, §14, §15) ---------------------------------------------------------

    def demand_president_move(self, colour):
        """§6: after an illegal move by `colour`, its opponent demands a safe President move."""
        self.flags |= DEMAND[colour >> 6]
        self._end = 0

    def perpetual_attacker(self):
        """§14, A18: the square of the enemy piece that attacked the side to move's President
        after each of the enemy's last 3 moves, or None."""
        if len(self.stack) < 5:
            return None
        us = self.us
        them = us ^ (WHITE | BLACK)
        undone = [self.pop() for _ in range(4)]
        tracked = None
        try:
            for i in range(3):
                now = set(self.attackers(self.kings[us >> 6], them))
                tracked = now if tracked is None else tracked & now
                if i == 2 or not tracked:
                    break
                for _ in range(2):
                    m = undone.pop()
                    tracked = _follow(tracked, m, self)
                    self.push(m)
        finally:
            while undone:
                self.push(undone.pop())
        if not tracked:
            return None
        return min(tracked)

    def claim_perpetual(self):
        """§14: the side to move protests a perpetual attack; the game ends in 6 moves each.
        MoveError if the protest is not allowed."""
        if self.end_reason() is not None:
            raise MoveError("the game is over")
        if self.perpetual_attacker() is None:
            raise MoveError("no piece has attacked the President after each of the last 3 moves")
        self._end_in(PERPETUAL_PLIES)

    def declare_end(self):
        """§15: a player declares the end; the game ends after 56 more moves by each side."""
        if self.end_reason() is not None:
            raise MoveError("the game is over")
        self._end_in(DECLARED_PLIES)

    def _end_in(self, plies):
        end = self.ply() + plies
        if self.end_ply is None or end < self.end_ply:
            self.end_ply = end
        self._end = 0

    # ---- result ----------------------------------------------------------------------

    def points(self):
        """(White's, Black's) points of their own pieces on the board (§8.4)."""
        out = [0, 0]
        pts = self.game.points
        for sq in self.game.layout.squares:
            c = self.cells[sq]
            if c:
                out[c >> 6] += pts[c & 31]
        return out[0], out[1]

    def outcome(self, claim=False):
        reason = self.end_reason()
        if reason is None:
            return None
        w, b = self.points()
        if reason == "surrender":  # A15: the surrendered President counts as lost
            if self.us == WHITE:
                w -= self.game.points[PRESIDENT]
            else:
                b -= self.game.points[PRESIDENT]
        winner = WHITE if w > b else BLACK if b > w else None
        return Outcome(reason, winner, (w, b))


def _follow(squares, m, pos):
    # Where the tracked pieces stand after move m (pushed next on pos).
    frm = m & 511
    to = m >> 9 & 511
    kind = m >> 19 & 15
    out = set()
    for s in squares:
        if s == to and m & CAPTURE:
            continue  # taken
        if s == frm and kind != BLAST:  # a Fougasse's blast leaves it in place
            out.add(to)
            continue
        if kind == CASTLE:
            for c in pos.game.castlings:
                if c.rook == s and c.king == frm and c.king_to == to:
                    s = c.rook_to
        out.add(s)
    return out


POSITION = LippoPosition  # the class a player's Kriegspiel view derives from


def new(fen=None):
    return LippoPosition(GAME, fen)
