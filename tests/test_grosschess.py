"""Grosschess (grosschess.md): every case of grosschess_cases.json, and the naive second
generator of test_hundred.py taught the six new units from the spec (sharing no code with
the core), compared with the core on random positions."""

import json
import random

import pytest
from conftest import RULES, random_positions
from test_hundred import DIAGS, FILES, ORTH, Naive, _tuple_board, check_case, fen_of, kind, naive_of

from firmware.rules import new_position
from firmware.rules.games import grosschess as X
from firmware.rules.games import hundred as H
from firmware.rules.position import CASTLE, DOUBLE, EP

DATA = json.loads((RULES / "grosschess_cases.json").read_text())


def initial_map():
    pos = new_position("grosschess")
    lay = pos.game.layout
    codes = {"V": "KV", "I": "PR"}
    out = {}
    for sq in lay.squares:
        c = pos.cells[sq]
        if c:
            letter = pos.game.letter[c & 31]
            out[lay.name(sq)] = ("w" if c & 32 else "b") + codes.get(letter, letter)
    return out


GROSS_INITIAL = initial_map()


@pytest.mark.parametrize("case", DATA["cases"], ids=lambda c: c["id"])
def test_case(case):
    check_case(case, X.new, lambda c: fen_of(c, GROSS_INITIAL))


def test_start_position():
    pos = new_position("grosschess")
    assert pos.fen() == X.START and len(pos.legal_moves()) == 41


KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
JB = [((2, 0), (1, 1), (1, -1)), ((-2, 0), (-1, 1), (-1, -1)), ((0, 2), (1, 1), (-1, 1)), ((0, -2), (1, -1), (-1, -1))]
GB = [((x, y), (x, 0), (0, y)) for x, y in DIAGS]


class NaiveGross(Naive):
    """grosschess.md §4-§5 on top of the 100-square naive generator."""

    INITIAL = _tuple_board(GROSS_INITIAL)
    PARTNERS = "BZVSO"
    THRONE_CHOICE = "QRBNZGVIMSO"

    def more_captures(self, sq, b, ray, out):
        side, k = b[sq]
        f, r = sq
        strong = f == 4
        priv = self.unmoved(sq, b)

        def bends(table):
            for t, v1, v2 in table:
                if any(self.on((f + v[0], r + v[1])) and (f + v[0], r + v[1]) not in b for v in (v1, v2)):
                    out.append((f + t[0], r + t[1]))

        if k == "V":
            for d in DIAGS:
                ray(d, 2 if strong else 1)
            if strong:
                bends(JB)
        if k == "I":
            for d in ORTH:
                ray(d, 2 if strong or priv else 1)
            if strong or priv:
                bends(GB)
        if k in "MS":
            for d in (ORTH if k == "M" else DIAGS):
                ray(d, 10)
            bends(GB if k == "M" else JB)
            if strong or priv:
                out += [(f + x, r + y) for x, y in KNIGHT]
        if k == "O":
            fw = 1 if side == "w" else -1
            for d in ORTH + DIAGS:
                back = d[1] == -fw
                ray(d, 2 if strong or not back else 1)
            if priv and (f, r + fw) in b:
                out.append((f, r + 2 * fw))  # the first move's jump

    def treacherous(self, b, side):
        """[(queen, victim, end)] of side's strong Queens in b."""
        out = []
        for s, (c, k) in b.items():
            if c != side or k != "V" or s[0] != 4:
                continue
            for x, y in DIAGS:
                d = (s[0] + x, s[1] + y)
                if d not in b or b[d][0] == side or b[d][1] == "K" or s not in self.captures_of(d, b):
                    continue
                for u, v in DIAGS:
                    t = (d[0] + u, d[1] + v)
                    if self.on(t) and (t == s or t not in b or b[t][0] != side):
                        out.append((s, d, t))
        return out

    def more_attacked(self, sq, by, b):
        return any(t == sq for _, _, t in self.treacherous(b, by))

    def more_moves(self, add):
        for s, d, t in self.treacherous(self.b, self.side):
            nb = dict(self.b)
            queen = nb.pop(s)
            del nb[d]
            nb[t] = queen
            add(s, d, nb, "," + FILES[t[0]] + str(t[1] + 1))


