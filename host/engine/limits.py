"""What the engine may spend on a move, the levels a player picks, and its reply."""

from __future__ import annotations

from .search import Info


class Limits:
    """What the engine may spend on one move: depth (plies), movetime (ms), or a clock
    (the side's remaining ms and increment; moves_to_go if the control has a period)."""

    def __init__(
        self,
        depth: int | None = None,
        movetime_ms: int | None = None,
        white_ms: int | None = None,
        black_ms: int | None = None,
        white_inc_ms: int = 0,
        black_inc_ms: int = 0,
        moves_to_go: int | None = None,
        nodes: int | None = None,
    ) -> None:
        self.depth = depth
        self.movetime_ms = movetime_ms
        self.white_ms = white_ms
        self.black_ms = black_ms
        self.white_inc_ms = white_inc_ms
        self.black_inc_ms = black_inc_ms
        self.moves_to_go = moves_to_go
        self.nodes = nodes  # UCI's `go nodes`: the search stops soon after that many

    def budget(self, white_to_move: bool) -> tuple[float | None, float | None]:
        """(hard, soft) seconds for this move: the search stops at hard, and starts no new
        iteration after soft.  None: no time limit (depth only)."""
        if self.movetime_ms is not None:
            s = max(1, self.movetime_ms) / 1000
            return s, s
        left = self.white_ms if white_to_move else self.black_ms
        if left is None:
            return None, None
        inc = (self.white_inc_ms if white_to_move else self.black_inc_ms) / 1000
        left_s = max(0.0, left / 1000)
        share = clock_share(left_s, inc, self.moves_to_go)
        hard = max(0.01, share)
        # No new iteration past half the share: the next one takes longer than the first half.
        soft = max(0.005, hard / 2)
        return hard, soft


SUDDEN_DEATH_MOVES = 40  # the moves a clock without a period is shared among (its time left / 40)
RESERVE_S = 0.05  # kept back from the time left: the host's and the pipes' lag


def clock_share(left_s: float, inc_s: float, moves_to_go: int | None) -> float:
    """The seconds a move may take on a clock: the time left shared among the period's moves
    to go (else SUDDEN_DEATH_MOVES), plus three quarters of the increment; never more than a
    third of the time left, nor the time left less RESERVE_S.  The search stops there (hard),
    so a move never takes more than its share (UCI `wtime 60000 winc 1000`: 2.25 s; XBoard
    `level 40 5 0`'s first move: 7.5 s)."""
    share = left_s / (moves_to_go if moves_to_go else SUDDEN_DEATH_MOVES) + 0.75 * inc_s
    return max(0.0, min(share, left_s / 3, left_s - RESERVE_S))


class Halt:
    """A search stopped from another thread (UCI's `stop`, CECP's `?`): stop() makes the
    search give its move at once (the best found so far)."""

    def __init__(self) -> None:
        self.stopped = False

    def stop(self) -> None:
        self.stopped = True


class Level:
    """A level a player picks: how deep, how long, and how often the engine errs."""

    def __init__(self, number: int, depth: int | None, movetime_ms: int | None, error_rate: float,
                 name: str) -> None:
        self.number = number
        self.depth = depth
        self.movetime_ms = movetime_ms
        self.error_rate = error_rate  # chance of a deliberately random move instead of the best
        self.name = name


LEVELS = (
    Level(1, 1, 200, 0.5, "beginner: looks one move ahead, every other move a random one"),
    Level(2, 1, 200, 0.25, "novice: one move ahead, a random move one time in four"),
    Level(3, 2, 300, 0.12, "casual: two plies, a random move one time in eight"),
    Level(4, 3, 500, 0.05, "club: three plies, an occasional slip"),
    Level(5, None, 500, 0.0, "half a second a move"),
    Level(6, None, 1000, 0.0, "a second a move"),
    Level(7, None, 3000, 0.0, "three seconds a move"),
    Level(8, None, 10000, 0.0, "ten seconds a move"),
)


def level(number: int) -> Level:
    """The Level numbered 1..8; ValueError in words for another number."""
    if not 1 <= number <= len(LEVELS):
        raise ValueError("no level %d: levels run from 1 (beginner) to %d (strongest)" % (number, len(LEVELS)))
    return LEVELS[number - 1]


class Reply:
    """The engine's choice: the move (an int of the position), its string, score, infos."""

    def __init__(self, move: int, move_str: str, score: int, infos: list[Info], engine: str, note: str = "") -> None:
        self.move = move
        self.move_str = move_str
        self.score = score  # centipawns for the side to move (mates near +-1,000,000)
        self.infos = infos
        self.engine = engine  # "ours", or the UCI engine's name
        self.note = note
