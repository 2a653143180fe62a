"""docs/conformance.md stays honest: every scenario is listed, every listed scenario exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "conformance.md"
SCENARIOS = ROOT / "tests" / "conformance"


def _named_in_doc() -> set[str]:
    return set(re.findall(r"`(?:[\w-]+/)?([\w.-]+\.yaml)`", DOC.read_text(encoding="utf-8")))


def test_every_conformance_scenario_is_listed_in_the_doc():
    on_disk = {p.name for p in SCENARIOS.rglob("*.yaml")}
    missing = sorted(on_disk - _named_in_doc())
    assert not missing, f"scenarios not listed in docs/conformance.md: {missing}"


def test_every_scenario_the_doc_names_exists():
    on_disk = {p.name for p in SCENARIOS.rglob("*.yaml")}
    ghosts = sorted(_named_in_doc() - on_disk)
    assert not ghosts, f"docs/conformance.md names scenarios that do not exist: {ghosts}"


def test_each_ruleset_has_at_least_twenty_scenarios():
    for ruleset in (
        "parker-1971",
        "winning-moves",
        "kids-115",
        "wikipedia",
        "dujardin-classic",
        "asmodee-2014",
        "express",
    ):
        n = len(list((SCENARIOS / ruleset).glob("*.yaml")))
        assert n >= 20, f"{ruleset} has {n} conformance scenarios, fewer than 20"
