"""The printed boards, laid out and routed by this script with KiCad 6's pcbnew module:
a tile of 4 x 4 squares (nine make the board) and the controller board with the Pico.

    /usr/bin/python3 boards/hardware/layout.py OUT_DIR     (boards/hardware/build.sh runs it)

pcbnew is a module of the system's Python (Debian's `kicad`), not of a venv.  For each board
it writes OUT_DIR/<board>.kicad_pcb, runs KiCad's design rules check (<board>-drc.txt),
plots the Gerbers and drill files into <board>-gerbers.zip, and draws <board>.svg (the
copper of both layers, the pads and the outline) from the routed board.  Exits 1 when a
check finds a violation or an unrouted connection.

The parts and their nets come from design.py (the same data as the netlist); only where a
part sits and how its copper runs is decided here.  Routing is by lanes: on a tile every
square row has its data, row, 5 V and ground lanes on the front copper (F.Cu), every
square column its column lane on the back (B.Cu), so that a row and a column never meet
but through a switch and its diode.
"""

import os
import sys
import zipfile

import pcbnew

import design

FP = "/usr/share/kicad/footprints"
MM = pcbnew.FromMM
S = design.SQUARE_MM
K = design.K
TILE = K * S

# A square's layout, in mm from its centre (y downwards, as KiCad draws).
LANE = {"DATA": 8.0, "ROW": 10.54, "+5V": 13.08, "GND": 15.62}  # the edge header's pitch
REED = (-3.2, 0.0)  # the reed's near pad: its glass starts under the square's centre
LED = (3.0, -7.5)
DIODE = (13.5, -5.0)
CAP = (3.0, 14.35)  # on the 5 V and ground lanes
COL_X = 10.0  # the column lane (B.Cu)
JOG_X = 7.5  # the data line's way past the LED's other pads
VIA_TOP = (0.55, -11.5)
VIA_BOTTOM = (5.45, -3.5)
HOLE = (-8.0, -12.0)  # mounting holes, in the four corner squares
TRUNK = {"+5V": (4.5, 154.0), "GND": (6.0, 152.5)}  # the supply joining the rows (B.Cu), by the
# side edges (on the right inside the reeds' far pads)

W_SIGNAL = 0.3
W_POWER = 1.0
VIA = (0.8, 0.4)  # diameter, drill


