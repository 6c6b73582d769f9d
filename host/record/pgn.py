"""PGN export of an archived game, in the PGN standard's export format: the Seven Tag
Roster; Variant, FEN and SetUp for any game or start that is not orthodox chess's;
Termination (the standard's values; the rules' own reason as a comment before the result);
movetext in SAN (host/record/notation.py: chess as the standard has it, the other games in the same
SAN-like form, checkers12 in coordinates), with `_` for notation.md's comma (PGN symbols
have no comma); for lippo the points; for Kriegspiel the umpire's announcements as comments.
`read_moves` reads such movetext back through the rules core.
"""

from __future__ import annotations

import re
from typing import Any

from firmware.rules import GAMES, FenError, MoveError, new_position
from firmware.rules.board import WHITE
from host.record.archive import GameRow
from host.record.clock import pgn_clk
from host.record.notation import parse, san_list

# The Variant tag: one convention, the name Fairy-Stockfish's UCI_Variant and pychess give
# the game where they have one (chess, chess960, courier, gardner), else the game's own id
# (lippo, checkers12, hundred, grosschess, chess-t1): docs/results.md's table.
VARIANTS = {gid: gid for gid in GAMES}
# The rules' reasons (Outcome.reason, 'end' messages) -> PGN Termination (a resignation, a
# draw agreed or claimed: "normal", as PGN has it; the reason in words in a comment).
TERMINATION = {"abandoned": "abandoned", "time": "time forfeit", "adjourned": "unterminated"}
REASON_WORDS = {"agreement": "draw agreed", "threefold-repetition": "draw claimed: threefold repetition",
                "fifty-moves": "draw claimed: the 50-move rule", "forty-moves": "draw claimed: the 40-move rule"}
ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


def reason_words(reason: str, result: str) -> str:
    """How the game ended, in the words of the comment before the result ('Black resigns')."""
    if reason == "resign":
        return ("Black" if result == "1-0" else "White") + " resigns"
    return REASON_WORDS.get(reason, reason.replace("-", " "))

# An online game's ends that no board says (host/online: lichess's statuses)
TERMINATION.update({"aborted": "abandoned", "rules-infraction": "rules infraction"})


def _tag(name: str, value: str) -> str:
    return '[%s "%s"]' % (name, value.replace("\\", "\\\\").replace('"', '\\"'))


def _comment(text: str) -> str:
    return "{" + text.replace("}", ")").replace("{", "(") + "}"


def unreadable(g: GameRow, moves: list[str] | None = None) -> str | None:
    """Why an archived game cannot be shown or exported, in words ('game 7: its game 'junk'
    is not one this eboard knows ...'), or None.  An archive may hold such a row from an
    older eboard (one that filed what another program said on a board's port); every
    exporter names it and goes on with the other games.  moves: also check that they replay."""
    if g.game not in GAMES:
        return f"game {g.id}: its game {g.game!r} is not one this eboard knows ({', '.join(GAMES)})"
    try:
        pos = new_position(g.game, g.fen)
    except FenError as e:
        return f"game {g.id}: its start is not a {g.game} position ({e})"
    for n, m in enumerate(moves or [], 1):
        try:
            pos.push_str(m)
        except MoveError as e:
            return f"game {g.id}: its move {n}, {m}, does not replay ({e})"
    return None


def termination(g: GameRow) -> str:
    """The PGN Termination of a game: normal, abandoned, time forfeit, unterminated."""
    if not g.ended or g.result in (None, "*"):
        return TERMINATION.get(g.reason or "", "unterminated")
    return TERMINATION.get(g.reason or "", "normal")


def movetext(gid: str, fen: str | None, moves: list[str], comments: dict[int, list[str]] | None = None) -> list[str]:
    """The movetext words of moves (the game's move strings) from fen: move numbers, SAN,
    and comments[i] after ply i (0: before the first move)."""
    pos = new_position(gid, fen)
    number, white_turn = pos.fullmove, pos.turn == WHITE
    words: list[str] = []
    comments = comments or {}
    for c in comments.get(0, []):
        words.append(_comment(c))
    for i, text in enumerate(san_list(gid, fen, moves)):
        if white_turn:
            words.append(f"{number}.")
        elif i == 0 or comments.get(i):
            words.append(f"{number}...")
        words.append(text.replace(",", "_"))
        number += 0 if white_turn else 1
        white_turn = not white_turn
        for c in comments.get(i + 1, []):
            words.append(_comment(c))
    return words


def export(g: GameRow, moves: list[str], record: dict[str, Any] | None = None,
           clocks: dict[int, int] | None = None, own: dict[str, str] | None = None) -> str:
    """The game as PGN; record: a Kriegspiel game's umpire's record (announcements become
    comments); clocks: ply -> the mover's time left (ms), as `[%clk h:mm:ss]` after the move;
    own: the game's tags of the archive's tags table (Round, Board, WhiteType ...: the
    Round in the roster, the others after it)."""
    own = own or {}
    date = g.date or (g.started[:10].replace("-", ".") if g.started else "????.??.??")
    tags = [
        _tag("Event", g.event),
        _tag("Site", g.site),
        _tag("Date", date),
        _tag("Round", own.get("Round") or "?"),
        _tag("White", g.white),
        _tag("Black", g.black),
        _tag("Result", g.result or "*"),
    ]
    tags += [_tag(name, value) for name, value in sorted(own.items(), key=lambda t: (t[0] != "Board", t[0]))
             if name not in ROSTER]
    tags.append(_tag("Variant", VARIANTS.get(g.game, g.game)))
    if g.game != "chess" or g.fen:
        tags.append(_tag("FEN", g.fen or new_position(g.game).fen()))
        tags.append(_tag("SetUp", "1"))
    tags.append(_tag("Termination", termination(g)))
    if g.time_control:
        tags.append(_tag("TimeControl", g.time_control))
    if g.white_points is not None:
        tags.append(_tag("WhitePoints", str(g.white_points)))
        tags.append(_tag("BlackPoints", str(g.black_points)))
    if record is not None:
        tags.append(_tag("Mode", "Kriegspiel"))
    comments = kriegspiel_comments(record) if record else {}
    for ply, ms in (clocks or {}).items():
        comments.setdefault(ply, []).insert(0, "[%clk " + pgn_clk(ms) + "]")
    words = movetext(g.game, g.fen, moves, comments)
    if g.reason and termination(g) == "normal":
        words.append(_comment(reason_words(g.reason, g.result or "*")))
    if g.white_points is not None:
        words.append(_comment("points %d-%d" % (g.white_points, g.black_points or 0)))
    words.append(g.result or "*")
    lines: list[str] = []
    line = ""
    for w in words:
        if line and len(line) + len(w) + 1 > 79:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    lines.append(line)
    return "\n".join(tags) + "\n\n" + "\n".join(lines) + "\n\n"


