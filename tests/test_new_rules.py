"""The rules that needed a mechanism of their own (issue 43): each bundled under its contract id with its
source, composing with every edition or refused as listed, playing whole matches through the public API,
and replayed by conformance scenarios that fail without the option (so the scenario tells the rule apart).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import mbrules
from mbrules._paths import bundled_dir
from mbrules.ruleset import RulesetError
from mbrules.ruleset.loader import load_ruleset
from mbrules.scenario.replay import replay_file
from mbrules.testing import api_test

EDITIONS = ["parker-1971", "winning-moves", "kids-115", "wikipedia", "dujardin-classic", "asmodee-2014", "express"]
# option id -> the player counts api_test plays it at
NEW_OPTIONS = {
    "empty-pile-ends-hand": (2, 4),
}
CONFORMANCE = Path(__file__).parent / "conformance" / "options"


@pytest.mark.parametrize("option", sorted(NEW_OPTIONS))
def test_new_rule_is_bundled_under_its_contract_id_with_its_source(option):
    """Each option names where people play it, and every value it sets carries a citation."""
    doc = yaml.safe_load((bundled_dir() / "options" / f"{option}.yaml").read_text(encoding="utf-8"))
    assert doc["kind"] == "option" and doc["id"] == option and doc["source"]
    for section, body in doc.items():
        if isinstance(body, dict) and section not in ("group",):
            for key, value in body.items():
                assert isinstance(value, dict) and (value.get("source") or value.get("decided")), (
                    f"{option}: {section}.{key} carries no citation"
                )


@pytest.mark.parametrize("option", sorted(NEW_OPTIONS))
def test_new_rule_composes_onto_every_edition_or_is_refused_as_listed(option):
    from test_option_edition_pairs import REFUSED

    for edition in EDITIONS:
        try:
            load_ruleset(edition, options=[option])
        except RulesetError as exc:
            assert (edition, option) in REFUSED and exc.refusal, exc


@pytest.mark.parametrize("option", sorted(NEW_OPTIONS))
def test_new_rule_scenarios_pass_with_the_option_and_fail_without_it(option, tmp_path):
    """A scenario that passes whether or not the option is on would not pin the rule."""
    files = sorted(CONFORMANCE.glob(f"opt-{option}*.yaml"))
    assert files
    for f in files:
        assert all(r.passed for r in replay_file(f)), f
        docs = list(yaml.safe_load_all(f.read_text(encoding="utf-8")))
        for i, doc in enumerate(docs):
            doc["options"] = [o for o in doc["options"] if o != option]
            bare = tmp_path / f"{f.stem}-{i}.yaml"
            bare.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
            assert not all(r.passed for r in replay_file(bare)), f"{f.name} #{i} passes without {option}"


@pytest.mark.parametrize("option", sorted(NEW_OPTIONS))
def test_new_rule_plays_whole_matches_through_the_public_api(option):
    """Every invariant, the transition checker and the score oracle hold in random matches."""
    for players in NEW_OPTIONS[option]:
        api_test(mbrules.load_game("winning-moves", players=players, options=[option]), matches=2, seed=5)


def test_empty_pile_ends_hand_every_hand_ends_when_nothing_is_left_to_draw():
    """With the option no turn is played once nothing can be drawn: every hand's last action drew or
    completed the trip, and no player plays out the cards left in hand."""
    game = mbrules.load_game("winning-moves", players=4, options=["each-for-himself", "empty-pile-ends-hand"])
    for seed in range(3):
        state = game.new_match(seed=seed)
        while not state.is_terminal():
            state.apply(state.legal_actions()[0])
        snap = state.snapshot()
        assert len(snap.draw_pile) == 0 or snap.completer >= 0
        assert any(snap.hands), "cards are left in hand, not played out"
