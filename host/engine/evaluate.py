"""Evaluation from each game's own terms, in centipawns for the side to move.

Most of a position's value sits in one table per game, VALUE[code * SIZE + cell]: the
piece's material plus its square's bonus, positive for White.  The engine keeps the sum
of that table over the board up to date move by move (tables.py), so a leaf costs only
the game's dynamic terms below: the President's safety in Lippo, the castles in
chess-T1, the treacherous Queen in Grosschess.  Mobility comes from the move counts the
search has already generated.
"""

from __future__ import annotations

from collections.abc import Callable

from firmware.rules.board import BLACK, DIAG, OFF, SIZE, WHITE, delta, file_of, rank_of
from firmware.rules.position import Position

Extra = Callable[[Position], int]  # a game's dynamic terms, positive for White


class Profile:
    """How one game is scored: material per type, square bonuses, dynamic terms, and
    what the search needs to know about its rules."""

    def __init__(
        self,
        material: dict[str, int],
        *,
        centre: int = 3,
        advance: int = 8,
        royal_home: int = 0,
        bonus: Callable[[Position, int, int], int] | None = None,
        extra: Extra | None = None,
        mobility: int = 2,
        repetition_draws: bool = True,
    ) -> None:
        self.material = material  # FEN letter -> centipawns (the royal piece: 0)
        self.centre = centre  # per step nearer the centre, for pieces
        self.advance = advance  # per rank a pawn (or checkers man) has advanced
        self.royal_home = royal_home  # per rank the royal piece has left its back rank
        self.bonus = bonus  # (pos, code, cell) -> extra centipawns for that piece there
        self.extra = extra
        self.mobility = mobility  # per legal move more than the opponent had
        self.repetition_draws = repetition_draws  # a repeated position scores a draw


def value_table(pos: Position, prof: Profile) -> list[int]:
    """VALUE[code * SIZE + cell] for every code a cell may hold, positive for White."""
    g = pos.game
    lay = g.layout
    table = [0] * (128 * SIZE)
    cf = (lay.files - 1) / 2
    cr = (lay.ranks - 1) / 2
    men = {g.pawn} if g.pawn else set()
    if g.id == "checkers12":
        men = {g.type_of("M")}
    for t in range(1, len(g.letter)):
        base = prof.material.get(g.letter[t], 100 * g.points[t])
        for colour in (WHITE, BLACK):
            code = colour | t
            sign = 1 if colour == WHITE else -1
            for sq in lay.squares:
                f = file_of(sq)
                r = rank_of(sq)
                rel = r if colour == WHITE else lay.ranks - 1 - r  # ranks from its own side
                v = base
                if t in men:
                    v += prof.advance * rel
                elif t == g.royal:
                    v -= prof.royal_home * rel
                else:
                    v += int(prof.centre * (cf + cr - abs(f - cf) - abs(r - cr)))
                if prof.bonus is not None:
                    v += prof.bonus(pos, code, sq)
                table[code * SIZE + sq] = sign * v
    return table


# ---- Lippo (lippo.md §2 points, §8.3 the President's safety) ----------------------------

