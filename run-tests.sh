#!/usr/bin/env bash
# Set up (a .venv beside this file, with every test dependency) and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
# The browser tests (tests/test_web.py) drive Debian's chromium; they skip, saying so, without it.
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    (apt-get update -q && apt-get install -y -q chromium chromium-driver) >/dev/null 2>&1 \
        || echo "run-tests.sh: could not install chromium: the browser tests will skip" >&2
fi
if [ ! -d ../shared/rules ]; then
    echo "run-tests.sh: ../shared/rules is missing: the specs and their JSON cases sit beside this repository" >&2
    exit 2
fi
exec .venv/bin/python -m pytest -n 2 "$@"
