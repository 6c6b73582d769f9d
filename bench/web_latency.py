"""How long a board's message takes to reach an open page: from the moment the host reads
it off the link to the moment the page has swapped the new board in.

    .venv/bin/python bench/web_latency.py [--moves N] [--game GAME]

A virtual board (real time) plays a random game by itself (its autoplay script: lifts,
places, calm), followed as `eboard serve --web` follows it (Bridge, BoardFeed.flush after
every poll); the board's page is open in headless chromium (Playwright, Debian's
/usr/bin/chromium).  Every board message is timed on the host as it arrives; every update
the page receives carries the number of the last message it shows, and is timed in the
page.  Both clocks are this machine's wall clock.  The target is 100 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware.rules import new_position  # noqa: E402
from firmware.squares import Geometry  # noqa: E402
from firmware.hands import hand_moves  # noqa: E402
from host.record.archive import Archive  # noqa: E402
from host.record.bridge import Bridge  # noqa: E402
from host.link.virtual import VirtualBoard  # noqa: E402
from host.web.hub import BoardFeed, slug  # noqa: E402
from host.web.server import WebServer  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
RECORD = """document.addEventListener("eboard-update", (e) => {
  const meta = e.detail.meta || {};
  for (const m of Object.values(meta)) (window.__got = window.__got || []).push([m.seq, Date.now()]);
});"""


def script(game: str, plies: int, seed: int) -> list[str]:
    """An autoplay script: a random game, a lift or place every 150 ms, 700 ms of calm a move."""
    rnd = random.Random(seed)
    pos = new_position(game)
    geo = Geometry(pos.game.layout)
    # (the calm first: a newgame said while the bridge says hello would find it with no key)
    lines = ["wait 1500", f"game {game}", "wait 1000"]
    for _ in range(plies):
        ms = pos.legal_moves()
        if not ms:
            break
        m = rnd.choice(ms)
        lifts, places = hand_moves(pos, m)
        for verb, cells in (("lift", lifts), ("place", places)):
            for cell in cells:
                lines += [f"{verb} {geo.name(geo.phys(cell))}", "wait 150"]
        lines.append("wait 700")
        pos.push(m)
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--moves", type=int, default=20)
    ap.add_argument("--game", default="chess")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="eboard-bench-web-"))
    (tmp / "board").mkdir()
    (tmp / "board" / "autoplay.txt").write_text("\n".join(script(args.game, args.moves, 1)) + "\n")
    vb = VirtualBoard(tmp / "board", realtime=True)
    port = vb.start()
    archive = Archive(tmp / "a.sqlite")
    heard: dict[int, float] = {}
    bridge = Bridge(port, archive, on_change=lambda seq, text: heard.setdefault(seq, time.time()))
    bridge.connect()
    feed = BoardFeed(bridge, archive)
    server = WebServer(str(tmp / "a.sqlite"), port=0)
    base = server.start()
    stop = threading.Event()

    def follow() -> None:  # what serve's thread does for one board
        while not stop.is_set():
            bridge.poll(0.2)
            feed.flush()

    t = threading.Thread(target=follow, daemon=True)
    t.start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=[
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync"])
            page = browser.new_page()
            page.add_init_script(RECORD)
            while feed.dirty:
                time.sleep(0.05)
            page.goto(f"{base}/board/{slug(str(bridge.key))}")
            page.wait_for_selector("#live.on")
            start = time.time()
            total_ms = 2500 + args.moves * (4 * 150 + 700) + 3000
            while time.time() - start < total_ms / 1000 * 1.5 and len(archive.moves(bridge.game_id or 0)) < args.moves:
                time.sleep(0.5)
            time.sleep(1.0)
            got = page.evaluate("() => window.__got || []")
            browser.close()
    finally:
        stop.set()
        t.join(5)
        server.stop()
        bridge.close()
        vb.stop()
    seen_from = min((s for s, _ in got), default=0)
    lat = []
    for seq, at in sorted(heard.items()):
        if seq <= seen_from:
            continue  # said before the page was open
        shown = [t_ms for s, t_ms in got if s >= seq]
        if shown:
            lat.append(min(shown) - at * 1000)
    if not lat:
        print("no updates reached the page")
        return
    lat.sort()
    print(f"{args.game}: {len(archive.moves(bridge.game_id or 0))} moves, {len(lat)} board messages shown, "
          f"{len(got)} page updates")
    print(f"board message -> page updated: median {statistics.median(lat):.1f} ms, "
          f"95th percentile {lat[int(len(lat) * 0.95) - 1]:.1f} ms, max {lat[-1]:.1f} ms (target 100 ms)")


if __name__ == "__main__":
    main()
