"""The layers of the code (docs/architecture.md), checked on every import the code holds.

Every ``import`` of ``mbrules/`` and ``cli/`` is read from the source (AST), the ones inside
functions included: a function-level import is still a dependency, only a later one. Imports
under ``if TYPE_CHECKING:`` never run and are left out. The code is cut into units (a package
folder such as ``mbrules/engine/``, or a top-level module such as ``mbrules/vocab.py``), each
with a layer; a unit may import its own layer or a lower one, never a higher one, and no two
modules, and no two units, may import each other round a circle.

Run ``python tests/test_layering.py [ROOT]`` to print the graph of units and its edges, and
``python tests/test_layering.py --doc`` to write the layers into docs/architecture.md, whose block
between the ``layers:`` markers must be what :func:`layers_text` makes of :data:`LAYERS` (a test).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Layers, lowest first (issue 23): vocabulary -> rules and engine -> scenario, bots, narration
# -> running matches -> the tools built on them -> the command, the terminal seat and the browser tables (mbrules.web).
LAYERS: dict[str, int] = {
    "mbrules.vocab": 0,
    "mbrules._paths": 0,
    "mbrules.text": 0,
    "mbrules._startup": 0,
    "mbrules._version": 0,
    "mbrules._compiled": 1,  # the compiled engine's build and finder (issue 44), beside the engine it builds
    "mbrules.safe_output": 0,
    "mbrules.ruleset": 1,
    "mbrules.engine": 1,
    "mbrules": 1,
    "mbrules.seats": 1,
    "mbrules.seat_kinds": 1,  # the seats the match loop (mbrules.seats) asks, a module the compiled build leaves Python
    "mbrules.scenario": 2,
    "mbrules.bots": 2,
    "mbrules.narrate": 2,
    "mbrules.matches": 3,
    "mbrules.compare": 4,
    "mbrules.sweep": 4,
    "mbrules.env": 4,
    "mbrules.openspiel": 4,  # the contract's name of mbrules.env.openspiel
    "mbrules.testing": 4,
    "mbrules.cli": 5,
    "mbrules.tui": 5,
    "mbrules.web": 5,
}
LAYER_NAMES = (
    "vocabulary, paths, start-up, whole-file output",
    "rules and engine",
    "scenario, bots, narration",
    "running matches",
    "compare, sweep, env, openspiel, testing",
    "cli, tui, web",
)


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the package by its import name; ``cli/`` is ``mbrules.cli``."""
    found: dict[str, Path] = {}
    for base, prefix in ((root / "mbrules", ("mbrules",)), (root / "cli", ("mbrules", "cli"))):
        for path in sorted(base.rglob("*.py")):
            rel = path.relative_to(base).with_suffix("").parts
            if "__pycache__" in rel:
                continue
            if base.name == "mbrules" and rel[:1] == ("cli",):
                continue  # the checkout's shim for cli/ (mbrules._paths), not a module of its own
            parts = prefix + (rel[:-1] if rel[-1] == "__init__" else rel)
            found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


# the fields that hold statements: an import is a statement, so the walk goes down these only, never into an
# expression (a tenth of the whole tree's walk: 0.53 -> 0.05 CPU-s over the package, issue 46 point 7)
_STATEMENT_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")


def _imports(tree: ast.AST):
    """Every import node, at any depth, but those under ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
            continue
        for field in _STATEMENT_FIELDS:
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                stack.extend(inner)


def edges(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the package modules it imports (``from X import Y`` counts X.Y when Y is a module)."""
    mods = modules(root)
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        is_pkg = path.name == "__init__.py"
        here = name.split(".") if is_pkg else name.split(".")[:-1]
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    base = here[: len(here) - node.level + 1]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in mods else mod for a in node.names]
            for t in targets:
                while t and t not in mods:  # import a.b.c of a name inside a.b: the module a.b
                    t = t.rpartition(".")[0]
                if t and t != name:
                    graph[name].add(t)
    return graph


