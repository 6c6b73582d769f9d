# heapsize=1M (the 36 KB JSON file, parsed on a 64-bit port)
"""Every vector of lippo_vectors.json (and the checkers examples) under MicroPython."""

from fenutil import board_fen
from mpytest import check, load_json

from firmware.rules import new_position
from firmware.rules.position import EP, kind_of, is_capture

LETTER = {
    "P": "P", "Ad": "D", "G": "G", "A": "A", "Sch": "H", "M": "M", "K": "K", "Gr": "E",
    "O": "O", "Kn": "N", "T": "T", "Pl": "L", "F": "F", "U": "U", "S": "S",
    "m": "M", "k": "K",
}


def fen_of(board, side, letter_of):
    return board_fen(board, side, LETTER.__getitem__)


V = load_json("lippo_vectors.json")
n = 0
for vec in V["vectors"] + V["derived_vectors"]:
    colour = vec["colour"][0]
    board = {}
    if isinstance(vec.get("board"), dict):
        board.update(vec["board"])
    board[vec["from"]] = colour + vec["piece"]
    mode = vec["mode"]
    if mode == "capture_targets":
        for s in vec["expected"]:
            board[s] = ("b" if colour == "w" else "w") + "S"
    fen = fen_of(board, colour, LETTER)
    if mode == "en_passant":
        fen = fen.replace(" - - 0 1", " - k4 0 1")
    pos = new_position("lippo", fen)
    lay = pos.game.layout
    sq = lay.cell(vec["from"])
    ms = [m for m in pos.pseudo_moves() if pos.move_from(m) == sq]
    if mode == "moves_empty_board":
        got = sorted(set(lay.name(pos.move_to(m)) for m in ms))
        want = sorted(vec["expected"])
    elif mode == "capture_targets":
        got = sorted(lay.name(pos.move_to(m)) for m in ms if is_capture(m))
        want = sorted(vec["expected"])
    elif mode == "moves_on_board":
        got = sorted([lay.name(pos.move_to(m)), "capture" if is_capture(m) else "move"] for m in ms)
        want = sorted(vec["expected"])
    else:
        got = [lay.name(pos.move_to(m)) for m in ms if kind_of(m) == EP]
        want = vec["expected_captures"]
    check(got == want, vec["id"] + ": " + repr(got))
    n += 1

for vec in V["checkers"]["vectors"]:
    board = vec.get("board") or {vec["from"]: "wm"}
    side = "b" if vec.get("side_to_move") == "black" else "w"
    pos = new_position("checkers12", fen_of(board, side, LETTER))
    got = sorted(pos.move_str(m) for m in pos.legal_moves())
    if vec["mode"] == "no_moves":
        check(got == [], vec["id"])
    elif vec["mode"] == "capture_sequence":
        want = vec["expected_longest_sequence"]["path"]
        head = "".join(want[:-1])
        check(sorted(s for s in got if s.startswith(head)) == [head + e for e in sorted(want[-1].split("|"))], vec["id"])
    else:
        check([s[len(vec["from"]):] for s in got] == vec["expected"], vec["id"])
    n += 1
check(n == 45, "vector count %d" % n)
print("ok")
