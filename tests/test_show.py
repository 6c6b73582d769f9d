"""`eboard show` shows an archived game (issue #21's leftovers): what a person reads there is
the game, not the recorder's "archived as game #N" under every position."""

from host.record import Archive
from test_walk_kriegspiel import eboard


def test_show_heads_the_game_with_its_own_line_and_says_nothing_of_archiving(tmp_path):
    a = Archive(str(tmp_path / "games.sqlite"))
    gid = a.new_game("b1", "chess", None, white="Anna", black="Boris", event="Club night")
    a.add_moves(gid, ["e2e4", "e7e5", "g1f3"])
    a.close()
    for args in ((), ("--final",), ("--ply", "0"), ("--ply", "2")):
        rc, out, err = eboard(tmp_path, "show", str(gid), *args)
        assert rc == 0, err
        assert out.splitlines()[0].startswith(f"game {gid}: chess, Anna - Boris, Club night, "), args
        assert out.splitlines()[0].endswith(", 3 plies"), args
        assert "archived" not in out and f"#{gid}" not in out, args
        assert out.splitlines()[-1] == "result in progress", args
