"""A hall on one host (issue #35): N virtual boards, each playing a random game at about a
move a second, followed by one `eboard serve`; for each N, what the boards made, what serve
archived while they played, what it archived after a catch-up, and serve's CPU, memory and
file descriptors.

    .venv/bin/python bench/hall.py [--boards 16,32,64,128,256] [--seconds 60] [--game chess]

For each N: N virtual boards (the firmware under the MicroPython unix port, one process a
board, run by this bench, not by serve) each get an autoplay script of one random game of
`--seconds` moves, a move about a second; `eboard serve --port ...` follows all of them.
"archived live" is counted once the moves stop growing (the boards' scripts are done, or
the boards stopped), with serve still running; serve is then stopped, each board asked for
its `history` (moves made), and serve started again until the archive holds them
("archived after catch-up").  serve's CPU is its own (user + system) over the live phase,
as a share of one core; its memory the peak resident set (VmHWM); its descriptors the most
seen.  The boards' CPU is the sum over their processes: on 2 cores, hundreds of MicroPython
boards are the bound long before serve is, and the "moves a second" column says what they
managed.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host.link import BoardLink, LinkError, BridgeTimeout, BoardError, VirtualBoard  # noqa: E402
from host.session.club import random_script  # noqa: E402

EBOARD = str(Path(sys.executable).parent / "eboard")
TICK = os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int) -> float:
    """A process's CPU time so far (user + system), in seconds; 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK
    except (OSError, IndexError, ValueError):
        return 0.0


def status_kb(pid: int, key: str) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def fd_count(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def archived(db: Path) -> int:
    """Moves in the archive now (a reader of its own, beside serve's writer)."""
    if not db.exists():
        return 0
    try:
        c = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
        try:
            return int(c.execute("SELECT COUNT(*) FROM moves").fetchone()[0])
        finally:
            c.close()
    except sqlite3.Error:
        return 0


class Serve:
    """`eboard serve` following the ports, sampled every second."""

    def __init__(self, db: Path, ports: list[str], log: Path) -> None:
        args = [EBOARD, "serve", "--archive", str(db)]
        for p in ports:
            args += ["--port", p]
        self.log = open(log, "a")
        self.p = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, env=dict(os.environ, HOME=str(db.parent)))
        self.started = time.monotonic()
        self.cpu0 = cpu_s(self.p.pid)
        self.fds = 0
        self.rss_kb = 0

    def sample(self) -> None:
        self.fds = max(self.fds, fd_count(self.p.pid))
        self.rss_kb = max(self.rss_kb, status_kb(self.p.pid, "VmHWM"))

    def cpu_share(self) -> float:
        return (cpu_s(self.p.pid) - self.cpu0) / max(1e-6, time.monotonic() - self.started)

    def stop(self) -> int:
        self.p.send_signal(signal.SIGINT)
        try:
            rc = self.p.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = self.p.wait()
        self.log.close()
        return rc


def wait_settled(db: Path, serve: Serve, deadline: float, target: int | None = None, calm_s: float = 10.0) -> int:
    """Moves archived once they stop growing for calm_s (or reach target), or at the deadline."""
    last, since = -1, time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(1.0)
        serve.sample()
        n = archived(db)
        if target is not None and n >= target:
            return n
        if n != last:
            last, since = n, time.monotonic()
        elif n > 0 and time.monotonic() - since >= calm_s:
            break
    return archived(db)


def connected(log: Path) -> int:
    """The boards serve has said it is connected to, so far (both runs)."""
    return log.read_text(errors="replace").count(": connected\n")


def history(port: str) -> tuple[str, list[str]] | None:
    """(the board's id, the moves of its game), asked of the board itself."""
    try:
        with BoardLink(port, timeout_s=30) as link:
            link.hello(timeout_s=30)
            return link.board_id, link.request("history").split()[1:]
    except (LinkError, BridgeTimeout, BoardError, OSError):
        return None


def differences(db: Path, boards: list[tuple[str, list[str]] | None]) -> list[str]:
    """Each board whose archived games do not hold exactly its moves, in words."""
    c = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    out = []
    try:
        for said in boards:
            if said is None:
                continue
            key, moves = said
            games = c.execute("SELECT id, result, reason FROM games WHERE board=? ORDER BY id", (key,)).fetchall()
            filed = [[m for (m,) in c.execute("SELECT move FROM moves WHERE game_id=? ORDER BY ply", (g[0],))]
                     for g in games]
            if [f for f in filed if f] != [moves]:
                out.append(f"board {key}: {len(moves)} moves made; archived " + ", ".join(
                    f"game {g[0]} {len(f)} moves ({g[1]} {g[2]})" for g, f in zip(games, filed)))
    finally:
        c.close()
    return out


