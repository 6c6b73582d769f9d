"""Two boards and the host's umpire (host/commands/kriegspiel.py, firmware/krieg.py): attempts made
by hand, verdicts, guess pieces, the ask square, announcements on the LEDs, and the rule
of §10.1 at the level of bytes: what one board sends and lights is the same for two
hidden histories that sound the same to its owner."""

import sys

import pytest
from conftest import ROOT

from firmware.rules import new_position
from firmware.rules.board import BLACK, WHITE
from firmware.rules.kriegspiel import Umpire
import json

from host.commands.kriegspiel import OTHER, Match, led_line

sys.path.insert(0, str(ROOT / "tests" / "mpy"))
from scriptrun import Runner  # noqa: E402

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"


class LocalEnd:
    """A board of the sim profile, in this process, as the match sees it."""

    def __init__(self, path):
        self.r = Runner(str(path))
        self.seen = len(self.r.out)
        self.frames = []  # every LED frame after each step, for the byte comparisons

    def request(self, line):
        reply = self.r.send(line)
        assert reply.startswith("ok"), (line, reply)
        self.frames.append(bytes(self.r.board.frame))
        return reply

    def events(self):
        lines = self.r.out[self.seen:]
        self.seen = len(self.r.out)
        return [t.split(" ", 1)[1] for t in lines if t.split(" ", 2)[1] not in ("ok", "error")]

    def hand(self, *steps):
        for s in steps:
            self.request("sim " + s)

    def leds(self):
        return self.r.led_groups()


def new_match(tmp_path, fen=START, name="", say=None, set_up=True, **options):
    """A chess Kriegspiel match between two in-process boards (journals named name+w/b),
    started; set_up: the hands then put each board's army on it."""
    ends = {WHITE: LocalEnd(tmp_path / (name + "w.journal")), BLACK: LocalEnd(tmp_path / (name + "b.journal"))}
    m = Match(Umpire(new_position("chess", fen)), ends[WHITE], ends[BLACK], say or (lambda s, t: None), **options)
    m.start()
    if set_up:
        for e in ends.values():
            e.request("sim setup")
            e.request("sim wait 100")
        m.pump()
    return m, ends


@pytest.fixture
def match(tmp_path):
    def make(fen=START):
        views = {WHITE: [], BLACK: []}
        m, ends = new_match(tmp_path, fen, say=lambda s, t: views[s].append(t))
        return m, ends, views
    return make


def play(m, end, *steps):
    end.hand(*steps, "wait 600")
    m.pump()


def test_each_board_holds_its_own_army_and_a_move_is_an_attempt(match):
    m, ends, views = match()
    w, b = ends[WHITE], ends[BLACK]
    assert w.r.board.pos.fen().split()[0] == "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR"
    assert b.r.board.pos.fen().split()[0] == "rnbqkbnr/pppppppp/8/8/8/8/8/8"
    assert w.r.board.tracker.state == 1 and b.r.board.tracker.state == 1  # idle: set up
    play(m, w, "lift e2", "place e4")
    assert "attempt e2e4" in " ".join(w.r.out)
    assert m.ump.pos.fen().startswith("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b")
    assert views[BLACK] == ["White has moved."] and views[WHITE] == ["You try e2e4", "White has moved."]


def test_an_impossible_attempt_goes_back_and_both_boards_show_it(match):
    m, ends, views = match()
    w, b = ends[WHITE], ends[BLACK]
    play(m, w, "lift e2", "place e4")
    play(m, b, "lift e7", "place e5")
    play(m, w, "lift e4", "place e5")  # blocked by the hidden pawn
    assert views[WHITE][-1] == "Move impossible." and views[BLACK][-1] == "Move impossible."
    assert "r:" in b.leds() and "off" in b.leds()  # the red margin ring on the other board too
    assert w.leds().startswith("l:e4") or "m:e4" in w.leds()  # put it back on e4
    assert "r:e5" in w.leds() or "r:" in w.leds()
    play(m, w, "lift e5", "place e4", "wait 3000")
    assert w.leds() == "n:off"  # back, idle, the ask square lit: White's turn again
    play(m, w, "lift d2", "place d4")
    assert m.ump.pos.us == BLACK


