"""mbrules.matches sits between the bots and the analysis tools: compare and sweep call it, it calls
neither (nor the CLI), and the bots never call it; every import counts, function-level ones included."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imported_modules(folder: Path, package: str) -> dict[str, set[str]]:
    """Each module file of ``folder`` (the package ``package``) and the absolute names it imports."""
    out: dict[str, set[str]] = {}
    for path in folder.rglob("*.py"):
        parts = package.split(".") + [p for p in path.relative_to(folder).with_suffix("").parts if p != "__init__"]
        here = parts if path.name == "__init__.py" else parts[:-1]
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = here[: len(here) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                names.add(target)
                names.update(f"{target}.{a.name}" for a in node.names)
        out[str(path.relative_to(ROOT))] = names
    return out


def offending(imports: dict[str, set[str]], forbidden: tuple[str, ...]) -> list[str]:
    return sorted(
        f"{where} imports {name}"
        for where, names in imports.items()
        for name in names
        if any(name == f or name.startswith(f + ".") for f in forbidden)
    )


def test_matches_imports_neither_compare_nor_sweep_nor_the_cli():
    imports = imported_modules(ROOT / "mbrules" / "matches", "mbrules.matches")
    assert imports, "no module found under mbrules/matches"
    assert offending(imports, ("mbrules.compare", "mbrules.sweep", "mbrules.cli", "cli", "mbrules.tui")) == []


def test_the_bots_do_not_import_the_match_runner():
    imports = imported_modules(ROOT / "mbrules" / "bots", "mbrules.bots")
    assert offending(imports, ("mbrules.matches", "mbrules.simulate", "mbrules.cluster")) == []


def test_the_checker_sees_every_name_the_package_loads_on_first_use():
    """mbrules.matches loads its names on first use (``_WHERE``); the imports under TYPE_CHECKING are what
    mypy --strict types ``mbrules.matches.NAME`` by. Each name must be imported there from the module
    ``_WHERE`` loads it from, or a caller's use of it goes unchecked (Any)."""
    import mbrules.matches as m

    tree = ast.parse(Path(m.__file__).read_text(encoding="utf-8"))
    typed: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for imp in node.body:
                if isinstance(imp, ast.ImportFrom):
                    typed.update({a.name: imp.module or "" for a in imp.names})
    assert typed == dict(m._WHERE)
