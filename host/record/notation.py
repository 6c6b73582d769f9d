"""SAN, the notation players know, over the rules core's own move list (no second move
generator): `san(pos, m)` writes a move (`Nf3`, `exd5`, `O-O`, `e8=Q`, `Pg12,g3`), and
`parse(pos, text)` reads a move typed as SAN or as coordinates (`g1f3`, `g1-f3`), forgiving
case, `-`, `x`, `=`, `+`, `#` where that leaves one move.  A move that cannot be played gets
the reason in words (`MoveError`).  Every game with piece letters (docs/rules/notation.md)
gets SAN; checkers12 keeps its coordinates.

The SAN-like form of the other games: the piece's letter (none for the game's pawn), the
origin's file, rank or square where two men of a kind could go to the same square, `x` for
a capture, the destination, `=X` for a promotion, then anything the coordinate string has
after a comma (lippo's bonus Soldier `,g3`, the throne pawn `,c2`).  Castling is `O-O` for
the FEN letter K/k castling and `O-O-O` for Q/q (hundred.md: K is the a-side one there).
"""

from __future__ import annotations

import re
from typing import Any

from firmware.rules import MoveError
from firmware.rules.board import WHITE
from firmware.rules.position import CASTLE, kind_of

NO_SAN = ("checkers12",)
_SQUARE = re.compile(r"[a-z]\d+")


def _parts(pos: Any, m: int) -> tuple[str, str, str, str]:
    """(from, to, promotion letter or '', text after a comma or '') of a move."""
    text = pos.move_str(m)
    head, _, extra = text.partition(",")
    lay = pos.game.layout
    sqs, rest = lay.parse_squares(head)
    return lay.name(sqs[0]), lay.name(sqs[-1]), rest.upper(), extra


def _castle(pos: Any, m: int) -> str:
    if kind_of(m) != CASTLE:
        return ""
    for c in pos.game.castlings:
        if c.king == pos.move_from(m) and c.to == pos.move_to(m):
            return "O-O" if c.letter in "Kk" else "O-O-O"
    return ""


def _base(pos: Any, m: int) -> tuple[str, str, str, str, str]:
    """(letter, from, 'x' or '', to, suffix) of a move, before any disambiguation."""
    frm, to, promo, extra = _parts(pos, m)
    t = pos.cells[pos.move_from(m)] & 31
    letter = "" if t == pos.game.pawn else pos.game.letter[t]
    suffix = ("=" + promo if promo else "") + ("," + extra if extra else "")
    return letter, frm, "x" if pos.takes(m) else "", to, suffix


def _check_mark(pos: Any, m: int) -> str:
    if not pos.game.check_rules:
        return ""
    pos.push(m)
    try:
        if not pos.is_check():
            return ""
        return "#" if not pos.has_legal_move() else "+"
    finally:
        pos.pop()


def san(pos: Any, m: int, moves: list[int] | None = None, marks: bool = True) -> str:
    """The SAN of a legal move in pos (coordinates in checkers12); moves: pos's legal
    moves, if already at hand; marks: add + and # (games with a check rule)."""
    if pos.game.id in NO_SAN:
        return str(pos.move_str(m))
    text = _castle(pos, m)
    if not text:
        letter, frm, cap, to, suffix = _base(pos, m)
        rivals = [o for o in (pos.legal_moves() if moves is None else moves) if o != m and not _castle(pos, o)]
        rivals = [b for b in (_base(pos, o) for o in rivals) if (b[0], b[3], b[4]) == (letter, to, suffix)]
        if not letter:
            qual = frm[0] if cap else ""
            if any(b[1][0] == qual or not cap for b in rivals):
                qual = frm  # pawns that could both go there (hundred's backward steps)
        elif not rivals:
            qual = ""
        elif all(b[1][0] != frm[0] for b in rivals):
            qual = frm[0]
        elif all(b[1][1:] != frm[1:] for b in rivals):
            qual = frm[1:]
        else:
            qual = frm
        text = letter + qual + cap + to + suffix
    return text + (_check_mark(pos, m) if marks else "")


