"""A Kriegspiel announcement in words (kriegspiel.md §5): as the umpire says it, in the seed's
Russian or in English, and a refusal by the mover's own board (§4's reason codes) in words.
The umpire's command, its players' views, the PGN export and the web pages all say them so."""

from __future__ import annotations

import json

RU = {"white": "Белые", "black": "Чёрные"}
EN_DIR = {
    "rank": "along a rank", "file": "along a file", "long_diagonal": "on the long diagonal",
    "short_diagonal": "on the short diagonal", "diagonal": "on a diagonal", "knight": "by a knight's move",
}
RU_DIR = {
    "rank": "по горизонтали", "file": "по вертикали", "long_diagonal": "по большой диагонали",
    "short_diagonal": "по малой диагонали", "diagonal": "по диагонали", "knight": "конём",
}


# kriegspiel.md §4's reason codes of a refusal by the mover's own board, in words
REJECTED = {
    "not_possible_on_own_board": "no man of yours can move so",
    "promotion_piece_required": "say which piece the pawn becomes (e8=Q)",
    "already_refused_this_turn": "the umpire already refused that move this turn",
    "must_try_pawn_capture": "you asked and were told yes: try a pawn capture first",
    "already_asked_this_turn": "you already asked this turn",
    "no_pawns": "you have no pawn that could capture",
    "game_over": "the game is over",
}
REJECTED_RU = {
    "not_possible_on_own_board": "так не ходит ни одна ваша фигура",
    "promotion_piece_required": "назовите фигуру превращения (e8=Q)",
    "already_refused_this_turn": "этот ход уже был невозможен",
    "must_try_pawn_capture": "вам ответили «да»: попробуйте взять пешкой",
    "already_asked_this_turn": "вы уже спрашивали в этот ход",
    "no_pawns": "у вас нет пешки, которая могла бы бить",
    "game_over": "партия окончена",
}

# A Kriegspiel board answers "Can I capture?" with its margin in the win colour (yes) or
# the draw colour (no) (firmware/krieg.py): until the game is over, the legends say so.
ANSWER_LEDS = {"W": "the umpire's Yes: a pawn of yours can capture", "D": "the umpire's No: no pawn capture"}


def plies(n: int) -> str:
    """'1 ply', '2 plies'."""
    return f"{n} ply" if n == 1 else f"{n} plies"


def words(a: dict[str, object], lang: str = "en") -> str:
    """An announcement as the umpire says it (§5: seed wording in Russian, or English)."""
    t = a["type"]
    side = str(a.get("side", ""))
    ru = lang == "ru"
    who = RU.get(side, side) if ru else side.capitalize()
    if t == "attempt":
        return ("Вы пробуете " if ru else "You try ") + str(a["move"])
    if t == "moved":
        return f"{who} сделали ход." if ru else f"{who} has moved."
    if t in ("move_impossible", "illegal_move"):
        return "Ход невозможен." if ru else "Move impossible."
    if t == "capture":
        return f"{who} бьют на поле {a['square']}." if ru else f"{who} captures on {a['square']}."
    if t == "promotion":
        return f"Превращение на поле {a['square']}." if ru else f"Promotion on {a['square']}."
    if t == "check":
        d = str(a["direction"])
        return f"{who} шахуют {RU_DIR.get(d, d)}." if ru else f"{who} checks {EN_DIR.get(d, d)}."
    if t == "pawn_capture_question":
        return "Могу ли бить?" if ru else "Can I capture?"
    if t == "pawn_capture_answer":
        return ("Да." if a["answer"] else "Нет.") if ru else ("Yes." if a["answer"] else "No.")
    if t == "checkmate":
        w = str(a["winner"])
        return f"Мат. {RU[w]} выиграли." if ru else f"Checkmate. {w.capitalize()} wins."
    if t == "stalemate":
        return "Пат. Ничья." if ru and a["result"] == "draw" else "Stalemate: " + str(a["result"]) + "."
    if t == "draw":
        return "Ничья." if ru else f"Draw ({a['reason']})."
    if t == "rejected":
        why = (REJECTED_RU if ru else REJECTED).get(str(a["reason"]), str(a["reason"]).replace("_", " "))
        return ("Отказ: " if ru else "Refused by your board: ") + why
    if t == "resigned":
        return f"{who} сдались." if ru else f"{who} resigns."
    if t == "opening_played":
        return "Дебют сыгран." if ru else "The traditional opening is played."
    if t == "setup_conflict":
        return "Расстановка недопустима." if ru else "Setup conflict: set up again."
    return json.dumps(a, ensure_ascii=False)
