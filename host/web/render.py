"""The web room's HTML: pages and the fragments that live updates replace.

Every fragment is keyed by the id of the element it fills; a page renders them once and
the event stream sends them again (host/web/static/app.js swaps them in), so there is one
renderer for both.  All text from a board or the archive is escaped here.
"""

from __future__ import annotations

import html
import math
import string
import time
from pathlib import Path
from typing import Any

from firmware import leds as led_codes
from firmware.rules import FenError, new_position
from firmware.rules.board import WHITE
from firmware.squares import Geometry
from host.web import diagram
from host.record import ANSWER_LEDS, san_list, words

TEMPLATES = Path(__file__).resolve().parent / "templates"
_templates: dict[str, string.Template] = {}

LEGEND = {
    "d": "destination", "x": "capture", "f": "piece in hand", "l": "last move", "m": "put a piece here",
    "r": "take this away", "C": "promotion choice", "o": "other choice", "W": "win", "L": "loss", "D": "draw",
    "k": "check", "n": "announcement", "h": "hint",
}


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def page(name: str, **fields: str) -> str:
    """A template of templates/ filled in: fields are HTML already (escape text first)."""
    t = _templates.get(name)
    if t is None:
        t = _templates[name] = string.Template((TEMPLATES / name).read_text(encoding="utf-8"))
    body = t.substitute(fields)
    base = _templates.get("base.html")
    if base is None:
        base = _templates["base.html"] = string.Template((TEMPLATES / "base.html").read_text(encoding="utf-8"))
    return base.substitute(title=fields.get("title", "eboard"), stream=fields.get("stream", ""), body=body,
                           now=f"{time.time():.3f}")


def position(game: str, fen: str | None):  # type: ignore[no-untyped-def]
    """The position of a FEN, or of a Kriegspiel player's view FEN (own men only)."""
    try:
        return new_position(game, fen or None)
    except FenError:
        from firmware.rules.kriegspiel import view_class

        base = new_position(game)
        return view_class(type(base))(base.game, fen)


def move_squares(geo: Geometry, move: object) -> tuple[int, int] | None:
    """A move string's first and last squares as physical squares (a chain of checkers
    captures ends on its last landing), or None if it names no two squares of the board."""
    try:
        cells, _ = geo.layout.parse_squares(str(move or ""))
    except ValueError:
        return None
    return (geo.phys(cells[0]), geo.phys(cells[-1])) if len(cells) >= 2 else None


def board_svg(game: str, fen: str | None, leds: str = "", title: str = "", small: bool = False,
              engine_move: str | None = None, names: dict[str, str] | None = None) -> str:
    """The board as SVG with its LEDs (the `leds` letters, one per physical square) and,
    if given, the engine's move marked in a style of its own; names: legend words that
    replace LEGEND's for some letters."""
    try:
        pos = position(game, fen)
    except (FenError, ValueError, KeyError):
        return f'<p class="error">cannot show {esc(game)} position {esc(fen)}</p>'
    frame = bytes(max(0, led_codes.CODES.find(ch)) for ch in (leds if len(leds) == 144 else "." * 144))
    lit = sorted({ch for ch in leds if ch in LEGEND})
    said = {**LEGEND, **(names or {})}
    legend = "" if small else "LEDs: " + ", ".join(f"{said[ch]} ({ch})" for ch in lit) if lit else ""
    geo = Geometry(pos.game.layout)
    engine = move_squares(geo, engine_move) if engine_move else None
    if engine and not small:
        legend = (legend + "; " if legend else "") + "violet frames: the computer's move"
    return diagram.svg(pos, frame, geo, title, legend=legend, crop=True, engine=engine)


def first_move(fen: str | None) -> tuple[int, bool]:
    """(the number of the first move, whether Black makes it) of a game started from fen
    (its FEN's side to move and move number; 1 and White without them)."""
    parts = (fen or "").split()
    number = int(parts[5]) if len(parts) > 5 and parts[5].isdigit() and 0 < int(parts[5]) < 100_000 else 1
    return number, len(parts) > 1 and parts[1] == "b"


