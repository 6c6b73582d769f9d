"""A damaged or torn journal file (firmware/journal.py's Journal): the verdict on it, and
setting it aside.  Rare (a power cut in an append, a damaged flash), so its own module,
loaded for it and dropped after (firmware/power_up.py): on stock MicroPython a module's
bytecode takes heap, and this would take it all game long."""

import os
import struct


def verdict(journal, count, max_record):
    """Journal.verdict for a journal whose records() met a bad record (journal.bad: its
    byte and what was wrong): a torn last record is cut off (None), else a line saying
    what is wrong (the file is left as it is)."""
    at, why = journal.bad
    try:
        total = os.stat(journal.path)[6]
    except OSError:
        total = at
    # A torn append leaves a prefix of one record: nothing can follow it.
    n = max_record
    if why != "a short length" and why[:9] != "a record ":
        with open(journal.path, "rb") as f:
            f.seek(at)
            (n,) = struct.unpack("<H", f.read(2))
    if why == "a short length" or why == "a short record" or (why == "a bad checksum" and at + n + 6 == total):
        try:
            journal._cut(at)
        except OSError:
            pass  # a full flash: the torn bytes stay, the records before them are good
        journal.size = at
        return None
    return "%s after %d good records (byte %d of %d)" % (why, count, at, total)


def set_aside(journal):
    """Journal.set_aside: rename the journal to <path>.bad; the board starts a new one."""
    path = journal.path
    aside = path + ".bad"
    try:
        os.remove(aside)
    except OSError:
        pass
    try:
        os.rename(path, aside)
    except OSError:
        try:
            os.remove(path)
        except OSError:
            pass
    journal.size = 0
    return aside
