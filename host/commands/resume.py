"""Games that outlive a session: the virtual board that `play --sim` keeps (a stable id and
flash, beside the archive), a game adjourned by `quit`, and `eboard play --resume ID`."""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from pathlib import Path
from collections.abc import Callable
from typing import Any

from host.record import Archive, ArchiveError, plies
from host.link import TemporaryBoard, VirtualBoard


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
    folder = Path(archive.path).parent / name
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


def resume_game(bridge: Any, archive: Archive, ref: str, hand: Callable[[str], str] | None = None) -> str:
    """Go on with an archived, unfinished game on the bridge's board (a Bridge: Session
    holds it): the game the board still holds, or else the board starts it again from its
    start position and the host replays its moves (`move`; hand, the `sim` requests of a
    virtual board's or an emulated Pico's hands: they then set the pieces up; on a real
    board, None, the board shows what to fix); the archive keeps filing under the same
    game.  Returns a line in words; ArchiveError for a game that cannot be resumed."""
    g = archive.game(ref)
    if g.ended and g.reason != "adjourned" or g.result != "*":
        raise ArchiveError(f"game {g.id} is over ({g.result}" + (f", {g.reason}" if g.reason else "") + "): it cannot be resumed")
    if g.id in archive.kriegspiel_ids():
        raise ArchiveError(f"game {g.id} is a Kriegspiel game, on two boards: "
                           f"eboard kriegspiel --sim --resume {g.id} goes on with it")
    moves = archive.moves(g.id)
    board = bridge.key
    if g.uid == bridge.uid and g.board == board and list(bridge.history().moves) == moves:
        archive.resumed(g.id, board, g.uid)
        return f"game {g.id} resumed: the board still holds it ({plies(len(moves))})"
    bridge.request(f"new {g.game}" + (f" {g.fen}" if g.fen else ""))
    filed = bridge.game_id  # the board's new game: empty, and only a vehicle
    archive.resumed(g.id, board, bridge.uid)
    bridge.game_id = g.id
    if filed is not None and filed != g.id:
        archive.delete(filed)
    for m in moves:
        bridge.request(f"move {m}")
    if hand is not None:
        hand("sim setup")
        hand("sim wait 100")
    return f"game {g.id} resumed: its {plies(len(moves))} replayed on the board"
