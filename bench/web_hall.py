"""A hall's web room under its audience (issue #35): 200 watchers at once on `eboard serve
--web`, and the time from a board's message (a move) to every page.

    .venv/bin/python bench/web_hall.py [--watchers 200] [--boards 16] [--seconds 60] [--stream /events/room]

`eboard serve --sim N --game chess --web 0` plays N virtual boards (random games, a move
every two seconds or so a board); the watchers are N server-sent event streams (aiohttp's
client, all in this one process) on the club room's stream by default (every board's tile:
the heaviest page: a 17 KB tile an update), on a round's page (`--stream /round/1/events`:
a row a board; serve is given a round file that pairs every board, so that its games carry
the Round tag), or each on one board's own page (`--stream board`).  Every
update carries, for each board it shows, the number of the board message it shows and the
time serve heard it (`meta`: seq, heard_at, serve's wall clock); a watcher notes when the
update arrives (this machine's wall clock, the same).  For each board message: its latency
to each page, and to every page (the last watcher to get it).  serve's CPU and memory and
this process's CPU (200 clients parsing JSON: on 2 cores a bound of its own) are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

EBOARD = str(Path(sys.executable).parent / "eboard")
TICK = os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK
    except (OSError, IndexError, ValueError):
        return 0.0


def hwm_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def pct(values: list[float], p: float) -> float:
    return values[min(len(values) - 1, int(len(values) * p))]


async def watch(url: str, seen: list[tuple[str, int, float, float, float]], stop: asyncio.Event,
                ready: list[int]) -> None:
    """One page's stream: for every board it is shown, (board, message number, when serve
    heard the message, when serve sent the update, when it arrived here)."""
    import aiohttp

    timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        async with session.get(url, headers={"Accept": "text/event-stream"}, read_bufsize=1 << 20) as resp:
            if resp.status != 200:
                raise RuntimeError(f"{url}: {resp.status} {await resp.text()}")
            ready.append(1)
            while not stop.is_set():
                line = await resp.content.readline()
                if not line:
                    return
                if not line.startswith(b"data: "):
                    continue
                now = time.time()
                msg = json.loads(line[6:])
                for topic, m in msg.get("meta", {}).items():
                    if m.get("heard_at"):
                        seen.append((topic, int(m["seq"]), float(m["heard_at"]), float(msg.get("now", 0)), now))


async def audience(base: str, stream: str, watchers: int, seconds: float) -> tuple[list[dict[tuple[str, int], tuple[float, float, float]]], float]:
    """Each page's first sight of each board message: {(board, number): (heard, sent, arrived)}
    (a page behind is sent a board's newest state only: a message it never got is seen when
    a later one of its board arrives); and when every page was open."""
    seen: list[list[tuple[str, int, float, float, float]]] = [[] for _ in range(watchers)]
    stop = asyncio.Event()
    ready: list[int] = []
    if stream == "board":  # each watcher on one board's own page, the boards in turn
        import urllib.request

        with urllib.request.urlopen(base + "/", timeout=30) as r:
            slugs = sorted(set(re.findall(r'data-board="([^"]+)"', r.read().decode())))
        urls = [f"{base}/board/{slugs[i % len(slugs)]}/events" for i in range(watchers)]
    else:
        urls = [base + stream] * watchers
    tasks = [asyncio.create_task(watch(urls[i], seen[i], stop, ready)) for i in range(watchers)]
    t0 = time.monotonic()
    while len(ready) < watchers and time.monotonic() - t0 < 60:
        await asyncio.sleep(0.1)
        for t in tasks:
            if t.done() and t.exception() is not None:
                raise t.exception()  # type: ignore[misc]
    start = time.time()
    await asyncio.sleep(seconds)
    stop.set()
    for t in tasks:
        t.cancel()
    died = [t for t in tasks if t.done() and not t.cancelled() and t.exception() is not None]
    await asyncio.gather(*tasks, return_exceptions=True)
    if died:
        print(f"{len(died)} watchers failed: {died[0].exception()!r}")
    heard = {(topic, seq): h for page in seen for topic, seq, h, _, _ in page if h >= start}
    pages = []
    for page in seen:
        first: dict[tuple[str, int], tuple[float, float, float]] = {}
        for (topic, seq), h in heard.items():
            later = [(sent, got) for t, s2, _, sent, got in page if t == topic and s2 >= seq]
            if later:
                sent, got = min(later, key=lambda x: x[1])
                first[(topic, seq)] = (h, sent, got)
        pages.append(first)
    return pages, start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--watchers", type=int, default=200)
    ap.add_argument("--boards", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--stream", default="/events/room", help="a stream's path, or board: each watcher on one board's page")
    args = ap.parse_args()
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="eboard-webhall-") as tmp:
        log = open(Path(tmp) / "serve.log", "w+")
        argv = [EBOARD, "serve", "--sim", str(args.boards), "--game", "chess", "--web", "0",
                "--archive", str(Path(tmp) / "hall.sqlite")]
        round_ = re.fullmatch(r"/round/([^/]+)/events", args.stream)
        if round_:  # a round's page shows the games tagged with its Round: a round file pairs every board
            pairings = Path(tmp) / "round.csv"
            pairings.write_text("board,white,black\n" + "".join(f"{i},White {i},Black {i}\n"
                                                              for i in range(1, args.boards + 1)))
            argv += ["--round-file", str(pairings), "--round", round_.group(1)]
        serve = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, HOME=tmp))
        try:
            base = None
            deadline = time.monotonic() + 120
            while base is None and time.monotonic() < deadline:
                time.sleep(0.5)
                found = re.search(r"web: (http://[^/\s]+)/", Path(tmp, "serve.log").read_text())
                base = found.group(1) if found else None
            if base is None:
                sys.exit("serve's web room did not start:\n" + Path(tmp, "serve.log").read_text()[-2000:])
            while Path(tmp, "serve.log").read_text().count(": connected") < args.boards and time.monotonic() < deadline:
                time.sleep(0.5)
            cpu0, t0, me0 = cpu_s(serve.pid), time.monotonic(), time.process_time()
            pages, _ = asyncio.run(audience(base, args.stream, args.watchers, args.seconds))
            wall = time.monotonic() - t0
            serve_cpu = (cpu_s(serve.pid) - cpu0) / wall
            me_cpu = (time.process_time() - me0) / wall
            mem = hwm_mb(serve.pid)
        finally:
            serve.send_signal(signal.SIGINT)
            try:
                serve.wait(60)
            except subprocess.TimeoutExpired:
                serve.kill()
                serve.wait()
        text = Path(tmp, "serve.log").read_text()
    messages = set().union(*(p.keys() for p in pages)) if pages else set()
    every, each, server, wire = [], [], [], []
    watching = {t: sum(1 for p in pages if any(k[0] == t for k in p)) for t, _ in messages}
    for key in messages:
        sights = [p[key] for p in pages if key in p]
        if len(sights) == watching[key[0]]:  # every page that shows this board
            every.append(max(got - h for h, _, got in sights) * 1000)
        each += [(got - h) * 1000 for h, _, got in sights]
        server += [(sent - h) * 1000 for h, sent, _ in sights]
        wire += [(got - sent) * 1000 for _, sent, got in sights]
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, commit {commit}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"{len(pages)} watchers on {args.stream}, {args.boards} virtual boards (chess), {args.seconds:.0f} s: "
          f"{len(messages)} board messages, {len(every)} seen on every page that shows the board")
    for name, values in (("a message -> every page", every), ("a message -> one page", each),
                         ("  of which serve (the board's state asked, rendered, queued)", server),
                         ("  of which the stream to the page", wire)):
        if values:
            values.sort()
            print(f"{name}: median {statistics.median(values):.0f} ms, 95th percentile {pct(values, 0.95):.0f} ms, "
                  f"max {values[-1]:.0f} ms")
    print(f"serve (boards, archive, web): {100 * serve_cpu:.0f} % of a core, peak RSS {mem:.0f} MB; "
          f"the {len(pages)} watchers (this process): {100 * me_cpu:.0f} % of a core")
    if "Traceback" in text or "internal error" in text:
        print("serve said: " + " | ".join(l for l in text.splitlines() if "internal error" in l or "Error" in l)[:500])


if __name__ == "__main__":
    main()
