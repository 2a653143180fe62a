"""The house-rule library: rules people play that today's keys already write, bundled by name with their sources.

Each option must exist under its contract id, cite a public source (a program or a printed text, never
an uncited value), compose onto every bundled edition it makes sense for, and play whole matches through
the public API (``mbrules.testing.api_test``) at the player counts it changes. What each one does to the
rules is replayed by its conformance scenarios (tests/conformance/options/opt-<id>*.yaml), which fail
without the option.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import mbrules
from mbrules._paths import bundled_dir
from mbrules.ruleset.loader import load_ruleset
from api_sweeps import sweep_api_test

EDITIONS = ["parker-1971", "winning-moves", "kids-115", "wikipedia", "dujardin-classic", "asmodee-2014", "express"]
# option id -> the player counts whose play it changes (api_test plays a match at each)
LIBRARY = {
    "full-deck": (2, 3),
    "no-safety-extra-turn": (2,),
    "cf-no-extra-turn": (4,),
    "cf-single-draw": (2,),
    "cf-200": (2,),
    "all-safeties-700": (2,),
    "no-delayed-action": (4,),
    "no-200-cap": (4,),
    "hazard-without-roll": (2,),
    "each-for-himself": (4, 6),
    "three-vs-three": (6,),
    "single-hand": (3,),
    "trip-1000": (2, 6),
    "hand-size-4": (2, 4),
}
CONFORMANCE = Path(__file__).parent / "conformance" / "options"


@pytest.mark.parametrize("option", sorted(LIBRARY))
def test_library_option_is_bundled_under_its_contract_id_with_a_public_source(option):
    """People pick these by name: the file exists, says what it changes and where people play it."""
    path = bundled_dir() / "options" / f"{option}.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert doc["kind"] == "option" and doc["id"] == option
    assert doc["description"] and "\n" not in doc["description"]
    assert doc["source"], "the option names where people play it"
    for section in ("play", "coup_fourre", "scoring", "match", "player_counts", "cards", "removals"):
        for key, value in (doc.get(section) or {}).items():
            assert isinstance(value, dict) and (value.get("source") or value.get("decided")), (
                f"{option}: {section}.{key} carries no citation"
            )


@pytest.mark.parametrize("option", sorted(LIBRARY))
def test_library_option_composes_onto_every_bundled_edition_or_is_refused_as_listed(option):
    """It composes, or the edition is one that tests/test_option_edition_pairs.py lists as refusing it."""
    from test_option_edition_pairs import REFUSED

    from mbrules.ruleset import RulesetError

    for edition in EDITIONS:
        try:
            load_ruleset(edition, options=[option])
        except RulesetError as exc:
            assert (edition, option) in REFUSED and exc.refusal, exc


@pytest.mark.parametrize("option", sorted(LIBRARY))
def test_library_option_has_a_conformance_scenario(option):
    """Every rule has a scenario that replays it (and fails without the option: checked when written)."""
    files = sorted(CONFORMANCE.glob(f"opt-{option}*.yaml"))
    assert files, f"no tests/conformance/options/opt-{option}*.yaml"
    for f in files:
        assert option in yaml.safe_load(f.read_text(encoding="utf-8"))["options"]


@pytest.mark.slow
@pytest.mark.parametrize("option", sorted(LIBRARY))
def test_library_option_plays_whole_matches_through_the_public_api(option, request):
    """A match at each count the option changes (the slow set's: the legality period of tests/api_sweeps.py)."""
    for players in LIBRARY[option]:
        sweep_api_test(mbrules.load_game("winning-moves", players=players, options=[option]), request, seed=3)


def test_exclusive_library_options_are_refused_together():
    """Options that set the same rule differently cannot be stacked silently (the loader names both)."""
    from mbrules.ruleset import RulesetError

    for pair in (
        ["trip-1000", "extension-1200"],
        ["each-for-himself", "three-vs-three"],
        ["single-hand", "longer-game"],
    ):
        with pytest.raises(RulesetError, match="group"):
            load_ruleset("winning-moves", options=pair)
