"""The LED frames a board draws seldom: the promotion menu and the game's end.

Loaded by the tracker the first time one of them is drawn (tracker._menus): on stock
MicroPython a module's code takes heap, and a game that neither promotes nor has ended
needs neither frame.
"""

from firmware import leds
from firmware.promotion import choice_letter
from firmware.rules.board import WHITE, BLACK


def render_menu(t, frame):
    """The promotion waiting on tracker t: each choice lights the squares where that piece
    stands in the start position, on the mover's side; the current choice bright, the
    others dim, and the square promoted on."""
    mover = t.pos.us
    promo = t.promo
    for i in range(len(promo.choices)):
        letter = choice_letter(t.pos, promo.choices[i])
        cls = leds.CHOICE if i == promo.choice else leds.OPTION
        for p in _menu_squares(t, promo, letter, mover):
            frame[p] = cls
    frame[t._phys_to(promo.choices[0])] = leds.DEST


def _menu_squares(t, promo, letter, colour):
    if promo.menu is None:  # kept with the promotion until a move is made (RAM)
        promo.menu = _start_squares(t.pos.game, t.geo)
    if letter == "-":
        letter = t.pos.game.letter[t.pos.game.pawn].lower()
    return promo.menu.get((letter, colour), ())


def _start_squares(game, geo):
    # (lower-case letter, colour) -> physical squares where the start position has it
    from firmware.rules import new_position

    start = new_position(game.id)
    out = {}
    for p in geo.game_squares:
        c = start.cells[geo.cell(p)]
        if c:
            key = (game.letter[c & 31].lower(), c & (WHITE | BLACK))
            out[key] = out.get(key, ()) + (p,)
    return out


def render_end(t, frame):
    """The game over on tracker t: its last move, the first ranks and the royal pieces in
    the winner's and the loser's colours (both a draw's)."""
    o = t.outcome
    pos = t.pos
    geo = t.geo
    if t.last is not None:
        frame[t.last[0]] = leds.LAST
        frame[t.last[1]] = leds.LAST
    lay = pos.game.layout
    for colour, rank in ((WHITE, 0), (BLACK, lay.ranks - 1)):
        cls = leds.DRAW if o.winner is None else leds.WIN if o.winner == colour else leds.LOSE
        for f in range(lay.files):
            frame[geo.phys(lay.squares[rank * lay.files + f])] = cls
    for k in pos.kings:
        if k:
            frame[geo.phys(k)] = leds.DRAW if o.winner is None else leds.WIN if pos.cells[k] & o.winner else leds.LOSE
