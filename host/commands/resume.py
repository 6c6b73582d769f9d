"""Games that outlive a session: the virtual board that `play --sim` keeps (a stable id and
flash, beside the archive), a game adjourned by `quit`, and `eboard play --resume ID`."""

from __future__ import annotations

import fcntl
import os
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


def own_board(archive: Archive, **kw: Any) -> VirtualBoard:
    """The archive's home board, or, while another process uses it, a board in a
    temporary folder that stop() removes."""
    folder = Path(archive.path).parent / "sim-board"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / "lock", os.O_CREAT | os.O_RDWR, 0o644)
    except OSError:
        return TemporaryBoard(prefix="eboard-play-", **kw)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return TemporaryBoard(prefix="eboard-play-", **kw)
    return HomeBoard(folder, fd, **kw)


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
    if g.uid == bridge.uid and g.board == board and bridge.request("history").split()[1:] == moves:
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