def test_a_capture_lights_the_victims_square_until_it_is_taken_off(match):
    m, ends, views = match("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    w, b = ends[WHITE], ends[BLACK]
    play(m, w, "lift e4", "place d5")  # a diagonal step onto a square that looks empty
    assert views[BLACK][-1] == "White captures on d5."
    assert "r:d5" in b.leds()  # Black's man is gone: take it off
    assert "x:d5" in w.leds() or "r:d5" not in w.leds()
    b.hand("lift d5", "wait 3000")  # the capture square stays lit for 3 s, then goes dark
    m.pump()
    assert "d5" not in b.leds()


def test_guess_pieces_are_never_moves_never_lit_never_told(match):
    m, ends, views = match()
    w = ends[WHITE]
    before = len(w.r.out)
    w.hand("place d6", "wait 600", "place h6", "wait 600", "lift d6", "wait 600")
    m.pump()
    assert w.r.out[before:] == [] or all(" ok " in t for t in w.r.out[before:])
    assert "d6" not in w.leds() and "h6" not in w.leds()
    play(m, w, "lift b1", "place c3")  # a real move with a guess piece still on h6
    assert m.ump.pos.fen().split()[0] == "rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BQKBNR"


def test_the_ask_square_asks_and_both_boards_light_the_answer(match):
    m, ends, views = match("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    w, b = ends[WHITE], ends[BLACK]
    assert w.leds() == "n:off"  # White's turn: the ask square is lit
    w.hand("place @11", "wait 100")  # the ask square: the margin corner at White's right hand
    m.pump()
    w.hand("lift @11", "wait 100")
    assert views[WHITE][-2:] == ["Can I capture?", "Yes."] and views[BLACK][-1] == "Yes."
    assert "W:" in w.leds() and "W:" in b.leds()  # the green ring
    play(m, w, "lift e1", "place d1")  # not a pawn capture: refused by the rule of §6.2
    assert views[WHITE][-1] == "Refused by your board: you asked and were told yes: try a pawn capture first"
    assert views[BLACK][-1] == "Yes."  # the refusal is White's alone


def test_check_directions_light_the_glyph_and_the_kings_lines(match):
    m, ends, views = match("3k4/8/8/8/8/8/8/R3K3 w - - 0 1")
    w, b = ends[WHITE], ends[BLACK]
    play(m, w, "lift a1", "place d1")
    assert views[BLACK][-1] == "White checks along a file."
    leds = b.leds()
    assert "k:" in leds and "d8" in leds.split("k:")[1].split()[0]  # the king in check
    assert "d1" in leds and "d4" in leds  # the whole file, from the king's square alone


def test_the_end_of_the_game_stays_lit_and_the_record_is_released(match):
    m, ends, views = match("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1")
    w, b = ends[WHITE], ends[BLACK]
    with pytest.raises(ValueError):
        m.record()
    play(m, w, "lift a1", "place a8")
    assert views[WHITE][-1] == "Checkmate. White wins."
    rec = m.record()
    assert rec["moves"] == ["a1a8"] and rec["white_sheet"][-1]["type"] == "checkmate"
    assert m.result() == ("1-0", "checkmate")
    w.hand("wait 5000")
    assert "W:" in w.leds() and "L:" in b.leds()


def white_transcript(tmp_path, hidden):
    # White plays the same; Black's hidden moves differ but sound the same to White.
    m, ends = new_match(tmp_path, name="".join(hidden[0]))
    w, b = ends[WHITE], ends[BLACK]
    script = [(w, "e2", "e4"), (b,) + hidden[0], (w, "d1", "h5"), (b,) + hidden[1], (w, "h5", "f7"),
              (b, "e8", "f7"), (w, "f7", None), (w, "g1", "f3")]
    w.hand("place d6", "wait 100")  # a guess piece, for good measure
    for end, frm, to in script:
        play(m, end, "lift " + frm, *(["place " + to] if to else []))  # None: a man lost, taken off
        b.hand("setup", "wait 100")  # Black's hands put its board right (a man taken goes)
    assert m.ump.pos.fen().split()[0].endswith("PPPP1PPP/RNB1KB1R")
    return w.r.out, w.frames


def _no_identities(lines):
    # The power-up number and the game uid are random: no news of the hidden moves.
    import re

    lines = [re.sub(r"^(\d+ hello eboard \d+ \S+ \S+) \d+$", r"\1 BOOT", t) for t in lines]
    return [re.sub(r"^(\d+ newgame \S+) [0-9a-f]{8} ", r"\1 UID ", t) for t in lines]


def test_same_sounding_histories_give_one_board_the_same_bytes(tmp_path):
    # Black's pawn moves differ (a7a6 h7h6 / b7b6 a7a5); White's queen takes on f7 with
    # check and is taken back by the king in both.  White's board must not tell them apart.
    out1, frames1 = white_transcript(tmp_path, (("a7", "a6"), ("h7", "h6")))
    out2, frames2 = white_transcript(tmp_path, (("b7", "b6"), ("a7", "a5")))
    assert _no_identities(out1) == _no_identities(out2)
    assert frames1 == frames2
    assert sum("attempt" in t for t in out1) == 4


def test_led_lines_of_every_announcement_are_requests_the_board_takes(match):
    m, ends, _ = match()
    for a in [{"type": "capture", "square": "d5"}, {"type": "promotion", "square": "e8"},
              {"type": "check", "side": "white", "direction": "leap 1-4"},
              {"type": "pawn_capture_answer", "answer": False}, {"type": "move_impossible"},
              {"type": "stalemate", "result": "draw"}]:
        assert ends[WHITE].request(led_line(a)).startswith("ok announce")
        assert ends[WHITE].leds() != "-"
    for bad in ["announce", "announce check white sideways", "announce capture z9", "announce end blue"]:
        assert ends[WHITE].r.send(bad).startswith("error bad-args")


def test_kriegspiel_command_on_two_virtual_boards(tmp_path):
    # The whole chain: two MicroPython virtual boards on ptys, virtual hands, the umpire,
    # the views, the record released at the end and archived with the game.
    import json
    import subprocess

    from host.record.archive import Archive
    from test_cli import EBOARD

    db = tmp_path / "k.sqlite"
    r = subprocess.run([EBOARD, "kriegspiel", "--sim", "--standard", "--json", "--archive", str(db)],
                       input="f3\ne7e5\ng2g5\ng4\nQh4\n", capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()  # moves typed in SAN or as squares
    assert not any("not_possible" in line for line in lines)  # said in words, once, never as a code
    assert "[white] g2g5: the pawn on g2 cannot move there" in lines
    assert lines.index("[white] Checkmate. Black wins.") < lines.index("The game is over: 0-1. The umpire's record:")
    arch = Archive(db)
    game = arch.games()[-1]
    assert arch.moves(game.id) == ["f2f3", "e7e5", "g2g4", "d8h4"] and game.result == "0-1"
    rec = arch.kriegspiel_record(game.id)
    assert rec is not None and rec["black_sheet"][-1] == {"type": "checkmate", "winner": "black", "audience": "both"}
    assert json.loads(lines[lines.index("The game is over: 0-1. The umpire's record:") + 1])["moves"] == rec["moves"]


def arrange(end, field, colour):
    """Virtual hands set up an array as the board asks for it, man by man."""
    from firmware.rules.battle import men

    todo = men(field, colour)
    side = "white" if colour == WHITE else "black"
    while todo:
        asked = [t.split() for t in end.r.out if " arrange " in t]
        assert asked and asked[-1][2] == side, asked[-1:]
        i = next(i for i, m in enumerate(todo) if m[0].upper() == asked[-1][3])
        _, f, r = todo.pop(i)
        end.hand(f"place {'abcdefgh'[f]}{r + 1}", "wait 100")


def test_screened_setup_on_one_board_starts_battle_chess(tmp_path):
    end = LocalEnd(tmp_path / "one.journal")
    end.request("new chess")
    end.hand("setup", "wait 100")
    end.request("battle both")
    assert "r:" in end.leds()  # the pieces of the old game must go first
    for p in range(144):  # clear the board
        if end.r.hw.matrix.occ[p]:
            end.hand(f"lift @{p}")
    end.hand("wait 100")
    assert "n:" in end.leds() and "d:" in end.leds()  # the king's squares, and 'which man'
    end.hand("place e5", "wait 100")  # outside White's three ranks: wrong
    assert "r:e5" in end.leds()
    end.hand("lift e5", "wait 100")
    example = "r1bqk2r/1pp1bp1p/p1npp1pn/8/8/1PN1P1PB/P1PPQP1P/R1B1K1NR"
    arrange(end, example, WHITE)
    assert any(t.endswith("array white 8/8/8/8/8/1PN1P1PB/P1PPQP1P/R1B1K1NR") for t in end.r.out)
    arrange(end, example, BLACK)
    end.hand("wait 500")
    assert any(t.split()[1:3] == ["newgame", "chess"] and t.endswith(f" {example} w - - 0 1") for t in end.r.out)
    assert end.r.board.tracker.state == 1  # idle: the arrays stand, play begins
    play_line = end.r.send("moves")
    assert "b3b4" in play_line and "a2a4" in play_line and "b3b5" not in play_line  # B9


def test_screened_setup_conflict_sets_up_again(tmp_path):
    end = LocalEnd(tmp_path / "c.journal")
    end.request("battle both")
    clash = "rnbq1bnr/pppppppp/k7/8/8/R7/PPPPPPPP/1NBQKBNR"
    arrange(end, clash, WHITE)
    arrange(end, clash, BLACK)
    assert any("alert setup-conflict" in t for t in end.r.out)
    assert end.r.send("state").split()[3] == "arranging"


def test_kriegspiel_command_starts_from_the_screened_setup(tmp_path):
    import subprocess

    from firmware.rules import battle
    from host.record.archive import Archive
    from host.session.army import random_array
    from test_cli import EBOARD

    db = tmp_path / "k.sqlite"
    r = subprocess.run([EBOARD, "kriegspiel", "--sim", "--seed", "5", "--archive", str(db)], input="resign\n",
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "[white] Your army stands." in r.stdout and "[black] White resigns." in r.stdout
    game = Archive(db).games()[-1]
    assert game.fen == battle.start_fen(random_array(WHITE, 5), random_array(BLACK, 6))
    assert game.result == "0-1" and game.event == "Kriegspiel"


# ---- the leak scenarios of kriegspiel.md §10.4 not in the JSON file --------------------------


def other_board_bytes(tmp_path, name, fen, mover_steps):
    """What the non-moving player's board sent and lit while the mover did its steps."""
    m, ends = new_match(tmp_path, fen, name)
    mover = ends[m.ump.pos.us]
    other = ends[OTHER[m.ump.pos.us]]
    play(m, mover, *mover_steps)
    other.hand("wait 100", "wait 3100")
    return other.r.out, other.frames, m


def test_L17_the_promotion_piece_is_never_told(tmp_path):
    fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
    seen = set()
    for piece in ("q", "r"):  # both check along the rank; a knight would be a dead draw
        m, ends = new_match(tmp_path, fen, piece, set_up=False)
        m.attempt(WHITE, "a7a8" + piece)
        seen.add((ends[BLACK].r.board.pos.fen(), json.dumps(m.ump.told[1]), tuple(ends[BLACK].r.out[2:])))
    assert len(seen) == 1


def test_L16_check_lights_depend_on_the_class_only(tmp_path):
    # A rook check from a8 or from h8 along the 8th rank: Black's board lights the same.
    a = other_board_bytes(tmp_path, "a", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", ["lift a1", "place a8"])
    b = other_board_bytes(tmp_path, "h", "4k3/8/8/8/8/8/8/4K2R w - - 0 1", ["lift h1", "place h8"])
    assert a[2].ump.told[1][-1]["direction"] == "rank"
    assert a[1][2:] == b[1][2:]  # every frame after the start (the start shows each own army)


def test_L14_the_answer_is_yes_or_no_and_heard_only_when_asked(tmp_path):
    # One white pawn capture or two: the same words and lights for both players.
    outs = set()
    for fen in ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "4k3/8/8/3p1p2/4P3/8/8/4K3 w - - 0 1"):
        m, ends = new_match(tmp_path, fen, fen[9:12].replace("/", ""), set_up=False)
        assert not any("answer" in t for t in ends[WHITE].r.out)  # nothing unless asked
        m.ask(WHITE)
        outs.add((json.dumps(m.ump.told[0]), tuple(_no_identities(ends[WHITE].r.out[1:])), ends[WHITE].leds()))
    assert len(outs) == 1


def test_L19_L20_nothing_is_archived_or_released_before_the_end(tmp_path):
    from host.record.archive import Archive

    m = other_board_bytes(tmp_path, "r", START, ["lift e2", "place e4"])[2]
    with pytest.raises(ValueError):
        m.record()
    assert Archive(tmp_path / "a.sqlite").games() == []


def test_kriegspiel_command_plays_lippo(tmp_path):
    import subprocess

    from test_cli import EBOARD

    r = subprocess.run([EBOARD, "kriegspiel", "--sim", "--game", "lippo", "--archive", str(tmp_path / "k.sqlite")],
                       input="c3c5\nc10c8\nc5c6\nask\nresign\n", capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert not any("Refused by your board" in line for line in lines)
    assert lines.count("[black] White has moved.") == 2 and "[black] Can I capture?" in lines


def test_play_starts_battle_chess_from_a_screened_setup(tmp_path):
    import subprocess

    from firmware.rules import battle
    from host.record.archive import Archive
    from host.session.army import random_array
    from test_cli import EBOARD

    db = tmp_path / "p.sqlite"
    r = subprocess.run([EBOARD, "play", "--sim", "--battle", "--seed", "0", "--archive", str(db)], input="quit\n",
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "White's army stands" in r.stdout and "play may begin" in r.stdout
    game = Archive(db).games()[-1]
    assert game.fen == battle.start_fen(random_array(WHITE, 0), random_array(BLACK, 1))


def test_L21_every_answer_waits_the_same_time(tmp_path, monkeypatch):
    # The umpire's work takes longer for some attempts than others (here: a legal move
    # 40 ms, an illegal one 5 ms); the verdict still goes out at the same moment.
    import time

    clock = [0.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(time, "sleep", lambda s: clock.__setitem__(0, clock[0] + s))
    m, ends = new_match(tmp_path, "4k3/8/8/8/p7/8/8/R3K3 w - - 0 1", set_up=False, min_delay_s=0.3)
    judge = m.ump.attempt
    sent = []

    def slow(text):
        out = judge(text)
        clock[0] += 0.040 if out[0]["type"] == "moved" else 0.005
        return out

    m.ump.attempt = slow
    for end in ends.values():  # the first thing either board hears, and when
        end.request = (lambda request: lambda line: sent.append(clock[0]) or request(line))(end.request)
    for attempt in ("a1a6", "a1a3"):  # blocked by the hidden pawn, then legal
        start = clock[0]
        m.attempt(WHITE, attempt)
        assert round(sent[0] - start, 6) == 0.3, attempt
        sent.clear()


def test_L19_a_board_keeps_only_its_owners_view(match):
    m, ends, _ = match()
    w, b = ends[WHITE], ends[BLACK]
    play(m, w, "lift e2", "place e4")
    play(m, b, "lift e7", "place e5")
    play(m, w, "lift g1", "place f3")
    for end, foreign in ((w, str.islower), (b, str.isupper)):
        for rec in end.r.board.journal.load():
            if rec[0] in "KV":
                board = rec.split()[5 if rec[0] == "K" else 2]
                assert not any(foreign(ch) for ch in board), rec


def test_a_players_board_refuses_what_only_the_umpire_decides(match):
    m, ends, _ = match()
    w = ends[WHITE]
    for line, word in (("undo", "kriegspiel"), ("position 4k3/8/8/8/8/8/8/4K3 w - - 0 1", "kriegspiel"),
                       ("claim declare", "bad-claim"), ("krieg chess green 4K3/8/8/8/8/8/8/8 w - - 0 1", "bad-args"),
                       ("krieg chess white 4k3/8/8/8/8/8/8/4K3 w - - 0 1", "bad-fen"),
                       ("krieg chess white 4k3/8/8/8/8/8/8/8 w - - 0 1", "bad-fen"),
                       ("krieg hundred white 4K5/10/10/10/10/10/10/10/10/10 w - - 0 1", "unknown-game"),
                       ("verdict maybe", "bad-args"), ("verdict rejected", "bad-args")):
        before = w.r.send("state")
        assert w.r.send(line).startswith("error " + word), line
        assert w.r.send("state") == before


def test_kriegspiel_command_plays_courier_after_its_opening(tmp_path):
    import subprocess

    from test_cli import EBOARD

    r = subprocess.run([EBOARD, "kriegspiel", "--sim", "--game", "courier", "--archive", str(tmp_path / "k.sqlite")],
                       input="c1e3\nresign\n", capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "[white] The traditional opening is played." in lines and "[black] White has moved." in lines


def test_every_announcement_has_its_own_lights(match):
    # On the checking side's board (no king lines), each message's margin pattern differs.
    m, ends, _ = match()
    w = ends[WHITE]
    seen = {}
    lines = ["announce impossible", "announce answer yes", "announce answer no", "announce end white",
             "announce end draw", "announce capture d5", "announce promotion e8"]
    lines += ["announce check white " + d for d in ("rank", "file", "long_diagonal", "short_diagonal",
                                                    "diagonal", "knight", "leap-1-4")]
    for line in lines:
        end = LocalEnd(w.r.hw.journal_path + line.replace(" ", "_"))
        end.request("krieg chess white 8/8/8/8/8/8/8/4K3 b - - 0 1")
        end.hand("setup", "wait 100")
        end.request(line)
        seen.setdefault(bytes(end.r.board.frame), []).append(line)  # margin squares have no names
    same = [v for v in seen.values() if len(v) > 1]
    # knight and other leaps share one pattern: the class itself is in the view's words
    assert same == [["announce check white knight", "announce check white leap-1-4"]], same
