"""The bundled rulesets and options: they resolve, and they say what the rulebooks say.

Figures pinned here come from the rulebooks and the project's rulings (Decks, Player counts).
"""

from __future__ import annotations

import functools

import pytest
import yaml

from mbrules._paths import bundled_dir
from mbrules.ruleset.loader import load_ruleset
from tiers import one_each

RULESETS = ["parker-1971", "winning-moves", "kids-115", "wikipedia", "dujardin-classic"]
OPTIONS = [
    "extension-1200",
    "hazard-on-hazard",
    "coup-fourre-any-player",
    "roll-after-safety",
    "shutout-per-opponent",
    "extension-bonus-to-finisher",
    "no-voluntary-discard",
    "speed-limit-stacking",
    "simpler-game",
    "longer-game",
    # issue 35 (reactions and the turn) and issue 36 (score lines, match ends)
    "fast-play-remedy",
    "queued-coup-fourre-turn",
    "safety-extra-turn-while-deck-lasts",
    "shutout-to-each-opponent",
    "no-100-no-200-bonus",
    "french-end-bonuses",
    "french-extension-end-bonuses",
    "fixed-hands",
    "finisher-wins",
    "tie-first-seat",
    "tie-another-hand",
]
PLAYERS = [2, 3, 4, 6]
CARD_IDS = {
    "d25",
    "d50",
    "d75",
    "d100",
    "d200",
    "out_of_gas",
    "flat_tire",
    "accident",
    "speed_limit",
    "stop",
    "gasoline",
    "spare_tire",
    "repairs",
    "end_of_limit",
    "roll",
    "extra_tank",
    "puncture_proof",
    "driving_ace",
    "right_of_way",
}
BOX_TOTAL = {"parker-1971": 112, "winning-moves": 110, "kids-115": 115, "wikipedia": 110, "dujardin-classic": 106}
DECK_2_3 = {"parker-1971": 101, "winning-moves": 101, "kids-115": 103, "wikipedia": 101, "dujardin-classic": 101}
CLASSIC_106 = {
    "d25": 10,
    "d50": 10,
    "d75": 10,
    "d100": 12,
    "d200": 4,
    "out_of_gas": 3,
    "flat_tire": 3,
    "accident": 3,
    "speed_limit": 4,
    "stop": 5,
    "gasoline": 6,
    "spare_tire": 6,
    "repairs": 6,
    "end_of_limit": 6,
    "roll": 14,
    "extra_tank": 1,
    "puncture_proof": 1,
    "driving_ace": 1,
    "right_of_way": 1,
}
SIDES = {2: 2, 3: 3, 4: 2, 6: 3}
# players -> (target, extension_to) in every bundled edition
TRIPS = {2: (700, 1000), 3: (700, 1000), 4: (1000, None), 6: (700, 1000)}

_cache: dict = {}


def load(ruleset: str, *options: str):
    key = (ruleset, options)
    if key not in _cache:
        _cache[key] = load_ruleset(ruleset, list(options))
    return _cache[key]


def deck_size(rs, players: int) -> int:
    return sum(rs.deck_for(players).values())


def rule_paths(dump, prefix: str = "") -> dict[str, object]:
    """Leaf path -> value, citations left out (a changed citation alone is no rule change), and a score
    line's conditions not given (None) left out."""
    out: dict[str, object] = {}
    if isinstance(dump, dict):
        for k, v in dump.items():
            if k in ("source", "decided", "uncited") or (v is None and prefix.startswith("scoring.lines.")):
                continue
            out.update(rule_paths(v, f"{prefix}{k}."))
        if not dump:
            out[prefix.rstrip(".")] = {}
    else:
        out[prefix.rstrip(".")] = tuple(dump) if isinstance(dump, list) else dump
    return out


def changed_paths(before, after) -> set[str]:
    a, b = rule_paths(before.model_dump()), rule_paths(after.model_dump())
    return {p for p in a.keys() | b.keys() if a.get(p, "<absent>") != b.get(p, "<absent>")} - {"applied_options"}


