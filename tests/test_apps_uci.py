"""`eboard uci` with python-chess's chess.engine as the client (issue #24): the handshake,
options, every `go` of the protocol, stop, and every game of the core (python-chess
validates chess itself; the other games' moves are checked with the rules core)."""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("chess")
import chess  # noqa: E402
import chess.engine  # noqa: E402

from firmware.rules import GAMES, new_position  # noqa: E402
from host.apps import Coords  # noqa: E402

EBOARD = shutil.which("eboard", path=str(Path(sys.executable).parent)) or "eboard"


@pytest.fixture
def engine(caplog):
    caplog.set_level(logging.WARNING, logger="chess.engine")
    e = chess.engine.SimpleEngine.popen_uci([EBOARD, "uci"], timeout=60)
    yield e
    e.quit()
    # strictly: python-chess said nothing of our lines (an unexpected line, a bad pv ...)
    assert [r.getMessage() for r in caplog.records if r.name == "chess.engine"] == []


class Raw(chess.engine.BaseCommand):
    """Lines sent as they are through python-chess's protocol; the engine's lines up to
    `bestmove` (or readyok) kept."""

    def __init__(self, engine, lines, until="bestmove"):
        super().__init__(engine)
        self.lines, self.until, self.heard = lines, until, []

    def start(self) -> None:
        for line in self.lines:
            self._engine.send_line(line)

    def line_received(self, line: str) -> None:
        self.heard.append(line)
        if line.startswith(self.until):
            self.result.set_result(self.heard)
            self.set_finished()


def raw(engine, *lines, until="bestmove"):
    return engine.communicate(lambda e: Raw(e, lines, until))


def test_handshake_names_every_game_and_the_levels(engine):
    assert engine.id["name"].startswith("eboard")
    opt = engine.options["UCI_Variant"]
    assert opt.type == "combo" and opt.default == "chess" and list(opt.var) == list(GAMES)
    assert engine.options["Skill Level"].max == 8
    opt = engine.options["UCI_Chess960"]
    assert opt.type == "check" and opt.default is False


def test_chess_every_kind_of_go(engine):
    board = chess.Board()
    board.push_san("e4")
    for limit in (chess.engine.Limit(depth=2), chess.engine.Limit(time=0.2), chess.engine.Limit(nodes=500),
                  chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.1, black_inc=0.1),
                  chess.engine.Limit(white_clock=30, black_clock=30, remaining_moves=10)):
        r = engine.play(board, limit, info=chess.engine.INFO_ALL)
        assert r.move in board.legal_moves, limit
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["depth"] == 3 and "score" in info and info["nodes"] > 0 and "nps" in info and "time" in info
    assert info["pv"][0] in board.legal_moves  # python-chess checked the whole pv


def test_a_short_game_strictly(engine):
    board = chess.Board()
    engine.configure({"Skill Level": 3})
    while not board.is_game_over() and board.ply() < 16:
        r = engine.play(board, chess.engine.Limit(depth=1))
        board.push(r.move)  # python-chess raises on an illegal move
    assert board.ply() == 16 or board.is_game_over()  # a weak level may be mated early


def test_mate_is_said_as_mate(engine):
    board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["score"].white() == chess.engine.Mate(1)
    assert info["pv"][0] == chess.Move.from_uci("d1d8")


def test_infinite_until_stop(engine):
    board = chess.Board()
    with engine.analysis(board) as analysis:  # go infinite
        for info in analysis:
            if info.get("depth", 0) >= 2:
                break
        analysis.stop()
        best = analysis.wait()
    assert best.move in board.legal_moves


def test_stop_with_no_search_and_bad_lines_go_on(engine):
    heard = raw(engine, "stop", "frobnicate", "position fen not a fen", "position startpos moves e2e5",
                "go depth x", "setoption name UCI_Variant value shogi", "setoption name Hash value 16",
                "isready", until="readyok")
    said = [h for h in heard if h.startswith("info string")]
    assert len(said) == 6 and heard[-1] == "readyok"
    assert "frobnicate" in said[0] and "e2e5" in said[2] and "shogi" in said[4]
    r = engine.play(chess.Board(), chess.engine.Limit(depth=1))  # still at work
    assert r.move in chess.Board().legal_moves


