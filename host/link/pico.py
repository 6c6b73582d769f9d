"""The emulated Pico: boards/emu/pico.mjs (rp2040js under Node) running a UF2, its USB
serial behind a pseudo-terminal, so that pyserial, mpremote and flash.sh talk to it as to
/dev/ttyACM0; and its world (reed switches, hands, LED frames, faults) on a control socket.

Shaped like host/link/virtual.py's VirtualBoard: start() -> port, kill() (a power cut, at any
instant), restart(), stop().  The flash is a file (flash_path) that outlives the process; the
flash chip's unique id (the board id, `pico-<16 hex digits>`) is kept beside it (FILE.id),
drawn at random the first time: a copy of the flash file alone is another board.
"""

from __future__ import annotations

import errno
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

from host.link.words import read_state
from host.link.virtual import _die_with_parent, close_quietly, end_process

ROOT = Path(__file__).resolve().parents[2]
EMU_DIR = ROOT / "boards" / "emu"
SHARED = ROOT.parent / "shared" / "pico"
STOCK_UF2 = SHARED / "micropython-RPI_PICO.uf2"
BOOTROM = SHARED / "bootrom-b1.bin"
N = 12


class PicoError(Exception):
    """The emulated Pico cannot be started, or its control channel failed."""


def missing() -> str | None:
    """Why the emulated Pico cannot run here, or None if it can."""
    if not shutil.which("node"):
        return "no `node` command (Node 18 or later runs the emulated Pico)"
    if not (EMU_DIR / "node_modules" / "rp2040js").is_dir():
        return "rp2040js is not installed: run `npm ci` in boards/emu (./run-tests.sh does)"
    if not BOOTROM.exists() or not STOCK_UF2.exists():
        return f"no RP2040 boot ROM or MicroPython UF2 in {SHARED}"
    return None


