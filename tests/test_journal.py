"""The journal: a record torn by a power cut, or a corrupt one, ends it; the board resumes
from the last good record."""

import pytest

from boards import sim
from firmware import protocol
from firmware.app import Board
from firmware.journal import Journal, JournalFull


def boot(path, occ=None):
    hw = sim.Hardware(journal_path=str(path))
    if occ is not None:
        hw.matrix.occ[:] = occ
    out = []
    b = Board(hw, out.append)
    b.boot(0)
    return b, hw, out


def play(b, hw, *moves):
    for uci in moves:
        protocol.handle(b, f"sim lift {uci[:2]}".encode(), 0)
        protocol.handle(b, b"sim wait 50", 0)
        protocol.handle(b, f"sim place {uci[2:4]}".encode(), 0)
        protocol.handle(b, b"sim wait 500", 0)


def chess_played(path, *moves):
    """A board with a new chess game set up and moves played on it."""
    b, hw, out = boot(path)
    for line in ("new chess", "sim setup", "sim wait 100"):
        protocol.handle(b, line.encode(), 0)
    play(b, hw, *moves)
    return b, hw, out


@pytest.mark.parametrize("cut", [1, 2, 5, 9])
def test_a_torn_last_record_is_dropped(tmp_path, cut):
    path = tmp_path / "journal.bin"
    b, hw, _ = chess_played(path, "e2e4", "e7e5")
    size_before = path.stat().st_size
    play(b, hw, "g1f3")
    data = path.read_bytes()
    # The power fails in the middle of the last record.
    tail = len(data) - size_before
    path.write_bytes(data[: size_before + min(cut, tail - 1)])
    b2, _, out = boot(path, hw.matrix.occ)
    assert b2.history() == ["e2e4", "e7e5"]
    # cut back to the last good record (then the new boot's block of numbers)
    records = Journal(str(path)).load()
    assert path.read_bytes()[:size_before] == data[:size_before]
    assert [r.split()[2] for r in records if r.startswith("M")] == ["e2e4", "e7e5"]
    assert records[-1].startswith("S ")
    # the knight already stands on f3: the board sees that move done, and makes it again
    protocol.handle(b2, b"sim wait 600", 0)
    assert b2.history() == ["e2e4", "e7e5", "g1f3"]


def test_a_corrupt_record_ends_the_journal(tmp_path):
    path = tmp_path / "journal.bin"
    j = Journal(str(path))
    j.rewrite(["N 0 0000abcd chess -", "S 64"])
    j.append("M 10 e2e4")
    j.append("M 12 e7e5")
    good = path.read_bytes()
    data = bytearray(good)
    data[-6] ^= 0x20  # one flipped bit in the last record's text: a torn last record
    path.write_bytes(bytes(data))
    assert Journal(str(path)).load() == ["N 0 0000abcd chess -", "S 64", "M 10 e2e4"]
    assert Journal(str(path)).check() is None and Journal(str(path)).load()[-1] == "M 10 e2e4"
    data = bytearray(good)
    data[30] ^= 0x20  # in the middle, records after it: damage, left as it is
    path.write_bytes(bytes(data))
    why = Journal(str(path)).check()
    assert why.startswith("a bad checksum after 1 good records") and path.read_bytes() == bytes(data)


def test_a_full_flash_is_reported_and_the_journal_stays_whole(tmp_path, monkeypatch):
    path = tmp_path / "journal.bin"
    b, hw, out = boot(path)
    for line in ("new chess", "sim setup", "sim wait 100"):
        protocol.handle(b, line.encode(), 0)
    good = path.read_bytes()

    def full(self, text):
        raise JournalFull(28, "flash full")

    monkeypatch.setattr(Journal, "append", full)
    play(b, hw, "e2e4")
    assert any("alert journal-full" in line for line in out)
    assert any(line.endswith("move 1 e2e4") for line in out)  # the game goes on
    assert path.read_bytes() == good


def test_a_full_flash_names_the_first_ply_not_saved_at_every_power_up(tmp_path, monkeypatch):
    # Issue #23 item 3: the flash fills after two moves (the spare room beside the journal
    # takes the record saying so, F).  state and history agree while the board runs; after
    # a power cut the board has the two moves, and says so at every power-up.
    path = tmp_path / "journal.bin"
    b, hw, out = chess_played(path, "e2e4", "e7e5")
    real = Journal.append

    def full(self, text):
        if text[0] != "F":
            raise JournalFull(28, "flash full")
        real(self, text)

    monkeypatch.setattr(Journal, "append", full)
    out.clear()
    play(b, hw, "g1f3", "b8c6", "f1c4")
    protocol.handle(b, b"undo", 0)
    assert [line.split(" ", 1)[1] for line in out if " alert " in line] == [
        "alert journal-full 3 the flash is full: the moves from ply 3 on are not saved on the board (only the host has them)"
    ]
    protocol.handle(b, b"state", 0)
    assert out[-1].split()[5] == "4" and b.history() == ["e2e4", "e7e5", "g1f3", "b8c6"]
    for _ in range(2):
        b, hw, out = boot(path, hw.matrix.occ)
        assert [line.split()[1:4] for line in out[1:]] == [["alert", "journal-full", "3"]]
        assert b.history() == ["e2e4", "e7e5"] and b.ply == 2
    def no_room(self, texts):
        raise JournalFull(28, "flash full")

    monkeypatch.setattr(Journal, "rewrite", no_room)
    protocol.handle(b, b"new chess", 0)  # not even its first record fits: refused, the game kept
    assert "error journal-full" in out[-1] and b.history() == ["e2e4", "e7e5"]