def run(n: int, seconds: int, game: str, tmp: Path) -> dict[str, object]:
    boards: list[VirtualBoard] = []
    serves: list[Serve] = []  # stopped however the bench ends: a serve left behind grabs others' ptys
    db = tmp / "hall.sqlite"
    log = tmp / "serve.log"
    try:
        t0 = time.monotonic()
        for i in range(n):
            d = tmp / f"board{i}"
            d.mkdir()
            lines = random_script(game, seconds, random.Random(1000 + i), 800)
            (d / "autoplay.txt").write_text("wait 2000\n" + "\n".join(lines) + "\nwait 3600000\n")
            vb = VirtualBoard(d, realtime=True)
            vb.start()
            boards.append(vb)
        serve = Serve(db, [vb.port for vb in boards], log)
        serves.append(serve)
        # live: serve follows the boards while they play; its minute is the first `seconds` after all started
        minute_end = time.monotonic() + seconds
        while time.monotonic() < minute_end:
            time.sleep(1.0)
            serve.sample()
        in_minute = archived(db)
        live = wait_settled(db, serve, time.monotonic() + 10 * seconds + 120)
        serve.sample()
        cpu = serve.cpu_share()
        live_s = time.monotonic() - serve.started
        fds, rss = serve.fds, serve.rss_kb
        boards_cpu = sum(cpu_s(vb.proc.pid) for vb in boards if vb.proc is not None)
        boards_rss = sum(status_kb(vb.proc.pid, "VmRSS") for vb in boards if vb.proc is not None)
        rc1 = serve.stop()
        said = [history(vb.port) for vb in boards]
        made = sum(len(m[1]) for m in said if m is not None)
        unanswered = sum(1 for m in said if m is None)
        # catch-up: serve again, until the archive holds every move made
        again = Serve(db, [vb.port for vb in boards], log)
        serves.append(again)
        deadline = time.monotonic() + 300
        while connected(log) < 2 * n and time.monotonic() < deadline:  # (every board caught up with)
            time.sleep(1.0)
        after = wait_settled(db, again, deadline, target=made, calm_s=15.0)
        rc2 = again.stop()
        text = log.read_text(errors="replace")
        return {"differences": differences(db, said),
            "boards": n, "made": made, "in_minute": in_minute, "live": live, "after": after,
            "lost": made - after, "unanswered": unanswered, "serve_cpu": cpu, "serve_rss_mb": rss / 1024,
            "serve_fds": fds, "live_s": live_s, "boards_cpu": boards_cpu / live_s,
            "boards_rss_mb": boards_rss / 1024, "rc": (rc1, rc2),
            "internal": text.count("internal error"), "tracebacks": text.count("Traceback"),
            "setup_s": time.monotonic() - t0,
        }
    finally:
        for sv in serves:
            if sv.p.poll() is None:
                sv.p.kill()
                sv.p.wait()
        for vb in boards:
            vb.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", default="16,32,64,128,256")
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--game", default="chess")
    args = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # this bench holds a descriptor a board
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, commit {commit}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}; {args.game}, {args.seconds} moves a board at about 1 a second")
    print("| boards | moves made | archived in the minute | archived live | after catch-up | lost | "
          "serve CPU | serve peak RSS | serve fds | boards' CPU | boards' RSS | archived a second in the minute |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in [int(x) for x in args.boards.split(",")]:
        with tempfile.TemporaryDirectory(prefix=f"eboard-hall{n}-") as tmp:
            r = run(n, args.seconds, args.game, Path(tmp))
        rate = r["in_minute"] / args.seconds  # type: ignore[operator]
        print(f"| {n} | {r['made']} | {r['in_minute']} | {r['live']} | {r['after']} | {r['lost']} | "
              f"{100 * r['serve_cpu']:.1f} % | {r['serve_rss_mb']:.0f} MB | {r['serve_fds']} | "
              f"{100 * r['boards_cpu']:.0f} % | {r['boards_rss_mb']:.0f} MB | {rate:.1f} |", flush=True)
        notes = []
        if r["unanswered"]:
            notes.append(f"{r['unanswered']} boards did not answer `history`")
        if r["internal"] or r["tracebacks"]:
            notes.append(f"serve said {r['internal']} internal errors, {r['tracebacks']} tracebacks")
        if r["rc"] != (0, 0):
            notes.append(f"serve's exit codes {r['rc']}")
        notes += r["differences"][:5]  # type: ignore[operator]
        if notes:
            print("  (" + "; ".join(notes) + ")", flush=True)


if __name__ == "__main__":
    main()
