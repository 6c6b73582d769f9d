"""docs/protocol.md's example exchanges, replayed against a fresh virtual board."""

import re

import pytest
from conftest import ROOT

from boards import sim
from firmware import protocol
from firmware.app import Board

DOC = (ROOT / "docs" / "protocol.md").read_text()
BLOCKS = re.findall(r"```transcript\n(.*?)```", DOC, re.S)


def _match(expected, got):
    """expected lines (with "..." wildcards) against got lines, exactly otherwise."""
    i = 0
    for k, want in enumerate(expected):
        if want == "...":
            nxt = expected[k + 1] if k + 1 < len(expected) else None
            while i < len(got) and got[i] != nxt:
                i += 1
            continue
        assert i < len(got), f"missing {want!r}"
        assert got[i] == want
        i += 1
    assert i == len(got), f"unexpected {got[i:]}"


def test_the_doc_has_examples():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.splitlines()[1][2:20])
def test_protocol_example(block, tmp_path):
    hw = sim.Hardware(journal_path=str(tmp_path / "journal.bin"))
    hw.board_id = lambda: "sim-000000000000"  # a fixed id for the example
    randoms = iter([41] + list(range(0x5EED0001, 0x5EED0100)))  # power-up 41 (no boot file yet), uids 5eed0001...
    hw.urandom = lambda n: next(randoms).to_bytes(n, "big")
    out = []
    board = Board(hw, out.append)
    board.boot(0)
    steps = []  # (request or None for boot, [expected lines])
    for line in block.splitlines():
        if line.startswith("> "):
            steps.append((line[2:], []))
        elif line.startswith("< "):
            if not steps:
                steps.append((None, []))
            steps[-1][1].append(line[2:])
    for request, expected in steps:
        n = len(out)
        if request is not None:
            protocol.handle(board, request.encode(), hw.clock.now())
        _match(expected, out[n:] if request is not None else out)
