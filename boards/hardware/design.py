"""The board's circuit as data: which parts, which pins on which nets, how the boards join.

One description, read by circuit.py (SKiDL: the electrical rules check, the KiCad netlist,
the bill of materials), drawing.py (the block diagram) and layout.py (the printed boards,
with KiCad's pcbnew).  Plain Python: no SKiDL, no pcbnew here.

Its facts come from the code the board runs, not from a copy:
  - the Pico's pins from boards/pico.py (COL_PINS, ROW_PINS, LED_PIN: read with ast, since
    pico.py imports `machine`);
  - the square a switch sits under from firmware/selftest.py's square_name (switch at row r,
    column c is square r * 12 + c, as firmware/debounce.py numbers it);
  - the LEDs' order from firmware/leds.py's SERPENTINE.

The board: 12 x 12 squares of 40 mm, as nine tiles of 4 x 4 squares (160 x 160 mm) and a
controller board with the Pico.  A tile's square rows end in a 4-pin header on each side
(data, row, 5 V, ground); its square columns in a 1-pin header at the top and bottom.  Tiles
join header to header; the controller feeds each square row of the left tiles (its row
line, 5 V and ground: power enters the LED chain at the start of every row) and each column
through the bottom tiles.  The chain runs along a tile row and turns at the board's edges:
on the right by a wire between two rows' data pins, on the left on the controller board.
"""

import ast
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from firmware import leds, selftest  # noqa: E402

N = 12  # squares a side
K = 4  # squares a side of a tile
TILES = N // K  # tiles a side
SQUARE_MM = 40
assert N % K == 0 and K % 2 == 0  # an even K: every tile's rows run the same ways


def pico_pins(path=None):
    """COL_PINS, ROW_PINS, LED_PIN as boards/pico.py assigns them (its literal values)."""
    path = path or os.path.join(ROOT, "boards", "pico.py")
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            name = getattr(node.targets[0], "id", None)
            if name in ("COL_PINS", "ROW_PINS", "LED_PIN"):
                value = node.value
                if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "tuple":
                    value = value.args[0]  # tuple(range(a, b))
                if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "range":
                    out[name] = tuple(range(*[ast.literal_eval(a) for a in value.args]))
                else:
                    out[name] = ast.literal_eval(value)
    missing = {"COL_PINS", "ROW_PINS", "LED_PIN"} - set(out)
    if missing:
        raise ValueError("%s: no literal %s" % (path, ", ".join(sorted(missing))))
    return out


# The Raspberry Pi Pico's 40 pins (its datasheet, "Pinout"): physical pin -> name.
PICO = {}
_gp = iter(list(range(0, 23)) + [26, 27, 28])
for _n, _name in enumerate(
    "gp gp GND gp gp gp gp GND gp gp gp gp GND gp gp gp gp GND gp gp "
    "gp gp GND gp gp gp gp GND gp RUN gp gp GND gp ADC_VREF 3V3 3V3_EN GND VSYS VBUS".split(),
    1,
):
    PICO[_n] = "GP%d" % next(_gp) if _name == "gp" else _name
PICO_PIN = {name: n for n, name in PICO.items() if name.startswith("GP")}  # "GP27" -> 32


def square(row, col):
    """The physical square a switch on matrix row `row`, column `col` sits under."""
    return row * N + col


class Part:
    """A part on a board: ref, kind (a key of KINDS), value, and its pins' nets."""

    def __init__(self, ref, kind, pins, value=None, note=""):
        self.ref = ref
        self.kind = kind
        self.pins = pins  # pin number (str) -> local net name, or None: not connected
        self.value = value or KINDS[kind]["value"]
        self.note = note


