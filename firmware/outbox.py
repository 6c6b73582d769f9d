"""Numbered board messages, and the recent ones kept for a host that reconnects."""

from array import array

KEEP = 32  # messages kept in RAM at most; older moves are read back from the journal
ROOM = 768  # bytes for them: the last messages that fit (one string object each took 48)


class Outbox:
    """Gives every message the next sequence number, sends it, and keeps the last ones:
    up to KEEP, as many as ROOM bytes hold, newest first, without a gap."""

    def __init__(self, write, first_seq=1):
        self.write = write  # write(line): the serial link's writer, bound once
        self.seq = first_seq - 1
        self.kept = bytearray(ROOM)  # the kept lines back to back, oldest first
        self.ends = array("H", bytes(2 * KEEP))  # where each kept line ends in kept
        self.n = 0  # lines kept

    def send(self, text):
        """Number text, send it, keep it; returns its sequence number."""
        self.seq += 1
        line = "%d %s" % (self.seq, text)
        self._keep(line.encode())
        self.write(line)
        return self.seq

    def _keep(self, data):
        ends = self.ends
        n = self.n
        used = ends[n - 1] if n else 0
        size = len(data)
        drop = 0  # the oldest lines make room; a line too long for it clears them all
        while drop < n:
            if used - (ends[drop - 1] if drop else 0) + size <= ROOM and n - drop < KEEP:
                break
            drop += 1
        if size > ROOM:
            self.n = 0
            return
        if drop:
            cut = ends[drop - 1]
            used -= cut
            view = memoryview(self.kept)
            view[0:used] = view[cut : cut + used]  # overlapping: MicroPython moves it whole
            for i in range(n - drop):
                ends[i] = ends[i + drop] - cut
            n -= drop
        self.kept[used : used + size] = data
        ends[n] = used + size
        self.n = n + 1

    def kept_since(self, n):
        """The kept lines numbered above n, oldest first, and the lowest number kept."""
        out = []
        start = 0
        low = self.seq + 1 - self.n
        for i in range(self.n):
            end = self.ends[i]
            if low + i > n:
                out.append(bytes(self.kept[start:end]).decode())
            start = end
        return out, low
