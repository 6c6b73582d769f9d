"""One map of the Pico's pins: the firmware's (boards/pico.py), the emulated Pico's wiring
(boards/emu/pico.mjs) and the circuit's (boards/hardware/design.py, from which the netlist
and the controller board are made) agree; a pin moved in one of them fails here.  The
square each switch sits under and the LEDs' order in the chain, as the circuit's nets make
them, are the firmware's (debounce.py's r * 12 + c, leds.py's SERPENTINE).

Plain Python only: no SKiDL, no KiCad (tests/test_hardware.py checks what they write)."""

import importlib.util
import re
import sys

from conftest import ROOT

from firmware import leds, selftest

# The Raspberry Pi Pico's physical pin of each GPIO, from its datasheet's pinout (written
# out here again on purpose: an oracle apart from design.py's table).
DATASHEET = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
             13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31,
             27: 32, 28: 34}


def load_design():
    spec = importlib.util.spec_from_file_location("hw_design", ROOT / "boards" / "hardware" / "design.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


design = load_design()


def emulator_pins(text):
    """ROW_PINS, COL_PINS, LED_PIN as pico.mjs declares them."""
    out = {}
    for name in ("ROW_PINS", "COL_PINS"):
        m = re.search(r"const %s = \[([^\]]*)\]" % name, text)
        assert m, "boards/emu/pico.mjs declares no %s" % name
        out[name] = tuple(int(v) for v in m.group(1).split(","))
    m = re.search(r"const LED_PIN = (\d+)", text)
    assert m, "boards/emu/pico.mjs declares no LED_PIN"
    out["LED_PIN"] = int(m.group(1))
    return out


def circuit_pins(parts):
    """The controller's Pico pins as the circuit wires them: COL_PINS, ROW_PINS, LED_PIN
    (GPIO numbers, through the datasheet's pinout)."""
    gpio = {pin: gp for gp, pin in DATASHEET.items()}
    pico = [p for p in parts if p.kind == "pico"][0]
    by_net = {net: gpio.get(int(n)) for n, net in pico.pins.items() if net}
    return {
        "COL_PINS": tuple(by_net.get("COL%d" % c) for c in range(12)),
        "ROW_PINS": tuple(by_net.get("ROW%d" % r) for r in range(12)),
        "LED_PIN": by_net.get("LED_GP"),
    }


def firmware_pins(text, folder):
    """boards/pico.py's pins, as design.py reads them (its literals)."""
    path = folder / "pico.py"
    path.write_text(text)
    return design.pico_pins(str(path))


def test_the_firmware_the_emulator_and_the_circuit_use_the_same_pins():
    fw = design.pico_pins()
    assert fw["COL_PINS"] == tuple(range(12)) and fw["LED_PIN"] == 27  # what boards/README.md says
    assert emulator_pins((ROOT / "boards" / "emu" / "pico.mjs").read_text()) == fw
    assert circuit_pins(design.controller()) == fw
    # and the pins exist on a Pico as GPIOs (GP23-25 and GP29 are the board's own)
    assert all(p in DATASHEET for p in fw["COL_PINS"] + fw["ROW_PINS"] + (fw["LED_PIN"],))


def test_a_pin_moved_in_one_place_is_seen(tmp_path):
    source = (ROOT / "boards" / "pico.py").read_text()
    moved = source.replace("LED_PIN = 27", "LED_PIN = 28")
    assert moved != source
    fw = firmware_pins(moved, tmp_path)
    assert fw["LED_PIN"] == 28
    assert circuit_pins(design.controller(fw)) == fw  # the circuit follows the firmware ...
    emu = emulator_pins((ROOT / "boards" / "emu" / "pico.mjs").read_text())
    assert emu != fw  # ... and the emulator, not moved, no longer agrees: the test above fails
    mjs = (ROOT / "boards" / "emu" / "pico.mjs").read_text().replace("13, 14, 15", "14, 13, 15")
    assert emulator_pins(mjs)["ROW_PINS"][1:3] == (14, 13)
    # a Pico pin rewired in the circuit alone
    parts = design.controller()
    pico = [p for p in parts if p.kind == "pico"][0]
    pico.pins["1"], pico.pins["2"] = pico.pins["2"], pico.pins["1"]
    assert circuit_pins(parts)["COL_PINS"][:2] == (1, 0)


def test_each_switch_sits_under_the_square_the_firmware_reads_it_as():
    nets = design.system()
    row_of, col_of = {}, {}
    for name, members in nets.items():
        for ref, pin in members:
            if name.startswith("ROW") and ref.startswith("SW"):
                row_of[ref] = int(name[3:])
            if name.startswith("COL") and ref.startswith("D") and pin == "1":  # a diode's cathode
                col_of["SW" + ref[1:]] = int(name[3:])
    assert len(row_of) == len(col_of) == 144
    squares = set()
    for ref in row_of:
        p = design.led_square(ref)  # where the layout puts it: its tile, its place in the tile
        assert p == row_of[ref] * 12 + col_of[ref], ref  # firmware/debounce.py's numbering
        squares.add(p)
    assert squares == set(range(144))
    assert selftest.square_name(design.led_square("SW101")) == "a1"
    assert selftest.square_name(design.led_square("SW916")) == "m12"
    # the emulated Pico closes the switch of square r * 12 + c between row r and column c
    assert "closed(r * N + c)" in (ROOT / "boards" / "emu" / "pico.mjs").read_text()


def test_the_led_chain_runs_in_the_firmwares_serpentine_order():
    order = [design.led_square(ref) for ref in design.chain()]
    assert len(order) == 144
    assert [leds.SERPENTINE[p] for p in order] == list(range(144))
    assert design.serpentine_check() == []
    assert [selftest.square_name(p) for p in order[10:14]] == ["l1", "m1", "m2", "l2"]


def test_the_circuits_drawing_in_docs_is_the_one_the_code_draws():
    sys.path.insert(0, str(ROOT / "boards" / "hardware"))
    try:
        spec = importlib.util.spec_from_file_location("hw_drawing", ROOT / "boards" / "hardware" / "drawing.py")
        drawing = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(drawing)
    finally:
        sys.path.remove(str(ROOT / "boards" / "hardware"))
    assert drawing.draw() == (ROOT / "docs" / "hardware" / "circuit.svg").read_text(), \
        "docs/hardware/circuit.svg is not the circuit's: run boards/hardware/build.sh --docs"
