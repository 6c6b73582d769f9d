"""What the host's search asks of the rules core beyond play: the pseudo-moves of chosen
pieces (from a set of squares, to a set of squares), the squares that answer a check, a
pass (the null move), Lippo's patt, and each game's search traits.

Host only: the board never imports this module (tests/test_architecture.py), so none of
its code takes the Pico's heap, and the core keeps only what the board needs.  It is plain
MicroPython all the same, like everything in firmware/rules.  The search (host/engine)
reaches the core through these and the core's public methods, never its private ones:
a change inside the core is answered here, in the room that owns it.
"""

from .board import WHITE, BLACK
from .position import CAPTURE, Position


class SearchTraits:
    """What a search may assume of a game's rules.

    null_move: a pass is seldom better than a move (zugzwang is rare), so a null move's
        search bounds a real move's.
    captures_alone: a position's captures are its pseudo-moves that take, each held to
        the check rule by the move made (not so where the moves are made in one go).
    captures_forced: a side that can capture must.
    attacks_by_powers: attacked() follows the pieces' powers, so a defended piece is one
        that may be taken back.
    royal_apart: the game's own generator adds to its royal piece's moves alone (the
        other pieces' are the core's tables').
    """

    def __init__(self, null_move=True, captures_alone=True, captures_forced=False, attacks_by_powers=True,
                 royal_apart=False):
        self.null_move = null_move
        self.captures_alone = captures_alone
        self.captures_forced = captures_forced
        self.attacks_by_powers = attacks_by_powers
        self.royal_apart = royal_apart


_PLAIN = SearchTraits()
TRAITS = {
    "chess": _PLAIN,
    "chess960": _PLAIN,
    "courier": _PLAIN,
    "hundred": _PLAIN,
    "grosschess": _PLAIN,
    "gardner": SearchTraits(null_move=False),  # 5 x 5: zugzwang is common
    "lippo": SearchTraits(royal_apart=True),  # lippo.md §12: the President's bonus Soldier
    # Captures compulsory, taken along a path (checkers12.md); a blocked side loses.
    "checkers12": SearchTraits(null_move=False, captures_alone=False, captures_forced=True, attacks_by_powers=False),
    "chess-t1": SearchTraits(null_move=False, captures_alone=False),  # a blocked side loses (chess-t1.md)
}
_UNKNOWN = SearchTraits(null_move=False)


def search_traits(game):
    """The SearchTraits of a game (a Game); a game not listed gets no null move."""
    return TRAITS.get(game.id, _UNKNOWN)


def pseudo_moves_from(pos, squares, ms, to=None):
    """The side to move's pseudo-moves (by its pieces' powers, before the check rule; the
    game's own generator of a piece) from each of `squares` in turn, appended to ms; with
    `to` (a set or tuple of squares) only those landing on one of them (a blast: on its
    victim).  Returns ms."""
    cells = pos.cells
    us = pos.us
    for sq in squares:
        c = cells[sq]
        if c & us:
            if to is None:
                pos._gen_piece(sq, c & 31, ms)
            else:
                n = len(ms)
                pos._gen_piece(sq, c & 31, ms)
                ms[n:] = [m for m in ms[n:] if m >> 9 & 511 in to]
    return ms


def pawn_capture(pos, frm, to, ms):
    """The side to move's pawn on frm taking on `to`, appended to ms: one move, or one a
    promotion type where `to` is on its last rank (the game's promotions).  The caller
    has seen an enemy on `to`."""
    pos._pawn_to(frm, to, CAPTURE, ms)


def pawn_moves(pos, frm, ms):
    """Every pseudo-move of the side to move's pawn on frm (steps, double step, captures,
    en passant, promotions), appended to ms."""
    pos._pawn_moves(frm, ms, pos.us ^ (WHITE | BLACK))


def types_apart(pos):
    """The piece types whose pseudo-moves pos's game makes otherwise than the core's
    tables: () where the tables make every piece's; None where the game's moves are not
    made a piece at a time (ask its pseudo_moves())."""
    cls = type(pos)
    if cls.pseudo_moves is not Position.pseudo_moves:
        return None
    if cls._gen_piece is Position._gen_piece:
        return ()
    if search_traits(pos.game).royal_apart:
        return (pos.game.royal,)
    return None


def core_generator(pos):
    """Whether pos's pseudo-moves and attack test are the core's tables' alone: every
    piece's moves by its powers, and attacked() the same powers."""
    cls = type(pos)
    return cls.pseudo_moves is Position.pseudo_moves and cls._gen_piece is Position._gen_piece \
        and cls.attacked is Position.attacked


def checks_by_squares(pos):
    """Whether check_squares() names the squares that answer a check in pos's game: the
    core's check rule, generator, push and attack test, its plain moves light."""
    cls = type(pos)
    return bool(pos.game.check_rules and pos.LIGHT_KINDS and cls.legal_moves is Position.legal_moves
                and cls.push is Position.push and cls._legal_from is Position._legal_from and core_generator(pos))


def check_squares(pos):
    """The side to move's check: False if its royal piece is not attacked; else a list of
    the squares a plain move of another piece must end on to answer it (the checker's
    and, on a slide's line, those between), (0,) where two pieces check (the royal piece
    alone may answer), True where every move must be tried."""
    us = pos.us
    return pos._check_state(pos.kings[us >> 6], us ^ (WHITE | BLACK))


def legal_moves_from(pos, squares, ms, in_check=None):
    """The legal moves of the side to move's pieces on `squares`, in their order, appended
    to ms (a check rule game; in_check: check_squares(), if known).  Returns ms."""
    us = pos.us
    them = us ^ (WHITE | BLACK)
    k = pos.kings[us >> 6]
    if in_check is None:
        in_check = pos._check_state(k, them)
    pins = None if in_check else pos._pins(k, us, them)
    cells = pos.cells
    for sq in squares:
        c = cells[sq]
        if c & us:
            pos._legal_from(sq, c & 31, ms, k, pins, them, in_check)
    return ms


def pass_turn(pos):
    """Give the move to the other side with nothing moved (the search's null move: the
    rules have no pass): no en-passant square, and the game's end, where it is kept
    (Lippo's, chess-T1's), unknown.  Returns what pass_back() needs."""
    kept = hasattr(pos, "_end")
    done = (pos.ep, pos._end if kept else 0, kept)
    pos.us ^= WHITE | BLACK
    pos.ep = 0
    if kept:
        pos._end = 0
    return done


def pass_back(pos, done):
    """Undo pass_turn(), whose answer `done` is."""
    pos.us ^= WHITE | BLACK
    pos.ep = done[0]
    if done[2]:
        pos._end = done[1]


def patt(pos, attacked=None):
    """Lippo's patt (lippo.md 4 b, A16) of the side to move: every neighbour of its
    President attacked, the President imagined off its square.  attacked(sq, by): the
    attack test to ask (pos.attacked if None).  False where the side has no President."""
    us = pos.us
    p = pos.kings[us >> 6]
    return bool(p) and pos._closed(p, us, us ^ (WHITE | BLACK), attacked)
