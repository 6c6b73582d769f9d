"""The board's words: every reply and event of docs/protocol.md read once, into small values.

A board's line is read here and nowhere else.  Each value is checked as it is read: a game
id of the rules core's list, a uid of 8 lowercase hex digits, a FEN the core reads (a
position, or a Kriegspiel player's own view), move strings of notation.md's alphabet, and a
history whose moves are legal one after another from the game's start.  A line that fails
is refused with WordsError, in words; nothing of it is used.

    read_state(link.request("state"))          -> State(game, state, ply, fen)
    read_game(link.request("game"))            -> Game(game, uid, fen)   (fen None: the start)
    read_history(link.request("history"), g)   -> History(moves), legal in game g
    read_event("move 1 e2e4")                  -> Move(ply=1, move="e2e4")

Every event keeps the line as the board said it (`text`): the archive stores it as said.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Union

from firmware.rules import GAMES, FenError, MoveError, new_position
from firmware.rules.kriegspiel import new_view

# The states of `state` and `hello` (docs/protocol.md, Requests: `state`).
STATES = ("setup", "idle", "moving", "pending", "promoting", "correcting", "over", "arranging", "selftest")
RESULTS = ("1-0", "0-1", "1/2-1/2")
SIDES = ("white", "black")
PLY_MAX = 999_999  # six digits, as `state`'s ply: docs/protocol.md sizes lines for a 200,000-ply game
MOVE_MAX = 64  # bytes of the longest move string (a checkers chain is some 60)
_MOVE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789,")
_HEX = frozenset("0123456789abcdef")


class WordsError(ValueError):
    """A board's line that does not say what docs/protocol.md says it does: why, in words."""


