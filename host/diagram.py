"""An SVG picture of the board: the 12 x 12 squares, the pieces, and what the LEDs show.

    python -m host.diagram docs/board.svg    # the README's picture: Lippo, a Gas lifted

The frame comes from the real firmware (a Board with the sim profile, in this process).
"""

from __future__ import annotations

import sys
import tempfile

from firmware import leds
from firmware.rules.board import WHITE

SQ = 40


def svg(pos, frame: bytes, geo, title: str) -> str:  # type: ignore[no-untyped-def]
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{12 * SQ + 60}" height="{12 * SQ + 95}" '
        'font-family="DejaVu Sans, Arial, sans-serif">',
'<rect width="100%" height="100%" fill="#2b2b2b"/>',
        f'<text x="{6 * SQ + 30}" y="24" fill="#eee" font-size="16" text-anchor="middle">{title}</text>',
    ]
    lay = pos.game.layout
    for p in range(144):
        r, c = divmod(p, 12)
        x = 30 + c * SQ
        y = 40 + (11 - r) * SQ
        cell = geo.cell(p)
        on_board = cell != 0
        dark = (c - geo.dx + r - geo.dy) % 2 == 0
        fill = ("#8b6b4a" if dark else "#e8d3b0") if on_board else "#444"
        out.append(f'<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{fill}"/>')
        cls = frame[p]
        if cls:
            rgb = leds.PALETTE[cls]
            out.append(
                f'<circle cx="{x + SQ / 2}" cy="{y + SQ / 2}" r="{SQ * 0.42}" fill="rgb{rgb}" fill-opacity="0.55"/>'
            )
        if on_board and pos.cells[cell] and cls != leds.FROM:  # a lifted piece is in the hand
            code = pos.cells[cell]
            letter = pos.game.letter[code & 31]
            white = code & WHITE
            out.append(
                f'<circle cx="{x + SQ / 2}" cy="{y + SQ / 2}" r="{SQ * 0.33}" '
                f'fill="{"#fafafa" if white else "#151515"}" stroke="#777"/>'
            )
            out.append(
                f'<text x="{x + SQ / 2}" y="{y + SQ / 2 + 5}" font-size="15" text-anchor="middle" '
                f'fill="{"#111" if white else "#eee"}">{letter}</text>'
            )
    for f in range(lay.files):
        x = 30 + (f + geo.dx) * SQ + SQ / 2
        out.append(f'<text x="{x}" y="{40 + 12 * SQ + 18}" fill="#ccc" font-size="13" text-anchor="middle">{lay.letters[f]}</text>')
    for r in range(lay.ranks):
        y = 40 + (11 - r - geo.dy) * SQ + SQ / 2 + 5
        out.append(f'<text x="15" y="{y}" fill="#ccc" font-size="13" text-anchor="middle">{r + 1}</text>')
    legend = "LEDs: blue, where the lifted piece may go; red, a capture; white, its square"
    out.append(f'<text x="{6 * SQ + 30}" y="{12 * SQ + 80}" fill="#ccc" font-size="12" text-anchor="middle">{legend}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


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
