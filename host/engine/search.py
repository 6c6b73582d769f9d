"""The search: iterative deepening principal-variation alpha-beta over the rules core.

Negamax with a transposition table (tables.Tracked's incremental Zobrist key, kept from
one move to the next), aspiration windows, move ordering (the table's move, captures by
victim then attacker, two killers a ply, a history score), null-move pruning, futility
and late-move pruning (neither while every move searched is mated, nor two plies from
the horizon where the other king has no square to step to: a quiet mate threat),
late-move reductions, mate-distance pruning, a check extension (every check, to half
MAX_PLY), and a quiescence search on captures with delta pruning and, at its first ply,
quiet checks (and captures that check, never pruned) and the evasions of a check (Lippo:
of an attack on its President, and its patt seen) (a Fougasse's blast and a checkers
capture chain are captures too; from its third ply, recaptures only).  Every technique can be left
out (Searcher's `off`).  The end of a game is the core's: a side with no legal move
asks `pos.outcome()`, so Lippo's surrender, patt and points, checkers' blocked side and
chess-T1's castles score as the rules say.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator

from firmware.rules.board import BLACK, EMPTY, SIZE, STRIDE, WHITE, file_of, rank_of
from firmware.rules.position import CAPTURE, KIND_SHIFT, PROMO
from firmware.rules.position import Position
from firmware.rules.search_hooks import pass_back, pass_turn, patt, pseudo_moves_from, search_traits

from .captures import FAST_GAMES, attacked, captures, captures_to, evasions, evasions_served, fast_moves, recaptures
from .evaluate import PHASE
from .tables import Tracked

MATE = 1_000_000  # a won game, less the plies it takes
MATE_BOUND = MATE - 10_000
INF = 10 * MATE
EXACT, LOWER, UPPER = 0, 1, 2
MAX_PLY = 96
LMR_DIVISOR = 2.0  # the larger, the gentler the late-move reductions
ASPIRATION = 40  # centipawns either side of the last iteration's score
QS_DEPTH = 6  # capture plies in the quiescence search
RECAPTURES = 2  # quiescence plies from which only recaptures are searched
DELTA = 200  # centipawns a capture may gain beyond its victim (delta pruning)
EXTEND_REPLIES = 99  # a check is extended where it leaves this many replies or fewer: every check (3 cost mates)
NULL_R = 2  # plies a null move's search is reduced by
NULL_DEPTH = 4  # the least depth a null move is tried at: its search then sees one real ply (a quiet threat)
MOP_UP = 400  # centipawns ahead from which the mop-up term helps to finish the game
FUTILITY = (0, 150, 400)  # by depth: a quiet move cannot gain more than this
LATE = (0, 10, 16, 24, 36)  # by depth: quiet moves searched in a null-window node, the rest pruned


def lmr_table(divisor: float, first: int) -> list[list[int]]:
    """Late-move reductions by depth and move number: the later the move and the deeper the
    search, the more (the usual log-log shape), from move `first` on and depth 3, always
    leaving at least one ply."""
    return [[max(1, min(d - 2, int(0.5 + math.log(d) * math.log(i) / divisor))) if d >= 3 and i >= first else 0
             for i in range(256)] for d in range(32)]


LMR = lmr_table(LMR_DIVISOR, 4)
# Settings of one game (Searcher attributes), tuned by self-play and on positions of our
# own (the start and seeded middle games, not the bench's):
# Lippo (some 150 moves a side, no check rule, zugzwang rare on 12 x 12): null moves from
# depth 3, reduced by one ply (the null move's search still sees one real ply: a quiet
# threat, such as closing the President's squares for patt), only recaptures from the
# quiescence search's second ply, fewer late quiet moves: the nodes to depth 5 from the
# start 32,939 -> 13,146, to depth 4 in four middle games about half.  Null moves from depth
# 2 straight into the quiescence search took 11,860 nodes, but level 6 then beat level 4 by
# 6.5/12 only (9/12 with these, and with the old null moves).
GAME_SEARCH: dict[str, dict[str, object]] = {
    "lippo": {"null_depth": 3, "null_r": 1, "recaptures": 1, "late": (0, 6, 12, 20, 30)},
    # checkers12 (a dozen moves, captures compulsory, so that a quiet move is seldom the
    # point): reductions from the 3rd move and deeper, late-move pruning to depth 7 (3-14
    # quiet moves kept), futility to depth 3 (100/200/300): the nodes to depth 10 in three
    # middle games about half; 10/20 against the old settings at 0.1 CPU s a move.
    "checkers12": {"lmr": lmr_table(1.2, 3), "late": (0, 3, 4, 6, 8, 10, 12, 14), "futility": (0, 100, 200, 300)},
}
TT_LIMIT = 400_000  # entries; the table is cleared when it grows past this
MOVES_KEPT = 2_000_000  # moves (a node counting 16 more) a search keeps by position; cleared past this
# The clock a search's time is counted on: the wall clock; bench/strength.py's --cpu-time
# counts the process's own time instead, so that a loaded machine's figures say what a
# quiet one would give.
CLOCK: Callable[[], float] = time.perf_counter


class Timeout(Exception):
    """The search ran out of its time; the last finished iteration's move stands."""