@functools.lru_cache(maxsize=None)
def option_file(option: str) -> dict:
    """The option file as data, read once an option (126 reads in the fast set, ~1 CPU-s of pyyaml's
    pure-Python reader, for 21 files); the callers read it and never change it."""
    path = bundled_dir() / "options" / f"{option}.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def claimed_prefixes(option: str) -> set[str]:
    """The cited objects (or plain keys) an option file names: it may change only under these."""
    data = {k: v for k, v in option_file(option).items() if k not in ("kind", "id", "name", "description", "source")}
    out: set[str] = set()

    def walk(node, prefix):
        if isinstance(node, dict) and not ("source" in node or "decided" in node):
            for k, v in node.items():
                walk(v, f"{prefix}{k}.")
        else:
            out.add(prefix.rstrip("."))

    walk(data, "")
    # '*' under player_counts or removals names every player count
    return {c.replace(".*", f".{n}", 1) for c in out for n in ("1", "2", "3", "4", "5", "6")} | out


# ---------------------------------------------------------------------------
# Every ruleset, alone and with every option, resolves for every player count


# each edition alone at each count, each option once (on the editions and counts in turn) in the fast set
# (tiers.one_each); make test resolves every triple
RESOLVED = one_each(
    [(r, o, n) for r in RULESETS for o in [None, *OPTIONS] for n in PLAYERS],
    key=lambda case: case[1] or case[::2],
    ids=lambda case: "-".join(map(str, case)),
)


@pytest.mark.parametrize(("ruleset", "option", "players"), RESOLVED)
def test_every_ruleset_with_every_option_resolves_for_every_player_count(ruleset, option, players):
    rs = load(ruleset, *([option] if option else []))
    assert str(players) in rs.player_counts
    pc = rs.player_counts[str(players)]
    assert pc.sides == SIDES[players]
    deck = rs.deck_for(players)
    assert set(deck) == CARD_IDS
    assert all(n >= 0 for n in deck.values())
    # options never touch the deck or the removals
    expected = 106 if players in (4, 6) else DECK_2_3[ruleset]
    assert deck_size(rs, players) == expected
    if option:
        assert rs.applied_options[-1] == option


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_edition_uses_the_contract_card_ids(ruleset):
    assert set(load(ruleset).cards) == CARD_IDS


# ---------------------------------------------------------------------------
# Decks and boxes


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_playing_deck_is_the_classic_106(ruleset):
    rs = load(ruleset)
    assert {cid: c.count for cid, c in rs.cards.items()} == CLASSIC_106
    assert rs.cards["d200"].max_per_hand == 2
    assert len(rs.cards_of_kind("safety")) == 4  # KID says "5 Safety cards" but names four


@pytest.mark.parametrize("players", [4, 6])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_four_and_six_players_deal_from_106_cards(ruleset, players):
    assert deck_size(load(ruleset), players) == 106


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_two_or_three_players_remove_cards_before_the_deal(ruleset, players):
    assert deck_size(load(ruleset), players) == DECK_2_3[ruleset]


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("ruleset", ["parker-1971", "winning-moves", "wikipedia", "dujardin-classic"])
def test_classic_two_or_three_players_remove_one_of_each_hazard(ruleset, players):
    removal = load(ruleset).removals[str(players)]
    assert removal.cards == {"stop": 1, "accident": 1, "out_of_gas": 1, "flat_tire": 1, "speed_limit": 1}


@pytest.mark.parametrize("players", [2, 3])
def test_kids_two_or_three_players_remove_three_cards_as_printed(players):
    removal = load("kids-115").removals[str(players)]
    assert removal.cards == {"out_of_gas": 1, "flat_tire": 1, "speed_limit": 1}


@pytest.mark.parametrize("option", ["extension-1200", "simpler-game"])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_options_changing_the_trip_keep_the_editions_removals(ruleset, option):
    assert load(ruleset, option).removals == load(ruleset).removals


@pytest.mark.parametrize("ruleset", RULESETS)
def test_box_total_is_deck_plus_reference_cards(ruleset):
    rs = load(ruleset)
    assert rs.box.total.value == BOX_TOTAL[ruleset]
    in_box = sum(c.count for c in rs.cards.values()) + sum(c.count for c in rs.box.reference_cards.values())
    assert in_box == BOX_TOTAL[ruleset]


def test_parker_box_has_english_and_french_reference_cards():
    refs = {cid: c.count for cid, c in load("parker-1971").box.reference_cards.items()}
    assert refs == {"score_card_english": 2, "score_card_french": 1, "card_guide_english": 2, "card_guide_french": 1}


