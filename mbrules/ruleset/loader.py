"""PROVISIONAL loader (to be replaced by the full layered loader; keep the signatures).

load_ruleset(ref, options) -> Ruleset: ref is a bundled id or a path; options are ids or paths.
"""
from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Sequence

import yaml

from .model import Ruleset


class RulesetError(Exception):
    """Invalid ruleset input. ``lines`` are 'FILE:LINE:COL: message' strings; ``usage`` marks exit 2."""

    def __init__(self, lines: list[str], usage: bool = False):
        super().__init__("\n".join(lines))
        self.lines = lines
        self.usage = usage


def bundled_dir() -> Path:
    return Path(str(resources.files("mbrules.bundled")))


def _resolve(ref: str, base: Path | None, option: bool) -> Path:
    p = Path(ref)
    if p.suffix in (".yaml", ".yml") or "/" in ref:
        return (base / p) if (base and not p.is_absolute()) else p
    d = bundled_dir() / "options" if option else bundled_dir()
    return d / f"{ref}.yaml"


def merge(parent, child):
    """Mappings merge by key; an object carrying its own citation replaces the parent's whole."""
    if isinstance(parent, dict) and isinstance(child, dict) and not ("source" in child or "decided" in child):
        out = dict(parent)
        for k, v in child.items():
            out[k] = merge(parent[k], v) if k in parent else v
        return out
    return child


def _raw(path: Path, option: bool, stack=()) -> dict:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not option and "extends" in data:
        parent = _raw(_resolve(data["extends"], path.parent, False), False, stack + (path,))
        body = {k: v for k, v in data.items() if k not in ("extends", "options", "kind")}
        top = {k: v for k, v in body.items() if k in ("id", "name", "description", "source")}
        data2 = merge(parent, {k: v for k, v in body.items() if k not in top})
        data2.update(top)
        data2["_options"] = parent.get("_options", []) + list(data.get("options", []))
        data = data2
    return data


def load_ruleset(ref: str | Path, options: Sequence[str | Path] = (), base_dir: Path | None = None) -> Ruleset:
    path = _resolve(str(ref), base_dir, False)
    data = _raw(path, False)
    applied = list(data.pop("_options", [])) + [str(o) for o in options]
    data.pop("extends", None); data.pop("kind", None)
    own = data.pop("options", [])
    applied = list(own) + applied if own else applied
    for opt in applied:
        od = yaml.safe_load(_resolve(str(opt), base_dir, True).read_text(encoding="utf-8"))
        od = {k: v for k, v in od.items() if k not in ("id", "name", "description", "source", "kind")}
        data = merge(data, od)
    data["applied_options"] = [Path(str(o)).stem for o in applied]
    return Ruleset.model_validate_json(json.dumps(data))
