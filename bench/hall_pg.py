"""A hall's archive under fire (issue #35): HOSTS `eboard serve` processes, each following
BOARDS virtual boards, all writing one PostgreSQL archive, while every KILL_S seconds a host
is killed (SIGKILL) and started again; every other time the killed host and another one are
both killed and start again with half of their boards exchanged (boards carried from one
host to another mid-game).

At the end the hosts stop, and each board is followed once more (the catch-up a host does):
its `history`, read through that follower, is what the board made of its game, and the
archive must hold exactly that under the board's id and the game's uid; every game the
board finished before must hold the moves its hands made (the script's, up to the board's
end of it).  Printed: moves made, archived live (before the catch-up), archived after it,
lost, filed twice; CPU and memory of the hosts.

    .venv/bin/python bench/hall_pg.py [MINUTES] [HOSTS] [BOARDS]     (default 3 minutes, 4 hosts, 32 boards)

Needs Debian's postgresql (tests/pgcluster.py starts a throwaway server) and psycopg.
"""

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import pgcluster  # noqa: E402
from firmware.app import start_position  # noqa: E402
from host.session.club import Hands, random_script  # noqa: E402
from host.link import BoardError, BridgeTimeout, LinkError, TemporaryBoard  # noqa: E402
from host.record import Archive, Bridge  # noqa: E402
from host.record.archive import STARTS  # noqa: E402

EBOARD = str(Path(sys.executable).parent / "eboard")
KILL_S = float(os.environ.get("HALL_KILL_S", "20"))
GAMES = ("chess", "checkers12", "lippo", "courier")
PLIES = 60
PAUSE_MS = 700  # about a move a second on each board


def script_moves(gid, plies, rng):
    """The moves random_script makes with an rng in this state (it draws one choice a ply)."""
    pos = start_position(gid)
    out = []
    for _ in range(plies):
        legal = pos.legal_moves()
        if not legal:
            break
        m = rng.choice(legal)
        out.append(pos.move_str(m))
        pos.push(m)
    return out


class Witness(Hands):
    """A board's hands that also remember each game's moves, in the order they are played."""

    def __init__(self, vb, first, rng):
        self.played = []  # [(game, moves)], one a game the script holds
        super().__init__(vb, first, rng, PLIES, PAUSE_MS)

    def game(self):
        gid = GAMES[self.next % len(GAMES)]
        self.next += 1
        before = random.Random()
        before.setstate(self.rng.getstate())
        text = "\n".join(random_script(gid, self.plies, self.rng, self.pause_ms)) + "\nwait 3000\n"
        self.played.append((gid, script_moves(gid, self.plies, before)))
        return text


def journaled(vb):
    """The board's own record of its games, read from its journal (the virtual board's file):
    {uid: moves}, takebacks undone; the games its journal keeps (firmware/new_journal.py)."""
    from firmware.journal import Journal

    games = {}
    moves = None
    for rec in Journal(str(vb.board_dir / "journal.bin")).load():
        w = rec.split()
        if w[0] in ("N", "K", "P"):  # (a game's start: its uid the third word)
            moves = games.setdefault(w[2], [])
        elif w[0] == "M" and moves is not None:
            moves.append(w[2])
        elif w[0] == "U" and moves:
            moves.pop()
    return games


def feed(hands, stop):
    while not stop.is_set():
        stop.wait(1.0)
        for h in hands:
            h.look()


