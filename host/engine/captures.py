"""The captures of a position alone, for the quiescence search (issue 24).

Kept here, not in the rules core: the board never asks for them, and the core's code is
loaded into the Pico's heap.  Generated from the pieces' powers as the core's generator
makes them, in its order; a pawn's captures are its diagonals (promotions by the core's:
`search_hooks.pawn_capture`), Lippo's President (its bonus Soldier) has its pseudo-moves
filtered, and a game with a generator of its own (checkers, chess-T1, hundred, Grosschess,
Kriegspiel's) gets `pseudo_moves()` filtered.  The core's side of it is
firmware/rules/search_hooks.py (the board never loads it).  tests/test_engine.py
checks that `captures(pos)` is the filtered pseudo-moves along random games of every game.

Lippo's pieces leap far (an Aeroplane has 48 leaps, a Gas 40 bent routes): there the
leaps' and bent routes' targets of each type from each square are kept as sets (the
board's geometry alone decides them: what stands between is ignored, game.py), and a
piece's captures and quiet moves are those sets met with the enemy's and the empty
squares, in C rather than a Python loop a route (`fast_moves`: all the pseudo-moves,
for the search's full nodes).  tests/test_engine.py checks both against the core.

The moves of a side in check (`evasions`, chess and its kin): the core's own moves of the
pieces that may answer the check alone, found from the checker's squares; the quiescence
search's recaptures (`recaptures`), those of the pieces attacking the square.
"""

from __future__ import annotations

from firmware.rules.board import BLACK, EMPTY, OFF, STRIDE, WHITE
from firmware.rules.position import BLAST, CAPTURE, EP, KIND_SHIFT, Position
from firmware.rules.search_hooks import (check_squares, checks_by_squares, core_generator, legal_moves_from,
                                         pawn_capture, pawn_moves, pseudo_moves_from, types_apart)

_FULL: dict[type, frozenset[int] | None] = {}  # class -> piece types filtered (None: all of them)


def _filtered_types(pos: Position) -> frozenset[int] | None:
    # The types whose pseudo-moves are made and filtered (the game's own generator's);
    # None: pseudo_moves() filtered.
    types = types_apart(pos)
    return None if types is None else frozenset(types)


class _Reach:
    """A game's leap and bent-route targets: targets[t][sq], a frozenset of cells."""

    def __init__(self, pos: Position) -> None:
        g = pos.game
        geo = g.layout.empty_board()  # OFF where no square is
        bent, at = g.bent, g.bent_at
        self.targets: list[list[frozenset[int]]] = []
        # att[t][sq]: the squares a piece of type t on sq attacks without sliding (its
        # targets and its blasts), as the core's attack tables say (game.py: att_jumps, att_bent).
        self.att: list[list[frozenset[int]]] = []
        self.all = frozenset(g.layout.squares)
        self.rays = [bool(g.slides[t] or g.blasts[t]) for t in range(len(g.letter))]  # slides or blasts
        # lines[frm][sq]: (the step from frm toward sq, the squares between) where sq lies on
        # one of the game's slide directions from frm; ray_dirs[t]: type t's slide steps.
        self.ray_dirs = [frozenset(g.slides[t]) for t in range(len(g.letter))]
        steps = {d for t in range(len(g.letter)) for d in g.slides[t]}
        self.lines: list[dict[int, tuple[int, tuple[int, ...]]]] = [{} for _ in range(len(geo))]
        for frm in g.layout.squares:
            for d in steps:
                between: list[int] = []
                to = frm + d
                while geo[to] != OFF:
                    self.lines[frm][to] = (d, tuple(between))
                    between.append(to)
                    to += d
        empty: frozenset[int] = frozenset()
        for t in range(len(g.letter)):
            row = [empty] * len(geo)
            att = [empty] * len(geo)
            if t and (g.jumps[t] or at[t] < at[t + 1] or g.blasts[t]):
                for sq in g.layout.squares:
                    to = {sq + d for d in g.jumps[t] if geo[sq + d] != OFF}
                    for i in range(at[t], at[t + 1], 3):
                        if geo[sq + bent[i]] != OFF and (geo[sq + bent[i + 1]] != OFF or geo[sq + bent[i + 2]] != OFF):
                            to.add(sq + bent[i])
                    row[sq] = frozenset(to)
                    att[sq] = row[sq] | {sq + d for d in g.blasts[t] if geo[sq + d] != OFF}
            self.targets.append(row)
            self.att.append(att)
        # For attacked(), by side (0 White): (code, rev) of each type that attacks without
        # sliding, rev[sq] the squares it attacks sq from (att turned round), and (code,
        # slide steps) of each type that slides.
        self.leapers: tuple[list[tuple[int, list[frozenset[int]]]], ...] = ([], [])
        self.sliders: tuple[list[tuple[int, frozenset[int]]], ...] = ([], [])
        for t in range(1, len(g.letter)):
            if t == g.pawn:
                continue
            if any(self.att[t]):
                back: list[set[int]] = [set() for _ in range(len(geo))]
                for frm in g.layout.squares:
                    for sq in self.att[t][frm]:
                        back[sq].add(frm)
                rev = [frozenset(b) for b in back]
                for side, colour in enumerate((WHITE, BLACK)):
                    self.leapers[side].append((colour | t, rev))
            if self.ray_dirs[t]:
                for side, colour in enumerate((WHITE, BLACK)):
                    self.sliders[side].append((colour | t, self.ray_dirs[t]))


