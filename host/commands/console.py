"""Lines a person types (or pastes) at the host's commands, read without blocking.

select() on a file descriptor and then a buffered readline() loses sight of lines pasted
together: the first readline() pulls them all into Python's buffer, select() then says
nothing is waiting, and they wait for the next key press.  LineInput reads the descriptor
itself and hands out every whole line it holds.
"""

from __future__ import annotations

import io
import os
import select
from typing import TextIO


class LineInput:
    """Whole lines from a terminal, a pipe or a file (a StringIO: a line per call)."""

    def __init__(self, f: TextIO) -> None:
        self.f = f
        self.buf = b""
        self.eof = False
        try:
            self.fd: int | None = f.fileno()
        except (AttributeError, OSError, io.UnsupportedOperation):
            self.fd = None

    def lines(self, wait_s: float) -> list[str] | None:
        """The whole lines there are now, waiting up to wait_s for one; None once the input
        has ended and every line was handed out."""
        if self.fd is None:
            line = self.f.readline()
            return [line.rstrip("\r\n")] if line else None
        if b"\n" not in self.buf and not self.eof and select.select([self.fd], [], [], wait_s)[0]:
            chunk = os.read(self.fd, 65536)
            if chunk:
                self.buf += chunk
            else:
                self.eof = True
        *whole, self.buf = self.buf.split(b"\n")
        if self.eof and self.buf:  # a last line without its newline
            whole.append(self.buf)
            self.buf = b""
        if self.eof and not whole:
            return None
        return [w.decode("utf-8", "replace").rstrip("\r") for w in whole]
