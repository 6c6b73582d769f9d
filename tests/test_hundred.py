"""100-square chess (hundred.md): every case of hundred_cases.json, and a naive second
generator written from the spec (a dict of squares, no code shared with the core) compared
with the core on random positions."""

import json
import random
import sys

import pytest
from conftest import ROOT, RULES, random_positions, tuple_board

from firmware.rules import new_position
from firmware.rules.games import hundred as H
from firmware.rules.games.grosschess import TREACH
from firmware.rules.position import CASTLE, DOUBLE, EP, PROMO

sys.path.insert(0, str(ROOT / "tests" / "mpy"))
from fenutil import board_fen  # noqa: E402

DATA = json.loads((RULES / "hundred_cases.json").read_text())
FILES = "abcdefghik"
INITIAL = dict(zip([f + "1" for f in FILES], ["w" + c for c in "RNBZKQGBNR"]))
INITIAL.update({f + "10": "b" + c for f, c in zip(FILES, "RNBZKQGBNR")})
INITIAL.update({f + "2": "wP" for f in FILES})
INITIAL.update({f + "9": "bP" for f in FILES})


LETTERS = {"K": "K", "Q": "Q", "R": "R", "B": "B", "N": "N", "P": "P", "Z": "Z", "G": "G",
           "KV": "V", "PR": "I", "M": "M", "S": "S", "O": "O"}  # JSON type code -> FEN letter


def fen_of(case, initial=INITIAL):
    """A case's position and state as a FEN of hundred.py / grosschess.py."""
    pos = case["position"]
    state = case.get("state", {})
    side = state.get("side_to_move")
    if side is None:
        side = pos[case["piece_square"]][0] if case.get("piece_square") in pos else "w"
    unmoved = state.get("unmoved")
    if unmoved is None:
        unmoved = [sq for sq, code in pos.items() if initial.get(sq) == code]
    field = board_fen(pos, side, LETTERS.__getitem__, FILES, 10).split()[0]
    castled = state.get("castled", {"w": [], "b": []})
    castling = ""
    corners = {"K": ("w", "a1", "e1", "short"), "Q": ("w", "k1", "e1", "long"),
               "k": ("b", "a10", "e10", "short"), "q": ("b", "k10", "e10", "long")}
    for letter, (c, rook, king, name) in corners.items():
        if pos.get(rook) == c + "R" and rook in unmoved and name not in castled[c] \
                and pos.get(king) == c + "K" and (king in unmoved or castled[c]):
            castling += letter
    flags = ""
    throne = state.get("throne", {})
    for c, letter in (("w", "T"), ("b", "t")):
        if throne.get(c, {}).get("used"):
            flags += letter
    for c, letter in (("w", "C"), ("b", "c")):
        if castled[c]:
            flags += letter
    # units on their start squares that have moved
    moved = [sq for sq, code in pos.items() if initial.get(sq) == code and sq not in unmoved]
    ep = state.get("en_passant", {}).get("skipped", "-")
    fen = field + f" {side} {castling or '-'} {ep} 0 1"
    if flags or moved:
        fen += f" {flags or '-'} {','.join(sorted(moved)) or '-'}"
    return fen


def kind(m):
    return m >> 19 & 15


def find(pos, move):
    """The legal moves matching a case's move object."""
    lay = pos.game.layout
    out = []
    for m in pos.legal_moves():
        frm, to, k = lay.name(m & 511), lay.name(m >> 9 & 511), kind(m)
        t = move["type"]
        if t == "normal" and (frm, to) == (move["from"], move["to"]) and k not in (CASTLE, H.PAWN_CASTLE, EP):
            out.append(m)
        elif t == "castle" and k == CASTLE and to[0] == ("c" if move["side"] == "short" else "g"):
            out.append(m)
        elif t == "pawn_castle" and k == H.PAWN_CASTLE and (frm, to) == (move["pawn"], move["piece"]):
            out.append(m)
        elif t == "en_passant" and k == EP and (frm, to) == (move["from"], move["to"]):
            out.append(m)
        elif t == "promotion" and k == PROMO and (frm, to) == (move["from"], move["to"]) \
                and pos.game.letter[m >> 23 & 31] == LETTERS[move["promote_to"]]:
            out.append(m)
        elif t == "throne" and pos.move_str(m) == move["from"] + move["to"] + "," + move["pawn_square"]:
            out.append(m)
        elif t == "treacherous" and pos.move_str(m) == move["path"][0] + move["path"][1] + "," + move["path"][2]:
            out.append(m)
    return out


def destinations(pos, sq):
    lay = pos.game.layout
    return {lay.name(m >> 9 & 511) for m in pos.legal_moves()
            if lay.name(m & 511) == sq and kind(m) not in (CASTLE, H.PAWN_CASTLE, TREACH)}


