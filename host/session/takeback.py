"""A takeback in words: which man goes back where, and which captured man returns."""

from __future__ import annotations

from typing import Any

from firmware.rules import MoveError, new_position
from firmware.rules.board import BLACK, EMPTY, TYPE, WHITE
from firmware.hands import hand_moves


def _man(pos: Any, cell: int) -> str:
    c = pos.cells[cell]
    side = "White's" if c & WHITE else "Black's" if c & BLACK else ""
    return f"{side} {pos.game.names[c & TYPE].lower()}"


def words(game: str, fen: str, move: str) -> str:
    """What the player does to take back move, made from fen (the position after the
    takeback): each square the move changed, as it must stand again."""
    pos = new_position(game, fen)
    try:
        m = pos.parse_move(move)
    except MoveError:
        return f"take back {move}: set the pieces as the board shows"
    from host.record import san

    move = san(pos, m, pos.legal_moves(), marks=False)
    lay = pos.game.layout
    lifts, places = hand_moves(pos, m)
    frm = pos.move_from(m)
    said = []
    for cell in lifts:
        if cell == frm:
            said.append(f"{_man(pos, cell)} goes back to {lay.name(cell)}")
        else:
            said.append(f"{_man(pos, cell)} returns to {lay.name(cell)}")
    for cell in places:
        if cell not in lifts and pos.cells[cell] == EMPTY:
            said.append(f"{lay.name(cell)} is left empty")
    return f"take back {move}: " + ", ".join(said)


def note(game: str, fen: str, moves: list[str]) -> str:
    """Moves taken back one after another (the last first), said from the position after them."""
    if len(moves) == 1:
        return words(game, fen, moves[0])
    return f"{len(moves)} moves taken back ({', '.join(moves)}): set the pieces as the board shows"
