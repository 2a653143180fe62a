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
from api_sweeps import sweep_api_test

EDITIONS = ["parker-1971", "winning-moves", "kids-115", "wikipedia", "dujardin-classic", "asmodee-2014", "express"]
# option id -> the player counts api_test plays it at
NEW_OPTIONS = {
    "empty-pile-ends-hand": (2, 4),
    "safety-replacement-draw": (2, 4),
    "karma": (3, 6),
    "solo": (1,),
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
    """A file whose scenarios all pass whether or not the option is on would not pin the rule (a document
    may check what the option leaves as it was: the first fails without it)."""
    files = sorted(CONFORMANCE.glob(f"opt-{option}*.yaml"))
    assert files
    for f in files:
        assert all(r.passed for r in replay_file(f)), f
        doc = next(yaml.safe_load_all(f.read_text(encoding="utf-8")))
        doc["options"] = [o for o in doc["options"] if o != option]
        bare = tmp_path / f.name
        bare.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
        assert not all(r.passed for r in replay_file(bare)), f"{f.name}'s first scenario passes without {option}"


def _first_count_fast(cases, owned_elsewhere=frozenset()):
    """The fast set plays each case at its first count, the slow set at the others; a case whose first
    element is in ``owned_elsewhere`` plays every count in the slow set only (another fast test plays its table)."""
    return [
        pytest.param(*c[:-1], n, marks=() if i == 0 and c[0] not in owned_elsewhere else pytest.mark.slow)
        for c in cases
        for i, n in enumerate(c[-1])
    ]


# Round 15 (one owner a table): the fast set's api_test of karma at 3 players is test_legality_options'
# keep-virtue (winning-moves with karma, False Virtue kept from the discard pile, 3 players: every API check
# besides its own); of safety-replacement-draw at 2 players, the PlayAural profile below (PlayAural plays it).
# Three karma mutants (an attack between two sides with karma not neutralised, the attacker not shunned, the
# hazard sides not narrowed by karma) and the replacement draw switched off were caught by those tables as by
# these (docs/performance.md, "The fast set, round 15"); make test plays these at every count.
OWNED_ELSEWHERE = frozenset({"karma", "safety-replacement-draw"})


@pytest.mark.parametrize(
    ("option", "players"), _first_count_fast([(o, NEW_OPTIONS[o]) for o in sorted(NEW_OPTIONS)], OWNED_ELSEWHERE)
)
def test_new_rule_plays_whole_matches_through_the_public_api(option, players, request):
    """Every invariant, the transition checker and the score oracle hold in a random match at each table, the
    fast set the first count's. One match a table, as the other option sweeps play (test_legality_options,
    test_reactions_and_score_lines, test_turn_rules): a second seed (6) at each table was 4.6 of make test's
    CPU-s (issue 46 point 7); the tables (option x count) are the sweep, and tests/properties/test_soak_slice.py
    plays each of these options at every count and on every ruleset besides. The legality period:
    tests/api_sweeps.py."""
    sweep_api_test(mbrules.load_game("winning-moves", players=players, options=[option]), request, seed=5)


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


@pytest.mark.parametrize(
    ("rid", "option", "players"),
    _first_count_fast(
        [("playaural", "no-safety-extra-turn", (2, 4)), ("sisyphus-bbs", "safety-replacement-draw", (2, 4))]
    ),
)
def test_safety_replacement_draw_is_the_extra_turns_draw_so_without_an_extra_turn_nothing_is_drawn(
    rid, option, players
):
    """PlayAural's replacement card 'begins the Safety's extra turn' (game.py _play_safety): composed with
    no-safety-extra-turn (sisyphus-bbs plays none) there is no extra turn and so no replacement card, or the
    next turn's draw would leave a hand of hand_size + 2 (the score oracle's slow test found it)."""
    game = mbrules.load_game(rid, players=players, options=[option])
    assert not game.safety_replacement_draw
    api_test(game, matches=1, seed=3)


# -- the programs' profiles: "play as there" (rulesets/playaural.yaml, sisyphus-bbs.yaml, bsd-mille.yaml)


def test_playaural_profile_plays_the_defaults_of_its_options_py_and_its_hard_coded_rules():
    """PlayAural's MileByMileOptions defaults and the rules game.py/cards.py hard-code, value by value."""
    for players in (2, 3, 4, 5, 6, 7, 8, 9):  # game.py get_min_players 2, get_max_players 9
        rs = load_ruleset("playaural")
        pc = rs.player_counts[str(players)]
        assert (pc.target, pc.extension_to, pc.sides) == (1000, None, players)  # round_distance, individual
        assert str(players) not in rs.removals or not rs.removals[str(players)].cards  # build_standard_deck
    assert rs.turn.reshuffles.value > 0  # reshuffle_discard_pile
    assert rs.play.go_with_rolling_safety.value is False  # _can_play_remedy
    assert rs.coup_fourre.bonus_turn.value == "queued"  # dirty_trick_bonus_turn_player_ids
    assert rs.play.safety_replacement_draw.value is True  # _play_safety
    assert rs.play.overshoot.value is False and rs.play.stacked_hazards.value is False  # perfect crossing, no stacking
    assert rs.turn.pass_over_held.value == 0 and rs.match.target_points.value == 5000  # rig none, winning_score


def test_sisyphus_and_bsd_profiles_play_their_programs_rules():
    sis = load_ruleset("sisyphus-bbs")
    assert sis.player_counts["2"].target == 1000 and sis.match.mode.value == "finisher"
    assert sis.play.safety_extra_turn.value is False and sis.coup_fourre.replacement_draw.value is False
    assert sis.match.tie_break.value == "first_seat" and sis.scoring.delayed_action.value == 0
    bsd = load_ruleset("bsd-mille")
    assert "safety" in bsd.play.undiscardable.value and bsd.scoring.extension_bonus_to.value == "finisher"


@pytest.mark.parametrize(
    ("rid", "players"), _first_count_fast([("playaural", (2, 4)), ("sisyphus-bbs", (2,)), ("bsd-mille", (2,))])
)
def test_profile_plays_whole_matches_through_the_public_api(rid, players):
    """Every API check on a match of each program's profile. PlayAural at 2 players is also the fast set's
    api_test of safety-replacement-draw at 2 players (above) and of reshuffle-discard (tests/test_turn_rules.py,
    round 15): the assert says so where the profile would stop playing one of them."""
    game = mbrules.load_game(rid, players=players)
    if rid == "playaural":
        assert game.safety_replacement_draw and game.max_reshuffles > 0
    api_test(game, matches=1, seed=2)


# -- through the real command


def _cli(*args: str):
    from typer.testing import CliRunner

    from mbrules.cli.app import app

    return CliRunner().invoke(app, list(args), env={"COLUMNS": "240"})


def test_show_says_a_table_of_four_cars_without_a_reshuffle_rarely_finishes_and_names_the_fix():
    """Each for himself at 4+ with no reshuffle: the draw pile runs out before a trip in most hands."""
    out = _cli("show", "winning-moves", "--option", "each-for-himself", "-p", "4")
    assert out.exit_code == 0 and "warning:" in out.stdout and "reshuffle-discard" in out.stdout
    fixed = _cli("show", "winning-moves", "--option", "each-for-himself", "--option", "reshuffle-discard", "-p", "4")
    assert "warning:" not in fixed.stdout
    assert "warning:" not in _cli("show", "winning-moves", "-p", "4").stdout  # partners: two cars
    import json

    doc = json.loads(_cli("show", "playaural", "-p", "6", "--json").stdout)
    assert doc["players"]["warning"] is None  # PlayAural reshuffles


def test_show_warns_that_karma_at_fewer_than_three_sides_is_not_playaurals():
    """PlayAural's prestart_validate refuses a karma table of fewer than three teams; mbrules plays karma at
    two sides as at three (the karma ruling, docs/conformance.md). show says so, as it says a table that
    departs from what its source plays: in the karma section (naming the counts) and at such a table (-p)."""
    out = _cli("show", "winning-moves", "--option", "karma").stdout
    karma = out[out.index("\nKarma\n") :]
    assert (
        "  warning: karma with 2 or 4 players (fewer than three sides) is not PlayAural's, which refuses such a table; "
        "at two sides mbrules plays it as at three" in karma
    )
    assert "3 or 6 players play it as PlayAural does" in karma
    at_two = _cli("show", "winning-moves", "--option", "karma", "-p", "2").stdout
    assert "\n  warning: karma with 2 players (fewer than three sides)" in at_two.split("With 2 players")[1]
    assert (
        "warning: karma" not in _cli("show", "winning-moves", "--option", "karma", "-p", "3").stdout.split("With 3")[1]
    )
    sides = _cli("show", "winning-moves", "--option", "karma", "--option", "three-vs-three").stdout
    assert "karma with 2, 4 or 6 players (fewer than three sides)" in sides and "3 players play it as" in sides
    assert "warning: karma" not in _cli("show", "winning-moves", "-p", "2").stdout  # karma off: nothing to say
    import json

    doc = json.loads(_cli("show", "winning-moves", "--option", "karma", "-p", "4", "--json").stdout)
    assert doc["players"]["warning"].startswith("karma with 4 players (fewer than three sides)")


@pytest.mark.parametrize(
    "args",
    [
        ("--ruleset", "playaural", "-p", "4"),
        ("--ruleset", "sisyphus-bbs", "-p", "2"),
        ("--ruleset", "bsd-mille", "-p", "2"),
        ("--option", "empty-pile-ends-hand", "-p", "3"),
        ("--option", "safety-replacement-draw", "-p", "2"),
        ("--option", "karma", "-p", "3"),
    ],
)
def test_play_records_a_match_that_replays(args, tmp_path):
    """mbrules play --record then mbrules replay: the recorded match replays step for step."""
    rec = tmp_path / "game.yaml"
    out = _cli("play", *args, "--seed", "4", "--record", str(rec))
    assert out.exit_code == 0, out.stderr
    again = _cli("replay", str(rec))
    assert again.exit_code == 0 and " 0 failed" in again.stdout, again.stdout[-500:]


def test_solo_a_one_side_table_must_put_its_hazards_on_its_own_side(tmp_path):
    """A side with no opponent could never play a hazard: `sides: 1` with the default `hazards_on: opponents` is
    refused with its line, and the option solo's own count validates (docs/conformance.md, the solo rulings)."""
    bad = tmp_path / "lone.yaml"
    bad.write_text(
        "kind: option\nid: lone\nname: lone\ncategory: tables\nsource: test\n"
        'player_counts:\n  "1": {sides: 1, target: 1000, extension_to: null, source: test}\n',
        encoding="utf-8",
    )
    with pytest.raises(RulesetError, match="no opponent for their hazards"):
        load_ruleset("winning-moves", options=[str(bad)])
    game = mbrules.load_game("winning-moves", players=1, options=["solo"])
    assert (game.sides, game.target, game.extension_to, game.hazard_sides) == (1, 1000, None, ((0,),))


def test_solo_leaves_every_other_table_as_it_was():
    """The option adds a one-player count only: at two players hazards still go on the opponent."""
    game = mbrules.load_game("winning-moves", players=2, options=["solo"])
    assert game.hazard_sides == ((1,), (0,)) and not game.hazards_on_own_side