class EmulatedPico:
    """One emulated Pico and its pseudo-terminal."""

    def __init__(
        self,
        flash_path: str | os.PathLike[str],
        uf2: str | os.PathLike[str] | None = None,
        log_path: str | os.PathLike[str] | None = None,
    ) -> None:
        why = missing()
        if why:
            raise PicoError(why)
        self.flash_path = Path(flash_path)
        self.uf2 = Path(uf2) if uf2 else None
        if self.uf2 and not self.uf2.exists():
            raise PicoError(f"no UF2 {self.uf2}")
        self.log_path = Path(log_path) if log_path else self.flash_path.with_suffix(".log")
        self.port = ""
        self.proc: subprocess.Popen[bytes] | None = None
        self._master = -1
        self._slave = -1
        self._ctl: socket.socket | None = None
        self._ctl_buf = b""
        self._ctl_lock = threading.Lock()
        self._stop = False
        self._uf2_once = self.uf2
        # bytes over the pseudo-terminal since start(): from the host to the Pico, from the
        # Pico to the host, and from the Pico dropped because no program read the port
        self.traffic = {"to_pico": 0, "from_pico": 0, "dropped": 0}

    # ---- life cycle ----------------------------------------------------------------------

    def start(self) -> str:
        """Power the Pico on; returns its port (a /dev/pts path)."""
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        tty.setraw(self._master)
        self.port = os.ttyname(self._slave)
        self._launch()
        threading.Thread(target=self._host_to_pico, daemon=True).start()
        self.wait_usb()
        return self.port

    def wait_usb(self, timeout_s: float = 60) -> None:
        """Wait until the Pico's USB serial is up (on a real host: until the port appears)."""
        deadline = time.monotonic() + timeout_s
        while self.control("usb")[0] != "ok usb 1":
            if time.monotonic() > deadline:
                raise PicoError(f"the emulated Pico's USB did not come up (log: {self.log_path})")
            time.sleep(0.05)

    def power_up(self, timeout_s: float = 120) -> None:
        """A reset, as a power-up: back once the USB is up and the firmware answers (within
        timeout_s of wall time)."""
        self.control("reset")
        self.wait_usb()
        wait_firmware(self.port, timeout_s)

    def _launch(self) -> None:
        ours, theirs = socket.socketpair()
        fd = theirs.fileno()
        cmd = ["node", str(EMU_DIR / "pico.mjs"), "--flash", str(self.flash_path), "--bootrom", str(BOOTROM)]
        cmd += ["--control", str(fd)]
        if self._uf2_once:  # a UF2 given is copied onto the flash once, as a drag onto the drive
            cmd += ["--uf2", str(self._uf2_once)]
            self._uf2_once = None
        elif not self.flash_path.exists():
            cmd += ["--uf2", str(STOCK_UF2)]
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                cmd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                pass_fds=(fd,),
                preexec_fn=_die_with_parent,
            )
        theirs.close()
        self._ctl = ours
        self._ctl_buf = b""
        threading.Thread(target=self._pico_to_host, args=(self.proc,), daemon=True).start()

    def _pico_to_host(self, proc: subprocess.Popen[bytes]) -> None:
        out = proc.stdout
        assert out is not None
        while True:
            data = out.read1(4096)
            if not data:
                return
            try:
                # Nobody reading the port for long: the bytes are lost, as a USB host
                # drops what no program takes (and the emulator is never held up).
                if select.select([], [self._master], [], 2)[1]:
                    os.write(self._master, data)
                    self.traffic["from_pico"] += len(data)
                else:
                    self.traffic["dropped"] += len(data)
            except (OSError, ValueError):
                return

    def _host_to_pico(self) -> None:
        while not self._stop:
            try:
                data = os.read(self._master, 4096)
            except OSError as e:
                if e.errno in (errno.EIO, errno.EBADF):
                    if self._stop:
                        return
                    time.sleep(0.02)  # nobody has the port open
                    continue
                return
            proc = self.proc
            if proc is None or proc.poll() is not None or proc.stdin is None:
                continue  # the power is off: the bytes are lost
            try:
                proc.stdin.write(data)
                proc.stdin.flush()
                self.traffic["to_pico"] += len(data)
            except (BrokenPipeError, ValueError, OSError):
                pass

    def kill(self) -> None:
        """Cut the power: the emulator dies at once, wherever it is (mid-erase included)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self._reap()

    def _reap(self) -> None:
        if self.proc is not None:
            self.proc.wait()
            for f in (self.proc.stdin, self.proc.stdout):
                try:
                    if f:
                        f.close()
                except OSError:
                    pass
        if self._ctl is not None:
            self._ctl.close()
            self._ctl = None

    def restart(self) -> None:
        """Power on again after kill() (or after a planted power cut)."""
        self._reap()
        self._launch()
        self.wait_usb()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        self._stop = True
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            end_process(self.proc)
        self._reap()
        close_quietly(self._master, self._slave)
        self._master = self._slave = -1

    def __enter__(self) -> EmulatedPico:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---- the control channel (boards/emu/README.md) ----------------------------------------

    def control(self, *lines: str, timeout_s: float = 120) -> list[str]:
        """Send requests in order (the emulator runs them in emulated time, a `wait`
        holding back the ones after it) and return their replies."""
        with self._ctl_lock:
            ctl = self._ctl
            if ctl is None:
                raise PicoError("the emulated Pico is off")
            ctl.sendall("".join(line + "\n" for line in lines).encode())
            ctl.settimeout(timeout_s)
            replies: list[str] = []
            while len(replies) < len(lines):
                while b"\n" not in self._ctl_buf:
                    try:
                        data = ctl.recv(65536)
                    except (TimeoutError, OSError) as e:
                        raise PicoError(f"the emulated Pico did not answer {lines[len(replies)]!r}: {e}") from None
                    if not data:
                        if self.proc is not None:
                            try:  # a planted power cut: the process is dying
                                self.proc.wait(timeout=10)
                            except subprocess.TimeoutExpired:
                                pass
                        raise PicoError("the emulated Pico went off")
                    self._ctl_buf += data
                line, self._ctl_buf = self._ctl_buf.split(b"\n", 1)
                replies.append(line.decode())
            for asked, reply in zip(lines, replies):
                if reply.startswith("error"):
                    raise PicoError(f"{asked}: {reply}")
            return replies

    def frame(self) -> list[tuple[int, int, int]] | None:
        """The LED chain's last frame: 144 (r, g, b) in physical-square order, or None."""
        words = self.control("frame")[0].split()
        if words[4] == "-":
            return None
        h = words[4]
        return [(int(h[i : i + 2], 16), int(h[i + 2 : i + 4], 16), int(h[i + 4 : i + 6], 16)) for i in range(0, 864, 6)]

    def set_occupancy(self, occ: bytes | list[int]) -> None:
        self.control("set " + "".join("1" if b else "0" for b in occ))


