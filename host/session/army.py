"""Virtual hands for battle chess's screened setup: each side's random array, placed man by
man as a board asks for them (play --battle on a virtual board, kriegspiel --sim)."""

from __future__ import annotations

from collections.abc import Callable

from firmware.rules.board import BLACK, WHITE
from host.link import read_occupancy


def random_array(colour: int, seed: int) -> str:
    """A random valid array of one side (for virtual hands)."""
    import random

    from firmware.rules import battle

    rnd = random.Random(seed)
    placed: list[tuple[str, int, int]] = []
    for letter in battle.ARMY:
        f, r = rnd.choice(battle.allowed(letter, colour, placed))
        placed.append((letter, f, r))
    return battle.field([(p if colour == WHITE else p.lower(), f, r) for p, f, r in placed])


def fresh_seed() -> int:
    """A seed drawn from the system's randomness: every run its own arrays."""
    import random

    return random.SystemRandom().randrange(1 << 31)


class ArmyHands:
    """Virtual hands for a screened setup: each side's random array (White's of seed,
    Black's of seed + 1, or of the next seed whose array leaves Black's king out of check:
    two arrays that conflict, §2.5, would be set up again, and the hands have one army
    each), placed man by man as a board asks for them, through request(line).  seed None:
    a fresh one (fresh_seed), kept in .seed; a number gives the same arrays every run."""

    def __init__(self, seed: int | None = None) -> None:
        from firmware.rules.battle import SetupConflict, men, start_fen

        seed = self.seed = fresh_seed() if seed is None else seed
        white = random_array(WHITE, seed)
        for k in range(1, 1000):
            black = random_array(BLACK, seed + k)
            try:
                start_fen(white, black)
                break
            except SetupConflict:
                continue
        self.todo = {WHITE: men(white, WHITE), BLACK: men(black, BLACK)}

    @staticmethod
    def clear(request: Callable[[str], str]) -> None:
        """Lift every piece off a virtual board."""
        occ = read_occupancy(request("sim occupancy"))
        for p, ch in enumerate(occ):
            if ch == "1":
                request(f"sim lift @{p}")

    def place(self, request: Callable[[str], str], side: int, letter: str, wait_ms: int = 100) -> None:
        """Put down side's next man of the letter the board asked for."""
        todo = self.todo[side]
        i = next(i for i, m in enumerate(todo) if m[0].upper() == letter)
        _, f, r = todo.pop(i)
        request(f"sim place {'abcdefgh'[f]}{r + 1}")
        request(f"sim wait {wait_ms}")

    def left(self, side: int) -> int:
        return len(self.todo[side])

    def has(self, side: int, letter: str) -> bool:
        """Whether a man of the letter is still to be put down for side."""
        return any(m[0].upper() == letter for m in self.todo[side])
