"""A game and FEN given by a person, checked by the rules core before any board hears of
them: the one check behind `eboard play/sim/replay-sensors/kriegspiel --fen` and `new` in
the live view; and the example move play's prompt gives (example_move)."""

from __future__ import annotations

from firmware.rules import GAMES, FenError, new_position
from firmware.rules.board import file_of, rank_of


def check(game: str, fen: str | None) -> str | None:
    """ValueError, in words, if game is not a game id or fen not a position of it (naming
    the game the FEN would fit, if another does).  Returns the FEN as one line, its fields
    one space apart (the rules read any whitespace between them: a newline or U+2028 given
    inside it must not reach the board, where a request is one line)."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; games: {', '.join(GAMES)}")
    if fen is None:
        return None
    if not fen.strip():
        raise ValueError(f"bad FEN for {game}: it is empty")
    try:
        new_position(game, fen)
    except FenError as e:
        fits = [g for g in GAMES if g != game and _fits(g, fen)]
        hint = f" (it is a FEN of {fits[0]}: add --game {fits[0]})" if fits else ""
        raise ValueError(f"bad FEN for {game}: {e}{hint}") from None
    return " ".join(fen.split())


def _fits(game: str, fen: str) -> bool:
    try:
        new_position(game, fen)
    except ValueError:
        return False
    return True


def example_move(game: str, fen: str | None) -> str:
    """A legal move of the position, as the game writes it (notation.md), for a prompt's
    example: the one that goes nearest the board's centre (d2d4 in chess, a man's step in
    checkers12); "" when there is none (a game over, a position that is not the game's)."""
    try:
        pos = new_position(game, fen or None)
    except (FenError, ValueError, KeyError):
        return ""
    layout = pos.game.layout
    mid_file, mid_rank = (len(layout.letters) - 1) / 2, (layout.ranks - 1) / 2
    best, far = "", 0.0
    for m in pos.legal_moves():
        to = pos.move_to(m)
        d = (file_of(to) - mid_file) ** 2 + (rank_of(to) - mid_rank) ** 2
        if not best or d < far:
            best, far = pos.move_str(m), d
    return best