_REACH: dict[int, _Reach] = {}
FAST_GAMES = ("lippo",)  # the games whose moves are generated by sets here


def _reach(pos: Position) -> _Reach:
    r = _REACH.get(id(pos.game))
    if r is None:
        r = _REACH[id(pos.game)] = _Reach(pos)
    return r


def attacked(pos: Position, sq: int, by: int, pieces: list[set[int]]) -> bool:
    """pos.attacked(sq, by) for a game of FAST_GAMES, pieces[code] the squares of each
    piece code (tables.Tracked.pieces), asked of each type of `by` rather than of each
    route to sq: its leaps, bent routes and blasts by the squares they reach sq from (a
    set met with the type's pieces), its slides by the line from each piece to sq and the
    squares between, a pawn by its two diagonals (tests/test_engine.py: the core's answer
    on every square along random games)."""
    r = _reach(pos)
    side = by >> 6
    for code, rev in r.leapers[side]:
        ps = pieces[code]
        if ps and not rev[sq].isdisjoint(ps):
            return True
    cells = pos.cells
    pawn = by | pos.game.pawn
    back = -STRIDE if by == WHITE else STRIDE
    if cells[sq + back - 1] == pawn or cells[sq + back + 1] == pawn:
        return True
    lines = r.lines
    for code, dirs in r.sliders[side]:
        for frm in pieces[code]:
            if _slides_to(cells, lines[frm].get(sq), dirs):
                return True
    return False


def _slides_to(cells: bytearray, line: tuple[int, tuple[int, ...]] | None, dirs: frozenset[int]) -> bool:
    # A slider reaches a square on `line` (_Reach.lines: its step, the squares between; None:
    # not on a line) along one of its steps `dirs`, nothing between.
    if line is None or line[0] not in dirs:
        return False
    for b in line[1]:
        if cells[b]:
            return False
    return True


