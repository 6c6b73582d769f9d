"""Games that outlive a session: a game adjourned by `quit`, and `eboard play --resume ID`
(the boards kept beside the archive are host.session's)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host.record import Archive, ArchiveError, plies


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
