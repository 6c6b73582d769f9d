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
ROOMS = ["link", "record", "engine", "web", "apps", "session", "online", "commands"]


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


def imported_from(package: str, node: ast.ImportFrom) -> str:
    """The module a `from ... import` in `package` names, a relative one made absolute."""
    base = node.module or ""
    if node.level:
        up = package.split(".")
        up = up[: len(up) - (node.level - 1)]
        base = ".".join(up + ([base] if base else []))
    return base


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project's modules that module `name` imports, anywhere in its code."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = imported_from(package, node)
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


# ---- no private name crosses a room ------------------------------------------------------
# A room: each of the host's subpackages, the rules core (firmware/rules), the rest of the
# firmware, boards/.  A name with a leading underscore is its room's own business: another
# room asks for what it needs by a public name (the engine, the core's search_hooks).
# tests/ and bench/ are no rooms: they may look inside.
# Known crossings in files that other work of issue #33 is rewriting, each to go with it:
CROSSINGS_LEFT: set[str] = set()  # private names that still cross a room, each with its fix


def room_of(name: str) -> str | None:
    parts = name.split(".")
    if parts[0] == "host":
        return "host." + parts[1] if len(parts) > 1 else None
    if parts[0] == "firmware":
        return "firmware.rules" if len(parts) > 1 and parts[1] == "rules" else "firmware"
    return "boards" if parts[0] == "boards" else None


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def owned_names(tree: ast.Module) -> set[str]:
    """The private names a module defines for others to reach as an attribute: its top
    level's, its classes' members, and what its methods store on self or cls."""
    out: set[str] = set()
    bodies = [tree.body] + [n.body for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    for body in bodies:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                out.update(t.id for t in targets if isinstance(t, ast.Name))
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                out.update(a.asname for a in node.names if a.asname)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            out.add(node.attr)
    return {n for n in out if private(n)}


def is_getattr(node: ast.AST) -> bool:
    """getattr(x, "_y"), hasattr, setattr or delattr with a private name written out."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
        and node.func.id in ("getattr", "hasattr", "setattr", "delattr") and len(node.args) >= 2 \
        and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str) and private(node.args[1].value)


def private_crossings(sources: dict[str, str]) -> list[str]:
    """`module: what` for each private name one room takes from another: `from M import
    _x` with M in another room, and `x._y` (or getattr(x, "_y")) where _y is defined by
    other rooms only.  (An object's class is not known here: a private name that the
    reading room defines too is taken for its own.)  sources: module -> its text, a
    package's module as `pkg.__init__`."""
    trees = {name: ast.parse(text, name) for name, text in sources.items()}
    owners: dict[str, set[str | None]] = {}
    for name, tree in trees.items():
        for n in owned_names(tree):
            owners.setdefault(n, set()).add(room_of(name))
    out = []
    for name, tree in trees.items():
        mine = room_of(name)
        if mine is None:
            continue
        package = name.rpartition(".")[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = imported_from(package, node)
                for a in node.names:
                    if private(a.name) and room_of(base) not in (mine, None):
                        out.append(f"{name.removesuffix('.__init__')}: from {base} import {a.name}")
            elif (isinstance(node, ast.Attribute) and private(node.attr)) or is_getattr(node):
                attr = node.attr if isinstance(node, ast.Attribute) else node.args[1].value  # type: ignore[attr-defined]
                rooms = owners.get(attr, set())
                if rooms and mine not in rooms:
                    out.append(f"{name.removesuffix('.__init__')}: {ast.unparse(node)}")
    return sorted(set(out))


def test_the_private_name_checker_sees_a_crossing():
    sources = {
        "firmware.rules.position": "class Position:\n    def _gen(self): pass\n_K = 19\n",
        "firmware.rules.games.lippo": "from ..position import _K\nclass L:\n    def f(self, pos): pos._gen()\n",
        "firmware.rules.games.__init__": "from ..position import _K\n",
        "boards.__init__": "from ..firmware.rules.position import _K\n",
        "host.engine.search": "from firmware.rules.position import _K\ndef f(pos): pos._gen()\n"
                              "class S:\n    def g(self): self._h = 1; return self._h\n",
        "host.web.hub": "def f(s): return s._h\n",
        "host.web.server": "def f(pos): return getattr(pos, '_gen', None)\n",
        "tests.test_x": "def f(pos): pos._gen()\n",
    }
    assert private_crossings(sources) == [
        "boards: from firmware.rules.position import _K",
        "host.engine.search: from firmware.rules.position import _K",
        "host.engine.search: pos._gen",
        "host.web.hub: s._h",
        "host.web.server: getattr(pos, '_gen', None)",
    ]


def test_no_private_name_crosses_a_room():
    sources = {}
    for top in ("firmware", "host", "boards"):
        for p in sorted((ROOT / top).rglob("*.py")):
            sources[".".join(p.relative_to(ROOT).with_suffix("").parts)] = p.read_text()
    found = private_crossings(sources)
    assert [c for c in found if c not in CROSSINGS_LEFT] == []
    assert sorted(CROSSINGS_LEFT - set(found)) == [], "gone: drop it from CROSSINGS_LEFT"


def test_the_search_hooks_stay_off_the_board():
    """firmware/rules/search_hooks.py is the host's search's: nothing of the firmware or
    boards/ imports it, so the Pico never loads it."""
    known = modules()
    for p in sorted((ROOT / "boards").rglob("*.py")):
        known[module_name(p)] = p
    users = sorted(n for n, p in known.items() if not n.startswith("host.")
                   and "firmware.rules.search_hooks" in imports(n, p, known))
    assert users == []
