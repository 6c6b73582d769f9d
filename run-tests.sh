#!/usr/bin/env bash
# Set up (a .venv beside this file, with every test dependency), build the Pico image, and run
# the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
if [ ! -d ../shared/rules ]; then
    echo "run-tests.sh: ../shared/rules is missing: the specs and their JSON cases sit beside this repository" >&2
    exit 2
fi
# Our Pico image (and the 32-bit unix port that checks it), cached after the first build;
# a plain clone has no MicroPython source beside it: then one line says it was skipped.
boards/build-image.sh --ci
exec .venv/bin/python -m pytest -n 2 "$@"
