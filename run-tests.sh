#!/usr/bin/env bash
# Set up (a .venv beside this file, with every test dependency) and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
# The UCI engines the engine tests play (tests/test_engine.py skips, naming them, without).
if ! command -v stockfish >/dev/null && [ ! -x /usr/games/stockfish ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get install -y -q stockfish fairy-stockfish >/dev/null 2>&1 \
        || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q stockfish fairy-stockfish >/dev/null 2>&1; } \
        || echo "run-tests.sh: could not install stockfish and fairy-stockfish; their tests will skip" >&2
fi
if [ ! -d ../shared/rules ]; then
    echo "run-tests.sh: ../shared/rules is missing: the specs and their JSON cases sit beside this repository" >&2
    exit 2
fi
exec .venv/bin/python -m pytest -n 2 "$@"
