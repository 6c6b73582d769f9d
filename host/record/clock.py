"""A chess clock for the host: two times and a way of adding time, fed by events with
explicit timestamps (milliseconds of any monotonic clock), so that tests need no real time.

    clock = Clock.parse("5+3")        # 5 minutes each, 3 s added after every move (Fischer)
    clock = Clock.parse("5d3")        # 5 minutes each, 3 s of delay a move (simple, US delay)
    clock = Clock.parse("5b3")        # 5 minutes each, Bronstein: up to 3 s given back a move
    clock.moved(now_ms)               # a move: the first starts the clock (as e-board clocks
                                      # do: the mover is charged nothing, the other's time
                                      # runs); later ones stop the mover's time, add what the
                                      # mode adds, run the other's; the mover's time left (ms)
    clock.run("white", now_ms)        # a side's time runs (a game resumed); None: both stop
    clock.flagged(now_ms)             # "white" / "black" whose time is out, or None

The three modes, as club clocks (DGT, Chronos) have them:
- Fischer (`+`): the increment is added to the mover's time after each move.
- simple delay (`d`): each move's first seconds cost nothing; the time runs after them.
- Bronstein (`b`): after each move the time it took is given back, up to the delay.
"""

from __future__ import annotations

import re

SIDES = ("white", "black")
MODES = {"+": "fischer", "d": "delay", "b": "bronstein"}
FORMS = ("a clock is MIN+INC (5+3: minutes for each side, seconds added after every move), MINdDELAY "
         "(5d3: each move's first seconds cost nothing) or MINbDELAY (5b3: Bronstein, a move's time "
         "given back up to the delay)")


class ClockError(ValueError):
    """A time control that cannot be read: the message says the forms in words."""


def other(side: str) -> str:
    return "black" if side == "white" else "white"


class Clock:
    """Both players' time left; at most one side's runs."""

    def __init__(self, base_ms: int, inc_ms: int = 0, control: str = "", mode: str = "fischer") -> None:
        self.base_ms = base_ms
        self.inc_ms = inc_ms  # the increment (fischer) or the delay (delay, bronstein)
        self.mode = mode
        sign = {v: k for k, v in MODES.items()}[mode]
        self.control = control or f"{base_ms / 60000:g}{sign}{inc_ms // 1000}"
        self.left_ms = {"white": base_ms, "black": base_ms}  # as of the running side's turn start
        self.running: str | None = None
        self.since_ms: float = 0  # when the running side's turn began
        self.started = False  # a move was made, or the clock was run: it is no longer waiting
        self.fallen: str | None = None  # the side whose flag fell (the clock stops then)

    @classmethod
    def parse(cls, text: str) -> Clock:
        """'5+3', '0.5+0', '90+30', '5d3', '5b2' -> a Clock; ClockError in words."""
        m = re.fullmatch(r"(\d{1,4}(?:\.\d{1,3})?)([+db])(\d{1,4})", text.strip())
        if m is None or float(m.group(1)) <= 0:
            raise ClockError(f"{FORMS}: not {text!r}")
        return cls(round(float(m.group(1)) * 60000), int(m.group(3)) * 1000, text.strip(), MODES[m.group(2)])

    def pgn_time_control(self) -> str:
        """The PGN TimeControl tag: seconds, '+' increment (PGN 9.6.1).  PGN has no form for a
        delay: a delay game's is its base alone (the archive's clock record keeps the mode)."""
        if self.inc_ms and self.mode == "fischer":
            return f"{self.base_ms // 1000}+{self.inc_ms // 1000}"
        return f"{self.base_ms // 1000}"

    def left(self, side: str, now_ms: float) -> int:
        """The side's time left at now_ms (never below 0)."""
        ms: float = self.left_ms[side]
        if side == self.running:
            spent = now_ms - self.since_ms
            if self.mode == "delay":
                spent -= min(spent, self.inc_ms)
            ms -= max(0.0, spent)
        return max(0, int(ms))

    def delay_left(self, now_ms: float) -> int:
        """A simple delay's ms still free in the running side's move (0 in other modes)."""
        if self.mode != "delay" or self.running is None:
            return 0
        return int(max(0.0, self.inc_ms - (now_ms - self.since_ms)))

    def run(self, side: str | None, now_ms: float) -> None:
        """side's time runs from now_ms (None: both stop); the running side is charged first."""
        if self.fallen is not None:
            return
        if self.running is not None:
            self.left_ms[self.running] = self.left(self.running, now_ms)
        self.running = side
        self.since_ms = now_ms
        self.started = self.started or side is not None

    def moved(self, now_ms: float, mover: str | None = None) -> int | None:
        """A move at now_ms by mover (default: the side whose time runs).  The first move of
        a clock not started charges nothing and starts the other side's time; a later one
        charges the mover, adds the increment (or Bronstein's time given back) and runs the
        other side's.  Returns the mover's time left (ms), or None once a flag has fallen."""
        if self.fallen is not None:
            return None
        mover = mover or self.running
        if mover is None:
            return None
        if self.running != mover:  # the clock's first move (or a move while it stood)
            self.run(None, now_ms)
            self.run(other(mover), now_ms)
            return self.left_ms[mover]
        before = self.left_ms[mover]
        ms = self.left(mover, now_ms)
        if self.mode == "fischer":
            ms += self.inc_ms
        elif self.mode == "bronstein":
            ms += min(self.inc_ms, before - ms)
        self.running = None
        self.left_ms[mover] = ms
        self.run(other(mover), now_ms)
        return ms

    def flagged(self, now_ms: float) -> str | None:
        """The side whose time has run out at now_ms (the clock stops there), or None."""
        if self.fallen is None and self.running is not None and self.left(self.running, now_ms) <= 0:
            side = self.running
            self.run(None, now_ms)
            self.fallen = side
        return self.fallen

    @classmethod
    def restore(cls, kept: dict[str, object]) -> Clock:
        """The clock the archive kept (Archive.kept_clock: its control and both times left),
        started and stopped: run() goes on with it."""
        c = cls.parse(str(kept["control"]))
        for side in SIDES:
            c.left_ms[side] = max(0, int(kept[side]))  # type: ignore[call-overload]
        c.started = True
        return c

    def text(self, now_ms: float, turn: str = "white") -> str:
        """'clock 5+3: White 4:59.3 | Black 5:00 (White's clock runs)' for the live view;
        turn: the side to move, named while the clock waits for the first move."""
        parts = [f"{s.capitalize()} {fmt(self.left(s, now_ms))}" for s in SIDES]
        if self.fallen:
            how = f"{self.fallen.capitalize()}'s flag fell"
        elif self.running:
            how = f"{self.running.capitalize()}'s clock runs"
            free = self.delay_left(now_ms)
            if free:
                how += f", its delay {-(-free // 1000)} s"
        elif not self.started:
            how = f"it starts with {turn.capitalize()}'s first move"
        else:
            how = "stopped"
        return f"clock {self.control}: " + " | ".join(parts) + f" ({how})"


def fmt(ms: int) -> str:
    """ms as h:mm:ss, or m:ss, with tenths under 20 s."""
    s, tenths = divmod(max(0, ms) // 100, 10)
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    text = f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"
    return text + (f".{tenths}" if s < 20 else "")


def pgn_clk(ms: int) -> str:
    """ms as PGN's %clk value, h:mm:ss (whole seconds, rounded down)."""
    s = max(0, ms) // 1000
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
