"""How a player's hands make a move: the squares lifted, then the squares placed on.

The host's (the virtual board's hands, a takeback put right, the club room) and the
benchmarks': the board itself never asks it, so it is kept out of the tracker (on stock
MicroPython a loaded module's code takes heap).
"""

from array import array

from firmware.rules.board import EMPTY


def hand_moves(pos, m):
    """The lifts and places (cells) a player makes to play m: every square m empties or
    takes on is lifted, then every square it fills is placed on."""
    buf = array("H", bytes(2 * 200))
    k = pos.effects(m, buf)
    lifts = []
    places = []
    for j in range(k):
        cell = buf[2 * j]
        if pos.cells[cell] != EMPTY:
            lifts.append(cell)
        if buf[2 * j + 1] != EMPTY:
            places.append(cell)
    return lifts, places