def fast_moves(pos: Position, caps_only: bool = False, occ: list[set[int]] | None = None) -> list[int]:
    """pos.pseudo_moves() (the captures alone if caps_only), in another order, for a game of
    FAST_GAMES: leaps and bent routes by their target sets, slides walked, the pawns' and the
    royal piece's moves (castling, Lippo's bonus Soldier) by the core's own generators.
    occ: the sides' occupied squares where the caller keeps them (tables.Tracked.occ)."""
    g = pos.game
    cells = pos.cells
    us = pos.us
    them = us ^ (WHITE | BLACK)
    reach = _reach(pos)
    targets = reach.targets
    if occ is not None:
        own = occ[us >> 6]
        enemy = occ[them >> 6]
        empty = reach.all.difference(own, enemy)
    else:
        enemy = set()
        empty = set()
        own = []
        for sq in g.layout.squares:
            c = cells[sq]
            if c & them:
                enemy.add(sq)
            elif c:
                own.append(sq)
            else:
                empty.add(sq)
    slides, blasts = g.slides, g.blasts
    rays = reach.rays
    pawn, royal = g.pawn, g.royal
    fwd = STRIDE if them == BLACK else -STRIDE
    ep = pos.ep if g.ep else -1
    ep_move = CAPTURE | EP << KIND_SHIFT
    ms: list[int] = []
    for frm in own:
        t = cells[frm] & 31
        if t == pawn:
            if caps_only:
                for to in (frm + fwd - 1, frm + fwd + 1):
                    if cells[to] & them:
                        pawn_capture(pos, frm, to, ms)
                    elif to == ep:
                        ms.append(frm | to << 9 | ep_move)
            else:
                pawn_moves(pos, frm, ms)
            continue
        if t == royal:
            if caps_only:
                ms += [m for m in pseudo_moves_from(pos, (frm,), []) if m & CAPTURE]
            else:
                pseudo_moves_from(pos, (frm,), ms)
            continue
        r = targets[t][frm]
        if r:
            if not r.isdisjoint(enemy):  # (no set made where nothing is taken: most pieces)
                cap = frm | CAPTURE
                ms += [cap | to << 9 for to in r & enemy]
            if not caps_only:
                ms += [frm | to << 9 for to in r & empty]
        if rays[t]:
            _rays(cells, frm, slides[t], blasts[t], them, ms, caps_only)
    return ms


def _rays(cells: bytearray, frm: int, slides: tuple[int, ...], blasts: tuple[int, ...], them: int, ms: list[int],
          caps_only: bool) -> None:
    # A piece's slides (the quiet steps too unless caps_only) and blasts, appended to ms.
    for d in slides:
        to = frm + d
        x = cells[to]
        while x == EMPTY:
            if not caps_only:
                ms.append(frm | to << 9)
            to += d
            x = cells[to]
        if x & them:
            ms.append(frm | to << 9 | CAPTURE)
    for d in blasts:
        if cells[frm + d] & them:
            ms.append(frm | (frm + d) << 9 | CAPTURE | BLAST << KIND_SHIFT)


def captures_to(pos: Position, squares: tuple[int, ...], pieces: list[set[int]]) -> list[int]:
    """The moves of fast_moves(pos, True) that land on one of `squares` (the quiescence
    search's recaptures), in another order, pieces as attacked()'s: found from each square,
    as attacked() finds an attacker (the President's own moves and a pawn's promotions by
    the core's generators)."""
    g = pos.game
    cells = pos.cells
    us = pos.us
    them = us ^ (WHITE | BLACK)
    r = _reach(pos)
    side = us >> 6
    royal, blasts, targets, lines = g.royal, g.blasts, r.targets, r.lines
    pawn = us | g.pawn
    fwd = STRIDE if us == WHITE else -STRIDE
    ms: list[int] = []
    for to in squares:
        if not cells[to] & them:
            continue
        for code, rev in r.leapers[side]:
            ps = pieces[code]
            if not ps or rev[to].isdisjoint(ps):
                continue
            t = code & 31
            for frm in rev[to].intersection(ps):
                if t == royal:
                    ms += [m for m in pseudo_moves_from(pos, (frm,), [], (to,)) if m & CAPTURE]
                    continue
                if to in targets[t][frm]:
                    ms.append(frm | to << 9 | CAPTURE)
                if to - frm in blasts[t]:
                    ms.append(frm | to << 9 | CAPTURE | BLAST << KIND_SHIFT)
        for frm in (to - fwd - 1, to - fwd + 1):
            if cells[frm] == pawn:
                pawn_capture(pos, frm, to, ms)
        for code, dirs in r.sliders[side]:
            for frm in pieces[code]:
                if _slides_to(cells, lines[frm].get(to), dirs):
                    ms.append(frm | to << 9 | CAPTURE)
    return ms


