"""The Pico's flash below the file system, in RAM, for firmware/ring.py: rp2.Flash's
interface (writeblocks with an offset programs without erasing, ioctl 6 erases a block) and
NOR flash's physics (a program only clears bits; an erase sets a whole 4 KB sector to 0xFF).
The power can be cut inside the K-th erase or program: part of it done, then PowerCut."""

from boards.sim import Hardware

SECTOR = 4096


class PowerCut(BaseException):
    """The power failed: nothing after this runs (not an OSError: no code may catch it)."""


class RingFlash:
    def __init__(self, sectors, rng=None, fill=0xFF):
        self.data = bytearray(sectors * SECTOR)
        self.mem = memoryview(self.data)
        self.reset(rng, fill)

    def reset(self, rng=None, fill=0xFF):
        """As new (the same bytes reused: a heap of many would be in pieces).  fill: the
        bytes it holds at first (not 0xFF: each sector needs an erase before its first
        use, as the flash below a file system after an older firmware may)."""
        block = bytes((fill,)) * SECTOR
        for a in range(0, len(self.data), SECTOR):
            self.data[a : a + SECTOR] = block
        self.ops = 0  # erases and programs so far
        self.erases = 0
        self.programs = 0
        self.cut_at = 0  # cut the power inside this op (0: never)
        self.rng = rng  # how much of the cut op gets done: rng.below(n)
        self.stuck = None  # (address, mask): bits that never clear (a worn cell)

    def _cut(self, n):
        self.ops += 1
        if self.ops != self.cut_at:
            return n
        return self.rng.below(n + 1) if self.rng else n // 2

    def readblocks(self, block, buf, offset=0):
        a = block * SECTOR + offset
        buf[:] = self.data[a : a + len(buf)]

    def writeblocks(self, block, buf, offset=None):
        if offset is None:
            self.ioctl(6, block)
            offset = 0
        a = block * SECTOR + offset
        assert a % 256 == 0 and len(buf) % 256 == 0, "a program of whole pages (%d, %d)" % (a, len(buf))
        self.programs += 1
        done = self._cut(len(buf))
        for i in range(done):
            self.data[a + i] &= buf[i]
        if self.stuck is not None:
            at, mask = self.stuck
            if a <= at < a + len(buf):
                self.data[at] |= mask
        if done < len(buf):
            raise PowerCut()

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // SECTOR
        if op == 5:
            return SECTOR
        if op == 6:
            self.erases += 1
            a = arg * SECTOR
            done = self._cut(SECTOR)
            for i in range(a, a + done):
                self.data[i] = 0xFF
            if done < SECTOR:
                raise PowerCut()
        return 0


class RingHardware(Hardware):
    """The virtual board, its journal in a RingFlash."""

    def __init__(self, flash, path):
        Hardware.__init__(self, journal_path=path)
        self.flash = flash

    def make_journal(self, path):
        from firmware.ring import RingJournal

        return RingJournal(self.flash, self.flash.mem, path)
