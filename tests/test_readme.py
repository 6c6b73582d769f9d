"""Every shell command in the code blocks of README.md and bench/README.md runs here, as a
new user types it (issue #21): the interactive ones in a real terminal (pexpect) with a few
keystrokes and `quit`, the long-running ones (benchmarks) for a short while and then Ctrl-C,
and those that cannot run inside the suite listed with the reason.  A command added to a
README and not to COMMANDS fails test_every_readme_command_is_walked: a README cannot
promise what the product does not do.  A command that needs what a plain clone lacks (the
emulated Pico's ../shared/pico, a built image) skips, naming it."""

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

SHORT_S = 2.0  # a long-running command runs this long, then Ctrl-C: it started and ran


READMES = ("README.md", "bench/README.md")  # bench/README.md: the benchmarks' commands and figures


def readme_commands():
    """The commands of the READMEs' sh code blocks, their comments cut."""
    out, block = [], None
    for name in READMES:
        for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
            if line.startswith("```"):
                block = None if block is not None else line[3:].strip()
                continue
            if block == "sh" and line.strip():
                out.append(re.split(r"\s+#\s", line, maxsplit=1)[0].strip())
    return out


def _needs(program):
    return None if shutil.which(program) or (ROOT / program).exists() else f"{program} is not installed"


def _unbuilt(command):
    """Why a README command cannot run here (a program or file it needs is not here), or
    None.  `.frozen` in MICROPYPATH is no file: it names the modules frozen into the port
    that runs them, build/micropython-32, and that port is what such a command needs.  The
    emulated Pico's benches (bench/*pico*.py, --pico) need its boot ROM and MicroPython UF2
    in ../shared/pico, which a plain clone has not beside it."""
    for built in ("build/micropython-32", "build/eboard-pico.uf2"):
        if built in command and _needs(built):
            return f"{built} is not built (run-tests.sh builds it, from ../shared/pico)"
    if "bench/hall_pg.py" in command:
        from pgcluster import missing as pg_missing

        if reason := pg_missing():
            return "a hall's PostgreSQL archive cannot be run here: " + reason
    if re.search(r"bench/\w*pico\w*\.py|--pico\b", command):
        from host.link.pico import missing

        if reason := missing():
            return "the emulated Pico cannot run here: " + reason
    return None


