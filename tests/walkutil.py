"""The walking tests' terminal: the installed `eboard` typed into a real pseudo-terminal
(pexpect), with the archive and the home of a fresh person (EBOARD_DATA, HOME in tmp)."""

import io
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

EBOARD = shutil.which("eboard", path=str(Path(sys.executable).parent)) or "eboard"
GUARD_S = 120  # a guard only: a step that takes this long is a hang, never a slow machine


def person(tmp_path):
    """The environment of a new user: their own home and archive, a plain terminal."""
    home = tmp_path / "home"
    data = tmp_path / "data"
    home.mkdir(exist_ok=True)
    data.mkdir(exist_ok=True)
    env = dict(os.environ, HOME=str(home), EBOARD_DATA=str(data), TERM="xterm", COLUMNS="120", LINES="40")
    env.pop("NO_COLOR", None)
    return env


def spawn(args, tmp_path, cwd=None):
    """`eboard ARGS...` typed at a shell, in a terminal of 120 x 40."""
    import pexpect

    return pexpect.spawn(EBOARD, list(args), env=person(tmp_path), cwd=str(cwd or tmp_path), encoding="utf-8",
                         timeout=GUARD_S, dimensions=(40, 120))


ROWS, COLS = 40, 120
PROMPT = r"\n> "  # play's prompt, at the start of a line
# What a terminal may be sent: clear and home (the view is redrawn), colours, and the clock's
# row drawn again in place (save the cursor, go to the row, the line, clear its end, back).
ESCAPES_OK = re.compile(r"\x1b(\[(H|2J|[0-9;]*m|[0-9]+;1H|K)|7|8)")


class Screen:
    """`eboard ARGS...` in a real terminal of 120 x 40 (TERM=xterm: play clears and redraws
    its view, in colour), read back as a person sees it: pexpect's output fed to pyte."""

    def __init__(self, args, tmp_path, cwd=None):
        import pyte

        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = io.StringIO()
        self.p = spawn(args, tmp_path, cwd)
        self.p.logfile_read = self

    def write(self, text):  # pexpect's logfile: every byte the program wrote
        self.raw.write(text)
        self.stream.feed(text.encode("utf-8"))

    def flush(self):
        pass

    def wait(self, pattern):
        """Until the program has written pattern (a regex); what it wrote before and with it."""
        self.p.expect(pattern)
        return self.p.before + self.p.after

    def type(self, line, until=PROMPT):
        """line typed and Enter; then wait for until, and for the prompt after it."""
        self.p.sendline(line)
        said = self.wait(until)
        if until != PROMPT:
            said += self.wait(PROMPT)
        return said

    def rows(self):
        """The screen's rows as a person reads them (trailing blanks cut)."""
        return [row.rstrip() for row in self.screen.display]

    def text(self):
        return "\n".join(self.rows())

    def garbage(self):
        """Escape sequences sent that are not the view's clear, home and colours."""
        return [m for m in re.findall(r"\x1b(?:\[[^a-zA-Z\x1b]*[a-zA-Z]?|[^\[])?", self.raw.getvalue())
                if not ESCAPES_OK.fullmatch(m)]

    def end(self, line="quit"):
        """line typed (quit); the program's exit status once it has ended."""
        import pexpect

        self.p.sendline(line)
        self.p.expect(pexpect.EOF)
        self.p.close()
        return self.p.exitstatus


def serve_until(args, tmp_path, read, done, guard_s, meanwhile=None):
    """`eboard serve ARGS...` as a new user starts it; meanwhile() (the hands at work) if
    given, then read() every second until done(what it read) (guard_s: a guard only), and
    Ctrl-C.  (The last read, serve's stdout, its stderr, its exit code.)"""
    proc = subprocess.Popen([EBOARD, "serve", *args], env=person(tmp_path), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        if meanwhile:
            meanwhile()
        deadline = time.monotonic() + guard_s
        got = read()
        while not done(got) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(1)
            got = read()
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    return got, out, err, proc.returncode
