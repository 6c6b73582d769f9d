"""A board that is not ours to trust: a protocol-speaking stand-in on a real pseudo-terminal,
as a player who controls their own board's serial port would run one.  It answers the
host's requests, says what the test makes it say (bytes included), refuses or stays silent
when told to, and drops off the link and comes back on the same path (a symlink, as a
/dev/ttyACM node goes and comes with the cable)."""

import os
import select
import threading
import tty

from host.link import PROTOCOL


class FakeBoard:
    def __init__(self, folder, name):
        self.name = name
        self.port = str(folder / name)
        self.seq = 0
        self.fen = "-"
        self.pending = False
        self.got = []  # every request line received
        self.script = {}  # request word -> replies to use first (text, or None: no reply)
        self.lock = threading.Lock()
        self.fds = None
        self.uid = "0e0e0e0e"
        self.back()

    # ---- the link ------------------------------------------------------------------------

    def back(self):
        """Plug in (again): a new pty behind the same path."""
        master, slave = os.openpty()
        tty.setraw(slave)
        if os.path.lexists(self.port):
            os.unlink(self.port)
        os.symlink(os.ttyname(slave), self.port)
        self.fds = (master, slave)
        self.reader = threading.Thread(target=self._run, args=(master,), daemon=True)
        self.reader.start()

    def drop(self):
        """Pull the cable: the port goes away."""
        fds, self.fds = self.fds, None
        if os.path.lexists(self.port):
            os.unlink(self.port)
        # The reader stops before its descriptor is closed: a number closed under its select
        # is the next file the test opens, and its read took that file's bytes.
        if threading.current_thread() is not self.reader:
            self.reader.join()
        for fd in fds or ():
            os.close(fd)

    def close(self):
        if self.fds:
            self.drop()

    def _run(self, master):
        buf = b""
        while self.fds and self.fds[0] == master:
            try:
                if not select.select([master], [], [], 0.05)[0]:
                    continue
                buf += os.read(master, 4096)
            except (OSError, ValueError):
                return
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                self._request(line.decode("ascii", "replace").strip())

    def raw(self, data):
        with self.lock:
            if self.fds:
                os.write(self.fds[0], data)

    def say(self, text):
        """One numbered message."""
        with self.lock:
            self.seq += 1
            data = b"%d " % self.seq + (text.encode() if isinstance(text, str) else text) + b"\n"
            if self.fds:
                os.write(self.fds[0], data)

    # ---- requests ------------------------------------------------------------------------

    def _request(self, line):
        w = line.split()
        if not w:
            return
        self.got.append(line)
        queued = self.script.get(w[0])
        if queued:
            reply = queued.pop(0)
        else:
            reply = self.answer(w)
        if reply is not None:
            self.say(reply)

    def answer(self, w):
        cmd, rest = w[0], " ".join(w[1:])
        if cmd == "version":
            return f"ok version {PROTOCOL} 0.1.0 fake {self.name} 1"  # (protocol 2 adds a boot number)
        if cmd == "ping":
            return "ok pong"
        if cmd == "state":
            return f"ok state chess idle 0 {self.fen}"
        if cmd == "game":  # (protocol 2 names the game by a uid: docs/protocol.md)
            return "ok game chess " + ("%s -" % self.uid if PROTOCOL >= 2 else "-")
        if cmd == "since":
            return f"ok since {w[1]} 0"
        if cmd == "history":
            return "ok history"
        if cmd == "krieg":
            self.fen, self.pending = " ".join(w[3:]), False
            return f"ok krieg {w[1]} {w[2]}"
        if cmd == "view":
            self.fen, self.pending = rest, False
            return "ok view"
        if cmd == "verdict":
            if not self.pending:
                return "error no-attempt no attempt is waiting for a verdict"
            self.pending = False
            if w[1] == "legal":
                self.fen = " ".join(w[2:])
            return "ok verdict " + w[1]
        if cmd == "announce":
            return "ok announce " + w[1]
        if cmd == "battle":
            return "ok battle " + w[1]
        return "error unknown-command " + cmd

    def newgame(self):
        """A new chess game from the start, said as this host's protocol says it."""
        self.say("newgame chess " + ("%s -" % self.uid if PROTOCOL >= 2 else "-"))

    def attempt(self, move):
        self.pending = True
        self.say("attempt " + move)