def unit_of(module: str) -> str:
    """The unit a module belongs to: the longest prefix that has a layer (``mbrules.engine.state`` ->
    ``mbrules.engine``); a top-level module with none is its own unit (and fails the layer test)."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        prefix = ".".join(parts[:n])
        if prefix in LAYERS and (n > 1 or len(parts) == 1):
            return prefix
    return ".".join(parts[:2])


def unit_edges(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    units: dict[str, set[str]] = {}
    for m, targets in graph.items():
        u = unit_of(m)
        units.setdefault(u, set())
        for t in targets:
            if unit_of(t) != u:
                units[u].add(unit_of(t))
    return units


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        work = [(v, iter(sorted(graph.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        part.append(w)
                        if w == node:
                            break
                    if len(part) > 1:
                        found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Each import of a higher layer, as one line (units with no layer: test_every_module_has_a_layer)."""
    bad = []
    for m in sorted(graph):
        u = unit_of(m)
        for t in sorted(graph[m]):
            v = unit_of(t)
            if u == v or u not in LAYERS or v not in LAYERS:
                continue
            if LAYERS[v] > LAYERS[u]:
                bad.append(f"{m} -> {t}: {LAYER_NAMES[LAYERS[u]]} imports {LAYER_NAMES[LAYERS[v]]}")
    return bad


# -- the tests ------------------------------------------------------------------------------
def test_the_walk_sees_function_level_imports_and_skips_type_checking_ones(tmp_path):
    pkg = tmp_path / "mbrules"
    (pkg / "engine").mkdir(parents=True)
    (tmp_path / "cli").mkdir()
    (pkg / "__init__.py").write_text("from .engine import state\n")
    (pkg / "vocab.py").write_text("")
    (pkg / "engine" / "__init__.py").write_text("")
    (pkg / "engine" / "state.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from mbrules.cli import app\n"
        "def f():\n    from ..vocab import X\n    from mbrules.cli.app import main\n"
        # an import in a class, a handler, a with, a case, an else and a finally: the walk's statement fields
        "class C:\n    def g(self, v):\n        try:\n            pass\n        except ImportError:\n"
        "            from mbrules import words\n        else:\n            import mbrules.rooms\n"
        "        finally:\n            import mbrules.sides\n        with open(v):\n            import mbrules.seats\n"
        "        match v:\n            case 1:\n                import mbrules.notes\n"
    )
    for name in ("words", "rooms", "sides", "seats", "notes"):
        (pkg / f"{name}.py").write_text("")
    (tmp_path / "cli" / "__init__.py").write_text("")
    (tmp_path / "cli" / "app.py").write_text("import mbrules.engine.state\n")
    g = edges(tmp_path)
    assert g["mbrules.engine.state"] == {"mbrules.vocab", "mbrules.cli.app"} | {
        f"mbrules.{name}" for name in ("words", "rooms", "sides", "seats", "notes")
    }
    assert g["mbrules.cli.app"] == {"mbrules.engine.state"}
    assert upward(g) == ["mbrules.engine.state -> mbrules.cli.app: rules and engine imports cli, tui, web"]
    assert circles(g) == [["mbrules.cli.app", "mbrules.engine.state"]]
    assert circles(unit_edges(g)) == [["mbrules.cli", "mbrules.engine"]]


ONE_WORKER_FIXTURES = ("graph",)  # computed once under make test's workers (tests/conftest.py)


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    """The package's import graph, parsed once for the tests below (0.7 CPU-seconds a parse)."""
    return edges()


def test_every_module_has_a_layer(graph):
    assert [m for m in graph if unit_of(m) not in LAYERS] == []


def test_no_module_imports_a_higher_layer(graph):
    assert upward(graph) == []


def test_only_the_command_imports_the_browser_tables(graph):
    """mbrules.web is a satellite at the top: its web stack is an optional extra, so no other part of
    the code (the terminal seat included) may depend on it; only the `serve` command starts it."""
    users = sorted(
        m
        for m, ts in graph.items()
        if unit_of(m) not in ("mbrules.web", "mbrules.cli") and any(unit_of(t) == "mbrules.web" for t in ts)
    )
    assert users == []
    assert [
        m for m, ts in graph.items() if unit_of(m) == "mbrules.cli" and any(unit_of(t) == "mbrules.web" for t in ts)
    ] == ["mbrules.cli.serve_cmd"]


