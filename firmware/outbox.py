"""Numbered board messages, and the recent ones kept for a host that reconnects."""

KEEP = 32  # messages kept in RAM; older moves are read back from the journal


class Outbox:
    """Gives every message the next sequence number, sends it, and keeps the last KEEP."""

    def __init__(self, write, first_seq=1):
        self.write = write  # write(line): the serial link's writer, bound once
        self.seq = first_seq - 1
        self.ring = [None] * KEEP  # the line numbered i in slot i % KEEP (no tuple: RAM)

    def send(self, text):
        """Number text, send it, keep it; returns its sequence number."""
        self.seq += 1
        line = "%d %s" % (self.seq, text)
        self.ring[self.seq % KEEP] = line
        self.write(line)
        return self.seq

    def kept_since(self, n):
        """The kept lines numbered above n, oldest first, and the lowest number kept."""
        out = []
        low = self.seq + 1
        for i in range(self.seq - KEEP + 1, self.seq + 1):
            line = self.ring[i % KEEP] if i > 0 else None
            if line is not None and line.startswith("%d " % i):
                low = min(low, i)
                if i > n:
                    out.append(line)
        return out, low
