"""The key to the pieces: docs/pieces.md is what the rules core draws today."""

from conftest import ROOT

from host.session.pieces import page, reach, text


def test_docs_pieces_is_current():
    assert (ROOT / "docs" / "pieces.md").read_text() == page(), "run: python -m host.session.pieces > docs/pieces.md"


def test_diagrams_come_from_the_rules_core():
    knight = {(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)}
    assert reach("chess", "N", (3, 3)) == knight
    assert reach("lippo", "N", (5, 5)) == knight  # the Cavalry
    assert (0, 6) in reach("lippo", "A", (5, 5))  # the Aeroplane leaps six
    # hundred.md §5.4: the Jester bends to g6 and i8 from g8 through h7; strong on the e-file.
    assert reach("hundred", "Z", (3, 4)) != reach("hundred", "Z", (4, 4))
    ahead = ((-1, 1), (0, 1), (1, 1))
    assert reach("chess", "P", (3, 1)) == {(0, 1), (0, 2)}
    assert reach("chess", "P", (3, 1), ahead, captures=True) == {(-1, 1), (1, 1)}


def test_every_game_has_a_key_with_every_letter():
    from firmware.rules import GAMES, new_position

    for gid in GAMES:
        key = text(gid)
        g = new_position(gid).game
        for t in range(1, len(g.letter)):
            assert f"{g.letter[t]}, {g.names[t]} ({g.points[t]})" in key