def check_case(case, new=H.new, fen=fen_of):
    pos = new(fen(case))
    k = case["kind"]
    if k == "destinations":
        got = destinations(pos, case["piece_square"])
        if "expected_destinations" in case:
            assert got == set(case["expected_destinations"])
        assert set(case.get("expected_includes", [])) <= got
        assert not set(case.get("expected_excludes", [])) & got
    if "expected_legal" in case:
        assert bool(find(pos, case["move"])) == case["expected_legal"], case["move"]
    if "expected_promotion_choices" in case:
        mv = case["move"]
        lay = pos.game.layout
        got = {pos.game.letter[m >> 23 & 31] for m in pos.legal_moves()
               if (lay.name(m & 511), lay.name(m >> 9 & 511)) == (mv["from"], mv["to"]) and kind(m) == PROMO}
        assert got == {LETTERS[x] for x in case["expected_promotion_choices"]}
    if "expected_in_check" in case:
        assert pos.is_check() == case["expected_in_check"]
    if "expected_move_count" in case:
        arrivals = {(m & 0x3FFFF, kind(m)) if kind(m) in (PROMO,) else m for m in pos.legal_moves()}
        assert len(arrivals) == case["expected_move_count"]


@pytest.mark.parametrize("case", DATA["cases"], ids=lambda c: c["id"])
def test_case(case):
    check_case(case)


def test_fen_round_trip_and_bad_fens():
    for fen in [H.START, "4k5/10/10/10/10/10/10/10/P9/4K5 w - - 0 1 Tc a2"]:
        assert new_position("hundred", fen).fen() == fen
    for bad in ["4k5/10/10/10/10/10/10/10/10/4K5 w - - 0 1 X -", "4k5/10/10/10/10/10/10/10/10/4K5 w - - 0 1 - b2",
                "4kP4/10/10/10/10/10/10/10/10/4K5 w - - 0 1", "4k5/10/10/10/10/10/10/10/10/4K5 w - - 0 1 -"]:
        with pytest.raises(ValueError):
            new_position("hundred", bad)


def test_moves_round_trip_through_their_strings():
    rnd = random.Random(5)
    for _ in range(20):
        pos = new_position("hundred")
        for _ in range(60):
            ms = pos.legal_moves()
            if not ms:
                break
            strings = [pos.move_str(m) for m in ms]
            assert len(set(strings)) == len(strings), strings
            m = rnd.choice(ms)
            assert pos.parse_move(pos.move_str(m)) == m
            before = pos.fen()
            pos.push(m)
            fen = pos.fen()
            assert new_position("hundred", fen).fen() == fen
            pos.pop()
            assert pos.fen() == before
            pos.push(m)


# ---- a naive second generator, from the spec alone ---------------------------------------------

ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAGS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
ARRIVAL = "RNBZKQGBNR"


def _tuple_board(initial):
    return {(FILES.find(sq[0]), int(sq[1:]) - 1): (code[0], LETTERS[code[1:]]) for sq, code in initial.items()}


