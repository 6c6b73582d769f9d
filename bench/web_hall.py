"""A hall's web room under its audience (issue #35): 200 watchers at once on `eboard serve
--web`, and the time from a board's message (a move) to every page.

    .venv/bin/python bench/web_hall.py [--watchers 200] [--boards 16] [--seconds 60] [--stream /events/room]

`eboard serve --sim N --game chess --web 0` plays N virtual boards (random games, a move
every two seconds or so a board); the watchers are N server-sent event streams (aiohttp's
client, all in this one process) on the club room's stream by default (every board's tile:
the heaviest page; a round's page, /round/R/events, is the same stream filtered).  Every
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


async def watch(url: str, got: dict[tuple[str, int, float], list[float]], stop: asyncio.Event, ready: list[int]) -> None:
    """One page's stream: every (board, message) it is shown, and when it arrived."""
    import aiohttp

    timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        async with session.get(url, headers={"Accept": "text/event-stream"}) as resp:
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
                meta = json.loads(line[6:]).get("meta", {})
                for topic, m in meta.items():
                    heard = m.get("heard_at")
                    if heard:
                        got.setdefault((topic, int(m["seq"]), float(heard)), []).append(now - float(heard))


async def audience(base: str, stream: str, watchers: int, seconds: float) -> tuple[dict[tuple[str, int, float], list[float]], int]:
    got: dict[tuple[str, int, float], list[float]] = {}
    stop = asyncio.Event()
    ready: list[int] = []
    tasks = [asyncio.create_task(watch(base + stream, got, stop, ready)) for _ in range(watchers)]
    t0 = time.monotonic()
    while len(ready) < watchers and time.monotonic() - t0 < 60:
        await asyncio.sleep(0.1)
        for t in tasks:
            if t.done() and t.exception() is not None:
                raise t.exception()  # type: ignore[misc]
    opened = len(ready)
    start = time.time()
    await asyncio.sleep(seconds)
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {k: v for k, v in got.items() if k[2] >= start}, opened  # what was heard once every page was open


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--watchers", type=int, default=200)
    ap.add_argument("--boards", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--stream", default="/events/room")
    args = ap.parse_args()
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="eboard-webhall-") as tmp:
        log = open(Path(tmp) / "serve.log", "w+")
        serve = subprocess.Popen([EBOARD, "serve", "--sim", str(args.boards), "--game", "chess", "--web", "0",
                                  "--archive", str(Path(tmp) / "hall.sqlite")], stdout=log, stderr=subprocess.STDOUT,
                                 env=dict(os.environ, HOME=tmp))
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
            got, opened = asyncio.run(audience(base, args.stream, args.watchers, args.seconds))
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
    every = sorted(max(v) * 1000 for v in got.values() if len(v) == opened)
    each = sorted(x * 1000 for v in got.values() for x in v)
    partial = sum(1 for v in got.values() if len(v) != opened)
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, commit {commit}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"{opened} watchers on {args.stream}, {args.boards} virtual boards (chess), {args.seconds:.0f} s: "
          f"{len(got)} board messages shown, {len(each)} page updates")
    if every:
        print(f"a message -> every page: median {statistics.median(every):.0f} ms, 95th percentile "
              f"{pct(every, 0.95):.0f} ms, max {every[-1]:.0f} ms")
    if each:
        print(f"a message -> one page: median {statistics.median(each):.0f} ms, 95th percentile "
              f"{pct(each, 0.95):.0f} ms, max {each[-1]:.0f} ms")
    if partial:
        print(f"({partial} messages reached only some pages: a newer one of the same board replaced them)")
    print(f"serve (boards, archive, web): {100 * serve_cpu:.0f} % of a core, peak RSS {mem:.0f} MB; "
          f"the {opened} watchers (this process): {100 * me_cpu:.0f} % of a core")
    if "Traceback" in text or "internal error" in text:
        print("serve said: " + " | ".join(l for l in text.splitlines() if "internal error" in l or "Error" in l)[:500])


if __name__ == "__main__":
    main()