def test_kids_box_has_quick_reference_and_score_reminder_cards():
    refs = {cid: c.count for cid, c in load("kids-115").box.reference_cards.items()}
    assert refs == {"quick_reference": 6, "score_reminder": 3}


# ---------------------------------------------------------------------------
# Trips: targets and extensions per player count


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_trip_is_1000_for_four_players_and_700_with_extension_otherwise(ruleset, players):
    pc = load(ruleset).player_counts[str(players)]
    assert (pc.target, pc.extension_to) == TRIPS[players]


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_extension_1200_makes_every_trip_1000_with_extension_to_1200(ruleset, players):
    pc = load(ruleset, "extension-1200").player_counts[str(players)]
    assert (pc.sides, pc.target, pc.extension_to) == (SIDES[players], 1000, 1200)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_simpler_game_is_1000_for_every_player_count_without_extension(ruleset, players):
    pc = load(ruleset, "simpler-game").player_counts[str(players)]
    assert (pc.sides, pc.target, pc.extension_to) == (SIDES[players], 1000, None)


# ---------------------------------------------------------------------------
# Display names (contract: Card ids)


def test_parker_calls_stop_red_light_and_roll_roll():
    cards = load("parker-1971").cards
    assert cards["stop"].name == "Red Light"
    assert cards["roll"].name == "Roll"


def test_winning_moves_calls_stop_and_roll_with_bangs():
    cards = load("winning-moves").cards
    assert (cards["stop"].name, cards["roll"].name) == ("Stop!", "Roll!")


def test_kids_display_names():
    rs = load("kids-115")
    assert rs.cards["roll"].name == "Go"
    assert rs.cards["extra_tank"].name == "Fuel Tank"
    assert rs.cards["right_of_way"].name == "Emergency Vehicle"
    assert rs.cards["gasoline"].name == "Gas"
    assert rs.cards["stop"].name == "Stop"
    assert rs.display.battle_pile == "Drive Pile"


def test_wikipedia_names_areas_and_plain_stop_and_roll():
    rs = load("wikipedia")
    assert (rs.cards["stop"].name, rs.cards["roll"].name) == ("Stop", "Roll")
    assert rs.display.battle_pile == "Battle Area"


# ---------------------------------------------------------------------------
# Edition rules


def test_kids_match_is_one_hand_most_points_wins():
    rs = load("kids-115")
    assert rs.match.mode.value == "single_hand"
    assert rs.scoring.enabled.value is True


@pytest.mark.parametrize("ruleset", ["parker-1971", "winning-moves", "wikipedia"])
def test_classic_match_is_hands_until_5000(ruleset):
    m = load(ruleset).match
    assert (m.mode.value, m.target_points.value) == ("points", 5000)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_edition_stacks_speed_limits_or_forbids_discarding(ruleset):
    play = load(ruleset).play
    assert play.speed_limit_stacking.value is False
    assert play.voluntary_discard.value is True


def test_wikipedia_applies_its_house_rules():
    rs = load("wikipedia")
    assert rs.applied_options == (
        "hazard-on-hazard",
        "roll-after-safety",
        "coup-fourre-any-player",
        "shutout-per-opponent",
        "extension-bonus-to-finisher",
    )
    assert rs.play.hazard_on_hazard.value is True
    assert rs.play.roll_after_safety.value is True
    assert rs.coup_fourre.who.value == "any_player"
    assert rs.scoring.shutout_per_opponent.value is True
    assert rs.scoring.extension_bonus_to.value == "finisher"


def test_wikipedia_differs_from_winning_moves_in_its_house_rules_and_names_only():
    assert changed_paths(load("winning-moves"), load("wikipedia")) - {"id", "name", "description", "source"} == {
        "play.hazard_on_hazard.value",
        "play.roll_after_safety.value",
        "coup_fourre.who.value",
        "scoring.shutout_per_opponent.value",
        "scoring.extension_bonus_to.value",
        "cards.stop.name",
        "cards.roll.name",
        "box.reference_cards.score_card.name",
        "box.reference_cards.guide_card.name",
        "display.battle_pile",
        "display.speed_pile",
        "display.distance_pile",
    }


