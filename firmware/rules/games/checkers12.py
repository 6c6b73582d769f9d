"""Lippo's 12 x 12 checkers (lippo.md §10, A22): Russian-draughts conventions on 144 squares.

Men step diagonally forward and capture forward and backward; kings fly.  Capturing is
compulsory, and so is going on with a capture while one is possible from the square the
piece stopped on (A22's recommended reading; GAME.must_continue = False gives the literal
"if desired").  The route is free, no majority rule, and a king may stop on any free
square beyond its victim, as the spec's reference generator (lippo_check.py) has it.  Jumped pieces stay on the board until the move ends and cannot be
jumped twice.  A man reaching the far rank during a capture goes on as a king.  A side
with no move loses; there are no draw rules.

A move is a small int: the squares it visits, each as square number + 1 in 8 bits from
bit 1 up, and bit 0 set for a capture.  A chain of more than three squares needs a long
int on a 32-bit board; it is made only when such a capture exists.
"""

from array import array

from ..board import WHITE, BLACK, EMPTY, DIAG, STRIDE, delta, rank_of, file_of
from ..game import Game
from ..position import Position, Outcome, FenError

START = (
    "1m1m1m1m1m1m/m1m1m1m1m1m1/1m1m1m1m1m1m/12/12/12/12/12/12/"
    "M1M1M1M1M1M1/1M1M1M1M1M1M/M1M1M1M1M1M1 w - - 0 1"
)

GAME = Game("checkers12", 12, 12, "abcdefghiklm", (("M", "man", 1, ()), ("K", "king", 1, ())), START)
GAME.must_continue = True
MAN = GAME.type_of("M")
KING = GAME.type_of("K")
_DIRS = tuple(delta(x, y) for x, y in DIAG)
_FORWARD = ((delta(1, 1), delta(-1, 1)), (delta(1, -1), delta(-1, -1)))
# The dark squares, the only ones a piece stands on (_check_setup): the generator's loops
# go over these 72, not all 144 (an array: half a tuple's RAM, as Layout.squares).
_DARK = array("H", [sq for sq in GAME.layout.squares if not (file_of(sq) + rank_of(sq)) & 1])


