"""Kriegspiel (kriegspiel.md): the umpire, and each player's own view, for every game of
the core with a royal piece (chess, courier, gardner, lippo).

The umpire holds the true position and judges each attempt; what it says is a list of
announcements, dicts in the format of kriegspiel_cases.json.  It is the trusted party:
it runs on the host (host/commands/kriegspiel.py), never on a player's device.

A player's view is a position holding only that player's men, with no en-passant square
and a zero half-move clock; its legal_moves() are the well-formed attempts (§2): the moves
the men could make on an otherwise empty board, plus every capture they could try (a
pawn's diagonal steps, a Fougasse's blasts) whatever stands there.  A board computes all
its hints on this view, so no hint can depend on what the player may not know (§10).
"""

from .board import WHITE, BLACK, EMPTY, STRIDE, file_of, rank_of
from .position import FenError, CAPTURE, EP, PROMO, BLAST, kind_of

SIDES = {WHITE: "white", BLACK: "black"}
GAMES = ("chess", "courier", "gardner", "lippo")  # kriegspiel.md §9 fits these
_LEAPS = {(1, 2): "knight", (1, 3): "camel", (2, 3): "zebra"}


def colour(name):
    """'white' / 'black' -> the colour bit; ValueError otherwise."""
    if name == "white":
        return WHITE
    if name == "black":
        return BLACK
    raise ValueError("a side is white or black, not %r" % name)


# ---- check directions (§6.1, §9) ---------------------------------------------------------


def _diagonal_length(f, r, s, files, ranks):
    # Squares on the whole diagonal line through (f, r) with direction (1, s).
    n = 1
    for k in (1, -1):
        x = f + k
        y = r + k * s
        while 0 <= x < files and 0 <= y < ranks:
            n += 1
            x += k
            y += k * s
    return n


def direction(layout, king, checker):
    """(order key, class) of a check on the king's cell from the checker's cell: by the
    net displacement only, never by piece or path (§9)."""
    dx = file_of(checker) - file_of(king)
    dy = rank_of(checker) - rank_of(king)
    if dx == 0:
        return 1, "file"
    if dy == 0:
        return 0, "rank"
    ax = abs(dx)
    ay = abs(dy)
    if ax == ay:
        f = file_of(king)
        r = rank_of(king)
        rising = _diagonal_length(f, r, 1, layout.files, layout.ranks)
        falling = _diagonal_length(f, r, -1, layout.files, layout.ranks)
        if rising == falling:
            return 4, "diagonal"
        on_rising = (dx > 0) == (dy > 0)
        if (rising > falling) == on_rising:
            return 2, "long_diagonal"
        return 3, "short_diagonal"
    a = min(ax, ay)
    b = max(ax, ay)
    return 5 + a * 32 + b, _LEAPS.get((a, b)) or "leap %d-%d" % (a, b)


def checks(pos, king, by):
    """The check announcements against the royal piece on `king` by colour `by`: one per
    checking man, in the canonical order (rank, file, long, short, diagonal, then leaps
    by their pair), never in board order (leak L13)."""
    found = []
    for c in pos.attackers(king, by):
        found.append(direction(pos.game.layout, king, c))
    found.sort()
    side = SIDES[by]
    return [{"type": "check", "side": side, "direction": d, "audience": "both"} for _, d in found]


# ---- a player's own view (§2, §10) ---------------------------------------------------------


def capture_only(pos, m):
    """True if m is a move whose capture differs from the man's plain move: a pawn's
    diagonal step or a blast.  These are the «Могу ли бить?» moves (§6.2, §9)."""
    if kind_of(m) == BLAST:
        return True
    frm = pos.move_from(m)
    return pos.cells[frm] & 31 == pos.game.pawn and file_of(frm) != file_of(pos.move_to(m))


def has_capture_only_men(pos, side):
    g = pos.game
    for sq in g.layout.squares:
        c = pos.cells[sq]
        if c & side and (c & 31 == g.pawn or g.blasts[c & 31]):
            return True
    return False