def _norm(text: str) -> str:
    t = text.strip()
    if re.fullmatch(r"[0oO](-[0oO]){1,2}[+#!?]*", t):  # castling, typed any way
        t = t.replace("0", "O").replace("o", "O")
    t = t.replace("_", ",")  # PGN's stand-in for notation.md's comma
    for ch in "-x:=+#!?":
        t = t.replace(ch, "")
    return t


def _spellings(pos: Any, m: int) -> set[str]:
    """Every way of typing a move that names it: coordinates, and SAN with any degree of
    disambiguation, normalised."""
    out = {_norm(pos.move_str(m))}
    if pos.game.id in NO_SAN:
        return out
    castle = _castle(pos, m)
    if castle:
        out.add(_norm(castle))
    letter, frm, cap, to, suffix = _base(pos, m)
    for qual in ("", frm[0], frm[1:], frm):
        if qual == "" and not letter and cap:
            continue  # "xd5" alone is not SAN for a pawn
        out.add(_norm(letter + qual + to + suffix))
    return out


def parse(pos: Any, text: str, ask: bool = False) -> int:
    """The legal move a typed move names (SAN or coordinates); MoveError with the reason in
    words if it names none, or more than one.  ask: a promotion typed without its piece is
    asked about (a person typing), not read as the plain move (a record: lippo's decline)."""
    typed = text.strip()
    if not typed:
        raise MoveError("no move given")
    key = _norm(typed)
    legal = pos.legal_moves()
    chosen = _promotion(pos, typed, key, legal) if ask else None
    if chosen is not None:
        return chosen
    pseudo = pos.pseudo_moves() if pos.game.check_rules else legal
    # Lower case is read as SAN too (nf3), but never a move typed as squares: lippo's a1a4
    # (its Fortress cannot go there) would be its Aeroplane's A1a4, another man's move.
    as_squares = re.match(r"[a-z]\d+[a-z]\d+", key) is not None
    for same_case in (True,) if as_squares else (True, False):
        k = key if same_case else key.lower()
        found = [m for m in pseudo if k in ((s if same_case else s.lower()) for s in _spellings(pos, m))]
        ok = [m for m in found if m in legal]
        if len(ok) == 1:
            return int(ok[0])
        if len(ok) > 1:
            names = ", ".join(sorted({san(pos, m, legal, marks=False) for m in ok}))
            raise MoveError(f"{typed} is ambiguous: {names}")
        if found:
            if pos.is_check():
                raise MoveError(f"{typed}: your king is in check, and this move does not end it")
            raise MoveError(f"{typed}: your king would be in check")
    if key.upper() in ("OO", "OOO"):
        which = "short" if key.upper() == "OO" else "long"
        raise MoveError(f"{typed}: castling {which} is not possible now")
    raise MoveError(why(pos, typed))


class WhichPiece(MoveError):
    """A promotion typed without its piece: the question, and its answers (a piece's letter,
    lower case -> the move typed with it)."""

    def __init__(self, text: str, answers: dict[str, str]) -> None:
        super().__init__(text)
        self.answers = answers