class Board:
    def __init__(self, path, width, height):
        self.path = path
        self.board = pcbnew.NewBoard(path)
        self.nets = {}
        self.fps = {}
        ds = self.board.GetDesignSettings()
        ds.SetCopperLayerCount(2)
        nc = ds.GetNetClasses().GetDefault()
        nc.SetClearance(MM(0.2))
        nc.SetTrackWidth(MM(W_SIGNAL))
        nc.SetViaDiameter(MM(VIA[0]))
        nc.SetViaDrill(MM(VIA[1]))
        ds.m_CopperEdgeClearance = MM(0.3)
        for x0, y0, x1, y1 in ((0, 0, width, 0), (width, 0, width, height), (width, height, 0, height),
                               (0, height, 0, 0)):
            seg = pcbnew.PCB_SHAPE(self.board)
            seg.SetShape(pcbnew.SHAPE_T_SEGMENT)
            seg.SetStart(pcbnew.wxPointMM(x0, y0))
            seg.SetEnd(pcbnew.wxPointMM(x1, y1))
            seg.SetLayer(pcbnew.Edge_Cuts)
            seg.SetWidth(MM(0.1))
            self.board.Add(seg)
        self.width, self.height = width, height

    def net(self, name):
        if name not in self.nets:
            ni = pcbnew.NETINFO_ITEM(self.board, name)
            self.board.Add(ni)
            self.nets[name] = ni
        return self.nets[name]

    def place(self, part, x, y, angle=0, footprint=None):
        lib, name = (footprint or design.KINDS[part.kind]["footprint"]).split(":")
        fp = load_footprint(lib, name)
        fp.SetFPID(pcbnew.LIB_ID(lib, name))  # the library's name too, as KiCad's own boards
        fp.SetReference(part.ref)
        fp.SetValue(part.value)
        fp.SetPosition(pcbnew.wxPointMM(x, y))
        fp.SetOrientationDegrees(angle)
        self.board.Add(fp)
        for pad in fp.Pads():
            net = part.pins.get(pad.GetNumber())
            if net is not None:
                pad.SetNet(self.net(net))
        self.fps[part.ref] = fp
        return fp

    def hole(self, x, y):
        fp = load_footprint("MountingHole", "MountingHole_3.2mm_M3")
        fp.SetReference("H%d" % (sum(1 for r in self.fps if r.startswith("H")) + 1))
        fp.SetPosition(pcbnew.wxPointMM(x, y))
        fp.Reference().SetVisible(False)
        self.board.Add(fp)
        self.fps[fp.GetReference()] = fp

    def pad(self, ref, num):
        for pad in self.fps[ref].Pads():
            if pad.GetNumber() == num:
                p = pad.GetPosition()
                return (pcbnew.ToMM(p.x), pcbnew.ToMM(p.y))
        raise KeyError("%s has no pad %s" % (ref, num))

    def track(self, net, points, layer, width=W_SIGNAL):
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            if (x0, y0) == (x1, y1):
                continue
            t = pcbnew.PCB_TRACK(self.board)
            t.SetStart(pcbnew.wxPointMM(x0, y0))
            t.SetEnd(pcbnew.wxPointMM(x1, y1))
            t.SetWidth(MM(width))
            t.SetLayer(layer)
            t.SetNet(self.net(net))
            self.board.Add(t)

    def via(self, net, x, y):
        v = pcbnew.PCB_VIA(self.board)
        v.SetPosition(pcbnew.wxPointMM(x, y))
        v.SetWidth(MM(VIA[0]))
        v.SetDrill(MM(VIA[1]))
        v.SetViaType(pcbnew.VIATYPE_THROUGH)
        v.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
        v.SetNet(self.net(net))
        self.board.Add(v)

    def text(self, s, x, y, size=2.0, layer=pcbnew.F_SilkS):
        t = pcbnew.PCB_TEXT(self.board)
        t.SetLayer(layer)
        t.SetText(s)
        t.SetPosition(pcbnew.wxPointMM(x, y))
        t.SetTextSize(pcbnew.wxSizeMM(size, size))
        t.SetTextThickness(MM(size * 0.15))
        t.SetLayer(layer)
        if layer == pcbnew.B_SilkS:
            t.SetMirrored(True)
        self.board.Add(t)


_cache = {}


def load_footprint(lib, name):
    if lib == "eboard":
        return pico_footprint()
    key = (lib, name)
    if key not in _cache:
        _cache[key] = pcbnew.FootprintLoad(os.path.join(FP, lib + ".pretty"), name)
        if _cache[key] is None:
            raise ValueError("no footprint %s:%s in %s" % (lib, name, FP))
    return pcbnew.FOOTPRINT(_cache[key])  # a copy


def pico_footprint():
    """The Raspberry Pi Pico in two 1x20 sockets: pins 1-20 down the left row, 21-40 up
    the right, the rows 17.78 mm apart (its datasheet's drawing, from above)."""
    fp = pcbnew.FOOTPRINT(None)
    fp.SetFPID(pcbnew.LIB_ID("eboard", "RaspberryPi_Pico_Socketed"))
    for n in range(1, 41):
        x, y = (0.0, (n - 1) * 2.54) if n <= 20 else (17.78, (40 - n) * 2.54)
        pad = pcbnew.PAD(fp)
        pad.SetNumber(str(n))
        pad.SetAttribute(pcbnew.PAD_ATTRIB_PTH)
        pad.SetShape(pcbnew.PAD_SHAPE_RECT if n == 1 else pcbnew.PAD_SHAPE_OVAL)
        pad.SetSize(pcbnew.wxSizeMM(1.7, 1.7))
        pad.SetDrillSize(pcbnew.wxSizeMM(1.0, 1.0))
        pad.SetLayerSet(pcbnew.PAD.PTHMask())
        pad.SetPosition(pcbnew.wxPointMM(x, y))
        pad.SetPos0(pcbnew.wxPointMM(x, y))
        fp.Add(pad)
    for layer, margin, width in ((pcbnew.F_CrtYd, 1.5, 0.05), (pcbnew.F_SilkS, 1.2, 0.12)):
        x0, y0, x1, y1 = -2.7, -1.5 - margin + 1.2, 17.78 + 2.7, 48.26 + 1.5 + margin - 1.2
        for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
            seg = pcbnew.FP_SHAPE(fp)
            seg.SetShape(pcbnew.SHAPE_T_SEGMENT)
            seg.SetStart0(pcbnew.wxPointMM(*a))
            seg.SetEnd0(pcbnew.wxPointMM(*b))
            seg.SetLayer(layer)
            seg.SetWidth(MM(width))
            fp.Add(seg)
    fp.Reference().SetText("REF**")
    fp.Value().SetText("RaspberryPi_Pico_Socketed")
    fp.Reference().SetPos0(pcbnew.wxPointMM(8.89, -3.5))
    fp.Value().SetPos0(pcbnew.wxPointMM(8.89, 24.0))
    fp.Value().SetVisible(False)
    return fp


