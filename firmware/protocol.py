"""The serial protocol: one request line from the host -> one reply (docs/protocol.md).

The one door for requests: the loop (main.py) hands every line to handle(), which parses
it, calls the board (app.Board) and has the board send the reply.  Every line the board
sends starts with its sequence number.  A reply is "ok <command> ..." or "error <word>
<detail>"; a malformed or unknown line gets an error and changes nothing, and no line
ever stops the loop.
"""

from firmware import drop_module
from firmware.terms import DETAIL, MAX_LINE, Refused, check_args as _args, fen_of, whole

REPL_IDLE = 60  # seconds an idle REPL waits before the board goes back to play


def _words(line):
    if len(line) > MAX_LINE:
        raise Refused("too-long", "a line has at most %d bytes" % MAX_LINE)
    for b in line:
        if b < 32 or b > 126:
            raise Refused("bad-bytes", "printable ASCII only")
    return line.decode().split()


def handle(board, line, now_ms):
    """One request line (bytes, no newline): carried out, and exactly one reply sent
    (after any events it causes)."""
    if board.after_due:  # the rest of a move made on the board first (Board.settle)
        board.settle(now_ms)
    log = board.logbook
    due = log.checkpoint_due
    board.answer(reply_to(board, line, now_ms), now_ms)
    if log.checkpoint_due and not due and not board.after_due:
        # A checkpoint this request made due (the host's move): after its reply, its
        # LEDs lit.  One due before waits for an idle second (Board.step): a host's next
        # line, its move, must not wait some 200 ms behind it.
        log.checkpoint()


def reply_to(board, line, now_ms):
    """bytes (no newline) -> the reply text."""
    try:
        words = _words(line)
        if not words:
            raise Refused("empty", "an empty line")
        cmd = words[0]
        fn = COMMANDS.get(cmd)
        if fn is None or (cmd == "sim" and not board.hw.is_sim):
            raise Refused("unknown-command", cmd[:24])
        if type(fn) is str:  # the module of c_<cmd>, loaded for it
            return _late(fn, "c_" + cmd, board, words[1:], now_ms)
        return fn(board, words[1:], now_ms)
    except Refused as e:  # (a detail may quote the request: cut, so the reply fits a line)
        return "error %s %s" % (e.args[0], e.args[1][:DETAIL] if len(e.args) > 1 else "")
    except MemoryError:
        return "error no-memory the request was too big"


def c_ping(board, w, now):
    _args(w, 0, 0, "ping")
    return "ok pong"


def c_mem(board, w, now):
    _args(w, 0, 0, "mem")
    live = board.collect()
    import gc

    free = gc.mem_free() if hasattr(gc, "mem_free") else 0
    return "ok mem %d %d %d" % (live, free, board.heap_peak)


def c_new(board, w, now):
    if not w:
        raise Refused("bad-args", "new GAME [FEN]")
    board.new_game(w[0], fen_of(w[1:]) or None, now)
    return "ok new " + w[0]


def c_state(board, w, now):
    _args(w, 0, 0, "state")
    return "ok state " + board.state_words()


def c_game(board, w, now):
    _args(w, 0, 0, "game")
    return "ok game " + board.game_words()


def c_moves(board, w, now):
    _args(w, 0, 0, "moves")
    pos = board.pos
    return board.long_reply("ok moves ", (pos.move_str(m) for m in pos.legal_moves()))


def c_move(board, w, now):
    _args(w, 1, 1, "move MOVE")
    return "ok move " + board.host_move(w[0], now)


def c_undo(board, w, now):
    _args(w, 0, 0, "undo")
    board.undo(now)
    return "ok undo"


def c_promote(board, w, now):
    _args(w, 1, 1, "promote LETTER (or - to stay a pawn)")
    if not board.tracker.choose(w[0], now):
        raise Refused("no-promotion", "no promotion with %s is waiting" % w[0])
    return "ok promote " + w[0]


def c_leds(board, w, now):
    _args(w, 0, 0, "leds")
    return "ok leds " + board.leds_text()


# Requests few boards hear load their module on first use: Kriegspiel (firmware/krieg.py)
# and the screened setup (firmware/arrange.py), a host playing one side
# (firmware/computer.py).  Those a host sends seldom, what it reads back when it comes
# (firmware/readback.py) and its changes to the game (firmware/host_edits.py), are
# forgotten after their reply.
DROPPED = ("readback", "host_edits")


def _late(where, name, board, w, now):
    # A request of COMMANDS given by its module's name (where), not by a function: a
    # closure a request (with its two cells) took some 60 B of stock MicroPython's heap.
    try:
        return getattr(__import__("firmware." + where, None, None, (name,)), name)(board, w, now)
    finally:
        if where in DROPPED:
            drop_module("firmware", where)


def c_repl(board, w, now):
    # The deliberate way to MicroPython's REPL (flash.sh, mpremote): the loop stops the
    # firmware once this reply is out.  It must carry this power-up's boot id (hello's
    # and `ok version`'s last word), which a stray line cannot: `repl` alone, or `repl`
    # spliced out of line noise, is refused in words and the board plays on.  An idle
    # REPL gives the board back by itself after <idle> seconds (REPL_IDLE by default).
    _args(w, 1, 2, "repl <boot id> [<idle s>]: the boot id is the last word of hello and of ok version")
    if w[0] != str(board.boot_id):
        raise Refused("bad-args", "repl %s: not this power-up's boot id (the last word of ok version)" % w[0][:12])
    board.repl = whole(w[1], 1, 3600, "the REPL's idle time (s)") if len(w) > 1 else REPL_IDLE
    return "ok repl %d" % board.repl


def c_sim(board, w, now):
    # The virtual board's own commands (boards/sim.py): no other board has them.
    return board.hw.request(board, w)


COMMANDS = {
    "ping": c_ping,
    "version": "readback",
    "mem": c_mem,
    "new": c_new,
    "position": "host_edits",
    "state": c_state,
    "game": c_game,
    "moves": c_moves,
    "history": "readback",
    "move": c_move,
    "undo": c_undo,
    "hint": "computer",
    "computer": "computer",
    "end": "computer",
    "promote": c_promote,
    "brightness": "host_edits",
    "since": "readback",
    "leds": c_leds,
    "claim": "host_edits",
    "battle": "arrange",
    "guide": "arrange",
    "krieg": "krieg",
    "view": "krieg",
    "verdict": "krieg",
    "announce": "krieg",
    "selftest": "selftest",  # the bring-up self-test, loaded on first use
    "repl": c_repl,
    "sim": c_sim,
}
