"""Evaluation from each game's own terms, in centipawns for the side to move.

Most of a position's value sits in one table per game, VALUE[code * SIZE + cell]: the
piece's material plus its square's bonus, positive for White.  The engine keeps the sum
of that table over the board up to date move by move (tables.py), so a leaf costs only
the game's dynamic terms below: the President's safety in Lippo, the castles in
chess-T1, the treacherous Queen in Grosschess.  Chess has two such tables, the middle
game's and the endgame's, blended by the phase, and a structure term (pawns, the kings'
shelter, rooks' files) cached by a key of the pawns, kings and rooks.  Mobility comes from
the move counts the search has already generated.
"""

from __future__ import annotations

from collections.abc import Callable

from firmware.rules.board import BLACK, DIAG, OFF, SIZE, WHITE, delta, file_of, rank_of
from firmware.rules.position import Position

Extra = Callable[..., int]  # (pos, attacked=None) -> a game's dynamic terms, positive for White; attacked(sq, by): a faster pos.attacked


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
        endgame: dict[str, int] | None = None,
        squares: Callable[[str, int, int], tuple[int, int]] | None = None,
        phase: dict[str, int] | None = None,
        structure: Callable[[Position], tuple[int, int]] | None = None,
        pair: tuple[int, int] = (0, 0),
        plain: Profile | None = None,
    ) -> None:
        self.material = material  # FEN letter -> centipawns (the royal piece: 0)
        self.centre = centre  # per step nearer the centre, for pieces
        self.advance = advance  # per rank a pawn (or checkers man) has advanced
        self.royal_home = royal_home  # per rank the royal piece has left its back rank
        self.bonus = bonus  # (pos, code, cell) -> extra centipawns for that piece there
        self.extra = extra
        self.mobility = mobility  # per legal move more than the opponent had
        self.repetition_draws = repetition_draws  # a repeated position scores a draw
        # A tapered evaluation (chess): material and square tables for the middle game
        # (material, squares) and the endgame (endgame, squares), blended by the phase
        # (the pieces' phase weights on the board, out of PHASE).
        self.endgame = endgame  # FEN letter -> endgame centipawns
        self.squares = squares  # (letter, file, rank from its own side) -> (middle game, endgame) bonus
        self.phase = phase or {}
        self.structure = structure  # (pos) -> White's (middle game, endgame) pawn structure, kings' shelter, rooks' files
        self.pair = pair  # the bishop pair, (middle game, endgame)
        self.plain = plain  # the profile before these terms (Searcher(off={"eval"}))


PHASE = 24  # the phase weights of a full board (chess: 4 minor pieces, 2 x 4 rooks, 2 x 4 queens... out of 24)


def value_tables(pos: Position, prof: Profile) -> tuple[list[int], list[int] | None]:
    """(VALUE, ENDGAME): value_table(), and where the profile is tapered the endgame's table
    (else None), for every code on every cell, positive for White."""
    if prof.squares is None:
        return value_table(pos, prof), None
    letters = pos.game.letter
    mg = [0] * (128 * SIZE)
    eg = [0] * (128 * SIZE)
    endgame = prof.endgame or prof.material
    for t, code, sign, sq, f, r, rel in _placings(pos):
        letter = letters[t]
        a, b = prof.squares(letter, f, rel)
        mg[code * SIZE + sq] = sign * (prof.material.get(letter, 0) + a)
        eg[code * SIZE + sq] = sign * (endgame.get(letter, 0) + b)
    return mg, eg


def _placings(pos: Position):  # type: ignore[no-untyped-def]
    """(type, code, sign, cell, file, rank, rank from its own side) of every piece of the
    game, of each colour, on every square: what a value table is built over."""
    g = pos.game
    lay = g.layout
    for t in range(1, len(g.letter)):
        for colour in (WHITE, BLACK):
            code = colour | t
            sign = 1 if colour == WHITE else -1
            for sq in lay.squares:
                f = file_of(sq)
                r = rank_of(sq)
                yield t, code, sign, sq, f, r, (r if colour == WHITE else lay.ranks - 1 - r)


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
    for t, code, sign, sq, f, r, rel in _placings(pos):
        v = prof.material.get(g.letter[t], 100 * g.points[t])
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