def test_no_checkpoint_after_a_full_flash(tmp_path, monkeypatch):
    # Issue #23 items 3 and 4: the flash fills at ply 11 of a Lippo game played by the host,
    # and the F record leaves room for small records: still no checkpoint (X) after the
    # gap, so that a power-up takes the game up at ply 10, not from a checkpoint past it.
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "mpy"))
    from fuzzgen import Rand, lasting_move

    path = tmp_path / "journal.bin"
    b, hw, out = boot(path)
    protocol.handle(b, b"new lippo", 0)
    rng = Rand(5)

    def host_moves(n):
        for _ in range(n):
            pos = b.pos
            protocol.handle(b, b"move " + pos.move_str(lasting_move(pos, pos.legal_moves(), rng)).encode(), 0)

    host_moves(10)
    real = Journal.append

    def full(self, text):
        if text[0] in "MU":
            raise JournalFull(28, "flash full")
        real(self, text)

    monkeypatch.setattr(Journal, "append", full)
    host_moves(120)
    played = b.history()
    assert len(played) == 130 and b.logbook.unsaved_from == 11
    kinds = [r[0] for r in Journal(str(path)).load()]
    assert "X" not in kinds[kinds.index("F") :], kinds
    b, hw, out = boot(path, hw.matrix.occ)
    assert b.history() == played[:10] and b.ply == 10


def short_of_memory(monkeypatch, times):
    """The board's next `times` positions built find no block in the heap (MemoryError);
    returns the list holding how many failures are left.  (app builds a new game's; the
    replay of a journaled game, firmware/power_up.py, loaded afresh each time, takes
    firmware.rules'.)"""
    from firmware import app, rules

    real, failures = app.new_position, [times]

    def short(gid, fen=None):
        if failures[0]:
            failures[0] -= 1
            raise MemoryError("memory allocation failed, allocating 4096 bytes")
        return real(gid, fen)

    monkeypatch.setattr(app, "new_position", short)
    monkeypatch.setattr(rules, "new_position", short)
    return failures


def test_a_new_game_short_of_one_block_is_built_again_after_a_collection(tmp_path, monkeypatch):
    # A game's module loads in pieces and its garbage may leave no block for its tables:
    # the board collects and builds once more.  Twice short, it says so, keeps its game and
    # journals nothing.
    path = tmp_path / "journal.bin"
    b, hw, out = boot(path)
    failures = short_of_memory(monkeypatch, 1)
    protocol.handle(b, b"new lippo", 0)
    assert out[-1].endswith("ok new lippo") and b.pos.game.id == "lippo"
    kept = path.read_bytes()
    failures[0] = 2
    protocol.handle(b, b"new hundred", 0)
    assert "error no-memory" in out[-1]
    assert b.game == "lippo" and b.pos.game.id == "lippo" and b.tracker.pos is b.pos
    assert path.read_bytes() == kept


def test_a_power_up_short_of_one_block_for_the_game_resumes_it_after_a_collection(tmp_path, monkeypatch):
    path = tmp_path / "journal.bin"
    b, hw, out = chess_played(path, "e2e4", "e7e5")
    failures = short_of_memory(monkeypatch, 1)
    b, hw, out = boot(path, hw.matrix.occ)
    assert failures == [0] and b.history() == ["e2e4", "e7e5"]
    assert " hello eboard 3 chess idle " in out[0]


def test_a_power_up_feeds_the_watchdog_through_a_long_replay(tmp_path):
    # A Pico's watchdog resets it 4 s after its last feed, and a long game's replay at
    # power-up took longer on the chip: the board reset in a loop and never said hello.
    path = tmp_path / "journal.bin"
    b, hw, _ = chess_played(path, "e2e4", "e7e5", "g1f3", "b8c6")
    fed = []
    hw2 = sim.Hardware(journal_path=str(path))
    hw2.matrix.occ[:] = hw.matrix.occ
    hw2.feed_watchdog = lambda: fed.append(1)
    out = []
    Board(hw2, out.append).boot(0)
    assert " hello eboard 3 chess idle " in out[0] and len(fed) >= 4


