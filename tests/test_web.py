"""The web room (host/web/) in a real headless browser: Debian's chromium driven by
Playwright's Python package (never a downloaded browser build).

A move made on a virtual board appears on its open page with its LEDs; the club room
follows four virtual boards playing; an archived game replays and its PGN downloads; each
Kriegspiel player's page shows what that player may see, and nothing leaks: not through
the other player's link or event stream, the archive, or the spectators' page.

EBOARD_SCREENSHOTS=docs pytest tests/test_web.py  writes the README's screenshots.
"""

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import micropython_cmd

from firmware.rules import GAMES, new_position
from host.link import read_event
from host.record.archive import Archive
from host.record.pgn import export

BIN = Path(sys.executable).parent
CHROMIUM = "/usr/bin/chromium"
SHOTS = os.environ.get("EBOARD_SCREENSHOTS")
try:
    from playwright.sync_api import expect, sync_playwright
except ImportError:
    sync_playwright = None

needs_browser = pytest.mark.skipif(
    sync_playwright is None or not os.path.exists(CHROMIUM) or micropython_cmd() is None,
    reason="needs Debian's chromium and Playwright's Python package: apt-get install chromium chromium-driver; "
    "pip install playwright (./run-tests.sh installs both when run as root)",
)
WAIT_MS = 30_000  # the longest a page may take to show what the test waits for


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"],
        )
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1000, "height": 760})
    pg = ctx.new_page()
    pg.set_default_timeout(WAIT_MS)
    expect.set_options(timeout=WAIT_MS)  # expect()'s own default is 5 s: too short for a loaded machine
    yield pg
    ctx.close()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def shot(pg, name):
    if SHOTS:
        pg.screenshot(path=str(Path(SHOTS) / name), full_page=True)


