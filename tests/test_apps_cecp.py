"""`eboard xboard`: CECP conversations driven by the test for every game of the core, and
XBoard itself (Debian's, under Xvfb) playing Lippo's game between two `eboard xboard`s,
with a screenshot of its 12 x 12 board (issue #24)."""

from __future__ import annotations

import contextlib
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from firmware.rules import GAMES, new_position
from host.apps import Coords
from host.apps.cecp import setup_line, variant_name

EBOARD = shutil.which("eboard", path=str(Path(sys.executable).parent)) or "eboard"
XBOARD = shutil.which("xboard") or shutil.which("xboard", path="/usr/games")
XVFB = shutil.which("Xvfb")
CONVERT = shutil.which("convert")
IMPORT = shutil.which("import")


class Cecp:
    """An `eboard xboard` process, its lines read in a thread."""

    def __init__(self) -> None:
        self.p = subprocess.Popen([EBOARD, "xboard"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, bufsize=1)
        self.q: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.p.stdout:  # type: ignore[union-attr]
            self.q.put(line.rstrip("\n"))

    def send(self, *lines: str) -> None:
        for line in lines:
            self.p.stdin.write(line + "\n")  # type: ignore[union-attr]
        self.p.stdin.flush()  # type: ignore[union-attr]

    def until(self, prefix: str) -> list[str]:
        """The lines up to the first that starts with prefix (a safety limit of 120 s, never
        a measure: a slow machine only waits longer)."""
        out = []
        while True:
            line = self.q.get(timeout=120)
            out.append(line)
            if line.startswith(prefix):
                return out

    def close(self) -> int:
        self.send("quit")
        rc = self.p.wait(timeout=60)
        assert self.p.stderr.read() == ""  # type: ignore[union-attr]
        return rc


@pytest.fixture
def cecp():
    c = Cecp()
    yield c
    assert c.close() == 0


def test_features_name_every_game(cecp):
    cecp.send("xboard", "protover 2")
    lines = cecp.until("feature done=1")
    feats = " ".join(lines)
    for f in ("setboard=1", "usermove=1", "sigint=0", "sigterm=0", "ping=1", 'myname="eboard'):
        assert f in feats
    variants = re.search(r'variants="([^"]*)"', feats).group(1).split(",")
    assert variants == [{"chess": "normal", "chess960": "fischerandom"}.get(g, g) for g in GAMES]


@pytest.mark.parametrize("game", GAMES)
def test_a_conversation_in_every_game(cecp, game):
    pos = new_position(game)
    coords = Coords(pos, cecp=True)
    cecp.send("xboard", "protover 2")
    cecp.until("feature done=1")
    cecp.send("new", f"variant {variant_name(game)}", "ping 1")
    said = cecp.until("pong 1")
    if game not in ("chess", "chess960"):  # (XBoard's own normal and fischerandom)
        setup = [s for s in said if s.startswith("setup ")]
        lay = pos.game.layout
        parent = "courier" if game == "courier" else "fairy"  # XBoard's own courier has another start
        assert len(setup) == 1 and f" {lay.files}x{lay.ranks}+0_{parent} " in setup[0]
        assert setup[0].split(" ", 3)[3] == coords.fen_out(pos.fen())
    # a move of the person's, an illegal one, the engine's answer
    first = pos.legal_moves()[0]
    cecp.send("post", "sd 2", f"usermove {coords.out(pos.move_str(first))}")
    pos.push(first)
    said = cecp.until("move ")
    assert not any(s.startswith(("Illegal", "Error")) for s in said), said
    assert any(re.match(r"^\d+ -?\d+ \d+ \d+ ", s) for s in said)  # post: ply score time nodes pv
    reply = coords.parse(pos, said[-1].split()[1])
    pos.push(reply)
    cecp.send("usermove z9z9", "frob", "ping 2")
    said = cecp.until("pong 2")
    assert said[0] == "Illegal move: z9z9" and said[1].startswith("Error (unknown command)")
    # force, undo (the engine's move and the person's), go: the engine plays White
    cecp.send("force", "remove", "go")
    pos.pop()
    pos.pop()
    said = cecp.until("move ")
    pos.push(coords.parse(pos, said[-1].split()[1]))
    # setboard to the start, `?` and time controls
    cecp.send("force", "setboard " + coords.fen_out(new_position(game).fen()), "level 40 0:30 0", "time 3000",
              "otim 3000", "go")
    said = cecp.until("move ")
    coords.parse(new_position(game), said[-1].split()[1])
    cecp.send("force", "setboard not a fen", "ping 3")
    said = cecp.until("pong 3")
    assert said[0].startswith("tellusererror Illegal position")


def test_fischerandom_castles_as_o_o(cecp):
    # engine-intf.html: in fischerandom castling is O-O / O-O-O both ways.
    cecp.send("xboard", "protover 2")
    cecp.until("feature done=1")
    cecp.send("new", "variant fischerandom", "force",
              "setboard 1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
              "usermove O-O", "usermove O-O-O", "usermove O-O", "ping 1")
    said = cecp.until("pong 1")
    assert said[0].startswith("Illegal move") and len(said) == 2, said  # White has castled already
    cecp.send("new", "variant fischerandom", "force", "setboard k4r2/8/8/8/8/7p/7P/6KR w H - 0 1", "go")
    assert cecp.until("move ")[-1] == "move O-O"  # the only move: the king stays on g1


def test_move_now_and_game_end(cecp):
    cecp.send("xboard", "protover 2", "new", "force", "setboard 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
               "st 30", "go")
    time.sleep(0.2)  # (not a measure: ? works at any moment of the search)
    cecp.send("?")
    said = cecp.until("move ")
    assert said[-1] == "move d1d8"
    assert cecp.until("1-0")[-1].startswith("1-0 {checkmate")


def _changes(row: list[tuple[int, int, int]], light, dark) -> int:
    """Changes between the two square colours along a line of pixels (pieces skipped)."""
    seen = [c for c in row if c in (light, dark)]
    return sum(1 for a, b in zip(seen, seen[1:]) if a != b)


def _pixels(png: Path, geometry: str) -> list[tuple[int, int, int]]:
    txt = subprocess.run([CONVERT, str(png), "-crop", geometry, "-depth", "8", "txt:-"], capture_output=True,
                         text=True, check=True).stdout
    return [tuple(int(v) for v in m.groups()) for m in re.finditer(r"\((\d+),(\d+),(\d+)", txt)]


NEED_X = "need xboard and Xvfb (apt-get install xboard xvfb)"


@contextlib.contextmanager
def xboard(tmp_path: Path, variant: str, moves: int, *extra: str, first: str = f"{EBOARD} xboard"):
    """XBoard 4.9 under its own Xvfb display, two machines (`eboard xboard` against itself)
    in variant; yields (display, env, XBoard's debug text) once both engines made `moves`
    moves between them that XBoard took (a safety limit of 240 s, never a measure)."""
    display = f":{90 + (os.getpid() + len(variant) * 7) % 800}"
    xvfb = subprocess.Popen([XVFB, display, "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = dict(os.environ, DISPLAY=display, HOME=str(tmp_path))
    debug = tmp_path / "xboard.debug"
    xb = None
    try:
        deadline = time.monotonic() + 60
        while not Path(f"/tmp/.X11-unix/X{display[1:]}").exists():
            assert time.monotonic() < deadline, "Xvfb did not start"
            time.sleep(0.1)
        xb = subprocess.Popen(
            [XBOARD, "-fcp", first, "-fd", str(tmp_path), "-scp", f"{EBOARD} xboard",
             "-sd", str(tmp_path), "-variant", variant, "-testLegality", "false", "-mm", "-mg", "1",
             "-sgf", str(tmp_path / "game.pgn"), "-debug", "-nameOfDebugFile", str(debug),
             "-size", "medium", "-saveSettingsOnExit", "false", "-popupExitMessage", "false",
             "-autoCallFlag", "false", *extra],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
        deadline = time.monotonic() + 240
        made: list[str] = []
        while len(made) < moves:
            assert time.monotonic() < deadline and xb.poll() is None, f"XBoard played no {moves} moves"
            time.sleep(0.5)
            text = debug.read_text(errors="replace") if debug.exists() else ""
            made = re.findall(r"<(?:first|second) ?: move (\S+)", text)
        text = debug.read_text(errors="replace")
        assert "Illegal move" not in text and "Error (" not in text, text[-2000:]
        yield display, env, text
    finally:
        if xb is not None:
            xb.terminate()
            try:
                xb.wait(timeout=30)
            except subprocess.TimeoutExpired:
                xb.kill()
        xvfb.terminate()
        xvfb.wait(timeout=30)


@pytest.mark.skipif(not (XBOARD and XVFB), reason=NEED_X)
@pytest.mark.parametrize("game", [g for g in GAMES if g != "lippo"])
def test_xboard_plays_every_game_between_two_eboards(tmp_path, game):
    """Every other game of the core in XBoard: four moves, none refused; the engines' `setup`
    (the fairy games) or XBoard's own chess."""
    with xboard(tmp_path, variant_name(game), 4, "-depth", "1", "-st", "0:01") as (_, _, text):
        assert game in ("chess", "chess960") or setup_line(game).split(")")[1].split()[0] in text
        assert "tellusererror" not in text


@pytest.mark.skipif(not (XBOARD and XVFB and CONVERT and IMPORT),
                    reason="need xboard, Xvfb and imagemagick (apt-get install xboard xvfb imagemagick)")
def test_xboard_plays_lippo_between_two_eboards(tmp_path):
    """XBoard 4.9 under Xvfb, two machines: `eboard xboard` against itself in Lippo's game,
    the engine's `setup` giving XBoard the 12 x 12 board; a screenshot shows it."""
    # (no last-move highlight: its arrow is drawn in #ffff00 too, across whatever squares
    # the last move crossed, and the square count below would read it as squares)
    colours = ("-st", "0:02", "-lightSquareColor", "#ffff00", "-darkSquareColor", "#0000ff",
               "-liteBackTextureFile", "", "-darkBackTextureFile", "",
               "-highlightLastMove", "false", "-highlightMoveWithArrow", "false")
    with xboard(tmp_path, "lippo", 6, *colours) as (display, env, text):
        assert "12x12+0_fairy" in text
        shot = tmp_path / "lippo-xboard.png"
        subprocess.run([IMPORT, "-display", display, "-window", "root", str(shot)], check=True, env=env,
                       timeout=60)
    assert shot.stat().st_size > 10_000
    art = Path(__file__).parent / "artifacts"
    art.mkdir(exist_ok=True)
    shutil.copy(shot, art / shot.name)
    light, dark = (255, 255, 0), (0, 0, 255)
    pixels = _pixels(shot, "1024x768+0+0")
    board = [i for i, c in enumerate(pixels) if c in (light, dark)]
    assert board, "no square of the board's colours on the screen"
    top, bottom = board[0] // 1024, board[-1] // 1024
    left = min(i % 1024 for i in board)
    right = max(i % 1024 for i in board)
    mid_y, mid_x = (top + bottom) // 2, (left + right) // 2
    row = _pixels(shot, f"1024x1+0+{mid_y}")
    col = _pixels(shot, f"1x768+{mid_x}+0")
    assert _changes(row, light, dark) == 11 and _changes(col, light, dark) == 11  # 12 files, 12 ranks


@pytest.mark.skipif(not (XBOARD and XVFB), reason=NEED_X)
def test_xboard_plays_the_board_through_board_engine(tmp_path):
    """The board as XBoard's first machine (`eboard board-engine --sim --xboard`: the other
    side's moves lit on the virtual board and made by its hands, the board's own moves sent
    back), our engine the second; XBoard takes six moves and every one is in the archive."""
    archive = tmp_path / "games.sqlite"
    board = f"{EBOARD} board-engine --sim --xboard --level 1 --archive {archive}"
    with xboard(tmp_path, "normal", 6, "-depth", "1", "-st", "0:05", first=board) as (_, _, text):
        made = re.findall(r"<(?:first|second) ?: move (\S+)", text)
    from host.record import Archive

    a = Archive(str(archive))
    try:
        games = [g for g in a.games() if a.moves(g.id)]
        assert len(games) == 1
        filed = a.moves(games[0].id)
    finally:
        a.close()
    assert filed[: len(made)] == made[: len(filed)] and len(filed) >= 5
