"""A Kriegspiel player's own board in the terminal: their own men (the view the umpire gave
their board), their board's LEDs (what the umpire has said lights there), and the last
announcements they heard.  Black's board is drawn from Black's side."""

from __future__ import annotations

from typing import Any, TextIO

from firmware.rules import new_position
from firmware.squares import Geometry
from host.session import LED_NAMES
from host.link import read_leds
from host.record import ANSWER_LEDS


def _field(board: str, files: int) -> list[list[str]]:
    """A FEN board field -> ranks (the top rank first) of letters, '.' for none."""
    rows = []
    for rank in board.split("/"):
        row: list[str] = []
        n = ""
        for ch in rank:
            if ch.isdigit():
                n += ch
                continue
            if n:
                row += ["."] * int(n)
                n = ""
            row.append(ch)
        if n:
            row += ["."] * int(n)
        rows.append((row + ["."] * files)[:files])
    return rows


# The margin around the game is not drawn: what its LEDs say, in the umpire's words
# (firmware/krieg.py lights an announcement as a ring there, the ask square on its corner).
RING_LEDS = {
    "r": "Move impossible",
    "o": "your board refused the move",
    "k": "check (the ring's pattern is the direction)",
    "n": "your turn: a man put on this corner asks \"Can I capture?\"",
    **ANSWER_LEDS,
}


def own_board(game: str, view_fen: str, leds: str, side: str, told: list[str], over: bool = False) -> str:
    """The player's board as text: each square's man (FEN letter) and LED letter, the
    squares' LEDs named, the margin's (not drawn) named as the announcements they are (W and
    D: the umpire's Yes and No to "Can I capture?", until the game is over), and the last
    lines the umpire told (told; none: no such line)."""
    lay = new_position(game).game.layout
    geo = Geometry(lay)
    rows = _field(view_fen.split()[0], lay.files)
    ranks = list(range(lay.ranks - 1, -1, -1))
    files = list(range(lay.files))
    if side == "black":
        ranks.reverse()
        files.reverse()
    head = "     " + "".join(f" {lay.letters[f]} " for f in files)
    lines = [f"{side.capitalize()}'s own board (your men; the LEDs as the umpire lit them):", head]
    lit = set()
    whole = len(leds) == 144
    for r in ranks:
        row = f" {r + 1:>2}  "
        for f in files:
            led = leds[geo.phys(lay.squares[r * lay.files + f])] if whole else "."
            if led != ".":
                lit.add(led)
            row += f" {rows[lay.ranks - 1 - r][f]}{led if led != '.' else ' '}"
        lines.append(row + f"  {r + 1}")
    lines.append(head)
    if lit:
        lines.append("LEDs: " + ", ".join(f"{k} {LED_NAMES.get(k, k)}" for k in sorted(lit)))
    inside = {geo.phys(sq) for sq in lay.squares}
    ring = {led for p, led in enumerate(leds) if p not in inside and led != "."} if whole else set()
    if ring:
        names = LED_NAMES if over else {**LED_NAMES, **RING_LEDS}
        lines.append("around the board: " + ", ".join(f"{k} {names.get(k, k)}" for k in sorted(ring)))
    if told:
        lines.append("the umpire told you: " + " ".join(told[-4:]))
    return "\n".join(lines)


HELP = """Kriegspiel on two virtual boards: type for the side to move, whose own board is drawn.
  e2e4, Nf3, exd5     an attempt, read on the mover's own board; the virtual hands make it
  e8=Q, e7e8q         a promotion names its piece (typed without one, you are asked which)
  ask                 "Can I capture?" (any pawn capture?)
  board               draw the side to move's own board again
  resign              the side to move resigns
  help                this text
  quit                leave the game (asks first; Ctrl-C leaves at once): it is archived as
                      adjourned, sealed (eboard kriegspiel --sim --resume ID goes on with it)"""

HELP_BOARDS = """Kriegspiel on two boards, each player trying moves on their own; type for the side to move.
  e2e4, Nf3, exd5     an attempt, read on the mover's own view; their board shows how to make it
  e8=Q, e7e8q         a promotion names its piece (typed without one, you are asked which)
  ask                 "Can I capture?" (any pawn capture?)
  resign              the side to move resigns
  help                this text
  quit                leave the game (asks first; Ctrl-C leaves at once): the umpire keeps it,
                      and the same command run again goes on with it"""


def kview_shower(match: Any, ends: dict[int, Any], game: str, heard: dict[int, list[str]], out: TextIO):
    """show(side, force=False): draw side's own board when it has changed since last drawn;
    force (`board`, the start): draw it again, with the last lines the umpire told side (a
    drawing made after a move leaves them out: they were printed just above it)."""
    from firmware.rules.kriegspiel import SIDES

    last: dict[int, str] = {}

    def show(side: int, force: bool = False) -> None:
        leds = read_leds(ends[side].request("leds"))
        view = match.ump.view_fen(side)
        text = own_board(game, view, leds, SIDES[side], [], match.ump.over)
        if force or last.get(side) != text:
            last[side] = text
            if force:
                text = own_board(game, view, leds, SIDES[side], heard[side], match.ump.over)
            print(text, file=out, flush=True)

    return show


def confirm_prompt(kept: bool) -> str:
    """What quit asks first (the next line answers it; the end of input is a yes): kept,
    a game on real boards that the umpire keeps to resume; else adjourned in the archive."""
    if kept:
        return "Leave the game? It is kept: the same command run again goes on with it. [y/N]"
    return "Leave the game? It is archived as adjourned, the umpire's record sealed. [y/N]"


def adjourn(archive: Any, board: str, match: Any, opening: bool, game_id: int | None = None) -> int:
    """A game left unfinished: its true moves archived and sealed, adjourned, with the
    umpire's actions that `kriegspiel --sim --resume ID` rebuilds it from (game_id: the
    adjourned game it went on with).  The umpire's record is not released: it is only
    once the game is over (L20)."""
    ump = match.ump
    if game_id is None:
        game_id = int(archive.new_game(board, str(ump.pos.game.id), ump.start_fen, event="Kriegspiel"))
    moves = ump.true_moves()
    archive.kriegspiel_adjourn(game_id, moves, opening, match.actions)
    return game_id


def record_text(archive: Any, game_id: int) -> str:
    """The umpire's record of an archived Kriegspiel game, readable: its PGN, the true moves
    with every announcement as a comment (`eboard export ID`; kriegspiel --json for the JSON)."""
    from host.record import export

    g = archive.game(str(game_id))
    return export(g, archive.moves(game_id), archive.kriegspiel_record(game_id)).rstrip("\n")
