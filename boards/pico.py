# ruff: noqa: F821  (the PIO assembler's names exist inside @rp2.asm_pio only)
"""The real board: a Raspberry Pi Pico (RP2040).  The only code that imports `machine`.

Wiring (boards/README.md): 12 row outputs, 12 column inputs with pull-downs, a diode per
reed switch (anode on the row); 144 WS2812 LEDs in serpentine order on one pin, fed by
PIO and DMA so that writing a frame does not hold up the scan.

Not yet run on hardware: checked by mpy-cross, and its pure parts (firmware/leds.py's
encode, the scan arithmetic) by the tests.
"""

from array import array
from time import sleep_us, ticks_ms

import rp2
from machine import WDT, Pin, mem32

from firmware import drop_module, leds

COL_PINS = tuple(range(0, 12))  # GP0-GP11: read together from one register
ROW_PINS = (12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 26)  # GP12-GP22, GP26
LED_PIN = 27  # GP27 -> 330 ohm -> DIN of the first LED (a1)
SIO_GPIO_IN = 0xD0000004
WATCHDOG_CTRL = 0x40058000
WATCHDOG_ENABLE = 1 << 30
ATOMIC_CLEAR = 0x3000  # an RP2040 register's alias that clears the bits written
COL_MASK = 0xFFF


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True, pull_thresh=24)
def _ws2812():
    # 1.25 us a bit at 8 MHz: 2 cycles high, then 5 high for a one or low for a zero, 3 low.
    wrap_target()
    label("bitloop")
    out(x, 1).side(0)[2]
    jmp(not_x, "do_zero").side(1)[1]
    jmp("bitloop").side(1)[4]
    label("do_zero")
    nop().side(0)[4]
    wrap()


class Matrix:
    """Rows driven high one at a time; the 12 columns read in one register access."""

    def __init__(self, row_pins=ROW_PINS, col_pins=COL_PINS):
        self.rows = [Pin(p, Pin.OUT, value=0) for p in row_pins]
        self.cols = [Pin(p, Pin.IN, Pin.PULL_DOWN) for p in col_pins]
        self.shift = col_pins[0]

    def scan(self, rows):
        shift = self.shift
        for r in range(12):
            pin = self.rows[r]
            pin.value(1)
            sleep_us(5)  # the column lines settle through the pull-downs
            rows[r] = (mem32[SIO_GPIO_IN] >> shift) & COL_MASK
            pin.value(0)

    def probe(self, echo):
        """The self-test's line check (firmware/selftest.py): boards/picoonce.py's."""
        _once("probe", self, echo)


class Leds:
    """144 WS2812s on one pin: PIO makes the waveform, DMA feeds it the frame."""

    def __init__(self, pin=LED_PIN, n=144):
        self.sm = rp2.StateMachine(0, _ws2812, freq=8_000_000, sideset_base=Pin(pin))
        self.sm.active(1)
        self.words = array("I", bytes(4 * n))
        self.dma = rp2.DMA()
        # 32-bit words from memory to state machine 0 of PIO 0's TX FIFO, paced by its DREQ.
        self.ctrl = self.dma.pack_ctrl(size=2, inc_write=False, treq_sel=0)
        self.ma = 0

    def show(self, frame, brightness):
        if self.dma.active():
            return False  # the previous frame is still going out; the next scan retries
        self.ma = leds.encode(frame, min(brightness, leds.BRIGHTNESS_CAP), self.words, leds.LED_BUDGET_MA)
        self.dma.config(read=self.words, write=self.sm, count=len(self.words), ctrl=self.ctrl, trigger=True)


class Clock:
    def now(self):
        return ticks_ms()


def _once(name, *args):
    # Code a power-up or the self-test runs once (boards/picoonce.py), loaded for it and
    # dropped after: on stock MicroPython a module's bytecode takes heap all game long.
    from boards import picoonce

    try:
        return getattr(picoonce, name)(*args)
    finally:
        drop_module("boards", "picoonce")


class Hardware:
    name = "pico"
    is_sim = False
    realtime = True
    default_brightness = 48
    scan_ms = 5  # a lift is seen 0-5 ms after it happens, then held LIFT_SETTLE_MS
    # The journal has a folder of its own: each append commits to its folder's littlefs
    # log, which every path lookup in that folder reads through until littlefs compacts
    # it.  In the root, every power-up's append made every later lookup from the root
    # slower (on stock MicroPython, every module the firmware imports: some 10 ms a boot).
    journal_path = "data/journal.bin"

    def __init__(self):
        self.matrix = Matrix()
        self.leds = Leds()
        self.clock = Clock()
        self.wdt = WDT(timeout=4000)  # a hung loop reboots the board; the journal resumes it

    def make_journal(self, path):
        """The journal in the flash ring below the file system (the image's layout, its
        _boot.py), else in a file (stock MicroPython's file system fills the flash)."""
        return _once("make_journal", path)

    def feed_watchdog(self):
        self.wdt.feed()

    def release_watchdog(self):
        """Stop the watchdog (MicroPython's WDT cannot be stopped; its CTRL register can):
        for the REPL after Ctrl-C, so that mpremote is not cut off by a reset."""
        mem32[WATCHDOG_CTRL | ATOMIC_CLEAR] = WATCHDOG_ENABLE

    def idle_reset(self, idle_s):
        """After the `repl` request: reset the board once the REPL has stood idle for
        idle_s seconds (boards/picoonce.py)."""
        self.repl_timer = _once("idle_reset", idle_s)

    def tick(self, board, now_ms):
        pass

    def board_id(self):
        from binascii import hexlify
        from machine import unique_id

        return "pico-" + hexlify(unique_id()).decode()
