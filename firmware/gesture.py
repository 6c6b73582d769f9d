"""The result gesture (docs/results.md): the players end a game on the board itself, as on
the usual e-boards, by standing both royal pieces (kings; lippo's Presidents) on the four
centre squares of the game's board: both on light squares, White wins (Black resigns);
both on dark squares, Black wins; one on each, a draw (claimed where the rules core allows
a claim now, else agreed).  The centre is the 2 x 2 block at files (files - 1) // 2 and the
next, ranks (ranks - 1) // 2 and the next: d4-e5 on 8 x 8, e5-f6 on 10 x 10, f6-g7 on
12 x 12, f4-g5 on courier's 12 x 8, c3-d4 on gardner's 5 x 5; a square is light where its
file and rank (from 0) add up to an odd number, as a1 is dark.  A man on a centre square
needed is taken off the board first.

The switches see only that a square is full: the board reads the gesture when it differs
from the position on those six squares alone (the centre's and the royal pieces'), the two
full ones both in the centre, held still for GESTURE_MS.  No legal move leaves two royal
pieces on squares side by side, so no move is read as the gesture.  Loaded the first time
the board is put right with so few squares wrong (app.Board.step); checkers12, with no
royal piece, has none (typed: `resign`, `draw`).
"""

from firmware.debounce import ticks_diff
from firmware.terms import CLAIM_ENDS

GESTURE_MS = 1500  # how long the men stand so before the game ends


def read(t):
    """The result tracker t's men show by the gesture ('1-0', '0-1', '1/2-1/2'), or None."""
    pos = t.pos
    kings = pos.kings
    if not kings[0] or not kings[1]:
        return None
    geo = t.geo
    lay = pos.game.layout
    f0 = (lay.files - 1) // 2
    r0 = (lay.ranks - 1) // 2
    centre = []
    for r in (r0, r0 + 1):
        for f in (f0, f0 + 1):
            centre.append(geo.phys(lay.squares[r * lay.files + f]))
    royal = (geo.phys(kings[0]), geo.phys(kings[1]))
    occ = t.occ
    for i in range(occ.n_diff):  # nothing differs but those six squares
        p = occ.diff[i]
        if p not in centre and p not in royal:
            return None
    act = occ.actual
    for p in royal:
        if act[p] and p not in centre:
            return None
    light = full = 0
    for i in range(4):
        if act[centre[i]]:
            full += 1
            light += (i >> 1) + (i & 1) + r0 + f0 & 1  # (the centre's i-th square: file f0 + (i & 1), rank r0 + (i >> 1))
    if full != 2:
        return None
    return "1-0" if light == 2 else "0-1" if light == 0 else "1/2-1/2"


def watch(board, now_ms):
    """One scan's look (app.Board.step, while the board is being put right): the gesture
    read again after each lift or place; held GESTURE_MS, the game ends by it."""
    t = board.tracker
    if t.occ.ev != board.gesture_ev:
        board.gesture_ev = t.occ.ev
        board.gesture = read(t)
        board.gesture_at = now_ms
        return
    if board.gesture is None or ticks_diff(now_ms, board.gesture_at) < GESTURE_MS:
        return
    result = board.gesture
    board.gesture = None
    if result == "1/2-1/2":
        o = board.pos.outcome(True)
        reason = o.reason if o is not None and o.reason in CLAIM_ENDS else "agreement"
    else:
        reason = "resign"
    board.declare("%s %s" % (reason, result), now_ms)
