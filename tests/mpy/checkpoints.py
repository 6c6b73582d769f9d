"""Checkpoints in the journal (issue #23): a board powered up on a journal with checkpoints
(X records) must hold the very state that a replay of every move from the game's start
builds, and go on the same (takebacks across the checkpoint, repetitions, the game's end).
Shared by tests/test_checkpoint.py (CPython) and tests/mpy/test_checkpoint.py (the unix port).
"""

from fuzzgen import Rand

from boards import sim
from firmware import protocol
from firmware.app import Board
from firmware.journal import Journal
from firmware.tracker import pos_last


def boot(path):
    out = []
    b = Board(sim.Hardware(journal_path=path), out.append)
    b.boot(0)
    return b, out


def snapshot(b):
    """Everything of the board's game that a power-up rebuilds, as comparable text."""
    pos = b.pos
    # (hundred's _parsed: set_fen's scratch for the FEN's extra fields, read by nothing after;
    # _end: Lippo's and chess-T1's memo of the game's end, 0 until asked, which the moves a
    # checkpoint unmakes and makes again forget: the same end is found when next asked)
    fields = sorted((k, repr(v)) for k, v in pos.__dict__.items() if k not in ("game", "_parsed", "_end"))
    return repr((b.game, b.uid, b.start_fen, b.ply, b._fresh, repr(b.ended), pos.fen(), fields))


def copy(src, dst, keep_checkpoints):
    recs = Journal(src).load()
    if not keep_checkpoints:
        recs = [r for r in recs if r[0] != "X"]
    Journal(dst).rewrite(recs)
    return sum(1 for r in recs if r[0] == "X")


def pick(pos, rng):
    """A random legal move that does not end the game where there is one; a quarter of
    the time the last move of the side to move made backwards, if legal (repetitions)."""
    ms = pos.legal_moves()
    if not ms:
        return None
    if len(pos.stack) >= 2 and rng.below(4) == 0:
        back = pos.stack[-2][0]
        for m in ms:
            if m & 511 == back >> 9 & 511 and m >> 9 & 511 == back & 511:
                return m
    for _ in range(10):
        m = ms[rng.below(len(ms))]
        pos.push(m)
        over = pos.outcome() is not None
        pos.pop()
        if not over:
            return m
    return m


def step(b, rng):
    """One host step on board b: a move (or, one time in 8, a takeback); returns the
    request sent, or None when the game is over."""
    if b.tracker.ended is not None or b.pos.outcome() is not None:
        return None
    if rng.below(8) == 0 and pos_last(b.pos) is not None:
        line = "undo"
    else:
        m = pick(b.pos, rng)
        if m is None:
            return None
        line = "move " + b.pos.move_str(m)
    protocol.handle(b, line.encode(), 0)
    return line


def compare(gid, seed, plies, tmp, every=10, after=12):
    """Plays a random game of gid with takebacks; every `every` plies past the first
    checkpoint, powers up two boards, one on the journal as written and one on it without
    its checkpoints, and checks that they agree, then and for `after` more steps (the same
    moves and takebacks on both, a takeback of every move the stack holds included).
    Returns (checkpoints used, comparisons made, problems)."""
    path = tmp + "/cp-" + gid + ".journal"
    b, _ = boot(path)
    protocol.handle(b, ("new " + gid).encode(), 0)
    rng = Rand(seed)
    used = compared = 0
    problems = []
    for ply in range(plies):
        if step(b, rng) is None:
            break
        if ply < 50 or ply % every:
            continue
        with_x, without = tmp + "/cp-x.journal", tmp + "/cp-full.journal"
        n_x = copy(path, with_x, True)
        copy(path, without, False)
        bx, _ = boot(with_x)
        bf, _ = boot(without)
        used += n_x > 0 and bx.logbook.checkpoint_ply > 0
        compared += 1
        if snapshot(bx) != snapshot(bf):
            problems.append("%s ply %d: resumed %s, replayed %s" % (gid, ply, snapshot(bx), snapshot(bf)))
            break
        # every move the rules' stack holds taken back (across the checkpoint), one more
        # (refused by both), then more moves
        steps = ["undo"] * (len(bf.pos.stack) + 1) + [None] * after
        r2 = Rand(seed + ply)
        for i, line in enumerate(steps):
            if line is not None:
                protocol.handle(bx, b"undo", 0)
                protocol.handle(bf, b"undo", 0)
            else:
                r3 = Rand(r2.x)
                if step(bf, r2) is None:
                    break
                step(bx, r3)
            if snapshot(bx) != snapshot(bf):
                problems.append("%s ply %d, step %d after the power-up: %s vs %s" % (gid, ply, i, snapshot(bx), snapshot(bf)))
                break
        if problems:
            break
    return used, compared, problems
