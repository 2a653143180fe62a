"""Issue 46, point 1: every module of ``mbrules`` and ``cli`` is checked with mypy's strict flags.

The flags live in one ``[[tool.mypy.overrides]]`` list in pyproject.toml, module by module; a module
missing from it is checked by plain mypy only, silently. This test reads the list and every module's
dotted name, so a new module that is not added fails here rather than slipping out of the gate."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _strict_patterns() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for override in config["tool"]["mypy"]["overrides"]:
        if override.get("disallow_untyped_defs") and override.get("warn_return_any"):
            modules = override["module"]
            return [modules] if isinstance(modules, str) else list(modules)
    raise AssertionError("pyproject.toml has no strict [[tool.mypy.overrides]] list")


def _modules() -> list[str]:
    names = []
    for package in ("mbrules", "cli"):
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            names.append(".".join(parts))
    return names


def test_every_module_is_under_mypys_strict_flags() -> None:
    patterns = _strict_patterns()
    modules = _modules()
    assert len(modules) > 100, "the walk found too few modules to be the whole tree"
    loose = [m for m in modules if not any(fnmatch.fnmatchcase(m, p) for p in patterns)]
    assert loose == [], f"modules outside pyproject's strict mypy list (add them): {loose}"
