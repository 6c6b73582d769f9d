#!/usr/bin/env bash
# Set up (a .venv beside this file, with every test dependency) and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
. tools/venv.sh
ensure_venv run-tests.sh test ", pytest, python-chess, pyffish"
exec .venv/bin/python -m pytest -n 2 "$@"