def test_a_move_a_lift_completes_is_replayed_under_the_number_it_was_said_with(tmp_path):
    # bench/hall_pg.py: single moves missing from finished games.  A promotion's piece is
    # chosen by the next move's first lift: the move was journaled under the lift's number
    # and said after the lift, under the next one.  A host that had filed the lift, then
    # asked `since` from the journal (the board's RAM had moved on), got the move under the
    # lift's number, took it for a message said before, and the game lost its move for good.
    path = tmp_path / "journal.bin"
    b, hw, out = boot(path)
    for line in ("new chess 4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "sim setup", "sim wait 100"):
        protocol.handle(b, line.encode(), 0)
    play(b, hw, "a7a8", "e8d7")  # black's lift makes white's promotion (a queen)
    said = dict(line.split(" ", 1) for line in out)
    lift = next(int(n) for n, text in said.items() if text == "lift e8")
    assert said[str(lift + 1)] == "move 1 a7a8q"  # the lift, then the move it made
    b2, _, again = boot(path, hw.matrix.occ)  # the power cut: what follows comes from the journal
    protocol.handle(b2, b"since 0", 0)
    replayed = [line.split(" ", 1) for line in again if " move " in line]
    assert replayed and all(said[n] == text for n, text in replayed), (replayed, said)


def test_games_begun_while_no_host_follows_are_all_kept_and_replayed(tmp_path):
    # bench/hall_pg.py 4 x 32: a board unfollowed while it began two new games lost the
    # older one (the journal kept the game in play and the one before it).  Now every game
    # within its share of the flash is kept, and `since` replays them all, in order.
    path = tmp_path / "journal.bin"
    b, hw, out = boot(path)
    uids = []
    for g in range(4):
        protocol.handle(b, b"new chess", 0)
        uids.append(b.uid)
        for m in ("e2e4", "e7e5", "g1f3", "b8c6")[: g + 1]:
            protocol.handle(b, f"move {m}".encode(), 0)
    b, hw, out = boot(path)
    out.clear()
    protocol.handle(b, b"since 0", 0)
    lines = [line.split(" ", 1)[1] for line in out]
    assert [w.split()[2] for w in lines if w.startswith("newgame")][-4:] == uids
    at = lines.index(f"newgame chess {uids[0]} -")
    assert [w for w in lines[at:] if not w.startswith("hello")] == [
        f"newgame chess {uids[0]} -", "move 1 e2e4",
        f"newgame chess {uids[1]} -", "move 1 e2e4", "move 2 e7e5",
        f"newgame chess {uids[2]} -", "move 1 e2e4", "move 2 e7e5", "move 3 g1f3",
        f"newgame chess {uids[3]} -", "move 1 e2e4", "move 2 e7e5", "move 3 g1f3", "move 4 b8c6",
        f"ok since 0 {len(lines) - 1}",
    ]  # (and the power-up's hello, said after them)
    assert b.uid == uids[3] and b.history() == ["e2e4", "e7e5", "g1f3", "b8c6"]


def test_a_full_flash_drops_the_oldest_games_never_the_new_one(tmp_path, monkeypatch):
    # A journal past its share of the flash (here: a file system with no free block, its
    # share a quarter of the journal itself) is rewritten at the next `new`, keeping the
    # newest games that fit; a flash that takes fewer keeps the game before alone, then
    # none: `new` is never refused for old games' sake.
    import os

    path = tmp_path / "journal.bin"
    b, hw, out = boot(path)
    for g in range(4):
        protocol.handle(b, b"new chess", 0)
        for m in ("e2e4", "e7e5", "g1f3", "b8c6"):
            protocol.handle(b, f"move {m}".encode(), 0)

    def games():
        return [r.split()[2] for r in Journal(str(path)).load() if r[0] == "N"]

    held = games()
    assert len(held) == 5  # the power-up's default game, then the four
    monkeypatch.setattr(os, "statvfs", lambda p: (4096, 4096, 1000, 0, 0, 0, 0, 0, 4096, 255))
    protocol.handle(b, b"new chess", 0)
    kept = games()
    assert kept[-1] == b.uid and 1 <= len(kept) - 1 < 5 and kept[:-1] == held[-(len(kept) - 1) :]
    assert [r[0] for r in Journal(str(path)).load()].count("S") == 1

    real = Journal.rewrite
    for room, want in ((2 * 6, 2), (2, 1)):  # records a rewrite takes: the game before and the new one's; the new one's
        def small(self, texts, room=room):
            texts = list(texts)
            if len(texts) > room:
                raise JournalFull(28, "flash full")
            real(self, texts)

        monkeypatch.setattr(Journal, "rewrite", small)
        held = games()
        protocol.handle(b, b"new chess", 0)
        assert out[-1].endswith("ok new chess") and games() == held[-1:][: want - 1] + [b.uid]
        b, hw, out = boot(path)
        assert b.history() == []