class Naive:
    """hundred.md, with (file, rank) tuples and a dict for the board."""

    INITIAL = _tuple_board(INITIAL)
    PARTNERS = "BZ"
    THRONE_CHOICE = "QRBNZG"

    def __init__(self, board, side, ep, rights, used, moved, castled):
        self.b, self.side, self.ep, self.rights, self.used, self.moved = board, side, ep, rights, used, moved
        self.castled = castled

    def unmoved(self, sq, b=None):
        return (b or self.b).get(sq) == self.INITIAL.get(sq) and sq not in self.moved

    def homes(self, side):
        return sorted(sq for sq, v in self.INITIAL.items() if v == (side, "P"))

    def more_captures(self, sq, b, ray, out):
        pass

    def more_attacked(self, sq, by, b):
        return False

    def more_moves(self, add):
        pass

    @staticmethod
    def on(s):
        return 0 <= s[0] < 10 and 0 <= s[1] < 10

    def captures_of(self, sq, b=None):
        """Squares the unit on sq could capture on (or move to, if empty): its attack set."""
        b = b or self.b
        side, k = b[sq]
        f, r = sq
        strong = f == 4
        out = []

        def ray(d, n):
            s = sq
            for _ in range(n):
                s = (s[0] + d[0], s[1] + d[1])
                if not self.on(s):
                    return
                out.append(s)
                if s in b:
                    return

        if k == "Q":
            for d in ORTH + DIAGS:
                ray(d, 10)
        if k == "R":
            for d in ORTH:
                ray(d, 10)
        if k == "B":
            for d in DIAGS:
                ray(d, 10)
        if k == "N":
            out += [(f + x, r + y) for x, y in [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]]
        if k == "K":
            for d in ORTH + DIAGS:
                ray(d, 2 if strong else 1)
        if k in "ZG":
            direct = DIAGS if k == "Z" else ORTH
            for d in direct:
                ray(d, 10 if strong else 2)
            if k == "Z":
                bends = [((2, 0), (1, 1), (1, -1)), ((-2, 0), (-1, 1), (-1, -1)),
                         ((0, 2), (1, 1), (-1, 1)), ((0, -2), (1, -1), (-1, -1))]
            else:
                bends = [((x, y), (x, 0), (0, y)) for x, y in DIAGS]
            for t, v1, v2 in bends:
                vias = [(f + v[0], r + v[1]) for v in (v1, v2)]
                if any(self.on(v) and v not in b for v in vias):
                    out.append((f + t[0], r + t[1]))
        if k == "P":
            fw = 1 if side == "w" else -1
            out += [(f + 1, r + fw), (f - 1, r + fw)]
            if strong:
                out += [(f + 1, r - fw), (f - 1, r - fw)]
        self.more_captures(sq, b, ray, out)
        return [s for s in out if self.on(s)]

    def attacked(self, sq, by, b):
        return any(v[0] == by and sq in self.captures_of(s, b) for s, v in b.items()) or self.more_attacked(sq, by, b)

    def king_safe_after(self, b):
        king = next(s for s, v in b.items() if v == (self.side, "K"))
        return not self.attacked(king, "b" if self.side == "w" else "w", b)

    def moves(self):
        """{string: the board after it} of the legal moves."""
        side = self.side
        other = "b" if side == "w" else "w"
        out = {}
        b = self.b
        king = next(s for s, v in b.items() if v == (side, "K"))
        enemy_throne = (4, 9 if side == "w" else 0)
        last = 9 if side == "w" else 0
        leave = king == enemy_throne

        def name(s):
            return FILES[s[0]] + str(s[1] + 1)

        def add(frm, to, nb, suffix=""):
            if leave and frm != king:
                return
            if self.king_safe_after(nb):
                out[name(frm) + name(to) + suffix] = nb

        def promos(to):
            return self.THRONE_CHOICE if to[0] == 4 else ARRIVAL[to[0]]

        for sq, (s, k) in list(b.items()):
            if s != side:
                continue
            f, r = sq
            if k == "P":
                fw = 1 if side == "w" else -1
                one = (f, r + fw)
                targets = []
                if self.on(one) and one not in b:
                    targets.append(one)
                    two = (f, r + 2 * fw)
                    if self.unmoved(sq) and self.on(two) and two not in b:
                        nb = dict(b)
                        del nb[sq]
                        nb[two] = (s, k)
                        add(sq, two, nb)
                for d in ([fw, -fw] if f == 4 else [fw]):
                    for x in (1, -1):
                        t = (f + x, r + d)
                        if not self.on(t) or t not in b:
                            continue
                        if b[t][0] == other:
                            targets.append(t)
                        elif b[t][1] in self.PARTNERS:  # pawn castling
                            nb = dict(b)
                            nb[sq] = b[t]
                            for p in (promos(t) if t[1] == last else [""]):
                                nb[t] = (s, p or "P")
                                add(sq, t, nb, p.lower())
                back = (f, r - fw)
                if f == 4 and self.on(back) and back not in b:
                    nb = dict(b)
                    del nb[sq]
                    nb[back] = (s, k)
                    add(sq, back, nb)
                for t in targets:
                    nb = dict(b)
                    del nb[sq]
                    for p in (promos(t) if t[1] == last else [""]):
                        nb[t] = (s, p or "P")
                        add(sq, t, nb, p.lower())
                continue
            for t in self.captures_of(sq):
                if t in b and b[t][0] == side:
                    continue
                nb = dict(b)
                del nb[sq]
                nb[t] = (s, k)
                if k == "K" and t == enemy_throne:
                    if self.used:
                        continue
                    free = [h for h in self.homes(side) if h not in nb]
                    for p in free:
                        nb2 = dict(nb)
                        nb2[p] = (s, "P")
                        add(sq, t, nb2, "," + name(p))
                    if not free:
                        add(sq, t, nb)
                    continue
                add(sq, t, nb, ",k" if k == "K" and self._castle_to(t, king) else "")
        self.more_moves(add)
        # castling
        home = 0 if side == "w" else 9
        if king == (4, home) and not self.attacked(king, other, b):
            for letter, rook, kto, rto, empty in (("K", 0, 2, 3, [1, 2, 3]), ("Q", 9, 6, 5, [5, 6, 7, 8])):
                if (letter if side == "w" else letter.lower()) not in self.rights:
                    continue
                if any((x, home) in b for x in empty):
                    continue
                step = 1 if kto > 4 else -1
                if any(self.attacked((4 + step * i, home), other, b) for i in (1, 2)):
                    continue
                nb = dict(b)
                del nb[king]
                nb[(rto, home)] = nb.pop((rook, home))
                nb[(kto, home)] = (side, "K")
                add(king, (kto, home), nb)
        # the wider en passant
        if self.ep:
            fw = 1 if side == "w" else -1
            pawn = (self.ep[0], self.ep[1] - fw)
            nb = dict(b)
            nb[self.ep] = nb.pop(pawn)
            for sq, (s, k) in b.items():
                if s == side and self.ep in self.captures_of(sq, nb) and (k != "P" or self.ep[0] != sq[0]):
                    nb2 = dict(nb)
                    del nb2[self.ep]
                    del nb2[sq]
                    nb2[self.ep] = (s, k)
                    add(sq, self.ep, nb2)
        return out

    def _castle_to(self, t, king):
        home = 0 if self.side == "w" else 9
        if king != (4, home) or t not in ((2, home), (6, home)):
            return False
        letter = "K" if t[0] == 2 else "Q"
        letter = letter if self.side == "w" else letter.lower()
        if letter not in self.rights:
            return False
        empty = [1, 2, 3] if t[0] == 2 else [5, 6, 7, 8]
        other = "b" if self.side == "w" else "w"
        return not any((x, home) in self.b for x in empty) and not any(
            self.attacked((4 + (1 if t[0] > 4 else -1) * i, home), other, self.b) for i in (0, 1, 2))