def _quote(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


def _need(ok: bool, why: str, text: str) -> None:
    if not ok:
        raise WordsError(f"{why}: {_quote(text)}")


def game_id(word: str, text: str = "") -> str:
    """A game id of the rules core (GAMES); WordsError for any other word."""
    _need(word in GAMES, f"{word!r} is not a game ({', '.join(GAMES)})", text or word)
    return word


def uid(word: str, text: str = "") -> str:
    """A game's uid: 8 lowercase hex digits (docs/protocol.md, Identity)."""
    _need(len(word) == 8 and set(word) <= _HEX, f"{word!r} is not a game uid (8 lowercase hex digits)", text or word)
    return word


def read_fen(game: str, text: str, line: str = "") -> str:
    """A FEN of game that the rules core reads: a position, or a Kriegspiel player's own
    view (its men only); WordsError with the core's reason."""
    try:
        new_position(game, text)
        return text
    except (FenError, ValueError) as e:
        why = str(e)
    try:
        new_view(game, text)
        return text
    except (FenError, ValueError):
        pass
    raise WordsError(f"not a {game} position ({why}): {_quote(line or text)}")


def move(word: str, text: str = "") -> str:
    """A move string of notation.md's alphabet (its legality is the game's: see read_history)."""
    _need(0 < len(word) <= MOVE_MAX and set(word) <= _MOVE_CHARS and word[0].isalpha(),
          f"{word!r} is not a move", text or word)
    return word


def _ply(word: str, text: str) -> int:
    _need(word.isdigit() and len(word) <= 6 and 1 <= int(word) <= PLY_MAX,
          f"a ply is a number from 1 to {PLY_MAX}, not {word!r}", text)
    return int(word)


def _words(text: str, word: str, low: int, high: int | None = None) -> list[str]:
    """text's words after its first (which must be word), at least low of them."""
    w = text.rstrip(" ").split(" ")  # (a long reply with no words ends in a space: `ok history `)
    _need(w[0] == word and "" not in w, f"not a reply to {word!r}", text)
    n = len(w) - 1
    _need(n >= low and (high is None or n <= high),
          f"{word!r} says {low}" + ("" if high == low else f" to {high}" if high else " or more") + " words", text)
    return w[1:]


# ---- replies (the text after "ok ", as BoardLink.request gives it) --------------------------


@dataclass(frozen=True)
class Version:
    """`ok version <protocol> <firmware> <profile> <board id> <boot>`."""

    protocol: int
    firmware: str
    profile: str
    board_id: str
    boot: int | None


def read_version(text: str) -> Version:
    w = _words(text, "version", 1)
    _need(w[0].isdigit(), "a protocol version is a number", text)
    boot = int(w[4]) if len(w) > 4 and w[4].isdigit() and len(w[4]) <= 10 else None
    return Version(int(w[0]), w[1] if len(w) > 1 else "", w[2] if len(w) > 2 else "", w[3] if len(w) > 3 else "", boot)


@dataclass(frozen=True)
class State:
    """`ok state <game> <state> <ply> <fen>`: what the board plays, where it stands."""

    game: str
    state: str
    ply: int
    fen: str

    @property
    def turn(self) -> str:
        """'white' or 'black': the side to move in fen."""
        return "white" if self.fen.split(" ")[1:2] == ["w"] else "black"

    def position(self):  # type: ignore[no-untyped-def]
        """The rules core's position of fen (a Kriegspiel player's board: its view)."""
        try:
            return new_position(self.game, self.fen)
        except FenError:
            return new_view(self.game, self.fen)


def read_state(text: str) -> State:
    w = _words(text, "state", 4)
    g = game_id(w[0], text)
    _need(w[1] in STATES, f"{w[1]!r} is not a board's state ({', '.join(STATES)})", text)
    _need(w[2].isdigit() and len(w[2]) <= 6, f"a ply is a number, not {w[2]!r}", text)
    return State(g, w[1], int(w[2]), read_fen(g, " ".join(w[3:]), text))


@dataclass(frozen=True)
class Game:
    """`ok game <game> <uid> <fen>`: the game the board plays, its uid, its start (None:
    the game's own start position)."""

    game: str
    uid: str
    fen: str | None


def read_game(text: str) -> Game:
    w = _words(text, "game", 3)
    g = game_id(w[0], text)
    start = " ".join(w[2:])
    return Game(g, uid(w[1], text), None if start == "-" else read_fen(g, start, text))


@dataclass(frozen=True)
class History:
    """`ok history <move> ...`: the game's moves, each legal after those before it."""

    moves: tuple[str, ...]


def read_history(text: str, of: Game) -> History:
    """The board's history of the game `of` (its `game` reply): WordsError unless every move
    is legal in turn from that game's start (a move the board never made is not archived)."""
    w = _words(text, "history", 0)
    try:
        pos = new_position(of.game, of.fen)
    except FenError:
        pos = new_view(of.game, of.fen)  # (a Kriegspiel board: its own moves, on its view)
    for n, m in enumerate(w, 1):
        try:
            pos.push(pos.parse_move(move(m, text)))
        except MoveError:
            raise WordsError(f"move {n} of the history, {m}, is not legal in that {of.game} game: "
                             f"{_quote(text)}") from None
    return History(tuple(w))


def read_moves(text: str) -> tuple[str, ...]:
    """`ok moves <move> ...`: the legal moves' strings."""
    return tuple(move(m, text) for m in _words(text, "moves", 0))


def read_leds(text: str) -> str:
    """`ok leds <144 letters>`: the frame, one letter a physical square from a1."""
    w = _words(text, "leds", 1, 1)
    _need(len(w[0]) == 144, "a frame is 144 letters", text)
    return w[0]


def read_occupancy(text: str) -> str:
    """`ok sim occupancy <144 digits>` (the virtual board): '1' where a piece stands."""
    w = _words(text, "sim", 2, 2)
    _need(w[0] == "occupancy" and len(w[1]) == 144 and set(w[1]) <= {"0", "1"}, "an occupancy is 144 digits 0/1", text)
    return w[1]


# ---- events ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hello:
    """`hello eboard <protocol> <game> <state> <boot>`: the board (re)started."""

    text: str
    game: str
    state: str
    boot: int | None
    word: ClassVar[str] = "hello"


@dataclass(frozen=True)
class NewGame:
    """`newgame <game> <uid> <fen>`: a new game began (fen None: its start position)."""

    text: str
    game: str
    uid: str
    fen: str | None
    word: ClassVar[str] = "newgame"


@dataclass(frozen=True)
class NewPosition:
    """`position <uid> <fen>`: the host set the position; play goes on under the new uid."""

    text: str
    uid: str
    fen: str
    word: ClassVar[str] = "position"


@dataclass(frozen=True)
class Square:
    """`lift <sq>` / `place <sq>`: a switch changed."""

    text: str
    word: str
    square: str


@dataclass(frozen=True)
class Move:
    """`move <ply> <move>`: a move was made (and journaled)."""

    text: str
    ply: int
    move: str
    word: ClassVar[str] = "move"


@dataclass(frozen=True)
class Undo:
    """`undo <ply> <move>`: move number ply was taken back."""

    text: str
    ply: int
    move: str
    word: ClassVar[str] = "undo"


@dataclass(frozen=True)
class Ready:
    """`start <game>` / `synced <game>`: the pieces stand where they should."""

    text: str
    word: str
    game: str


@dataclass(frozen=True)
class End:
    """`end <reason> <result> [<white points> <black points>]`: the game ended."""

    text: str
    reason: str
    result: str
    points: tuple[int, int] | None
    word: ClassVar[str] = "end"

    @property
    def what(self) -> str:
        """'reason result' (`time 1-0`): how a host names the end it asked for."""
        return f"{self.reason} {self.result}"


@dataclass(frozen=True)
class Alert:
    """`alert <word> <detail>`: something the host should know."""

    text: str
    kind: str
    detail: str
    word: ClassVar[str] = "alert"


@dataclass(frozen=True)
class Said:
    """Every other event (promote, choice, arrange, array, attempt, ask, selftest): its
    word and the words after it, checked for their number.  (An attempt's word is the
    umpire's to judge: any word, answered `impossible` or `rejected` if it is no move.)"""

    text: str
    word: str
    args: tuple[str, ...] = field(default=())


Event = Union[Hello, NewGame, NewPosition, Square, Move, Undo, Ready, End, Alert, Said]

# The other events: word -> (fewest, most) words after it (None: no most).
_SAID = {"promote": (1, None), "choice": (1, 1), "arrange": (2, 2), "array": (2, 2), "attempt": (1, 1), "ask": (0, 0),
         "selftest": (1, None)}


def read_event(text: str) -> Event:
    """One event line's text (after its number) -> its value; WordsError if no board says it."""
    w = text.split(" ")
    word = w[0]
    _need(bool(word) and "" not in w, "not an event", text)
    if word == "move" or word == "undo":
        _words(text, word, 2, 2)
        kind = Move if word == "move" else Undo
        return kind(text, _ply(w[1], text), move(w[2], text))
    if word == "newgame":
        _words(text, word, 3)
        g = game_id(w[1], text)
        start = " ".join(w[3:])
        return NewGame(text, g, uid(w[2], text), None if start == "-" else read_fen(g, start, text))
    if word == "position":
        _words(text, word, 2)
        return NewPosition(text, uid(w[1], text), " ".join(w[2:]))  # (its game is the one being played)
    if word == "end":
        _words(text, word, 2, 4)
        _need(len(w) in (3, 5), "end says a reason, a result and maybe the two sides' points", text)
        _need(w[1].replace("-", "").isalpha(), f"{w[1]!r} is not a reason for an end", text)
        _need(w[2] in RESULTS, f"a result is 1-0, 0-1 or 1/2-1/2, not {w[2]!r}", text)
        points = None
        if len(w) == 5:
            _need(all(x.lstrip("-").isdigit() and len(x) <= 9 for x in w[3:]), "end's points are two whole numbers", text)
            points = (int(w[3]), int(w[4]))
        return End(text, w[1], w[2], points)
    if word in ("lift", "place"):
        _words(text, word, 1, 1)
        _need(w[1][:1].isalpha() and w[1][1:].isdigit(), f"{w[1]!r} is not a square", text)
        return Square(text, word, w[1])
    if word in ("start", "synced"):
        _words(text, word, 1, 1)
        return Ready(text, word, game_id(w[1], text))
    if word == "hello":
        _words(text, word, 4, 5)
        _need(w[1] == "eboard", "not an eboard's hello", text)
        _need(w[4] in STATES, f"{w[4]!r} is not a board's state", text)
        boot = int(w[5]) if len(w) > 5 and w[5].isdigit() and len(w[5]) <= 10 else None
        return Hello(text, game_id(w[3], text), w[4], boot)
    if word == "alert":
        _words(text, word, 1)
        return Alert(text, w[1], " ".join(w[2:]))
    limits = _SAID.get(word)
    _need(limits is not None, f"{word!r} is not an event of the board's", text)
    assert limits is not None
    _words(text, word, *limits)
    if word in ("arrange", "array"):
        _need(w[1] in SIDES, f"{w[1]!r} is not a side", text)
    return Said(text, word, tuple(w[1:]))
