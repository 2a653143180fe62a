"""The 2014 Dujardin/Asmodee English edition and Mille Bornes Express (issue 36 item 3): they resolve with
the figures their texts print or our rulings decide, and play whole matches at each player count their
rules name, through the real command and the API."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import mbrules
from mbrules.cli.app import app
from mbrules.ruleset.loader import load_ruleset

PLAYER_COUNTS = {"asmodee-2014": (2, 3, 4, 6), "express": (2, 3, 4)}
TABLES = [(r, n) for r, counts in PLAYER_COUNTS.items() for n in counts]


def test_asmodee_2014_box_deck_and_trip():
    """rules2014: 110 in the box with 4 quick reference cards (ruling: 106 played); nothing removed at 2 or 3;
    1000 at every table, no extension (ruling: the trip at each table)."""
    rs = load_ruleset("asmodee-2014")
    assert rs.box.total.value == 110 and {k: r.count for k, r in rs.box.reference_cards.items()} == {
        "quick_reference": 4}
    for n in (2, 3, 4, 6):
        assert sum(rs.deck_for(n).values()) == 106
        pc = rs.player_counts[str(n)]
        assert (pc.target, pc.extension_to) == (1000, None)
    assert set(rs.player_counts) == {"2", "3", "4", "6"}


def test_asmodee_2014_score_sheet_has_three_lines_and_a_200_coup_fourre():
    """Ruling (the 2014 score sheet): distance, 100 a safety, a coup fourré 200 in all; every other line 0."""
    sc = load_ruleset("asmodee-2014").scoring
    assert (sc.milestones_per_mile.value, sc.safety.value, sc.safety.value + sc.coup_fourre.value) == (1, 100, 200)
    assert [getattr(sc, k).value for k in ("all_safeties", "trip_completed", "delayed_action", "safe_trip",
                                           "shutout", "extension")] == [0] * 6


def test_asmodee_2014_turn_legality_and_reactions():
    rs = load_ruleset("asmodee-2014")
    assert rs.turn.draw_from_discard.value and rs.turn.mulligan.value and rs.turn.reshuffles.value == 10
    assert rs.play.overshoot.value and rs.play.safety_distance.value == 0
    assert {c for c, card in rs.cards.items() if getattr(card, "restarts", False)} == {
        "gasoline", "spare_tire", "repairs"}
    assert rs.fast_play.enabled.value and rs.match.mode.value == "single_hand"


def test_express_deck_of_66_hands_of_4_and_its_rules():
    """express prints 66 cards and hands of 4; the per-card counts are decided (unreadable in the OCR)."""
    rs = load_ruleset("express")
    assert rs.box.total.value == 66 and sum(c.count for c in rs.cards.values()) == 66
    assert all(c.decided for c in rs.cards.values()), "every express card count is a decided value"
    assert rs.play.hand_size.value == 4 and rs.play.safety_distance.value == 100
    assert rs.turn.draw_from_discard.value and not rs.play.overshoot.value
    assert {c for c, card in rs.cards.items() if getattr(card, "restarts", False)} == {
        "gasoline", "spare_tire", "repairs"}
    assert set(rs.player_counts) == {"2", "3", "4"}
    assert all(pc.sides == int(n) and pc.target == 1000 for n, pc in rs.player_counts.items())


@pytest.mark.parametrize("ruleset,players", TABLES)
def test_the_edition_plays_a_whole_match_through_play_json(ruleset, players):
    """Each edition plays at each player count its rules name, through the real command (in process)."""
    result = CliRunner().invoke(app, ["play", "--ruleset", ruleset, "--players", str(players), "--seed", "3",
                                      "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["settings"]["ruleset_id"] == ruleset and doc["hands"]
    assert doc["result"] and doc["stopped_by"] is None  # the match ended by its rules


@pytest.mark.parametrize("ruleset,players", TABLES)
def test_the_edition_passes_the_api_test_with_random_bots(ruleset, players):
    """The environments' and bots' contract (mbrules.testing.api_test) holds for the new editions."""
    from mbrules.testing import api_test

    api_test(mbrules.load_game(ruleset, players=players), matches=2, seed=0)