# Each kind of part: its SKiDL symbol (library, name), KiCad footprint, value and a
# manufacturer part number (the one we chose; equivalents are named in boards/README.md).
KINDS = {
    "reed": dict(lib=("Switch", "SW_Reed"), value="reed NO 10-15 AT",
                 footprint="Resistor_THT:R_Axial_DIN0414_L11.9mm_D4.5mm_P20.32mm_Horizontal",
                 mpn="MKA-14103", maker="Standex-Meder"),
    "diode": dict(lib=("Diode", "1N4148W"), value="1N4148W",
                  footprint="Diode_SMD:D_SOD-123", mpn="1N4148W-7-F", maker="Diodes Inc."),
    "led": dict(lib=("LED", "WS2812B"), value="WS2812B",
                footprint="LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm", mpn="WS2812B", maker="Worldsemi"),
    "c100n": dict(lib=("Device", "C"), value="100nF",
                  footprint="Capacitor_SMD:C_0805_2012Metric_Pad1.18x1.45mm_HandSolder",
                  mpn="CL21B104KBCNNNC", maker="Samsung"),
    "c100n_tht": dict(lib=("Device", "C"), value="100nF",
                      footprint="Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm",
                      mpn="K104K15X7RF5TL2", maker="Vishay"),
    "cbulk": dict(lib=("Device", "C_Polarized"), value="1000uF 10V",
                  footprint="Capacitor_THT:CP_Radial_D8.0mm_P3.50mm", mpn="EEU-FR1A102", maker="Panasonic"),
    "r330": dict(lib=("Device", "R"), value="330",
                 footprint="Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal",
                 mpn="MFR-25FBF52-330R", maker="Yageo"),
    "r4k7x12": dict(lib=("Device", "R_Network12"), value="4.7k x 12, bussed",
                    footprint="Resistor_THT:R_Array_SIP13", mpn="4613X-101-472LF", maker="Bourns"),
    "schottky": dict(lib=("Diode", "1N5817"), value="1N5817",
                     footprint="Diode_THT:D_DO-41_SOD81_P10.16mm_Horizontal", mpn="1N5817RLG", maker="onsemi"),
    "shifter": dict(lib=("74xx", "74AHCT125"), value="74AHCT125",
                    footprint="Package_DIP:DIP-14_W7.62mm", mpn="SN74AHCT125N", maker="Texas Instruments"),
    "pico": dict(lib=None, value="Raspberry Pi Pico",
                 footprint="eboard:RaspberryPi_Pico_Socketed", mpn="SC0915", maker="Raspberry Pi Ltd"),
    "power": dict(lib=("Connector", "Screw_Terminal_01x02"), value="5V in",
                  footprint="TerminalBlock_Phoenix:TerminalBlock_Phoenix_MKDS-1,5-2-5.08_1x02_P5.08mm_Horizontal",
                  mpn="1729128", maker="Phoenix Contact"),
    "hdr1": dict(lib=("Connector_Generic", "Conn_01x01"), value="column",
                 footprint="Connector_PinHeader_2.54mm:PinHeader_1x01_P2.54mm_Vertical",
                 mpn="61300111121", maker="Wurth Elektronik"),
    "hdr4": dict(lib=("Connector_Generic", "Conn_01x04"), value="data/row/5V/GND",
                 footprint="Connector_PinHeader_2.54mm:PinHeader_1x04_P2.54mm_Vertical",
                 mpn="61300411121", maker="Wurth Elektronik"),
    "hdr12": dict(lib=("Connector_Generic", "Conn_01x12"), value="columns",
                  footprint="Connector_PinHeader_2.54mm:PinHeader_1x12_P2.54mm_Vertical",
                  mpn="61301211121", maker="Wurth Elektronik"),
}

# A tile's edge header, pin by pin (the controller's row headers are the same).
EDGE = ("DATA", "ROW", "+5V", "GND")


def tile():
    """One tile's parts, with local nets: ROW0-3, COL0-3, +5V, GND; DL/DR<r>: the data pin of
    local row r's left/right header; D<r>_<i>: from the chain's i-th LED of the row to the
    next; SD<n>: a switch to its diode."""
    parts = []
    for lr in range(K):
        lefttoright = lr % 2 == 0
        order = list(range(K)) if lefttoright else list(range(K - 1, -1, -1))
        for i, lc in enumerate(order):
            n = lr * K + lc + 1  # SW1 at the tile's bottom left, along the row, then up
            din = ("DL%d" if lefttoright else "DR%d") % lr if i == 0 else "D%d_%d" % (lr, i - 1)
            dout = ("DR%d" if lefttoright else "DL%d") % lr if i == K - 1 else "D%d_%d" % (lr, i)
            parts.append(Part("SW%d" % n, "reed", {"1": "ROW%d" % lr, "2": "SD%d" % n}))
            parts.append(Part("D%d" % n, "diode", {"2": "SD%d" % n, "1": "COL%d" % lc}))  # 2: anode
            parts.append(Part("LED%d" % n, "led", {"1": "+5V", "3": "GND", "4": din, "2": dout}))
            parts.append(Part("C%d" % n, "c100n", {"1": "+5V", "2": "GND"}))
    for lr in range(K):
        for side, first in (("L", 1), ("R", K + 1)):
            nets = ("D%s%d" % (side, lr), "ROW%d" % lr, "+5V", "GND")
            parts.append(Part("J%d" % (first + lr), "hdr4", {str(i + 1): nets[i] for i in range(4)}))
    for lc in range(K):
        parts.append(Part("J%d" % (2 * K + 1 + lc), "hdr1", {"1": "COL%d" % lc}, note="top"))
        parts.append(Part("J%d" % (3 * K + 1 + lc), "hdr1", {"1": "COL%d" % lc}, note="bottom"))
    return parts


