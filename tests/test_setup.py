"""The set-up scripts explain themselves: a .venv made by too old a Python is rebuilt, and
without a Python >= 3.11 play.sh says what it needs (no network: fake Pythons on PATH)."""

import os
import shutil
import subprocess

from conftest import ROOT

OLD = "#!/bin/sh\n[ \"$1\" = --version ] && echo 'Python 3.9.2' && exit 0\nexit 1\n"


def test_a_venv_of_an_old_python_is_rebuilt_and_the_need_is_said(tmp_path):
    repo = tmp_path / "eboard"
    (repo / "tools").mkdir(parents=True)
    shutil.copy(ROOT / "play.sh", repo)
    shutil.copy(ROOT / "tools" / "venv.sh", repo / "tools")
    (repo / ".venv" / "bin").mkdir(parents=True)
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    for path in (repo / ".venv" / "bin" / "python", fake_bin / "python3"):
        path.write_text(OLD)
        path.chmod(0o755)
    for tool in ("rm", "dirname"):  # nothing else: no real Python may be found
        (fake_bin / tool).symlink_to(shutil.which(tool))
    env = dict(os.environ, PATH=str(fake_bin))
    env.pop("VIRTUAL_ENV", None)
    r = subprocess.run([shutil.which("bash"), str(repo / "play.sh")], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 2
    assert "older than 3.11" in r.stderr and "rebuilding" in r.stderr
    assert "needs Python 3.11 or later (python3 is Python 3.9.2)" in r.stderr
    assert not (repo / ".venv").exists()
    assert "Traceback" not in r.stderr
