"""The terms the board and its host agree on (docs/protocol.md): the protocol's version
and limits, the refusal of a request and the checks of its words, a game's identity (its
uid), the claims and the host's ends as the journal writes them.

Imported by the firmware's modules above the rules core, and by the host (HOST_ENDS); it
imports only the rules core (lazily: a claim's and an end's).
"""

import os
from binascii import hexlify

VERSION = "0.1.0"
PROTOCOL = 3
MAX_LINE = 512  # bytes in a line, at most, either way (docs/protocol.md, Framing)
DETAIL = 200  # bytes of an error's detail, at most (it may quote the request)
MAX_FEN = 320  # bytes in a FEN the board takes: above the longest a game writes (grosschess's, some 300)
DEFAULT_GAME = "chess"  # the game of a board with no usable journal


class Refused(Exception):
    """A request the board will not carry out: (error word, detail)."""


def check_args(words, lo, hi, usage):
    if not lo <= len(words) <= hi:
        raise Refused("bad-args", usage)


def fen_of(words):
    """A request's FEN words -> the FEN; Refused("bad-fen") past MAX_FEN bytes, so that every
    line that carries it (newgame, position, state, game) stays under MAX_LINE."""
    fen = " ".join(words)
    if len(fen) > MAX_FEN:
        raise Refused("bad-fen", "a FEN has at most %d bytes" % MAX_FEN)
    return fen


def whole(word, lo, hi, what):
    """word -> an int in [lo, hi]; Refused("bad-args") otherwise."""
    try:
        v = int(word)
    except ValueError:
        raise Refused("bad-args", "%s must be a whole number" % what)
    if not lo <= v <= hi:
        raise Refused("bad-args", "%s must be %d to %d" % (what, lo, hi))
    return v


def new_uid(urandom=os.urandom):
    """A game's identity: 8 lowercase hex digits, random."""
    return hexlify(urandom(4)).decode()


def is_uid(word):
    if len(word) != 8:
        return False
    for c in word:
        if c not in "0123456789abcdef":
            return False
    return True


def claim(pos, what):
    """Carry out a lippo claim (protocol `claim`, journal record C); MoveError if refused."""
    from firmware.rules import MoveError
    from firmware.rules.board import WHITE, BLACK

    if what == "perpetual":
        pos.claim_perpetual()
    elif what == "declare":
        pos.declare_end()
    elif what == "demand":
        # §6: the side to move demands it of the side that just moved illegally
        pos.demand_president_move(pos.us ^ (WHITE | BLACK))
    else:
        raise MoveError("no claim %r" % what)


HOST_ENDS = ("time",)  # the host's own end (its clock's flag): trusted only when this host asked
# The players' ends, which no position says again: a resignation, a draw agreed (typed at the
# host, or the board's result gesture, firmware/gesture.py) and a draw claimed by a rule
# that ends nothing by itself (the core's outcome(claim=True): threefold repetition, the
# 50-move rule; chess-t1's 40 moves).  Journaled as `E` records, like the host's.
CLAIM_ENDS = ("threefold-repetition", "fifty-moves", "forty-moves")  # the core's outcome(claim=True)
PLAYER_ENDS = ("resign", "agreement") + CLAIM_ENDS
KEPT_ENDS = HOST_ENDS + PLAYER_ENDS  # the ends a takeback does not undo


def host_end(text):
    """An `end` record's "reason result" -> the Outcome the host declared, or None for
    the rules' own ends (the position says those again)."""
    words = text.split(" ")
    if words[0] not in KEPT_ENDS or len(words) < 2:
        return None
    from firmware.rules.position import Outcome
    from firmware.rules.board import WHITE, BLACK

    return Outcome(words[0], WHITE if words[1] == "1-0" else BLACK if words[1] == "0-1" else None)