def get(url):
    """(status, body) of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def wait_http(base, deadline_s=30):
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        try:
            urllib.request.urlopen(base + "/static/style.css", timeout=2).read()
            return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"no web server at {base}")


class Proc:
    """An eboard command with piped input and its output lines collected."""

    def __init__(self, *args):
        self.p = subprocess.Popen([BIN / "eboard", *map(str, args)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
        self.lines = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.append(line)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, pattern, deadline_s=60):
        end = time.monotonic() + deadline_s
        while time.monotonic() < end:
            m = re.search(pattern, "".join(self.lines))
            if m:
                return m
            time.sleep(0.05)
        pytest.fail(f"no {pattern!r} in {''.join(self.lines)[-3000:]}")

    def stop(self, interrupt=False):
        """End of input (or Ctrl-C, as a person stops serve and web), then wait for the end."""
        if self.p.poll() is None:
            try:
                self.p.stdin.close()
            except OSError:
                pass
            if interrupt:
                self.p.send_signal(signal.SIGINT)
            try:
                self.p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        assert self.p.returncode == 0, "".join(self.lines)[-2000:]


class Stream:
    """An event stream read raw, in a thread: everything it ever said."""

    def __init__(self, url):
        self.text = ""
        self.status = None
        self.stop = False
        threading.Thread(target=self._read, args=(url,), daemon=True).start()

    def _read(self, url):
        try:
            r = urllib.request.urlopen(url, timeout=60)
        except urllib.error.HTTPError as e:
            self.status = e.code
            return
        self.status = r.status
        while not self.stop:
            line = r.fp.readline()
            if not line:
                return
            self.text += line.decode()


def _png_rows(png):
    """A PNG screenshot's pixels: rows of (r, g, b), its filters undone (no imaging library)."""
    import struct
    import zlib

    pos, chunks, width, height, bpp = 8, b"", 0, 0, 3
    while pos < len(png):
        n, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, _, color = struct.unpack(">IIBB", body[:10])
            bpp = {2: 3, 6: 4}[color]
        elif kind == b"IDAT":
            chunks += body
        pos += 12 + n
    raw, rows, prev, i = zlib.decompress(chunks), [], bytearray(width * bpp), 0
    for _ in range(height):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + width * bpp])
        i += 1 + width * bpp
        for x in range(len(line)):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            paeth = min((a, b, c), key=lambda v: abs(a + b - c - v))  # ties: a, then b, then c
            line[x] = (line[x] + (0, a, b, (a + b) // 2, paeth)[f]) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, len(line), bpp)])
        prev = line
    return rows


def _contrast(c1, c2):
    """WCAG's contrast ratio of two colours (1: none, 21: black on white)."""
    def lum(c):
        v = [x / 255 for x in c]
        v = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in v]
        return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]
    hi, lo = sorted((lum(c1), lum(c2)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _mark_contrast(pg, name):
    """The strongest contrast, against the square's own colour, of what is drawn in the band
    along the top of a square of the page's board (above the man), in a real screenshot."""
    rect = pg.locator(f'#board rect[data-sq="{name}"]')
    fill = rect.get_attribute("fill")
    own = tuple(int(fill[k:k + 2], 16) for k in (1, 3, 5))
    box = rect.bounding_box()
    rows = _png_rows(pg.screenshot(clip=box))
    return max(_contrast(px, own) for row in rows[1:max(2, len(rows) // 8)] for px in row[1:-1])


def sq(pg, name):
    """(led letter, piece letter) of a square on the page's board."""
    el = pg.locator(f'#board rect[data-sq="{name}"]')
    return el.get_attribute("data-led"), el.get_attribute("data-piece")


# ---- no browser needed -----------------------------------------------------------------------


@pytest.mark.parametrize("gid", GAMES)
def test_every_board_size_draws_its_squares(gid):
    from host.web.render import board_svg

    pos = new_position(gid)
    lay = pos.game.layout
    svg = board_svg(gid, pos.fen(), "." * 144)
    names = re.findall(r'data-sq="([a-z]\d+)"', svg)
    assert sorted(names) == sorted(lay.name(c) for c in lay.squares)
    men = re.findall(r'data-sq="[a-z]\d+" data-led="." data-piece="(\w)"', svg)
    assert len(men) == sum(1 for c in lay.squares if pos.cells[c])


def test_a_record_with_no_attempt_renders():
    from host.web.render import record

    rec = {"attempts": [], "moves": [], "fen": new_position("chess").fen(),
           "white_sheet": [{"type": "resigned", "side": "white", "winner": "black", "audience": "both"}]}
    html = record("chess", {"record": rec, "result": "0-1", "game_id": None})
    assert "White resigns." in html and "0-1" in html


def test_the_server_refuses_what_it_does_not_serve(tmp_path):
    from host.web.server import WebServer

    server = WebServer(str(tmp_path / "a.sqlite"), port=0)
    base = server.start()
    try:
        assert get(base + "/")[0] == 200
        for path in ("/nothing", "/static/../host/web/server.py", "/static/server.py", "/archive/1", "/archive/x",
                     "/board/none", "/k/none/watch", "/k/none/" + "a" * 43, "/k/none/" + "a" * 43 + "/events"):
            assert get(base + path)[0] == 404, path
        req = urllib.request.Request(base + "/archive", data=b"x=1", method="POST")
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(req, timeout=5)
        assert e.value.code == 405
        req = urllib.request.Request(base + "/", headers={"Host": "evil.example:80"})
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(req, timeout=5)
        assert e.value.code == 421  # a rebound DNS name reaches nothing
        with urllib.request.urlopen(base + "/", timeout=5) as r:
            assert "default-src 'none'" in r.headers["Content-Security-Policy"]
            assert r.headers["Referrer-Policy"] == "no-referrer"
            html = r.read().decode()
        assert "http" not in re.sub(r'xmlns="http://www.w3.org/2000/svg"', "", html)  # nothing fetched from elsewhere
    finally:
        server.stop()


class FakeBridge:
    """What a BoardFeed asks of a bridge: a chess board after 1. e4 e5 2. Nf3, g1-f3 lit."""

    def __init__(self, game_id=None):
        from firmware.squares import Geometry

        pos = new_position("chess")
        for m in CLOCK_GAME:
            pos.push_str(m)
        geo = Geometry(pos.game.layout)
        frame = ["."] * 144
        for name in ("g1", "f3"):
            frame[geo.phys(pos.game.layout.cell(name))] = "l"
        self.replies = {"state": f"state chess idle 3 {pos.fen()}", "leds": "leds " + "".join(frame)}
        self.on_change = None
        self.link = object()
        self.game_id = game_id
        self.key = self.port = "clock-board"

    def request(self, line):
        return self.replies[line]


CLOCK_GAME = ["e2e4", "e7e5", "g1f3"]
ENGINE = {"side": "black", "state": "shown", "move": "b8c6", "san": "Nc6", "level": "Stockfish level 3"}


@pytest.fixture
def fed(tmp_path):
    """(web server's base URL, a BoardFeed of a FakeBridge), both on a hub of their own."""
    from host.web.hub import BoardFeed, Hub
    from host.web.server import WebServer

    path = tmp_path / "a.sqlite"
    a = Archive(path)
    gid = a.new_game("clock-board", "chess", None, white="Anna", black="computer")
    for ply, m in enumerate(CLOCK_GAME, 1):
        a.record("clock-board", ply, read_event(f"move {ply} {m}"), gid)
    hub = Hub()
    server = WebServer(str(path), port=0, hub=hub)
    base = server.start()
    try:
        yield base, BoardFeed(FakeBridge(gid), a, hub=hub)
    finally:
        server.stop()
        a.close()


def test_the_snapshot_carries_clocks_and_the_engine_move(fed):
    import json

    base, feed = fed
    clocks = {"white": 291_000, "black": 9_400, "running": "black", "at": time.time(), "control": "5+3"}
    feed.annotate("clocks", clocks)
    feed.annotate("engine", ENGINE)
    feed.flush()
    assert feed.hub.get("board:clock-board")["clocks"] == clocks
    assert feed.hub.get("board:clock-board")["engine"] == ENGINE
    s = Stream(base + "/board/clock-board/events")
    end = time.monotonic() + 10
    while "\n\n" not in s.text and time.monotonic() < end:
        time.sleep(0.05)
    s.stop = True
    msg = json.loads(s.text.split("data: ", 1)[1].split("\n", 1)[0])
    assert abs(msg["now"] - time.time()) < 10  # the server's clock, which the page counts from
    assert 'data-side="white" data-ms="291000"' in msg["parts"]["clocks"]
    assert 'data-running="black"' in msg["parts"]["clocks"] and "9.4" in msg["parts"]["clocks"]
    assert "5+3" in msg["parts"]["clocks"]
    assert "computer (Stockfish level 3) plays <strong>Nc6</strong>" in msg["parts"]["engine"]
    assert 'data-sq="b8" data-led="." data-piece="n" data-engine="from"' in msg["parts"]["board"]
    feed.annotate("clocks", None)
    feed.annotate("engine", {"state": "thinking"})
    feed.flush()
    snap = feed.hub.get("board:clock-board")
    assert "clocks" not in snap and snap["engine"] == {"state": "thinking"}
    status, body = get(base + "/board/clock-board")
    assert status == 200 and 'class="clock ' not in body and "data-engine" not in body
    assert "computer: thinking" in body


def test_clocks_at_the_end_and_bad_entries():
    from host.web.render import board_parts, clocks

    s = {"clocks": {"white": 0, "black": 12_300, "running": "white", "at": 1.0}, "result": "0-1", "reason": "time"}
    html = clocks(s)
    assert 'data-running=""' in html and "flagged" in html and "0-1 time" in html  # stopped, flagged, the result
    assert 'data-delay="0"' in html
    # a simple delay's ms still free (5d3): the page spends them before its figure moves
    html = clocks({"clocks": {"white": 300_000, "black": 300_000, "running": "black", "at": 1.0, "delay": 2_400}})
    assert 'data-running="black" data-delay="2400"' in html
    assert 'data-delay="0"' in clocks({"clocks": {"white": 1, "black": 2, "at": 1.0, "delay": "junk"}})
    for bad in ({"clocks": "x"}, {"clocks": {"white": "1", "black": 2}}, {"clocks": {"white": float("nan"), "black": 1}},
                {"engine": ["x"]}, {"engine": {"state": "shown", "move": "z9z9"}}):
        parts = board_parts({"game": "chess", "fen": new_position("chess").fen(), **bad})
        assert parts["clocks"] == "" and "data-engine" not in parts["board"], bad


# ---- in the browser --------------------------------------------------------------------------


@needs_browser
def test_clocks_and_the_engine_move_on_the_live_board(page, fed):
    base, feed = fed
    # The browser's clock an hour ahead of the server's: the count must not notice.
    page.add_init_script("{ const real = Date.now; Date.now = () => real() + 3600e3; }")
    feed.annotate("clocks", {"white": 291_000, "black": 9_000, "running": "black", "at": time.time() - 1,
                             "control": "5+3"})
    feed.annotate("engine", {**ENGINE, "state": "thinking", "move": None, "san": None})
    feed.flush()
    page.goto(base + "/board/clock-board")
    page.wait_for_selector("#live.on")
    white, black = page.locator("#clocks .clock.white .time"), page.locator("#clocks .clock.black .time")
    assert white.inner_text() == "4:51"
    first = float(black.inner_text())
    assert 6.0 < first <= 8.0  # 9 s as of a second ago
    page.wait_for_function("t => Number(document.querySelector('#clocks .clock.black .time').textContent) < t",
                           arg=first - 0.3)  # it counts down
    assert white.inner_text() == "4:51" and page.locator("#clocks .flagged").count() == 0
    assert "5+3" in page.inner_text("#clocks")
    assert page.inner_text("#engine") == "computer (Stockfish level 3): thinking…"
    assert page.locator("#board [data-engine]").count() == 0

    feed.annotate("engine", ENGINE)
    feed.flush()
    page.wait_for_selector('#board rect[data-sq="b8"][data-engine="from"][data-piece="n"]')
    assert page.locator('#board rect[data-sq="c6"]').get_attribute("data-engine") == "to"
    assert sq(page, "g1") == ("l", "") and sq(page, "f3") == ("l", "N")  # the last move's LEDs stay
    assert page.inner_text("#engine") == "computer (Stockfish level 3) plays Nc6 – make it on the board"
    shot(page, "web-clocks.png")

    feed.annotate("clocks", {"white": 291_000, "black": 400, "running": "black", "at": time.time()})
    feed.flush()
    page.wait_for_selector("#clocks .clock.black.flagged .flag:not([hidden])")  # 0.4 s later: the flag
    assert black.inner_text() == "0.0"

    room = page.context.new_page()
    room.goto(base + "/")
    room.wait_for_selector("a.tile .clocks.compact .clock.black.flagged")
    assert room.locator("a.tile .clocks.compact .clock.white .time").inner_text() == "4:51"
    room.close()

    feed.annotate("clocks", None)
    feed.annotate("engine", None)
    feed.flush()
    page.wait_for_selector("#clocks .clock", state="detached")
    assert page.inner_text("#engine") == "" and page.locator("#board [data-engine]").count() == 0


@needs_browser
def test_a_move_on_a_virtual_board_appears_on_the_open_page(page, tmp_path):
    port = free_port()
    play = Proc("play", "--sim", "--game", "chess", "--archive", tmp_path / "a.sqlite", "--web", port)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(base)
        page.goto(base + "/")
        page.locator("a.tile").first.click()  # the club room opens the board's own page
        page.wait_for_selector('#board rect[data-sq="e2"][data-piece="P"]')
        page.wait_for_selector("#live.on")  # the event stream is open
        play.send("lift e2")
        page.wait_for_selector('#board rect[data-sq="e2"][data-led="f"]')
        assert sq(page, "e3") == ("d", "") and sq(page, "e4") == ("d", "")
        shot(page, "web-board.png")
        play.send("place e4")
        play.send("wait 800")
        page.wait_for_selector('#board rect[data-sq="e4"][data-led="l"][data-piece="P"]')
        assert sq(page, "e2") == ("l", "")
        assert page.inner_text("#moves").split() == ["1.", "e4"]  # SAN, under its move number
        assert "Black" in page.inner_text("#info")
        page.set_viewport_size({"width": 390, "height": 844})  # a phone: nothing to scroll sideways
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    finally:
        play.stop()


@needs_browser
def test_the_club_room_follows_four_boards_playing(page, tmp_path):
    from test_host import random_game, timed_script

    from host.link.virtual import VirtualBoard
    from host.record import san_list

    games = ["chess", "lippo", "gardner", "hundred"]  # 8 x 8, 12 x 12, 5 x 5, 10 x 10
    boards, expected = [], {}
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    serve = None
    try:
        for i, gid in enumerate(games):
            moves = random_game(gid, 4, 200 + i)
            lines, _ = timed_script(gid, moves)
            d = tmp_path / f"board{i}"
            d.mkdir()
            (d / "autoplay.txt").write_text("\n".join(["wait 1500"] + lines) + "\n")
            vb = VirtualBoard(d, realtime=True)
            vb.start()
            boards.append(vb)
            expected[gid] = moves
        args = ["serve", "--archive", tmp_path / "club.sqlite", "--web", port]
        for vb in boards:
            args += ["--port", vb.port]
        serve = Proc(*args)
        wait_http(base)
        page.goto(base + "/")  # open before the games are played: the tiles come live
        expect(page.locator("a.tile")).to_have_count(4, timeout=WAIT_MS)
        for gid, moves in expected.items():
            sans = san_list(gid, None, moves)
            caption = re.compile(rf"^{gid} · .* · {len(moves) // 2}… {re.escape(sans[-1])}")
            expect(page.locator("a.tile .caption", has_text=caption)).to_have_count(1, timeout=WAIT_MS * 2)
        shot(page, "web-room.png")
        tile = page.locator("a.tile", has_text="lippo ")
        tile.click()
        page.wait_for_selector('#board rect[data-sq="l12"]')  # the 12 x 12 board's corner
        page.wait_for_selector("#live.on")
        assert [w for w in page.inner_text("#moves").split() if not w.endswith(".")] == san_list("lippo", None, expected["lippo"])
    finally:
        if serve is not None:
            serve.stop(interrupt=True)
        for vb in boards:
            vb.stop()


@needs_browser
def test_an_archived_game_replays_and_its_pgn_downloads(page, archive_at):
    path = archive_at
    a = Archive(path)
    moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]
    gid = a.new_game("sim-a", "chess", None, white="Anna", black="Boris")
    for ply, m in enumerate(moves, 1):
        a.record("sim-a", ply, read_event(f"move {ply} {m}"), gid)
    a.record("sim-a", 9, read_event("end checkmate 1-0"), gid)
    other = a.new_game("sim-b", "gardner", None)
    a.record("sim-b", 1, read_event("move 1 a2a3"), other)
    expected_pgn = export(a.game(str(gid)), moves)
    a.close()
    port = free_port()
    web = Proc("web", port, "--archive", path)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(base)
        page.goto(base + "/archive")
        assert page.locator("table.games tbody tr").count() == 2
        page.set_viewport_size({"width": 390, "height": 844})
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        page.set_viewport_size({"width": 1000, "height": 760})
        page.fill("input[name=q]", "anna")
        page.click("form.search button")
        page.wait_for_url("**/archive?q=anna")
        assert page.locator("table.games tbody tr").count() == 1
        page.locator("table.games a", has_text="chess").click()
        page.wait_for_selector('#board rect[data-sq="b5"][data-piece="B"]')  # the last position first
        page.keyboard.press("Home")
        page.wait_for_selector('#board rect[data-sq="f1"][data-piece="B"]')
        assert page.inner_text("#ply") == "start"
        page.keyboard.press("ArrowRight")
        page.wait_for_selector('#board rect[data-sq="e4"][data-piece="P"][data-led="l"]')
        page.click("#next")
        page.wait_for_selector('#board rect[data-sq="e5"][data-piece="p"]')
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector('#board rect[data-sq="e7"][data-piece="p"]')
        page.click("button.ply[data-ply='3']")
        page.wait_for_selector('#board rect[data-sq="f3"][data-piece="N"]')
        assert page.inner_text("#ply") == "2. Nf3"
        assert page.locator("#board svg text").first.text_content() == "after 2. Nf3"
        page.click("button.ply[data-ply='4']")
        page.wait_for_selector('#board rect[data-sq="c6"][data-piece="n"]')
        assert page.inner_text("#ply") == "2… Nc6"
        # The last move (b8, a light square; c6, a dark one) stands out on both, as chromium draws it.
        for name in ("b8", "c6"):
            assert _mark_contrast(page, name) >= 3, name  # WCAG's 3:1 for what is not text
        assert _mark_contrast(page, "d6") < 1.1 and _mark_contrast(page, "c3") < 1.1  # unlit: nothing drawn
        shot(page, "web-archive.png")
        with page.expect_download() as dl:
            page.click("#pgn")
        got = Path(dl.value.path()).read_text()
        assert got == expected_pgn
        assert dl.value.suggested_filename == f"eboard-{gid}.pgn"
    finally:
        web.stop(interrupt=True)


@needs_browser
def test_kriegspiel_pages_show_each_player_only_their_own(browser, tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    k = Proc("kriegspiel", "--sim", "--standard", "--archive", tmp_path / "k.sqlite", "--web", port)
    pages = []
    try:
        links = {who: k.wait_for(rf"web, {who}: (\S+)").group(1) for who in ("white", "black", "spectators")}
        k.wait_for("Type a move")
        white_url, black_url = links["white"], links["black"]
        match = re.search(r"/k/(\w+)/", white_url).group(1)
        w_token, b_token = white_url.rsplit("/", 1)[1], black_url.rsplit("/", 1)[1]
        # Secret links: long and random, one per player, not derived from anything.
        assert len(w_token) >= 43 and len(b_token) >= 43 and w_token != b_token
        streams = {
            "black": Stream(black_url + "/events"),
            "spectators": Stream(links["spectators"] + "/events"),
            "forged": Stream(f"{base}/k/{match}/{w_token[:-1] + ('A' if w_token[-1] != 'A' else 'B')}/events"),
        }
        for url in (white_url, black_url, links["spectators"]):
            ctx = browser.new_context(viewport={"width": 900, "height": 760})
            pg = ctx.new_page()
            pg.set_default_timeout(WAIT_MS)
            pg.goto(url)
            pg.wait_for_selector("#live.on")
            pages.append(pg)
        white, black, spectators = pages
        # Each player's board holds their own men only.
        assert {white.locator(f'#board rect[data-sq="{s}"]').get_attribute("data-piece") for s in ("e2", "e7")} == {"P", ""}
        assert {black.locator(f'#board rect[data-sq="{s}"]').get_attribute("data-piece") for s in ("e2", "e7")} == {"p", ""}
        assert spectators.locator("#board, svg").count() == 0

        k.send("e2e4")
        white.wait_for_selector("#lines li:has-text('You try e2e4')")
        white.wait_for_selector('#board rect[data-sq="e4"][data-piece="P"]')
        black.wait_for_selector("#lines li:has-text('White has moved.')")
        spectators.wait_for_selector("#lines li:has-text('White has moved.')")
        k.send("e7e5")
        black.wait_for_selector("#lines li:has-text('You try e7e5')")
        white.wait_for_selector("#lines li:has-text('Black has moved.')")
        spectators.wait_for_selector("#lines li:has-text('Black has moved.')")
        k.send("d1h5")  # White's queen out: only White knows where
        white.wait_for_selector("#lines li:has-text('You try d1h5')")
        black.wait_for_selector("#lines li:nth-child(4)")
        for pg, name in ((white, "white"), (black, "black"), (spectators, "spectators")):
            shot(pg, f"web-kriegspiel-{name}.png")

        # Leak: the other player's page and stream.
        for who, pg in (("black", black), ("spectators", spectators)):
            text = pg.content()
            assert "e2e4" not in text and "d1h5" not in text and "You try e2" not in text, who
        assert "e7e5" not in white.content()
        assert not re.search(r'data-piece="[A-Z]"', black.content())
        assert not re.search(r'data-piece="[a-z]"', white.content())
        time.sleep(0.5)
        for who, s in streams.items():
            if who == "forged":
                assert s.status == 404
                continue
            assert s.status == 200 and "White has moved." in s.text, who
            assert "e2e4" not in s.text and "d1h5" not in s.text and "You try e2" not in s.text, who
            assert not re.search(r'data-piece=\\"[A-Z]\\"', s.text), who
        assert get(f"{base}/k/{match}/{b_token}")[1] != get(white_url)[1]
        for forged in (w_token[:-2], w_token + "x", w_token.upper(), "watch" + w_token, b_token[::-1]):
            assert get(f"{base}/k/{match}/{forged}") == get(f"{base}/k/nosuchmatch/{forged}"), forged
        # Leak: the spectators' page during the game shows no position.
        status, body = get(links["spectators"])
        assert status == 200 and "data-piece" not in body and "e2e4" not in body
        # Leak: the archive holds nothing of a game in progress.
        status, body = get(base + "/archive")
        assert "Kriegspiel" not in body and "e2e4" not in body
        for path in ("/archive/1", "/archive/1.pgn", "/archive/1/ply/1", "/archive/2"):
            assert get(base + path)[0] == 404, path

        k.send("resign")  # Black resigns: the game is over, the record goes to everybody
        k.wait_for("archived as game (\\d+)")
        spectators.wait_for_selector("#end:has-text('The umpire')")
        text = spectators.inner_text("#end")
        assert "e2e4" in text and "d1h5" in text and "1-0" in text
        black.wait_for_selector("#end:has-text('d1h5')")
        shot(spectators, "web-kriegspiel-record.png")
        status, body = get(base + "/archive/1")
        assert status == 200 and "d1h5" in body
    finally:
        for s in locals().get("streams", {}).values():
            s.stop = True
        for pg in pages:
            pg.context.close()
        k.stop()


@needs_browser
def test_play_against_the_computer_shows_its_clocks_and_move_live(page, tmp_path):
    # The whole way: `eboard play --engine --clock --web` publishes, the open page shows
    # both clocks, stopped until the first move, then the computer's move framed on the
    # board and the player's clock running down.
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    play = Proc("play", "--sim", "--game", "chess", "--engine", "6", "--engine-time", "0.3", "--clock", "5+3",
                "--archive", tmp_path / "a.sqlite", "--web", port)
    try:
        wait_http(base)
        page.goto(base + "/")
        page.locator("a.tile").first.click()
        page.wait_for_selector("#live.on")
        expect(page.locator("#clocks .clock")).to_have_count(2)
        expect(page.locator("#clocks .clock.running")).to_have_count(0)  # the first move starts the clock
        play.send("e4")
        play.wait_for(r"the computer plays \S+ \((\w+)\): make it on the board")
        expect(page.locator("#engine")).to_contain_text("plays")
        expect(page.locator('#board rect[data-engine="to"]')).to_have_count(1)
        # the computer's clock stopped when it showed its move: the player's runs while he makes it
        expect(page.locator("#clocks .clock.white.running")).to_have_count(1)
        expect(page.locator("#clocks .clock.black.running")).to_have_count(0)
        first = page.inner_text("#clocks .clock.white .time")
        page.wait_for_timeout(1500)
        assert page.inner_text("#clocks .clock.white .time") != first  # White's time runs down, in the page
        play.send("make")
        expect(page.locator('#board rect[data-engine="to"]')).to_have_count(0)
        expect(page.locator("#moves")).to_contain_text("1. e4")
        play.send("quit")
    finally:
        play.stop()


# ---- a flood of clients ------------------------------------------------------------------------

FLOOD_FDS = 200  # the server's `ulimit -n` in the flood test: its cap (FLOOD_FDS - 64) // 2


def _open_stream(port, path="/events/room"):
    """A raw client on loopback: (socket, its status line and head), the request sent."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    return s


def _head(s):
    """The head of a response (up to the blank line), and the body after it for a 503."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    if head.startswith(b"HTTP/1.1 503"):
        while True:  # the refusal closes: read its body to the end
            chunk = s.recv(4096)
            if not chunk:
                break
            body += chunk
    return head.decode(), body.decode()


@needs_browser
def test_a_flood_of_clients_is_refused_in_words_and_later_pages_work(page, tmp_path):
    import resource

    from host.web.server import SPARE_FDS

    cap = (FLOOD_FDS - SPARE_FDS) // 2
    port = free_port()
    base = f"http://127.0.0.1:{port}"

    def low_fd_limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (FLOOD_FDS, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    web = subprocess.Popen([BIN / "eboard", "web", str(port), "--archive", str(tmp_path / "a.sqlite")],
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           preexec_fn=low_fd_limit)
    held = []
    try:
        wait_http(base)
        # The most it keeps, all at once: every one of them served (the guard's longest legitimate load).
        for _ in range(cap):
            held.append(_open_stream(port))
        for s in held:
            head, _ = _head(s)
            assert head.startswith("HTTP/1.1 200") and "text/event-stream" in head, head
        # Twice as many again, in waves of cap / 2 at once: more clients than the process has
        # file descriptors. Each is refused in words.
        for _ in range(4):
            wave = [_open_stream(port) for _ in range(cap // 2)]
            for s in wave:
                head, body = _head(s)
                assert head.startswith("HTTP/1.1 503"), head
                assert "Retry-After: 5" in head
                assert body == f"too many connections: this board's web view keeps {cap} open at once; " \
                               "try again when some pages close\n"
                s.close()
        assert get(base + "/archive")[0] == 503  # a page asked for now: refused too, and said so
        for s in held:
            s.close()
        held = []
        # A page opened after the flood works, live.
        page.goto(base + "/archive")
        page.wait_for_selector("table.games")
        page.goto(base + "/")
        page.wait_for_selector("#live.on")
    finally:
        for s in held:
            s.close()
        web.send_signal(signal.SIGINT)
        out = web.communicate(timeout=30)[0]
    assert web.returncode == 0, out
    refusals = [line for line in out.splitlines() if "refusing" in line]
    assert refusals == [f"web: {cap} connections open, the most it keeps: refusing new ones until some close"], out
    assert out.splitlines()[1:] == refusals, out  # nothing else: no traceback, no error


# ---- what --web needs ------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def test_play_web_without_aiohttp_says_what_to_install(tmp_path):
    # aiohttp made missing for the command, as in a .venv set up without the web extra.
    (tmp_path / "aiohttp.py").write_text("raise ModuleNotFoundError(\"No module named 'aiohttp'\", name='aiohttp')\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    for args in (["play", "--sim", "--game", "chess", "--web", "0"], ["web", "0"]):
        r = subprocess.run([BIN / "eboard", *args, "--archive", str(tmp_path / "a.sqlite")], env=env, input="",
                           capture_output=True, text=True, timeout=120)
        assert r.returncode != 0, args
        assert "Traceback" not in r.stderr + r.stdout, r.stderr
        want = (f"the browser view (--web) needs aiohttp, not installed for this Python: "
                f"{BIN / 'python'} -m pip install 'aiohttp>=3.9'  (./play.sh --web installs it)")
        assert want in r.stderr, r.stderr


def test_play_sh_web_installs_the_web_extra(tmp_path):
    # play.sh run for real, on a copy of the repository's scripts with a stand-in .venv
    # whose python and eboard write down what they were asked.
    (tmp_path / "tools").mkdir()
    for name in ("play.sh", "tools/venv.sh", "pyproject.toml"):
        (tmp_path / name).write_bytes((ROOT / name).read_bytes())
    (tmp_path / "play.sh").chmod(0o755)
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    log = tmp_path / "log"
    for name in ("python", "eboard"):
        (bin_dir / name).write_text(f'#!/bin/sh\n[ "$1" = -c ] && exit 0\necho "{name} $*" >> {log}\n')
        (bin_dir / name).chmod(0o755)

    def run(*args):
        log.write_text("")
        r = subprocess.run([tmp_path / "play.sh", *args], capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        return log.read_text().splitlines(), r.stderr

    calls, said = run("--game", "chess")
    assert calls == ["python -m pip install -q --disable-pip-version-check -e .[tools]", "eboard play --sim --game chess"]
    calls, said = run("--game", "chess", "--web", "8090")
    assert calls == ["python -m pip install -q --disable-pip-version-check -e .[tools,web]",
                     "eboard play --sim --game chess --web 8090"]
    assert "python-chess, aiohttp" in said
    calls, _ = run("--web")  # set up once: the next run installs nothing
    assert calls == ["eboard play --sim --web"]


# ---- the moves as players write them ------------------------------------------------------------


def test_notation_follows_a_game_a_move_at_a_time():
    from host.web.hub import Notation

    n = Notation()
    assert n.sans("chess", None, ["e2e4"]) == ["e4"]
    assert n.sans("chess", None, ["e2e4", "e7e5", "f1c4", "f8c5", "c4f7"]) == ["e4", "e5", "Bc4", "Bc5", "Bxf7+"]
    assert n.sans("chess", None, ["e2e4", "e7e5", "d1h5"]) == ["e4", "e5", "Qh5"]  # taken back, another move
    assert n.sans("chess", None, ["e2e4", "e7e5", "d1h5", "zz", "e1e2"]) == ["e4", "e5", "Qh5", "zz", "e1e2"]
    assert n.sans("checkers12", None, ["a3b4"]) == ["a3b4"]  # its own notation


def test_pages_show_san_under_move_numbers_the_players_and_check(tmp_path):
    from host.web.server import WebServer

    path = tmp_path / "a.sqlite"
    a = Archive(path)
    games = {
        "check": (dict(white="Anna", black="Boris"), None, ["e2e4", "e7e5", "f1c4", "f8c5", "c4f7", "e8f7"]),
        "mate": ({}, None, ["f2f3", "e7e5", "g2g4", "d8h4"]),
        "later": ({}, "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 7", ["b8c6", "f1b5"]),
        "checkers": ({}, None, []),
    }
    pos = new_position("checkers12")
    for _ in range(3):
        m = pos.legal_moves()[0]
        games["checkers"][2].append(pos.move_str(m))
        pos.push(m)
    ids = {}
    for name, (tags, fen, moves) in games.items():
        gid = ids[name] = a.new_game("b-" + name, "checkers12" if name == "checkers" else "chess", fen, **tags)
        for ply, m in enumerate(moves, 1):
            a.record("b-" + name, ply, read_event(f"move {ply} {m}"), gid)
    a.close()
    server = WebServer(str(path), port=0)
    base = server.start()
    try:
        status, body = get(f"{base}/archive/{ids['check']}")
        assert status == 200 and f"<h1>Game {ids['check']}: chess, Anna – Boris</h1>" in body
        text = re.sub(r"<[^>]+>", " ", body.split('id="moves">', 1)[1].split("</ol>", 1)[0]).split()
        assert text == ["1.", "e4", "e5", "2.", "Bc4", "Bc5", "3.", "Bxf7+", "Kxf7"]
        assert '<span data-ply="6">3… Kxf7</span>' in body
        assert "after 3… Kxf7" in body  # the board's title
        body = get(f"{base}/archive/{ids['mate']}")[1]
        assert "Qh4#" in body and "? – ?" not in body
        body = get(f"{base}/archive/{ids['later']}")[1]
        text = re.sub(r"<[^>]+>", " ", body.split('id="moves">', 1)[1].split("</ol>", 1)[0]).split()
        assert text == ["7.", "…", "Nc6", "8.", "Bb5"]  # from the FEN's move number, Black first
        body = get(f"{base}/archive/{ids['checkers']}")[1]
        assert games["checkers"][2][0] in body  # checkers12 keeps its own notation
        body = get(f"{base}/archive")[1]
        assert "Anna – Boris" in body and "? – ?" not in body
        assert "<th>plies</th>" in body and "<td>6</td>" in body  # 6 plies, as eboard games counts them (issue #34)
    finally:
        server.stop()


def test_the_live_board_and_its_tile_show_san_and_players(fed):
    base, feed = fed
    snap = feed.hub.get("board:clock-board")
    assert snap["san"] == ["e4", "e5", "Nf3"] and snap["white"] == "Anna"
    body = get(base + "/")[1]
    assert "chess · clock-board · 2. Nf3" in body and "Anna – computer" in body
    body = get(base + "/board/clock-board")[1]
    assert "<h1>chess on clock-board, Anna – computer</h1>" in body
    assert '<span class="last">Nf3</span>' in body and "<dd>2. Nf3</dd>" in body


def test_a_halls_round_lists_its_boards_by_number_live_and_archived(tmp_path):
    # Issue #35: a round's boards by board number, names, clocks and results, live boards
    # and archived games, from each game's Round and Board tags (as its PGN export says them:
    # the archive's tags table, which serve's --round-file and `eboard tag` write).
    import json

    from host.web.hub import BoardFeed, Hub
    from host.web.server import WebServer

    path = tmp_path / "a.sqlite"
    a = Archive(path)

    def place(gid, rnd, board):
        a.set_tag(gid, "Round", rnd)
        a.set_tag(gid, "Board", board)

    feeds = []
    hub = Hub()
    for key, white, black, where in (("b-two", "Ann", "Bob", ("3", "2")), ("b-one", "Cid", "Dee", ("3", "1")),
                                     ("b-other", "Eve", "Fay", ("2", "1"))):
        gid = a.new_game(key, "chess", None, white=white, black=black)
        for ply, m in enumerate(CLOCK_GAME, 1):
            a.record(key, ply, read_event(f"move {ply} {m}"), gid)
        place(gid, *where)
        bridge = FakeBridge(gid)
        bridge.key = bridge.port = key
        feeds.append(BoardFeed(bridge, a, hub=hub))
    done = a.new_game("b-old", "chess", None, white="Gus", black="Hal")
    a.record("b-old", 1, read_event("move 1 e2e4"), done)
    a.record("b-old", 2, read_event("end resign 1-0"), done)
    place(done, "3", "4")
    feeds[0].annotate("clocks", {"white": 61_000, "black": 59_000, "running": "white", "at": time.time()})
    feeds[0].flush()
    server = WebServer(str(path), port=0, hub=hub)
    base = server.start()
    try:
        body = get(base + "/round/3")[1]
        rows = re.findall(r'<div id="(row-[\w-]+|game-\d+)"><a class="row" href="([^"]+)" data-order="(\d+)">', body)
        assert rows == [("row-b-one", "/board/b-one", "1"), ("row-b-two", "/board/b-two", "2"),
                        (f"game-{done}", f"/archive/{done}", "4")]
        assert "Cid" in body and "Ann" in body and "Gus" in body and "Eve" not in body
        assert '<strong class="result">1-0</strong>' in body and 'class="clock white running"' in body
        assert 'Rounds: <a href="/round/2">2</a> <a href="/round/3" class="here">3</a>' in body
        assert 'Rounds: <a href="/round/2">2</a> <a href="/round/3">3</a>' in get(base + "/")[1]
        assert "<h1>Round 3, board 1: chess on b-one, Cid – Dee</h1>" in get(base + "/board/b-one")[1]
        assert get(base + "/round/9")[0] == 404 and get(base + "/round/a%20b")[0] == 404
        with urllib.request.urlopen(base + "/round/3/events", timeout=10) as r:  # the round's boards only
            line = r.readline()
            while not line.startswith(b"data: "):
                line = r.readline()
            assert sorted(json.loads(line[6:])["parts"]) == ["row-b-one", "row-b-two"]
    finally:
        server.stop()
        a.close()
