"""The walking tests' terminal: the installed `eboard` typed into a real pseudo-terminal
(pexpect), with the archive and the home of a fresh person (EBOARD_DATA, HOME in tmp)."""

import os
import shutil
import sys
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