# command -> (how, what): "play" keystrokes (typed or None, then the screen waited for; after
# quit, `eboard games` checked), "short" (run SHORT_S after its marker, then Ctrl-C), "skip" reason.
COMMANDS = {
    "./play.sh": ("play", [("moves", r"\w"), ("quit", None)]),
    # quit takes back a computer's move not made yet: the archive holds the moves made
    "./play.sh --engine --game chess": ("play", [("e2e4", r"make it on the board"), ("quit", r"1 ply +adjourned")]),
    "./play.sh --engine 3 --side black": ("play", [(None, r"make it on the board"), ("make", r"play goes on"),
                                                   ("quit", r"1 ply +adjourned")]),
    "./play.sh --engine uci --game chess --clock 5+3": ("play", [("e2e4", r"make it on the board"), ("quit", None)]),
    "./run-tests.sh": ("skip", "the whole suite: this test is part of it (run-tests.sh --co proves its setup)"),
    # bench/README.md
    ".venv/bin/python bench/perft.py": ("short", None),
    "MICROPYPATH=. .venv/bin/micropython -X heapsize=192K bench/perft.py": ("short", None),
    ".venv/bin/python bench/chess960.py": ("short", None),
    "MICROPYPATH=.:bench:tests/mpy .venv/bin/micropython -X heapsize=1M bench/hint.py": ("short", None),
    "./flash.sh --build-only sim && MICROPYPATH=build/sim:bench:tests/mpy .venv/bin/micropython "
    "-X heapsize=224K bench/heap.py": ("short", "built build/sim"),
    "python3 bench/port32.py --build ../shared/pico/micropython-rp2-src.tar.gz":
        ("skip", "builds the 32-bit unix port from the Pico's source (minutes of a C compiler): "
                 "run-tests.sh builds and caches build/micropython-32, which the next two commands run"),
    "MICROPYPATH=.frozen:bench:tests/mpy build/micropython-32 -X heapsize=192K bench/heap.py": ("short", None),
    "MICROPYPATH=build/sim:bench:tests/mpy build/micropython-32 -X heapsize=192K bench/heap.py": ("short", None),
    ".venv/bin/python bench/pico.py": ("short", None),
    ".venv/bin/python bench/move_work_pico.py --games lippo:40 --every 4": ("short", None),
    ".venv/bin/python bench/move_work_pico.py --games lippo:200 --every 50 --think 1200": ("short", None),
    ".venv/bin/python bench/junk_pico.py": ("short", None),
    ".venv/bin/python bench/boot_keep_pico.py --probe": ("short", None),
    ".venv/bin/python bench/junk_pico.py --uf2 build/eboard-pico.uf2": ("short", None),
    ".venv/bin/python bench/pico_powercut.py --cuts 200": ("short", None),
    ".venv/bin/python bench/onboard.py": ("short", None),
    ".venv/bin/python bench/web_latency.py": ("short", None),
    ".venv/bin/python bench/engine.py --quick": ("short", None),
    ".venv/bin/python bench/strength.py --positions DIR --sunfish 40 [--part K/N]":
        ("skip", "sunfish's test files (DIR) live outside the repository; without them the bench says so"),
    ".venv/bin/python bench/strength.py --positions DIR --stockfish 40":
        ("skip", "sunfish's test files (DIR) live outside the repository; without them the bench says so"),
    ".venv/bin/python bench/strength.py --positions DIR --mates --cpu-time":
        ("skip", "sunfish's test files (DIR) live outside the repository; without them the bench says so"),
    ".venv/bin/python bench/strength.py --depth --cpu-time": ("short", None),
    ".venv/bin/python bench/strength.py --levels 6 --top-level 4 --cpu-time": ("short", None),
    ".venv/bin/python bench/strength.py --levels 12 --only lippo --balanced --max-plies 200 --cpu-time": ("short", None),
    ".venv/bin/python bench/strength.py --soak 1000 --cpu-time": ("short", None),
    ".venv/bin/python bench/strength.py --ablation 5": ("short", None),
    ".venv/bin/python bench/invariants.py [POSITIONS] [GAME ...]":
        ("skip", "a placeholder in brackets; bench/invariants.py 2000 chess is walked below"),
    ".venv/bin/python bench/invariants.py 2000 chess": ("short", None),
    "MICROPYPATH=.:tests/mpy .venv/bin/micropython -X heapsize=8M bench/invariants.py 100000": ("short", None),
    ".venv/bin/python bench/engine.py --fairy-only --movetime 100": ("short", None),
    ".venv/bin/python bench/hall_pg.py 3 4 32": ("short", None),
    ".venv/bin/python bench/hall.py": ("short", None),
    ".venv/bin/python bench/web_hall.py": ("short", None),
    # the suite's own tests, run wider or deeper than the suite runs them
    "EBOARD_PERFT_DEEP=1 .venv/bin/python -m pytest tests/test_chess.py -k perft":
        ("skip", "tests/test_chess.py's perft, which the suite runs to a million leaves a depth"),
    "EBOARD_PICO_KINDS=stock,image .venv/bin/python -m pytest -n 2 tests/test_pico_emu.py":
        ("skip", "tests/test_pico_emu.py, which the suite runs on our image (flash.sh and --pico on stock)"),
}


# every section of the README (## heading) -> the walk of what it says, or why none
SECTIONS = {
    "Start": "test_readme.py::test_readme_play_command (./play.sh's first run sets up)",
    "Players": "test_walk_commands.py::test_the_readme_s_first_game_as_it_is_written",
    "Clubs and tournaments": "test_walk_club.py::test_serve_sim_plays_every_game_without_sticking",
    "Kriegspiel": "test_walk_kriegspiel.py::test_kriegspiel_in_every_game_to_a_resignation",
    "Chess programs": "test_walk_apps.py::test_board_engine_typed_in_a_terminal (and its uci, xboard walks)",
    "Makers": "test_flash.py::test_flash_a_fresh_virtual_board (./flash.sh --sim; the board itself is hardware)",
    "Developers": "test_readme.py::test_readme_long_command_starts (bench/README.md's commands)",
    "Documentation": "none: links into docs/",
    "Licence": "none: no command",
}


