"""The host's move shown on the board as a move to make (docs/protocol.md, `move` from a host
that plays a side): the tracker lights it with render_shown and asks victims_lifted before
it takes the pieces as put right.  Loaded by the tracker only once a host's move is shown:
a board played by two people never holds this code."""

from firmware import leds
from firmware.rules.board import EMPTY


def effects_before(t, m):
    """What the host's move m does, made before it (pos as before m): a list of (physical
    square, its man before, full after, the man was the mover's)."""
    pos = t.pos
    buf = t.matcher.buf
    us = pos.us
    out = []
    for j in range(pos.effects(m, buf)):
        cell = buf[2 * j]
        before = pos.cells[cell]
        out.append((t.geo.phys(cell), before, buf[2 * j + 1] != EMPTY, before & us))
    return out


def _effects(t):
    # The shown move's effects: kept from before it was made (Board.moved gives them to
    # preview), else made again with the move taken back for a moment.  (The stack's last
    # entry equal, not the same: the rules take a move back and make it again when they
    # look for the game's end, and a position's cached end must not hang on this.)
    pos = t.pos
    kept = t.shown_fx
    if kept is not None and pos.stack and kept[0] == pos.stack[-1]:
        return kept[1]
    m = t.showing
    pos.pop()
    try:
        fx = effects_before(t, m)
    finally:
        pos.push(m)
    t.shown_fx = (pos.stack[-1], fx)
    return fx


def render_shown(t, frame):
    """The host's move (t.showing, made on t.pos), still to be made by hand, lit into
    frame: `f` on the man to move while he stands, `d` where a man goes, `x` on a man to
    take off (on the square the mover takes: until it has been lifted); a square already
    put right goes dark."""
    act = t.occ.actual
    touched = t.occ.touched
    for p, before, after, mine in _effects(t):
        if before != EMPTY and after:
            if not touched[p]:
                frame[p] = leds.CAPTURE
            elif not act[p]:
                frame[p] = leds.DEST
        elif before != EMPTY:
            if act[p]:
                frame[p] = leds.FROM if mine else leds.CAPTURE
        elif after and not act[p]:
            frame[p] = leds.DEST


def victims_lifted(t):
    """Has every square where the host's move takes a man and puts its own been lifted?
    (That square is full before and after: only a lift there tells that the victim went.)"""
    touched = t.occ.touched
    for p, before, after, mine in _effects(t):
        if before != EMPTY and after and not touched[p]:
            return False
    return True
