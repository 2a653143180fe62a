"""The bundled rulesets and options, listed without building the models (``mbrules rulesets``).

Listing reads only each file's header (the top-level keys before its first section: id, name,
description, source, category, group), parsed by libyaml when PyYAML has it; a file is checked whole only when it
is loaded (:mod:`mbrules.ruleset.loader`) or validated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

RULESET_ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
SECTIONS = ("box", "cards", "player_counts", "removals", "play", "coup_fourre", "scoring", "match", "display", "remove")
_SECTION_LINE = re.compile(r"^(%s)\s*:" % "|".join(SECTIONS))
# Option categories: where 'mbrules rulesets' lists an option (what part of the game it changes).
OPTION_CATEGORIES = {
    "turn": "the turn and its draws",
    "piles": "the draw and discard piles",
    "legality": "what may be played, discarded or called",
    "scoring": "score lines, the trip and the extension",
    "tables": "players, sides and partnerships",
    "modes": "ways to play an edition (the kids' simpler and longer games)",
}
_HEADER_MAX = 64 * 1024  # a header is a few lines; a file whose first section starts later is read no further
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def is_ruleset_id(text: str) -> bool:
    return re.fullmatch(RULESET_ID_PATTERN, text) is not None


def bundled_dir() -> Path:
    from mbrules._paths import bundled_dir as folder

    return folder()


def bundled_folder(option: bool) -> Path:
    return bundled_dir() / "options" if option else bundled_dir()


def bundled_ids(option: bool) -> list[str]:
    folder = bundled_folder(option)
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.yaml") if is_ruleset_id(p.stem))


@dataclass(frozen=True)
class Summary:
    """What ``mbrules rulesets`` lists for one bundled ruleset or option."""

    id: str
    name: str
    description: str
    path: str
    groups: tuple[str, ...] = field(default=())
    category: str = ""  # an option's: where 'mbrules rulesets' lists it (model.OPTION_CATEGORIES), or ""
    source: str = ""  # the file's own citation (its top-level source: or decided:), or ""


def header(path: Path) -> dict[str, Any]:
    """The top-level keys written before the file's first section, parsed (or {} if they do not parse)."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(_HEADER_MAX)
    except OSError:
        return {}
    lines = []
    for line in raw.decode("utf-8", "replace").splitlines():
        if _SECTION_LINE.match(line):
            break
        lines.append(line)
    try:
        data = yaml.load("\n".join(lines), Loader=_Loader)  # noqa: S506 - a safe loader
    except yaml.YAMLError:
        return {}
    return data if isinstance(data, dict) else {}


def summary(path: Path, ident: str) -> Summary:
    data = header(path)

    def text(key: str) -> str:
        value = data.get(key)
        return value if isinstance(value, str) else "(missing: run 'mbrules validate' on this file)"

    group = data.get("group")
    group = group.get("value") if isinstance(group, dict) else group
    groups = (
        (group,)
        if isinstance(group, str)
        else tuple(g for g in group or () if isinstance(g, str))
        if isinstance(group, list)
        else ()
    )
    category = data.get("category")
    cite = data.get("source", data.get("decided"))
    return Summary(
        ident,
        text("name"),
        text("description") if "description" in data or "name" not in data else "",
        str(path),
        groups,
        category if isinstance(category, str) else "",
        cite if isinstance(cite, str) else "",
    )