def test_parker_and_wikipedia_differ_in_real_rules():
    changed = changed_paths(load("parker-1971"), load("wikipedia"))
    for path in (
        "play.hazard_on_hazard.value",
        "play.roll_after_safety.value",
        "coup_fourre.who.value",
        "scoring.shutout_per_opponent.value",
        "scoring.extension_bonus_to.value",
        "box.total.value",
        "cards.stop.name",
    ):
        assert path in changed


# ---------------------------------------------------------------------------
# Each option changes exactly what it claims

OPTION_CHANGES = {
    "hazard-on-hazard": ("winning-moves", {"play.hazard_on_hazard.value"}),
    "roll-after-safety": ("winning-moves", {"play.roll_after_safety.value"}),
    "coup-fourre-any-player": ("winning-moves", {"coup_fourre.who.value"}),
    "shutout-per-opponent": ("winning-moves", {"scoring.shutout_per_opponent.value"}),
    "extension-bonus-to-finisher": ("winning-moves", {"scoring.extension_bonus_to.value"}),
    "no-voluntary-discard": ("winning-moves", {"play.voluntary_discard.value"}),
    "speed-limit-stacking": ("winning-moves", {"play.speed_limit_stacking.value"}),
    "extension-1200": (
        "winning-moves",
        {
            "player_counts.2.target",
            "player_counts.2.extension_to",
            "player_counts.3.target",
            "player_counts.3.extension_to",
            "player_counts.4.extension_to",
            "player_counts.6.target",
            "player_counts.6.extension_to",
        },
    ),
    "simpler-game": (
        "kids-115",
        {
            "player_counts.2.target",
            "player_counts.2.extension_to",
            "player_counts.3.target",
            "player_counts.3.extension_to",
            "player_counts.6.target",
            "player_counts.6.extension_to",
            "scoring.enabled.value",
            "match.mode.value",
        },
    ),
    "longer-game": ("kids-115", {"match.mode.value"}),
    # issue 35 (reactions and the turn) and issue 36 (score lines, match ends)
    "fast-play-remedy": ("winning-moves", {"fast_play.enabled.value"}),
    "queued-coup-fourre-turn": ("winning-moves", {"coup_fourre.bonus_turn.value"}),
    "safety-extra-turn-while-deck-lasts": ("winning-moves", {"play.safety_extra_turn_needs_draw_pile.value"}),
    "shutout-to-each-opponent": (
        "winning-moves",
        {
            "scoring.lines",
            "scoring.lines.shutout.points",
            "scoring.lines.shutout.when.no_distance",
            "scoring.lines.shutout.to",
            "scoring.lines.shutout.to_when.no_distance",
        },
    ),
    "no-100-no-200-bonus": (
        "winning-moves",
        {
            "scoring.lines",
            "scoring.lines.no_100_no_200.points",
            "scoring.lines.no_100_no_200.when.trip_completed",
            "scoring.lines.no_100_no_200.to",
            "scoring.lines.no_100_no_200.when.none_played",
            "scoring.lines.no_100_no_200.label",
        },
    ),
    "french-end-bonuses": (
        "winning-moves",
        {
            f"scoring.lines.{name}.{key}"
            for name, keys in (
                (
                    "fin_contrat_200",
                    ("points", "to", "exclusive", "label", "when.ended_empty_handed", "when.trip_completed"),
                ),
                ("fin_contrat", ("points", "to", "exclusive", "label", "when.ended_empty_handed")),
                (
                    "fin_limite_expert",
                    (
                        "points",
                        "to",
                        "exclusive",
                        "label",
                        "when.trip_completed",
                        "when.played.d200.at_least",
                        "when.played.d200.at_most",
                    ),
                ),
                (
                    "fin_limite",
                    (
                        "points",
                        "to",
                        "exclusive",
                        "label",
                        "when.trip_completed",
                        "when.played.d200.at_least",
                        "when.played.d200.at_most",
                    ),
                ),
            )
            for key in keys
        }
        | {"scoring.lines"},
    ),
    "fixed-hands": ("winning-moves", {"match.mode.value"}),
    "french-extension-end-bonuses": (
        "winning-moves",
        {
            f"scoring.lines.{name}.{key}"
            for name, keys in (
                ("fin_acrobate_vitesse", ("when.safeties", "when.played.d25.at_least", "when.played.d25.at_most")),
                ("fin_acrobate_sans_escale", ("when.safeties", "when.ended_empty_handed")),
                ("fin_acrobate_expert", ("when.safeties", "when.played.d200.at_least", "when.played.d200.at_most")),
                (
                    "fin_expert_200",
                    ("when.ended_empty_handed", "when.played.d200.at_least", "when.played.d200.at_most"),
                ),
                ("fin_vitesse", ("when.played.d25.at_least", "when.played.d25.at_most")),
                ("fin_acrobate", ("when.safeties",)),
                ("fin_expert", ("when.played.d200.at_least", "when.played.d200.at_most")),
            )
            for key in ("points", "to", "exclusive", "label", "when.trip_completed", *keys)
        }
        | {"scoring.lines"},
    ),
    "finisher-wins": ("winning-moves", {"match.mode.value"}),
    "tie-first-seat": ("winning-moves", {"match.tie_break.value"}),
    "tie-another-hand": ("winning-moves", {"match.tie_break.value"}),
}