def occupancy_of(game: str, fen: str | None) -> bytearray:
    """The switches closed with the pieces of a game's position on the board (as the
    virtual board's `sim setup`), from the firmware's own rules and geometry."""
    from firmware.rules import new_position
    from firmware.squares import Geometry

    pos = new_position(game, fen) if fen else new_position(game)
    geo = Geometry(pos.game.layout)
    occ = bytearray(N * N)
    for p in geo.game_squares:
        occ[p] = 1 if pos.cells[geo.cell(p)] else 0
    return occ


class Hands:
    """A player's hands on the emulated Pico's board: the steps of a sensor script
    (lift SQ, place SQ, wait MS in emulated time) on the squares of the board's game,
    as the virtual board's `sim lift|place|wait|setup`."""

    def __init__(self, pico: EmulatedPico, hold: bool = True) -> None:
        self.pico = pico
        self.geo = None
        # hold: time passes only in the hands' waits (and for the chip's own work), so a
        # script plays as on the virtual board whatever the wall clock does between its
        # steps; else the board's clock runs on as a real one's (a person playing).
        self.hold = hold

    def setup(self, game: str, fen: str | None) -> None:
        """Pieces on exactly the squares of the position (the margin left empty)."""
        self.geo = geometry(game)
        self.pico.control("hold %d" % self.hold)
        self.pico.set_occupancy(occupancy_of(game, fen))

    def new_game(self, link, game: str) -> None:
        """The host's `new GAME` on link, the men set on its start squares, and 500 ms
        for the board to see them."""
        link.request(f"new {game}")
        self.setup(game, None)
        self.play("wait 500")

    def square(self, name: str) -> int | None:
        """A game square's name -> physical square; None for "off" (the margin)."""
        if name == "off":
            return None
        if name.startswith("@") and name[1:].isdigit() and int(name[1:]) < N * N:
            return int(name[1:])
        if self.geo is None:
            raise PicoError("the hands do not know the game yet (setup first)")
        try:
            return self.geo.parse(name)
        except (ValueError, KeyError, IndexError):
            raise PicoError(f"no square {name!r} in this game") from None

    def requests(self, step: str) -> list[str]:
        """One script step -> control requests."""
        words = step.split()
        if len(words) == 2 and words[0] in ("lift", "place"):
            p = self.square(words[1])
            return [] if p is None else [f"{words[0]} {p}"]
        if len(words) == 2 and words[0] == "wait" and words[1].isdigit():
            # held: `sleep`, after which the chip stops until the next step's wait, so the
            # steps fall at exact emulated instants however late this host sends them
            return [f"{'sleep' if self.hold else 'wait'} {words[1]}"]
        raise PicoError(f"not a sensor event: {step!r} (lift SQ, place SQ, wait MS)")

    def play(self, *steps: str) -> None:
        """Run steps in order, in emulated time: they are sent at once, so that the
        emulator applies each at its exact emulated instant."""
        reqs = [r for s in steps for r in self.requests(s)]
        if reqs:
            self.pico.control("hold %d" % self.hold, *reqs)


