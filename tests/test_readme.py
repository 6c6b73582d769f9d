"""Every shell command in README.md's code blocks runs here, as a new user types it (issue
#21): the interactive ones in a real terminal (pexpect) with a few keystrokes and `quit`,
the long-running ones (benchmarks) for a short while and then Ctrl-C, and those that
cannot run inside the suite listed with the reason.  A command added to the README and not
to COMMANDS fails test_every_readme_command_is_walked: the README cannot promise what the
product does not do."""

import fcntl
import os
import re
import shutil
import signal
import subprocess
import time
from contextlib import contextmanager, nullcontext

import pytest

from conftest import ROOT
from walkutil import EBOARD, GUARD_S, person

SHORT_S = 4.0  # a long-running command runs this long, then Ctrl-C: it started and ran


def readme_commands():
    """The commands of README.md's sh code blocks, their comments cut."""
    out, block = [], None
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            block = None if block is not None else line[3:].strip()
            continue
        if block == "sh" and line.strip():
            out.append(re.split(r"\s+#\s", line, maxsplit=1)[0].strip())
    return out


def _needs(program):
    return None if shutil.which(program) or (ROOT / program).exists() else f"{program} is not installed"


# command -> (how, what): "play" keystrokes (typed or None, then the screen waited for; after
# quit, `eboard games` checked), "short" (run SHORT_S after its marker, then Ctrl-C), "skip" reason.
COMMANDS = {
    "./play.sh": ("play", [("moves", r"\w"), ("quit", None)]),
    # quit takes back a computer's move not made yet: the archive holds the moves made
    "./play.sh --engine --game chess": ("play", [("e2e4", r"make it on the board"), ("quit", r"1 plies +adjourned")]),
    "./play.sh --engine 3 --side black": ("play", [(None, r"make it on the board"), ("make", r"play goes on"),
                                                   ("quit", r"1 plies +adjourned")]),
    "./play.sh --engine uci --game chess --clock 5+3": ("play", [("e2e4", r"make it on the board"), ("quit", None)]),
    "./run-tests.sh": ("skip", "the whole suite: this test is part of it (run-tests.sh --co proves its setup)"),
    ".venv/bin/python bench/perft.py": ("short", None),
    "MICROPYPATH=. .venv/bin/micropython -X heapsize=192K bench/perft.py": ("short", None),
    "MICROPYPATH=.:bench:tests/mpy .venv/bin/micropython -X heapsize=1M bench/hint.py": ("short", None),
    ".venv/bin/python bench/web_latency.py": ("short", None),
    "./flash.sh --build-only sim && MICROPYPATH=build/sim:bench:tests/mpy .venv/bin/micropython "
    "-X heapsize=224K bench/heap.py": ("short", "built build/sim"),
    "python3 bench/port32.py --build ../shared/pico/micropython-rp2-src.tar.gz":
        ("skip", "builds the 32-bit unix port from the Pico's source (minutes of a C compiler): "
                 "run-tests.sh builds and caches build/micropython-32, which the next two commands run"),
    "MICROPYPATH=.frozen:bench:tests/mpy build/micropython-32 -X heapsize=192K bench/heap.py": ("short", None),
    "MICROPYPATH=build/sim:bench:tests/mpy build/micropython-32 -X heapsize=192K bench/heap.py": ("short", None),
    ".venv/bin/python bench/pico.py [--uf2 IMAGE]":
        ("skip", "a placeholder in brackets; bench/pico.py alone is walked below (about 40 minutes in full)"),
    ".venv/bin/python bench/pico.py": ("short", None),
    ".venv/bin/python bench/engine.py --quick": ("short", None),
    ".venv/bin/python bench/engine.py --fairy-only --movetime 100": ("short", None),
    ".venv/bin/python bench/invariants.py [POSITIONS] [GAME ...]":
        ("skip", "a placeholder in brackets; bench/invariants.py 2000 chess is walked below"),
    ".venv/bin/python bench/invariants.py 2000 chess": ("short", None),
    "MICROPYPATH=.:tests/mpy .venv/bin/micropython -X heapsize=8M bench/invariants.py 100000": ("short", None),
    ".venv/bin/python bench/onboard.py": ("short", None),
    ".venv/bin/python bench/strength.py --positions DIR --sunfish 40 [--part K/N]":
        ("skip", "sunfish's test files (DIR) live outside the repository; without them the bench says so"),
    ".venv/bin/python bench/strength.py --positions DIR --stockfish 40":
        ("skip", "sunfish's test files (DIR) live outside the repository; without them the bench says so"),
    ".venv/bin/python bench/strength.py --positions DIR --mates --cpu-time":
        ("skip", "sunfish's test files (DIR) live outside the repository; without them the bench says so"),
    ".venv/bin/python bench/strength.py --depth --cpu-time": ("short", None),
    ".venv/bin/python bench/strength.py --levels 6 --top-level 4 --cpu-time": ("short", None),
    ".venv/bin/python bench/strength.py --soak 1000 --cpu-time": ("short", None),
    ".venv/bin/python bench/strength.py --ablation 5": ("short", None),
}


