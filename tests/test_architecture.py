"""The house (docs/architecture.md): no circle of imports in firmware/, boards/, host/ or
bench/, lazy imports included; the floors' arrows pointing down (FLOORS); the host's rooms
entered only through their doors, with arrows pointing down.

Every `import` and `from ... import` statement of every module is read with ast, at any
depth (a function's lazy import is an arrow too: the firmware loads code late to save heap,
never to hide a circle)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The floors of the house, lowest first: a module imports only from its own floor or the
# floors below it.  firmware <- boards (the hardware profiles and the composition root,
# boards/main.py) <- host (the virtual board, the emulated Pico) <- bench (measures all).
FLOORS = ["firmware", "boards", "host", "bench"]
# The host's rooms, lowest first: a room may import the rooms before it in this list.
ROOMS = ["link", "record", "engine", "web", "apps", "commands"]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    out = {}
    for top in FLOORS:
        for p in sorted((ROOT / top).rglob("*.py")):
            if "node_modules" not in p.parts:
                out[module_name(p)] = p
    return out


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project's modules that module `name` imports, anywhere in its code."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[: len(up) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            # `from pkg import sub` names the submodule; `from pkg import name` the package
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for t in targets:
            if name.startswith("bench.") and "bench." + t in known:
                t = "bench." + t  # a bench's sibling, imported from bench/ on sys.path
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def circles(g: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def test_the_checker_sees_a_circle_and_a_lazy_import():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    g = graph()
    assert "firmware.shown" in g["firmware.tracker"]  # a function's import counts
    assert "host.record" in g["host.web.server"]


def test_no_circle_of_imports_in_any_floor():
    assert circles(graph()) == []


def floor(name: str) -> str:
    return name.split(".")[0]


def test_the_checker_sees_every_floor():
    g = graph()
    assert {floor(n) for n in g} == set(FLOORS)
    assert "boards.sim" in g["host.web.diagram"]  # a function's import counts
    assert "bench.common" in g["bench.hint"]  # a sibling imported by its bare name


def test_arrows_point_down_between_the_floors():
    """firmware imports nothing of boards/, host/ or bench/ (the composition root, which
    board profile runs, is boards/main.py); boards/ imports only the firmware; host/ the
    firmware and boards/; bench/ any of them."""
    up = sorted(f"{n} -> {t}" for n, ts in graph().items() for t in ts
                if FLOORS.index(floor(t)) > FLOORS.index(floor(n)))
    assert up == []


def room(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if parts[0] == "host" and len(parts) > 1 else None


def test_the_host_is_in_its_rooms():
    top = {p.name for p in (ROOT / "host").iterdir() if p.name != "__pycache__"}
    assert top == {"__init__.py", *ROOMS}, "a module at host/'s top is in no room"


def test_rooms_are_entered_through_their_doors_and_arrows_point_down():
    wrong = []
    for name, targets in graph().items():
        mine = room(name)
        for t in targets:
            theirs = room(t)
            if t.startswith("firmware") and name.startswith("host"):
                continue  # the core is the floor every room stands on
            if mine is None or theirs is None or mine == theirs:
                continue
            elif t != f"host.{theirs}":
                wrong.append(f"{name} -> {t}: not through host.{theirs}'s door")
            elif ROOMS.index(theirs) > ROOMS.index(mine):
                wrong.append(f"{name} -> {t}: an arrow up, from {mine} to {theirs}")
    assert wrong == []


def test_the_rules_core_stands_alone():
    """firmware/rules is the bottom floor: it imports nothing else of the firmware."""
    up = sorted(f"{n} -> {t}" for n, ts in graph().items() if n.startswith("firmware.rules")
                for t in ts if not t.startswith("firmware.rules"))
    assert up == []
