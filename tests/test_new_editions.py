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
from tiers import one_each

PLAYER_COUNTS = {"asmodee-2014": (2, 3, 4, 6), "express": (2, 3, 4)}
TABLES = [(r, n) for r, counts in PLAYER_COUNTS.items() for n in counts]
# the fast set: each edition at one of its counts (in turn); the slow set: its other counts
FAST_ONE_EACH = one_each(TABLES, key=lambda t: t[0], ids=lambda t: f"{t[0]}-{t[1]}")


def test_asmodee_2014_box_deck_and_trip():
    """rules2014: 110 in the box with 4 quick reference cards (ruling: 106 played); nothing removed at 2 or 3;
    1000 at every table, no extension (ruling: the trip at each table)."""
    rs = load_ruleset("asmodee-2014")
    assert rs.box.total.value == 110 and {k: r.count for k, r in rs.box.reference_cards.items()} == {
        "quick_reference": 4
    }
    for n in (2, 3, 4, 6):
        assert sum(rs.deck_for(n).values()) == 106
        pc = rs.player_counts[str(n)]
        assert (pc.target, pc.extension_to) == (1000, None)
    assert set(rs.player_counts) == {"2", "3", "4", "6"}


def test_asmodee_2014_score_sheet_has_three_lines_and_a_200_coup_fourre():
    """Ruling (the 2014 score sheet): distance, 100 a safety, a coup fourré 200 in all; every other line 0."""
    sc = load_ruleset("asmodee-2014").scoring
    assert (sc.milestones_per_mile.value, sc.safety.value, sc.safety.value + sc.coup_fourre.value) == (1, 100, 200)
    assert [
        getattr(sc, k).value
        for k in ("all_safeties", "trip_completed", "delayed_action", "safe_trip", "shutout", "extension")
    ] == [0] * 6


def test_asmodee_2014_turn_legality_and_reactions():
    rs = load_ruleset("asmodee-2014")
    assert rs.turn.draw_from_discard.value and rs.turn.mulligan.value and rs.turn.reshuffles.value == 10
    assert rs.play.overshoot.value and rs.play.safety_distance.value == 0
    assert {c for c, card in rs.cards.items() if getattr(card, "restarts", False)} == {
        "gasoline",
        "spare_tire",
        "repairs",
    }
    assert rs.fast_play.enabled.value and rs.match.mode.value == "single_hand"


def test_express_counts_are_the_decided_split():
    """Ruling (the Express counts): étapes as the OCR's x6 x6 x6 x9 x2 read in the classic's order; 11 attacks
    and 22 parades scaled from the classic's 18 to 38; one of each botte (docs/conformance.md, express)."""
    rs = load_ruleset("express")
    assert {c: card.count for c, card in rs.cards.items()} == {
        "d25": 6,
        "d50": 6,
        "d75": 6,
        "d100": 9,
        "d200": 2,
        "out_of_gas": 2,
        "flat_tire": 2,
        "accident": 2,
        "speed_limit": 2,
        "stop": 3,
        "gasoline": 4,
        "spare_tire": 4,
        "repairs": 4,
        "end_of_limit": 3,
        "roll": 7,
        "extra_tank": 1,
        "puncture_proof": 1,
        "driving_ace": 1,
        "right_of_way": 1,
    }
    for cid in ("d25", "d50", "d75", "d100", "d200", "stop", "roll"):  # each decided value says what it is
        assert str(rs.cards[cid].count) in rs.cards[cid].decided, cid


def test_express_deck_of_66_hands_of_4_and_its_rules():
    """express prints 66 cards and hands of 4; the per-card counts are decided (unreadable in the OCR)."""
    rs = load_ruleset("express")
    assert rs.box.total.value == 66 and sum(c.count for c in rs.cards.values()) == 66
    assert all(c.decided for c in rs.cards.values()), "every express card count is a decided value"
    assert rs.play.hand_size.value == 4 and rs.play.safety_distance.value == 100
    assert rs.turn.draw_from_discard.value and not rs.play.overshoot.value
    assert {c for c, card in rs.cards.items() if getattr(card, "restarts", False)} == {
        "gasoline",
        "spare_tire",
        "repairs",
    }
    assert set(rs.player_counts) == {"2", "3", "4"}
    assert all(pc.sides == int(n) and pc.target == 1000 for n, pc in rs.player_counts.items())