def test_game_over_gives_none(engine):
    heard = raw(engine, "position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "go depth 2")
    assert heard[-1] == "bestmove (none)"


@pytest.mark.parametrize("game", [g for g in GAMES if g != "chess"])
def test_every_game_through_the_protocol(engine, game):
    """A few plies of each game: position startpos moves ..., go, and the bestmove is legal
    in the core (in the program's square names)."""
    raw(engine, f"setoption name UCI_Variant value {game}", "ucinewgame", "isready", until="readyok")
    pos = new_position(game)
    coords = Coords(pos)
    played = []
    for limit in ("depth 2", "movetime 150", "nodes 400", "wtime 3000 btime 3000 winc 50 binc 50"):
        heard = raw(engine, "position startpos" + (" moves " + " ".join(played) if played else ""), f"go {limit}")
        best = heard[-1].split()
        assert best[0] == "bestmove" and len(best) in (2, 4), heard[-1]
        m = coords.parse(pos, best[1])  # MoveError if not legal
        assert coords.out(pos.move_str(m)) == best[1]
        infos = [h for h in heard if h.startswith("info depth")]
        assert infos and " nodes " in infos[-1] and " nps " in infos[-1] and " pv " in infos[-1]
        pos.push(m)
        played.append(best[1])
    # and from a FEN, in the program's names
    fen = Coords(pos).fen_out(pos.fen())
    heard = raw(engine, f"position fen {fen}", "go depth 1")
    coords.parse(pos, heard[-1].split()[1])


def test_large_boards_use_consecutive_file_letters():
    lippo = Coords(new_position("lippo"))
    assert lippo.out("m12") == "l12" and lippo.out("k1") == "j1" and lippo.into("l12") == "m12"
    assert lippo.out("g11g12,g3") == "g11g12,g3" and lippo.out("e11e12d") == "e11e12d"
    hundred = Coords(new_position("hundred"), cecp=True)
    assert hundred.out("k10") == "j9" and hundred.into("a0") == "a1"


def test_uci_script_exits_at_quit_and_bad_bytes_are_words():
    r = subprocess.run([EBOARD, "uci"], input=b"uci\n\xff\xfe\nisready\ngo depth 1\nquit\n", capture_output=True,
                       timeout=60)
    out = r.stdout.decode()
    assert r.returncode == 0 and "uciok" in out and "readyok" in out and r.stderr == b""
    assert "info string unknown command" in out and "bestmove " in out


@pytest.mark.parametrize("n", [0, 333, 959])
def test_chess960_through_uci_chess960(engine, n):
    """python-chess sets UCI_Chess960 for a Chess960 board and reads our moves in its 960
    notation (castling the king taking its own rook): it raises on any it cannot play."""
    board = chess.Board.from_chess960_pos(n)
    while not board.is_game_over() and board.ply() < 12:
        r = engine.play(board, chess.engine.Limit(depth=1))
        board.push(r.move)
    assert board.ply() == 12 or board.is_game_over()


def test_chess960_castling_moves_both_ways(engine):
    fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"
    raw(engine, "setoption name UCI_Chess960 value true", "ucinewgame", "isready", until="readyok")
    heard = raw(engine, f"position fen {fen} moves e1g1 e8b8", "go depth 1")  # both castle
    board = chess.Board(fen, chess960=True)
    board.push_uci("e1g1")
    board.push_uci("e8b8")
    assert board.fen().startswith("2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 w - ")
    assert chess.Move.from_uci(heard[-1].split()[1]) in board.legal_moves
    # The only legal move is castling (king g1 stays, rook h1 to f1): said as g1h1.
    only = "k4r2/8/8/8/8/7p/7P/6KR w H - 0 1"
    assert [chess.Board(only, chess960=True).uci(m) for m in chess.Board(only, chess960=True).legal_moves] == ["g1h1"]
    heard = raw(engine, f"position fen {only}", "go depth 1")
    assert heard[-1].split()[:2] == ["bestmove", "g1h1"]
    heard = raw(engine, "setoption name UCI_Chess960 value maybe", "isready", until="readyok")
    assert any("true or false" in h for h in heard)
