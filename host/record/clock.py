"""A chess clock for the host: two times, base + increment, fed by events with explicit
timestamps (milliseconds of any monotonic clock), so that tests need no real time.

    clock = Clock.parse("5+3")        # 5 minutes each, 3 s added after every move
    clock.run("white", now_ms)        # White's time runs (the game can begin)
    left = clock.moved(now_ms)        # the mover's move: his time stops, the increment is
                                      # added, the other side's runs; his time left (ms)
    clock.flagged(now_ms)             # "white" / "black" whose time is out, or None
"""

from __future__ import annotations

import re

SIDES = ("white", "black")


class ClockError(ValueError):
    """A time control that cannot be read: the message says the form in words."""


def other(side: str) -> str:
    return "black" if side == "white" else "white"


class Clock:
    """Both players' time left; at most one side's runs."""

    def __init__(self, base_ms: int, inc_ms: int = 0, control: str = "") -> None:
        self.base_ms = base_ms
        self.inc_ms = inc_ms
        self.control = control or f"{base_ms // 60000}+{inc_ms // 1000}"
        self.left_ms = {"white": base_ms, "black": base_ms}
        self.running: str | None = None
        self.since_ms: float = 0  # when the running side's time last started
        self.fallen: str | None = None  # the side whose flag fell (the clock stops then)

    @classmethod
    def parse(cls, text: str) -> Clock:
        """'MIN+INC' (minutes, seconds; '5+3', '0.5+0', '90+30') -> a Clock; ClockError."""
        m = re.fullmatch(r"(\d{1,4}(?:\.\d{1,3})?)\+(\d{1,4})", text.strip())
        if m is None or float(m.group(1)) <= 0:
            raise ClockError(f"a clock is MIN+INC, minutes for each side and seconds added after every move (5+3, 0.5+0): not {text!r}")
        return cls(round(float(m.group(1)) * 60000), int(m.group(2)) * 1000, text.strip())

    def pgn_time_control(self) -> str:
        """The PGN TimeControl tag: seconds, '+' increment (PGN 9.6.1)."""
        return f"{self.base_ms // 1000}+{self.inc_ms // 1000}" if self.inc_ms else f"{self.base_ms // 1000}"

    def left(self, side: str, now_ms: float) -> int:
        """The side's time left at now_ms (never below 0)."""
        ms: float = self.left_ms[side]
        if side == self.running:
            ms -= now_ms - self.since_ms
        return max(0, int(ms))

    def _charge(self, now_ms: float) -> None:
        if self.running is not None:
            self.left_ms[self.running] = self.left(self.running, now_ms)
            self.since_ms = now_ms

    def run(self, side: str | None, now_ms: float) -> None:
        """side's time runs from now_ms (None: both stop); the running side is charged first."""
        if self.fallen is not None:
            return
        self._charge(now_ms)
        self.running = side
        self.since_ms = now_ms

    def moved(self, now_ms: float) -> int | None:
        """The running side moved at now_ms: charged, the increment added, the other side's
        time runs.  Returns the mover's time left (ms), or None if no time was running."""
        mover = self.running
        if mover is None or self.fallen is not None:
            return None
        self._charge(now_ms)
        self.left_ms[mover] += self.inc_ms
        self.run(other(mover), now_ms)
        return self.left_ms[mover]

    def flagged(self, now_ms: float) -> str | None:
        """The side whose time has run out at now_ms (the clock stops there), or None."""
        if self.fallen is None and self.running is not None and self.left(self.running, now_ms) <= 0:
            self._charge(now_ms)
            self.fallen = self.running
            self.running = None
        return self.fallen

    def text(self, now_ms: float) -> str:
        """'White 4:59.3 | Black 5:00 (White's clock runs)' for the live view."""
        parts = [f"{s.capitalize()} {fmt(self.left(s, now_ms))}" for s in SIDES]
        how = f"{self.running.capitalize()}'s clock runs" if self.running else "stopped"
        if self.fallen:
            how = f"{self.fallen.capitalize()}'s flag fell"
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
