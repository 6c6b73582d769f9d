"""PGN export of an archived game: the Seven Tag Roster, Variant, FEN/SetUp for any start
that is not orthodox chess's, movetext in the game's own move strings (notation.md), and
for lippo the points."""

from __future__ import annotations

from host.archive import GameRow

VARIANTS = {"chess": "Standard", "lippo": "Lippo", "checkers12": "Lippo checkers 12x12"}


def _tag(name: str, value: str) -> str:
    return '[%s "%s"]' % (name, value.replace("\\", "\\\\").replace('"', '\\"'))


def export(g: GameRow, moves: list[str]) -> str:
    date = g.started[:10].replace("-", ".") if g.started else "????.??.??"
    tags = [
        _tag("Event", g.event),
        _tag("Site", g.site),
        _tag("Date", date),
        _tag("Round", "?"),
        _tag("White", g.white),
        _tag("Black", g.black),
        _tag("Result", g.result or "*"),
        _tag("Variant", VARIANTS.get(g.game, g.game)),
    ]
    if g.game != "chess" or g.fen:
        from firmware.rules import new_position

        tags.append(_tag("FEN", g.fen or new_position(g.game).fen()))
        tags.append(_tag("SetUp", "1"))
    if g.reason:
        tags.append(_tag("Termination", g.reason))
    if g.white_points is not None:
        tags.append(_tag("WhitePoints", str(g.white_points)))
        tags.append(_tag("BlackPoints", str(g.black_points)))
    black_first = False
    if g.fen:
        black_first = g.fen.split()[1] == "b"
    number = int(g.fen.split()[5]) if g.fen and len(g.fen.split()) > 5 else 1
    words: list[str] = []
    for i, m in enumerate(moves):
        white_turn = (i % 2 == 0) != black_first
        if white_turn:
            words.append(f"{number}.")
        elif i == 0:
            words.append(f"{number}...")
        words.append(m)
        if not white_turn:
            number += 1
    if g.white_points is not None:
        words.append("{points %d-%d}" % (g.white_points, g.black_points or 0))
    words.append(g.result or "*")
    lines: list[str] = []
    line = ""
    for w in words:
        if len(line) + len(w) + 1 > 79:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    lines.append(line)
    return "\n".join(tags) + "\n\n" + "\n".join(lines) + "\n"
