"""The archive's commands walked as a person walks them (issue #21): `eboard games`, `show`
and `export` run as the real console script on an archive of games."""

import re

import pytest

from host.record import Archive
from test_walk_kriegspiel import Krieg, eboard


@pytest.fixture
def club(tmp_path):
    """An archive of three chess games: two of the event 'Club round 1', one adjourned."""
    a = Archive(str(tmp_path / "games.sqlite"))
    ids = []
    for board, moves, event in (("b1", ["e2e4", "e7e5", "g1f3"], "Club round 1"), ("b2", ["d2d4", "d7d5"], "Club round 1"),
                                ("b3", ["c2c4"], "Casual game")):
        gid = a.new_game(board, "chess", None, event=event)
        a.add_moves(gid, moves)
        ids.append(gid)
    a.adjourn(ids[2])
    a.close()
    return tmp_path, ids


def test_export_writes_pgn_without_being_told_and_several_games_as_one_file(club):
    tmp_path, (g1, g2, g3) = club
    rc, plain, err = eboard(tmp_path, "export", str(g1))
    assert rc == 0 and plain.startswith('[Event "Club round 1"]') and "1. e4 e5 2. Nf3 *" in plain, err
    assert eboard(tmp_path, "export", str(g1), "--pgn")[1] == plain  # --pgn still accepted
    rc, two, _ = eboard(tmp_path, "export", str(g1), str(g2))
    assert rc == 0 and two.count("[Event ") == 2 and two == plain + eboard(tmp_path, "export", str(g2))[1]
    rc, event, _ = eboard(tmp_path, "export", "--event", "Club round 1")
    assert rc == 0 and event == two
    rc, every, _ = eboard(tmp_path, "export", "--all", "-o", str(tmp_path / "all.pgn"))
    text = (tmp_path / "all.pgn").read_text()
    assert rc == 0 and every == "" and text.count("[Event ") == 3 and "1. c4 *" in text


@pytest.mark.parametrize("args,words", [
    ((), "export needs games"),
    (("--event", "Nosuch"), "no games of event 'Nosuch'"),
    (("99",), "no game 99"),
    (("1", "2", "--sheet", "white"), "one game's scoresheet"),
    (("1", "--sheet", "white"), "not a Kriegspiel game"),
])
def test_export_refuses_in_words(club, args, words):
    tmp_path, _ = club
    rc, out, err = eboard(tmp_path, "export", *args)
    assert rc != 0 and out == "" and words in err and "Traceback" not in err


def test_show_the_final_position_or_one_ply_only(club):
    tmp_path, (g1, _, g3) = club
    rc, every, _ = eboard(tmp_path, "show", str(g1))
    assert rc == 0 and every.count("board: replay") == 4
    rc, final, _ = eboard(tmp_path, "show", str(g1), "--final")
    assert rc == 0 and final.count("board: replay") == 1 and "ply 3" in final and "last move: Nf3" in final
    rc, one, _ = eboard(tmp_path, "show", str(g1), "--ply", "1")
    assert rc == 0 and one.count("board: replay") == 1 and "ply 1 " in one and "last move: e4" in one
    rc, start, _ = eboard(tmp_path, "show", str(g1), "--ply", "0")
    assert rc == 0 and start.count("board: replay") == 1 and "ply 0 " in start
    for bad in ("4", "-1", "x"):
        rc, out, err = eboard(tmp_path, "show", str(g1), "--ply", bad)
        assert rc != 0 and "has plies 0 to 3" in err and out == "", bad
    rc, _, err = eboard(tmp_path, "show", str(g1), "--ply", "1", "--final")
    assert rc != 0 and "not allowed with" in err


def test_an_adjourned_game_reads_adjourned_everywhere(club):
    tmp_path, (_, _, g3) = club
    listed = [line for line in eboard(tmp_path, "games")[1].splitlines() if line.split()[0] == str(g3)]
    assert listed and " adjourned " in listed[0] and "*" not in listed[0]
    rc, out, _ = eboard(tmp_path, "show", str(g3), "--final")
    assert rc == 0 and out.splitlines()[-1] == "result adjourned"


def test_games_lists_the_players_a_club_tagged(club):
    """A club names its players (`eboard tag`): `games` lists them on the game's line, and
    a game nobody tagged keeps its line as it was."""
    tmp_path, (g1, g2, _) = club
    assert eboard(tmp_path, "tag", str(g1), "white", "Anna Kask")[0] == 0
    assert eboard(tmp_path, "tag", str(g1), "black", "Boris")[0] == 0
    rc, listing, _ = eboard(tmp_path, "games")
    lines = {line.split()[0]: line for line in listing.splitlines()}
    assert rc == 0 and lines[str(g1)].endswith("[b1]  Anna Kask - Boris")
    assert lines[str(g2)].endswith("[b2]")


def test_an_adjourned_kriegspiel_game_stays_sealed_in_the_archive(club):
    tmp_path, others = club
    k = Krieg(tmp_path, "--standard")
    k.type("e4")
    k.expect(r"\[white\] White has moved\.")
    k.type("d5")
    k.expect(r"\[black\] Black has moved\.")
    gid = re.search(r"archived as game (\d+)", k.quit()).group(1)
    rc, listing, _ = eboard(tmp_path, "games")
    line = next(line for line in listing.splitlines() if line.split()[0] == gid)
    assert "Kriegspiel" in line and "adjourned, sealed" in line
    assert "Kriegspiel" not in "".join(line for line in listing.splitlines() if line.split()[0] != gid)
    for args in (("show", gid), ("show", gid, "--final"), ("export", gid), ("export", gid, "--sheet", "white"),
                 ("export", "last"), ("export", str(others[0]), gid)):
        rc, out, err = eboard(tmp_path, *args)
        assert rc != 0 and out == "" and "sealed until it ends" in err, args
    rc, out, err = eboard(tmp_path, "export", "--all")
    assert rc == 0 and out.count("[Event ") == 3 and "Kriegspiel" not in out and "e4 d5" not in out
    assert f"game {gid} left out" in err


def test_export_all_of_an_empty_archive_says_it_is_empty(tmp_path):
    # Found walking after the merge: it said "every game chosen is sealed".
    rc, out, err = eboard(tmp_path, "export", "--all")
    assert rc != 0 and out == "" and "no games yet" in err and "sealed" not in err
