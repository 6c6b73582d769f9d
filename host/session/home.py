"""The board's home: what a command that follows one board sets up and tears down.

The archive, and the board: a port given (a board on USB), the archive's own virtual board
(`sim-board` beside the archive file: the same id and flash from one `play --sim` to the
next) or its emulated Pico (`pico-board`: its flash, id and log), with the hands that make
moves on those two (`sim` requests).  play and board-engine open one Home and close it;
serve opens a Hall (open_hall): one archive shared by many boards, ports and virtual ones.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from host.link import EmulatedPico, PicoError, SimCommands, TemporaryBoard, VirtualBoard, VirtualBoardError, emulated_board
from host.record import Archive, ArchiveError, SharedArchive

EMULATED_TIMEOUT_S = 60.0  # an emulated chip runs at a third of a real one's speed: its replies take longer
TIMEOUT_S = 5.0


class HomeBoard(VirtualBoard):
    """The virtual board of an archive: its folder (flash, id, journal) is `sim-board`
    beside the archive file, so the board keeps its id from one `play --sim` to the next.
    One process at a time holds it (a lock file)."""

    def __init__(self, folder: Path, lock: int, **kw: Any) -> None:
        super().__init__(folder, **kw)
        self.lock = lock

    def stop(self) -> None:
        super().stop()
        if self.lock >= 0:
            os.close(self.lock)  # the lock goes with it
            self.lock = -1


def _home(archive: Archive, name: str) -> tuple[Path, int] | None:
    """The folder `name` beside the archive file, locked for this process (its lock's file
    descriptor), or None while another process holds it (or it cannot be made)."""
    folder = archive.folder / name
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / "lock", os.O_CREAT | os.O_RDWR, 0o644)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return folder, fd


def own_board(archive: Archive, **kw: Any) -> VirtualBoard:
    """The archive's home board, or, while another process uses it, a board in a
    temporary folder that stop() removes."""
    home = _home(archive, "sim-board")
    if home is None:
        return TemporaryBoard(prefix="eboard-play-", **kw)
    return HomeBoard(*home, **kw)


def pico_home(archive: Archive) -> tuple[Path, int]:
    """The folder of the archive's emulated Pico (`pico-board` beside the archive file:
    its flash, id and log, kept from one `--pico` session to the next, as `sim-board` is
    for --sim) and its lock (a file descriptor; close it when done); while another process
    uses it, a temporary folder (remove it when done) and -1."""
    return _home(archive, "pico-board") or (Path(tempfile.mkdtemp(prefix="eboard-pico-")), -1)


def leave_pico_home(folder: Path, lock: int) -> None:
    """pico_home's folder given back: the home board's lock released, a temporary one removed."""
    if lock >= 0:
        os.close(lock)
    else:
        shutil.rmtree(folder, ignore_errors=True)


class Home:
    """One command's archive and board, set up together and closed together (close(), or
    a with block).  port: a board on USB; sim: the archive's own virtual board; pico: its
    emulated Pico (True: stock MicroPython with the firmware copied on; a Path: a UF2 with
    the firmware in it).  VirtualBoardError in words if the board cannot run."""

    def __init__(self, archive: Archive, port: str | None = None, sim: bool = False,
                 pico: bool | Path | None = None) -> None:
        self.archive = archive
        self.port = port
        self.sim = sim or bool(pico)
        self.pico = bool(pico)
        self.timeout_s = EMULATED_TIMEOUT_S if pico else TIMEOUT_S
        self.board: VirtualBoard | EmulatedPico | None = None
        self.hands: Callable[[Callable[[str], str]], Any] | None = None  # the Pico's hands over a request
        self._pico_home: tuple[Path, int] | None = None
        if pico:
            self._pico_home = pico_home(archive)  # the same emulated Pico (its id, its flash) every time
            try:
                chip = emulated_board(self._pico_home[0], None if pico is True else pico)
            except PicoError as e:
                self.close()
                raise VirtualBoardError(f"emulated Pico: {e}") from None
            self.board, self.port = chip, chip.port

            def hands(request: Callable[[str], str]) -> Any:
                return SimCommands(chip, request, hold=False)  # the board's clock runs on

            self.hands = hands
        elif sim:
            board = own_board(archive, realtime=True)  # the same virtual board (its id) every time
            self.board = board
            self.port = board.start()

    def close(self) -> None:
        """The archive closed, the board stopped, the Pico's home given back."""
        self.archive.close()
        if self.board is not None:
            self.board.stop()
            self.board = None
        if self._pico_home is not None:
            leave_pico_home(*self._pico_home)
            self._pico_home = None

    def __enter__(self) -> Home:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class PairHome(Home):
    """Kriegspiel's home (open_pair): the archive and two boards, one each player's (their
    ports), or two virtual boards in temporary folders whose time passes only as the hands
    say (`sim wait`); close() stops them with the archive."""

    def __init__(self, archive: Archive) -> None:
        super().__init__(archive)
        self.pair: list[VirtualBoard] = []

    def start_pair(self, white: str | None, black: str | None, sim: bool) -> tuple[str, str]:
        """(White's port, Black's): the two given, or with sim two virtual boards started;
        HomeError in words if one cannot run."""
        self.sim = sim
        if not sim:
            assert white and black
            return white, black
        ports = []
        try:
            for _ in range(2):
                self.pair.append(TemporaryBoard(prefix="eboard-krieg-", realtime=False))
                ports.append(self.pair[-1].start())
        except VirtualBoardError as e:
            raise HomeError(str(e)) from None
        return ports[0], ports[1]

    def close(self) -> None:
        for board in self.pair:
            board.stop()
        self.pair = []
        super().close()