def _lippo_extra(pos: Position, attacked: Callable[[int, int], bool] | None = None) -> int:
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
    if p and (attacked or pos.attacked)(p, pos.us ^ (WHITE | BLACK)):
        score += -60 if pos.us == WHITE else 60
    return score


# ---- chess-T1 (chess-t1.md §2 strengths, §10 castles) ----------------------------------


def _t1_extra(pos: Position, attacked: object = None) -> int:
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


def _gross_extra(pos: Position, attacked: object = None) -> int:
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

# ---- chess: a tapered evaluation ---------------------------------------------------------
#
# Our own tables, written from the textbook principles (not copied from an engine): knights
# and bishops to the centre, the pawns' centre advanced and every pawn's advance worth more
# as the board empties, rooks on the 7th, the king in a castled corner in the middle game
# and in the centre in the endgame.  Each table reads rank 1 first, from the side's own side.

CHESS_MG = {"P": 85, "N": 320, "B": 330, "R": 470, "Q": 950, "K": 0}
CHESS_EG = {"P": 110, "N": 295, "B": 315, "R": 520, "Q": 940, "K": 0}
CHESS_PHASE = {"N": 1, "B": 1, "R": 2, "Q": 4}

_PAWN_MG = (
    (0, 0, 0, 0, 0, 0, 0, 0),
    (0, 0, 0, -8, -8, 0, 0, 0),
    (2, 2, 5, 8, 8, -2, 0, 2),
    (0, 2, 10, 22, 22, 5, -5, -5),
    (5, 8, 15, 28, 28, 15, 5, 5),
    (20, 25, 30, 40, 40, 30, 25, 20),
    (60, 60, 60, 60, 60, 60, 60, 60),
    (0, 0, 0, 0, 0, 0, 0, 0),
)
_PAWN_EG = (0, 0, 5, 12, 25, 45, 80, 0)  # by rank
_KNIGHT_MG = (
    (-50, -25, -20, -15, -15, -20, -25, -50),
    (-30, -15, 0, 5, 5, 0, -15, -30),
    (-20, 5, 12, 15, 15, 12, 5, -20),
    (-15, 5, 15, 22, 22, 15, 5, -15),
    (-15, 8, 18, 25, 25, 18, 8, -15),
    (-20, 5, 15, 20, 20, 15, 5, -20),
    (-30, -15, 0, 5, 5, 0, -15, -30),
    (-50, -30, -20, -20, -20, -20, -30, -50),
)
_KING_MG_HOME = (15, 25, 10, -5, -10, -5, 30, 15)  # rank 1, by file
_KING_MG_2 = (0, 0, -10, -20, -20, -10, 0, 0)


def _chess_squares(letter: str, f: int, r: int) -> tuple[int, int]:
    cd = (abs(2 * f - 7) + abs(2 * r - 7)) // 2  # steps from the centre: 1 (d4) .. 7 (a1)
    if letter == "P":
        return _PAWN_MG[r][f], _PAWN_EG[r]
    if letter == "N":
        return _KNIGHT_MG[r][f], 15 - 7 * cd
    if letter == "B":
        mg = 10 - 3 * cd + (8 if f == r or f == 7 - r else 0) - (8 if r == 0 else 0)
        return mg, 8 - 3 * cd
    if letter == "R":
        mg = (20 if r == 6 else 0) + (5 if f in (3, 4) else 0) - (3 if f in (0, 7) else 0)
        return mg, 10 if r == 6 else 0
    if letter == "Q":
        return 4 - 2 * cd, 10 - 4 * cd
    if letter == "K":
        mg = _KING_MG_HOME[f] if r == 0 else _KING_MG_2[f] if r == 1 else -30 - 10 * min(r - 2, 3)
        return mg, 20 - 8 * cd
    return 0, 0