def view_fen(pos, side):
    """The FEN of side's own view of the true position pos: own men, side to move, own
    castling rights, no en-passant square, half-move clock 0, the move number, and the
    extra fields that side may know.  Nothing in it depends on the hidden men."""
    fields = pos.fen().split()
    white = side == WHITE
    castling = "".join(c for c in fields[2] if c != "-" and c.isupper() == white) or "-"
    out = [pos.board_field(side), fields[1], castling, "-", "0", fields[5] if len(fields) > 5 else "1"]
    return " ".join(out + pos.view_extra(side))


_views = {}


def view_class(base):
    """The own-view class of a game's position class (made once per class)."""
    cls = _views.get(base)
    if cls is not None:
        return cls

    class View(base):
        """One player's men only; legal_moves() are the well-formed attempts."""

        def _check_setup(self, cells, counts, kings, us):
            mine = 0
            for sq in self.game.layout.squares:
                mine |= cells[sq] & (WHITE | BLACK)
            if mine == WHITE | BLACK:
                raise FenError("a player's view holds one army")
            royal = self.game.royal
            if not mine or counts[mine | royal] != 1:
                raise FenError("a player's view needs its own %s" % self.game.names[royal])
            self.mine = mine

        def legal_moves(self):
            ms = []
            if self.us == self.mine:
                for sq in self.game.layout.squares:
                    if self.cells[sq] & self.us:
                        self.moves_from(sq, ms)
            return ms

        def pseudo_moves(self):
            # The attempts are all a view knows: a try the own men alone would refuse
            # (a pawn's diagonal onto a square that looks empty) is still the umpire's.
            return self.legal_moves()

        def _powers_from(self, sq):
            return None  # (a view's attempts: parsed among them)

        def moves_from(self, sq, out=None):
            ms = [] if out is None else out
            c = self.cells[sq]
            if self.us == self.mine and c & self.us:
                t = c & 31
                self._gen_piece(sq, t, ms)
                _capture_attempts(self, sq, t, ms)
            return ms

        def is_check(self):
            return False  # the view cannot know; the umpire says so

        def end_reason(self):
            return None

        def outcome(self, claim=False):
            return None

    _views[base] = View
    return View


def _capture_attempts(pos, frm, t, ms):
    # Captures tried onto squares that look empty: the view has no enemy men (§2).
    g = pos.game
    cells = pos.cells
    if t == g.pawn:
        fwd = STRIDE if pos.us == WHITE else -STRIDE
        for side in (-1, 1):
            to = frm + fwd + side
            if cells[to] == EMPTY:
                pos._pawn_to(frm, to, CAPTURE, ms)
    for d in g.blasts[t]:
        if cells[frm + d] == EMPTY:
            ms.append(frm | (frm + d) << 9 | CAPTURE | BLAST << 19)


def new_view(gid, fen):
    """A player's view of game gid from its view FEN; FenError if malformed."""
    from . import game_module

    if gid not in GAMES:
        raise ValueError("Kriegspiel is played in %s, not %s" % (", ".join(GAMES), gid))
    mod = game_module(gid)
    return view_class(mod.POSITION)(mod.GAME, fen)


# ---- the umpire (§4, §5, §7) ---------------------------------------------------------------


