"""The journal in a raw flash ring (the Pico image): a move's record never waits for an erase.

littlefs is copy-on-write: an append past a file's inline size (512 B) copies the file's last
block into a freshly erased 4 KB sector, some 45 ms with the core stalled, the scan with it.
Here the records go into sectors erased beforehand, while the board stands idle (idle()), so
a move's record costs a page program (under 1 ms).  Same records and same interface as
journal.Journal; boards/pico.py picks this one where the image keeps a ring below the file
system (boards/pico-image/_boot.py).

The ring is N sectors of 4096 bytes.  Each used sector begins with a 16-byte head:
    b"EJ", its index in its generation (u16), the generation (u32), CRC-32 of those 8 bytes,
    and a commit word (u32): 0xFFFFFFFF as erased, 0 once its generation is whole (index 0)
then records back to back (u16 length, text, CRC-32); a length of 0xFFFF ends the sector.
A generation is the whole journal: rewrite() writes a new one after the old and commits it
last, so a power cut inside a rewrite leaves the old one; append() adds to the newest
committed one, whose sectors follow its first in ring order with indexes 1, 2, ....
Sectors outside it are free: erased when first needed, or earlier in idle time.

A power cut inside a program leaves a torn record at the end of its sector.  That sector
takes no more records (a torn length can hide bytes already programmed after it): the next
append begins the next sector, and a reader skips from a torn record to the next sector.
Every program is read back: a record that did not land is written again in a fresh sector.
A bad record with bytes after it in its sector is damage: records() stops there (self.bad)
and the board sets the journal aside (a copy in a file) and begins anew.
"""

import struct

from firmware.journal import MAX_RECORD, Journal, JournalFull, crc32, record

SECTOR = 4096
PAGE = 256
HEAD = 16
COMMITTED = b"\x00\x00\x00\x00"
ERASED = b"\xff" * PAGE