def tile_header(kind, i):
    """The ref of a tile's header: kind L/R (square row i's left/right), T/B (column i)."""
    return "J%d" % ({"L": 1, "R": K + 1, "T": 2 * K + 1, "B": 3 * K + 1}[kind] + i)


def controller(pins=None):
    """The controller board's parts, with its nets: ROW0-11, COL0-11 (the matrix), +5V, GND,
    VSYS, LED_GP (GP27 to the shifter), LED_5V (the shifter's output), DE<r> (row r's data
    pin at the board's left edge: DE0 is the chain's start; DE<2m+1> and DE<2m+2> are one
    net, the chain's turn at the left)."""
    pins = pins or pico_pins()
    gp = {}
    for c, p in enumerate(pins["COL_PINS"]):
        gp[p] = "COL%d" % c
    for r, p in enumerate(pins["ROW_PINS"]):
        gp[p] = "ROW%d" % r
    gp[pins["LED_PIN"]] = "LED_GP"
    pico = {}
    for n, name in PICO.items():
        if name == "GND":
            pico[str(n)] = "GND"
        elif name == "VSYS":
            pico[str(n)] = "VSYS"
        elif name.startswith("GP"):
            pico[str(n)] = gp.get(int(name[2:]))
        else:
            pico[str(n)] = None  # RUN, ADC_VREF, 3V3, 3V3_EN, VBUS: not used
    parts = [
        Part("U1", "pico", pico, note="in two 1x20 sockets"),
        Part("J1", "power", {"1": "+5V", "2": "GND"}),
        Part("C1", "cbulk", {"1": "+5V", "2": "GND"}, note="across the LED supply"),
        Part("D1", "schottky", {"2": "+5V", "1": "VSYS"}, note="5 V to VSYS (2: anode)"),
        # 74AHCT125: gate 1 (1OE pin 1, 1A 2, 1Y 3) drives the chain; gates 2-4 held off.
        Part("U2", "shifter", {"1": "GND", "2": "LED_GP", "3": "LED_5V", "4": "GND", "5": "GND", "6": None,
                               "7": "GND", "8": None, "9": "GND", "10": "GND", "11": None, "12": "GND",
                               "13": "GND", "14": "+5V"}),
        Part("C2", "c100n_tht", {"1": "+5V", "2": "GND"}, note="at U2's supply"),
        Part("R1", "r330", {"1": "LED_5V", "2": "DE0"}, note="LED data"),
    ]
    pulls = {"1": "GND"}
    pulls.update({str(2 + c): "COL%d" % c for c in range(N)})
    parts.append(Part("RN1", "r4k7x12", pulls, note="the column pull-downs"))
    for r in range(N):
        data = "DE0" if r == 0 else "DE%d" % (r if r % 2 else r - 1)
        nets = (data, "ROW%d" % r, "+5V", "GND")
        parts.append(Part("J%d" % (2 + r), "hdr4", {str(i + 1): nets[i] for i in range(4)}, note="row %d" % r))
    parts.append(Part("J14", "hdr12", {str(c + 1): "COL%d" % c for c in range(N)}))
    return parts


# The whole board: the controller and nine tiles; each tile's refs get its number (tile t's
# SW7 is SW<t>07), t = 1 + x + 3 y from the bottom left.
def tile_number(tx, ty):
    return 1 + tx + TILES * ty


def system_ref(t, ref):
    if t is None:
        return ref
    head = ref.rstrip("0123456789")
    return "%s%d%02d" % (head, t, int(ref[len(head):]))