def frame_colours(letters: str, brightness: int) -> list[tuple[int, int, int]]:
    """What a Pico's LED chain shows for a frame of class letters (protocol `leds`) at a
    brightness: boards/pico.py's encoding (its cap, its current budget), in physical order."""
    from array import array

    from firmware import leds

    frame = bytearray(leds.CODES.index(c) for c in letters)
    words = array("I", bytes(4 * N * N))
    leds.encode(frame, min(brightness, leds.BRIGHTNESS_CAP), words, leds.LED_BUDGET_MA)
    out = []
    for p in range(N * N):
        w = words[leds.SERPENTINE[p]]
        out.append(((w >> 16) & 255, (w >> 24) & 255, (w >> 8) & 255))
    return out


class SimCommands:
    """The virtual board's `sim` hand commands (lift, place, wait, setup, occupancy), done by the
    emulated Pico's hands; any other line goes to the board.  Lets host code written
    for `--sim` drive `--pico`: call it where it calls the link's request."""

    def __init__(self, pico: EmulatedPico, request: Callable[[str], str], hold: bool = True) -> None:
        self.hands = Hands(pico, hold)
        self.board = request
        self.held: list[str] = []  # hand steps sent with the next wait: exact emulated times

    def flush(self) -> None:
        steps, self.held = self.held, []
        self.hands.play(*steps)

    def __call__(self, line: str) -> str:
        words = line.split()
        if words[:1] != ["sim"]:
            self.flush()
            return self.board(line)
        if words[1:2] == ["setup"]:
            self.flush()
            st = read_state(self.board("state"))
            self.hands.setup(st.game, st.fen)
        elif words[1:] == ["occupancy"]:  # which switches are closed: as the virtual board says it
            self.flush()
            return "sim occupancy " + self.hands.pico.control("occupancy")[0].split()[-1]
        else:
            if self.hands.geo is None:
                self.hands.geo = geometry(read_state(self.board("state")).game)
            step = " ".join(words[1:])
            self.hands.requests(step)  # a bad step is refused now
            self.held.append(step)
            if words[1:2] == ["wait"]:
                self.flush()
                if not self.hands.hold:
                    # The virtual board answers `sim wait` after the events its steps
                    # caused; here those come on the link while the hands' wait goes to
                    # the emulator: a request's reply, behind them, lets the caller see them.
                    self.board("ping")
        return " ".join(words)


def geometry(game: str):
    from firmware.rules import new_position
    from firmware.squares import Geometry

    return Geometry(new_position(game).game.layout)


def firmware_key(uf2: Path | None) -> str:
    """What a prepared flash image holds: the firmware's sources, or the image's UF2."""
    import hashlib

    h = hashlib.sha256()
    if uf2 is not None:
        h.update(uf2.read_bytes())
    else:
        for f in sorted([*ROOT.glob("firmware/**/*.py"), *ROOT.glob("boards/*.py"), ROOT / "flash.sh"]):
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def make_flash(flash: Path, uf2: Path | None = None, log: Path | None = None) -> str:
    """A flash image at `flash` with the firmware running, made as a user does: stock
    MicroPython from its UF2, then ./flash.sh PORT onto it (returns flash.sh's report);
    or, with `uf2`, an image with the firmware in it, booted once.  PicoError if the
    board then does not answer."""
    work = flash.with_name(flash.name + ".work")
    work.unlink(missing_ok=True)
    report = ""
    with EmulatedPico(work, uf2=uf2 or STOCK_UF2, log_path=log) as pico:
        if uf2 is None:
            time.sleep(1)  # its REPL is up
            done = subprocess.run(["./flash.sh", pico.port], cwd=ROOT, capture_output=True, text=True, timeout=900)
            report = done.stdout + done.stderr
            if done.returncode != 0:
                raise PicoError(f"./flash.sh onto the emulated Pico failed:\n{report}")
        try:
            wait_firmware(pico.port, timeout_s=120 if uf2 is None else 40)  # main.py runs the game
        except PicoError:
            if uf2 is None:
                raise
            # an image with the firmware frozen in but no main.py: flash.sh's one-liner
            main = flash.with_name(flash.name + ".main.py")
            main.write_text("import micropython\nmicropython.kbd_intr(-1)\nfrom boards.main import run\nrun()\n")
            from host.link.repl import stop_for_repl

            try:
                stop_for_repl(pico.port)  # a firmware running after all: mpremote's Ctrl-C is dropped
            except TimeoutError:
                pass  # mpremote says what it finds
            exe = Path(sys.executable).parent / "mpremote"
            cmd = [str(exe) if exe.exists() else "mpremote", "connect", pico.port]
            subprocess.run([*cmd, "fs", "cp", str(main), ":main.py", "+", "reset"], capture_output=True, timeout=300)
            main.unlink()
            wait_firmware(pico.port)
    work.rename(flash)
    # The chip's unique id stays behind (work.flash.id): every copy of the prepared flash
    # is a board of its own, with an id drawn at its first start (boards/emu/README.md).
    work.with_name(work.name + ".id").unlink(missing_ok=True)
    return report


