"""Square names as chess programs write them, and back.

Our games name their files with the letters of their spec (notation.md: Lippo's and
100-square chess's boards have no file `j`).  Chess programs name files a, b, c, ... in
order, as Fairy-Stockfish does on its large boards (a1 ... l12): so Lippo's `k1` is
`j1` and its `m12` is `l12` in UCI and CECP.  Ranks are numbers from 1, except in CECP on
a board of exactly ten ranks, where XBoard counts them from 0 (engine-intf.html).
Everything else in a move string (a promotion letter, a comma and its extra) is kept.
"""

from __future__ import annotations

from firmware.rules import MoveError


class Coords:
    """Moves and FEN squares of one game, ours <-> a chess program's."""

    def __init__(self, pos, cecp: bool = False) -> None:  # type: ignore[no-untyped-def]
        lay = pos.game.layout
        self.ours = lay.letters
        self.theirs = "abcdefghijklmnop"[: len(lay.letters)]
        self.rank_base = 0 if cecp and lay.ranks == 10 else 1  # XBoard's ten-rank boards: a0 .. a9

    def _squares(self, text: str, src: str, dst: str, base_in: int, base_out: int) -> str:
        out = []
        i = 0
        while i < len(text):
            c = text[i]
            j = i + 1
            while j < len(text) and text[j].isdigit():
                j += 1
            if c in src and j > i + 1:
                out.append(dst[src.index(c)] + str(int(text[i + 1:j]) - base_in + base_out))
                i = j
            else:
                out.append(c)
                i += 1
        return "".join(out)

    def out(self, move: str) -> str:
        """Our move string (or square name) -> the program's."""
        return self._squares(move, self.ours, self.theirs, 1, self.rank_base)

    def into(self, move: str) -> str:
        """The program's move string (or square name) -> ours."""
        return self._squares(move, self.theirs, self.ours, self.rank_base, 1)

    def fen_out(self, fen: str) -> str:
        """Our FEN with its en-passant square in the program's names."""
        f = fen.split()
        if len(f) > 3 and f[3] != "-":
            f[3] = self.out(f[3])
        return " ".join(f)

    def fen_into(self, fen: str) -> str:
        f = fen.split()
        if len(f) == 4 and f[2].isdigit() and f[3].isdigit():
            f[2:2] = ["-", "-"]  # XBoard's FEN of a game with no castling: no castling, no e.p. fields
        if len(f) > 3 and f[3] != "-":
            f[3] = self.into(f[3])
        return " ".join(f)

    def parse(self, pos, text: str) -> int:  # type: ignore[no-untyped-def]
        """The program's move string -> the legal move of pos it names; MoveError in words.
        XBoard's multi-leg form (g3e5,e5c7) is read as our chain (g3e5c7)."""
        ours = self.into(text.strip())
        tries = [ours]
        legs = ours.split(",")
        if len(legs) > 1 and all(len(leg) >= 4 for leg in legs):
            chain = legs[0]
            for leg in legs[1:]:
                first, _ = pos.game.layout.parse_squares(leg) if leg else ([], "")
                if len(first) < 2:
                    break
                chain += leg[len(pos.game.layout.name(first[0])):]
            tries.append(chain)
        for t in tries:
            try:
                return pos.parse_move(t)
            except (MoveError, ValueError):
                continue
        raise MoveError(f"{text} is not a legal move here" + (f" (ours: {ours})" if ours != text else ""))