class Info:
    """One finished iteration: depth, score (centipawns, or a mate in `mate` plies), nodes, time."""

    def __init__(self, depth: int, score: int, nodes: int, time_ms: int, pv: list[str],
                 complete: bool = True) -> None:
        self.depth = depth
        self.complete = complete  # False: the iteration ran out of time (its move was better)
        self.score = score
        self.nodes = nodes
        self.time_ms = time_ms
        self.pv = pv

    def line(self) -> str:
        """The UCI-like `info` line: info depth 4 score cp 25 nodes 1234 time 210 nps 5876 pv ..."""
        if abs(self.score) >= MATE_BOUND:
            plies = MATE - abs(self.score)
            score = "mate %d" % ((plies + 1) // 2 if self.score > 0 else -((plies + 1) // 2))
        else:
            score = "cp %d" % self.score
        nps = self.nodes * 1000 // max(1, self.time_ms)
        pv = (" pv " + " ".join(self.pv)) if self.pv else ""
        return "info depth %d score %s nodes %d time %d nps %d%s" % (
            self.depth, score, self.nodes, self.time_ms, nps, pv)


# The techniques a search may be asked to leave out (Searcher's `off`): bench/strength.py
# measures what each is worth by leaving it out.
TECHNIQUES = ("tt", "killers", "history", "null", "lmr", "lmp", "futility", "delta", "check-ext",
              "aspiration", "mobility", "qs-checks", "boxed", "eval", "structure", "pair", "mdp")
STRUCT_LIMIT = 100_000  # entries of the structure cache; cleared past this


Table = dict[int, tuple[int, int, int, int]]  # key -> (depth, flag, score, move)
_KEPT: dict[tuple[int, frozenset[str]], Table] = {}
_STRUCT: dict[int, dict[int, tuple[int, int]]] = {}  # game -> structure key -> (middle game, endgame)
_EXTRA: dict[int, dict[int, int]] = {}  # game -> cells' key ^ side to move -> the game's extra terms
_ATTACK: dict[tuple[int, type], dict[int, bool]] = {}  # (game, position class) -> cells' key ^ side to move -> its royal piece attacked
_CLOSED: dict[int, dict[int, bool]] = {}  # game -> cells' key ^ side to move -> Lippo's patt
_BOXED: dict[int, dict[int, bool]] = {}  # game -> cells' key ^ side to move -> the other royal piece boxed in


def kept_table(pos: Position, off: frozenset[str] = frozenset()) -> Table:
    """The transposition table kept from one search to the next in pos's game (one per set of
    techniques left out): a move's search starts from what the last one learnt."""
    return _KEPT.setdefault((id(pos.game), off), {})


class Searcher:
    """Searches one position (a core Position it may push and pop, left as it found it);
    tt: a table to start from and fill (kept_table()), else a new one."""

    def __init__(self, pos: Position, earlier: list[int] | None = None, off: frozenset[str] = frozenset(),
                 tt: Table | None = None) -> None:
        unknown = set(off) - set(TECHNIQUES)
        if unknown:
            raise ValueError("no technique %s: the search has %s" % (", ".join(sorted(unknown)), ", ".join(TECHNIQUES)))
        self.use_tt = "tt" not in off
        self.use_killers = "killers" not in off
        self.use_history = "history" not in off
        self.lmr_depth = 3 if "lmr" not in off else MAX_PLY  # the least depth a move is reduced at
        self.null_depth = NULL_DEPTH
        self.null_r = NULL_R
        self.recaptures = RECAPTURES
        self.late = LATE
        self.lmr = LMR
        self.futility = FUTILITY
        for name, value in GAME_SEARCH.get(pos.game.id, {}).items():
            setattr(self, name, value)
        self.late_depth = len(self.late) if "lmp" not in off else 0
        self.futility_depth = len(self.futility) if "futility" not in off else 0
        self.use_delta = "delta" not in off
        self.check_ext = "check-ext" not in off
        self.aspiration = "aspiration" not in off
        self.mdp = "mdp" not in off
        self.extend_replies = EXTEND_REPLIES
        self.t = Tracked(pos, "eval" in off)
        self.earlier = earlier or []  # keys of the game's positions before this one
        self.pos = pos
        prof = self.t.tables.profile
        self.profile = prof
        self.value = self.t.tables.value
        self.mobility = prof.mobility if "mobility" not in off else 0
        # The tapered evaluation's terms (chess): the phase weights by code, the
        # structure term (cached by the structure key) and the bishop pair.
        self.tapered = self.t.tables.value_eg is not None
        self.phase_of = [0] * 128
        g = pos.game
        for letter, w in prof.phase.items():
            t = g.letter.find(letter)
            if t > 0:
                self.phase_of[WHITE | t] = self.phase_of[BLACK | t] = w
        self.phased = [c for c in range(128) if self.phase_of[c]]
        self.structure = prof.structure if "structure" not in off else None
        self.struct_cache = _STRUCT.setdefault(id(g), {})
        self.extra_cache = _EXTRA.setdefault(id(g), {})
        self.pair = prof.pair if "pair" not in off else (0, 0)
        self.bishop = g.letter.find("B") if self.pair != (0, 0) else -1
        self.points = [0] * 128
        for code in range(128):
            t = code & 31
            if code & (WHITE | BLACK) and t < len(pos.game.letter):
                self.points[code] = abs(self.value[code * SIZE + pos.game.layout.squares[0]]) or 100
                if self.tapered:
                    self.points[code] = prof.material.get(g.letter[t], 0) or 100
                if t == pos.game.royal:
                    self.points[code] = 10_000  # where it can be taken, taking it ends the game
        self.check_rules = pos.game.check_rules
        traits = search_traits(g)  # what the game's rules let a search assume
        self.forced_captures = traits.captures_forced
        # Moves are the core's from/to/CAPTURE ints (Position's takes, move_to, move_from)
        # in every game but checkers12 (paths).
        P = Position
        cls = type(pos)
        self.plain_ints = cls.takes is P.takes and cls.move_to is P.move_to and cls.move_from is P.move_from
        self.cap_bit = CAPTURE if cls.takes is P.takes else 1  # (checkers12's paths: bit 0)
        # Quick quiescence: the captures come from pseudo_moves() (the pieces' powers),
        # cheaper than the full legal generation where that adds the check rule (hundred,
        # Grosschess: one push per move) or the end tests (Lippo's surrender and patt,
        # nine attack tests a node).  Checkers and chess-T1 generate their moves in one go.
        self.quick = traits.captures_alone
        self.royal_taken_ends = not self.check_rules and pos.game.royal != 0  # lippo (quick)
        # Null moves where zugzwang is rare (not in checkers, chess-T1 or gardner's 5 x 5).
        self.null_ok = traits.null_move and "null" not in off
        self.piece_types = [t for t in range(1, len(pos.game.letter)) if t not in (pos.game.pawn, pos.game.royal)]
        # Quiet checks at the quiescence search's first ply (the check-rule games whose
        # captures are generated alone): a mate's last move is found a ply sooner.
        self.qs_checks = self.check_rules and self.quick and "qs-checks" not in off
        # Lippo's full nodes: the end by the core (end_reason, its own early-stopping
        # tests, given the set-based attack test: _attacked_here), the moves by the
        # set-based generator (captures.fast_moves), the same moves as legal_moves() but
        # where a §6 demand limits them.
        self.fast = pos.game.id in FAST_GAMES and hasattr(pos, "end_reason")
        self.prune_captures = traits.attacks_by_powers  # a defended piece may be taken back
        # Lippo's attacked President (no check rule, but 4 a's surrender is its mate) is
        # searched as a check is: no null move, pruning or reduction there, extended where
        # it leaves EXTEND_REPLIES moves or fewer, a move attacking the other President
        # neither pruned nor reduced, and at the quiescence search's first ply no standing
        # pat (every move that ends the attack searched: a surrender at the horizon is
        # seen).  Its patt (4 b) is seen there too.  Without these a level lost games to a
        # surrender a ply past its horizon (issue #24: bench/strength.py --levels).
        self.guard = self.fast and self.royal_taken_ends and "check-ext" not in off
        self.attack_cache = _ATTACK.setdefault((id(g), type(pos)), {})
        self.closed_cache = _CLOSED.setdefault(id(g), {})
        self.boxed_cache = _BOXED.setdefault(id(g), {})
        self.evasions_served = evasions_served(pos)
        self.use_boxed = self.check_rules and "boxed" not in off
        self.royal_steps = g.jumps[g.royal] if g.royal else ()
        # By type: the offsets a piece checks from (_may_check), and its rays by offset.
        self.check_jumps = [frozenset(j) for j in g.jumps]
        self.check_rays = [{d * n: d for d in sl for n in range(1, max(g.layout.files, g.layout.ranks))} for sl in g.slides]
        self.bent_types = frozenset(t for t in range(1, len(g.letter)) if g.bent_at[t] != g.bent_at[t + 1])
        self.tt: Table = tt if tt is not None else {}
        # The moves of the nodes searched, by key: exact, so only where a key and the cells
        # decide them (Lippo's §14/§15 countdown reads the ply too: not kept there).
        self.moves_kept: dict[int, tuple[bytes, list[int]]] = {}
        self.moves_stored = 0
        self.keep_moves = "tt" not in off and getattr(pos, "end_ply", None) is None
        self.history: dict[int, int] = {}
        self.killers = [[0, 0] for _ in range(MAX_PLY + 1)]
        self.path: list[int] = []  # keys of the positions from the root down
        # Moves each ply had (the last slot stands for the ply before the root).
        self.counts = [0] * (MAX_PLY + QS_DEPTH + 4)
        self.nodes = 0
        self.clock = CLOCK
        self.deadline = 0.0
        self._root_best = 0
        self._root_score = 0

    # ---- driving --------------------------------------------------------------------

    def run(self, max_depth: int, budget_s: float | None, on_info: Callable[[Info], None] | None = None,
            soft_s: float | None = None) -> tuple[int, int, list[Info]]:
        """Deepen until max_depth or the time budget; (move, score, infos).  The move is
        the deepest finished iteration's (the first iteration always finishes or is
        replaced by the best-ordered move)."""
        start = self.clock()
        self.deadline = start + budget_s if budget_s is not None else float("inf")
        soft = start + soft_s if soft_s is not None else self.deadline
        pos = self.pos
        moves = pos.legal_moves()
        if not moves:
            raise ValueError("the game is over: no move to choose")
        best = self._ordered(moves, 0, 0)[0]
        score = 0
        infos: list[Info] = []
        self.nodes = 0
        for depth in range(1, max_depth + 1):
            try:
                if self.aspiration and depth >= 4 and abs(score) < MATE_BOUND:
                    # Aspiration: a window around the last score, widened when it fails.
                    lo, hi = score - ASPIRATION, score + ASPIRATION
                    v, move = self._root(depth, moves, best, lo, hi)
                    if lo < v < hi:
                        score = v
                    else:
                        score, move = self._root(depth, moves, move)
                else:
                    score, move = self._root(depth, moves, best)
            except Timeout:
                # A new best move found in the unfinished iteration is already better.
                if self._root_best and (self._root_best != best or not infos):
                    best, score = self._root_best, self._root_score
                    # said too, so that the last info's pv begins with the move chosen
                    ms = int((self.clock() - start) * 1000)
                    info = Info(depth, score, self.nodes, ms, self._pv(best, depth), False)
                    infos.append(info)
                    if on_info is not None:
                        on_info(info)
                break
            best = move
            ms = int((self.clock() - start) * 1000)
            info = Info(depth, score, self.nodes, ms, self._pv(best, depth))
            infos.append(info)
            if on_info is not None:
                on_info(info)
            if abs(score) >= MATE_BOUND and depth >= MATE - abs(score):
                break  # a forced end found: deeper cannot change it
            if len(moves) == 1 and depth >= 2:
                break
            if self.clock() >= soft:
                break
        return best, score, infos

    def _root(self, depth: int, moves: list[int], best: int, alpha: int = -INF, beta: int = INF) -> tuple[int, int]:
        # (score, move) within (alpha, beta); a score at or outside the window is only a bound.
        t = self.t
        alpha0 = alpha
        self._root_best = 0
        ordered = self._ordered(moves, 0, best)
        root_key = t.key()
        self.path = self.earlier + [root_key]
        self.counts[0] = self.counts[-1] = len(moves)
        pos = self.pos
        for i, m in enumerate(ordered):
            quiet = not pos.takes(m)
            t.push(m)
            try:
                if i == 0:
                    v = -self._search(depth - 1, -beta, -alpha, 1)
                else:
                    # Late quiet moves are first searched a ply shallower, as in the tree.
                    r = 1 if depth >= self.lmr_depth and i >= 8 and quiet and not self._checked() else 0
                    v = -self._search(depth - 1 - r, -alpha - 1, -alpha, 1)
                    if v > alpha and r:
                        v = -self._search(depth - 1, -alpha - 1, -alpha, 1)
                    if v > alpha:
                        v = -self._search(depth - 1, -beta, -alpha, 1)
            finally:
                t.pop()
            if v > alpha:
                alpha = v
                best = m
                self._root_best, self._root_score = m, v
                if v >= beta:
                    return v, m  # fails high: the caller widens the window
        if alpha0 < alpha:
            self.tt[root_key] = (depth, EXACT, alpha, best)
        return alpha, best

    def _pv(self, first: int, depth: int) -> list[str]:
        pos = self.pos
        out = []
        pushed = 0
        m = first
        seen = set()
        while m and pushed < depth:
            if m not in pos.legal_moves():
                break
            out.append(pos.move_str(m))
            self.t.push(m)
            pushed += 1
            key = self.t.key()
            if key in seen:
                break
            seen.add(key)
            e = self.tt.get(key)
            m = e[3] if e else 0
        for _ in range(pushed):
            self.t.pop()
        return out

    # ---- the tree ---------------------------------------------------------------------

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes & 15 == 0 and self.clock() >= self.deadline:
            raise Timeout

    def _end_score(self, ply: int) -> int:
        # The side to move has no move: the game is over, by the game's own rules.
        o = self.pos.outcome()
        if o is None or o.winner is None:
            return 0
        return MATE - ply if o.winner == self.pos.us else -(MATE - ply)

    def _search(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._tick()
        t = self.t
        pos = self.pos
        key = t.key()
        if key in self.path:
            return 0 if self.profile.repetition_draws else self._eval(ply)
        if self.mdp:
            # Mate-distance pruning: no line from here ends sooner than a mate on the next
            # move, nor later than being mated now; a window past those bounds is answered.
            if alpha < -(MATE - ply):
                alpha = -(MATE - ply)
            if beta > MATE - ply - 1:
                beta = MATE - ply - 1
            if alpha >= beta:
                return alpha
        if depth <= 0 or ply >= MAX_PLY:
            return self._quiesce(alpha, beta, ply, None, 0)
        # The table first: a cut-off needs no moves generated (an entry's depth is the
        # one searched, a check's extension included).
        entry = self.tt.get(key) if self.use_tt else None
        tt_move = 0
        if entry is not None:
            e_depth, flag, e_score, tt_move = entry
            if e_depth >= depth:
                if e_score >= MATE_BOUND:
                    e_score -= ply
                elif e_score <= -MATE_BOUND:
                    e_score += ply
                if flag == EXACT or (flag == LOWER and e_score >= beta) or (flag == UPPER and e_score <= alpha):
                    return e_score
        moves = self._node_moves(key, self._legal if self.fast else self._evasions_or_moves)
        if not moves:
            return self._end_score(ply)
        n = len(moves)
        self.counts[ply] = n
        in_check = self._checked()
        if in_check and ply < MAX_PLY // 2 and self.check_ext and n <= self.extend_replies:
            depth += 1
        if (self.null_ok and depth >= self.null_depth and beta - alpha == 1 and not in_check and abs(beta) < MATE_BOUND
                and self._has_pieces() and self._eval(ply) >= beta):
            v = self._null_search(depth, beta, ply, key)
            if v >= beta:
                return beta
        alpha0 = alpha
        best = -INF
        best_move = 0
        futile = INF  # INF: no pruning here
        late = INF
        quiets = 0
        check_rules = self.check_rules
        if not in_check and beta - alpha == 1 and abs(alpha) < MATE_BOUND:
            if depth < self.futility_depth:
                futile = self._eval(ply) + self.futility[depth]  # no quiet move gets past this
            if depth < self.late_depth:
                late = self.late[depth]  # late-move pruning: the quiet moves after these are left out
            if depth <= 2 and self.use_boxed and self._boxed():
                # The other royal piece has no square to step to: a quiet move here may
                # threaten a mate that the reply and the quiescence search's checks show
                # (a depth-1 node's reply alone cannot): not pruned.
                futile = late = INF
        self.path.append(key)
        try:
            for i, m in enumerate(self._staged(moves, ply, tt_move)):
                quiet = not pos.takes(m)
                # (never while every move searched is mated: a pruned move may be the one that is not)
                prunable = quiet and i and (futile <= alpha or quiets >= late) and best > -MATE_BOUND
                if prunable and not check_rules:
                    # (Without a check rule, taking the royal piece is a capture, which is
                    # never pruned: the move need not even be made.)
                    if futile <= alpha and futile > best:
                        best = futile
                    continue
                t.push(m)
                try:
                    # A quiet move that gives check is neither pruned nor reduced: it may
                    # be the mate.
                    gives_check = quiet and (check_rules or self.guard) and self._checked()
                    if prunable and not gives_check:
                        if futile <= alpha and futile > best:
                            best = futile
                        continue
                    if quiet:
                        quiets += 1
                    if i == 0:
                        v = -self._search(depth - 1, -beta, -alpha, ply + 1)
                    else:
                        r = 0
                        if depth >= self.lmr_depth and quiet and not in_check and not gives_check:
                            r = self.lmr[depth if depth < 32 else 31][i if i < 256 else 255]
                        v = -self._search(depth - 1 - r, -alpha - 1, -alpha, ply + 1)
                        if v > alpha and (r or v < beta):
                            v = -self._search(depth - 1, -beta, -alpha, ply + 1)
                finally:
                    t.pop()
                if v > best:
                    best = v
                    best_move = m
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            if quiet:
                                k = self.killers[ply]
                                if k[0] != m and self.use_killers:
                                    k[1] = k[0]
                                    k[0] = m
                                if self.use_history:
                                    self.history[m] = self.history.get(m, 0) + depth * depth
                            break
        finally:
            self.path.pop()
        flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
        stored = best
        if stored >= MATE_BOUND:
            stored += ply
        elif stored <= -MATE_BOUND:
            stored -= ply
        if len(self.tt) >= TT_LIMIT:
            self.tt.clear()
        self.tt[key] = (depth, flag, stored, best_move)
        return best

    def _node_moves(self, key: int, make: Callable[[], list[int]]) -> list[int]:
        # A node's moves (make()), kept by its key (and checked against its cells) for the
        # next iteration's and the re-searches' visits: the generation is most of a node's
        # cost (the quiescence search's evasions of a check too).
        kept = self.moves_kept.get(key)
        if kept is not None and kept[0] == self.pos.cells:
            return kept[1]
        moves = make()
        if self.keep_moves:
            if self.moves_stored >= MOVES_KEPT:
                self.moves_kept.clear()
                self.moves_stored = 0
            self.moves_kept[key] = (bytes(self.pos.cells), moves)
            self.moves_stored += len(moves) + 16
        return moves

    def _evasions_or_moves(self) -> list[int]:
        # The legal moves; those of a check found from the checker's squares where the
        # game's check rule gives them (captures.evasions).
        if self.evasions_served and self._checked():
            return evasions(self.pos)
        return self.pos.legal_moves()

    def _checked(self) -> bool:
        # The side to move is in check (Lippo: its President attacked), from the cache: a
        # move's check asked after it is made is its node's again.
        return (self.check_rules or self.guard) and self._royal_attacked()

    def _of_cells(self, cache: dict[int, bool], make: Callable[[], bool]) -> bool:
        # make()'s answer for the position as it stands, cached by the cells' key and the
        # side to move (a position's royal attack, patt, the other royal piece boxed in).
        k = self.t.h ^ self.pos.us
        v = cache.get(k)
        if v is None:
            if len(cache) >= STRUCT_LIMIT:
                cache.clear()
            v = cache[k] = make()
        return v

    def _royal_attacked(self) -> bool:
        # The side to move's royal piece attacked (cached): asked by the search (_checked),
        # the evaluation's Lippo term and the core's end tests (_attacked_here), so made once
        # a position.
        return self._of_cells(self.attack_cache, self._royal_attacked_now)

    def _royal_attacked_now(self) -> bool:
        pos = self.pos
        if self.check_rules:
            return pos.is_check()  # (the class's own: a Kriegspiel view's says no)
        p = pos.kings[pos.us >> 6]
        return bool(p) and self._attacked(p, pos.us ^ (WHITE | BLACK))

    def _attacked(self, sq: int, by: int) -> bool:
        # pos.attacked(), by the sets where the game's moves are made by them (Lippo).
        t = self.t
        return attacked(self.pos, sq, by, t.pieces) if t.occ is not None else self.pos.attacked(sq, by)

    def _attacked_here(self, sq: int, by: int) -> bool:
        # _attacked(), the side to move's royal piece's test from the cache: the attack
        # test handed to the evaluation and to the core's end tests (the position as it stands).
        pos = self.pos
        if sq == pos.kings[pos.us >> 6] and by != pos.us:
            return self._royal_attacked()
        return self._attacked(sq, by)

    def _legal(self) -> list[int]:
        # legal_moves() of a FAST_GAMES position (Lippo: its pseudo-moves once the game
        # goes on, but under a §6 demand).
        pos = self.pos
        if pos.end_reason(self._attacked_here) is not None:  # type: ignore[attr-defined]
            return []
        if pos.flags & (16 << (pos.us >> 6)):  # type: ignore[attr-defined]  # lippo.DEMAND[side]
            return pos.legal_moves()
        return fast_moves(pos, False, self.t.occ)

    def _null_search(self, depth: int, beta: int, ply: int, key: int) -> int:
        # Null-move pruning: if passing still holds beta, a real move will.  The rules have
        # no pass: search_hooks.pass_turn hands the move over (no en-passant square, and
        # Lippo's end, cached for the side that passes, unknown) and pass_back puts it back.
        pos = self.pos
        passed = pass_turn(pos)
        self.path.append(key)
        try:
            return -self._search(depth - 1 - self.null_r, -beta, -beta + 1, ply + 1)
        finally:
            self.path.pop()
            pass_back(pos, passed)

    def _may_check(self, m: int) -> bool:
        # Whether move m's piece may check the other royal piece from where it lands: its
        # jumps, rays (the square it leaves empty) or pawn's capture diagonals reach it; a
        # promotion or a bent mover, always (the move made tells).  Discovered checks are
        # not looked for (nor are they among the quiet checks).
        pos = self.pos
        cells = pos.cells
        frm = pos.move_from(m)
        to = pos.move_to(m)
        typ = cells[frm] & 31
        if m >> KIND_SHIFT & 15 == PROMO or typ in self.bent_types:
            return True
        diff = pos.kings[(pos.us >> 6) ^ 1] - to
        if typ == pos.game.pawn:
            fwd = STRIDE if pos.us == WHITE else -STRIDE
            return diff == fwd - 1 or diff == fwd + 1
        if diff in self.check_jumps[typ]:
            return True
        d = self.check_rays[typ].get(diff, 0)
        if d:
            sq = to + d
            while sq != to + diff:
                if cells[sq] != EMPTY and sq != frm:
                    return False
                sq += d
            return True
        return False

    def _boxed(self) -> bool:
        # The other side's royal piece has no square to step to (empty or of ours, and not
        # attacked), cached.
        return self._of_cells(self.boxed_cache, self._boxed_now)

    def _boxed_now(self) -> bool:
        pos = self.pos
        us = pos.us
        r = pos.kings[(us >> 6) ^ 1]
        if not r:
            return False
        cells = pos.cells
        for d in self.royal_steps:
            c = cells[r + d]
            if (c == EMPTY or c & us) and not pos.attacked(r + d, us):
                return False
        return True

    def _has_pieces(self) -> bool:
        # Passing is safe only with pieces (not pawns or the royal piece alone) to move.
        counts = self.pos.counts
        us = self.pos.us
        for t in self.piece_types:
            if counts[us | t]:
                return True
        return False

    def _quiesce(self, alpha: int, beta: int, ply: int, moves: list[int] | None, qdepth: int,
                 last_to: int = 0) -> int:
        # moves: None, or the moves here (the legal ones, or the quick ones: see quick).
        # Where the quick generator serves, the standing score comes first and the moves
        # are generated only if it does not already refute the line.
        pos = self.pos
        if self.quick:
            if self.royal_taken_ends and not (pos.kings[0] and pos.kings[1]):
                return self._end_score(ply)
        elif moves is None:
            moves = pos.legal_moves()
            if not moves:
                return self._end_score(ply)
        # In check (Lippo: the President attacked, at the first ply only) every move is
        # searched, no standing pat: a mate (a surrender) at the horizon is seen.
        evading = (self.check_rules and qdepth <= 1 or self.guard and qdepth == 0) and self._checked()
        if self.guard and qdepth == 0 and not evading and self._closed():
            return self._end_score(ply)  # Lippo's patt (4 b): the game ends, by points
        checks = False  # quiet checks among the moves
        if evading:
            moves = self._node_moves(self.t.key(), self._evasions if self.guard else self._evasions_or_moves)
            if not moves:
                return self._end_score(ply)
            caps = moves
            forced = False
        else:
            forced = bool(self.forced_captures and moves and pos.takes(moves[0]))  # checkers
            caps = []
        if forced and moves:
            caps = moves
            if qdepth >= QS_DEPTH:
                return self._eval(ply)
            floor = -INF
            best = -INF
        elif not evading:
            stand = self._eval(ply)
            if stand >= beta or qdepth >= QS_DEPTH:
                return stand
            if qdepth >= self.recaptures:  # only the exchange on the last square goes on (and a royal capture)
                royal = self.royal_taken_ends and pos.kings[(pos.us >> 6) ^ 1]
                if self.fast and moves is None:  # (found from the squares)
                    caps = captures_to(pos, (last_to,) if royal in (last_to, 0) else (last_to, royal), self.t.pieces)
                elif moves is None and not royal:
                    caps = recaptures(pos, last_to)  # (found from the square)
                else:
                    caps = captures(pos, self.t.occ) if moves is None else [m for m in moves if pos.takes(m)]
                    caps = [m for m in caps if pos.move_to(m) in (last_to, royal)]
            else:
                caps = captures(pos, self.t.occ) if moves is None else [m for m in moves if pos.takes(m)]
            if qdepth == 0 and self.qs_checks:
                checks = True
                caps += self._quiet_checks()
            if not caps:
                return stand
            if stand > alpha:
                alpha = stand
            floor = alpha - stand - DELTA if self.use_delta else -INF  # a capture must win at least this much
            best = stand
        else:
            floor = -INF
            best = -INF
        # Mobility counts the moves of full nodes; a node of captures alone keeps its side's
        # count from two plies up.
        self.counts[ply] = self.counts[ply - 2] if moves is None else len(moves)
        t = self.t
        cells = pos.cells
        points = self.points
        quick = self.quick
        mover = pos.us
        them = mover ^ (WHITE | BLACK)
        prune = not (forced or evading) and self.prune_captures
        pseudo = quick and self.check_rules and not evading
        checks = checks and not (forced or evading)
        for m in self._ordered(caps, MAX_PLY, 0):
            to = pos.move_to(m)
            quiet = checks and not pos.takes(m)  # a quiet check (qs-checks): neither delta nor exchange pruned
            pruned = False  # a capture delta or exchange pruned: where quiet checks are searched, one that checks is not
            if not quiet:
                victim = points[cells[to]]
                if victim < floor:
                    pruned = True  # delta pruning: even this victim cannot lift the score to alpha
                elif prune and points[cells[pos.move_from(m)]] > victim and to != pos.move_from(m) \
                        and self._attacked(to, them):
                    pruned = True  # a bigger piece for a defended smaller one: not a quiet line's business
                if pruned and not (checks and self._may_check(m)):
                    continue
            self._tick()
            t.push(m)
            try:
                if pruned and not self._checked():
                    continue
                # The check rule for a move of the quick generator is applied here, to the
                # one move made (the chess-like games; an evasion is a legal move already).
                if pseudo and pos.attacked(pos.kings[mover >> 6], pos.us):
                    continue
                if evading and self.guard and pos.kings[pos.us >> 6] and self._attacked(pos.kings[mover >> 6], pos.us):
                    continue  # the President left attacked (a move taking theirs goes on)
                if quiet and m >> KIND_SHIFT & 15 != PROMO and not self._checked():
                    continue
                if quiet and pos.attacked(to, pos.us) and not pos.attacked(to, mover):
                    continue  # a quiet check whose piece is lost for nothing (a mate is the full search's)
                v = -self._quiesce(-beta, -alpha, ply + 1, None, qdepth + 1, to)
            finally:
                t.pop()
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        if best == -INF:
            return self._end_score(ply)  # Lippo's President attacked and no move ends it: surrender (4 a)
        return best

    def _closed(self) -> bool:
        # Lippo's patt (4 b, A16) of the side to move, as the rules core tells it (cached).
        return self._of_cells(self.closed_cache, self._closed_now)

    def _closed_now(self) -> bool:
        return patt(self.pos, self._attacked)

    def _evasions(self) -> list[int]:
        # The moves of a Lippo position whose President is attacked, for the quiescence
        # search (which keeps those ending the attack): the set-based generator's, the
        # core's under a §6 demand or a §14/§15 countdown (their rules are its).
        pos = self.pos
        if pos.end_ply is not None or pos.flags & (16 << (pos.us >> 6)):  # type: ignore[attr-defined]
            return pos.legal_moves()
        return fast_moves(pos, False, self.t.occ)

    def _quiet_checks(self) -> list[int]:
        # The quiet promotions, and the quiet moves that may give check: those landing where their piece's jumps or
        # slides reach the other royal piece (a pawn: its capture diagonals).  A superset
        # of the direct checks (but a slider's along the ray it blocks), the caller keeps
        # those that check; discovered checks and bent moves are left to the full-width search.
        pos = self.pos
        g = pos.game
        cells = pos.cells
        k = pos.kings[(pos.us >> 6) ^ 1]
        if not k:
            return []
        reach: dict[int, set[int]] = {}
        fwd = STRIDE if pos.us == WHITE else -STRIDE
        out = []
        # The moves of the pieces that may check: not the royal piece's (a direct check
        # by it is no move of a check-rule game), nor a pawn's more than three ranks from
        # the other royal piece and short of the promotion rank.
        ms: list[int] = []
        us = pos.us
        royal, pawn = g.royal, g.pawn
        kr = k // STRIDE
        last = g.layout.ranks - 2 if us == WHITE else 1  # a pawn's rank before it promotes
        if type(pos).pseudo_moves is not Position.pseudo_moves:  # a game's own generator: all of it
            ms = pos.pseudo_moves()
        else:
            movers = []
            for sq in g.layout.squares:
                c = cells[sq]
                if c & us:
                    t = c & 31
                    if not (t == royal or (t == pawn and abs(sq // STRIDE - kr) > 3 and rank_of(sq) != last)):
                        movers.append(sq)
            pseudo_moves_from(pos, movers, ms)
        for m in ms:
            if m & CAPTURE:
                continue
            if m >> KIND_SHIFT & 15 == PROMO:
                out.append(m)  # a quiet promotion: searched whether it checks or not
                continue
            frm = pos.move_from(m)
            typ = cells[frm] & 31
            r = reach.get(typ)
            if r is None:
                r = reach[typ] = set()
                if typ == g.pawn:
                    r.update((k - fwd - 1, k - fwd + 1))
                for d in g.jumps[typ]:
                    r.add(k - d)
                for d in g.slides[typ]:
                    sq = k - d
                    while cells[sq] == EMPTY:
                        r.add(sq)
                        sq -= d
            if pos.move_to(m) in r:
                out.append(m)
        return out

    def _eval(self, ply: int) -> int:
        # Material and squares (kept by Tracked; chess: the middle game's and the endgame's
        # blended by the phase, with the cached structure term and the bishop pair), the
        # game's dynamic terms, and mobility:
        # the moves the side to move had two plies up against its opponent's one ply up.
        pos = self.pos
        t = self.t
        s = t.score
        if self.tapered:
            counts = pos.counts
            phase_of = self.phase_of
            phase = 0
            for c in self.phased:
                if counts[c]:
                    phase += phase_of[c] * counts[c]
            if phase > PHASE:
                phase = PHASE
            e = t.score_eg
            if self.structure is not None:
                terms = self.struct_cache.get(t.hs)
                if terms is None:
                    if len(self.struct_cache) >= STRUCT_LIMIT:
                        self.struct_cache.clear()
                    terms = self.struct_cache[t.hs] = self.structure(pos)
                s += terms[0]
                e += terms[1]
            b = self.bishop
            if b > 0:
                wb, bb = counts[WHITE | b] >= 2, counts[BLACK | b] >= 2
                if wb != bb:
                    s += self.pair[0] if wb else -self.pair[0]
                    e += self.pair[1] if wb else -self.pair[1]
            s = (s * phase + e * (PHASE - phase)) // PHASE
        extra = self.profile.extra
        if extra is not None:
            # The game's terms read the cells and the side to move alone: cached by the
            # cells' key and the side (Lippo's attack test costs as much as a move list).
            k = t.h ^ pos.us
            x = self.extra_cache.get(k)
            if x is None:
                if len(self.extra_cache) >= STRUCT_LIMIT:
                    self.extra_cache.clear()
                x = self.extra_cache[k] = extra(pos, self._attacked_here)
            s += x
        if s > MOP_UP or s < -MOP_UP:
            s += self._mop_up(s > 0)
        if pos.us == BLACK:
            s = -s
        c = self.counts
        return s + self.mobility * (c[ply - 2] - c[ply - 1])

    def _mop_up(self, white_ahead: bool) -> int:
        # Far ahead: drive the other royal piece to the edge and come closer with one's
        # own, so that a won ending is won, not shuffled into a draw.
        kings = self.pos.kings
        strong, weak = (kings[0], kings[1]) if white_ahead else (kings[1], kings[0])
        if not strong or not weak:
            return 0
        lay = self.pos.game.layout
        wf, wr = file_of(weak), rank_of(weak)
        edge = abs(2 * wf - (lay.files - 1)) + abs(2 * wr - (lay.ranks - 1))
        near = abs(file_of(strong) - wf) + abs(rank_of(strong) - wr)
        bonus: int = 5 * edge - 4 * near
        return bonus if white_ahead else -bonus

    # ---- move ordering ----------------------------------------------------------------

    def _staged(self, moves: list[int], ply: int, tt_move: int) -> Iterator[int]:
        # _ordered's order, made a stage at a time (the core's move ints): the table's move,
        # the captures, the killers, then the quiet moves by history, each stage sorted only
        # when the ones before it did not cut the node off (most cut-offs come before the
        # quiet moves, some 150 of them in Lippo).
        if tt_move and tt_move in moves:
            yield tt_move
        pos = self.pos
        cells = pos.cells
        points = self.points
        cap = self.cap_bit
        if self.plain_ints:
            caps = [((1 << 30) + (points[cells[m >> 9 & 511]] or 100) * 64 - (points[cells[m & 511]] >> 4)
                     + m.bit_length(), m) for m in moves if m & CAPTURE and m != tt_move]
        else:  # (checkers12's paths)
            caps = [((1 << 30) + (points[cells[pos.move_to(m)]] or 100) * 64 - (points[cells[pos.move_from(m)]] >> 4)
                     + m.bit_length(), m) for m in moves if m & cap and m != tt_move]
        if caps:
            caps.sort(reverse=True)
            for _, m in caps:
                yield m
        k0, k1 = self.killers[ply] if ply < MAX_PLY else (0, 0)
        if k0 and k0 != tt_move and k0 in moves:
            yield k0
        if k1 and k1 != tt_move and k1 in moves:
            yield k1
        hist = self.history
        quiets = [(hist.get(m, 0), m) for m in moves if not m & cap and m != tt_move and m != k0 and m != k1]
        quiets.sort(reverse=True)
        for _, m in quiets:
            yield m

    def _ordered(self, moves: list[int], ply: int, tt_move: int) -> list[int]:
        pos = self.pos
        cells = pos.cells
        points = self.points
        hist = self.history
        k0, k1 = self.killers[ply] if ply < MAX_PLY else (0, 0)
        keyed = []
        cap = self.cap_bit
        plain = self.plain_ints
        for m in moves:
            if m == tt_move:
                s = 1 << 40
            elif m & cap:
                if plain:  # read here, not by a call a move
                    to, frm = m >> 9 & 511, m & 511
                else:
                    to, frm = pos.move_to(m), pos.move_from(m)
                s = (1 << 30) + (points[cells[to]] or 100) * 64 - (points[cells[frm]] >> 4) + m.bit_length()
            elif m == k0:
                s = 1 << 29
            elif m == k1:
                s = (1 << 29) - 1
            else:
                s = hist.get(m, 0)
            keyed.append((s, m))
        keyed.sort(reverse=True)
        return [m for _, m in keyed]
