"""A key to the pieces of every game: letters, names, points and a diagram of each piece's
moves, drawn by the rules core itself (the piece alone on an open board), so that the
legend cannot drift from the rules.  `python -m host.session.pieces > docs/pieces.md` writes the
docs page; `eboard play` shows one game's key on `help pieces`.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from firmware.rules import GAMES, new_position
from firmware.rules.board import WHITE

# The spec of each game, in docs/rules/, and what its points column means.
SPECS = {
    "chess": ("", "FIDE Laws", "usual values"),
    "lippo": ("lippo.md", "§2, §4-§6", "Lippo's points (§2): what a capture scores"),
    "checkers12": ("lippo.md", "§10", "men count one each"),
    "courier": ("courier.md", "", "usual values"),
    "gardner": ("minichess.md", "", "usual values"),
    "hundred": ("hundred.md", "§5", "usual values"),
    "grosschess": ("grosschess.md", "§1, §4", "values of grosschess.md §1"),
    "chess-t1": ("chess-t1.md", "§2, §5", "strength in half units (§2): K 3 is 1½"),
    "chess960": ("", "FIDE Laws, Guidelines II", "usual values"),
}

# What a diagram on an open board cannot show, in words (from the specs cited).
NOTES = {
    ("chess", "P"): "steps one forward (two from its start rank); captures one diagonally forward; en passant; promotes on the last rank",
    ("chess", "K"): "one step any way; castles with a rook",
    ("chess960", "P"): "steps one forward (two from its start rank); captures one diagonally forward; en passant; promotes on the last rank",
    ("chess960", "K"): "one step any way; castles with a rook to g and f (or c and d) wherever the two start",
    ("gardner", "P"): "steps one forward, no double step; captures one diagonally forward; promotes on the last rank",
    ("courier", "P"): "steps one forward (two from its start rank, the seed's rule); captures one diagonally forward; promotes to a ferz",
    ("courier", "B"): "the courier: a bishop (slides diagonally)",
    ("courier", "W"): "the schleich: one step any way in the seed's rules (like the mann)",
    ("lippo", "P"): "the President (royal, no check rule: the game ends when it is taken); castles (A12)",
    ("lippo", "F"): "the Fougasse never moves: it blows up an enemy man on a neighbouring square (§5.13); Fougasses become Soldiers once their side's Soldiers are gone (§11)",
    ("lippo", "S"): "the Soldier steps one straight forward (two from its start rank); captures one diagonally forward; en passant; promotes (§6, §13)",
    ("lippo", "A"): "leaps one to six squares along any line, over anything between (§5.4); the diagram shows five",
    ("lippo", "G"): "one step any way, or a jump of four along a line and then an optional step any way (§5.3)",
    ("lippo", "H"): "a jump of three along a line, then an optional diagonal step (§5.5)",
    ("lippo", "M"): "a diagonal jump of three, then an optional step at right angles (§5.6)",
    ("lippo", "E"): "a jump of four along a line, then one orthogonal step (§5.8)",
    ("lippo", "T"): "one orthogonal step, or an orthogonal jump of three then 1-3 squares sideways (§5.11)",
    ("lippo", "L"): "one diagonal step, or an orthogonal jump of two then a step sideways (§5.12)",
    ("checkers12", "M"): "a man steps diagonally forward; captures by jumping, forward and backward; capturing is compulsory and chains go on (lippo.md §10)",
    ("checkers12", "K"): "a king moves any distance diagonally and may stop on any free square beyond its victim",
    ("hundred", "K"): "one step any way; on the e-file strong: up to two squares along any line, never jumping; two castlings, the throne (§5.3, §6)",
    ("hundred", "Z"): "the Jester: diagonal steps of one or two (the middle square empty) and bends to the orthogonal 2-squares through an empty diagonal neighbour; on the e-file its diagonal steps become bishop slides (§5.4)",
    ("hundred", "G"): "the General: orthogonal steps of one or two (the middle empty) and bends to the diagonal neighbours; on the e-file its orthogonal steps become rook slides (§5.5)",
    ("hundred", "P"): "steps one forward (two on its first move), captures diagonally forward; on the e-file also backward; pawn castling; promotes to what started on its arrival square (§5.6, §5.7, §6)",
    ("grosschess", "K"): "as in 100-square chess (hundred.md §5.3)",
    ("grosschess", "Z"): "as in 100-square chess (hundred.md §5.4)",
    ("grosschess", "G"): "as in 100-square chess (hundred.md §5.5)",
    ("grosschess", "P"): "every pawn of the zig-zag line may step two on its first move; otherwise as in 100-square chess (§5.1)",
    ("grosschess", "V"): "the treacherous Queen: one diagonal step; on the e-file an ordinary Jester; she may take twice (§4.1)",
    ("grosschess", "I"): "the Prince: one orthogonal step; on the e-file an ordinary General; its first move may be strong (§4.2)",
    ("grosschess", "M"): "Mars: a rook that also bends to the diagonal neighbours; on the e-file it adds the knight's leaps (§4.3)",
    ("grosschess", "S"): "Sagittarius: a bishop that also bends to the orthogonal 2-squares; on the e-file it adds the knight's leaps (§4.4)",
    ("grosschess", "O"): "the Officer: one or two squares forward, sideways and diagonally forward, one back; on the e-file one or two any way (§4.5)",
    ("chess-t1", "K"): "one step any way; a castle square's own rules (§6); captures need superiority (§8)",
    ("chess-t1", "C"): "the Konnet: leaps one or two orthogonally, slides up to three diagonally (§5)",
    ("chess-t1", "P"): "the Prince: one orthogonal step, slides up to three diagonally (§5)",
    ("chess-t1", "R"): "the Ritter: leaps one or two orthogonally (§5)",
    ("chess-t1", "I"): "the Knecht: one step forward, sideways or back; two forward inside its own territory (§5); promotes (§7)",
    ("chess-t1", "V"): "the Wer Knecht: moves as the Knecht (§5, §7)",
    ("chess-t1", "S"): "the Scout: the knight's leaps; its exchange on a castle square (§8.5)",
}


def _fen(files: int, ranks: int, men: dict[tuple[int, int], str]) -> str:
    rows = []
    for r in range(ranks - 1, -1, -1):
        row, run = "", 0
        for f in range(files):
            ch = men.get((f, r))
            if ch is None:
                run += 1
                continue
            row += (str(run) if run else "") + ch
            run = 0
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows) + " w - - 0 1"


def reach(gid: str, letter: str, at: tuple[int, int], enemies: tuple[tuple[int, int], ...] = (),
          captures: bool = False) -> set[tuple[int, int]] | None:
    """The offsets (files, ranks) a white `letter` standing alone at `at` (0-based) may move
    to, by the rules core (captures: only its captures, with enemy men on the offsets
    `enemies`); None if no open board with it is a legal position.  The royal pieces, which
    the position needs, stand where they get least in the way."""
    pos = new_position(gid)
    g = pos.game
    lay = g.layout
    t = g.type_of(letter)
    royal = g.letter[g.royal] if g.royal and g.royal != t else ""
    victim = next(g.letter[v].lower() for v in range(1, len(g.letter)) if v not in (g.royal, g.pawn))
    corners = [(f, r) for f in range(lay.files) for r in (0, lay.ranks - 1)]
    corners += [(f, r) for f in (0, lay.files - 1) for r in range(1, lay.ranks - 1)]
    best: set[tuple[int, int]] | None = None
    for spot in corners if royal else [None]:
        men = {at: letter}
        for e in enemies:
            men[(at[0] + e[0], at[1] + e[1])] = victim
        if spot is not None:
            other = (lay.files - 1 - spot[0], lay.ranks - 1 - spot[1])
            if spot in men or other in men or spot == other:
                continue
            men[spot] = royal
            men[other] = royal.lower()
        elif g.royal == t:
            far = (0 if at[0] > lay.files // 2 else lay.files - 1, 0 if at[1] > lay.ranks // 2 else lay.ranks - 1)
            men[far] = letter.lower()
        try:
            q = new_position(gid, _fen(lay.files, lay.ranks, men))
        except ValueError:
            continue
        sq = lay.squares[at[1] * lay.files + at[0]]
        got = set()
        for m in q.moves_from(sq):
            if captures and not q.takes(m):
                continue
            name = lay.name(q.move_to(m))
            got.add((lay.letters.find(name[0]) - at[0], int(name[1:]) - 1 - at[1]))
        if best is None or len(got) > len(best):
            best = got
    return best


def diagram(letter: str, offsets: set[tuple[int, int]], blasts: set[tuple[int, int]]) -> list[str]:
    """Rows of a small board around the piece: its letter, `o` where it may go, `x` where
    it only captures (a pawn), or captures without moving (the Fougasse), `.` elsewhere."""
    span = max([abs(c) for o in offsets | blasts for c in o] + [1])
    rows = []
    for dy in range(span, -span - 1, -1):
        row = []
        for dx in range(-span, span + 1):
            if (dx, dy) == (0, 0):
                row.append(letter)
            elif (dx, dy) in offsets:
                row.append("o")
            elif (dx, dy) in blasts:
                row.append("x")
            else:
                row.append(".")
        rows.append(" ".join(row))
    return rows


def _blasts(pos: Any, t: int) -> set[tuple[int, int]]:
    from firmware.rules.board import STRIDE

    out = set()
    for d in pos.game.blasts[t]:
        dy = round(d / STRIDE)
        out.add((d - dy * STRIDE, dy))
    return out


def _home_rank(pos: Any, file: int) -> int:
    """Where White's pawn starts on a file (0-based rank; grosschess's line zig-zags), or the
    lowest rank of White's pawns."""
    lay = pos.game.layout
    ranks = [i // lay.files for i, sq in enumerate(lay.squares) if pos.cells[sq] == WHITE | pos.game.pawn]
    on_file = [i // lay.files for i, sq in enumerate(lay.squares)
               if pos.cells[sq] == WHITE | pos.game.pawn and i % lay.files == file]
    return min(on_file or ranks or [1])


def legend(gid: str) -> list[str]:
    """One game's key, as markdown lines: a table, then each piece's diagram."""
    pos = new_position(gid)
    g = pos.game
    lay = g.layout
    spec, where, points = SPECS[gid]
    rules = (f"[docs/rules/{spec}](rules/{spec})" + (" " + where if where else "")) if spec else where
    out = [f"## {gid}", "", f"Rules: {rules}; points: {points}.", "",
           "| letter | piece | points |", "|---|---|---|"]
    for t in range(1, len(g.letter)):
        out.append(f"| {g.letter[t]} | {g.names[t]} | {g.points[t]} |")
    out.append("")
    mid = ((lay.files - 1) // 2, (lay.ranks - 1) // 2)
    for t in range(1, len(g.letter)):
        letter = g.letter[t]
        places = [("", (mid[0], _home_rank(pos, mid[0]) if t == g.pawn else mid[1]))]
        if gid in ("hundred", "grosschess"):  # the e-file makes some pieces strong
            places = [("off the e-file", (3, places[0][1][1])), ("on the e-file", (4, places[0][1][1]))]
        drawn: list[tuple[str, set[tuple[int, int]]]] = []
        for label, at in places:
            offsets = reach(gid, letter, at)
            if offsets is None:
                continue
            # A square window the board holds on every side, so that rays look alike
            # wherever the piece stands (a pawn: two squares ahead).
            r = 2 if t == g.pawn else min(min(p[1][0], lay.files - 1 - p[1][0], p[1][1], lay.ranks - 1 - p[1][1])
                                          for p in places)
            offsets = {o for o in offsets if abs(o[0]) <= r and abs(o[1]) <= r}
            if drawn and drawn[-1][1] == offsets:
                drawn[-1] = ("", offsets)
                continue
            drawn.append((label, offsets))
        out.append(f"**{letter}, {g.names[t]}** ({g.points[t]})" + (f": {NOTES[(gid, letter)]}" if (gid, letter) in NOTES else ""))
        out.append("")
        blasts = _blasts(pos, t)
        if t == g.pawn:  # where it captures: enemy men on the three squares ahead
            ahead = ((-1, 1), (0, 1), (1, 1))
            blasts = (reach(gid, letter, places[0][1], ahead, captures=True) or set()) - drawn[0][1]
        for label, offsets in drawn:
            if not offsets and not blasts:
                out.append(f"(no move on an open board{', ' + label if label else ''})")
                out.append("")
                continue
            out.append("```")
            if label:
                out.append(label + ":")
            out += diagram(letter, offsets, blasts)
            out.append("```")
            out.append("")
    return out


def page() -> str:
    """docs/pieces.md."""
    head = [
        "# The pieces of every game",
        "",
        "Generated by `python -m host.session.pieces > docs/pieces.md` from the rules core "
        "(a test checks it is current); `help pieces` in `eboard play` shows the game on the board.",
        "Each diagram is drawn by the rules core: the piece (its letter) alone on an open board, "
        "White's, moving up the page; `o` where it may move or capture, `x` where it only "
        "captures (pawns, with enemy men ahead) or captures without moving (the Fougasse). Pawns stand "
        "on their start rank. The specs are in [rules/](rules/); "
        "letters as [rules/notation.md](rules/notation.md).",
        "",
    ]
    body: list[str] = []
    for gid in GAMES:
        body += legend(gid)
    return "\n".join(head + body).rstrip() + "\n"


def text(gid: str) -> str:
    """One game's key for the terminal (no markdown fences)."""
    lines = [ln for ln in legend(gid) if not ln.startswith("```") and not ln.startswith("|---")]
    text = "\n".join(ln.replace("**", "").replace("| ", "").replace(" |", "") for ln in lines).strip()
    return re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", text)  # markdown links: their text


if __name__ == "__main__":
    sys.stdout.write(page())
