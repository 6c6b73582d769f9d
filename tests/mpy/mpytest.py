"""A few lines of test support for scripts that run under MicroPython (no pytest there)."""

import sys

RULES = "docs/rules/"  # scripts run with the repository root as the working directory


def check(cond, what):
    if not cond:
        print("FAIL", what)
        sys.exit(1)


def load_json(name):
    import json

    with open(RULES + name) as f:
        return json.load(f)


def fresh_board(name, out=None):
    """A virtual board (sim profile) with a new journal, booted: (board, hardware).
    out: a list to collect what the board says (else it is dropped)."""
    import os

    from boards import sim
    from firmware.app import Board

    journal = (os.getenv("EBOARD_TMP") or "/tmp") + "/" + name + ".journal"
    try:
        os.remove(journal)
    except OSError:
        pass
    hw = sim.Hardware(journal_path=journal)
    board = Board(hw, out.append if out is not None else (lambda line: None))
    board.boot(0)
    return board, hw


def boot_board(journal):
    """A virtual board booted on the journal at that path, as it is: (board, what it said)."""
    from boards import sim
    from firmware.app import Board

    out = []
    board = Board(sim.Hardware(journal_path=journal), out.append)
    board.boot(0)
    return board, out


def said(out, start):
    """The lines said whose text (after the number) starts with start."""
    return [line for line in out if line.split(" ", 1)[1].startswith(start)]
