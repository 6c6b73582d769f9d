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
        cells = array("H", bytes(2 * N * N))  # 288 bytes, where a tuple took 600
        squares = bytearray()
        for p in range(N * N):
            f = p % N - self.dx
            r = p // N - self.dy
            if 0 <= f < layout.files and 0 <= r < layout.ranks:
                cells[p] = index(f, r)
                squares.append(p)
        self._cells = cells
        self.game_squares = bytes(squares)  # the physical squares of the game, in order

    def cell(self, p):
        """Physical square -> game cell, or MARGIN."""
        return self._cells[p]

    def phys(self, cell):
        """Game cell -> physical square."""
        return cell // STRIDE * N + cell % STRIDE + self.off

    def name(self, p):
        """Physical square -> the game's square name, or "off" in the margin."""
        c = self._cells[p]
        return "off" if c == MARGIN else self.layout.name(c)

    def parse(self, name):
        """A game square name -> physical square; ValueError if it is not one."""
        return self.phys(self.layout.cell(name))
