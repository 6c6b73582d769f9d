"""The game, journaled to flash after every move, so a power cut loses nothing.

A journal is a file of records: a 2-byte length, the record's text, and its CRC-32.  A
record torn by a power cut (short, or with a bad CRC) ends the journal: it and anything
after it are dropped, and the file is cut back to the last good record.

Records (text):  N <game> <fen>        a new game (or "-" for the start position)
                 B <seq>               the pieces stood ready: the game began
                 M <seq> <move>        a move, with the sequence number of its message
                 U <seq> <move>        the last move taken back
                 C <seq> <claim>       a lippo claim (perpetual, declare, demand)
                 P <seq> <fen>         the host set a position
                 S <seq>               sequence numbers up to here may have been used
"""

import os
import struct

try:
    from binascii import crc32
except ImportError:  # pragma: no cover - every port we use has it
    from zlib import crc32


class JournalFull(OSError):
    """The flash has no room for another record."""


class Journal:
    """Append-only records in one file; rewritten whole only for a new game."""

    def __init__(self, path):
        self.path = path
        self.size = 0  # bytes of good records

    def load(self):
        """The good records (a list of str); cuts a torn tail off the file."""
        out = []
        good = 0
        try:
            f = open(self.path, "rb")
        except OSError:
            self.size = 0
            return out
        with f:
            data = f.read()
        i = 0
        while i + 2 <= len(data):
            (n,) = struct.unpack("<H", data[i : i + 2])
            end = i + 2 + n + 4
            if end > len(data):
                break
            body = data[i + 2 : i + 2 + n]
            (crc,) = struct.unpack("<I", data[i + 2 + n : end])
            if crc32(body) & 0xFFFFFFFF != crc:
                break
            try:
                out.append(body.decode())
            except UnicodeError:
                break
            i = end
            good = end
        if good != len(data):
            self._cut(data[:good])
        self.size = good
        return out

    def _cut(self, data):
        with open(self.path, "wb") as f:
            f.write(data)

    def append(self, text):
        """Add one record; JournalFull if the flash is full (the file is left as it was)."""
        rec = _record(text)
        try:
            with open(self.path, "ab") as f:
                f.write(rec)
        except OSError as e:
            self._restore()
            if e.args and e.args[0] == 28:  # ENOSPC
                raise JournalFull(28, "flash full")
            raise
        self.size += len(rec)

    def _restore(self):
        # A failed append may leave a partial record: cut it off again.
        try:
            with open(self.path, "rb") as f:
                data = f.read(self.size)
            self._cut(data)
        except OSError:
            pass

    def rewrite(self, texts):
        """Replace the journal by these records, atomically (a new file, then a rename)."""
        tmp = self.path + ".new"
        data = b"".join(_record(t) for t in texts)
        try:
            with open(tmp, "wb") as f:
                f.write(data)
        except OSError as e:
            try:
                os.remove(tmp)
            except OSError:
                pass
            if e.args and e.args[0] == 28:
                raise JournalFull(28, "flash full")
            raise
        os.rename(tmp, self.path)
        self.size = len(data)


def _record(text):
    body = text.encode()
    return struct.pack("<H", len(body)) + body + struct.pack("<I", crc32(body) & 0xFFFFFFFF)
