"""Identity soak (issue #11, points 4-6): a virtual board (real MicroPython behind a pty)
followed by the host's Bridge into a real SQLite archive, through rounds of faults:

  fresh    a power cut of a fresh board in its default game (no `new`)
  cut      a power cut in the middle of a game
  wiped    the journal deleted while the power is off
  zeroed   the journal overwritten with zeros
  garbled  the journal overwritten with 64 KiB of random bytes
  away     the host away while a game ends and a new game of the same kind is played

    .venv/bin/python bench/identity_soak.py [ROUNDS]

The player keeps the true record of every game (by the uid the board gives it); at the
end it is compared with the archive.  Prints the faults and the moves lost, duplicated or
spliced into another game, and results lost (target: all zero).
"""

import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_host import hands_for  # noqa: E402
from test_identity import FOOLS_MATE, Followed, _deleted, _garbled, _zeroed  # noqa: E402

from firmware.rules import new_position  # noqa: E402
from host.link import BoardLink  # noqa: E402

FAULTS = ("fresh", "cut", "wiped", "zeroed", "garbled", "away")


class Player:
    """The person at one board: knows every game played on it, by uid."""

    def __init__(self, tmp, rng):
        self.f = Followed(tmp)
        self.rng = rng
        self.games = {}  # uid -> [moves, result]

    def play(self, plies, request=None, moves=None):
        """Play on in the board's own game (setting it up if it waits for that): random
        moves that do not end it, or the given moves."""
        request = request or self.f.req
        uid = request("game").split()[2]
        record, _ = self.games.setdefault(uid, [[], "*"])
        if request("state").split()[2] == "setup":
            request("sim setup")
            request("sim wait 100")
        pos = new_position("chess")
        for text in record:
            pos.push(pos.parse_move(text))
        for i in range(plies if moves is None else len(moves)):
            if moves is None:
                choices = [m for m in pos.legal_moves() if not _ends(pos, m)]
                m = self.rng.choice(choices)
            else:
                m = pos.parse_move(moves[i])
            for step in hands_for(pos, m):
                request("sim " + step)
            request("sim wait 700")
            record.append(pos.move_str(m))
            pos.push(m)
        if pos.outcome() is not None:
            self.games[uid][1] = pos.outcome().result()

    def fault(self, kind):
        f = self.f
        if kind == "away":
            f.bridge.close()  # the host goes away; the hands go on through the port
            with BoardLink(f.vb.port) as link:
                link.hello()
                link.request("new chess")
                self.play(0, link.request, FOOLS_MATE)
                link.request("new chess")
                self.play(12, link.request)
            f.bridge.ensure()
            return
        if kind != "fresh":
            self.play(2)
        self.play(3)
        mangle = {"wiped": _deleted, "zeroed": _zeroed, "garbled": _garbled}.get(kind)
        f.power_cut(mangle)
        self.play(3)

    def compare(self):
        """(lost, duplicated, spliced, results lost) between the player's record and the archive."""
        a = self.f.archive
        for _ in range(20):
            self.f.bridge.poll(0.1)
        lost = duplicated = spliced = results = 0
        archived = [(g, a.moves(g.id)) for g in a.games()]
        for uid, (moves, result) in self.games.items():
            mine = [(g, m) for g, m in archived if g.uid == uid and m]
            if not mine:
                lost += len(moves)
                continue
            g, stored = mine[-1]
            duplicated += sum(len(m) for _, m in mine[:-1])
            n = 0
            while n < len(moves) and n < len(stored) and moves[n] == stored[n]:
                n += 1
            lost += len(moves) - n
            spliced += len(stored) - n
            results += result != "*" and g.result != result
        known = set(self.games)
        spliced += sum(len(m) for g, m in archived if m and g.uid not in known)
        return lost, duplicated, spliced, results


def _ends(pos, m):
    pos.push(m)
    over = pos.outcome() is not None
    pos.pop()
    return over


def main(rounds: int) -> None:
    rng = random.Random(2026)
    t0 = time.monotonic()
    counts = dict.fromkeys(FAULTS, 0)
    totals = [0, 0, 0, 0]
    games = 0
    with tempfile.TemporaryDirectory() as tmp:
        n = 0
        p = None
        try:
            for _ in range(rounds):
                kind = rng.choice(FAULTS)
                counts[kind] += 1
                if p is None or kind == "fresh":  # a fresh board: a new one, never told `new`
                    if p is not None:
                        totals = [t + c for t, c in zip(totals, p.compare())]
                        games += len(p.games)
                        p.f.close()
                    n += 1
                    p = Player(Path(tmp) / str(n), rng)
                p.fault(kind)
            totals = [t + c for t, c in zip(totals, p.compare())]
            games += len(p.games)
        finally:
            if p is not None:
                p.f.close()
    dt = time.monotonic() - t0
    lost, duplicated, spliced, results = totals
    print("faults: " + ", ".join(f"{k} {v}" for k, v in counts.items()) + f"; boards {n}")
    print(
        f"games {games}: moves lost {lost}, duplicated {duplicated}, spliced {spliced}; "
        f"results lost {results} ({dt:.0f} s)"
    )


main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
