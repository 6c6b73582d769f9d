"""The hardware as code checked like code (boards/hardware/): the electrical rules check,
the netlist and the bill of materials SKiDL writes (skipped without SKiDL: pip install
skidl, in the `test` extra), and the printed boards KiCad's pcbnew lays out, with their
design rules check, Gerbers and drill files (skipped without pcbnew for /usr/bin/python3:
apt-get install kicad kicad-footprints).  What is read back is the files written, as a
fab or KiCad would read them, against the firmware's pins and order."""

import importlib.util
import re
import subprocess
import sys
import zipfile

import pytest
from conftest import ROOT
from test_hardware_pins import DATASHEET, design

from firmware import leds

HW = ROOT / "boards" / "hardware"
SYSTEM_PYTHON = "/usr/bin/python3"


def has_pcbnew():
    try:
        return subprocess.run([SYSTEM_PYTHON, "-c", "import pcbnew"], capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def netlist(path):
    """{net name: [(ref, pin)]} of a KiCad netlist (its `(nets ...)` section)."""
    text = path.read_text()
    nets = {}
    for block in text.split("(nets", 1)[1].split("(net\n")[1:]:
        name = re.search(r'\(name "([^"]*)"\)', block).group(1)
        nets[name] = re.findall(r'\(ref "([^"]*)"\)\s*\(pin "([^"]*)"\)', block)
    return nets


def footprints(path):
    """{ref: (x, y, {pad: net})} of a .kicad_pcb file."""
    out = {}
    for block in path.read_text().split("\n  (footprint ")[1:]:
        ref = re.search(r'\(fp_text reference "([^"]*)"', block).group(1)
        x, y = map(float, re.search(r"\(at ([-\d.]+) ([-\d.]+)", block).groups())
        pads = dict(re.findall(r'\(pad "([^"]*)"[^\n]*\n?[^\n]*?\(net \d+ "([^"]*)"\)', block))
        out[ref] = (x, y, pads)
    return out


def test_the_circuit_passes_its_checks_and_its_files_agree_with_the_firmware(tmp_path):
    """One run of circuit.py (some 8 s of CPU) for every check of what it writes."""
    if importlib.util.find_spec("skidl") is None:
        pytest.skip("SKiDL is not installed (pip install skidl; it is in the `test` extra)")
    run = subprocess.run([sys.executable, str(HW / "circuit.py"), str(tmp_path)], capture_output=True, text=True,
                         timeout=600, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    circuit = (run, tmp_path)
    check_erc(circuit)
    check_netlist_pico(circuit)
    check_netlist_chain(circuit)
    check_bom(circuit)


def check_erc(circuit):
    run, out = circuit
    report = (out / "erc.txt").read_text()
    assert "errors: 0, warnings: 0" in report, report
    assert list(out.iterdir()) and not list(out.glob("*_sklib.py"))  # no library backup left behind


def check_netlist_pico(circuit):
    _, out = circuit
    nets = netlist(out / "eboard.net")
    pins = design.pico_pins()
    on = {pin: name for name, members in nets.items() for ref, pin in members if ref == "U1"}
    for c, gp in enumerate(pins["COL_PINS"]):
        assert on[str(DATASHEET[gp])] == "COL%d" % c
    for r, gp in enumerate(pins["ROW_PINS"]):
        assert on[str(DATASHEET[gp])] == "ROW%d" % r
    assert on[str(DATASHEET[pins["LED_PIN"]])] == "LED_GP"
    assert on["39"] == "VSYS" and on["3"] == "GND"
    # the shifter's gate 1 from GP27, its output through R1 to the first LED (a1 = LED101)
    assert ("U2", "2") in nets["LED_GP"] and ("U2", "3") in nets["LED_5V"] and ("R1", "1") in nets["LED_5V"]
    assert ("LED101", "4") in nets["DE0"] and ("R1", "2") in nets["DE0"]


def check_netlist_chain(circuit):
    _, out = circuit
    nets = netlist(out / "eboard.net")
    net_of = {(ref, pin): name for name, members in nets.items() for ref, pin in members}
    din = {}
    for name, members in nets.items():
        for ref, pin in members:
            if ref.startswith("LED") and pin == "4":
                din.setdefault(name, []).append(ref)
    order, net = [], "DE0"
    while net in din:
        assert len(din[net]) == 1, net
        order.append(din[net][0])
        net = net_of.get((order[-1], "2"))
    assert len(order) == 144
    assert [leds.SERPENTINE[design.led_square(ref)] for ref in order] == list(range(144))


def check_bom(circuit):
    _, out = circuit
    import csv

    rows = list(csv.DictReader((out / "bom.csv").open()))
    assert all(r["mpn"] and r["manufacturer"] for r in rows)  # a part to order on every line
    parts = [r for r in rows if r["footprint"]]  # the placed parts (then sockets, wires)
    assert all(int(r["quantity"]) == len(r["refs"].split()) for r in parts)
    qty = {r["value"]: int(r["quantity"]) for r in parts}
    assert qty["WS2812B"] == qty["1N4148W"] == qty["reed NO 10-15 AT"] == 144
    assert qty["74AHCT125"] == 1 and qty["Raspberry Pi Pico"] == 1
    assert any("jumper" in r["value"] for r in rows if not r["refs"])  # the wiring between the boards
    assert [r["quantity"] for r in rows if r["mpn"] == "SSQ-120-03-T-S"] == ["2"]  # the Pico's sockets


def test_the_boards_pass_their_design_rules_check_and_carry_the_firmwares_pins(tmp_path):
    """One run of layout.py (some 3 s) for every check of the boards it writes."""
    if not has_pcbnew():
        pytest.skip("KiCad's pcbnew is not importable by %s (as root: apt-get install kicad kicad-footprints)"
                    % SYSTEM_PYTHON)
    run = subprocess.run([SYSTEM_PYTHON, str(HW / "layout.py"), str(tmp_path)], capture_output=True, text=True,
                         timeout=600, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    for board in ("tile", "controller"):
        check_drc_and_gerbers(tmp_path, board)
    check_controller_pico(tmp_path)
    check_tile_squares(tmp_path)


def check_drc_and_gerbers(out, board):
    report = (out / ("%s-drc.txt" % board)).read_text()
    assert "** Found 0 DRC violations **" in report and "** Found 0 unconnected pads **" in report, report
    names = zipfile.ZipFile(out / ("%s-gerbers.zip" % board)).namelist()
    for layer in ("F_Cu.gtl", "B_Cu.gbl", "F_Mask.gts", "B_Mask.gbs", "F_SilkS.gto", "Edge_Cuts.gm1", "PTH.drl"):
        assert "%s-%s" % (board, layer) in names, names
    assert (out / ("%s.svg" % board)).read_text() == (ROOT / "docs" / "hardware" / ("%s.svg" % board)).read_text(), \
        "docs/hardware/%s.svg is not the board's: run boards/hardware/build.sh --docs" % board


def check_controller_pico(out):
    fps = footprints(out / "controller.kicad_pcb")
    pads = fps["U1"][2]
    pins = design.pico_pins()
    assert [pads[str(DATASHEET[gp])] for gp in pins["COL_PINS"]] == ["COL%d" % c for c in range(12)]
    assert [pads[str(DATASHEET[gp])] for gp in pins["ROW_PINS"]] == ["ROW%d" % r for r in range(12)]
    assert pads[str(DATASHEET[pins["LED_PIN"]])] == "LED_GP"


def check_tile_squares(out):
    fps = footprints(out / "tile.kicad_pcb")
    k, s = design.K, design.SQUARE_MM
    for n in range(1, k * k + 1):
        lr, lc = divmod(n - 1, k)
        for ref in ("SW%d" % n, "LED%d" % n):
            x, y, _ = fps[ref]
            # rank 1 (row 0) is the tile's bottom edge: KiCad's y grows downwards
            assert (int(x // s), k - 1 - int(y // s)) == (lc, lr), (ref, x, y)
