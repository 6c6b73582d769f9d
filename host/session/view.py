"""The live view in a terminal: the board with its LEDs, whose turn, the moves, the points.

Every square shows its piece (FEN letter, '.' for none) and its LED as a second character
(the letters of docs/protocol.md, ' ' when off); on a colour terminal the lit squares are
coloured too.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

from firmware.rules import FenError, MoveError, new_position
from firmware.rules.board import WHITE
from firmware.rules.game import AFTER_OPENING
from firmware.squares import Geometry

LED_NAMES = {
    "d": "destination",
    "x": "capture",
    "f": "piece in hand (or to move)",
    "l": "last move",
    "m": "put a piece here",
    "r": "take this piece away",
    "C": "promotion choice",
    "o": "other choice",
    "W": "winner",
    "L": "loser",
    "D": "draw",
    "k": "check",
    "n": "announcement",
    "h": "hint",
}
COLOURS = {
    "d": "44",
    "x": "41",
    "f": "47;30",
    "l": "43;30",
    "m": "42;30",
    "r": "41",
    "C": "45",
    "o": "45",
    "W": "42;30",
    "L": "41",
    "D": "43;30",
    "k": "41",
    "n": "46;30",
    "h": "45;97",
}


@dataclass
class Snapshot:
    """What the view shows, as the board and the archive report it."""

    game: str = "chess"
    state: str = "setup"
    fen: str = ""
    leds: str = "." * 144
    moves: list[str] = field(default_factory=list)
    game_id: int | None = None
    notes: list[str] = field(default_factory=list)
    port: str = ""
    status: list[str] = field(default_factory=list)  # lines under the head: the clock, the computer
    page: str = ""  # a text asked for (help, help pieces, the legal moves), shown until the next typed line
    doing: str = ""  # what the board waits for, in words, shown in the head for its state word


def correction_words(game: str, fen: str, leds: str, before: str | None = None, last: str | None = None) -> str:
    """What the board in correction asks for, in words, from its LEDs (m: a man goes there,
    r: a man to take away) and the position it keeps (fen); before, last: the position
    before the last move and that move, for a man the board wants back where it stood
    ('put the white knight from f3 back on g1; take the man off e5')."""
    try:
        pos = new_position(game, fen)
        prev = new_position(game, before) if before else None
    except (FenError, ValueError):
        return ""
    lay = pos.game.layout
    geo = Geometry(lay)
    back = {}  # the last move's squares: where a man stood before it -> where it went
    if prev is not None and last:
        try:
            m = prev.parse_move(last)
            back[prev.move_from(m)] = prev.move_to(m)
        except (MoveError, ValueError):
            back = {}
    put, away = [], []
    for cell in lay.squares:
        led = leds[geo.phys(cell)] if len(leds) == 144 else "."
        c, here = pos.cells[cell], geo.name(geo.phys(cell))
        if led == "m" and not c and prev is not None and prev.cells[cell]:
            c = prev.cells[cell]
            if cell in back:
                put.append(f"the {_man(prev, c)} from {geo.name(geo.phys(back[cell]))} back on {here}")
                continue
        if led == "m" and c:
            put.append(f"the {_man(pos, c)} on {here}")
        elif led == "m":
            put.append(f"a man on {here}")
        elif led == "r":
            away.append(here)
    said = []
    if put:
        said.append("put " + ", ".join(put))
    if away:
        said.append("take the man off " + ", ".join(away))
    return ("to go on, " + "; ".join(said)) if said else ""


def _man(pos, c: int) -> str:  # type: ignore[no-untyped-def]
    return ("white " if c & WHITE else "black ") + pos.game.names[c & 31].lower()


def wrapped(text: str, cols: int) -> list[str]:
    """text's lines, each longer than cols cut at spaces (its indent kept), not inside a word."""
    out = []
    for line in text.splitlines():
        indent = " " * (len(line) - len(line.lstrip(" ")))
        out += textwrap.wrap(line, cols, subsequent_indent=indent, break_on_hyphens=False) if len(line) > cols else [line]
    return out


def render(s: Snapshot, colour: bool = False, size: tuple[int, int] | None = None) -> str:
    """The view as text; size: the terminal's (columns, rows), which it then fits, the
    prompt's row kept (a page too long beside the board is shown in its place, the head kept)."""
    try:
        pos = new_position(s.game, s.fen or None)
    except (FenError, ValueError):
        return f"{s.game}: cannot show position {s.fen!r}\n"
    lay = pos.game.layout
    geo = Geometry(lay)
    lines = []
    turn = "White" if pos.turn == WHITE else "Black"
    head = f"{s.game} on {s.port or 'the board'}  |  {turn} to move  |  ply {len(s.moves)}  |  board: {s.doing or s.state}"
    if pos.game.check_rules and pos.is_check():
        head += f"  |  {turn} is in check" + ("mate" if not pos.has_legal_move() else "")
    if s.game == "lippo":
        w, b = pos.points()  # type: ignore[attr-defined]
        head += f"  |  points White {w}, Black {b}"
    lines.append(head)
    lines.extend(s.status)
    top = len(lines)  # the diagram starts here
    files = lay.letters
    lines.append("     " + "".join(f" {f} " for f in files))
    lit = set()
    for r in range(lay.ranks - 1, -1, -1):
        row = f" {r + 1:>2}  "
        for f in range(lay.files):
            cell = lay.squares[r * lay.files + f]
            c = pos.cells[cell]
            piece = "."
            if c:
                letter = pos.game.letter[c & 31]
                piece = letter if c & WHITE else letter.lower()
            led = s.leds[geo.phys(cell)] if len(s.leds) == 144 else "."
            if led != ".":
                lit.add(led)
            text = f" {piece}{led if led != '.' else ' '}"
            if colour and led in COLOURS:
                text = f"\x1b[{COLOURS[led]}m{text}\x1b[0m"
            row += text
        lines.append(row + f"  {r + 1}")
    lines.append("     " + "".join(f" {f} " for f in files))
    if lit:
        lines.append("LEDs: " + ", ".join(f"{k} {LED_NAMES.get(k, k)}" for k in sorted(lit)))
    diagram = len(lines) - top
    if s.moves:
        pairs = []
        for i in range(0, len(s.moves), 2):
            pairs.append(f"{i // 2 + 1}. " + " ".join(s.moves[i : i + 2]))
        tail = pairs[-8:]
        lines.append("moves: " + ("... " if len(pairs) > 8 else "") + " ".join(tail))
        lines.append(f"last move: {s.moves[-1]}")
    for note in s.notes[-3:]:
        lines.append(note)
    if s.page:
        page = wrapped(s.page, size[0]) if size else s.page.splitlines()
        cols = size[0] if size else 0
        others = lines[:top] + lines[top + diagram:] + page  # the diagram's rows are narrower than any terminal
        if size and diagram + sum(max(1, -(-len(x) // cols)) for x in others) + 2 > size[1]:  # + archived, prompt
            lines[top:top + diagram] = ["(the board is drawn again at the next line typed)"]
        lines += page
    if s.game_id is not None and not s.moves and pos.fen() in (new_position(s.game).fen(), AFTER_OPENING.get(s.game)):
        # the archive keeps no game that has no move from the usual start (Archive.drop_empty)
        lines.append(f"game #{s.game_id}: archived once a move is made")
    elif s.game_id is not None:
        lines.append(f"archived as game #{s.game_id}")
    return "\n".join(lines) + "\n"