def _promotion(pos: Any, typed: str, key: str, legal: list[int]) -> int | None:
    """A promotion typed without its piece (`e7e8`, `e8`; lippo's `e11e12`, which would
    otherwise decline): MoveError asking which piece, never a choice made by accident.
    Lippo's decline typed as the Soldier it stays (`e11e12s`, `e12=S`): the plain move.
    None if the typed move names no promotion."""
    low = key.lower()
    promos = []
    for m in legal:
        frm, to, promo, extra = _parts(pos, m)
        if promo and not extra and any(sp[:-1].lower() in (low, low[:-1]) for sp in _spellings(pos, m)):
            promos.append(m)
    stems = {sp[:-1].lower() for m in promos for sp in _spellings(pos, m)}
    if low not in stems and low[:-1] not in stems:
        return None
    g = pos.game
    mover = pos.cells[pos.move_from(promos[0])] & 31
    frm, to, _, _ = _parts(pos, promos[0])
    stays = [m for m in legal if pos.move_str(m) == frm + to]  # lippo: declining is the plain move
    if low in stems:
        coords = _SQUARE.fullmatch(low[len(frm):] or "-") is not None and low.startswith(frm)
        plain = typed.strip().rstrip("=+#!?")
        choices = [(f"{plain}{_parts(pos, m)[2].lower()}" if coords else f"{plain}={_parts(pos, m)[2]}",
                    g.names[g.letter.find(_parts(pos, m)[2])]) for m in promos]
        said = ", ".join(f"{t} ({name.lower()})" for t, name in choices)
        answers = {t[-1].lower(): t for t, _ in choices}
        if stays:
            letter = g.letter[mover]
            said += f", or {plain}{letter.lower() if coords else '=' + letter} (it stays a {g.names[mover].lower()})"
            answers[letter.lower()] = f"{plain}{letter.lower() if coords else '=' + letter}"
        raise WhichPiece(f"{typed} promotes: which piece? {said}", answers)
    if stays and low[-1:] == g.letter[mover].lower():
        return int(stays[0])
    return None


def why(pos: Any, text: str) -> str:
    """Why a typed move that names no move of the position cannot be played, in words."""
    g = pos.game
    lay = g.layout
    names = _SQUARE.findall(text)
    for n in names:
        try:
            lay.cell(n)
        except ValueError:
            return f"{n} is not a square of {g.id}"
    side = "White" if pos.turn == WHITE else "Black"
    if len(names) >= 2 and re.match(r"^[a-z]\d+", text.strip()):  # coordinates: from, to
        frm = lay.cell(names[0])
        c = pos.cells[frm]
        if not c:
            return f"{text}: there is no piece on {names[0]}"
        if not c & pos.us:
            return f"{text}: the piece on {names[0]} is not {side}'s ({side} to move)"
        t = c & 31
        return f"{text}: the {g.names[t]} on {names[0]} cannot move there"
    if not names:
        return f"{text!r} is not a move: type it as SAN (Nf3, exd5, O-O, e8=Q) or as squares (g1f3)"
    letter = text.strip()[:1]
    t = g.letter.find(letter.upper()) if letter.isalpha() and letter.upper() != letter.lower() else -1
    if letter.isupper() and t > 0:
        return f"{text}: no {g.names[t]} of {side}'s can move to {names[-1]}"
    return f"{text}: no move of {side}'s goes to {names[-1]}"


def san_list(gid: str, fen: str | None, moves: list[str]) -> list[str]:
    """The SAN of a game's moves (its move strings) from fen; a move that does not replay,
    and all after it, stay as they are."""
    from firmware.rules import new_position

    pos = new_position(gid, fen)
    out = []
    for text in moves:
        try:
            m = pos.parse_move(text)
        except MoveError:
            return out + moves[len(out):]
        out.append(san(pos, m))
        pos.push(m)
    return out


def parse_line(pos: Any, line: str) -> list[int]:
    """Several moves typed on one line (`e4 e5 Nf3`), all legal one after the other: the
    move ints; MoveError (naming the move and why) if any is not, and pos is left as it was.
    A promotion typed without its piece is asked about (parse's ask)."""
    done = 0
    out = []
    try:
        for word in line.split():
            if re.fullmatch(r"\d+\.+", word):  # move numbers, as in `1. e4 e5`
                continue
            try:
                m = parse(pos, word, ask=True)
            except MoveError as e:
                if len(line.split()) == 1:
                    raise
                raise MoveError(f"move {len(out) + 1} of the line: {e}; nothing played") from None
            out.append(m)
            pos.push(m)
            done += 1
    finally:
        for _ in range(done):
            pos.pop()
    return out


__all__ = ["MoveError", "parse", "parse_line", "san", "san_list", "why"]
