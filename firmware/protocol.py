"""The serial protocol: one request line from the host -> one reply (docs/protocol.md).

The one door for requests: the loop (main.py) hands every line to handle(), which parses
it, calls the board (app.Board) and has the board send the reply.  Every line the board
sends starts with its sequence number.  A reply is "ok <command> ..." or "error <word>
<detail>"; a malformed or unknown line gets an error and changes nothing, and no line
ever stops the loop.
"""

from firmware.common import DETAIL, MAX_LINE, PROTOCOL, VERSION, Refused, check_args as _args, claim, fen_of, whole as _int


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
        board.settle(now_ms, whole=True)
    board.answer(reply_to(board, line, now_ms), now_ms)


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
        return fn(board, words[1:], now_ms)
    except Refused as e:  # (a detail may quote the request: cut, so the reply fits a line)
        return "error %s %s" % (e.args[0], e.args[1][:DETAIL] if len(e.args) > 1 else "")
    except MemoryError:
        return "error no-memory the request was too big"


def c_ping(board, w, now):
    _args(w, 0, 0, "ping")
    return "ok pong"


def c_version(board, w, now):
    _args(w, 0, 0, "version")
    return "ok version %d %s %s %s %d" % (PROTOCOL, VERSION, board.hw.name, board.hw.board_id(), board.boot_id)


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


def c_position(board, w, now):
    if not w:
        raise Refused("bad-args", "position FEN")
    board.set_position(fen_of(w), now)
    return "ok position"


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


def c_history(board, w, now):
    _args(w, 0, 0, "history")
    return board.long_reply("ok history ", board.played())


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


def c_brightness(board, w, now):
    _args(w, 0, 1, "brightness [0-255]")
    if w:
        board.brightness = _int(w[0], 0, 255, "brightness")
        board.shown[0] ^= 0xFF  # redraw at the new brightness
        board.tracker.dirty = True
    return "ok brightness %d" % board.brightness


def c_since(board, w, now):
    _args(w, 1, 1, "since SEQ")
    n = _int(w[0], 0, 1 << 30, "seq")
    return "ok since %d %d" % (n, board.since(n))


def c_leds(board, w, now):
    _args(w, 0, 0, "leds")
    return "ok leds " + board.leds_text()


def c_claim(board, w, now):
    _args(w, 1, 1, "claim perpetual|declare|demand")
    if board.game != "lippo" or board.krieg is not None:
        raise Refused("bad-claim", "claims are lippo's (sections 6, 14 and 15), made to the umpire in Kriegspiel")
    from firmware.rules import MoveError

    if w[0] not in ("perpetual", "declare", "demand"):
        raise Refused("bad-args", "claim perpetual|declare|demand")
    try:
        claim(board.pos, w[0])
    except MoveError as e:
        raise Refused("bad-claim", str(e))
    board.claimed(w[0], now)
    return "ok claim " + w[0]


def _mode(name, where="modes"):
    # Requests few boards hear load their module on first use: Kriegspiel and the screened
    # setup (firmware/modes.py), a host playing one side (firmware/computer.py).
    def handler(board, w, now):
        return getattr(__import__("firmware." + where, None, None, (name,)), name)(board, w, now)

    return handler


def c_repl(board, w, now):
    # The deliberate way to MicroPython's REPL (flash.sh, mpremote): the loop stops the
    # firmware once this reply is out.  Ctrl-C alone never does, while the board plays.
    _args(w, 0, 0, "repl")
    board.repl = True
    return "ok repl"


def c_selftest(board, w, now):
    # The bring-up self-test: firmware/selftest.py, loaded on first use.
    from firmware import selftest

    return selftest.c_selftest(board, w, now)


def c_sim(board, w, now):
    # The virtual board's own commands: a finger on the sensors, and its clock.
    if not w:
        raise Refused("bad-args", "sim lift|place SQ, sim wait MS, sim setup, sim occupancy, sim cut BYTES, sim fault ..., sim seen")
    hw = board.hw
    if w[0] in ("lift", "place"):
        _args(w, 2, 2, "sim %s SQ" % w[0])
        p = hw.square(w[1], board.tracker.geo, w[0] == "lift")
        if p is None:
            raise Refused("bad-square", "%s: no %s there" % (w[1], "piece" if w[0] == "lift" else "room"))
        if p >= 0:  # -1: off the board, out of the sensors' reach
            hw.matrix.set(p, w[0] == "place")
        return "ok sim %s %s" % (w[0], w[1])
    if w[0] == "wait":
        _args(w, 2, 2, "sim wait MS")
        ms = _int(w[1], 0, 3600000, "ms")
        hw.run_for(board, ms)
        return "ok sim wait %d" % ms
    if w[0] == "setup":
        _args(w, 1, 1, "sim setup")
        hw.matrix.show_position(board.pos, board.tracker.geo)
        return "ok sim setup"
    if w[0] == "cut":
        _args(w, 2, 2, "sim cut BYTES")
        board.journal.cut_after = _int(w[1], 0, 1000, "bytes")
        return "ok sim cut %s" % w[1]
    if w[0] in ("fault", "seen"):  # the self-test's faults, planted (boards/sim.py)
        try:
            return "ok sim " + hw.sim_request(w)
        except ValueError as e:
            raise Refused("bad-args", str(e))
    if w[0] == "occupancy":
        _args(w, 1, 1, "sim occupancy")
        return "ok sim occupancy " + "".join("1" if b else "0" for b in hw.matrix.occ)
    raise Refused("bad-args", "sim lift|place SQ, sim wait MS, sim setup, sim occupancy, sim cut BYTES, sim fault ..., sim seen")


COMMANDS = {
    "ping": c_ping,
    "version": c_version,
    "mem": c_mem,
    "new": c_new,
    "position": c_position,
    "state": c_state,
    "game": c_game,
    "moves": c_moves,
    "history": c_history,
    "move": c_move,
    "undo": c_undo,
    "hint": _mode("c_hint", "computer"),
    "computer": _mode("c_computer", "computer"),
    "end": _mode("c_end", "computer"),
    "promote": c_promote,
    "brightness": c_brightness,
    "since": c_since,
    "leds": c_leds,
    "claim": c_claim,
    "battle": _mode("c_battle"),
    "krieg": _mode("c_krieg"),
    "view": _mode("c_view"),
    "verdict": _mode("c_verdict"),
    "announce": _mode("c_announce"),
    "selftest": c_selftest,
    "repl": c_repl,
    "sim": c_sim,
}
