"""The rules core under its invariants (issue #22), the suite's share: random games of every
game to their end, every push, pop and FEN checked, and our engine's searches along them
with its hash, score and key (tests/mpy/core_invariants.py; bench/invariants.py runs a
million positions a game, tests/mpy/test_invariants.py a sample on MicroPython)."""

import sys

import pytest
from conftest import ROOT

from firmware.rules import GAMES, new_position

sys.path.insert(0, str(ROOT / "tests" / "mpy"))
from core_invariants import Checker, checked_search, snapshot  # noqa: E402
from fuzzgen import Rand  # noqa: E402

POSITIONS = 6000


@pytest.mark.parametrize("gid", GAMES)
def test_random_games_keep_every_invariant(gid):
    chk = Checker(gid)
    rng = Rand(7)
    searched = [0]

    def each(pos):
        if rng.below(60) == 0:
            searched[0] += checked_search(chk, pos, 2)

    chk.walk(POSITIONS, Rand(2200 + GAMES.index(gid)), each=each)
    assert chk.violations == 0, chk.problems
    assert chk.checked >= POSITIONS and chk.lines > 150 and searched[0] > 0


def test_the_checker_sees_the_issues_chain_take_its_own_king(monkeypatch):
    # The bug of #22 put back: the chain's victims read with the king still on e5.
    fen = "1m1m1m3m2/12/1m9M/12/3m1m3M1m/2m9/7m1M2/m1m1k7/5M6/2M9/12/2M9 b - - 0 62"
    pos = new_position("checkers12", fen)
    chk = Checker("checkers12")
    step = sys.modules[type(pos).__module__]._step  # (a board's `new` may have loaded the module again)

    def taken_with_the_mover(self, p):
        out = []
        for a, b in zip(p, p[1:]):
            d = step(a, b)
            out += [s for s in range(a + d, b, d) if self.cells[s]]
        return out

    monkeypatch.setattr(type(pos), "_taken", taken_with_the_mover)
    before = chk.push(pos, pos.parse_move("e5g3l7i9b2"))
    assert chk.violations >= 1 and any("piece counts wrong for k" in p for p in chk.problems), chk.problems
    pos.pop()
    assert snapshot(pos)[0] == before[0]


def test_the_checker_sees_a_search_that_loses_the_engines_hash(monkeypatch):
    from host.engine import tables

    pos = new_position("chess", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    real = tables.Tracked.push

    def forgets_captures(self, m):  # the hash and score of a capture left as they were
        h, s = self.h, self.score
        real(self, m)
        if self.pos.stack[-1][1]:
            self.h, self.score = h, s

    monkeypatch.setattr(tables.Tracked, "push", forgets_captures)
    chk = Checker("chess")
    checked_search(chk, pos, 2)
    assert any("the engine's hash" in p for p in chk.problems), chk.problems
