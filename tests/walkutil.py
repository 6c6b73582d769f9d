"""The walking tests' terminal: the installed `eboard` typed into a real pseudo-terminal
(pexpect), with the archive and the home of a fresh person (EBOARD_DATA, HOME in tmp)."""

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

EBOARD = shutil.which("eboard", path=str(Path(sys.executable).parent)) or "eboard"
GUARD_S = 120  # a guard only: a step that takes this long is a hang, never a slow machine


def person(tmp_path):
    """The environment of a new user: their own home and archive, a plain terminal."""
    home = tmp_path / "home"
    data = tmp_path / "data"
    home.mkdir(exist_ok=True)
    data.mkdir(exist_ok=True)
    env = dict(os.environ, HOME=str(home), EBOARD_DATA=str(data), TERM="xterm", COLUMNS="120", LINES="40")
    env.pop("NO_COLOR", None)
    return env


def spawn(args, tmp_path, cwd=None):
    """`eboard ARGS...` typed at a shell, in a terminal of 120 x 40."""
    import pexpect

    return pexpect.spawn(EBOARD, list(args), env=person(tmp_path), cwd=str(cwd or tmp_path), encoding="utf-8",
                         timeout=GUARD_S, dimensions=(40, 120))


def serve_until(args, tmp_path, read, done, guard_s, meanwhile=None):
    """`eboard serve ARGS...` as a new user starts it; meanwhile() (the hands at work) if
    given, then read() every second until done(what it read) (guard_s: a guard only), and
    Ctrl-C.  (The last read, serve's stdout, its stderr, its exit code.)"""
    proc = subprocess.Popen([EBOARD, "serve", *args], env=person(tmp_path), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        if meanwhile:
            meanwhile()
        deadline = time.monotonic() + guard_s
        got = read()
        while not done(got) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(1)
            got = read()
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    return got, out, err, proc.returncode