def open_pair(archive_path: str | None) -> PairHome:
    """The archive at archive_path (None: the default one) as a PairHome, whose two boards
    start_pair() starts (kriegspiel); HomeError in words if the archive cannot be had."""
    try:
        return PairHome(Archive(archive_path))
    except ArchiveError as e:
        raise HomeError(str(e)) from None


class HomeError(Exception):
    """A home that cannot be opened: its archive, or its board, in words."""


def open_home(archive_path: str | None, port: str | None = None, sim: bool = False,
              pico: bool | Path | None = None) -> Home:
    """The archive at archive_path (None: the default one) and the board, as a Home
    (board-engine, emulate); HomeError in words if either cannot be had."""
    archive = _archive(archive_path)
    try:
        return Home(archive, port, sim, pico)  # the archive's own virtual board or Pico, as play's
    except VirtualBoardError as e:
        raise HomeError(str(e)) from None


class Hall:
    """serve's home: one archive, opened once and shared by every board's follower (one
    connection: host.record.SharedArchive), and the boards: ports on USB, and n virtual
    boards whose hands play random games (every game in turn, or game's only), each in a
    temporary folder of its own.  close() stops the virtual boards and closes the archive.
    VirtualBoardError in words if the virtual boards cannot run."""

    def __init__(self, archive: Archive, ports: list[str], sim: int = 0, game: str | None = None,
                 seed: int = 0) -> None:
        from host.session.club import sim_room

        self.archive = SharedArchive(archive)
        self.boards: list[VirtualBoard] = []
        if sim:
            try:
                self.boards = list(sim_room(sim, seed, game=game))
            except BaseException:
                archive.close()
                raise
        self.own = tuple(vb.port for vb in self.boards)  # the ports of the boards that stop with serve
        self.ports = list(ports) + list(self.own)

    def close(self) -> None:
        for vb in self.boards:
            vb.stop()
        self.boards = []
        self.archive.inner.close()

    def __enter__(self) -> Hall:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _archive(archive_path: str | None) -> Archive:
    """The archive at archive_path (None: the default one); HomeError in words if it cannot be had."""
    try:
        return Archive(archive_path)
    except ArchiveError as e:
        raise HomeError(str(e)) from None


def open_hall(archive_path: str | None, ports: list[str], sim: int = 0, game: str | None = None,
              seed: int = 0) -> Hall:
    """The archive at archive_path (None: the default one) and a hall's boards, as a Hall
    (serve); HomeError in words if either cannot be had."""
    archive = _archive(archive_path)
    try:
        return Hall(archive, ports, sim, game, seed)
    except VirtualBoardError as e:
        raise HomeError(str(e)) from None
