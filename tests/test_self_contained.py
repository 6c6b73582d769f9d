"""A plain clone, with nothing beside it, is the whole project: the game specs and their
JSON cases live in docs/rules/, and only the Pico image build (MicroPython's source,
../shared/pico) may read from outside the repository."""

import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

OUTSIDE = "../" + "shared"  # spelt in two parts so that this file does not name it


def repo_files():
    """The repository's files (tracked, and new ones not ignored), as relative paths."""
    r = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT, capture_output=True, text=True,
    )
    if r.returncode != 0:
        pytest.skip("not a git checkout: " + r.stderr.strip())
    return [p for p in r.stdout.split("\0") if p and (ROOT / p).is_file()]


def test_nothing_but_the_pico_build_names_what_lies_beside_the_repository():
    bad = []
    for rel in repo_files():
        try:
            text = (ROOT / rel).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for i, line in enumerate(text.splitlines(), 1):
            rest = line
            while OUTSIDE in rest:
                rest = rest[rest.index(OUTSIDE) + len(OUTSIDE):]
                if not rest.startswith("/pico"):
                    bad.append(f"{rel}:{i}: {line.strip()}")
    assert not bad, "\n".join(bad)


def test_a_clone_in_a_temporary_folder_runs_the_rules_tests(tmp_path):
    clone = tmp_path / "eboard"
    for rel in repo_files():
        dst = clone / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, dst)
    # The clone's own firmware/ and tests/ come first (python -m puts the cwd first).
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "MICROPY"))}
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "tests/test_self_contained.py::test_rules_are_read_from_the_clone",
         "tests/test_kriegspiel.py", "-k", "referee_case or clone", "-x"],
        cwd=clone, env=env, capture_output=True, text=True, timeout=300,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "[100%]" in r.stdout and "no tests ran" not in r.stdout


def test_rules_are_read_from_the_clone():
    from conftest import RULES

    import firmware

    assert RULES.is_relative_to(ROOT) and (RULES / "notation.md").is_file()
    assert os.path.realpath(firmware.__file__).startswith(os.path.realpath(ROOT))
