"""The padded geometry: every leap the games use agrees with plain file/rank arithmetic."""

import pytest

from firmware.rules.board import OFF, PAD, Layout, delta, file_of, index, rank_of

LAYOUTS = [(8, 8, "abcdefgh"), (12, 12, "abcdefghiklm"), (12, 8, "abcdefghiklm"), (5, 5, "abcde")]


@pytest.mark.parametrize("files,ranks,letters", LAYOUTS)
def test_padded_stepping_agrees_with_file_rank_arithmetic(files, ranks, letters):
    lay = Layout(files, ranks, letters)
    for sq in lay.squares:
        f, r = file_of(sq), rank_of(sq)
        for dx in range(-PAD, PAD + 1):
            for dy in range(-PAD, PAD + 1):
                to = sq + delta(dx, dy)
                on = 0 <= f + dx < files and 0 <= r + dy < ranks
                assert 0 <= to < len(lay.blank)
                assert (lay.blank[to] != OFF) == on
                if on:
                    assert to == index(f + dx, r + dy)


def test_square_names_round_trip_and_refuse_what_is_not_on_the_board():
    lay = Layout(12, 12, "abcdefghiklm")
    names = [lay.name(sq) for sq in lay.squares]
    assert names[:3] == ["a1", "b1", "c1"] and names[-1] == "m12" and "j1" not in names
    assert all(lay.cell(n) == sq for n, sq in zip(names, lay.squares))
    for bad in ["j1", "a0", "a13", "a01", "", "a", "1a", "n5", "a1x"]:
        with pytest.raises(ValueError):
            lay.cell(bad)
    with pytest.raises(ValueError):
        lay.name(0)