def naive_of(pos, cls=Naive):
    board = tuple_board(pos)
    fields = pos.fen().split()
    ep = None
    if fields[3] != "-":
        ep = (FILES.find(fields[3][0]), int(fields[3][1:]) - 1)
    flags = fields[6] if len(fields) > 6 else "-"
    moved = set()
    if len(fields) > 7 and fields[7] != "-":
        moved = {(FILES.find(n[0]), int(n[1:]) - 1) for n in fields[7].split(",")}
    side = fields[1]
    return cls(board, side, ep, fields[2], ("T" if side == "w" else "t") in flags, moved, flags)


def test_core_agrees_with_a_naive_generator_on_random_positions():
    rnd = random.Random(8)

    def pick(ms):  # favour the new rules: captures, king walks, pawn castlings
        special = [m for m in ms if kind(m) in (H.PAWN_CASTLE, H.THRONE, EP, CASTLE, DOUBLE) or m >> 18 & 1]
        return rnd.choice(special if special and rnd.random() < 0.5 else ms)

    compared = 0
    for pos in random_positions(H.new, rnd, 40, 120, pick):
        if rnd.random() < 0.3:
            core = {pos.move_str(m): m for m in pos.legal_moves()}
            naive = naive_of(pos).moves()
            assert set(core) == set(naive), pos.fen()
            for text, m in core.items():  # and every move does what the spec says
                pos.push(m)
                assert naive_of(pos).b == naive[text], text
                pos.pop()
            compared += 1
    assert compared > 250


def test_the_wider_en_passant_removes_the_pawn_that_skipped():
    pos = new_position("hundred", "k9/10/6r3/10/10/10/6P3/10/10/4K5 b - g3 0 1")
    pos.push_str("g8g3")
    assert pos.fen() == "k9/10/10/10/10/10/10/6r3/10/4K5 w - - 0 2"
    pos.pop()
    assert pos.fen() == "k9/10/6r3/10/10/10/6P3/10/10/4K5 b - g3 0 1"


def test_a_position_repeated_by_kings_pawns_stepping_back_and_forth_is_drawn():
    # Issue #22: hundred.md §6.6 counts repetitions as FIDE does, but the core looked back
    # only to the last pawn move, as in chess; here a king's pawn steps back, so pawn moves
    # repeat positions: the game went on for ever, neither claim nor fivefold coming.
    fen = "k9/10/4p5/10/10/10/10/4P5/10/K9 w - - 0 1"
    pos = new_position("hundred", fen)
    for n in range(2, 6):
        for mv in ("e3e2", "e8e9", "e2e3", "e9e8"):
            pos.push_str(mv)
        assert pos.repetitions() == n and pos.halfmove == 0
    assert pos.outcome().reason == "fivefold-repetition"
    pos.trim()
    assert pos.repetitions() == 5  # the board keeps what the rule looks back on
    for _ in range(8):
        pos.pop()
    assert pos.outcome() is None and pos.outcome(claim=True).reason == "threefold-repetition"


def test_a_unit_on_its_start_square_that_has_moved_is_another_position():
    # FIDE's same position has the same moves: the e2 pawn back home has no double step.
    pos = new_position("hundred", "k9/10/10/10/10/10/10/10/4P5/K9 w - - 0 1")
    start = pos._key()
    for mv in ("e2e3", "a10a9", "e3e2", "a9a10"):
        pos.push_str(mv)
    assert pos.fen().endswith(" - e2") and pos._key() != start and pos.repetitions() == 1
