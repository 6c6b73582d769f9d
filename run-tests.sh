#!/usr/bin/env bash
# Set up (a .venv beside this file, with every test dependency) and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
# The emulated Pico (boards/emu): rp2040js, pinned by its package-lock.json.  Without
# Node its tests skip, saying why.
if command -v npm >/dev/null && [ ! -d boards/emu/node_modules/rp2040js ]; then
    (cd boards/emu && npm ci --no-audit --no-fund --loglevel=error) \
        || echo "run-tests.sh: npm ci in boards/emu failed: the emulated Pico's tests will skip" >&2
fi
if [ ! -d ../shared/rules ]; then
    echo "run-tests.sh: ../shared/rules is missing: the specs and their JSON cases sit beside this repository" >&2
    exit 2
fi
exec .venv/bin/python -m pytest -n 2 "$@"