class CheckersPosition(Position):
    """A checkers position: its own generator and push/pop over the shared board and FEN."""

    PLAIN_KINDS = 0  # moves are paths, not from/to/kind ints

    def moves_among(self, ms, sq, out):
        key = self.game.layout.number[sq] + 1  # moves_from's filter, on the list already made
        for m in ms:
            if m >> 1 & 255 == key:  # (move_from(m) == sq, without a call a move: 30 moves, 1 ms on the chip)
                out.append(m)
        return out

    def _check_setup(self, cells, counts, kings, us):
        for sq in self.game.layout.squares:
            c = cells[sq]
            if c and (file_of(sq) + rank_of(sq)) & 1:
                raise FenError("checkers pieces stand on dark squares only (a1 is dark)")
            if c & 31 == MAN and rank_of(sq) == (11 if c & WHITE else 0):
                raise FenError("a man on its far rank must be a king")

    # ---- move ints -------------------------------------------------------------------

    def path(self, m):
        """The cells a move visits, from first to last."""
        sqs = self.game.layout.squares
        out = []
        m >>= 1
        while m:
            out.append(sqs[(m & 255) - 1])
            m >>= 8
        return out

    def move_from(self, m):
        return self.game.layout.squares[(m >> 1 & 255) - 1]

    def move_to(self, m):
        m >>= 1
        while m > 255:
            m >>= 8
        return self.game.layout.squares[m - 1]

    def takes(self, m):
        return m & 1 == 1

    def move_str(self, m):
        name = self.game.layout.name
        return "".join(name(sq) for sq in self.path(m))

    def effects(self, m, buf):
        """The squares a move changes, as (cell, code after) pairs in buf (see Position):
        the path (landings in between stay empty) and the pieces it takes.  buf needs
        room for 2 * (squares visited + pieces taken) entries."""
        p = self.path(m)
        piece = self.cells[p[0]]
        if piece & 31 == MAN and _crowned(self, p):
            piece = piece - MAN + KING
        n = 0
        last = len(p) - 1
        for i in range(len(p)):
            if i < last and p[i] == p[last]:
                continue  # a chain that comes back: the square ends occupied
            buf[2 * n] = p[i]
            buf[2 * n + 1] = piece if i == last else EMPTY
            n += 1
        if m & 1:
            for sq in self._taken(p):  # (the path decoded once: a king's lift lights every chain)
                buf[2 * n] = sq
                buf[2 * n + 1] = EMPTY
                n += 1
        return n

    def captured(self, m):
        """The cells of the pieces a move takes, in order."""
        return self._taken(self.path(m)) if m & 1 else []

    def _taken(self, p):
        # The cells of the pieces taken along the path p: the men between its landings.
        # The mover's own square is empty while it moves, and a king's chain may fly back
        # over it (the mover is still there when push and effects ask): never a victim.
        cells = self.cells
        start = p[0]
        out = []
        for i in range(len(p) - 1):
            a, b = p[i], p[i + 1]
            d = _step(a, b)
            s = a + d
            while s != b:
                if cells[s] != EMPTY and s != start:
                    out.append(s)
                s += d
        return out

    # ---- generation ------------------------------------------------------------------

    def pseudo_moves(self):
        return self.legal_moves()

    def _powers_from(self, sq):
        return None  # the captures of every man decide (compulsory, longest chains)

    def moves_from(self, sq, out=None):
        return self.moves_among(self.legal_moves(), sq, [] if out is None else out)

    def legal_moves(self):
        """Every legal move: the captures if there is one (compulsory), else the plain moves."""
        cells = self.cells
        us = self.us
        num = self.game.layout.number
        them = us ^ (WHITE | BLACK)
        caps = []
        for sq in _DARK:
            c = cells[sq]
            if c & us:
                if c & 31 == MAN:  # a man with no enemy beside it and a free square beyond has no chain
                    for d in _DIRS:
                        if cells[sq + d] & them and cells[sq + d + d] == EMPTY:
                            break
                    else:
                        continue
                cells[sq] = EMPTY  # the moving piece's square is free during its chain
                self._chains(sq, c & 31 == KING, (num[sq] + 1) << 1 | 1, 9, [], caps)
                cells[sq] = c
        if caps:
            return caps
        ms = []
        fwd = _FORWARD[us >> 6]
        for sq in _DARK:
            c = cells[sq]
            if c & us:
                head = (num[sq] + 1) << 1
                if c & 31 == KING:
                    for d in _DIRS:
                        to = sq + d
                        while cells[to] == EMPTY:
                            ms.append(head | (num[to] + 1) << 9)
                            to += d
                else:
                    for d in fwd:
                        if cells[sq + d] == EMPTY:
                            ms.append(head | (num[sq + d] + 1) << 9)
        return ms

    def _jumps(self, sq, king, taken):
        # (victim, landing cells) for each jump available from sq.
        cells = self.cells
        them = self.us ^ (WHITE | BLACK)
        out = []
        for d in _DIRS:
            s = sq + d
            if king:
                while cells[s] == EMPTY:
                    s += d
            x = cells[s]
            if x & them and s not in taken:
                lands = []
                to = s + d
                while cells[to] == EMPTY:
                    lands.append(to)
                    if not king:
                        break
                    to += d
                if lands:
                    out.append((s, lands))
        return out

    def _chains(self, sq, king, m, shift, taken, out):
        num = self.game.layout.number
        last = 11 if self.us == WHITE else 0
        for victim, lands in self._jumps(sq, king, taken):
            taken.append(victim)
            # A22: the king may stop on any free square beyond; from where it stops it
            # must go on capturing if it can (lippo_check.py's ck_capture_sequences).
            for to in lands:
                k = king or rank_of(to) == last
                mm = m | (num[to] + 1) << shift
                if self._jumps(to, k, taken):
                    if not self.game.must_continue:
                        out.append(mm)
                    self._chains(to, k, mm, shift + 8, taken, out)
                else:
                    out.append(mm)
            taken.pop()

    # ---- making moves ----------------------------------------------------------------

    def push(self, m):
        cells = self.cells
        p = self.path(m)
        frm = p[0]
        to = p[-1]
        piece = cells[frm]
        taken = [(sq, cells[sq]) for sq in self._taken(p)] if m & 1 else []  # (captured(m), the path decoded once)
        self.stack.append((m, piece, taken, self.halfmove))
        for sq, c in taken:
            cells[sq] = EMPTY
            self.counts[c] -= 1
        cells[frm] = EMPTY
        crowned = piece & 31 == MAN and _crowned(self, p)
        if crowned:
            self.counts[piece] -= 1
            piece = piece - MAN + KING
            self.counts[piece] += 1
        cells[to] = piece
        self._turn_done(taken or crowned or piece & 31 == MAN)

    def pop(self):
        m, piece, taken, self.halfmove = self.stack.pop()
        self._turn_undone()
        cells = self.cells
        to = self.move_to(m)
        now = cells[to]
        if now != piece:
            self.counts[now] -= 1
            self.counts[piece] += 1
        cells[to] = EMPTY
        cells[self.move_from(m)] = piece
        for sq, c in taken:
            cells[sq] = c
            self.counts[c] += 1
        return m

    def attacked(self, sq, by):
        return False

    def outcome(self, claim=False):
        """A side with no move (no pieces, or all blocked) loses (lippo.md §10)."""
        if self.legal_moves():
            return None
        return Outcome("no-moves", self.us ^ (WHITE | BLACK))


def _crowned(pos, path):
    # A man is crowned if any square of its path is on its far rank (A22: mid-capture too).
    last = 11 if pos.us == WHITE else 0
    for sq in path[1:]:
        if rank_of(sq) == last:
            return True
    return False


def _step(a, b):
    # The diagonal step from a toward b (a rank up is a higher cell: delta(dx, dy)).
    return (STRIDE if b > a else -STRIDE) + (1 if b % STRIDE > a % STRIDE else -1)


def new(fen=None):
    return CheckersPosition(GAME, fen)