def move_label(ply: int, fen: str | None, sans: list[str]) -> str:
    """The move ply (1 on) as a score sheet numbers it: `2. Nf3`, `2… Nc6`."""
    number, black_first = first_move(fen)
    k = ply - 1 + black_first
    return f"{number + k // 2}{'.' if k % 2 == 0 else '…'} {sans[ply - 1]}"


def move_list(sans: list[str], fen: str | None = None, link: bool = False) -> str:
    """The moves (SAN, or checkers12's own notation) in pairs under their move numbers, from
    a game started at fen; link: each move a button to its ply (replay)."""
    if not sans:
        return '<p class="muted">no moves yet</p>'
    number, black_first = first_move(fen)
    items = []
    padded = ([""] if black_first else []) + list(sans)
    for i in range(0, len(padded), 2):
        cells = []
        for j, m in enumerate(padded[i : i + 2]):
            ply = i + j + 1 - black_first
            if not m:
                cells.append("<span>…</span>")
            elif link:
                cells.append(f'<button type="button" class="ply" data-ply="{ply}" '
                             f'data-label="{esc(move_label(ply, fen, sans))}">{esc(m)}</button>')
            else:
                last = ' class="last"' if ply == len(sans) else ""
                cells.append(f"<span{last}>{esc(m)}</span>")
        items.append(f'<li><span class="n">{number + i // 2}.</span> {" ".join(cells)}</li>')
    return f'<ol class="moves">{"".join(items)}</ol>'


def players(s: dict[str, Any]) -> str:
    """`Anna – Boris` from a snapshot's white and black names, "" if neither is known."""
    white, black = (str(s.get(side) or "?") for side in ("white", "black"))
    return "" if white == black == "?" else f"{white} – {black}"


def board_info(s: dict[str, Any]) -> str:
    """Game, whose turn, state, points, clocks and result of a board snapshot."""
    rows = [("game", esc(s.get("game", "?")))]
    if players(s):
        rows.append(("players", esc(players(s))))
    rows += [("board", esc(s.get("port", ""))), ("state", esc(s.get("state", "")))]
    try:
        if s.get("fen"):
            pos = position(str(s.get("game")), s["fen"])
            rows.append(("to move", "White" if pos.turn == WHITE else "Black"))
            if s.get("game") == "lippo":
                w, b = pos.points()  # type: ignore[attr-defined]
                rows.append(("points", f"White {w}, Black {b}"))
    except (FenError, ValueError, KeyError):
        pass
    moves = list(s.get("moves") or [])
    if moves:
        rows.append(("last move", esc(move_label(len(moves), s.get("start_fen"), sans(s)))))
    if s.get("result"):
        rows.append(("result", f'<strong class="result">{esc(s["result"])}</strong> {esc(s.get("reason") or "")}'))
    if s.get("game_id") is not None:
        rows.append(("archive", f'<a href="/archive/{int(s["game_id"])}">game {int(s["game_id"])}</a>'))
    return "<dl>" + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows) + "</dl>"


