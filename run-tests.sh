#!/usr/bin/env bash
# Set up (a .venv beside this file, with every test dependency), build the Pico image, and run
# the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
. tools/venv.sh
ensure_venv run-tests.sh test ", pytest, python-chess, pyffish"
# Our Pico image (and the 32-bit unix port that checks it), cached after the first build;
# a plain clone has no MicroPython source beside it: then one line says it was skipped.
boards/build-image.sh --ci
# The browser tests (tests/test_web.py) drive Debian's chromium; they skip, saying so, without it.
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    (apt-get update -q && apt-get install -y -q chromium chromium-driver) >/dev/null 2>&1 \
        || echo "run-tests.sh: could not install chromium: the browser tests will skip" >&2
fi
# The emulated Pico (boards/emu): rp2040js, pinned by its package-lock.json.  Without
# Node its tests skip, saying why.
if command -v npm >/dev/null && [ ! -d boards/emu/node_modules/rp2040js ]; then
    (cd boards/emu && npm ci --no-audit --no-fund --loglevel=error) \
        || echo "run-tests.sh: npm ci in boards/emu failed: the emulated Pico's tests will skip" >&2
fi
exec .venv/bin/python -m pytest -n 2 "$@"