class Host:
    def __init__(self, n, url, logdir):
        self.n = n
        self.url = url
        self.log = open(logdir / f"host{n}.log", "a")
        self.proc = None
        self.cpu = 0.0  # CPU seconds of the processes that ended
        self.rss = 0

    def start(self, ports):
        self.ports = list(ports)
        argv = [EBOARD, "serve", "--archive", self.url]
        for p in self.ports:
            argv += ["--port", p]
        self.proc = subprocess.Popen(argv, stdout=self.log, stderr=self.log, stdin=subprocess.DEVNULL)

    def sample(self):
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        self.rss = max(self.rss, int(line.split()[1]) // 1024)
        except OSError:
            pass

    def _reap(self, wait=True):
        pid, status, usage = os.wait4(self.proc.pid, 0 if wait else os.WNOHANG)
        if pid == 0:
            return False
        self.cpu += usage.ru_utime + usage.ru_stime
        self.proc.returncode = status
        return True

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self._reap()

    def stop(self):
        self.proc.send_signal(signal.SIGINT)
        deadline = time.monotonic() + 30
        while not self._reap(wait=False):
            if time.monotonic() > deadline:
                self.kill()
                return
            time.sleep(0.1)


def archived_moves(url):
    a = Archive(url)
    try:
        return sum(n for (n,) in a.db.execute("SELECT count(*) FROM moves").fetchall())
    finally:
        a.close()


def main():
    minutes = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    n_hosts = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    per_host = int(sys.argv[3]) if len(sys.argv) > 3 else 32
    why = pgcluster.missing()
    if why:
        sys.exit(f"hall_pg: {why}")
    cluster = pgcluster.Cluster(max_connections=n_hosts * per_host + 60).start()
    logdir = Path(cluster.dir) / "logs"
    logdir.mkdir()
    url = cluster.url
    Archive(url).close()  # the schema, once
    boards, hands = [], []
    stop = threading.Event()
    hosts = [Host(i, url, logdir) for i in range(n_hosts)]
    kills = carries = 0
    t0 = time.monotonic()
    try:
        for i in range(n_hosts * per_host):
            vb = TemporaryBoard(prefix=f"eboard-hall{i + 1}-", realtime=True)
            boards.append(vb)
            hands.append(Witness(vb, i, random.Random(i)))
            vb.start()
        threading.Thread(target=feed, args=(hands, stop), daemon=True).start()
        groups = [[b.port for b in boards[i * per_host:(i + 1) * per_host]] for i in range(n_hosts)]
        for h, g in zip(hosts, groups):
            h.start(g)
        print(f"{len(boards)} virtual boards, {n_hosts} hosts, started in {time.monotonic() - t0:.0f} s", flush=True)
        end = time.monotonic() + minutes * 60
        rnd = 0
        next_kill = time.monotonic() + KILL_S
        while time.monotonic() < end:
            time.sleep(1.0)
            for h in hosts:
                h.sample()
            if time.monotonic() < next_kill:
                continue
            next_kill += KILL_S
            k = rnd % n_hosts
            if rnd % 2 == 1 and n_hosts > 1:  # two hosts down, half their boards exchanged
                j = (k + n_hosts // 2) % n_hosts if n_hosts > 2 else (k + 1) % n_hosts
                hosts[k].kill()
                hosts[j].kill()
                a, b = hosts[k].ports, hosts[j].ports
                half_a, half_b = len(a) // 2, len(b) // 2
                hosts[k].start(a[:half_a] + b[half_b:])
                hosts[j].start(b[:half_b] + a[half_a:])
                kills += 2
                carries += (len(a) - half_a) + (len(b) - half_b)
            else:
                hosts[k].kill()
                hosts[k].start(hosts[k].ports)
                kills += 1
            rnd += 1
        for h in hosts:
            h.stop()
        live = archived_moves(url)
        # The catch-up: each board followed once more; what it says of its game, through
        # that follower, is what the archive must hold.
        arch = Archive(url)
        made = archived = lost = twice = 0
        troubles = []
        for vb, hw in zip(boards, hands):
            told = len(troubles)
            bridge = Bridge(vb.port, arch, timeout_s=30.0)  # (a loaded machine answers late)
            for attempt in range(5):
                try:
                    bridge.connect()
                    history = bridge.history().moves
                    break
                except (BridgeTimeout, LinkError, BoardError):
                    bridge.close()
                    if attempt == 4:
                        raise
            key, uid = bridge.key, bridge.uid
            bridge.close()
            # In the order the board began them (their starts' numbers, by uid): a game filed
            # again late (Archive.refile, or a start replayed) has a later id than the next.
            starts = dict(arch.db.execute("SELECT uid, MIN(seq) FROM events WHERE board=? AND " + STARTS +
                                          " GROUP BY uid", (key,)).fetchall())
            games = sorted((g for g in arch.games() if g.board == key),
                           key=lambda g: (starts.get(g.uid, 1 << 62), g.id))
            by_uid = {}
            for g in games:
                by_uid.setdefault(g.uid, []).append(g)
            for u, gs in by_uid.items():
                if len(gs) > 1:  # a game filed twice (or its record forked)
                    twice += sum(len(arch.moves(g.id)) for g in gs[1:])
                    troubles.append(f"{key}: game {u} filed as {len(gs)} archive games: " + ", ".join(
                        f"{g.id} ({len(arch.moves(g.id))} moves, {g.reason or g.result})" for g in gs))
            current = by_uid.get(uid, [None])[0]
            have = arch.moves(current.id) if current else []
            if len(have) > len(history) and have[:len(history)] == list(history):
                have = have[:len(history)]  # (the hands play on: a move made since `history`, filed)
            made += len(history)
            archived += len(have) if have == list(history) else 0
            if have != list(history):
                lost += max(0, len(history) - len(have))
                troubles.append(f"{key}: game {uid}: the board has {len(history)} moves, the archive {len(have)}")
            # The games it finished before: the hands' moves, up to the board's own end of them.
            done = games[:games.index(current)] if current else games
            done = [g for g in done if g.uid != uid]
            done = [g for g in done if arch.moves(g.id) or g.reason not in ("abandoned", None)]
            for g, (gid, script) in zip(done, hw.played):
                have = arch.moves(g.id)
                ok = g.game == gid and script[:len(have)] == have and (len(have) == len(script) or g.ended)
                made += len(script) if len(have) == len(script) else len(have)
                archived += len(have) if ok else 0
                if not ok:  # (another game: one the archive lacks, all of its moves lost)
                    lost += len(script) if g.game != gid else max(0, len(script) - len(have))
                    own = journaled(vb).get(g.uid)
                    troubles.append(f"{key}: archive game {g.id} ({g.game}, {len(have)} moves) is not game "
                                    f"{gid} of {len(script)} moves as the hands made it (the board's journal: "
                                    + ("not kept)" if own is None else f"{len(own)} moves, "
                                       + ("the archive's" if own == have else "not the archive's") + ")"))
            if len(troubles) > told:  # what there is to know of the board's games, for the why
                troubles.append(f"{key}: the archive's games (id uid game moves start-seq end): " + ", ".join(
                    f"{g.id} {g.uid} {g.game} {len(arch.moves(g.id))} {starts.get(g.uid)} {g.reason or g.result}"
                    for g in games) + f"; the board's game now {uid}; the hands' games: " + ", ".join(
                    f"{gid} {len(script)}" for gid, script in hw.played))
        arch.close()
    finally:
        stop.set()
        for h in hosts:
            if h.proc is not None and h.proc.poll() is None:
                h.proc.kill()
        for vb in boards:
            vb.stop()
        if os.environ.get("HALL_KEEP"):
            print(f"kept: the server {cluster.url} in {cluster.dir} (pg_ctl -D {cluster.data} stop)")
        else:
            cluster.stop()
    cpu = sum(h.cpu for h in hosts)
    wall = minutes * 60
    print(f"hall: {n_hosts} serve hosts x {per_host} virtual boards into one PostgreSQL, {minutes:g} minutes, "
          f"a host killed every {KILL_S} s ({kills} SIGKILLs, {carries} boards carried to another host)")
    print(f"moves made {made}, archived live {live}, archived after the catch-up {archived}, lost {lost}, "
          f"filed twice {twice}")
    print(f"serve hosts: CPU {100 * cpu / wall:.0f} % of one core together, largest RSS {max(h.rss for h in hosts)} MB")
    for t in troubles[:30]:
        print("  " + t)
    sys.exit(0 if lost == 0 and twice == 0 else 1)


if __name__ == "__main__":
    main()
