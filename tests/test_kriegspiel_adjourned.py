"""An adjourned Kriegspiel game on virtual boards (issue #21's leftovers): resumed by the
real command from what the archive keeps, and sealed until it ends whatever its tags say."""

import os
import re
import sqlite3

import pytest
from test_walk_kriegspiel import EBOARD, WAIT_S, Krieg, eboard, pexpect

from host.record import Archive


def _adjourned(tmp_path):
    """`kriegspiel --sim --standard`: e4, d5, ask (Yes), then quit: the game's id."""
    k = Krieg(tmp_path, "--standard")
    for typed, told in (("e4", "[white] White has moved."), ("d5", "[black] Black has moved."), ("ask", "[white] Yes.")):
        k.type(typed)
        k.p.expect_exact(told)
    said = k.quit()
    gid = re.search(r"archived as game (\d+), the umpire's record sealed; eboard kriegspiel --sim --resume (\d+)", said)
    assert gid and gid.group(1) == gid.group(2), said
    return gid.group(1)


def _own_board(text, side):
    """The last drawing of side's own board in text: its rows of squares."""
    block = text.rsplit(f"{side}'s own board", 1)[1].split("the umpire told you")[0]
    return [line for line in block.splitlines() if re.match(r"\s+\d+\s", line)]


def test_an_adjourned_kriegspiel_game_is_resumed_and_played_to_its_end(tmp_path):
    gid = _adjourned(tmp_path)
    k = Krieg(tmp_path, "--resume", gid)
    k.type("board")  # White's turn: White's own board, and only White's men on it
    rows = _own_board(k.expect(r"the umpire told you: [^\r\n]*\r\n"), "White")
    assert len(rows) == 8 and not any(c.islower() for row in rows for c in row.split()[1:-1])
    assert " P " in rows[4] and "Yes." in k.p.after  # e4 stands; the answer to the ask was kept
    k.type("exd5")  # the ask obliged a pawn capture: the umpire still knows it, and d5's pawn
    k.expect(r"\[black\] White captures on d5\.")
    k.type("resign")
    k.expect(r"\[white\] Black resigns\.")
    k.p.expect("archived as game (\\d+)")
    assert k.p.match.group(1) == gid  # the same game, ended: not a second one
    k.p.expect(pexpect.EOF)
    a = Archive(str(tmp_path / "games.sqlite"))
    g = a.game(gid)
    assert (g.result, len(a.games())) == ("1-0", 1) and not a.sealed(g)
    assert a.moves(g.id) == ["e2e4", "d7d5", "e4d5"]
    record = a.kriegspiel_record(g.id)
    assert [r["attempt"] for r in record["attempts"]] == ["e2e4", "d7d5", "ask", "e4d5"]
    rc, out, _ = eboard(tmp_path, "export", gid)
    assert rc == 0 and "1. e4 " in out and "2. exd5" in out and out.rstrip().endswith("1-0")


def test_resume_refuses_in_words_what_it_cannot_resume(tmp_path):
    a = Archive(str(tmp_path / "games.sqlite"))
    plain = a.new_game("b", "chess", None)
    a.add_moves(plain, ["e2e4"])
    a.close()
    for args, words in ((("--resume", str(plain)), "is not a Kriegspiel game: eboard play --sim --resume"),
                        (("--resume", "9"), "no game 9"),
                        (("--resume", "1", "--standard"), "give no --game, --fen, --standard or --new"),
                        (("--resume", "x"), "is not a game id")):
        rc, _, err = eboard(tmp_path, "kriegspiel", "--sim", *args)
        assert rc != 0 and words in err and "Traceback" not in err, (args, err)
    rc, _, err = eboard(tmp_path, "kriegspiel", "--white", "/dev/null", "--black", "/dev/zero", "--resume", "1")
    assert rc != 0 and "--resume goes on with a game adjourned on virtual boards" in err


def test_tagging_a_sealed_game_does_not_unseal_it(tmp_path):
    gid = _adjourned(tmp_path)
    for name, value in (("Event", "Club night"), ("White", "Anna")):
        rc, _, err = eboard(tmp_path, "tag", gid, name, value)
        assert rc == 0, err
    for args in (("show", gid), ("export", gid), ("export", gid, "--sheet", "black")):
        rc, out, err = eboard(tmp_path, *args)
        assert rc != 0 and out == "" and "sealed until it ends" in err, args
    rc, out, err = eboard(tmp_path, "export", "--event", "Club night")
    assert "d5" not in out and f"game {gid} left out" in err
    line = next(line for line in eboard(tmp_path, "games")[1].splitlines() if line.split()[0] == gid)
    assert "Kriegspiel" in line and "sealed" in line
    rc, _, err = eboard(tmp_path, "play", "--sim", "--resume", gid)  # one board cannot hold it
    assert rc != 0 and f"eboard kriegspiel --sim --resume {gid}" in err