_AROUND = tuple(delta(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if x or y)


def _lippo_extra(pos: Position) -> int:
    # The President is worth the game.  Own men (and the board's edge) around it cover it
    # (4 а surrender needs every way out closed); the side to move's President under
    # attack costs (its opponent's attacked President is the search's to take).
    score = 0
    cells = pos.cells
    for side, colour, sign in ((0, WHITE, 1), (1, BLACK, -1)):
        p = pos.kings[side]
        if not p:
            continue
        cover = 0
        for d in _AROUND:
            x = cells[p + d]
            if x & colour or x == OFF:
                cover += 1
        score += sign * 6 * cover
    p = pos.kings[pos.us >> 6]
    if p and pos.attacked(p, pos.us ^ (WHITE | BLACK)):
        score += -60 if pos.us == WHITE else 60
    return score


# ---- chess-T1 (chess-t1.md §2 strengths, §10 castles) ----------------------------------


def _t1_extra(pos: Position) -> int:
    # R10.2: a side wins by holding the enemy castle with no enemy royal piece in it.
    # Royal pieces at home defend it; royal pieces near an empty enemy castle threaten.
    from firmware.rules.games import chess_t1

    score = 0
    cells = pos.cells
    lay = pos.game.layout
    royal = chess_t1.royal
    holders = [0, 0]
    for colour, r in ((WHITE, 0), (BLACK, 7)):
        for f in (2, 3, 4, 5):
            x = cells[lay.squares[r * 8 + f]]
            if x and royal(x & 31) and x & colour:
                holders[colour >> 6] += 1
    for side in (0, 1):
        score += (25 if side == 0 else -25) * min(holders[side], 2)
    for sq in lay.squares:
        x = cells[sq]
        if x and royal(x & 31):
            side = x >> 6
            weight = 10 if holders[side ^ 1] == 0 else 3  # an empty enemy castle is the goal
            near = 7 - abs(rank_of(sq) - (7 if side == 0 else 0))
            score += (weight if side == 0 else -weight) * near
    return score


# ---- Grosschess and 100-square chess (strong forms on the e-file) -----------------------

_STRONG = {"Q": 0, "R": 0, "B": 0, "N": 0, "Z": 60, "G": 60, "V": 150, "I": 80, "M": 60, "S": 60, "O": 40}
_DIAG1 = tuple(delta(x, y) for x, y in DIAG)


def _strong_bonus(pos: Position, code: int, sq: int) -> int:
    # hundred.md, grosschess.md: a piece is strong on the e-file (judged where it stands).
    if file_of(sq) != 4:
        return 0
    return _STRONG.get(pos.game.letter[code & 31], 0)


def _gross_extra(pos: Position) -> int:
    # The treacherous Queen (grosschess.md §4.1): a strong Queen takes a diagonal
    # neighbour that attacks her and steps on, so an enemy piece beside her is bound.
    score = 0
    cells = pos.cells
    queen = pos.game.type_of("V")
    king = pos.game.royal
    for sq in pos.game.layout.squares:
        if file_of(sq) != 4:
            continue
        x = cells[sq]
        if x & 31 != queen:
            continue
        colour = x & (WHITE | BLACK)
        them = colour ^ (WHITE | BLACK)
        sign = 1 if colour == WHITE else -1
        for d in _DIAG1:
            y = cells[sq + d]
            if y & them and y & 31 != king:
                score += sign * 25
    return score


def _checkers_bonus(pos: Position, code: int, sq: int) -> int:
    # Men on their back rank guard the crowning squares; kings like the long diagonals.
    t = code & 31
    white = code & WHITE
    r = rank_of(sq)
    if pos.game.letter[t] == "M" and r == (0 if white else 11):
        return 15
    if pos.game.letter[t] == "K":
        f = file_of(sq)
        return 20 if f == r or f == 11 - r else 0
    return 0


CHESS = {"P": 100, "N": 300, "B": 320, "R": 500, "Q": 900, "K": 0}

PROFILES: dict[str, Profile] = {
    "chess": Profile(CHESS, royal_home=10),
    "gardner": Profile(CHESS, advance=20, royal_home=0),
    "courier": Profile({"P": 100, "N": 300, "B": 300, "R": 500, "F": 150, "K": 0, "M": 300, "W": 250, "E": 120},
                       royal_home=10),
    "hundred": Profile({}, royal_home=8, bonus=_strong_bonus),
    "grosschess": Profile({}, royal_home=8, bonus=_strong_bonus, extra=_gross_extra),
    # lippo.md §8.4: the result is by points, so the points are the material (the
    # President's 194 are the game itself: the search sees its capture as the end).
    "lippo": Profile({"P": 0}, centre=2, advance=5, royal_home=6, extra=_lippo_extra,
                     mobility=1, repetition_draws=False),
    "checkers12": Profile({"M": 100, "K": 330}, advance=6, bonus=_checkers_bonus, mobility=2,
                          repetition_draws=False),
    # chess-t1.md §2: strengths in half units, 60 centipawns each; the Scout's strength is
    # 0 but it captures anything it hits; the King is the game.
    "chess-t1": Profile({"K": 0, "C": 360, "P": 200, "R": 240, "I": 120, "V": 180, "S": 170}, royal_home=0,
                        extra=_t1_extra, repetition_draws=True),
}
