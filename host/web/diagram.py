"""An SVG picture of the board: the 12 x 12 squares, the pieces, and what the LEDs show.

    python -m host.web.diagram docs/board.svg    # the README's picture: Lippo, a Gas lifted

The frame comes from the real firmware (a Board with the sim profile, in this process).
"""

from __future__ import annotations

import math
import sys
import tempfile

from firmware import leds
from firmware.rules.board import WHITE

SQ = 40
LEGEND = "LEDs: blue, where the lifted piece may go; red, a capture; white, its square"


LAST_FILL = "#ffe033"  # the last move's squares (the LED's own dim yellow, made visible)
ENGINE = "#b57bff"  # the engine's move: a violet dashed frame and arrow, unlike any LED's round glow


def svg(pos, frame: bytes, geo, title: str, legend: str = LEGEND, crop: bool = False,  # type: ignore[no-untyped-def]
        engine: tuple[int, int] | None = None) -> str:
    """The board as SVG: every physical square (crop: the game's squares and one ring of
    margin), its LED as lit, its man.  Each square's rect carries data-sq (its name, or
    @p in the margin), data-led (the LED letter of docs/protocol.md) and data-piece (the
    FEN letter), for pages and tests to read.  engine: the physical squares (from, to) of
    the move the computer wants made, framed and joined by an arrow; their rects carry
    data-engine="from" / "to"."""
    lay = pos.game.layout
    c0, c1, r0, r1 = 0, 11, 0, 11
    if crop:
        c0, c1 = max(0, geo.dx - 1), min(11, geo.dx + lay.files)
        r0, r1 = max(0, geo.dy - 1), min(11, geo.dy + lay.ranks)
    cols, rows = c1 - c0 + 1, r1 - r0 + 1
    top = 40 if title else 10
    width, height = cols * SQ + 60, rows * SQ + top + (55 if legend else 30)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        'font-family="DejaVu Sans, Arial, sans-serif" class="board">',
        '<rect width="100%" height="100%" fill="#2b2b2b"/>',
    ]
    if title:
        out.append(f'<text x="{width / 2}" y="24" fill="#eee" font-size="16" text-anchor="middle">{_esc(title)}</text>')
    marks = dict(zip(engine, ("from", "to"))) if engine else {}
    for p in range(144):
        r, c = divmod(p, 12)
        if not (c0 <= c <= c1 and r0 <= r <= r1):
            continue
        x, y = _corner(p, c0, r1, top)
        cell = geo.cell(p)
        on_board = cell != 0
        dark = (c - geo.dx + r - geo.dy) % 2 == 0
        fill = ("#8b6b4a" if dark else "#e8d3b0") if on_board else "#444"
        cls = frame[p]
        name = lay.name(cell) if on_board else f"@{p}"
        piece = ""
        if on_board and pos.cells[cell]:
            code = pos.cells[cell]
            letter = pos.game.letter[code & 31]
            piece = letter if code & WHITE else letter.lower()
        out.append(
            f'<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{fill}" data-sq="{name}" '
            f'data-led="{leds.CODES[cls] if cls < len(leds.CODES) else "."}" data-piece="{piece}"'
            + (f' data-engine="{marks[p]}"/>' if p in marks else "/>")
        )
        if cls == leds.LAST:
            out.extend(_last_mark(x, y))
        elif cls:
            rgb = leds.PALETTE[cls]
            out.append(
                f'<circle cx="{x + SQ / 2}" cy="{y + SQ / 2}" r="{SQ * 0.42}" fill="rgb{rgb}" fill-opacity="0.55"/>'
            )
        if piece and cls != leds.FROM:  # a lifted piece is in the hand
            white = piece.isupper()
            out.append(
                f'<circle cx="{x + SQ / 2}" cy="{y + SQ / 2}" r="{SQ * 0.33}" '
                f'fill="{"#fafafa" if white else "#151515"}" stroke="#777"/>'
            )
            out.append(
                f'<text x="{x + SQ / 2}" y="{y + SQ / 2 + 5}" font-size="15" text-anchor="middle" '
                f'fill="{"#111" if white else "#eee"}">{piece.upper()}</text>'
            )
    for f in range(lay.files):
        x = 30 + (f + geo.dx - c0) * SQ + SQ / 2
        out.append(f'<text x="{x}" y="{top + rows * SQ + 18}" fill="#ccc" font-size="13" text-anchor="middle">{lay.letters[f]}</text>')
    for r in range(lay.ranks):
        y = top + (r1 - r - geo.dy) * SQ + SQ / 2 + 5
        out.append(f'<text x="15" y="{y}" fill="#ccc" font-size="13" text-anchor="middle">{r + 1}</text>')
    if engine and all(c0 <= p % 12 <= c1 and r0 <= p // 12 <= r1 for p in engine):
        out.extend(_engine_marks(*(_corner(p, c0, r1, top) for p in engine)))
    if legend:
        out.append(f'<text x="{width / 2}" y="{top + rows * SQ + 40}" fill="#ccc" font-size="12" text-anchor="middle">{_esc(legend)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _last_mark(x: int, y: int) -> list[str]:
    """The last move's square: the board's dim yellow LED would vanish on a dark square, so
    the page tints the square yellow and rings it, a bright ring inside a dark one, which
    stands out on light and dark squares alike."""
    return [
        f'<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{LAST_FILL}" fill-opacity="0.5" class="last"/>',
        f'<rect x="{x + 2}" y="{y + 2}" width="{SQ - 4}" height="{SQ - 4}" fill="none" stroke="#222" stroke-width="3" class="last"/>',
        f'<rect x="{x + 3.5}" y="{y + 3.5}" width="{SQ - 7}" height="{SQ - 7}" fill="none" stroke="{LAST_FILL}" '
        'stroke-width="2.5" class="last"/>',
    ]


def _corner(p: int, c0: int, r1: int, top: int) -> tuple[int, int]:
    """The top left corner of physical square p's rect."""
    r, c = divmod(p, 12)
    return 30 + (c - c0) * SQ, top + (r1 - r) * SQ


def _engine_marks(a: tuple[int, int], b: tuple[int, int]) -> list[str]:
    """The engine's move from the square at corner a to the one at corner b: both framed
    (dashed, inside the square), an arrow between them that covers neither man's letter."""
    out = [f'<rect x="{x + 3}" y="{y + 3}" width="{SQ - 6}" height="{SQ - 6}" fill="none" stroke="{ENGINE}" '
           f'stroke-width="4" stroke-dasharray="7 4" class="engine"/>' for x, y in (a, b)]
    (x0, y0), (x1, y1) = ((x + SQ / 2, y + SQ / 2) for x, y in (a, b))
    length = math.hypot(x1 - x0, y1 - y0)
    if length:
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        sx, sy = x0 + ux * SQ * 0.36, y0 + uy * SQ * 0.36  # from the rim of the man, leaving his letter clear
        tx, ty = x1 - ux * SQ * 0.3, y1 - uy * SQ * 0.3  # the head's tip
        bx, by = tx - ux * 12, ty - uy * 12
        head = f"{tx:.1f},{ty:.1f} {bx - uy * 7:.1f},{by + ux * 7:.1f} {bx + uy * 7:.1f},{by - ux * 7:.1f}"
        out.append(f'<line x1="{sx:.1f}" y1="{sy:.1f}" x2="{bx:.1f}" y2="{by:.1f}" stroke="{ENGINE}" '
                   f'stroke-width="5" stroke-opacity="0.85" stroke-linecap="round" class="engine"/>')
        out.append(f'<polygon points="{head}" fill="{ENGINE}" fill-opacity="0.85" class="engine"/>')
    return out


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def readme_picture() -> str:
    from boards import sim
    from firmware import protocol
    from firmware.app import Board

    with tempfile.TemporaryDirectory() as d:
        hw = sim.Hardware(journal_path=d + "/journal.bin")
        board = Board(hw, lambda line: None)
        board.boot(0)
        fen = "kmhagdpgahmk/eontlffltnoe/ussss1sssssu/12/5s6/12/12/5S6/12/USSSS1SSSSSU/EONTLFFLTNOE/KMHAGDPGAHMK w KQkq - 0 3"
        for line in ("new lippo " + fen, "sim setup", "sim wait 100", "sim lift h1", "sim wait 50"):
            protocol.handle(board, line.encode(), hw.clock.now())
        return svg(board.pos, bytes(board.frame), board.tracker.geo, "Lippo's 12 x 12 game: White's Gas on h1 is lifted")


if __name__ == "__main__":
    text = readme_picture()
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