def test_a_resumed_game_s_web_pages_draw_its_own_game(tmp_path):
    """Found by the walk of issue #34: a gardner game resumed with --web was published as
    chess (the command's default), and the player's page said "cannot show chess position"."""
    import urllib.request

    k = Krieg(tmp_path, "--game", "gardner")
    k.type("a3")
    k.p.expect_exact("[black] White has moved.")
    gid = re.search(r"archived as game (\d+)", k.quit()).group(1)
    env = dict(os.environ, EBOARD_DATA=str(tmp_path))
    p = pexpect.spawn(EBOARD, ["kriegspiel", "--sim", "--resume", gid, "--web", "0"], env=env, encoding="utf-8",
                      timeout=WAIT_S, dimensions=(50, 200))
    try:
        p.expect("Type a move")
        link = re.search(r"web, white: (http\S+)", p.before).group(1)
        with urllib.request.urlopen(link, timeout=60) as r:
            page = r.read().decode("utf-8")
        assert "cannot show" not in page and "<svg" in page, page
        p.sendline("quit")
        p.expect(r"\[y/N\]")
        p.sendline("y")
        p.expect("adjourned")
        p.sendeof()
        p.expect(pexpect.EOF)
    finally:
        p.close(force=True)


@pytest.fixture
def schema4(tmp_path):
    """An archive of schema 4 (before this change) holding a Kriegspiel game adjourned then."""
    path = tmp_path / "games.sqlite"
    a = Archive(str(path))
    gid = a.new_game("p+q", "chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", event="Kriegspiel")
    a.add_moves(gid, ["e2e4"])
    a.adjourn(gid)
    a.close()
    db = sqlite3.connect(path)
    db.execute("DROP TABLE kriegspiel_adjourned")
    db.execute("UPDATE meta SET value='4' WHERE key='schema'")
    db.commit()
    db.close()
    return tmp_path, str(gid)


def test_a_game_adjourned_by_an_older_eboard_stays_sealed(schema4):
    tmp_path, gid = schema4
    rc, _, err = eboard(tmp_path, "tag", gid, "Event", "Club night")
    assert rc == 0, err
    rc, _, err = eboard(tmp_path, "show", gid)
    assert rc != 0 and "sealed until it ends" in err
    rc, _, err = eboard(tmp_path, "kriegspiel", "--sim", "--resume", gid)
    assert rc != 0 and "adjourned by an older eboard" in err and "it stays sealed" in err


@pytest.mark.parametrize("game, fen, plain, asked, chosen, tried", [
    ("chess", "4k3/P7/8/8/8/8/8/4K2R w - - 0 1", "a8", "a8=Q (queen), a8=R (rook), a8=B (bishop), a8=N (knight)",
     "a8=R", "a7a8r"),
    ("gardner", "4k/P4/5/5/K4 w - - 0 1", "a4a5", "a4a5q (queen), a4a5r (rook), a4a5b (bishop), a4a5n (knight)",
     "a4a5r", "a4a5r"),
    ("courier", "6k5/P11/12/12/12/12/12/6K5 w - - 0 1", "a7a8", "a7a8f (ferz)", "a7a8f", "a7a8f"),
    ("lippo", "5p6/4S7/12/12/12/12/12/12/12/12/12/5P6 w - - 0 1", "e11e12",
     "e11e12g (gas), e11e12l (machine-gun), or e11e12s (it stays a soldier)", "e11e12s", "e11e12"),
])
def test_a_typed_kriegspiel_promotion_asks_which_piece(tmp_path, game, fen, plain, asked, chosen, tried):
    k = Krieg(tmp_path, "--game", game, "--fen", fen)
    k.type(plain)  # no piece named: asked, told the mover only, and no attempt
    k.p.expect_exact(f"[white] {plain} promotes: which piece? {asked}")
    k.type(chosen)
    before = k.expect(r"\[white\] You try \S+")
    assert "You try" not in before[:-len(k.p.after)] and k.p.after.endswith(tried)
    k.quit()
