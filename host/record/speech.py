"""Moves, ends and corrections in words, to be said aloud or read by a screen reader.

Every move of every game of the rules core gets a sentence, as lichess's blind mode says
SAN: "Knight takes e5, check.", "Pawn to e8, becomes a queen.", "Castles king side.".
The facts come from the rules core (the piece on the square, `takes`, the check and mate
marks of host.record.notation's SAN, castlings and the man standing on the square after
the move), never from a second reading of the rules.

The pieces' names are the rules core's (docs/pieces.md), in English; in Russian from the
table RU below.  A square is said as its file and rank; the files past h are each said as
a word of the NATO spelling alphabet, so that "i" is never heard as "eye" or "I", nor "m"
as "n":

    i india   j juliett   k kilo   l lima   m mike

(lippo: a ... h india kilo lima mike; hundred and grosschess: a ... h india kilo.)  In
Russian the files a ... h are the letters' Russian names as chess players say them (а, бэ,
цэ, дэ, е, эф, жэ, аш) and the files past h the same spelling words in Cyrillic (Индия,
Джульетт, Кило, Лима, Майк), so that espeak-ng's Russian voice never falls back to English
letters.

The Speaker says sentences: aloud through espeak-ng (a thread and a queue: the game loop
never waits for the voice), or printed one a line (--words: for a screen reader).
"""

from __future__ import annotations

import atexit
import queue
import re
import shutil
import subprocess
import threading
from typing import Any, Callable, TextIO

from firmware.rules import new_position
from firmware.rules.board import BLACK, EMPTY, WHITE
from firmware.rules.position import BLAST, CASTLE, kind_of
from host.record.notation import san

LANGS = ("en", "ru")
FILE_WORDS = {"i": "india", "j": "juliett", "k": "kilo", "l": "lima", "m": "mike"}
FILE_WORDS_RU = {
    "a": "а", "b": "бэ", "c": "цэ", "d": "дэ", "e": "е", "f": "эф", "g": "жэ", "h": "аш",
    "i": "Индия", "j": "Джульетт", "k": "Кило", "l": "Лима", "m": "Майк",
}

# A piece's Russian name: (nominative, accusative), by game and letter.
_CHESS_RU = {
    "P": ("пешка", "пешку"), "N": ("конь", "коня"), "B": ("слон", "слона"), "R": ("ладья", "ладью"),
    "Q": ("ферзь", "ферзя"), "K": ("король", "короля"),
}
_HUNDRED_RU = dict(_CHESS_RU, Z=("шут", "шута"), G=("генерал", "генерала"))
RU = {
    "chess": _CHESS_RU,
    "chess960": _CHESS_RU,
    "gardner": _CHESS_RU,
    "lippo": {
        "P": ("Президент", "Президента"), "D": ("Адъютант", "Адъютанта"), "G": ("Газ", "Газ"),
        "A": ("Аэроплан", "Аэроплан"), "H": ("Шрапнель", "Шрапнель"), "M": ("Мортира", "Мортиру"),
        "K": ("Крепость", "Крепость"), "E": ("Граната", "Гранату"), "O": ("Офицер", "Офицера"),
        "N": ("Кавалерия", "Кавалерию"), "T": ("Танк", "Танк"), "L": ("Пулемёт", "Пулемёт"),
        "F": ("Фугас", "Фугас"), "U": ("Унтер-офицер", "Унтер-офицера"), "S": ("Солдат", "Солдата"),
    },
    "checkers12": {"M": ("шашка", "шашку"), "K": ("дамка", "дамку")},
    "courier": dict(_CHESS_RU, B=("курьер", "курьера"), F=("ферзь", "ферзя"), M=("манн", "манна"),
                    W=("шляйх", "шляйха"), E=("альфил", "альфила")),
    "hundred": _HUNDRED_RU,
    "grosschess": dict(_HUNDRED_RU, V=("королева", "королеву"), I=("принц", "принца"), M=("марс", "марса"),
                       S=("стрелец", "стрельца"), O=("офицер", "офицера")),
    "chess-t1": {
        "K": ("король", "короля"), "C": ("коннет", "коннета"), "P": ("принц", "принца"),
        "R": ("риттер", "риттера"), "I": ("кнехт", "кнехта"), "V": ("веркнехт", "веркнехта"),
        "S": ("скаут", "скаута"),
    },
}
SIDE = {"en": {"white": "White", "black": "Black"}, "ru": {"white": "Белые", "black": "Чёрные"}}
_OF = {"en": {"white": "White's", "black": "Black's"}, "ru": {"white": "белых", "black": "чёрных"}}


