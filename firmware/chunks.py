"""A chunk of the link's bytes at once, for firmware/main.py's LineReader: our image's way
(eboardio.take reads every waiting byte in one call).  Its own module, loaded only then:
stock MicroPython reads the link a byte at a time (LineReader.put), and this bytecode would
take its heap for nothing."""

from firmware.terms import MAX_LINE


def feed(reader, data, on_line):
    """A chunk of bytes (bytes) into reader (a LineReader), as its put() takes them one by
    one, its lines found and its junk dropped by bytes' own methods (C), not a byte at a
    time; True when a line's on_line stopped the board for the REPL (the rest of the chunk
    is the REPL's: dropped)."""
    start = 0
    end = len(data)
    while start < end:
        nl = data.find(b"\n", start)
        stop = end if nl < 0 else nl
        if stop > start and not reader.overflow:
            part = data[start:stop]
            if b"\r" in part or b"\x03" in part:
                part = part.replace(b"\r", b"").replace(b"\x03", b"")
            if len(reader.line) + len(part) > MAX_LINE:
                reader.too_long()
            else:
                reader.line.extend(part)
        if nl < 0:
            return False
        if reader.end(on_line):
            return True
        start = nl + 1
    return False
