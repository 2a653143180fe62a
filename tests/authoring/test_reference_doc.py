"""docs/ruleset-reference.md is generated from the model and checked in: it must be current."""

from __future__ import annotations

from pathlib import Path

from mbrules.ruleset.model import Ruleset
from mbrules.ruleset.reference import reference_markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "ruleset-reference.md"


def test_checked_in_reference_is_what_the_model_generates():
    assert DOC.read_text(encoding="utf-8") == reference_markdown(), (
        "docs/ruleset-reference.md is stale: run 'make schemas'"
    )


def test_reference_lists_every_key_of_the_model_with_a_meaning():
    text = DOC.read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    keys = {line.split("`")[1] for line in rows}
    for section, info in Ruleset.model_fields.items():
        if section == "applied_options":
            continue
        assert section in keys, section
        for name in getattr(info.annotation, "model_fields", {}):
            assert f"{section}.{name}" in keys, f"{section}.{name}"
    for key in (
        "kind",
        "extends",
        "options",
        "group",
        "remove",
        "display.distance_unit",
        "player_counts.N.extension_to",
        "cards.ID.fixes",
        "cards.ID.limit",
    ):
        assert key in keys, key
    for line in rows:  # every row says what the key means
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[3] if len(cells) >= 5 else cells[-1], line