def test_every_option_has_its_expected_changes():
    assert set(OPTION_CHANGES) == set(OPTIONS)


@pytest.mark.parametrize("option", OPTIONS)
def test_option_changes_exactly_what_it_claims(option):
    ruleset, expected = OPTION_CHANGES[option]
    assert changed_paths(load(ruleset), load(ruleset, option)) == expected


@pytest.mark.parametrize("option", OPTIONS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_option_changes_nothing_outside_what_it_names(ruleset, option):
    claimed = claimed_prefixes(option)
    for path in changed_paths(load(ruleset), load(ruleset, option)):
        # an option adding the first score line turns the empty mapping 'scoring.lines' into its lines
        lines_added = path == "scoring.lines" and any(c.startswith("scoring.lines.") for c in claimed)
        assert lines_added or any(path == c or path.startswith(c + ".") for c in claimed), path


@pytest.mark.parametrize("option", OPTIONS)
def test_option_file_is_a_small_cited_patch(option):
    data = option_file(option)
    assert data["kind"] == "option"
    assert data["id"] == option
    assert "\n" not in data["description"]
    assert data["source"]
    assert not ({"cards", "box", "removals", "display"} & set(data))


# ---------------------------------------------------------------------------
# dujardin-classic: the French rules differ from winning-moves in two rules and in its words (issue 36)


# The card names, the table's words and the unit are the French book's; the deck is the 106 played (the
# French text names no reference cards); the rules differ in the capot and the safety's extra turn.
DUJARDIN_VS_WINNING_MOVES = (
    {f"cards.{cid}.name" for cid in CARD_IDS - {"accident"}}  # 'Accident' in both languages
    | {
        f"display.{k}"
        for k in ("battle_pile", "speed_pile", "distance_pile", "safety_area", "discard_pile", "draw_pile")
    }
    | {"display.distance_unit.value"}
    | {"box.total.value", "box.reference_cards.score_card", "box.reference_cards.guide_card"}
    | {"play.safety_extra_turn_needs_draw_pile.value"}
    | {
        "scoring.lines",
        "scoring.lines.shutout.points",
        "scoring.lines.shutout.when.no_distance",
        "scoring.lines.shutout.to",
        "scoring.lines.shutout.to_when.no_distance",
    }
)


def test_dujardin_classic_differs_from_winning_moves_only_in_the_capot_the_extra_turn_and_its_words():
    """The French rules read as WM's but for the capot and the extra turn at the deck's end; read line by line the rest
    matches too, so these are the only differences: a change to either edition shows up here."""
    paths = changed_paths(load("winning-moves"), load("dujardin-classic"))
    paths = {p if not p.startswith("box.reference_cards.") else ".".join(p.split(".")[:3]) for p in paths}
    assert paths - {"id", "name", "description", "box.reference_cards"} == DUJARDIN_VS_WINNING_MOVES


def test_dujardin_classic_is_winning_moves_with_the_two_french_options_as_far_as_rules_go():
    """The two rules are exactly what the bundled options shutout-to-each-opponent and
    safety-extra-turn-while-deck-lasts write onto winning-moves."""
    wm = load("winning-moves", "shutout-to-each-opponent", "safety-extra-turn-while-deck-lasts")
    words = {"id", "name", "description", "box.total.value"}
    rules = {
        p
        for p in changed_paths(wm, load("dujardin-classic"))
        if p not in words
        and not p.startswith(("display.", "box.reference_cards"))
        and not (p.startswith("cards.") and p.endswith(".name"))
    }
    assert rules == set()