def captures(pos: Position, occ: list[set[int]] | None = None) -> list[int]:
    """The moves of pos.pseudo_moves() that capture, in their order (a FAST_GAMES game's in
    fast_moves' order, occ as there)."""
    if pos.game.id in FAST_GAMES:
        return fast_moves(pos, True, occ)
    cls = type(pos)
    if cls in _FULL:
        full = _FULL[cls]
    else:
        full = _FULL[cls] = _filtered_types(pos)
    takes = pos.takes
    if full is None:
        return [m for m in pos.pseudo_moves() if takes(m)]
    g = pos.game
    cells = pos.cells
    us = pos.us
    them = us ^ (WHITE | BLACK)
    jumps, slides, blasts, bent, bent_at = g.jumps, g.slides, g.blasts, g.bent, g.bent_at
    cap = CAPTURE
    pawn = g.pawn
    fwd = STRIDE if them == BLACK else -STRIDE
    ep = pos.ep if g.ep else -1
    ep_move = CAPTURE | EP << KIND_SHIFT
    ms: list[int] = []
    for frm in g.layout.squares:
        c = cells[frm]
        if not c & us:
            continue
        t = c & 31
        if t == pawn:
            # a pawn's captures in the core's order: the two diagonals, each a promotion's
            # moves where it reaches the last rank, or en passant
            for to in (frm + fwd - 1, frm + fwd + 1):
                if cells[to] & them:
                    pawn_capture(pos, frm, to, ms)
                elif to == ep:
                    ms.append(frm | to << 9 | ep_move)
            continue
        if t in full:
            for m in pseudo_moves_from(pos, (frm,), []):
                if takes(m):
                    ms.append(m)
            continue
        for d in jumps[t]:
            if cells[frm + d] & them:
                ms.append(frm | (frm + d) << 9 | cap)
        for i in range(bent_at[t], bent_at[t + 1], 3):
            to = frm + bent[i]
            if cells[to] & them and (cells[frm + bent[i + 1]] != OFF or cells[frm + bent[i + 2]] != OFF):
                ms.append(frm | to << 9 | cap)
        if slides[t] or blasts[t]:
            _rays(cells, frm, slides[t], blasts[t], them, ms, True)
    return ms


def evasions_served(pos: Position) -> bool:
    """Whether evasions() serves pos's game: the core answers a check there by the squares a
    move must end on (search_hooks.check_squares: the base generator, light moves)."""
    return checks_by_squares(pos)


def evasions(pos: Position) -> list[int]:
    """pos.legal_moves() of a position of evasions_served() whose side to move is in check,
    in the same order, found faster: the core's own legal moves (legal_moves_from) of the royal piece
    and of the pieces that may answer the check alone, those whose leaps, bent routes or
    slides reach the checker or a square between (the core's attacked(), asked for them
    all), and the pawns that may step there.  tests/test_engine.py checks it against the core."""
    us = pos.us
    k = pos.kings[us >> 6]
    in_check = check_squares(pos)
    if in_check is False or in_check is True:
        return pos.legal_moves()
    g = pos.game
    asked = {k}
    if in_check[0]:  # (0,): two pieces check, the royal piece alone may move
        fwd = STRIDE if us == WHITE else -STRIDE
        found: list[int] = []
        for s in in_check:
            pos.attacked(s, us, found)  # the pieces whose powers reach s (a pawn's: its capture)
            # a pawn's step or double step to s
            asked.update((s - fwd, s - 2 * fwd))
        asked.update(found)
    if pos.ep and g.ep:  # an en-passant capture (it may answer even two checks: the core tries it)
        fwd = STRIDE if us == WHITE else -STRIDE
        asked.update((pos.ep - fwd - 1, pos.ep - fwd + 1))
    return legal_moves_from(pos, sorted(asked), [], in_check)


def recaptures(pos: Position, sq: int) -> list[int]:
    """The moves of captures(pos) that land on sq, in their order: where the core's own
    generator makes every piece's moves (chess and its kin), those of the pieces that attack
    sq (the core's attacked(), asked for them all); elsewhere captures(pos) filtered."""
    if pos.game.id in FAST_GAMES or not core_generator(pos):
        return [m for m in captures(pos) if pos.move_to(m) == sq]
    cells = pos.cells
    us = pos.us
    if not cells[sq] & (us ^ (WHITE | BLACK)):
        return [m for m in captures(pos) if pos.move_to(m) == sq] if sq == pos.ep else []  # (en passant)
    found: list[int] = []
    pos.attacked(sq, us, found)
    return [m for m in pseudo_moves_from(pos, sorted(set(found)), [], (sq,)) if m & CAPTURE]
