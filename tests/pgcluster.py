"""A throwaway PostgreSQL server for the tests and the benches: Debian's `postgresql`
binaries, initdb and pg_ctl in a temporary folder, listening on 127.0.0.1 at a free port,
with a password (the URL is postgresql://eboard:PASSWORD@127.0.0.1:PORT/eboard).  As root
it runs as the `postgres` user (root cannot run postgres).

EBOARD_TEST_POSTGRESQL=URL uses a server of one's own instead (each test in a schema of
its own there)."""

from __future__ import annotations

import glob
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

INSTALL = "apt-get install postgresql, and pip install 'psycopg[binary]'"


def bindir() -> Path | None:
    """The newest installed PostgreSQL's programs (Debian keeps them off PATH), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def missing() -> str | None:
    """What is not installed for a PostgreSQL archive's tests (None: all is there)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return f"psycopg is not installed ({INSTALL})"
    if os.environ.get("EBOARD_TEST_POSTGRESQL"):
        return None
    if bindir() is None:
        return f"PostgreSQL is not installed ({INSTALL})"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "as root, PostgreSQL's server runs as the postgres user: runuser is missing"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """One server, started by start() and removed by stop()."""

    def __init__(self, max_connections: int = 200) -> None:
        self.max_connections = max_connections
        self.dir = Path(tempfile.mkdtemp(prefix="eboard-pg-"))
        self.data = self.dir / "data"
        self.password = secrets.token_hex(8)
        self.port = _free_port()
        self.url = f"postgresql://eboard:{self.password}@127.0.0.1:{self.port}/eboard"
        self.bin = bindir()
        self._user: list[str] = []
        if os.geteuid() == 0:
            self._user = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.dir, "postgres")

    def _run(self, *argv: str) -> None:
        assert self.bin is not None
        subprocess.run([*self._user, str(self.bin / argv[0]), *argv[1:]], check=True, capture_output=True,
                       text=True, timeout=120)

    def start(self) -> Cluster:
        pwfile = self.dir / "pw"
        pwfile.write_text(self.password + "\n")
        if self._user:
            shutil.chown(pwfile, "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "eboard", f"--pwfile={pwfile}", "--auth=scram-sha-256",
                  "-E", "UTF8", "--no-sync")
        pwfile.unlink()
        self.up()
        import psycopg

        with psycopg.connect(self.url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as c:
            c.execute("CREATE DATABASE eboard")
        return self

    def up(self) -> None:
        """The server started (again)."""
        # A test server: no fsync (its data is thrown away), its socket in its own folder.
        opts = (f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.dir} "
                f"-c max_connections={self.max_connections} -c fsync=off -c synchronous_commit=off "
                "-c full_page_writes=off")
        self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.dir / "log"), "-w", "start")

    def down(self, mode: str = "immediate") -> None:
        """The server stopped (its data kept)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def stop(self) -> None:
        try:
            self.down()
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            pass
        shutil.rmtree(self.dir, ignore_errors=True)


def fresh_schema(url: str, name: str) -> str:
    """A new empty schema on the server; the URL whose connections work in it."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as c:
        c.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        c.execute(f'CREATE SCHEMA "{name}"')
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options=-csearch_path%3D{name}"