def test_every_readme_section_is_walked():
    headings = re.findall(r"^## (.+)$", (ROOT / "README.md").read_text(encoding="utf-8"), re.M)
    missing = [h for h in headings if h not in SECTIONS]
    assert not missing, "README sections with no walk: " + "; ".join(
        f'add "{h}": "test_walk_<file>.py::test_<name>" (a walk that does what the section says, as a person '
        f'types it) or "none: <why>" to SECTIONS in tests/test_readme.py' for h in missing)
    # (an entry of a section this README has not, yet or any more, is left alone: branches
    # merge at different times)
    for where in (SECTIONS[h] for h in headings):
        if not where.startswith("none: "):
            path, name = where.split(" ")[0].split("::")
            assert f"def {name}(" in (ROOT / "tests" / path).read_text(), where


def test_every_readme_command_is_walked():
    shown = readme_commands()
    missing = [c for c in shown if c not in COMMANDS]
    assert not missing, f"README commands no test walks: {missing}"
    stale = [c for c in COMMANDS if c not in shown]
    assert not stale, f"COMMANDS walks commands no README shows (take them out of tests/test_readme.py): {stale}"


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
    if reason := _unbuilt(command):
        pytest.skip(reason)
    marker = COMMANDS[command][1]
    with (_sim_build() if "build/sim" in command else nullcontext()):
        with open(tmp_path / "err", "w+") as errf:
            # Ctrl-C as in a terminal: a suite started in the background by a shell (`&`)
            # runs with SIGINT ignored, and a child inherits that (4 benches never stopped)
            p = subprocess.Popen(["bash", "-c", command], env=person(tmp_path), cwd=str(ROOT),
                                 stdout=subprocess.DEVNULL, stderr=errf, text=True, start_new_session=True,
                                 preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
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
            try:
                p.wait(timeout=GUARD_S)
            except subprocess.TimeoutExpired:  # never left running behind the suite
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
                pytest.fail(f"{command} did not stop within {GUARD_S} s of Ctrl-C")
            errf.seek(0)
            err = errf.read()
    if ended is not None:
        assert ended == 0, f"{command} ended {ended}: {err[-2000:]}"
    for bad in ("No such file", "not found", "unrecognized arguments", "error: argument", "ImportError"):
        assert bad not in err, err[-2000:]
    assert "Traceback" not in err or "KeyboardInterrupt" in err, err[-2000:]


def test_a_frozen_command_runs_wherever_the_port_is_built(tmp_path, monkeypatch):
    frozen = [c for c in COMMANDS if ".frozen" in c]
    assert frozen
    monkeypatch.setitem(globals(), "ROOT", tmp_path)  # no build here: a skip, said why
    monkeypatch.chdir(tmp_path)
    assert all(_unbuilt(c) == "build/micropython-32 is not built (run-tests.sh builds it, from ../shared/pico)"
               for c in frozen)
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "micropython-32").write_text("")
    assert [_unbuilt(c) for c in frozen] == [None] * len(frozen)  # built: the command runs


def test_a_pico_bench_skips_where_the_emulated_pico_cannot_run(monkeypatch):
    """A plain clone has no ../shared/pico beside it: the emulated Pico's benches skip, saying
    what they need, instead of failing (issue #33); where it can run, they run."""
    from host.link import pico

    pico_commands = [c for c in COMMANDS if "pico" in c and COMMANDS[c][0] == "short"]
    assert ".venv/bin/python bench/pico.py" in pico_commands and len(pico_commands) >= 4
    monkeypatch.setattr(pico, "missing", lambda: "no RP2040 boot ROM or MicroPython UF2 in /x/shared/pico")
    for c in pico_commands:
        why = _unbuilt(c)
        assert why and ("shared/pico" in why), (c, why)
    monkeypatch.setattr(pico, "missing", lambda: None)
    assert _unbuilt(".venv/bin/python bench/pico.py") is None
    assert _unbuilt(".venv/bin/python bench/perft.py") is None


def test_readme_skips_say_why():
    for command, (how, what) in COMMANDS.items():
        if how == "skip":
            assert what and len(what) > 20, command


def test_every_eboard_command_is_in_the_readme():
    from host.commands.cli import build_parser

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = next(a for a in build_parser()._actions if hasattr(a, "choices") and a.choices).choices
    missing = [c for c in commands if not re.search(rf"`eboard {re.escape(c)}[ `]", text)]
    assert not missing, (f"eboard commands the README never names: {missing}: add a row `eboard COMMAND ...` "
                         "to the table of its section \"The host\"")