def joins():
    """Which pins are one net across the boards: (board, ref, pin) pairs, board being None
    (the controller) or a tile number; and what joins them (for the wiring list)."""
    out = []
    for ty in range(TILES):
        for tx in range(TILES):
            t = tile_number(tx, ty)
            for lr in range(K):
                r = ty * K + lr
                if tx == 0:  # the controller's row header r to the left tile's row
                    for p in range(4):
                        out.append(((None, "J%d" % (2 + r), str(p + 1)), (t, tile_header("L", lr), str(p + 1)),
                                    "cable: controller row %d" % r))
                if tx + 1 < TILES:
                    for p in range(4):
                        out.append(((t, tile_header("R", lr), str(p + 1)),
                                    (tile_number(tx + 1, ty), tile_header("L", lr), str(p + 1)), "link: tile to tile"))
                elif lr % 2 == 0:  # the chain's turn on the right: row lr's data out to row lr+1's in
                    out.append(((t, tile_header("R", lr), "1"), (t, tile_header("R", lr + 1), "1"),
                                "wire: the chain's turn"))
            for lc in range(K):
                c = tx * K + lc
                if ty == 0:
                    out.append(((None, "J14", str(c + 1)), (t, tile_header("B", lc), "1"), "cable: controller column"))
                if ty + 1 < TILES:
                    out.append(((t, tile_header("T", lc), "1"), (tile_number(tx, ty + 1), tile_header("B", lc), "1"),
                                "wire: tile to tile"))
    return out


def boards():
    """(board, parts) for the controller (None) and every tile number."""
    yield None, controller()
    for ty in range(TILES):
        for tx in range(TILES):
            yield tile_number(tx, ty), tile()


def system():
    """The whole board's nets: {net name: [(system ref, pin), ...]}, parts joined across
    boards.  A net's name is the controller's where it reaches the controller, else
    T<t>/<local name> of its first tile."""
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def key(board, net):
        if net in ("+5V", "GND"):
            return (None, net)  # one supply for every board
        return (board, net)

    where = {}
    for board, parts in boards():
        for part in parts:
            for pin, net in part.pins.items():
                where[(board, part.ref, pin)] = None if net is None else key(board, net)
    for a, b, _ in joins():
        na, nb = where[a], where[b]
        ra, rb = find(na), find(nb)
        if ra != rb:
            # the controller's name wins, else the lower tile's
            if (ra[0] is not None, ra) > (rb[0] is not None, rb):
                ra, rb = rb, ra
            parent[rb] = ra
    nets = {}
    for (board, ref, pin), k in sorted(where.items(), key=lambda kv: (kv[0][0] or 0, kv[0][1], kv[0][2])):
        if k is None:
            continue
        root = find(k)
        name = root[1] if root[0] is None else "T%d/%s" % root
        nets.setdefault(name, []).append((system_ref(board, ref), pin))
    return nets


def chain():
    """The LED chain as the nets make it: the system refs of the LEDs in data order, from
    the one on the shifter's line (DE0)."""
    nets = system()
    kind = {}
    for board, parts in boards():
        for part in parts:
            kind[system_ref(board, part.ref)] = part.kind
    on = {}
    for name, members in nets.items():
        for ref, pin in members:
            on[(ref, pin)] = name
    by_net = {}
    for name, members in nets.items():
        by_net[name] = [ref for ref, pin in members if kind[ref] == "led" and pin == "4"]  # DIN
    out = []
    net = "DE0"
    while True:
        dins = by_net.get(net, [])
        if not dins:
            return out
        if len(dins) > 1:
            raise ValueError("net %s feeds %d LEDs" % (net, len(dins)))
        out.append(dins[0])
        net = on.get((dins[0], "2"))  # DOUT
        if net is None or len(out) > N * N:
            return out


def led_square(t_ref):
    """The physical square of an LED or switch by its system ref (SW507, LED1203, ...)."""
    head = t_ref.rstrip("0123456789")
    digits = t_ref[len(head):]
    t, n = int(digits[:-2]), int(digits[-2:])
    tx, ty = (t - 1) % TILES, (t - 1) // TILES
    lr, lc = (n - 1) // K, (n - 1) % K
    return square(ty * K + lr, tx * K + lc)


def serpentine_check():
    """The chain's order against firmware/leds.py's SERPENTINE: a list of the mismatches in
    words (empty when they agree)."""
    order = chain()
    bad = []
    if len(order) != N * N:
        bad.append("the chain has %d LEDs, not %d" % (len(order), N * N))
    for k, ref in enumerate(order):
        p = led_square(ref)
        if leds.SERPENTINE[p] != k:
            bad.append("%s (under %s) is LED %d of the chain; firmware/leds.py says %d"
                       % (ref, selftest.square_name(p), k, leds.SERPENTINE[p]))
    return bad