def test_core_agrees_with_a_naive_generator_on_random_positions():
    rnd = random.Random(9)

    def pick(ms):  # favour the new rules
        special = [m for m in ms if kind(m) in (H.PAWN_CASTLE, H.THRONE, EP, CASTLE, DOUBLE, X.TREACH) or m >> 18 & 1]
        return rnd.choice(special if special and rnd.random() < 0.5 else ms)

    compared = 0
    for pos in random_positions(X.new, rnd, 30, 100, pick):
        if rnd.random() < 0.25:
            core = {pos.move_str(m): m for m in pos.legal_moves()}
            naive = naive_of(pos, NaiveGross).moves()
            assert set(core) == set(naive), (pos.fen(), set(core) ^ set(naive))
            for text, m in core.items():
                pos.push(m)
                assert naive_of(pos, NaiveGross).b == naive[text], text
                pos.pop()
            compared += 1
    assert compared > 200


def test_the_queen_back_home_after_her_treacherous_capture_has_moved():
    # Found by the invariant checker (issue #22): her capture's path comes back to e2, and
    # she stood there unmarked, as if she had never moved (FEN's eighth field).
    fen = "4k5/10/10/10/10/10/10/3p6/4V5/4K5 w - - 0 1"
    pos = new_position("grosschess", fen)
    pos.push_str("e2d3,e2")
    assert pos.fen() == "4k5/10/10/10/10/10/10/10/4V5/4K5 b - - 0 1 - e2"
    pos.pop()
    assert pos.fen() == fen


def test_a_near_mars_sagittarius_or_officer_attacks_as_its_moves_do_where_hits_found_no_slide():
    # _more_attacks asks _near_hits, not _hits, for a Mars, a Sagittarius or an Officer at most
    # 2 squares from the square: a slide is left to hits() (the attack tables, asked first), an
    # Officer's steps are looked at without its moves made.  The same answer as making all
    # its moves, wherever hits() found no attack.
    rnd = random.Random(38)
    asked = 0
    for pos in random_positions(X.new, rnd, 20, 90):
        cells = pos.cells
        for sq in pos.game.layout.squares[::3]:
            if not cells[sq]:
                continue
            for d in X._BOX:
                a = sq + d
                t = cells[a] & 31
                if cells[a] & 96 and t in (pos.MARS, pos.SAGITTARIUS, pos.OFFICER):
                    by = cells[a] & 96
                    if not H.hits(cells, pos.counts, sq, by, pos.game.hit_table):
                        assert pos._near_hits(a, sq) == pos._hits(a, sq), (pos.fen(), a, sq)
                        asked += 1
    assert asked > 300
    # (rare in random games) a Mars at home leaps as a Knight on its first move
    pos = new_position("grosschess", "4k5/10/10/10/10/10/7p2/10/6M3/4K5 w - - 0 1")
    lay = pos.game.layout
    g2, h4 = lay.cell("g2"), lay.cell("h4")
    assert pos._near_hits(g2, h4) and pos._hits(g2, h4) and pos.attacked(h4, 32)
    # an Officer at home jumps straight forward over a unit; not two squares back, unless strong
    pos = new_position("grosschess", "4k5/10/10/10/10/10/1p8/1p8/1O8/4K5 w - - 0 1")
    b2, b4 = lay.cell("b2"), lay.cell("b4")
    assert pos._near_hits(b2, b4) == pos._hits(b2, b4) is True  # (over the pawn on b3)
    pos = new_position("grosschess", "4k5/10/10/10/1o8/10/1P8/10/10/4K5 b - - 0 1")
    b6, b4 = lay.cell("b6"), lay.cell("b4")
    assert pos._near_hits(b6, b4) == pos._hits(b6, b4) is True  # forward, for Black
    pos = new_position("grosschess", "4k5/10/10/10/10/1o8/10/1P8/10/4K5 b - - 0 1")
    b5, b3 = lay.cell("b5"), lay.cell("b3")
    assert pos._near_hits(b5, b3) == pos._hits(b5, b3)
    pos = new_position("grosschess", "4k5/10/10/10/10/10/1P8/10/1o8/4K5 b - - 0 1")
    b2, b4 = lay.cell("b2"), lay.cell("b4")
    assert pos._near_hits(b2, b4) == pos._hits(b2, b4) is False  # two squares back: not a weak Officer's