def clock_text(ms: int) -> str:
    """Time left as a clock shows it: h:mm:ss, m:ss, and tenths under 10 s (9.9); 0.0 at 0.
    The same in host/web/static/app.js, which counts the running clock down."""
    if ms < 10_000:
        tenths = max(0, ms) // 100
        return f"{tenths // 10}.{tenths % 10}"
    h, rest = divmod(ms // 1000, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def _ms(value: object) -> int | None:
    """A clock's milliseconds from a snapshot, or None if they are not a number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return int(max(-1e12, min(1e12, value)))


def clocks(s: dict[str, Any], compact: bool = False) -> str:
    """Both clocks of a snapshot's "clocks" entry (BoardFeed.annotate), the time control,
    and the result once the game is over; "" (nothing shown) without one.  The running
    clock's figure is as of "at" (the server's time.time()); app.js counts it down (after
    "delay", the ms of a simple delay still free then)."""
    c = s.get("clocks")
    if not isinstance(c, dict):
        return ""
    left = {side: _ms(c.get(side)) for side in ("white", "black")}
    if left["white"] is None or left["black"] is None:
        return ""
    at = float(c["at"]) if _ms(c.get("at")) is not None else 0.0  # a number, finite
    over = bool(s.get("result"))
    running = c.get("running") if c.get("running") in ("white", "black") and not over else ""
    tag = "span" if compact else "div"
    delay = max(0, _ms(c.get("delay")) or 0)  # a simple delay's ms still free in the running side's move
    out = [f'<{tag} class="clocks{" compact" if compact else ""}" data-at="{at:.3f}" data-running="{running}"'
           f' data-delay="{delay}">']
    for side in ("white", "black"):
        ms = left[side]
        assert ms is not None
        label = side[0].upper() if compact else side.capitalize()
        cls = "clock " + side + (" running" if side == running else "") + (" flagged" if ms <= 0 else "")
        out.append(f'<span class="{cls}" data-side="{side}" data-ms="{ms}"><span class="side">{label}</span> '
                   f'<span class="time">{clock_text(ms)}</span><span class="flag"{"" if ms <= 0 else " hidden"}>'
                   " ⚑</span></span>")
    if c.get("control") and not compact:
        out.append(f'<span class="control">time control {esc(c["control"])}</span>')
    if over and not compact:
        out.append(f'<span class="result">{esc(s["result"])} {esc(s.get("reason") or "")}</span>')
    out.append(f"</{tag}>")
    return "".join(out)


def engine_line(s: dict[str, Any]) -> str:
    """What the computer is doing, from a snapshot's "engine" entry; "" without one."""
    e = s.get("engine")
    if not isinstance(e, dict):
        return ""
    who = f"computer ({esc(e['level'])})" if e.get("level") not in (None, "") else "computer"
    move = e.get("san") or e.get("move")
    if e.get("state") == "shown" and move:
        return f'<p class="engine" data-state="shown">{who} plays <strong>{esc(move)}</strong> – make it on the board</p>'
    if e.get("state") == "thinking":
        return f'<p class="engine" data-state="thinking">{who}: thinking…</p>'
    return f'<p class="engine">{who}</p>'


def engine_move(s: dict[str, Any]) -> str | None:
    """The move string the computer asks for (to mark on the board), or None."""
    e = s.get("engine")
    if isinstance(e, dict) and e.get("state") == "shown" and isinstance(e.get("move"), str):
        return str(e["move"])
    return None


def board_parts(s: dict[str, Any]) -> dict[str, str]:
    """A live board page's fragments."""
    return {
        "board": board_svg(str(s.get("game")), s.get("fen"), str(s.get("leds", "")), engine_move=engine_move(s)),
        "clocks": clocks(s),
        "engine": engine_line(s),
        "info": board_info(s),
        "moves": move_list(sans(s), s.get("start_fen")),
    }


def sans(s: dict[str, Any]) -> list[str]:
    """A snapshot's moves as they are shown: its "san" (BoardFeed), else its move strings."""
    moves = [str(m) for m in s.get("moves") or []]
    shown = s.get("san")
    if isinstance(shown, list) and len(shown) == len(moves):
        return [str(m) for m in shown]
    return moves


def tile(slug: str, s: dict[str, Any]) -> str:
    """A small live board for the club room, opening its own page."""
    moves = list(s.get("moves") or [])
    last = f" · {esc(move_label(len(moves), s.get('start_fen'), sans(s)))}" if moves else ""
    result = f' · <strong class="result">{esc(s["result"])}</strong>' if s.get("result") else ""
    who = f'<span class="players">{esc(players(s))}</span>' if players(s) else ""
    if s.get("round") is not None and s.get("board_no") is not None:
        who = f'<span class="place">round {esc(s["round"])}, board {esc(s["board_no"])}</span>' + who
    return (
        f'<a class="tile" href="/board/{esc(slug)}" data-board="{esc(slug)}">'
        f'{board_svg(str(s.get("game")), s.get("fen"), str(s.get("leds", "")), small=True, engine_move=engine_move(s))}'
        f'<span class="caption">{esc(s.get("game"))} · {esc(s.get("port", ""))}{last}{result}{who}</span>'
        f"{clocks(s, compact=True)}</a>"
    )


