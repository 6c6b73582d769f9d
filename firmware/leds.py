"""LED frames: one colour class per physical square, and the palette that lights them.

The tracker writes classes into a bytearray(144); a driver turns them into colours with
the brightness cap.  `CODES` gives each class a letter, for the virtual board's
`sim frame` and the tests.
"""

OFF = 0
DEST = 1  # a legal destination of the lifted piece
CAPTURE = 2  # a destination that captures, or a victim to remove
FROM = 3  # the lifted piece's square, or a piece to move next
LAST = 4  # the last move
MISSING = 5  # a piece belongs here: put one down
EXTRA = 6  # no piece belongs here: take it away
CHOICE = 7  # promotion: the current choice
OPTION = 8  # promotion: another choice
WIN = 9
LOSE = 10
DRAW = 11
CHECK = 12  # a royal piece under attack
NOTICE = 13  # an umpire's announcement
HINT = 14  # the engine's suggestion for the player (`hint`), until the next lift

CODES = ".dxflmrCoWLDknh"  # class -> letter (sim frame)

# (r, g, b) at full scale; the driver scales by brightness / 255.
PALETTE = (
    (0, 0, 0),
    (0, 90, 255),  # DEST blue
    (255, 40, 0),  # CAPTURE red-orange
    (255, 255, 255),  # FROM white
    (60, 60, 0),  # LAST dim yellow
    (0, 255, 0),  # MISSING green: put a piece here
    (255, 0, 0),  # EXTRA red: take it away
    (255, 0, 255),  # CHOICE magenta
    (40, 0, 40),  # OPTION dim magenta
    (0, 255, 0),  # WIN
    (255, 0, 0),  # LOSE
    (255, 160, 0),  # DRAW
    (255, 0, 0),  # CHECK
    (0, 200, 200),  # NOTICE cyan
    (140, 0, 255),  # HINT violet
)


N = 144
SERPENTINE = bytes(
    (p // 12) * 12 + (p % 12 if (p // 12) % 2 == 0 else 11 - p % 12) for p in range(N)
)  # physical square -> position in the LED chain (a1 first, rows alternate direction)

MA_PER_CHANNEL = 20  # a WS2812 channel at full scale
LED_BUDGET_MA = 2000  # the real board's 5 V 3 A supply: 2 A for the LEDs, the rest for the Pico
BRIGHTNESS_CAP = 96  # of 255, on the real board
IDLE_MA_PER_LED = 1  # a WS2812 lit or not


from array import array

from firmware.rules.compat import late

_WORDS = array("I", bytes(4 * len(PALETTE)))  # each class's word at the frame's scale
_SCALE = [-1]  # the scale _WORDS was made for
_SUMS = array("H", [c[0] + c[1] + c[2] for c in PALETTE])  # each class's r + g + b

# The per-LED loops, machine code on the chip (compat.compile_fn): a frame's 144 squares
# in Python cost the host's move some 4 ms before its first LED edge on the emulated Pico.
# Each is compiled at its first call (the first frame, after `hello`), which rebinds it;
# its source is held by the stand-in alone, and freed with it (stock MicroPython's heap).
weigh = late("""
def weigh(frame: ptr8, sums: ptr16) -> int:
    t = 0
    p = 0
    while p < 144:
        t += sums[frame[p]]
        p += 1
    return t
""", "weigh", "viper", globals())
fill = late("""
def fill(frame: ptr8, words: ptr32, order: ptr8, table: ptr32):
    p = 0
    while p < 144:
        words[order[p]] = table[frame[p]]
        p += 1
""", "fill", "viper", globals())


def encode(frame, brightness, words, budget_ma):
    """A frame of classes -> 24-bit GRB words (shifted left by 8, as the PIO program
    takes them) in LED-chain order.  brightness 0..255 scales the palette; if the frame
    would draw more than budget_ma, it is dimmed further to fit.  Returns the current
    the frame draws in mA (an estimate: 20 mA a channel at full scale)."""
    # Per class, not per LED: the palette scaled once (kept while the scale stays), then
    # one table lookup an LED (this runs between a lift and its first LED edge).
    total = weigh(frame, _SUMS)  # the frame's r + g + b at full scale
    ma = IDLE_MA_PER_LED * N + total * brightness * MA_PER_CHANNEL // (255 * 255)
    scale = brightness
    if ma > budget_ma and total:
        scale = (budget_ma - IDLE_MA_PER_LED * N) * 255 * 255 // (total * MA_PER_CHANNEL)
        ma = budget_ma
    table = _WORDS
    if scale != _SCALE[0]:
        for i in range(len(PALETTE)):
            c = PALETTE[i]
            r = c[0] * scale // 255
            g = c[1] * scale // 255
            b = c[2] * scale // 255
            table[i] = (g << 16 | r << 8 | b) << 8
        _SCALE[0] = scale
    fill(frame, words, SERPENTINE, table)
    return ma