@pytest.mark.parametrize("ruleset,players", TABLES)
def test_the_edition_plays_a_whole_match_through_play_json(ruleset, players):
    """Each edition plays at each player count its rules name, through the real command (in process)."""
    result = CliRunner().invoke(app, ["play", "--ruleset", ruleset, "--players", str(players), "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["settings"]["ruleset_id"] == ruleset and doc["hands"]
    assert doc["result"] and doc["stopped_by"] is None  # the match ended by its rules


@pytest.mark.parametrize(("ruleset", "players"), FAST_ONE_EACH)
def test_the_edition_passes_the_api_test_with_random_bots(ruleset, players):
    """The environments' and bots' contract (mbrules.testing.api_test) holds for the new editions.

    asmodee-2014 at 2 players (the fast set's table of the edition) is also the fast set's api_test of the turn
    rules the edition plays together: fast play, mulligan, the discard pile's top drawn, and that draw only by a
    turn that plays (tests/test_turn_rules.py names it the owner of those options' fast table, round 15): the
    assert below says so where the edition would stop playing one of them."""
    from mbrules.testing import api_test

    game = mbrules.load_game(ruleset, players=players)
    if ruleset == "asmodee-2014":
        assert game.fast_play_enabled and game.mulligan and game.draw_from_discard and game.discard_draw_must_play
    api_test(game, matches=2, seed=0)


@pytest.mark.parametrize(("ruleset", "players"), FAST_ONE_EACH)
def test_the_edition_plays_in_simulate_and_in_compare_against_winning_moves(ruleset, players):
    """simulate and compare at each table (a few random-bot matches: the commands, not the figures)."""
    run = CliRunner().invoke
    sim = run(
        app,
        [
            "simulate",
            "--ruleset",
            ruleset,
            "--players",
            str(players),
            "--games",
            "3",
            "--bot",
            "random",
            "--workers",
            "1",
            "--json",
        ],
    )
    assert sim.exit_code == 0, sim.output
    doc = json.loads(sim.stdout)
    assert doc["games"] == 3 and doc["unfinished"] == 0 and sum(doc["wins"].values()) + doc["draws"] == 3
    cmp = run(
        app,
        [
            "compare",
            "winning-moves",
            ruleset,
            "--players",
            str(players),
            "--games",
            "2",
            "--skill-games",
            "2",
            "--robust-games",
            "2",
            "--bot",
            "random",
            "--bots",
            "random",
            "--rung",
            "random",
            "--rung",
            "heuristic",
            "--restricted-games",
            "2",
            "--workers",
            "1",
            "--json",
        ],
    )
    assert cmp.exit_code == 0, cmp.output
    assert json.loads(cmp.stdout)["pairs"] == 2


def _lines(*args: str) -> list[str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80, [line for line in lines if len(line) > 80]
    return lines


def test_show_express_says_the_score_and_the_match_values_are_not_in_play():
    """A race without points carries every scoring value; show says in words that they are not read."""
    text = "\n".join(_lines("show", "express"))
    scoring = text.split("\nScoring\n")[1].split("\n\n")[0].splitlines()
    assert scoring[:2] == ["  points are scored: no", "  not read, as no points are scored:"]
    assert all(line.startswith("    ") for line in scoring[2:])
    assert "  not read, as the match is not played to a number of points:" in text
    assert "  4 players: 4 sides (each for himself); trip 1000 km, no extension" in text
    assert "    9 × 100 km (d100): 100 km" in text


def test_diff_of_the_new_editions_against_winning_moves_reads_in_words_at_80_columns():
    express = _lines("diff", "express", "winning-moves")
    for line in (
        "  The 25 card is called: 25 km → 25 Miles",
        "  25 km: copies in the deck: 6 → 10",
        "  Feu vert: copies in the deck: 7 → 14",
        "  cards dealt to each player: 4 → 6",
        "  points are scored: no → yes",
        "  4 players: sides: 4 → 2",
    ):
        assert line in express, line
    assert not any("D25" in line for line in express)
    asmodee = _lines("diff", "asmodee-2014", "winning-moves")
    for line in (
        "  points per coup fourré, beside its safety's own: 100 → 300",
        "  2 players: trip length: 1000 miles → 700 miles",
        "  mulligan (instead of a turn, discard cards, draw back): yes → no",
        "  bonus for completing the trip: 0 → 400",
    ):
        assert line in asmodee, line
    listing = "\n".join(_lines("rulesets"))
    assert "  asmodee-2014 " in listing and "  express " in listing