def _lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"no sentences in {lang!r}: the languages are {', '.join(LANGS)}")
    return lang


def square_words(name: str, lang: str = "en") -> str:
    """A square's name as it is said: 'e4', 'india 5', 'kilo 10' (Russian: 'е 4', 'Кило 10')."""
    f, rank = name[:1], name[1:]
    if _lang(lang) == "ru":
        return f"{FILE_WORDS_RU.get(f, f)} {rank}"
    return f"{FILE_WORDS[f]} {rank}" if f in FILE_WORDS else name


def piece_name(game: Any, t: int, lang: str = "en", case: int = 0) -> str:
    """The name of piece type t of game (a rules core Game): the rules core's own name in
    English (grosschess's weak queen is said 'korolewa', never 'queen'), RU's in Russian
    (case 0 nominative, 1 accusative)."""
    letter = game.letter[t]
    if _lang(lang) == "ru":
        return RU[game.id][letter][case]
    name = game.names[t]
    m = re.fullmatch(r"\w+ \((\w+)\)", name)
    return m.group(1) if m else name


def _a(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _sentence(text: str) -> str:
    return _cap(text) + ("" if text.endswith((".", "!", "?")) else ".")


def move_words(pos: Any, m: int, lang: str = "en", moves: list[int] | None = None) -> str:
    """A legal move m of pos in words (pos is left as it was): 'Knight takes e5, check.';
    moves: pos's legal moves, if at hand."""
    return _sentence(_phrase(pos, m, _lang(lang), moves))


def _phrase(pos: Any, m: int, lang: str, moves: list[int] | None = None) -> str:
    ru = lang == "ru"
    g = pos.game
    lay = g.layout
    if g.id == "checkers12":
        return _checkers(pos, m, lang)
    frm, to = pos.move_from(m), pos.move_to(m)
    t = pos.cells[frm] & 31
    name = piece_name(g, t, lang)
    sq = lambda c: square_words(lay.name(c), lang)  # noqa: E731
    text = pos.move_str(m)
    extra = text.partition(",")[2]
    full = san(pos, m, moves)  # (one SAN: its rivals and its check mark are the costly part)
    mark = full[-1:] if g.check_rules and full[-1:] in ("+", "#") else ""
    if kind_of(m) == BLAST:  # lippo's Fougasse: the victim goes, the Fougasse stays
        victim = piece_name(g, pos.cells[to] & 31, lang, 1)
        said = (f"{name} {sq(frm)} взрывает {victim} {sq(to)}" if ru
                else f"{name} on {sq(frm)} blows up the {victim} on {sq(to)}")
    elif kind_of(m) == CASTLE:
        said = _castle(pos, m, lang)
    else:
        plain = full.rstrip("+#")
        qual = re.match(r"[A-Z]?([a-m]?\d*)x?[a-m]\d+", plain)  # SAN's from file, rank or square
        where = f" с {sq(frm)}" if ru else f" from {sq(frm)}"
        said = name + (where if qual and qual.group(1) else "")
        partner = pos.cells[to]
        if partner != EMPTY and partner & pos.us:  # hundred's pawn castling: the two change places
            other = piece_name(g, partner & 31, lang)
            said += (f" и {other} {sq(to)} меняются местами" if ru
                     else f" changes places with the {other} on {sq(to)}")
        elif pos.takes(m):
            said += f" бьёт {sq(to)}" if ru else f" takes {sq(to)}"
        else:
            said += (f" на {sq(to)}" if qual and qual.group(1) else f" {sq(to)}") if ru else f" to {sq(to)}"
        if extra and extra != "k" and g.royal and t != g.royal:  # grosschess's queen: a second victim
            said += f", затем {square_words(extra, lang)}" if ru else f", then {square_words(extra, lang)}"
    us = pos.us
    buf = [0] * 64
    touched = set(buf[0:2 * pos.effects(m, buf):2])  # the squares the move itself changes
    before = bytes(pos.cells)
    pos.push(m)
    try:  # the mover, where it stands now: what it became (a promotion, automatic ones too)
        now = pos.cells[to]
        if kind_of(m) != BLAST and not now & us and extra[:1].isalpha() and extra != "k":
            now = pos.cells[lay.cell(extra)]  # grosschess's queen ends on her second victim's square
        after = now & 31 if now & us else t
        # men the rules put on the board after the move (lippo's §11: Soldiers for Fougasses)
        new_men = [(sq, pos.cells[sq]) for sq in lay.squares
                   if sq not in touched and pos.cells[sq] != before[sq] and pos.cells[sq] != EMPTY]
    finally:
        pos.pop()
    if kind_of(m) != BLAST and after != t:
        new = piece_name(g, after, lang, 1)
        said += f", превращается в {new}" if ru else f", becomes {_a(new)}"
    if extra and extra != "k" and g.id == "lippo":  # §12: the President earns a Soldier
        said += (f", новый Солдат на {square_words(extra, lang)}" if ru
                 else f", and a new Soldier on {square_words(extra, lang)}")
    elif extra and extra != "k" and t == g.royal:  # the throne visit brings a pawn onto the pawn rank
        pawn = piece_name(g, g.pawn, lang)
        said += f", {pawn} ставится на {square_words(extra, lang)}" if ru else f", a {pawn} comes onto {square_words(extra, lang)}"
    said += _new_men(g, new_men, lang)
    if mark == "+":
        said += ", шах" if ru else ", check"
    elif mark == "#":
        said += ", мат" if ru else ", checkmate"
    return said


def _new_men(g: Any, men: list[tuple[int, int]], lang: str) -> str:
    """', White gets a Soldier on f2 and g2': men the rules put on the board after a move."""
    out = ""
    for side, colour in (("white", WHITE), ("black", BLACK)):
        by_type: dict[int, list[str]] = {}
        for sq, c in men:
            if c & colour:
                by_type.setdefault(c & 31, []).append(square_words(g.layout.name(sq), lang))
        for t, sqs in by_type.items():
            if lang == "ru":
                out += f", у {_OF['ru'][side]} {piece_name(g, t, lang)} на {' и '.join(sqs)}"
            else:
                out += f", {SIDE['en'][side]} gets {_a(piece_name(g, t, lang))} on {' and '.join(sqs)}"
    return out


def _castle(pos: Any, m: int, lang: str) -> str:
    ru = lang == "ru"
    g = pos.game
    for c in g.castlings:  # (chess960: the position's own Game, with its start's castlings)
        if c.king == pos.move_from(m) and c.to == pos.move_to(m):
            if g.id in ("chess", "chess960"):
                short = c.letter in "Kk"
                if ru:
                    return "короткая рокировка" if short else "длинная рокировка"
                return "castles king side" if short else "castles queen side"
            lay = g.layout
            king = piece_name(g, pos.cells[c.king] & 31, lang)
            rook = piece_name(g, pos.cells[c.rook] & 31, lang)
            k, r = square_words(lay.name(c.king_to), lang), square_words(lay.name(c.rook_to), lang)
            return f"рокировка: {king} {k}, {rook} {r}" if ru else f"castles: the {king} to {k}, the {rook} to {r}"
    return "рокировка" if ru else "castles"


def _checkers(pos: Any, m: int, lang: str) -> str:
    ru = lang == "ru"
    g = pos.game
    lay = g.layout
    path = pos.path(m)
    t = pos.cells[path[0]] & 31
    name = piece_name(g, t, lang)
    sq = lambda c: square_words(lay.name(c), lang)  # noqa: E731
    taken = pos.captured(m)
    if taken:
        said = (f"{name} с {sq(path[0])} прыгает на {', '.join(sq(c) for c in path[1:])}, бьёт "
                if ru else f"{name} from {sq(path[0])} jumps to {', '.join(sq(c) for c in path[1:])}, taking ")
        said += ", ".join(sq(c) for c in taken)
    else:
        said = f"{name} с {sq(path[0])} на {sq(path[-1])}" if ru else f"{name} from {sq(path[0])} to {sq(path[-1])}"
    pos.push(m)
    try:
        after = pos.cells[path[-1]] & 31
    finally:
        pos.pop()
    if after != t:
        new = piece_name(g, after, lang, 1)
        said += f", превращается в {new}" if ru else f", becomes {_a(new)}"
    return said


def move_text_words(game: str, fen: str | None, move_str: str, lang: str = "en") -> str:
    """A move as a board reports it (its move string, made from fen) in words; the move
    string itself if it does not replay there."""
    try:
        pos = new_position(game, fen)
        return move_words(pos, pos.parse_move(move_str), lang)
    except ValueError:
        return move_str


def computer_words(pos: Any, m: int, lang: str = "en") -> str:
    """The computer's move, said before it is made on the board."""
    said = _phrase(pos, m, _lang(lang))
    if lang == "ru":
        return f"Компьютер играет: {said}. Сделайте этот ход на доске."
    return f"The computer plays {said}: make it on the board."


def put_back_words(pos: Any, m: int, lang: str = "en") -> str:
    """What a player does to take back move m, pos being the position before it (the one
    the takeback returns to): every man the move moved or took, put back on its square
    ('Put the knight back on g1.'), from the rules core's effects of the move."""
    ru = _lang(lang) == "ru"
    g = pos.game
    lay = g.layout
    buf = [0] * 64
    n = pos.effects(m, buf)
    said = []
    for i in range(n):
        cell = buf[2 * i]
        c = pos.cells[cell]
        if c == EMPTY:
            continue
        side = "white" if c & WHITE else "black"
        mine = bool(c & pos.us)
        name = piece_name(g, c & 31, lang, 1)
        where = square_words(lay.name(cell), lang)
        if ru:
            said.append(f"поставьте {name}{'' if mine else ' ' + _OF['ru'][side]} обратно на {where}")
        else:
            said.append(f"put {'the' if mine else _OF['en'][side]} {name} back on {where}")
    if not said:
        return _sentence("верните фигуры, как показывает доска" if ru else "set the men as the board shows")
    return _sentence(", ".join(said))


def takeback_words(game: str, fen: str, moves: list[str], lang: str = "en") -> str:
    """A takeback as a board reports it in words: moves, as they were taken back (the last
    move first), fen the position they return to."""
    ru = _lang(lang) == "ru"
    try:
        pos = new_position(game, fen)
        made = []
        for text in reversed(moves):
            made.append(pos.parse_move(text))
            pos.push(made[-1])
        said = []
        for m in reversed(made):
            pos.pop()
            said.append(put_back_words(pos, m, lang))
        return " ".join(said)
    except ValueError:
        return _sentence("верните фигуры, как показывает доска" if ru else "set the men as the board shows")


def winner_words(result: str, lang: str = "en") -> str:
    """'1-0' -> 'White wins', '0-1' -> 'Black wins', '1/2-1/2' -> 'a draw'."""
    ru = _lang(lang) == "ru"
    if result == "1-0":
        return "белые выиграли" if ru else "White wins"
    if result == "0-1":
        return "чёрные выиграли" if ru else "Black wins"
    return "ничья" if ru else "a draw"


END_EN = {
    "checkmate": "checkmate", "stalemate": "stalemate", "insufficient-material": "no mate is possible",
    "seventyfive-moves": "seventy-five moves without a capture or a pawn move",
    "fifty-moves": "fifty moves without a capture or a pawn move", "fivefold-repetition": "the position came five times",
    "threefold-repetition": "the position came three times", "president-captured": "the President is taken",
    "surrender": "surrender", "patt": "patt", "no-moves": "no move left", "claim": "a claim",
    "agreement": "agreement", "time": "a flag fell, and the other side cannot mate",
}
END_RU = {
    "checkmate": "мат", "stalemate": "пат", "insufficient-material": "мат невозможен",
    "seventyfive-moves": "семьдесят пять ходов без взятий и ходов пешками",
    "fifty-moves": "пятьдесят ходов без взятий и ходов пешками", "fivefold-repetition": "позиция повторилась пять раз",
    "threefold-repetition": "позиция повторилась три раза", "president-captured": "Президент взят",
    "surrender": "сдача", "patt": "пат", "no-moves": "ходов нет", "claim": "по заявлению", "agreement": "по соглашению",
    "time": "упал флажок, а у другой стороны нет мата",
}


def resign_words(side: str, lang: str = "en") -> str:
    """'White resigns.'"""
    return _sentence(f"{SIDE['ru'][side]} сдались" if _lang(lang) == "ru" else f"{SIDE['en'][side]} resigns")


def flag_words(side: str, result: str, lang: str = "en") -> str:
    """The side whose flag fell, and the result: "Black's flag fell: White wins." (a draw
    where the other side cannot mate)."""
    if _lang(lang) == "ru":
        return _sentence(f"У {'белых' if side == 'white' else 'чёрных'} упал флажок: {winner_words(result, lang)}")
    return _sentence(f"{_OF['en'][side]} flag fell: {winner_words(result, lang)}")


def end_words(reason: str, result: str, lang: str = "en") -> str:
    """A game's end (the board's `end REASON RESULT`, or a host's) in words: 'Checkmate:
    White wins.', 'Draw by agreement.', 'Black resigns.', "Black's flag fell: White wins."."""
    ru = _lang(lang) == "ru"
    if reason in ("resign", "resignation"):
        return resign_words("black" if result == "1-0" else "white", lang)
    if reason == "time" and result in ("1-0", "0-1"):
        return flag_words("black" if result == "1-0" else "white", result, lang)
    if reason == "agreement" and result == "1/2-1/2":
        return _sentence("ничья по соглашению" if ru else "draw by agreement")
    why = (END_RU if ru else END_EN).get(reason, reason.replace("-", " "))
    return _sentence(f"{why}: {winner_words(result, lang)}")


def wav(text: str, path: str, lang: str = "en", exe: str | None = None) -> None:
    """text said by espeak-ng into a WAV file (the tests measure it with sox)."""
    exe = exe or shutil.which("espeak-ng")
    if exe is None:
        raise FileNotFoundError("espeak-ng is not installed (apt-get install espeak-ng)")
    subprocess.run([exe, "-v", _lang(lang), "-w", path, text], capture_output=True, check=True)


class Speaker:
    """Says sentences: aloud with espeak-ng in a thread of its own, one after the other (say()
    only queues: the game loop never waits for the voice), or, aloud=False, printed one a
    line on out (--words: for a screen reader)."""

    def __init__(self, lang: str = "en", aloud: bool = True, out: TextIO | None = None,
                 run: Callable[[list[str]], object] | None = None) -> None:
        self.lang = _lang(lang)
        self.aloud = aloud
        self.out = out
        self.exe = shutil.which("espeak-ng") if aloud else None
        if aloud and self.exe is None:
            raise FileNotFoundError("espeak-ng is not installed (apt-get install espeak-ng): nothing can be said aloud")
        self._run = run or (lambda argv: subprocess.run(argv, capture_output=True, check=False))
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None

    def say(self, text: str) -> None:
        if not text:
            return
        if not self.aloud:
            if self.out is not None:
                self.out.write(text + "\n")
                self.out.flush()
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._voice, name="speaker", daemon=True)
            self._thread.start()
            atexit.register(self.close)  # the last words (the result) said before the program ends
        self._queue.put(text)

    __call__ = say

    def _voice(self) -> None:
        while True:
            text = self._queue.get()
            try:
                if text is None:
                    return
                self._run([str(self.exe), "-v", self.lang, text])
            finally:
                self._queue.task_done()

    def close(self) -> None:
        """Say what is queued, then stop the voice's thread."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None


__all__ = ["LANGS", "Speaker", "computer_words", "end_words", "flag_words", "move_text_words", "move_words", "piece_name",
           "put_back_words", "resign_words", "square_words", "takeback_words", "wav", "winner_words"]