# Pawn structure, the kings' pawn shelter and the rooks' files, (middle game, endgame).
DOUBLED = (-12, -22)  # each pawn more than one on a file
ISOLATED = (-12, -15)  # a pawn with no own pawn on the files beside it
PASSED = ((0, 0, 3, 6, 15, 30, 50, 0), (0, 0, 8, 15, 30, 55, 90, 0))  # by rank from its side
SHELTER = (-8, -25, -15)  # middle game: a shield pawn one rank up, none, and the file open too
SHELTER_RANKS = 2  # a king's shelter counts on its side's first two ranks (elsewhere its square is no term's)
ROOK_OPEN = (25, 10)  # no pawn on the rook's file
ROOK_HALF = (12, 5)  # no own pawn on it


_SQUARES: dict[int, list[tuple[int, int, int]]] = {}


def _squares_of(lay) -> list[tuple[int, int, int]]:  # type: ignore[no-untyped-def]
    """(cell, file, rank) of every square of a layout."""
    out = _SQUARES.get(id(lay))
    if out is None:
        out = _SQUARES[id(lay)] = [(sq, file_of(sq), rank_of(sq)) for sq in lay.squares]
    return out


def _chess_structure(pos: Position) -> tuple[int, int]:
    # White's (middle game, endgame) pawn terms, kings' shelter and rooks' files.
    g = pos.game
    lay = g.layout
    cells = pos.cells
    pawn, rook = g.pawn, g.type_of("R")
    files = lay.files
    top = lay.ranks - 1
    # each side's pawns' ranks (from its own side) on each file
    ranks: tuple[list[list[int]], list[list[int]]] = ([[] for _ in range(files)], [[] for _ in range(files)])
    rooks: tuple[list[int], list[int]] = ([], [])
    wp, bp, wr, br = WHITE | pawn, BLACK | pawn, WHITE | rook, BLACK | rook
    for sq, f, r in _squares_of(lay):
        x = cells[sq]
        if x == wp:
            ranks[0][f].append(r)
        elif x == bp:
            ranks[1][f].append(top - r)
        elif x == wr:
            rooks[0].append(f)
        elif x == br:
            rooks[1].append(f)
    mg = eg = 0
    for side in (0, 1):
        sign = 1 if side == 0 else -1
        own, other = ranks[side], ranks[side ^ 1]
        m = e = 0
        for f in range(files):
            ps = own[f]
            if not ps:
                continue
            if len(ps) > 1:
                m += DOUBLED[0] * (len(ps) - 1)
                e += DOUBLED[1] * (len(ps) - 1)
            if not (f > 0 and own[f - 1]) and not (f < files - 1 and own[f + 1]):
                m += ISOLATED[0] * len(ps)
                e += ISOLATED[1] * len(ps)
            r = max(ps)  # the front pawn of the file
            level = lay.ranks - 1 - r  # the front pawn's rank from the other side
            # passed: no enemy pawn ahead of it on its file or the files beside it
            if all(not other[x] or min(other[x]) >= level for x in (f - 1, f, f + 1) if 0 <= x < files):
                m += PASSED[0][r]
                e += PASSED[1][r]
        for f in rooks[side]:
            if not own[f]:
                if not other[f]:
                    m += ROOK_OPEN[0]
                    e += ROOK_OPEN[1]
                else:
                    m += ROOK_HALF[0]
                    e += ROOK_HALF[1]
        k = pos.kings[side]
        if k:
            kr = rank_of(k) if side == 0 else lay.ranks - 1 - rank_of(k)
            if kr < SHELTER_RANKS:
                kf = file_of(k)
                for f in range(max(0, kf - 1), min(files, kf + 2)):
                    shield = [r for r in own[f] if r > kr]
                    if not shield:
                        m += SHELTER[1] + (SHELTER[2] if not other[f] else 0)
                    elif min(shield) > kr + 1:
                        m += SHELTER[0]
        mg += sign * m
        eg += sign * e
    return mg, eg

PROFILES: dict[str, Profile] = {
    "chess": Profile(CHESS_MG, endgame=CHESS_EG, squares=_chess_squares, phase=CHESS_PHASE,
                     structure=_chess_structure, pair=(30, 50), plain=Profile(CHESS, royal_home=10)),
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
