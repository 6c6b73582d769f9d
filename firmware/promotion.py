"""The promotion choice: the tracker's third idea, loaded with the first promotion offered.

A promotion's moves share their from and to squares and differ in the piece: the board
offers them in the game's order of choice, shows the choice (menus.py), and each time the
new piece is lifted and put back it shows the next; the host may name one (`promote`).
"""

KRIEG_PROMO_MS = 3000  # a Kriegspiel board (no takebacks) takes the piece shown after this calm:
# it holds no enemy man whose lift could say that play goes on; elsewhere no time limit


class Promotion:
    """The promotion waiting on pos: its moves (choices, in the order shown) and the one
    shown (choice)."""

    def __init__(self, pos, ms):
        self.choices = promotion_order(pos, ms)
        self.choice = 0
        self.up = False  # the new piece is lifted (put back: the next choice)
        self.menu = None  # menus.py's table of the start position's squares (RAM: made when drawn)

    def shown(self):
        return self.choices[self.choice]

    def next(self):
        """The next choice shown: its move."""
        self.choice = (self.choice + 1) % len(self.choices)
        return self.choices[self.choice]

    def named(self, pos, letter):
        """The choice of that letter ("-": stay a Soldier), or None."""
        for m in self.choices:
            if choice_letter(pos, m) == letter:
                return m
        return None

    def letters(self, pos):
        return " ".join(choice_letter(pos, m) for m in self.choices)


def choice_letter(pos, m):
    """The letter of a promotion move's piece ("-": lippo's Soldier stays a Soldier)."""
    c = pos.move_str(m)[-1]
    return c if "a" <= c <= "z" else "-"


def promotion_order(pos, ms):
    """The promotion moves ms (one from and to, other pieces) in the order the board shows
    their pieces, lifting the new piece and putting it back for the next: the pieces in
    the game's order of choice, then "stay a Soldier" where allowed."""
    out = []
    for m in ms:
        if choice_letter(pos, m) != "-":
            out.append(m)
    for m in ms:
        if choice_letter(pos, m) == "-":
            out.append(m)
    return out