class Umpire:
    """Judges the attempts of the side to move on the true position `pos`.

    attempt(text) and ask() return the announcements they cause; told[0] and told[1] are
    what White and Black have been told (their scoresheets); full_record() is every
    attempt with its answer, released only once the game is over (§10, L20)."""

    def __init__(self, pos, rules="seed", fivefold=False):
        if pos.game.id not in GAMES:
            raise ValueError("Kriegspiel is played in %s, not %s" % (", ".join(GAMES), pos.game.id))
        if rules not in ("seed", "icc"):
            raise ValueError("rules are seed or icc, not %r" % rules)
        self.pos = pos
        self.start_fen = pos.fen()
        # icc: the ICC "wild 16" switches of §8 (kriegspiel_cases.json's icc_model): the
        # turn instead of "moved", pawn tries counted every turn instead of the question,
        # illegal attempts told to the mover only, pawn/piece captures, no promotion.
        self.icc = rules == "icc"
        self.fivefold = fivefold  # the ruleset flag fivefold_repetition_draw (off: A16)
        self.over = False
        self.told = ([], [])
        self._record = []
        self._new_turn()

    def _new_turn(self):
        self.asked = False
        self.obliged = False
        self.refused = []
        self._wellformed = None

    def mover(self):
        return SIDES[self.pos.us]

    def view(self, side):
        """side's own view (a position) of the true position now."""
        return view_class(type(self.pos))(self.pos.game, view_fen(self.pos, side))

    def view_fen(self, side):
        return view_fen(self.pos, side)

    def wellformed(self):
        """The attempt strings the side to move's own men make possible (cached a turn)."""
        if self._wellformed is None:
            v = self.view(self.pos.us)
            self._wellformed = {}
            for m in v.legal_moves():
                self._wellformed[v.move_str(m)] = capture_only(v, m)
        return self._wellformed

    def start(self, fresh=True):
        """What is announced before the first attempt: on a fresh game, checks on the side
        to move (a battle setup may start with White in check, §3); an end already
        reached; under icc, the pawn tries.  fresh=False for a position taken up in the
        middle of a game, whose checks were told when they were given."""
        pos = self.pos
        them = pos.us ^ (WHITE | BLACK)
        out = checks(pos, pos.kings[pos.us >> 6], them) if fresh else []
        out += self._end()
        if self.icc and not self.over:
            out.append(self._pawn_tries())
        self._tell(None, out)
        return out

    def _pawn_tries(self):
        pos = self.pos
        seen = []
        for m in pos.legal_moves():
            if pos.takes(m) and capture_only(pos, m):
                ft = (pos.move_from(m), pos.move_to(m))
                if ft not in seen:
                    seen.append(ft)
        return {"type": "pawn_tries", "side": self.mover(), "count": len(seen), "audience": "both"}

    def ask(self):
        """«Могу ли бить?» (§6.2)."""
        pos = self.pos
        side = self.mover()
        if self.icc:
            return []  # ICC has no question: the pawn tries are told every turn
        if self.over:
            return self._reject(side, None, "game_over")
        if self.asked:
            return self._reject(side, None, "already_asked_this_turn")
        if not has_capture_only_men(pos, pos.us):
            return self._reject(side, None, "no_pawns")
        yes = False
        for m in pos.legal_moves():
            if pos.takes(m) and capture_only(pos, m):
                yes = True
                break
        self.asked = True
        self.obliged = yes
        out = [
            {"type": "pawn_capture_question", "side": side, "audience": "both"},
            {"type": "pawn_capture_answer", "side": side, "answer": yes, "audience": "both"},
        ]
        self._record.append({"side": side, "attempt": "ask", "legal": True, "answer": out})
        self._tell(None, out)
        return out

    def attempt(self, text):
        """Judge one attempt of the side to move ("e2e4", "e7e8q", lippo's "g11g12,g3")."""
        pos = self.pos
        us = pos.us
        side = self.mover()
        if self.over:
            return self._reject(side, text, "game_over")
        wf = self.wellformed()
        if text not in wf:
            for s in wf:
                if len(s) == len(text) + 1 and s.startswith(text) and "a" <= s[-1] <= "z":
                    return self._reject(side, text, "promotion_piece_required")
            return self._reject(side, text, "not_possible_on_own_board")
        if text in self.refused:
            return self._reject(side, text, "already_refused_this_turn")
        if self.obliged and not wf[text]:
            return self._reject(side, text, "must_try_pawn_capture")
        move = None
        for m in pos.legal_moves():
            if pos.move_str(m) == text:
                move = m
                break
        if move is None:
            self.refused.append(text)
            self.obliged = False
            if self.icc:
                out = [{"type": "illegal_move", "side": side, "audience": "mover"}]
            else:
                out = [{"type": "move_impossible", "side": side, "audience": "both"}]
            self._record.append({"side": side, "attempt": text, "legal": False, "answer": out})
            self._tell(us, out, text)
            return out
        out = self._play(move, side)
        self._record.append({"side": side, "attempt": text, "legal": True, "answer": out})
        self._tell(us, out, text)
        return out

    def _play(self, m, side):
        pos = self.pos
        lay = pos.game.layout
        us = pos.us
        to = pos.move_to(m)
        cap = to
        if kind_of(m) == EP:
            cap = to - STRIDE if us == WHITE else to + STRIDE
        captured = pos.cells[cap] if pos.takes(m) else EMPTY
        promoted = kind_of(m) == PROMO
        pos.push(m)
        pos.trim()
        self._new_turn()
        if self.icc:
            out = []
            if captured:
                kind = "pawn" if captured & 31 == pos.game.pawn else "piece"
                out.append({"type": "capture", "square": lay.name(cap), "kind": kind, "audience": "both"})
        else:
            out = [{"type": "moved", "side": side, "audience": "both"}]
            if captured:
                out.append({"type": "capture", "side": side, "square": lay.name(cap), "audience": "both"})
            if promoted:
                out.append({"type": "promotion", "side": side, "square": lay.name(to), "audience": "both"})
        out += checks(pos, pos.kings[pos.us >> 6], us)
        out += self._end()
        if self.icc and not self.over:
            out.append({"type": "turn", "side": self.mover(), "audience": "both"})
            out.append(self._pawn_tries())
        return out

    def _end(self):
        o = self.pos.outcome()
        if o is None or (o.reason == "fivefold-repetition" and not self.fivefold):
            return []
        self.over = True
        winner = SIDES.get(o.winner)
        if not self.pos.game.check_rules:  # lippo: the President taken, surrender, patt ...
            a = {"type": "game_over", "reason": o.reason.replace("-", "_"), "winner": winner or "none"}
            if o.points is not None:
                a["points"] = list(o.points)
            a["audience"] = "both"
            return [a]
        if o.reason == "checkmate":
            return [{"type": "checkmate", "winner": winner, "audience": "both"}]
        if o.reason == "stalemate":
            return [{"type": "stalemate", "result": winner or "draw", "audience": "both"}]
        return [{"type": "draw", "reason": o.reason.replace("-", "_"), "audience": "both"}]

    def _reject(self, side, text, reason):
        out = [{"type": "rejected", "side": side, "reason": reason, "audience": "mover"}]
        self._tell(self.pos.us, out, text)
        return out

    def _tell(self, mover, out, text=None):
        # The scoresheets: the mover's own attempt, then what each side hears.
        if mover is not None and text is not None:
            self.told[mover >> 6].append({"type": "attempt", "move": text})
        for a in out:
            for i in (0, 1):
                if a["audience"] == "both" or (mover is not None and i == mover >> 6):
                    self.told[i].append(a)

    def full_record(self):
        """Every attempt with its answer, the moves played and the final position: only
        once the game is over (L20)."""
        if not self.over:
            raise ValueError("the full record is released when the game is over")
        return {"attempts": self._record, "moves": self.true_moves(), "fen": self.pos.fen()}

    def true_moves(self):
        """The moves played so far, in order: the umpire's to keep (an adjourned game's
        archive), never a player's to see."""
        return [r["attempt"] for r in self._record if r["legal"] and r["attempt"] != "ask"]

    def opening_played(self):
        """A fixed opening (Courier's four moves a side, courier.md §4) was played by the
        umpire before the first attempt: public knowledge, announced as such (§9)."""
        out = [{"type": "opening_played", "audience": "both"}]
        self._tell(None, out)
        return out

    def resign(self, side):
        """side resigns (§7): announced to both; the game is over."""
        self.over = True
        winner = SIDES[side ^ (WHITE | BLACK)]
        out = [{"type": "resigned", "side": SIDES[side], "winner": winner, "audience": "both"}]
        self._tell(None, out)
        return out