def test_no_circle_between_modules(graph):
    assert circles(graph) == []


def test_no_circle_between_packages(graph):
    assert circles(unit_edges(graph)) == []


# -- docs/architecture.md shows these layers --------------------------------------------------------------------
DOC = ROOT / "docs" / "architecture.md"
DOC_BEGIN = "<!-- layers: written by `python tests/test_layering.py --doc` from its LAYERS; a test checks it -->"
DOC_END = "<!-- end of layers -->"


def _unit_path(unit: str) -> str:
    """Where a unit lives: ``mbrules/engine/`` for a package, ``mbrules/vocab.py`` for a module."""
    if unit == "mbrules.cli":
        return "cli/"
    if unit == "mbrules":
        return "mbrules/__init__.py"
    path = ROOT / Path(*unit.split("."))
    return f"{path.relative_to(ROOT).as_posix()}/" if path.is_dir() else f"{path.relative_to(ROOT).as_posix()}.py"


def layers_text() -> str:
    """The layers, highest first, as docs/architecture.md shows them: number, name, the units' paths."""
    lines = ["```text"]
    for layer in range(len(LAYER_NAMES) - 1, -1, -1):
        units = sorted(_unit_path(u) for u, n in LAYERS.items() if n == layer)
        lines.append(f" {layer}  {LAYER_NAMES[layer]}")
        row = "      "
        for u in units:
            if len(row) + len(u) + 2 > 78 and row.strip():
                lines.append(row.rstrip())
                row = "      "
            row += u + "  "
        lines.append(row.rstrip())
    lines.append("```")
    return "\n".join(lines)


def doc_block(text: str) -> str | None:
    """The layers block of docs/architecture.md's text (None without its markers)."""
    if DOC_BEGIN not in text or DOC_END not in text:
        return None
    return text.split(DOC_BEGIN, 1)[1].split(DOC_END, 1)[0].strip("\n")


def test_the_architecture_doc_shows_the_layers_this_test_checks():
    """Issue 37: docs/architecture.md had drifted from LAYERS (other numbers, units left out). Its layers
    block is written from LAYERS and must stay what layers_text() makes of them; every unit is in it."""
    text = DOC.read_text(encoding="utf-8")
    block = doc_block(text)
    assert block is not None, f"docs/architecture.md lacks the markers {DOC_BEGIN!r} ... {DOC_END!r}"
    assert block == layers_text(), (
        "docs/architecture.md's layers differ from LAYERS: python tests/test_layering.py --doc"
    )
    for unit in LAYERS:
        assert _unit_path(unit) in block, unit


if __name__ == "__main__" and sys.argv[1:] == ["--doc"]:
    text = DOC.read_text(encoding="utf-8")
    if doc_block(text) is None:
        sys.exit(f"{DOC}: add the markers {DOC_BEGIN} and {DOC_END} where the layers go")
    head, rest = text.split(DOC_BEGIN, 1)
    DOC.write_text(
        head + DOC_BEGIN + "\n" + layers_text() + "\n" + DOC_END + rest.split(DOC_END, 1)[1], encoding="utf-8"
    )
    print(f"wrote the layers into {DOC}")
elif __name__ == "__main__":
    root = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT
    g = edges(root)
    units = unit_edges(g)
    for u in sorted(units, key=lambda u: (LAYERS.get(u, 99), u)):
        layer = LAYERS.get(u)
        print(f"[{layer if layer is not None else '?'}] {u} -> {', '.join(sorted(units[u])) or '-'}")
    for c in circles(units):
        print("circle between units:", " <-> ".join(c))
    for c in circles(g):
        print("circle between modules:", " <-> ".join(c))
    for m in sorted({unit_of(m) for m in g} - set(LAYERS)):
        print("no layer:", m)
    for line in upward(g):
        print("upward:", line)
