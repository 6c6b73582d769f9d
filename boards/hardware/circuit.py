"""The whole board's circuit in SKiDL, from design.py: the electrical rules check, a KiCad
netlist and the bill of materials.

    python boards/hardware/circuit.py OUT_DIR      (boards/hardware/build.sh runs it)

Writes OUT_DIR/erc.txt, OUT_DIR/eboard.net (KiCad), OUT_DIR/bom.csv; exits 1 when the check
finds an error or a warning not explained in ERC_EXPLAINED.  SKiDL carries KiCad's symbol
libraries converted to Python: no KiCad is needed here.
"""

import builtins
import csv
import logging
import os
import sys
import time

import design

# Warnings the check gives that are right for this circuit, by a fragment of their text:
# each with why (also in the report).  None so far: a new warning fails the build until it
# is understood and explained here.
ERC_EXPLAINED = {}


def build(out):
    import io
    from contextlib import redirect_stderr

    with redirect_stderr(io.StringIO()):  # SKiDL's own loggers bind stderr when imported:
        import skidl  # its notes (no KiCad installed, footprints not searched) go nowhere
    from skidl import SKIDL, TEMPLATE, Net, Part, Pin

    from skidl.logger import erc_logger, stop_log_file_output

    stop_log_file_output()
    skidl.set_default_tool(SKIDL)  # the symbol libraries SKiDL carries
    messages = []

    class Keep(logging.Handler):
        def emit(self, record):
            messages.append((record.levelname, record.getMessage()))

    erc_logger.addHandler(Keep())

    pico = Part(tool=SKIDL, name="RaspberryPi_Pico", ref_prefix="U", dest=TEMPLATE,
                footprint=design.KINDS["pico"]["footprint"],
                pins=[Pin(num=str(n), name=name, func=pin_type(Pin, name)) for n, name in design.PICO.items()])
    templates = {}
    nets = {}
    drive = {"+5V", "GND"}  # the supply: the power entry's terminal drives them

    def net(name):
        if name not in nets:
            nets[name] = Net(name)
            if name in drive:
                nets[name].drive = skidl.POWER
        return nets[name]

    system = design.system()
    on = {}
    for name, members in system.items():
        for ref, pin in members:
            on[(ref, pin)] = name
    count = 0
    for board, parts in design.boards():
        for p in parts:
            kind = design.KINDS[p.kind]
            if p.kind == "pico":
                part = pico(ref=design.system_ref(board, p.ref))
            else:
                if p.kind not in templates:
                    templates[p.kind] = Part(*kind["lib"], dest=TEMPLATE, footprint=kind["footprint"])
                part = templates[p.kind](ref=design.system_ref(board, p.ref))
            part.value = p.value
            part.tag = part.ref  # a stable tag: the ref (else SKiDL makes random ones)
            part.fields["MPN"] = kind["mpn"]
            for pin, local in p.pins.items():
                if local is None:
                    part[pin] += builtins.NC
                else:
                    net(on[(part.ref, pin)]).connect(part[pin])
            count += 1
    # VSYS is driven by the Schottky from the supply (and by the Pico's own from USB).
    nets["VSYS"].drive = skidl.POWER

    circuit = builtins.default_circuit
    circuit.ERC()
    errors, warnings = [], []
    for level, text in messages:
        if level == "ERROR":
            errors.append(text)
        elif level == "WARNING":
            warnings.append(text)
    unexplained = [w for w in warnings if not any(k in w for k in ERC_EXPLAINED)]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "erc.txt"), "w") as f:
        f.write("Electrical rules check of the whole board (SKiDL %s): %d parts, %d nets\n"
                % (skidl.__version__, count, len(nets)))
        f.write("errors: %d, warnings: %d (%d explained)\n\n" % (len(errors), len(warnings),
                                                                   len(warnings) - len(unexplained)))
        for e in errors:
            f.write("ERROR: %s\n" % e)
        for w in warnings:
            why = [v for k, v in ERC_EXPLAINED.items() if k in w]
            f.write("WARNING: %s\n" % w + ("  explained: %s\n" % why[0] if why else "  NOT EXPLAINED\n"))
    circuit.generate_netlist(file_=os.path.join(out, "eboard.net"), tool=skidl.KICAD8, do_backup=False)
    write_bom(os.path.join(out, "bom.csv"))
    return count, len(nets), errors, unexplained


def pin_type(Pin, name):
    if name == "GND":
        return Pin.types.PWRIN
    if name == "VSYS":
        return Pin.types.PWRIN
    if name in ("3V3", "VBUS"):
        return Pin.types.PWROUT
    if name.startswith("GP"):
        return Pin.types.BIDIR
    return Pin.types.PASSIVE  # RUN, ADC_VREF, 3V3_EN


def write_bom(path):
    """One line a part kind and value: refs, value, footprint, quantity, maker and part
    number; then the wires and cables that join the boards (design.joins)."""
    lines = {}
    for board, parts in design.boards():
        for p in parts:
            lines.setdefault((p.kind, p.value), []).append(design.system_ref(board, p.ref))
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["refs", "value", "footprint", "quantity", "manufacturer", "mpn", "note"])
        for (kind, value), refs in sorted(lines.items(), key=lambda kv: -len(kv[1])):
            k = design.KINDS[kind]
            w.writerow([" ".join(sorted(refs, key=ref_order)), value, k["footprint"], len(refs), k["maker"], k["mpn"], ""])
            if kind == "pico":
                w.writerow(["U1", "1x20 female header, 2.54 mm", "", 2, "Samtec", "SSQ-120-03-T-S",
                            "the Pico's sockets (or solder a Pico H's pins straight in)"])
        for what, n, note in wiring():
            w.writerow(["", what, "", n, "any", "2.54 mm Dupont, female both ends", note])


def ref_order(ref):
    head = ref.rstrip("0123456789")
    return head, int(ref[len(head):])


def wiring():
    """(what, quantity, note) for the joins between the boards."""
    counts = {}
    for a, b, how in design.joins():
        counts[how] = counts.get(how, 0) + 1
    out = []
    rows = counts.get("cable: controller row %d" % 0, 0)
    if rows:
        out.append(("4-way female-female jumper cable", design.N,
                    "controller row header to a left tile's row header, pin to pin"))
    links = counts.get("link: tile to tile", 0) // 4
    out.append(("4-way female-female jumper cable, short", links, "tile to tile, square row by square row"))
    out.append(("1-way female-female jumper wire", counts.get("wire: tile to tile", 0)
                + counts.get("cable: controller column", 0) + counts.get("wire: the chain's turn", 0),
                "columns tile to tile and from the controller; the chain's turns on the right tiles"))
    return out


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(design.ROOT, "build", "hardware")
    t0 = time.time()
    parts, nets, errors, unexplained = build(out)
    print("circuit: %d parts, %d nets; ERC %d errors, %d unexplained warnings (%.1f s); %s"
          % (parts, nets, len(errors), len(unexplained), time.time() - t0, out))
    for text in errors + unexplained:
        print("  " + text)
    sys.exit(1 if errors or unexplained else 0)


if __name__ == "__main__":
    main()
