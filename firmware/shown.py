"""The host's move shown on the board as a move to make (docs/protocol.md, `move` from a host
that plays a side): the tracker lights it with render_shown and asks victims_lifted before
it takes the pieces as put right.  Loaded by the tracker only once a host's move is shown:
a board played by two people never holds this code."""

from firmware import leds
from firmware.rules.board import EMPTY


def render_shown(t, frame):
    """The host's move (t.showing, made on t.pos), still to be made by hand, lit into
    frame: `f` on the man to move while he stands, `d` where a man goes, `x` on a man to
    take off (on the square the mover takes: until it has been lifted); a square already
    put right goes dark."""
    m = t.showing
    pos = t.pos
    geo = t.geo
    buf = t.buf
    act = t.actual
    pos.pop()
    try:
        us = pos.us
        k = pos.effects(m, buf)
        for j in range(k):
            cell = buf[2 * j]
            p = geo.phys(cell)
            before = pos.cells[cell]
            after = buf[2 * j + 1] != EMPTY
            if before != EMPTY and after:
                if not t.touched[p]:
                    frame[p] = leds.CAPTURE
                elif not act[p]:
                    frame[p] = leds.DEST
            elif before != EMPTY:
                if act[p]:
                    frame[p] = leds.FROM if before & us else leds.CAPTURE
            elif after and not act[p]:
                frame[p] = leds.DEST
    finally:
        pos.push(m)



def victims_lifted(t):
    """Has every square where the host's move takes a man and puts its own been lifted?
    (That square is full before and after: only a lift there tells that the victim went.)"""
    m = t.showing
    pos = t.pos
    buf = t.buf
    pos.pop()
    try:
        k = pos.effects(m, buf)
        for j in range(k):
            cell = buf[2 * j]
            if pos.cells[cell] != EMPTY and buf[2 * j + 1] != EMPTY and not t.touched[t.geo.phys(cell)]:
                return False
        return True
    finally:
        pos.push(m)
