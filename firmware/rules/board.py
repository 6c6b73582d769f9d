"""Padded board geometry shared by every game: cells, square names, vectors.

Every game lives in one padded bytearray of SIZE cells, STRIDE cells a row.  A board of
up to 12 x 12 squares sits in it with at least PAD off-board cells on every side, so a
leap of up to PAD files and PAD ranks, or a ray stepping off the edge, lands on OFF and
needs no bounds check.  A cell is a square's index in that array ("sq" in all code);
a square's name is "e4".
"""

from array import array

from .compat import const

N = const(12)  # files = ranks of the largest board
PAD = const(6)  # longest leap in files or ranks (Lippo's Aeroplane jumps 6)
STRIDE = const(18)  # N + PAD: a row, then PAD off-board cells
SIZE = const(450)  # STRIDE * (N + 2 * PAD + 1)

# Cell contents.  A piece is its colour bit plus a type number 1..31, so "is it an
# enemy?" is one AND, and OFF is nobody's piece.
EMPTY = const(0)
WHITE = const(32)
BLACK = const(64)
OFF = const(128)
TYPE = const(31)


def index(file, rank):
    """0-based file and rank -> cell."""
    return (rank + PAD + 1) * STRIDE + file


def file_of(sq):
    return sq % STRIDE


def rank_of(sq):
    return sq // STRIDE - PAD - 1


def delta(dx, dy):
    """A vector in files and ranks -> a cell offset."""
    return dy * STRIDE + dx


def images(a, b):
    """All distinct sign and swap images of the vector (a, b): 4 or 8 of them."""
    out = []
    for x, y in ((a, b), (b, a)):
        for sx in (1, -1):
            for sy in (1, -1):
                v = (sx * x, sy * y)
                if v not in out:
                    out.append(v)
    return out


ORTHO = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (-1, 1), (1, -1), (-1, -1))
ALL8 = ORTHO + DIAG


class Layout:
    """Where a game's squares sit in the padded array, and their names."""

    def __init__(self, files, ranks, letters):
        self.files = files
        self.ranks = ranks
        self.letters = letters
        sqs = array("H", bytes(2 * files * ranks))  # half a tuple's RAM
        i = 0
        for r in range(ranks):
            for f in range(files):
                sqs[i] = index(f, r)
                i += 1
        self.squares = sqs  # a1, b1, ... rank by rank

    def empty_board(self):
        """A new padded array of this game with no piece: OFF around its squares."""
        cells = bytearray(SIZE)
        for i in range(SIZE):
            cells[i] = OFF
        for sq in self.squares:
            cells[sq] = EMPTY
        return cells

    def __getattr__(self, attr):
        # Tables built on first use, 450 bytes each, that most games never ask for:
        # self.blank (an empty board as bytes), self.number.
        if attr == "blank":
            self.blank = bytes(self.empty_board())
            return self.blank
        if attr != "number":
            raise AttributeError(attr)
        num = bytearray(SIZE)
        for i in range(SIZE):
            num[i] = 255
        for i in range(len(self.squares)):
            num[self.squares[i]] = i
        self.number = bytes(num)  # cell -> 0-based square number (a1 = 0), 255 off the board
        return self.number

    def name(self, sq):
        """Cell -> square name; ValueError if the cell is not a square of this game."""
        if not 0 <= sq < SIZE or not sq % STRIDE < self.files or not 0 <= rank_of(sq) < self.ranks:
            raise ValueError("not a square: %r" % sq)
        return self.letters[file_of(sq)] + str(rank_of(sq) + 1)

    def cell(self, name):
        """Square name ("e4") -> cell; ValueError for a name that is not on this board."""
        f = self.letters.find(name[:1]) if name else -1
        digits = name[1:]
        if f < 0 or not 1 <= len(digits) <= 2 or not digits.isdigit() or digits[0] == "0":
            raise ValueError("no square %r on this board" % name)
        r = int(digits) - 1
        if r >= self.ranks:
            raise ValueError("no square %r on this board" % name)
        return index(f, r)

    def parse_squares(self, text):
        """Leading square names of text -> (list of cells, rest of text)."""
        # (cell()'s checks inline: a host's `move` line is parsed before its LEDs are lit)
        out = []
        i = 0
        n = len(text)
        letters = self.letters
        while i < n:
            f = letters.find(text[i])
            if f < 0:
                break
            j = i + 1
            while j < n and "0" <= text[j] <= "9":
                j += 1
            if j == i + 1:
                break
            # "e1" then "1": a square name never has a leading zero and at most 2 digits.
            if j - i > 3 or (j - i == 3 and text[i + 1] == "0"):
                raise ValueError("bad square in %r" % text)
            r = int(text[i + 1 : j]) - 1
            if not 0 <= r < self.ranks:
                raise ValueError("no square %r on this board" % text[i:j])
            out.append(index(f, r))
            i = j
        return out, text[i:]
