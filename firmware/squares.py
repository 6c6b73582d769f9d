"""Where a game's squares sit on the 12 x 12 sensor board (notation.md).

A physical square is p = row * 12 + col, row 0 nearest White, 0..143: the index of the
switch matrix and of the LED frame.  A game smaller than 12 x 12 uses the centred
rectangle; the squares outside it are the margin, ignored by move tracking.
"""

from array import array

from firmware.rules.board import PAD, STRIDE, index

N = 12
MARGIN = 0  # cell_of() of a margin square: cell 0 is never a square of any game


class Geometry:
    """Physical square <-> game cell for one game's layout."""

    def __init__(self, layout):
        self.layout = layout
        self.dx = (N - layout.files) // 2
        self.dy = (N - layout.ranks) // 2
        # phys(cell) is one sum: the offset from the padded array's rows to the board's
        self.off = (self.dy - PAD - 1) * N + self.dx
        squares = bytearray()
        self.cell_at = array("H", bytes(2 * N * N))  # cell(p) of every physical square, as a table
        for p in range(N * N):
            c = self.cell(p)
            self.cell_at[p] = c
            if c != MARGIN:
                squares.append(p)
        self.game_squares = bytes(squares)  # the physical squares of the game, in order

    def cell(self, p):
        """Physical square -> game cell, or MARGIN."""
        f = p % N - self.dx
        r = p // N - self.dy
        if 0 <= f < self.layout.files and 0 <= r < self.layout.ranks:
            return index(f, r)
        return MARGIN

    def phys(self, cell):
        """Game cell -> physical square."""
        return cell // STRIDE * N + cell % STRIDE + self.off

    def name(self, p):
        """Physical square -> the game's square name, or "off" in the margin."""
        c = self.cell(p)
        return "off" if c == MARGIN else self.layout.name(c)

    def parse(self, name):
        """A game square name -> physical square; ValueError if it is not one."""
        return self.phys(self.layout.cell(name))
