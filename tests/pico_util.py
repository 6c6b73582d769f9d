"""Event scripts (tests/scripts) on the emulated Pico and on the virtual board, side by
side: the moves accepted and the LED frames at every `expect` of the script.

At every `expect` both boards get SETTLE_MS more before their frame is read: the chip
scans on its own 10 ms beat (not in step with the hands, as the virtual board's `sim
wait` is) and takes some 20 ms (lower bound) to turn a lift into a frame, so a frame read
50 ms after a place could be the one before on the chip and the one after on the virtual
board.  Both timelines get the same extra time.

And no wait between two hand events is shorter than MIN_WAIT_MS, on both boards: the chip
scans 10 ms after its last scan's work is done (the virtual board on an exact 10 ms beat),
so while it works its beat slips, and a piece lifted and put back within 50 ms can go
unseen by its 40 ms debounce.  That is a figure for bench/pico.py, not a difference in
what the firmware makes of the hands, which is what these scripts compare."""

from __future__ import annotations

from host.link import BoardError, BoardLink
from host.link.pico import Hands, frame_colours

SETTLE_MS = 30
MIN_WAIT_MS = 100


def slowed(step: str) -> str:
    w = step.split()
    if w[0] == "wait" and int(w[1]) < MIN_WAIT_MS:
        return f"wait {MIN_WAIT_MS}"
    return step

def steps_of(text: str) -> list[str]:
    out = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append(slowed(line))
    return out


class Transcript:
    """Moves since the last checkpoint and the LED colours at each checkpoint."""

    def __init__(self) -> None:
        self.moves: list[str] = []
        self.points: list[tuple[str, list[str], list[tuple[int, int, int]]]] = []

    def on_event(self, seq: int, text: str) -> None:
        words = text.split()
        if words[:1] in (["move"], ["undo"]) and len(words) >= 3:
            self.moves.append(words[0] + " " + words[2])

    def point(self, step: str, frame: list[tuple[int, int, int]]) -> None:
        self.points.append((step, self.moves, frame))
        self.moves = []


def _send(link: BoardLink, line: str) -> None:
    try:
        link.request(line)
    except BoardError:
        pass  # a refusal is part of the script's story


def run_virtual(port: str, text: str, brightness: int) -> Transcript:
    """The script on the virtual board; its frames in the colours a Pico's LEDs show at
    that brightness."""
    t = Transcript()
    with BoardLink(port, timeout_s=30, on_event=t.on_event) as link:
        link.hello()
        for step in steps_of(text):
            w = step.split()
            if w[0] == "game":
                link.request("new " + " ".join(w[1:]))
                link.request("sim setup")
                link.request("sim wait 100")
                t.moves = []
            elif w[0] in ("lift", "place", "wait"):
                link.request(f"sim {w[0]} {w[1]}")
            elif w[0] == "send":
                _send(link, step[5:])
            elif w[0] == "expect":
                link.request(f"sim wait {SETTLE_MS}")
                letters = link.request("leds").split()[1]
                t.point(step, frame_colours(letters, brightness))
        t.point("end " + link.request("state"), [])
    return t


def run_pico(pico, port: str, text: str) -> Transcript:
    t = Transcript()
    hands = Hands(pico)
    with BoardLink(port, timeout_s=30, on_event=t.on_event) as link:
        link.hello(timeout_s=30)
        batch: list[str] = []
        for step in steps_of(text):
            w = step.split()
            if w[0] in ("lift", "place", "wait"):
                batch.append(step)
                continue
            hands.play(*batch)
            batch = []
            if w[0] == "game":
                link.request("new " + " ".join(w[1:]))
                hands.setup(w[1], " ".join(w[2:]) or None)
                hands.play("wait 100")
                link.request("state")  # the events before it have arrived
                t.moves = []
            elif w[0] == "send":
                _send(link, step[5:])
            elif w[0] == "expect":
                hands.play(f"wait {SETTLE_MS}")
                link.request("state")  # the events before it have arrived
                t.point(step, pico.frame())
        hands.play(*batch)
        t.point("end " + link.request("state"), [])
    return t
