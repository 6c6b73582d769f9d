"""The virtual board's building faults, for the bring-up self-test (`sim fault`, `sim
seen`, docs/protocol.md): loaded only when one is planted, so that a virtual board without
faults holds no more memory than before.  The matrix reads through them (sim.Matrix.scan)
and the self-test's line probe sees them (probe)."""

from firmware.selftest import parse_line, parse_square

N = 12


class Faults:
    """What a badly built board may have (`sim fault`): switches stuck closed or dead,
    lines held high or low, lines shorted together.  The matrix then reads through them."""

    def __init__(self):
        self.switch = bytearray(N * N)  # 0 as built, 1 stuck closed, 2 dead (never closes)
        self.high = 0  # lines (bit i: row i, bit 12 + c: column c) held high
        self.low = 0  # lines held low
        self.shorts = []  # (line, line)

    def levels(self, occ, driven):
        """The 24 lines' levels while line `driven` alone is driven high (24: none)."""
        high = self.high | (1 << driven if driven < 2 * N else 0)
        while True:
            was = high
            for a, b in self.shorts:
                if (high >> a | high >> b) & 1:
                    high |= 1 << a | 1 << b
            for p in range(N * N):
                s = self.switch[p]
                if (s == 1 or (occ[p] and s == 0)) and high >> (p // N) & 1:
                    high |= 1 << (N + p % N)  # row -> diode -> column, never back
            high &= ~self.low
            if high == was:
                return high


def probe(matrix, echo):
    """sim.Matrix.probe: the 24 lines' levels with each driven alone, then with none."""
    f = matrix.faults or Faults()
    for i in range(2 * N + 1):
        echo[i] = f.levels(matrix.occ, i)


def seen(leds):
    """What an eye sees: the frame's letters, "." where an LED is dead."""
    from firmware.leds import CODES

    dead = leds.dead or bytes(N * N)
    return "".join("." if dead[p] else CODES[leds.frame[p]] for p in range(N * N))


def request(hw, w):
    """`sim fault ...` and `sim seen` (docs/protocol.md) -> the reply's words after
    "sim"; ValueError (with the usage) for anything else."""
    usage = "sim fault switch SQ closed|dead, sim fault line row N|column F high|low, sim fault short LINE LINE, sim fault led SQ, sim fault clear, sim seen"
    if w == ["seen"]:
        return "seen " + seen(hw.leds)
    if len(w) < 2 or w[0] != "fault":
        raise ValueError(usage)
    m = hw.matrix
    f = m.faults or Faults()
    kind = w[1]
    if kind == "switch" and len(w) == 4 and w[3] in ("closed", "dead"):
        f.switch[parse_square(w[2])] = 1 if w[3] == "closed" else 2
    elif kind == "line" and len(w) == 5 and w[4] in ("high", "low"):
        bit = 1 << parse_line(w[2], w[3])
        if w[4] == "high":
            f.high |= bit
        else:
            f.low |= bit
    elif kind == "short" and len(w) == 6:
        f.shorts.append((parse_line(w[2], w[3]), parse_line(w[4], w[5])))
    elif kind == "led" and len(w) == 3:
        p = parse_square(w[2])
        if hw.leds.dead is None:
            hw.leds.dead = bytearray(N * N)
        hw.leds.dead[p] = 1
    elif kind == "clear" and len(w) == 2:
        f = None
        hw.leds.dead = None
    else:
        raise ValueError(usage)
    if kind != "led":
        m.faults = f
    return " ".join(w)
