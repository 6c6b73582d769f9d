# heapsize=1M (the 48 KB JSON file, parsed on a 64-bit port)
"""Every referee case of kriegspiel_cases.json, and the hint leak cases, under MicroPython:
the umpire and the own view are firmware code."""

from mpytest import check, load_json

from firmware.rules import new_position
from firmware.rules.board import WHITE, BLACK
from firmware.rules.kriegspiel import Umpire, new_view, view_fen

D = load_json("kriegspiel_cases.json")
n = 0
for case in D["cases"]:
    ump = Umpire(new_position("chess", case["fen"]))
    out = []
    for a in case["attempts"]:
        out += ump.ask() if a == "ask" else ump.attempt(a)
    check(out == case["expected"], case["id"] + " " + repr(out))
    n += 1
for case in D["leak_cases"]:
    if case["kind"] != "move_hints":
        continue
    side = WHITE if case["viewer"] == "white" else BLACK
    view = new_view("chess", view_fen(new_position("chess", case["fen"]), side))
    frm = case["piece_square"]
    hints = sorted(s for s in (view.move_str(m) for m in view.legal_moves()) if frm is None or s.startswith(frm))
    check(hints == sorted(case["hints_must_equal"]), case["id"] + " " + repr(hints))
    n += 1
print(n, "cases ok")
