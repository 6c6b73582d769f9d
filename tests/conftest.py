"""Shared paths and helpers for the test suite."""

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"  # the game specs and their JSON cases, part of the repository

collect_ignore_glob = ["mpy/*"]

# Handed out first: xdist gives the workers tests in this order, and the emulated Pico's (the
# stock chip's three on one worker, minutes long together) left to the end kept one worker
# busy while the other had nothing left.
FIRST = ("test_pico_emu.py",)


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: item.path.name not in FIRST)  # (a stable sort: the rest keep their order)


def micropython_cmd():
    """The `micropython` of the unix port: beside this Python, or on PATH; None if absent."""
    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    return shutil.which("micropython")


def random_positions(new, rnd, games, plies, pick=None):
    """Positions along random games: new() starts one, each game lasts up to plies moves;
    pick(ms) chooses a move (default: any).  The position is yielded after each move."""
    for _ in range(games):
        pos = new()
        for _ in range(rnd.randrange(2, plies)):
            ms = pos.legal_moves()
            if not ms:
                break
            pos.push(pick(ms) if pick else rnd.choice(ms))
            yield pos


def tuple_board(pos):
    """A position's men as {(file, rank): ('w' | 'b', letter)}, 0-based: the naive second
    generators' board, built from squares and letters only."""
    lay = pos.game.layout
    out = {}
    for sq in lay.squares:
        c = pos.cells[sq]
        if c:
            n = lay.name(sq)
            out[(lay.letters.find(n[0]), int(n[1:]) - 1)] = ("w" if c & 32 else "b", pos.game.letter[c & 31])
    return out


def request_with_ctrl_c(link, line, rng):
    """link.request(line), with Ctrl-C bytes (3) before it and at random points inside
    it (issue #23: a board in play drops them); the reply."""
    i = rng.randrange(len(line) + 1)
    head = bytearray(line[:i].encode())
    for _ in range(rng.randrange(1, 4)):
        head.insert(rng.randrange(len(head) + 1), 3)
    link.ser.write(b"\x03" * rng.randrange(50) + bytes(head))
    return link.request(line[i:])


# ---- the archive: SQLite, and PostgreSQL (issue #35) -------------------------------------------

import os  # noqa: E402
import uuid  # noqa: E402

import pytest  # noqa: E402

import pgcluster  # noqa: E402


@pytest.fixture(scope="session")
def postgresql_url():
    """A PostgreSQL server for this session (one per test process): EBOARD_TEST_POSTGRESQL,
    or a throwaway cluster of Debian's postgresql; the tests that need it skip without it."""
    why = pgcluster.missing()
    if why is not None:
        pytest.skip(f"a PostgreSQL archive: {why}")
    url = os.environ.get("EBOARD_TEST_POSTGRESQL")
    if url:
        yield url
        return
    cluster = pgcluster.Cluster().start()
    try:
        yield cluster.url
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def archive_at(request, tmp_path):
    """Where a test's archive is (what --archive takes): a new SQLite file, or a new schema
    on the session's PostgreSQL server."""
    if request.param == "sqlite":
        return str(tmp_path / "a.sqlite")
    return pgcluster.fresh_schema(request.getfixturevalue("postgresql_url"), "t_" + uuid.uuid4().hex[:12])
