"""A board's serial port on a POSIX host: one file descriptor, waited on with poll().

pyserial's Serial keeps five descriptors a port (the port and two pipes to cancel a read
or a write) and waits on them with select(), which cannot take a descriptor past 1023:
a host following a hall of boards ran out at about 145 boards (issue #35).  Port keeps
the port's own descriptor only, set up as pyserial sets it (raw, 8N1, DTR and RTS on,
the input flushed, an exclusive lock against a second program), and waits with poll(),
which takes any descriptor.  Its methods are the few of pyserial's the link and the
tests use: write, flush, read, in_waiting, close.
"""

from __future__ import annotations

import errno
import fcntl
import os
import select
import struct
import sys
import termios
import time

BAUD = termios.B115200  # a USB CDC board ignores it; a UART adapter needs it
POLL_BROKEN = sys.platform == "darwin"


class PortError(OSError):
    """The port cannot be opened or used; `why` is one of missing, busy, other."""

    def __init__(self, why: str, text: str) -> None:
        super().__init__(text)
        self.why = why


def _raw(fd: int) -> None:
    """Raw 8N1 at BAUD, reads that never block (poll() waits), as pyserial's open sets it."""
    iflag, oflag, cflag, lflag, _, _, cc = termios.tcgetattr(fd)
    iflag &= ~(termios.IGNBRK | termios.BRKINT | termios.PARMRK | termios.ISTRIP | termios.INLCR
               | termios.IGNCR | termios.ICRNL | termios.IXON | termios.IXOFF | termios.IXANY | termios.INPCK)
    oflag &= ~(termios.OPOST | termios.ONLCR | termios.OCRNL)
    lflag &= ~(termios.ECHO | termios.ECHONL | termios.ICANON | termios.ISIG | termios.IEXTEN)
    cflag &= ~(termios.CSIZE | termios.PARENB | termios.CSTOPB | getattr(termios, "CRTSCTS", 0))
    cflag |= termios.CS8 | termios.CREAD | termios.CLOCAL
    cc[termios.VMIN] = 0
    cc[termios.VTIME] = 0
    termios.tcsetattr(fd, termios.TCSANOW, [iflag, oflag, cflag, lflag, BAUD, BAUD, cc])


class Port:
    """One open serial port (a board on USB, or a pseudo-terminal's end)."""

    def __init__(self, path: str, timeout: float = 0.05) -> None:
        self.path = path
        self.timeout = timeout  # how long read() waits for its first byte, as pyserial's
        try:
            fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        except OSError as e:
            why = "missing" if e.errno in (errno.ENOENT, errno.ENODEV, errno.ENXIO) else "other"
            why = "busy" if e.errno == errno.EBUSY else why
            raise PortError(why, f"could not open port {path}: {e.strerror}") from None
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # pyserial's exclusive=True
            except OSError:
                raise PortError("busy", f"could not exclusively lock port {path}") from None
            try:
                _raw(fd)
            except termios.error as e:
                raise PortError("other", f"{path} is not a serial port ({e.args[-1]})") from None
            try:  # DTR and RTS on (a USB CDC board sends only to a host that set DTR)
                fcntl.ioctl(fd, termios.TIOCMBIS, struct.pack("I", termios.TIOCM_DTR | termios.TIOCM_RTS))
            except OSError as e:
                if e.errno not in (errno.EINVAL, errno.ENOTTY):  # (a pseudo-terminal has neither)
                    raise PortError("other", f"{path}: {e.strerror}") from None
            termios.tcflush(fd, termios.TCIFLUSH)
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd
        self._poll = select.poll()
        self._poll.register(fd, select.POLLIN)

    @property
    def is_open(self) -> bool:
        return self.fd >= 0

    def _check(self) -> int:
        if self.fd < 0:
            raise PortError("other", f"{self.path}: the port is closed")
        return self.fd

    def wait(self, timeout_s: float, events: int = select.POLLIN) -> bool:
        """Has the port something to read (or, with POLLOUT, room to write) within timeout_s?
        True on a hang-up or an error too: the read or write that follows says it."""
        fd = self._check()
        if POLL_BROKEN:  # (macOS's poll() refuses devices: select(), and its 1024 descriptors)
            r, w, _ = select.select([fd] if events == select.POLLIN else [], [fd] if events != select.POLLIN else [],
                                    [], max(0.0, timeout_s))
            return bool(r or w)
        if events != select.POLLIN:
            p = select.poll()
            p.register(fd, events)
            return bool(p.poll(max(0, int(timeout_s * 1000))))
        return bool(self._poll.poll(max(0, int(timeout_s * 1000))))

    @property
    def in_waiting(self) -> int:
        """Bytes that arrived and are not read yet."""
        buf = fcntl.ioctl(self._check(), termios.FIONREAD, b"\0\0\0\0")
        return int(struct.unpack("I", buf)[0])

    def read(self, n: int = 1) -> bytes:
        """Up to n bytes: what has arrived, else what arrives within the timeout (b"" if
        nothing does).  OSError when the port is gone (a cable pulled)."""
        fd = self._check()
        if not self.in_waiting and not self.wait(self.timeout):
            return b""
        try:
            data = os.read(fd, n)
        except BlockingIOError:
            return b""
        if not data:  # readable and empty: the other end hung up
            raise PortError("other", f"{self.path}: device disconnected or multiple access on port?")
        return data

    def write(self, data: bytes) -> int:
        """All of data, waiting (up to 10 s) while the port's buffer is full."""
        fd = self._check()
        view = memoryview(data)
        deadline = time.monotonic() + 10.0
        while view:
            try:
                n = os.write(fd, view)
            except BlockingIOError:
                n = 0
            view = view[n:]
            if view and not self.wait(deadline - time.monotonic(), select.POLLOUT):
                raise PortError("other", f"{self.path}: write timeout")
        return len(data)

    def flush(self) -> None:
        """Wait until everything written has been sent."""
        try:
            termios.tcdrain(self._check())
        except termios.error:
            pass  # (a pseudo-terminal's other end may be gone)

    def close(self) -> None:
        if self.fd >= 0:
            fd, self.fd = self.fd, -1
            os.close(fd)  # (the lock goes with it)

    def __enter__(self) -> Port:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
