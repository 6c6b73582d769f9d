#!/usr/bin/env bash
# Set up (a .venv beside this file, with every test dependency; as root, the Debian packages
# the tests drive; the emulator's npm package; the Pico image), and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
. tools/venv.sh
ensure_venv run-tests.sh test ", pytest, python-chess, pyffish, aiohttp, playwright, skidl"
# Debian's packages the tests drive: chromium (tests/test_web.py), Stockfish and
# Fairy-Stockfish (tests/test_engine.py), XBoard, Xvfb and imagemagick (tests/test_apps_cecp.py),
# espeak-ng and sox (tests/test_speech.py), postgresql (the archive's tests on PostgreSQL).
# As root they are installed; otherwise those tests
# skip, each naming what to install.
need=()
[ -x /usr/bin/chromium ] || need+=(chromium chromium-driver)
command -v stockfish >/dev/null || [ -x /usr/games/stockfish ] || need+=(stockfish)
command -v fairy-stockfish >/dev/null || [ -x /usr/games/fairy-stockfish ] || need+=(fairy-stockfish)
# XBoard under Xvfb, and imagemagick for its screenshot (tests/test_apps_cecp.py)
command -v xboard >/dev/null || [ -x /usr/games/xboard ] || need+=(xboard)
command -v Xvfb >/dev/null || need+=(xvfb)
command -v convert >/dev/null && command -v import >/dev/null || need+=(imagemagick)
# espeak-ng says the moves into WAV files, sox measures them (tests/test_speech.py)
command -v espeak-ng >/dev/null || need+=(espeak-ng)
command -v sox >/dev/null || need+=(sox)
# PostgreSQL's server, for the archive's tests on PostgreSQL (tests/pgcluster.py starts a
# throwaway one for the session; root's runs as the postgres user)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql postgresql-common)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "run-tests.sh: installing ${need[*]} with apt-get (once) ..." >&2
        (apt-get update -q && apt-get install -y -q "${need[@]}") >/dev/null 2>&1 \
            || echo "run-tests.sh: could not install ${need[*]}: the tests that need them will skip" >&2
    else
        echo "run-tests.sh: not installed: ${need[*]} (apt-get install ${need[*]}): the tests that need them will skip" >&2
    fi
fi
# KiCad's pcbnew for the printed boards' design rules check and Gerbers (tests/test_hardware.py,
# boards/hardware/build.sh): without its recommends (they hold the 3D models, gigabytes),
# some 125 MB to download, 600 MB installed.
if ! /usr/bin/python3 -c 'import pcbnew' 2>/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "run-tests.sh: installing kicad kicad-footprints with apt-get (once) ..." >&2
        (apt-get update -q && apt-get install -y -q --no-install-recommends kicad kicad-footprints) >/dev/null 2>&1 \
            || echo "run-tests.sh: could not install kicad: the printed boards' tests will skip" >&2
    else
        echo "run-tests.sh: not installed: kicad (apt-get install --no-install-recommends kicad kicad-footprints): the printed boards' tests will skip" >&2
    fi
fi
# The emulated Pico (boards/emu): rp2040js, pinned by its package-lock.json.  Without
# Node its tests skip, saying why.
if command -v npm >/dev/null && [ ! -d boards/emu/node_modules/rp2040js ]; then
    (cd boards/emu && npm ci --no-audit --no-fund --loglevel=error) \
        || echo "run-tests.sh: npm ci in boards/emu failed: the emulated Pico's tests will skip" >&2
fi
# Our Pico image (and the 32-bit unix port that checks it), cached after the first build;
# a plain clone has no MicroPython source beside it: then one line says it was skipped.
boards/build-image.sh --ci
# Python keeps its compiled modules (an environment that turns that off, PYTHONDONTWRITEBYTECODE,
# made every one of the suite's hundreds of eboard processes compile the host again: a third of
# their CPU time), and pytest its rewritten test modules.
unset PYTHONDONTWRITEBYTECODE
# Three workers on two cores: the suite waits on its boards, pages and terminals for much of
# its time (two workers kept the CPU 58 % busy, three 85 %).  loadgroup: the tests of one
# xdist_group run on one worker (tests/test_pico_emu.py's stock chip).
exec .venv/bin/python -m pytest -n 3 --dist loadgroup "$@"
