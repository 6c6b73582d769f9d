"""Bad protocol lines, made by a seeded generator (the same on CPython and MicroPython)."""

CMDS = ("new", "move", "promote", "position", "since", "brightness", "claim", "undo", "sim",
        "state", "ping", "game", "moves", "history", "leds", "version",
        "battle", "krieg", "view", "verdict", "announce")
BAD_FIXED = (
    b"brightness 256", b"brightness -1", b"brightness x", b"since -5", b"since 1e9", b"since",
    b"move", b"move z9z9", b"move e2e9", b"move e2e5", b"move e2e4e7e5", b"promote",
    b"promote q", b"promote zz", b"new", b"new shogi", b"new chess 8/8 w", b"new chess x y z",
    b"position", b"position garbage", b"position 8/8/8/8/8/8/8/8 w - - 0 1",
    b"claim", b"claim nothing", b"claim declared", b"undo now", b"sim", b"sim lift",
    b"sim lift q99", b"sim lift e5", b"sim place e4", b"sim wait", b"sim wait -3",
    b"sim wait 99999999", b"sim cut", b"sim cut x", b"sim frobnicate",
    b"ping pong", b"state now", b"version 2", b"leds all", b"history 3", b"game on",
    b"battle", b"battle purple", b"battle white black", b"krieg", b"krieg chess", b"krieg chess white 8/8",
    b"krieg chess green 4K3/8/8/8/8/8/8/8 w - - 0 1", b"krieg chess white 4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    b"krieg shogi white 4K3/8/8/8/8/8/8/8 w - - 0 1", b"view", b"view 8/8", b"verdict", b"verdict legal",
    b"verdict maybe", b"verdict impossible", b"announce", b"announce capture d5", b"announce check white file",
)

TRUNCATABLE = (
    b"brightness 256", b"brightness -1", b"since -5", b"since 1e9", b"sim wait x99",
    b"sim lift q99", b"promote zz", b"claim nothing", b"position garbage", b"sim frobnicate",
    b"verdict maybe", b"announce nothing", b"krieg shogi white x",
)


class Rand:
    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x3FFFFFFF
        return (self.x >> 8) % n


def random_fens(gid, n, rng):
    """n FENs from random games of the game (each game 10-60 plies from its start, none
    over): bench/hint.py's positions, tests/mpy/test_native_rules.py's."""
    from firmware.rules import new_position

    out = []
    while len(out) < n:
        pos = new_position(gid)
        for _ in range(10 + rng.below(50)):
            ms = pos.legal_moves()
            if not ms:
                break
            pos.push(ms[rng.below(len(ms))])
        if pos.legal_moves():
            out.append(pos.fen())
    return out


def lasting_move(pos, ms, rng):
    """A random move of ms that does not end the game, where there is one: long games."""
    m = ms[rng.below(len(ms))]
    for _ in range(20):
        pos.push(m)
        over = pos.outcome() is not None
        pos.pop()
        if not over:
            return m
        m = ms[rng.below(len(ms))]
    return m


def bad_line(rng):
    """One line the board must refuse (bytes, no newline)."""
    kind = rng.below(7)
    if kind == 0:  # random bytes (never 3, Ctrl-C, nor a line end)
        out = bytearray()
        for _ in range(1 + rng.below(300)):
            b = rng.below(256)
            if b in (3, 10, 13):
                b = 0
            out.append(b)
        if not out.strip() or out.split()[0] in [c.encode() for c in CMDS]:
            out[0] = 0xFF
        return bytes(out)
    if kind == 1:  # too long
        return b"ping " + b"x" * (520 + rng.below(400))
    if kind == 2:  # a command with bytes that are not printable ASCII
        cmd = CMDS[rng.below(len(CMDS))].encode()
        return cmd + b" " + bytes([0x80 + rng.below(128), 0xC3, 0x28])
    if kind == 3:  # no such command
        word = bytearray()
        for _ in range(1 + rng.below(12)):
            word.append(97 + rng.below(26))
        if bytes(word).decode() in CMDS:
            word.append(122)
        return bytes(word) + b" " + str(rng.below(100)).encode()
    if kind == 4:  # a known command, cut short (only those no cut turns into a move)
        fixed = TRUNCATABLE[rng.below(len(TRUNCATABLE))]
        return fixed[: max(1, rng.below(len(fixed) + 1))]
    if kind == 5:  # empty or blank
        return b" " * rng.below(4)
    return BAD_FIXED[rng.below(len(BAD_FIXED))]


# A line of the generator may come out valid (a cut-short "brightness 25" is a fine
# request): these are the requests that may be answered "ok" without changing the game.
HARMLESS = (b"ping", b"version", b"state", b"game", b"moves", b"history", b"leds", b"brightness", b"since")


def harmless(line):
    words = line.split()
    if not words:
        return False
    if words[0] == b"sim":
        return len(words) > 1 and words[1] in (b"wait", b"occupancy")
    return words[0] in HARMLESS
