#!/usr/bin/env bash
# The board's hardware from its code (boards/README.md, "The hardware as code"): writes
# build/hardware/ and exits non-zero when a check fails.
#   1. circuit.py (SKiDL, in .venv): the electrical rules check (erc.txt), the KiCad
#      netlist (eboard.net), the bill of materials (bom.csv);
#   2. drawing.py: the circuit's drawing (circuit.svg);
#   3. layout.py (KiCad's pcbnew, the system's Python): the tile and the controller board,
#      each with its design rules check (*-drc.txt), Gerbers and drill files
#      (*-gerbers.zip) and a picture of its copper (*.svg).
#   --docs  also copies the pictures into docs/hardware/ (they are committed there).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=build/hardware
mkdir -p "$out"
py=.venv/bin/python
[ -x "$py" ] || py=python3
start=$(date +%s)
if ! "$py" -c 'import importlib.util as u, sys; sys.exit(u.find_spec("skidl") is None)' 2>/dev/null; then
    echo "build.sh: SKiDL is not installed for $py (pip install skidl; ./run-tests.sh makes .venv with it)" >&2
    exit 2
fi
"$py" boards/hardware/circuit.py "$out"
"$py" boards/hardware/drawing.py "$out"
if ! /usr/bin/python3 -c 'import pcbnew' 2>/dev/null; then
    echo "build.sh: KiCad's pcbnew is not installed (as root: apt-get install kicad kicad-footprints): the boards are not laid out" >&2
    exit 2
fi
/usr/bin/python3 boards/hardware/layout.py "$out"
if [ "${1:-}" = --docs ]; then
    mkdir -p docs/hardware
    cp "$out"/circuit.svg "$out"/tile.svg "$out"/controller.svg docs/hardware/
fi
echo "build.sh: all checks passed in $(( $(date +%s) - start )) s; $out"
