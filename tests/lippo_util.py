"""Helpers for the lippo tests: the spec's piece codes, and boards as FEN."""

import json
import sys

from conftest import RULES

# lippo_vectors.json codes -> notation.md letters
LETTER = {
    "P": "P", "Ad": "D", "G": "G", "A": "A", "Sch": "H", "M": "M", "K": "K", "Gr": "E",
    "O": "O", "Kn": "N", "T": "T", "Pl": "L", "F": "F", "U": "U", "S": "S",
}
CODE = {v: k for k, v in LETTER.items()}
FILES = "abcdefghiklm"


def vectors():
    return json.loads((RULES / "lippo_vectors.json").read_text())


def board_fen(board, side="w", extra=""):
    """{square: 'wG'} -> a lippo FEN (no castling, no en passant)."""
    rows = []
    for r in range(12, 0, -1):
        row, run = "", 0
        for f in FILES:
            code = board.get(f"{f}{r}")
            if not code:
                run += 1
                continue
            if run:
                row += str(run)
                run = 0
            letter = LETTER[code[1:]]
            row += letter if code[0] == "w" else letter.lower()
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows) + f" {side} - - 0 1" + (" " + extra if extra else "")


def spec_checker():
    """lippo_check.py, the spec author's own generator, as an independent oracle."""
    sys.path.insert(0, str(RULES))
    try:
        import lippo_check
    finally:
        sys.path.pop(0)
    return lippo_check