# ---- the tile ----

def next_lane_x(b, led, cy):
    """Where an LED's DIN leaves the data lane: under the pad, or at the jog beside it."""
    x, y = b.pad(led, "4")
    return x if y >= cy + LED[1] else pcbnew.ToMM(b.fps[led].GetPosition().x) - LED[0] + JOG_X


def tile(out):
    b = Board(os.path.join(out, "tile.kicad_pcb"), TILE, TILE)
    parts = {p.ref: p for p in design.tile()}

    def centre(lr, lc):
        return lc * S + S / 2, (K - 1 - lr) * S + S / 2  # row 0 at the bottom, rank 1 side

    for lr in range(K):
        for lc in range(K):
            n = lr * K + lc + 1
            cx, cy = centre(lr, lc)
            even = lr % 2 == 0  # data runs left to right
            b.place(parts["SW%d" % n], cx + REED[0], cy + REED[1])
            b.place(parts["LED%d" % n], cx + LED[0], cy + LED[1], 180 if even else 0)
            b.place(parts["D%d" % n], cx + DIODE[0], cy + DIODE[1])
            b.place(parts["C%d" % n], cx + CAP[0], cy + CAP[1], 270)
    for lr in range(K):
        _, cy = centre(lr, 0)
        b.place(parts[design.tile_header("L", lr)], 2.0, cy + LANE["DATA"])
        b.place(parts[design.tile_header("R", lr)], TILE - 2.0, cy + LANE["DATA"])
    for lc in range(K):
        cx, _ = centre(0, lc)
        b.place(parts[design.tile_header("T", lc)], cx + COL_X, 2.0)
        b.place(parts[design.tile_header("B", lc)], cx + COL_X, TILE - 2.0)
    for lr, lc in ((0, 0), (0, K - 1), (K - 1, 0), (K - 1, K - 1)):
        cx, cy = centre(lr, lc)
        b.hole(cx + HOLE[0], cy + HOLE[1])

    # Lanes are drawn last, through every via and pad on them (KiCad joins a track to what
    # its ends touch): the stops of each lane, by (net, layer, fixed coordinate).
    stops = {}
    for lr in range(K):
        _, cy = centre(lr, 0)
        for name in ("ROW", "+5V", "GND"):
            net = "ROW%d" % lr if name == "ROW" else name
            stops[(net, pcbnew.F_Cu, round(cy + LANE[name], 3))] = [2.0, TILE - 2.0]
    for lc in range(K):
        cx, _ = centre(0, lc)
        stops[("COL%d" % lc, pcbnew.B_Cu, round(cx + COL_X, 3))] = [2.0, TILE - 2.0]

    for net, xs in TRUNK.items():
        for tx in xs:
            ys = [round(centre(lr, 0)[1] + LANE[net], 3) for lr in range(K)]
            stops[(net, pcbnew.B_Cu, tx)] = ys
            for y in ys:
                b.via(net, tx, y)
                stops[(net, pcbnew.F_Cu, y)].append(tx)

    def stop(net, layer, fixed, at):
        stops[(net, layer, round(fixed, 3))].append(at)

    for lr in range(K):
        even = lr % 2 == 0
        for lc in range(K):
            n = lr * K + lc + 1
            cx, cy = centre(lr, lc)
            sw, d, led = "SW%d" % n, "D%d" % n, "LED%d" % n
            lane = lambda name: cy + LANE[name]  # noqa: E731
            # the switch's near pad down to its row lane (B.Cu, under the data lane)
            x, y = b.pad(sw, "1")
            b.track("ROW%d" % lr, [(x, y), (x, lane("ROW"))], pcbnew.B_Cu)
            b.via("ROW%d" % lr, x, lane("ROW"))
            stop("ROW%d" % lr, pcbnew.F_Cu, lane("ROW"), x)
            # its far pad to the diode's anode; the cathode to the column lane
            sd = "SD%d" % n
            ax, ay = b.pad(d, "2")
            fx, fy = b.pad(sw, "2")
            b.track(sd, [(ax, ay), (fx, ay), (fx, fy)], pcbnew.F_Cu)
            kx, ky = b.pad(d, "1")
            b.track("COL%d" % lc, [(kx, ky), (cx + COL_X, ky)], pcbnew.F_Cu)
            b.via("COL%d" % lc, cx + COL_X, ky)
            stop("COL%d" % lc, pcbnew.B_Cu, cx + COL_X, ky)
            # the LED's capacitor: each pad joined to its lane
            for num, net in (("1", "+5V"), ("2", "GND")):
                px, py = b.pad("C%d" % n, num)
                b.track(net, [(px, py), (px, lane(net))], pcbnew.F_Cu, 0.5)
                stop(net, pcbnew.F_Cu, lane(net), px)
            # the LED's supply: a via beside each supply pad, down to its lane on B.Cu
            for num in ("1", "3"):  # VDD, VSS
                net = "+5V" if num == "1" else "GND"
                px, py = b.pad(led, num)
                vx, vy = (cx + VIA_TOP[0], cy + VIA_TOP[1]) if py < cy + LED[1] else \
                    (cx + VIA_BOTTOM[0], cy + VIA_BOTTOM[1])
                assert abs(px - vx) < 1e-6, (led, num, px, vx)
                b.track(net, [(px, py), (vx, vy)], pcbnew.F_Cu)
                b.via(net, vx, vy)
                b.track(net, [(vx, vy), (vx, lane(net))], pcbnew.B_Cu)
                b.via(net, vx, lane(net))
                stop(net, pcbnew.F_Cu, lane(net), vx)
            # data: from each data pad down to the data lane (past the supply pad beside it
            # first, for the pad in the LED's upper row); DOUT then runs along the lane to
            # the next LED's DIN, or to the header at the row's end; the row's first DIN
            # comes from the header at its start
            def to_lane(num):
                px, py = b.pad(led, num)
                if py < cy + LED[1]:
                    return [(px, py), (cx + JOG_X, py), (cx + JOG_X, lane("DATA"))]
                return [(px, py), (px, lane("DATA"))]

            dout, din = parts[led].pins["2"], parts[led].pins["4"]
            if din.startswith("DL") or din.startswith("DR"):
                edge = 2.0 if din.startswith("DL") else TILE - 2.0
                b.track(din, to_lane("4") + [(edge, lane("DATA"))], pcbnew.F_Cu)
            else:
                b.track(din, to_lane("4"), pcbnew.F_Cu)  # the previous LED's DOUT meets it
            if dout.startswith("DL") or dout.startswith("DR"):
                edge = 2.0 if dout.startswith("DL") else TILE - 2.0
                b.track(dout, to_lane("2") + [(edge, lane("DATA"))], pcbnew.F_Cu)
            else:
                nxt = "LED%d" % (lr * K + (lc + 1 if even else lc - 1) + 1)
                b.track(dout, to_lane("2") + [(next_lane_x(b, nxt, cy), lane("DATA"))], pcbnew.F_Cu)
    # words for the one who builds it: which edge faces White (rank 1), the headers' pins
    for i, words in enumerate(("eboard tile %dx%d: rank 1 edge" % (K, K), "row headers: 1 data, 2 row,",
                               "3 +5V, 4 GND")):
        b.text(words, S * (i + 1) + 10.0, TILE - 1.5, 1.0)  # between the bottom column pins
    for (net, layer, fixed), at in stops.items():
        at = sorted(set(at))
        width = W_POWER if net in ("+5V", "GND") else W_SIGNAL
        if layer == pcbnew.F_Cu:
            b.track(net, [(x, fixed) for x in at], layer, width)
        else:
            b.track(net, [(fixed, y) for y in at], layer, width)
    for ref, fp in b.fps.items():
        r = fp.Reference()
        if ref.startswith("J") or ref.startswith("H"):
            r.SetVisible(False)  # the headers are named in boards/README.md
            continue
        n = int(ref.lstrip("SWLEDC"))
        cx, cy = centre((n - 1) // K, (n - 1) % K)
        dx, dy = {"SW": (10.0, 3.3), "LED": (-3.5, -7.5), "D": (13.5, -7.2), "C": (-1.5, 14.35)}[ref.rstrip("0123456789")]
        r.SetTextSize(pcbnew.wxSizeMM(1.0, 1.0))
        r.SetTextThickness(MM(0.15))
        r.SetTextAngle(0)
        r.SetPosition(pcbnew.wxPointMM(cx + dx, cy + dy))
    return b


# ---- the controller ----

class Channels:
    """Two-layer routing by rows and bands.  Parts stand in rows; between two rows runs a
    band.  A pad joins its net in the band above or below it by a vertical on B.Cu; in each
    band a net has one horizontal channel on F.Cu at a height of its own; a net in several
    bands joins them by a riser, a vertical on B.Cu right of every part.  Horizontals never
    meet (each at its own height), verticals never meet (the checker below holds the pads'
    x apart), and a horizontal meets a vertical only across the board."""

    def __init__(self, b):
        self.b = b
        self.bands = []  # (top, bottom)
        self.pads = {}  # net -> [(x, y, band)]

    def band(self, top, bottom):
        self.bands.append((top, bottom))
        return len(self.bands) - 1

    def join(self, ref, num, band):
        net = self.b.fps[ref]
        for pad in net.Pads():
            if pad.GetNumber() == num:
                name = pad.GetNetname()
                if not name:
                    return
                x, y = self.b.pad(ref, num)
                self.pads.setdefault(name, []).append((x, y, band))
                return
        raise KeyError(ref + "." + num)

    def route(self, riser_x, widths):
        b = self.b
        width = lambda net: widths.get(net, W_SIGNAL)  # noqa: E731
        channel = {}
        for i, (top, bottom) in enumerate(self.bands):
            nets = sorted({net for net, pads in self.pads.items() for _, _, band in pads if band == i})
            y = top
            prev = None
            for net in nets:
                wa, wb = width(prev) if prev else 0, width(net)
                y += 0.25 + max(0.4 + wb / 2, wa / 2 + 0.4, wa / 2 + wb / 2) if prev else max(0.4, wb / 2)
                channel[(net, i)] = y
                prev = net
            if y > bottom:
                raise ValueError("band %d holds %d channels: %.2f mm past its %.2f" % (i, len(nets), y, bottom))
        risers = {}
        verticals = []
        for net in sorted(self.pads):
            if len(self.pads[net]) < 2:
                continue  # a pad alone (the chain's end, at the last row header)
            bands = sorted({band for _, _, band in self.pads[net]})
            if len(bands) > 1:
                risers[net] = riser_x + 1.6 * len(risers)
            for band in bands:
                y = channel[(net, band)]
                xs = [x for x, _, bd in self.pads[net] if bd == band]
                if net in risers:
                    xs.append(risers[net])
                b.track(net, [(x, y) for x in sorted(set(xs))], pcbnew.F_Cu, width(net))
            for x, py, band in self.pads[net]:
                y = channel[(net, band)]
                b.track(net, [(x, py), (x, y)], pcbnew.B_Cu, min(width(net), 0.6))
                b.via(net, x, y)
                verticals.append((x, min(py, y), max(py, y), net))
            if net in risers:
                ys = [channel[(net, band)] for band in bands]
                b.track(net, [(risers[net], y) for y in ys], pcbnew.B_Cu, width(net))
                for y in ys:
                    b.via(net, risers[net], y)
        for i, (x, y0, y1, net) in enumerate(verticals):  # the checker: no two verticals meet
            for x2, z0, z1, net2 in verticals[i + 1:]:
                if net != net2 and abs(x - x2) < 1.0 and y0 < z1 and z0 < y1:
                    raise ValueError("verticals of %s and %s meet at x %.2f" % (net, net2, x))
        return max(risers.values()) if risers else riser_x


def controller(out):
    parts = {p.ref: p for p in design.controller()}
    W, H = 122.0, 120.0
    b = Board(os.path.join(out, "controller.kicad_pcb"), W, H)
    x0 = 10.0
    for x, y in ((4, 4), (W - 4, 4), (4, H - 4), (W - 4, H - 4)):
        b.hole(x, y)
    # row A, B: the pull-downs straight above the column header
    y_rn, y_j14 = 8.0, 13.08
    b.place(parts["RN1"], x0, y_rn)
    b.place(parts["J14"], x0 + 2.54, y_j14, 90)
    # row C, D: the Pico, its pin 20 at the left of the top row (pins 1-20), 21-40 below
    y_pico = 31.0
    b.place(parts["U1"], x0 + 1.27 + 48.26, y_pico, 270)
    # row E: the shifter (its rows 7.62 apart), the data resistor, the capacitors, the
    # Schottky and the power terminal
    y_e = 72.0
    b.place(parts["U2"], x0, y_e, 90)
    b.place(parts["R1"], x0 + 20.32, y_e)
    b.place(parts["C2"], x0 + 35.56, y_e)
    b.place(parts["D1"], x0 + 45.72, y_e)
    b.place(parts["C1"], x0 + 63.5, y_e)
    b.place(parts["J1"], x0 + 73.66, y_e)
    # rows F, G: the twelve row headers, six a row
    y_f, y_g = 93.0, 112.0
    for r in range(design.N):
        y = y_f if r < 6 else y_g
        b.place(parts["J%d" % (2 + r)], x0 + 1.27 + 12.7 * (r % 6), y, 90)

    ch = Channels(b)
    band1 = ch.band(y_j14 + 1.6, y_pico - 1.6)
    band2 = ch.band(y_pico + 17.78 + 1.6, y_e - 7.62 - 1.6)
    band3 = ch.band(y_e + 1.9, y_f - 1.6)
    band4 = ch.band(y_f + 1.6, y_g - 1.6)
    for c in range(design.N):  # RN1's resistors straight to the header's pins
        x, y = b.pad("RN1", str(2 + c))
        x2, y2 = b.pad("J14", str(1 + c))
        assert abs(x - x2) < 1e-6
        b.track("COL%d" % c, [(x, y), (x2, y2)], pcbnew.B_Cu)
        ch.join("J14", str(1 + c), band1)
    ch.join("RN1", "1", band1)
    for n in range(1, 41):
        ch.join("U1", str(n), band1 if n <= 20 else band2)
    for n in range(1, 15):
        ch.join("U2", str(n), band2 if n >= 8 else band3)
    for ref, band in (("R1", band3), ("C2", band3), ("D1", band2), ("C1", band2), ("J1", band2)):
        for num in ("1", "2"):
            ch.join(ref, num, band)
    for r in range(design.N):
        for num in ("1", "2", "3", "4"):
            ch.join("J%d" % (2 + r), num, band3 if r < 6 else band4)
    ch.route(x0 + 82.0, {"+5V": 1.2, "GND": 1.2, "VSYS": 0.5})  # 2 A for the LEDs leaves by +5V
    for r in range(design.N):  # which square row each header feeds
        x, y = b.pad("J%d" % (2 + r), "1")
        b.text("row %d" % r, x + 3.81, y + 2.6, 1.0)
    x, y = b.pad("J14", "1")
    b.text("columns a-m: pin 1 = a", x + 14.0, y + 2.6, 1.0)
    x, y = b.pad("J2", "1")
    b.text("data: pin 1 of row 0 starts the chain (a1)", x + 25.0, y - 2.6, 1.0)
    for ref, fp in b.fps.items():
        if ref.startswith("H"):
            continue
        r = fp.Reference()
        r.SetTextSize(pcbnew.wxSizeMM(1.0, 1.0))
        r.SetTextThickness(MM(0.15))
    return b


# ---- checks and outputs ----

def finish(b, out, name):
    """Save, check (DRC), plot Gerbers and drill files, zip them, draw the picture; return
    (violations, unconnected, report text)."""
    board = b.board
    pcbnew.SaveBoard(b.path, board)
    board = pcbnew.LoadBoard(b.path)  # the saved board, as a fab or KiCad reads it
    filler = pcbnew.ZONE_FILLER(board)
    filler.Fill(board.Zones())
    report = os.path.join(out, name + "-drc.txt")
    pcbnew.WriteDRCReport(board, report, pcbnew.EDA_UNITS_MILLIMETRES, True)
    text = open(report).read()
    violations = count(text, "DRC violations")
    unconnected = count(text, "unconnected pads")
    gerbers(board, out, name)
    svg(board, os.path.join(out, name + ".svg"), "%s, %s mm: F.Cu red, B.Cu blue, pads gold (layout.py)"
        % (name, size_of(board)))
    return violations, unconnected, text


def size_of(board):
    box = board.GetBoardEdgesBoundingBox()
    return "%g x %g" % (round(pcbnew.ToMM(box.GetWidth())), round(pcbnew.ToMM(box.GetHeight())))


def count(text, what):
    for line in text.splitlines():
        if what in line and "Found" in line:
            return int(line.split("Found")[1].split()[0])
    raise ValueError("the DRC report has no count of %s" % what)


LAYERS = [("F.Cu", pcbnew.F_Cu), ("B.Cu", pcbnew.B_Cu), ("F.Mask", pcbnew.F_Mask), ("B.Mask", pcbnew.B_Mask),
          ("F.SilkS", pcbnew.F_SilkS), ("B.SilkS", pcbnew.B_SilkS), ("F.Paste", pcbnew.F_Paste),
          ("Edge.Cuts", pcbnew.Edge_Cuts)]


def gerbers(board, out, name):
    folder = os.path.join(out, name + "-gerbers")
    os.makedirs(folder, exist_ok=True)
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(folder)
    po.SetPlotFrameRef(False)
    po.SetUseGerberProtelExtensions(True)
    po.SetCreateGerberJobFile(False)
    po.SetSubtractMaskFromSilk(True)
    po.SetUseAuxOrigin(False)
    files = []
    for suffix, layer in LAYERS:
        pc.SetLayer(layer)
        pc.OpenPlotfile(suffix, pcbnew.PLOT_FORMAT_GERBER, suffix)
        pc.PlotLayer()
        files.append(pc.GetPlotFileName())
        pc.ClosePlot()
    drill = pcbnew.EXCELLON_WRITER(board)
    drill.SetOptions(False, False, board.GetDesignSettings().GetAuxOrigin(), False)
    drill.SetFormat(True)
    drill.CreateDrillandMapFilesSet(folder, True, False)
    files += [os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".drl")]
    with zipfile.ZipFile(os.path.join(out, name + "-gerbers.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(set(files)):
            z.write(f, os.path.basename(f))


def svg(board, path, caption=""):
    """Both copper layers, pads, holes and the outline, drawn from the board: front copper
    red, back copper blue (under it), pads grey, holes white."""
    box = board.GetBoardEdgesBoundingBox()
    x0, y0 = pcbnew.ToMM(box.GetX()), pcbnew.ToMM(box.GetY())
    w, h = pcbnew.ToMM(box.GetWidth()), pcbnew.ToMM(box.GetHeight())
    scale = 5  # px a mm
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="%g %g %g %g">'
         % (w * scale, (h + 8) * scale, x0 - 1, y0 - 1, w + 2, h + 10),
         '<rect x="%g" y="%g" width="%g" height="%g" fill="white"/>' % (x0 - 1, y0 - 1, w + 2, h + 10),
         '<text x="%g" y="%g" font-size="3" font-family="DejaVu Sans, Arial, sans-serif">%s</text>'
         % (x0, y0 + h + 6, caption),
         '<rect x="%g" y="%g" width="%g" height="%g" fill="#0b3d20" stroke="#ddd" stroke-width="0.3"/>'
         % (x0, y0, w, h)]
    groups = []  # each sorted: KiCad loads a board's items in no fixed order
    colours = {pcbnew.B_Cu: "#3b6fd8", pcbnew.F_Cu: "#d8473b"}
    for layer in (pcbnew.B_Cu, pcbnew.F_Cu):
        part = []
        groups.append(part)
        for t in board.GetTracks():
            if t.GetClass() == "PCB_TRACK" and t.GetLayer() == layer:
                s, e = t.GetStart(), t.GetEnd()
                part.append('<line x1="%.3f" y1="%.3f" x2="%.3f" y2="%.3f" stroke="%s" stroke-width="%.3f" '
                         'stroke-linecap="round" opacity="0.9"/>'
                         % (pcbnew.ToMM(s.x), pcbnew.ToMM(s.y), pcbnew.ToMM(e.x), pcbnew.ToMM(e.y),
                            colours[layer], pcbnew.ToMM(t.GetWidth())))
    part = []
    groups.append(part)
    for fp in board.GetFootprints():
        for pad in fp.Pads():
            p, sz = pad.GetPosition(), pad.GetSize()
            x, y = pcbnew.ToMM(p.x), pcbnew.ToMM(p.y)
            a, bb = pcbnew.ToMM(sz.x), pcbnew.ToMM(sz.y)
            if int(pad.GetOrientationDegrees()) % 180 == 90:
                a, bb = bb, a
            colour = "#d4b24c" if pad.GetAttribute() != pcbnew.PAD_ATTRIB_NPTH else "#0b3d20"
            one = '<rect x="%.3f" y="%.3f" width="%.3f" height="%.3f" fill="%s"/>' % (x - a / 2, y - bb / 2, a, bb, colour)
            d = pcbnew.ToMM(pad.GetDrillSize().x)
            if d:
                one += '<circle cx="%.3f" cy="%.3f" r="%.3f" fill="#fff"/>' % (x, y, d / 2)
            part.append(one)
    part = []
    groups.append(part)
    for fp in board.GetFootprints():  # the parts' outlines, as the silkscreen draws them
        for g in fp.GraphicalItems():
            if g.GetClass() != "MGRAPHIC" or g.GetLayer() != pcbnew.F_SilkS:
                continue
            s, e = g.GetStart(), g.GetEnd()
            x1, y1, x2, y2 = pcbnew.ToMM(s.x), pcbnew.ToMM(s.y), pcbnew.ToMM(e.x), pcbnew.ToMM(e.y)
            style = 'fill="none" stroke="#f2f2d0" stroke-width="0.15"'
            if g.GetShape() == pcbnew.SHAPE_T_SEGMENT:
                part.append('<line x1="%.3f" y1="%.3f" x2="%.3f" y2="%.3f" %s/>' % (x1, y1, x2, y2, style))
            elif g.GetShape() == pcbnew.SHAPE_T_RECT:
                part.append('<rect x="%.3f" y="%.3f" width="%.3f" height="%.3f" %s/>'
                         % (min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1), style))
            elif g.GetShape() == pcbnew.SHAPE_T_CIRCLE:
                part.append('<circle cx="%.3f" cy="%.3f" r="%.3f" %s/>' % (x1, y1, pcbnew.ToMM(g.GetRadius()), style))
    part = []
    groups.append(part)
    for t in board.GetTracks():
        if t.GetClass() == "PCB_VIA":
            p = t.GetPosition()
            part.append('<circle cx="%.3f" cy="%.3f" r="%.3f" fill="#d4b24c"/><circle cx="%.3f" cy="%.3f" r="%.3f" '
                     'fill="#fff"/>' % (pcbnew.ToMM(p.x), pcbnew.ToMM(p.y), VIA[0] / 2, pcbnew.ToMM(p.x),
                                        pcbnew.ToMM(p.y), VIA[1] / 2))
    for part in groups:
        o.extend(sorted(part))
    o.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(o) + "\n")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(design.ROOT, "build", "hardware")
    os.makedirs(out, exist_ok=True)
    # our one footprint of our own, as a KiCad library beside the netlist that names it
    lib = os.path.join(out, "eboard.pretty")
    os.makedirs(lib, exist_ok=True)
    pico = pico_footprint()
    pico.SetFPID(pcbnew.LIB_ID("", "RaspberryPi_Pico_Socketed"))
    pcbnew.FootprintSave(lib, pico)
    failed = False
    for name, make in (("tile", tile), ("controller", controller)):
        b = make(out)
        violations, unconnected, text = finish(b, out, name)
        size = "%g x %g mm" % (b.width, b.height)
        print("layout: %s (%s, %d parts): DRC %d violations, %d unconnected; %s-gerbers.zip"
              % (name, size, len(b.fps), violations, unconnected, name))
        if violations or unconnected:
            failed = True
            print(text)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