def test_every_readme_command_is_walked():
    missing = [c for c in readme_commands() if c not in COMMANDS]
    assert not missing, f"README commands no test walks: {missing}"


@pytest.mark.parametrize("command", [c for c in COMMANDS if COMMANDS[c][0] == "play"])
def test_readme_play_command(command, tmp_path):
    import pexpect

    if "uci" in command and not (shutil.which("stockfish") or shutil.which("/usr/games/stockfish")):
        pytest.skip("Stockfish is not installed (apt-get install stockfish)")
    keys = COMMANDS[command][1]
    c = pexpect.spawn("bash", ["-c", command], env=person(tmp_path), cwd=str(ROOT), encoding="utf-8",
                      timeout=GUARD_S, dimensions=(40, 120))
    try:
        c.expect("type a move")
        for typed, answer in keys[:-1]:
            if typed is not None:
                c.sendline(typed)
            c.expect(answer)
        c.sendline(keys[-1][0])
        c.expect(pexpect.EOF)
    finally:
        c.close()
    assert c.exitstatus == 0, c.before
    assert "Traceback" not in (c.before or "")
    if keys[-1][1]:  # the archive holds what was played, the game adjourned
        games = subprocess.run([EBOARD, "games"], env=person(tmp_path), capture_output=True, text=True)
        assert re.search(keys[-1][1], games.stdout), games.stdout + games.stderr


@contextmanager
def _sim_build():
    """build/sim to itself: ./flash.sh --build-only sim writes it anew (rm -rf, then
    compiles), and the commands that read it must not find it half written."""
    (ROOT / "build").mkdir(exist_ok=True)
    with open(ROOT / "build" / ".readme-sim.lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            if not (ROOT / "build" / "sim" / "main.py").exists():  # as the README's command before it
                subprocess.run(["./flash.sh", "--build-only", "sim"], cwd=str(ROOT), check=True,
                               capture_output=True, timeout=GUARD_S * 3)
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


@pytest.mark.parametrize("command", [c for c in COMMANDS if COMMANDS[c][0] == "short"])
def test_readme_long_command_starts(command, tmp_path):
    """The command runs as typed: no missing file, no traceback, no refusal of its options;
    it ran SHORT_S (after its marker, if it has one: a build done) or ended well sooner,
    then Ctrl-C."""
    for program in ("build/micropython-32", ".frozen"):
        if program in command and (reason := _needs(program)):
            pytest.skip(reason + " (run-tests.sh builds it)")
    marker = COMMANDS[command][1]
    with (_sim_build() if "build/sim" in command else nullcontext()):
        with open(tmp_path / "err", "w+") as errf:
            p = subprocess.Popen(["bash", "-c", command], env=person(tmp_path), cwd=str(ROOT),
                                 stdout=subprocess.DEVNULL, stderr=errf, text=True, start_new_session=True)
            guard = time.monotonic() + GUARD_S * 3
            while marker and p.poll() is None and time.monotonic() < guard \
                    and marker not in (tmp_path / "err").read_text():
                time.sleep(0.2)
            end = time.monotonic() + SHORT_S
            while time.monotonic() < end and p.poll() is None:
                time.sleep(0.1)
            ended = p.poll()
            if ended is None:
                os.killpg(p.pid, signal.SIGINT)
            p.wait(timeout=GUARD_S)
            errf.seek(0)
            err = errf.read()
    if ended is not None:
        assert ended == 0, f"{command} ended {ended}: {err[-2000:]}"
    for bad in ("No such file", "not found", "unrecognized arguments", "error: argument", "ImportError"):
        assert bad not in err, err[-2000:]
    assert "Traceback" not in err or "KeyboardInterrupt" in err, err[-2000:]


def test_readme_skips_say_why():
    for command, (how, what) in COMMANDS.items():
        if how == "skip":
            assert what and len(what) > 20, command