def games_pgn(archive: Any, games: list[GameRow], live: bool = False,
              cache: dict[int, tuple[object, str]] | None = None) -> tuple[str, list[str]]:
    """The PGN of archived games one after the other, as in a PGN database, and the words for
    each game no rules core reads, left out; a Kriegspiel game not over is left out unsaid
    (its moves are sealed: `eboard export` names it).  archive: an Archive or a SharedArchive.
    live: a broadcast's Round, R.B (the round and the board, as DGT's LiveChess and lichess's
    broadcasts write it) where the game has a Board.  cache: game id -> (what it was made of,
    its PGN), kept by a caller that makes the same games again and again (a broadcast, at
    every move): a game that has not changed is not made again (its SAN is the cost)."""
    parts: list[str] = []
    notes: list[str] = []
    for g in games:
        if archive.sealed(g):
            continue
        moves = archive.moves(g.id)
        own = archive.tags(g.id)
        clocks = archive.clocks(g.id)
        record = archive.kriegspiel_record(g.id)
        key = (repr(g), moves, sorted(own.items()), sorted(clocks.items()), repr(record), live)
        if cache is not None and g.id in cache and cache[g.id][0] == key:
            parts.append(cache[g.id][1])
            continue
        why = unreadable(g, moves)
        if why is not None:
            notes.append(f"{why}: left out")
            continue
        if live and own.get("Board") and own.get("Round") and "." not in own["Round"]:
            own["Round"] = f"{own['Round']}.{own['Board']}"
        text = export(g, moves, record, clocks, own)
        if cache is not None:
            cache[g.id] = (key, text)
        parts.append(text)
    return "".join(parts), notes


def round_pgn(archive: Any, round_: str, event: str | None = None, live: bool = False,
              cache: dict[int, tuple[object, str]] | None = None) -> tuple[str, list[str]]:
    """A round's PGN (its games by board number: Archive.round_games) and the words for each
    game no rules core reads (games_pgn, with its cache); event: only that Event's games.
    live: a broadcast's round, one game a board (the board's latest: a game begun again
    replaces the one before) with its Round as R.B."""
    games = [g for g in archive.round_games(round_) if event is None or g.event == event]
    if live:
        latest: dict[object, GameRow] = {}
        for g in games:  # (by board, then id: the last a board's latest, in its board's place)
            board = archive.tags(g.id).get("Board")
            latest[board if board else ("game", g.id)] = g
        games = list(latest.values())
    return games_pgn(archive, games, live, cache)


def kriegspiel_comments(record: dict[str, Any]) -> dict[int, list[str]]:
    """The umpire's record as comments: after ply i, the attempts and announcements made
    until the next move (tries that were impossible, questions, their answers)."""
    from host.record.announce import words

    out: dict[int, list[str]] = {}
    ply = 0
    for r in record.get("attempts", []):
        # An ask's answer holds the question itself: the comment says it once.
        said = " ".join(words(a) for a in r.get("answer", []) if a.get("type") != "pawn_capture_question")
        side = str(r.get("side", "")).capitalize()
        if r.get("attempt") == "ask":
            out.setdefault(ply, []).append(f"{side} asks: Can I capture? {said}".strip())
        elif not r.get("legal"):
            out.setdefault(ply, []).append(f"{side} tries {r.get('attempt')}: {said}".strip())
        else:
            ply += 1
            if said:
                out.setdefault(ply, []).append(said)
    return out


def scoresheet(record: dict[str, Any], side: str) -> str:
    """One player's own scoresheet of a Kriegspiel game: what they tried and what they
    were told, one line each, as the umpire said it."""
    from host.record.announce import words

    sheet = record.get(f"{side}_sheet")
    if not isinstance(sheet, list):
        raise ValueError(f"this game's record has no {side} scoresheet")
    return "".join(words(a) + "\n" for a in sheet)


def read_moves(gid: str, fen: str | None, text: str) -> list[str]:
    """The moves (the game's move strings) of PGN movetext in this module's SAN, through
    the rules core; MoveError naming the first move that does not read."""
    body = re.sub(r"\{[^}]*\}", " ", text.split("\n\n", 1)[-1] if text.lstrip().startswith("[") else text)
    pos = new_position(gid, fen)
    out = []
    for word in body.split():
        if re.fullmatch(r"\d+\.+|\*|1-0|0-1|1/2-1/2", word):
            continue
        try:
            m = parse(pos, word)
        except MoveError as e:
            raise MoveError(f"move {len(out) + 1}: {e}") from None
        out.append(pos.move_str(m))
        pos.push(m)
    return out
