"""Helpers for the lippo tests: the spec's piece codes, and boards as FEN."""

import json
import sys

from conftest import ROOT, RULES

sys.path.insert(0, str(ROOT / "tests" / "mpy"))
import fenutil  # noqa: E402

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
    fen = fenutil.board_fen(board, side, LETTER.__getitem__)
    return fen + (" " + extra if extra else "")


def spec_checker():
    """lippo_check.py, the spec author's own generator, as an independent oracle."""
    sys.path.insert(0, str(RULES))
    try:
        import lippo_check
    finally:
        sys.path.pop(0)
    return lippo_check
