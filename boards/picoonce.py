"""The Pico's code that runs once (boards/pico.py): the journal made at power-up, the
self-test's line check, the REPL's idle reset.  Loaded for it and dropped after: on stock
MicroPython a module's bytecode takes heap, and this would take it all game long."""

import os
from time import sleep_us

import rp2
from machine import Pin


def _journal_folder(path):
    try:
        os.stat(path)
        return  # every power-up but the first: one lookup
    except OSError:
        pass
    try:
        os.mkdir(path[: path.rfind("/")])
    except OSError:
        pass  # there already
    try:
        os.rename("journal.bin", path)  # the journal of a board flashed before the folder
    except OSError:
        pass


def make_journal(path):
    """pico.Hardware.make_journal: the journal in the flash ring below the file system (the
    image's layout, its _boot.py), else in a file (stock MicroPython's file system fills
    the flash).  Its folder made first (the first power-up after flashing)."""
    _journal_folder(path)
    from firmware.journal import Journal

    st = os.statvfs("/")
    ring = rp2.Flash().ioctl(4, 0) * 4096 - st[1] * st[2]
    if ring <= 0:
        return Journal(path)
    from firmware.ring import RingJournal

    dev = rp2.Flash(start=0, len=ring)
    journal = RingJournal(dev, memoryview(dev), path)
    try:
        os.stat(path)
    except OSError:
        return journal
    # A journal file: written by a firmware without the ring (stock MicroPython, an
    # earlier image) since the ring was last used, so the newer game.  It goes on in the
    # ring, then the file goes (a power cut between: the same again at the next power-up).
    try:
        journal.rewrite(Journal(path).records())
    except OSError:
        return Journal(path)  # a file too long for the ring: it stays the journal
    for name in (path, path + ".room"):
        try:
            os.remove(name)
        except OSError:
            pass
    return journal


def probe(matrix, echo):
    """pico.Matrix.probe, the self-test's line check (firmware/selftest.py): echo[i] is the
    mask of the 24 lines (bit i < 12: row i, bit 12 + c: column c) that read high while
    line i alone is driven high; echo[24] with none driven.  A pad reads its level even
    while it drives, so a row held low by a short reads low however it is driven."""
    rows = matrix.rows
    cols = matrix.cols
    lines = rows + cols
    for i in range(25):
        if i < 12:
            rows[i].value(1)
        elif i < 24:  # a column driven for 20 us: its diodes block it from the rows
            cols[i - 12].init(Pin.OUT, value=1)
        sleep_us(20)
        bits = 0
        for j in range(24):
            if lines[j].value():
                bits |= 1 << j
        echo[i] = bits
        if i < 12:
            rows[i].value(0)
        elif i < 24:
            cols[i - 12].init(Pin.IN, Pin.PULL_DOWN)


def idle_reset(idle_s):
    """pico.Hardware.idle_reset, after the `repl` request: a timer (returned) that resets the
    board (a power-up: the game goes on from its journal) once the REPL has stood idle for
    idle_s seconds, so that a REPL nobody uses gives the board back to play by itself.  The
    REPL runs nothing while it waits for a byte, so idle is a heap that has not changed
    (every line it runs, a person's or mpremote's, allocates).  A soft reset (mpremote's
    first connection) ends the countdown with every timer: the REPL is then mpremote's
    until its reset."""
    import gc

    from machine import Timer, reset

    seen = [gc.mem_alloc(), 0]

    def check(_):
        alloc = gc.mem_alloc()
        if alloc != seen[0]:
            seen[0] = alloc
            seen[1] = 0
            return
        seen[1] += 1
        if seen[1] >= idle_s:
            reset()

    return Timer(period=1000, callback=check)