def wait_firmware(port: str, timeout_s: float = 120) -> str:
    """Wait until the firmware answers on port (it boots in a few emulated tenths of a
    second, some wall seconds); its version line.  PicoError if it does not."""
    from host.link.wire import BoardLink, LinkError

    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with BoardLink(port, timeout_s=10) as link:
                return link.hello(timeout_s=10)
        except LinkError as e:
            if time.monotonic() > deadline:
                raise PicoError(f"the emulated Pico does not run the firmware: {e}") from None
            time.sleep(0.5)


def board(workdir: Path, uf2: Path | None = None) -> EmulatedPico:
    """A started emulated Pico running the firmware (eboard play / replay-sensors --pico),
    on workdir/pico.flash: a copy of a flash image prepared once (make_flash) in build/, or
    in $EBOARD_PICO_CACHE.  A workdir that already holds a flash of this firmware is that
    board again, its journal and its id (pico.flash.id) kept, as a real board keeps them
    from one day to the next; one of another firmware is flashed anew (its journal starts
    empty) and keeps its id: the same chip, flashed again."""
    key = firmware_key(uf2)
    cache = Path(os.environ.get("EBOARD_PICO_CACHE", ROOT / "build")) / f"pico-emu-{key}.flash"
    if not cache.exists():
        import fcntl

        cache.parent.mkdir(parents=True, exist_ok=True)
        with open(cache.with_suffix(".lock"), "w") as lock:
            # Another process preparing the same flash (both would run ./flash.sh into
            # build/pico at once): wait for it, then use what it made.
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not cache.exists():
                print("preparing the emulated Pico's flash (once, about a minute) ...", file=sys.stderr)
                make_flash(cache, uf2, log=cache.with_suffix(".log"))
    flash = workdir / "pico.flash"
    made = workdir / "pico.flash.firmware"  # the firmware_key of what the flash holds
    if not flash.exists() or not made.exists() or made.read_text() != key:
        shutil.copy(cache, flash)
        made.write_text(key)
    pico = EmulatedPico(flash, log_path=workdir / "pico.log")
    pico.start()
    try:
        wait_firmware(pico.port)
    except PicoError:
        pico.stop()
        raise
    return pico


def run_bench(main: Callable[[], int | None]) -> int | None:
    """A bench's main on the emulated Pico: a Pico that cannot start, or a link that
    breaks, said in words (bench/*_pico.py, bench/pico.py), never a traceback."""
    from host.link.wire import BoardError, BridgeTimeout, LinkError

    try:
        return main()
    except (PicoError, LinkError, BoardError, BridgeTimeout) as e:
        print(f"{Path(sys.argv[0]).name}: {e}", file=sys.stderr)
        return 1
