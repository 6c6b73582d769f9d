"""What the board shows that no move under way explains: the last move put back (a takeback),
on its way back, or the next move after a complete one; a man with no move of his own
lifted (unless he is a castling's rook: the tracker's _castle_rook); else squares to put right.

Loaded by the tracker the first time the diff is left unexplained (tracker._correction): a
game whose moves are made cleanly never holds this code (on stock MicroPython a module's
code takes heap).
"""

from firmware import leds
from firmware.rules.board import EMPTY


def _last(pos):
    return pos.stack[-1][0] if pos.stack else None


def _undone(t, m):
    # The tracker's match() of the last move m put back: 0, 1 (on its way back) or 2.
    pos = t.pos
    pos.pop()
    try:
        return t.matcher.match(m, t.occ.n_diff, undo=True)
    finally:
        pos.push(m)


def put_back(t):
    """The last move, if the board shows it put back (the position before it) and it may
    be taken back here; else None."""
    m = _last(t.pos)
    if m is None or not t.takebacks or t.ended is not None or t.locked:
        return None  # (against a host's side only the host takes back: `undo`)
    return m if _undone(t, m) == 2 else None


def on_its_way_back(t):
    """Is every changed square one of the last move's, on its way back (a takeback under
    way, lit as one: render_undoing)?"""
    m = _last(t.pos)
    if m is None or not t.occ.n_diff or not t.takebacks or t.locked:
        return False
    return _undone(t, m) != 0


def explains_after(t, m):
    """Dry run: with m made, would the board show a position or a move under way?"""
    pos = t.pos
    geo = t.geo
    act = t.occ.actual
    pos.push(m)
    try:
        diff = bytearray(len(act))
        n = 0
        for p in geo.game_squares:
            if act[p] != (pos.cells[geo.cell(p)] != EMPTY):
                diff[n] = p
                n += 1
        if n == 0:
            return True
        match = t.matcher.match
        for x in pos.legal_moves():
            if match(x, n, diff):
                return True
        return False
    finally:
        pos.pop()


def render_undoing(t, frame):
    """A takeback under way: what is left to put back as it was, lit."""
    pos = t.pos
    geo = t.geo
    buf = t.matcher.buf
    act = t.occ.actual
    m = _last(pos)
    pos.pop()
    k = pos.effects(m, buf)
    for j in range(k):
        cell = buf[2 * j]
        p = geo.phys(cell)
        before = 1 if pos.cells[cell] else 0
        if act[p] != before:
            frame[p] = leds.MISSING if before else leds.EXTRA
    pos.push(m)