def hall_row(s: dict[str, Any], link: str) -> str:
    """One board of a round (a row of /round/R): its number, the players, its clocks, its last
    move and its result, opening link (the live board's page, or the archived game's).
    data-order puts a row added live in its place (app.js)."""
    n = s.get("board_no")
    number = str(int(n)) if isinstance(n, int) and not isinstance(n, bool) else "–"
    moves = list(s.get("moves") or [])
    last = esc(move_label(len(moves), s.get("start_fen"), sans(s))) if moves else ""
    result = f'<strong class="result">{esc(s["result"])}</strong>' if s.get("result") else "*"
    return (
        f'<a class="row" href="{esc(link)}" data-order="{int(n) if number != "–" else 999999}">'
        f'<span class="no">{number}</span><span class="white">{esc(s.get("white") or "?")}</span>'
        f'<span class="black">{esc(s.get("black") or "?")}</span>'
        f'<span class="clk">{clocks(s, compact=True)}</span><span class="last">{last}</span>'
        f'<span class="res">{result}</span></a>'
    )


def rounds_nav(rounds: list[str], current: str | None = None) -> str:
    """Links to every round's page ("" without rounds)."""
    if not rounds:
        return ""
    here = ' class="here"'
    links = " ".join(f'<a href="/round/{esc(r)}"{here if r == current else ""}>{esc(r)}</a>' for r in rounds)
    return f'<nav class="rounds">Rounds: {links}</nav>'


def lines(items: list[str]) -> str:
    if not items:
        return '<p class="muted">nothing announced yet</p>'
    # What the umpire said, in order: not numbered, as a move list is (no "1. White has moved.").
    return '<ul class="lines">' + "".join(f"<li>{esc(x)}</li>" for x in items) + "</ul>"


def record(game: str, end: dict[str, Any] | None) -> str:
    """The umpire's full record: only ever called with a finished game's record."""
    if not end:
        return ""
    rec = end.get("record") or {}
    out = [f'<h2>The game is over: <span class="result">{esc(end.get("result", ""))}</span></h2>']
    if rec.get("fen"):
        out.append(board_svg(game, str(rec["fen"]), "", title="The true final position"))
    moves = [str(m) for m in rec.get("moves", [])]
    out.append("<h3>The moves played</h3>" + move_list(san_list(game, None, moves)))
    attempts = rec.get("attempts") or []
    if attempts:
        out.append("<h3>The umpire's record</h3><ol class=\"record\">")
        for a in attempts:
            if isinstance(a, dict):
                said = " ".join(words(x) for x in a.get("answer") or [] if isinstance(x, dict))
                played = "" if a.get("attempt") == "ask" else " (played)" if a.get("legal") else " (not played)"
                out.append(f"<li>{esc(a.get('side', ''))} {esc(a.get('attempt', ''))}{played}: {esc(said)}</li>")
        out.append("</ol>")
    for side in ("white", "black"):
        sheet = rec.get(f"{side}_sheet") or []
        if sheet:
            out.append(f"<h3>{side.capitalize()}'s scoresheet</h3>")
            out.append(lines([words(a) for a in sheet if isinstance(a, dict)]))
    if end.get("game_id") is not None:
        out.append(f'<p><a href="/archive/{int(end["game_id"])}">In the archive: game {int(end["game_id"])}</a></p>')
    return "".join(out)


def player_parts(d: dict[str, Any]) -> dict[str, str]:
    """A Kriegspiel player's page: their own board (view and LEDs), their lines."""
    game = str(d.get("game"))
    return {
        "board": board_svg(game, d.get("fen") or None, str(d.get("leds", "")),
                           title=f"{str(d.get('side', '')).capitalize()}'s own men",
                           names=None if d.get("end") else ANSWER_LEDS) if d.get("fen") else
        '<p class="muted">your board is being set up</p>',
        "lines": lines(list(d.get("lines") or [])),
        "end": record(game, d.get("end")),
    }


def public_parts(d: dict[str, Any]) -> dict[str, str]:
    """The spectators' page: the public announcements; the record after the end."""
    return {"lines": lines(list(d.get("lines") or [])), "end": record(str(d.get("game")), d.get("end"))}