class RingJournal(Journal):
    def __init__(self, dev, mem, path):
        """dev: the ring's block device (rp2.Flash: readblocks, writeblocks with an offset:
        a program without erase, ioctl 6: erase a block); mem: its bytes, read directly
        (a memoryview of the flash's XIP window); path: a file name for set_aside()."""
        Journal.__init__(self, path)
        self.dev = dev
        self.mem = mem
        self.n = len(mem) // SECTOR
        # Free sectors held back from moves: one for a full flash's F record (free_room()
        # gives it), one for a new game's first sector (rewrite() may take every one).
        self.reserve = 2
        self.clean = -1  # a free sector known erased (idle() found or made it so)
        self._find()

    # ---- the ring as found at power-up ------------------------------------------------

    def _head(self, s):
        # (index, generation, committed) of sector s, or None if it has no valid head.
        mem = self.mem
        a = s * SECTOR
        if mem[a] != 0x45 or mem[a + 1] != 0x4A:
            return None
        (crc,) = struct.unpack_from("<I", mem, a + 8)
        if crc32(mem[a : a + 8]) & 0xFFFFFFFF != crc:
            return None
        index, gen = struct.unpack_from("<HI", mem, a + 2)
        return index, gen, bytes(mem[a + 12 : a + 16]) == COMMITTED

    def _find(self):
        # The newest committed generation: its sectors, and where its last one ends.
        heads = [self._head(s) for s in range(self.n)]
        self.top = 0  # the highest generation seen: the next one is above it
        first = -1
        for s in range(self.n):
            h = heads[s]
            if h is None:
                continue
            if h[1] > self.top:
                self.top = h[1]
            if h[0] == 0 and h[2] and (first < 0 or h[1] > heads[first][1]):
                first = s
        self.sectors = []
        self.tail = None  # where the next record goes in the last sector (None: a new sector)
        if first < 0:
            self.gen = 0
            return
        self.gen = gen = heads[first][1]
        for k in range(self.n):
            h = heads[(first + k) % self.n]
            if h is None or h[1] != gen or h[0] != k:
                break
            self.sectors.append((first + k) % self.n)
        # The last sector's end: after its last good record, if nothing follows that.
        base = self.sectors[-1] * SECTOR
        buf = bytes(self.mem[base : base + SECTOR])
        o = HEAD
        while o + 2 <= SECTOR:
            (n,) = struct.unpack_from("<H", buf, o)
            if n == 0xFFFF:
                if self._erased(base + o, base + SECTOR):
                    self.tail = o
                break
            if _bad(buf, o, n) is not None:
                break
            o += n + 6

    def _erased(self, a, b):
        # Bytes a to b all 0xFF, compared a page at a time in C (min() over a sector, byte
        # by byte in the interpreter's loop, stalled the chip some 200 ms).
        mem = self.mem
        while a < b:
            n = b - a if b - a < PAGE else PAGE
            if bytes(mem[a : a + n]) != (ERASED if n == PAGE else ERASED[:n]):
                return False
            a += n
        return True

    # ---- reading ------------------------------------------------------------------------

    def records(self, at=0):
        """Yields the text of each good record from byte at on (at: a position self.end
        gave, k * 4096 + the offset in the generation's k-th sector).  A torn record ends
        its sector; a bad record with more after it stops the reading: self.bad is then
        (position, why)."""
        self.end = at
        self.bad = None
        sectors = self.sectors  # rewrite() makes a new list: a reader keeps its generation
        mem = self.mem
        k = at // SECTOR
        o = at % SECTOR
        while k < len(sectors):
            base = sectors[k] * SECTOR
            # The sector copied out whole (a read of the flash a record, through the
            # interpreter, cost a long game's power-up more than the 4 KB copy).
            buf = bytes(mem[base : base + SECTOR])
            if o < HEAD:
                o = HEAD
            while o + 2 <= SECTOR:
                (n,) = struct.unpack_from("<H", buf, o)
                if n == 0xFFFF:
                    break
                why = _bad(buf, o, n)
                if why is not None:
                    # Torn (a power cut inside its program) if nothing was written after it.
                    after = o + 6 + n if n <= MAX_RECORD and o + 6 + n <= SECTOR else o + 2
                    if not self._erased(base + after, base + SECTOR):
                        self.bad = (k * SECTOR + o, why)
                        return
                    break
                body = buf[o + 2 : o + 2 + n]
                o += n + 6
                self.end = k * SECTOR + o
                yield body.decode()
            k += 1
            o = 0

    def verdict(self, count):
        self.size = self.end
        if self.bad is None:
            return None
        at, why = self.bad
        return "%s after %d good records (sector %d, byte %d)" % (why, count, at // SECTOR, at % SECTOR)

    # ---- writing ------------------------------------------------------------------------

    def _program(self, a, data):
        # Program data at byte a of the ring, whole pages (the flash programs pages; a
        # page's other bytes are written as they stand, which changes nothing), then read
        # it back: False if it did not land.
        p = a - a % PAGE
        q = a + len(data)
        q += -q % PAGE
        buf = bytearray(self.mem[p:q])
        buf[a - p : a - p + len(data)] = data
        self.dev.writeblocks(p // SECTOR, buf, p % SECTOR)
        return bytes(self.mem[a : a + len(data)]) == data

    def _prepare(self, s):
        # Sector s, free, made ready to take a head: erased unless it is already.
        if s != self.clean and not self._erased(s * SECTOR, (s + 1) * SECTOR):
            self.dev.ioctl(6, s)
        self.clean = -1

    def _open(self, s, index, gen, commit):
        # Begin sector s as the index-th of generation gen.
        self._prepare(s)
        head = b"EJ" + struct.pack("<HI", index, gen)
        head += struct.pack("<I", crc32(head) & 0xFFFFFFFF) + (COMMITTED if commit else b"\xff\xff\xff\xff")
        if not self._program(s * SECTOR, head):
            raise OSError(5, "the journal's flash did not take a sector's head")

    def _next(self, used, k, spare):
        # The sector after used sectors of a generation beginning at sector k, if it is
        # free: the generation being replaced keeps its own; spare sectors stay free.
        if used + len(self.sectors) + spare >= self.n:
            raise JournalFull(28, "flash full")
        return (k + used) % self.n

    def append(self, text):
        """Add one record; JournalFull if the ring has no room for it."""
        rec = record(text)
        spare = self.reserve
        for _ in range(2):
            if not self.sectors:
                s = self._free_start()
                if self.n <= spare:
                    raise JournalFull(28, "flash full")
                self.top += 1
                self._open(s, 0, self.top, True)
                self.gen = self.top
                self.sectors = [s]
                self.tail = HEAD
            elif self.tail is None or self.tail + len(rec) > SECTOR:
                s = self._next(0, (self.sectors[-1] + 1) % self.n, spare)
                self._open(s, len(self.sectors), self.gen, False)
                self.sectors = self.sectors + [s]
                self.tail = HEAD
            ok = self._program(self.sectors[-1] * SECTOR + self.tail, rec)
            if ok:
                self.tail += len(rec)
                self.size = (len(self.sectors) - 1) * SECTOR + self.tail
                return
            self.tail = None  # that sector takes no more: once more in a fresh one
        raise OSError(5, "the journal's flash did not take a record")

    def _free_start(self):
        # Where a generation begins when there is none to follow: after the newest one seen.
        return 0 if self.clean < 0 else self.clean

    def rewrite(self, texts):
        """Replace the journal by these records (which may be read from this very journal)
        as a new generation after the current one, committed when whole."""
        start = (self.sectors[-1] + 1) % self.n if self.sectors else self._free_start()
        gen = self.top + 1
        new = []
        tail = 0
        for t in texts:
            rec = record(t)
            for _ in range(2):
                if not new or tail + len(rec) > SECTOR:
                    s = self._next(len(new), start, 0)
                    self.top = gen
                    self._open(s, len(new), gen, False)
                    new.append(s)
                    tail = HEAD
                if self._program(new[-1] * SECTOR + tail, rec):
                    tail += len(rec)
                    break
                tail = SECTOR
            else:
                raise OSError(5, "the journal's flash did not take a record")
        if not new:
            s = self._next(0, start, 0)
            self.top = gen
            self._open(s, 0, gen, False)
            new.append(s)
            tail = HEAD
        if not self._program(new[0] * SECTOR + 12, COMMITTED):
            raise OSError(5, "the journal's flash did not take a commit")
        self.sectors = new
        self.gen = gen
        self.tail = tail if tail < SECTOR else None
        self.size = (len(new) - 1) * SECTOR + tail

    def idle(self):
        """Erase the sector the next append will need, if it is not erased yet: called with
        the board idle (an erase stalls the chip some 45 ms).  True if it erased one."""
        if not self.sectors or len(self.sectors) + 1 >= self.n:
            return False
        s = (self.sectors[-1] + 1) % self.n
        if s == self.clean:
            return False
        erased = self._erased(s * SECTOR, (s + 1) * SECTOR)
        if not erased:
            self.dev.ioctl(6, s)
        self.clean = s
        return not erased

    def set_aside(self):
        """Copy the generation (a damaged one) to <path>.bad, for a person to look at, and
        begin an empty journal."""
        aside = self.path + ".bad"
        try:
            with open(aside, "wb") as f:
                for s in self.sectors:
                    for a in range(s * SECTOR, (s + 1) * SECTOR, 512):
                        f.write(self.mem[a : a + 512])
        except OSError:
            pass  # a full file system: the ring's copy is what there is
        self.sectors = []
        self.tail = None
        self.size = 0
        return aside

    def keep_room(self):
        self.reserve = 2

    def free_room(self):
        self.reserve = 1


def _bad(buf, o, n):
    # Why the record at byte o of a sector's bytes, of length n, is bad (None: it is good).
    if n > MAX_RECORD:
        return "a record of %d bytes" % n
    if o + n + 6 > SECTOR:
        return "a record past its sector's end"
    body = buf[o + 2 : o + 2 + n]
    (crc,) = struct.unpack_from("<I", buf, o + 2 + n)
    if crc32(body) & 0xFFFFFFFF != crc:
        return "a bad checksum"
    if n and (min(body) < 32 or max(body) > 126):
        return "a record that is not text"
    return None
