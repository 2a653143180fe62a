"""Issue 35's legality and card-effect options: each is a value of a general mechanism of the model,
composes onto the editions it fits, changes only what it names, and every rule it adds plays through
the real API (api_test) at every player count. Their rules, one by one, are conformance scenarios
(tests/conformance/options/opt-*.yaml); this file checks the model side and the exclusive groups."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

import mbrules
from mbrules.cli.app import app
from mbrules.ruleset import RulesetError, load_report, load_ruleset
from mbrules.testing import api_test
from api_sweeps import sweep_api_test
from test_option_edition_pairs import REFUSED

ROOT = Path(__file__).resolve().parents[1]
EDITIONS = ["winning-moves", "parker-1971", "kids-115", "wikipedia", "dujardin-classic", "asmodee-2014", "express"]

# option -> what it changes over winning-moves (dotted paths of leaf values)
CHANGES = {
    "no-roll-under-right-of-way": {"play.go_with_rolling_safety.value"},
    "safeties-not-discardable": {"play.undiscardable.value"},
    "playable-not-discardable": {"play.discard_playable.value"},
    "stacked-hazards": {"play.stacked_hazards.value"},
    "overshoot": {"play.overshoot.value"},
    "exact-finish-bonus": {
        "play.overshoot.value",
        "scoring.milestones_up_to_target.value",
        "scoring.lines.exact_finish.points",
        "scoring.lines.exact_finish.to",
        "scoring.lines.exact_finish.when.trip_completed",
        "scoring.lines.exact_finish.when.exact_finish",
    },
    "safety-distance": {"play.safety_distance.value"},
    "remedy-restarts": {f"cards.{c}.restarts" for c in ("gasoline", "spare_tire", "repairs")},
    "combination-remedies": {f"cards.{c}.count" for c in ("gasoline", "spare_tire", "repairs", "end_of_limit", "roll")}
    | {
        f"cards.{c}"
        for c in ("full_service", "full_repair", "gas_n_go", "suv_driver", "roadside_assistance", "burn_rubber")
    },
}
# the options wikipedia applies that an option of CHANGES excludes (one exclusive group each)
EXCLUDED_ON = set(REFUSED)  # refused with a sentence (tests/test_option_edition_pairs.py says why)


def leaves(rs) -> dict[str, object]:
    out: dict[str, object] = {}

    def walk(prefix, value):
        if isinstance(value, dict):
            if "kind" in value and prefix.startswith("cards.") and prefix.count(".") == 1:
                pass
            for k, v in value.items():
                if k in ("source", "decided", "uncited"):
                    continue
                walk(f"{prefix}.{k}" if prefix else str(k), v)
        else:
            out[prefix] = value

    walk("", rs.model_dump(exclude={"applied_options"}))
    return out


def changed(a, b) -> set[str]:
    la, lb = leaves(a), leaves(b)
    out = set()
    for k in la.keys() | lb.keys():
        if la.get(k) != lb.get(k):
            # a new card shows as its own id (every field of it is new)
            parts = k.split(".")
            out.add(".".join(parts[:2]) if parts[0] == "cards" and parts[1] not in a.cards else k)
    return out


@pytest.mark.parametrize("option", sorted(CHANGES))
def test_option_changes_exactly_what_it_claims_over_winning_moves(option):
    assert changed(load_ruleset("winning-moves"), load_ruleset("winning-moves", [option])) == CHANGES[option]


@pytest.mark.parametrize("option", sorted(CHANGES))
@pytest.mark.parametrize("edition", EDITIONS)
def test_option_composes_onto_each_edition_it_does_not_contradict(edition, option):
    """Every edition keeps its deck size (combination remedies replace single ones one for one); the two
    options that contradict an option wikipedia applies are refused there, naming the group."""
    if (edition, option) in EXCLUDED_ON:
        with pytest.raises(RulesetError, match="cannot go with") as caught:
            load_ruleset(edition, [option])
        assert caught.value.refusal and REFUSED[(edition, option)] in str(caught.value)
        return
    base, rs = load_ruleset(edition), load_ruleset(edition, [option])
    assert rs.applied_options[-1] == option
    for n in rs.player_counts:
        assert sum(rs.deck_for(int(n)).values()) == sum(base.deck_for(int(n)).values())


@pytest.mark.parametrize("option", sorted(CHANGES))
def test_option_file_is_a_cited_patch(option):
    data = yaml.safe_load((ROOT / "rulesets" / "options" / f"{option}.yaml").read_text(encoding="utf-8"))
    assert data["kind"] == "option" and data["id"] == option and data["source"]
    assert "\n" not in data["description"]
    report = load_report("winning-moves", [option])
    assert report.warnings == []
    rs = report.ruleset
    for path in CHANGES[option]:
        parts = path.split(".")
        if parts[0] == "scoring" and parts[1] == "lines":
            assert rs.scoring.lines[parts[2]].source  # a score line carries its own citation
            continue
        node = rs
        for p in parts[:-1] if parts[-1] == "value" else parts[:2]:
            node = node[p] if isinstance(node, dict) else getattr(node, p)
        assert node.source or node.decided, path  # every value it sets says where it comes from


@pytest.mark.parametrize(
    "pair,group",
    [
        (("stacked-hazards", "hazard-on-hazard"), "covered-hazards"),
        (("remedy-restarts", "roll-after-safety"), "roll-after-fix"),
    ],
)
def test_contradicting_options_are_an_exclusive_group_with_a_reason(pair, group):
    result = CliRunner().invoke(app, ["show", "winning-moves", "--option", pair[0], "--option", pair[1]])
    assert result.exit_code == 2
    assert f"group '{group}'" in result.stderr
    for option in pair:
        data = yaml.safe_load((ROOT / "rulesets" / "options" / f"{option}.yaml").read_text(encoding="utf-8"))
        assert data["group"]["value"] == group and len(data["group"]["decided"]) > 40  # the sentence saying why


def write(tmp_path, text: str) -> Path:
    path = tmp_path / "rules.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_trip_the_distance_cards_cannot_make_exactly_is_a_warning_not_an_error(tmp_path):
    """333 miles from 25s, 50s, 75s, 100s and 200s: no side can ever complete it without overshoot."""
    path = write(
        tmp_path,
        'id: short\nname: Short\nextends: winning-moves\nplayer_counts:\n'
        '  "2": {target: 333, extension_to: null, decided: "a test"}\n',
    )
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    out = result.stdout + result.stderr
    assert f"{path.name}:5:" in out and "warning:" in out and "333" in out and "325 or 350" in out
    assert "option overshoot" in out
    with pytest.warns(mbrules.ruleset.RulesetWarning):
        load_ruleset(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_ruleset(path, ["overshoot"])  # overshoot on: the trip is completed by passing 333


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_bundled_trip_is_out_of_exact_reach(edition):
    assert load_report(edition).warnings == []


def test_stacked_and_covered_hazards_together_are_refused_in_a_custom_ruleset(tmp_path):
    path = write(
        tmp_path,
        "id: both\nname: Both\nextends: winning-moves\nplay:\n"
        "  hazard_on_hazard: {value: true, decided: x}\n  stacked_hazards: {value: true, decided: x}\n",
    )
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    assert "play.stacked_hazards and play.hazard_on_hazard are both true" in result.stdout + result.stderr


def test_a_go_card_that_restarts_or_a_speed_remedy_that_restarts_is_refused(tmp_path):
    path = write(
        tmp_path,
        "id: r\nname: R\nextends: winning-moves\ncards:\n  roll: {restarts: true}\n  end_of_limit: {restarts: true}\n",
    )
    result = CliRunner().invoke(app, ["validate", str(path)])
    out = result.stdout + result.stderr
    assert result.exit_code == 1
    assert "remedy 'roll' is a go card and restarts" in out
    assert "remedy 'end_of_limit' restarts the car but fixes no battle hazard" in out


def test_show_and_diff_say_each_new_rule_in_words():
    for option, words in (
        ("stacked-hazards", "battle hazards stack"),
        ("overshoot", "reaching or passing"),
        ("remedy-restarts", "no go card after it"),
        ("combination-remedies", "Burn Rubber"),
    ):
        result = CliRunner().invoke(app, ["diff", "winning-moves", "winning-moves", "--option", option])
        assert result.exit_code == 0, result.output
        assert words in " ".join(result.stdout.split()), (option, result.stdout)


@pytest.mark.parametrize("option", sorted(CHANGES))
def test_show_names_the_rule_each_option_changes(option):
    words = {
        "no-roll-under-right-of-way": "a go card may be played while the side's rolling safety is down: no",
        "safeties-not-discardable": "cards that may never be discarded: safety cards",
        "playable-not-discardable": "a card that could be played may be discarded: no",
        "stacked-hazards": "battle hazards stack, each fixed by its own remedy in any order: yes",
        "overshoot": "a trip is completed by reaching or passing the target: yes",
        "exact-finish-bonus": "landed exactly on the target",
        "safety-distance": "a safety also adds to its side's distance: 100 miles, unless that would pass the target",
        "remedy-restarts": "no go card after it",
        "combination-remedies": "SUV Driver",
    }
    result = CliRunner().invoke(app, ["show", "winning-moves", "--option", option])
    assert result.exit_code == 0
    assert words[option] in " ".join(result.stdout.split())  # show folds its lines to the output width


def test_undiscardable_kinds_never_leave_a_player_without_a_move(tmp_path):
    """A ruleset where nothing but safeties may be discarded: a hand of unplayable cards must still
    have a move (the engine lets the stuck player discard); api_test's checker fails a position
    with no legal action. One match (two were 0.9 CPU-s of the fast set, one is 0.5): the stuck player's discard
    forgotten, by the engine or by verify alone, is caught on its first hand (round 13)."""
    path = write(
        tmp_path,
        "id: nodiscard\nname: No discard\nextends: winning-moves\nplay:\n"
        "  undiscardable: {value: [distance, hazard, remedy], decided: a test}\n",
    )
    game = mbrules.load_game(path, players=2)
    api_test(game, matches=1)


def test_a_ruleset_may_keep_the_karma_cards_from_the_discard_pile(tmp_path):
    """play.undiscardable names kinds of card, and karma (False Virtue, option karma) is one of the five: a
    ruleset may keep it as safeties-not-discardable keeps safeties (the engine reads the kind of each card).
    A player holding False Virtue and any other card never discards it; show says so; every API check
    passes (a hand of False Virtues only may still be discarded: never a player without a move). Its api_test is
    also the fast set's of karma at 3 players (tests/test_new_rules.py's OWNED_ELSEWHERE, round 15)."""
    from mbrules.vocab import DISCARD

    path = write(
        tmp_path,
        "id: keep-virtue\nname: Keep False Virtue\nextends: winning-moves\noptions: [karma]\nplay:\n"
        "  undiscardable: {value: [karma], decided: a test}\n",
    )
    game = mbrules.load_game(path, players=3)
    virtue = game.card_ids.index("false_virtue")
    rng, held = random.Random(2), 0
    for seed in range(4):
        st = game.new_match(seed)
        while not st.hand_over:  # a hand each
            legal = st.legal_actions()
            hand = st.observation(st.current_player).hand
            thrown = any(a.op == DISCARD and a.card_index == virtue for a in legal)
            if virtue in hand and any(a.op == DISCARD for a in legal):
                if any(c != virtue for c in hand):
                    held += 1
                    assert not thrown
                else:  # nothing but False Virtues: discarded all the same (a move is never taken away)
                    assert thrown
            st.apply(rng.choice(legal))
    assert held  # the deals put a False Virtue in a hand that discarded
    out = CliRunner().invoke(app, ["show", str(path)], env={"COLUMNS": "240"}).stdout
    assert "cards that may never be discarded: karma cards" in out
    api_test(game, matches=1)


# every option x 4 table sizes, one random match each through every API check (two matches each were 128 CPU-s of
# make test, issue 46 point 7: the sizes and options are the sweep, a second match of the same table is not)
@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("option", sorted(CHANGES))
def test_api_test_passes_on_every_option_at_every_table_size(option, players, request):
    """The legality period: tests/api_sweeps.py (every table here is the slow set's)."""
    sweep_api_test(mbrules.load_game("winning-moves", players=players, options=[option]), request, seed=players)


@pytest.mark.parametrize("option", sorted(CHANGES))
def test_bots_play_every_option_legally_to_the_end(option):
    """Random and heuristic bots: every action they choose is legal (apply raises otherwise) and the
    match ends."""
    from mbrules.bots.base import make_bot

    game = mbrules.load_game("winning-moves", players=4, options=[option])
    for name in ("random", "heuristic"):
        st = game.new_match(11)
        bots = [make_bot(name, game, p, 5) for p in range(4)]
        for _ in range(20_000):
            if st.is_terminal():
                break
            p = st.current_player
            st.apply(bots[p].choose(st.observation(p), st.legal_actions()))
        assert st.is_terminal(), (name, option)


def test_the_stacked_hazards_of_a_side_are_in_its_observation():
    game = mbrules.load_game("winning-moves", players=2, options=["stacked-hazards"])
    rng = random.Random(3)
    seen = 0
    for seed in range(30):
        st = game.new_match(seed)
        while not st.is_terminal() and st.hand_no == 0:
            st.apply(rng.choice(st.legal_actions()))
            for s in range(2):
                view = st.observation(0).sides[s]
                assert tuple(view.hazards) == st.battle_hazards(s)
                seen += len(view.hazards) > 1
    assert seen > 0  # some positions with two hazards in force were reached


def _position(options, players, hands, sides, turn=0):
    """A hand set up card by card: ``hands`` and ``sides`` by card id; the rest of the deck is the draw pile."""
    from mbrules.engine import State

    g = mbrules.load_game("winning-moves", players=players, options=options)
    ix = g.index
    deck = list(g.deck)
    hands = [[ix[c] for c in h] for h in hands]
    table = {s: {k: [ix[c] for c in v] for k, v in piles.items()} for s, piles in sides.items()}
    for c in [x for h in hands for x in h] + [x for piles in table.values() for v in piles.values() for x in v]:
        deck.remove(c)
    return g, State.from_position(g, hands=hands, draw_top_first=deck, sides=table, turn=turn)


def test_the_narrator_tells_each_new_effect_in_player_words():
    from mbrules.narrate import Narrator

    rest = ["d25", "d50", "d75", "gasoline", "repairs"]
    g, st = _position(
        ["overshoot"],
        2,
        [["d100", *rest], ["d25", "d50", "d75", "d100", "stop", "roll"]],
        {0: {"battle": ["roll"], "distance": ["d200", "d200", "d100", "d100", "d50"]}},
    )
    st.apply("draw")
    line = Narrator(g).action(st.apply("play d100"))
    assert line == "p1 (A) plays 100 Miles: side A at 750 miles (50 past the target).  trip completed!"

    g, st = _position(
        ["remedy-restarts"],
        2,
        [["spare_tire", *rest], ["d25", "d50", "d75", "d100", "stop", "roll"]],
        {0: {"battle": ["roll", "flat_tire"]}},
    )
    st.apply("draw")
    assert Narrator(g).action(st.apply("play spare_tire")) == "p1 (A) plays Spare Tire (no Roll! needed after it)."

    g, st = _position(
        ["safety-distance"],
        2,
        [["extra_tank", *rest], ["d25", "d50", "d75", "d100", "stop", "roll"]],
        {0: {"battle": ["roll"], "distance": ["d100"]}},
    )
    st.apply("draw")
    assert (
        Narrator(g).action(st.apply("play extra_tank"))
        == "p1 (A) plays Extra Tank to the Safety Area: side A at 200 miles and plays again."
    )


def test_the_narrator_says_which_stacked_hazards_still_stop_a_side():
    from mbrules.narrate import Narrator

    g, st = _position(
        ["stacked-hazards"],
        2,
        [["repairs", "roll", "d25", "d50", "d75", "d100"], ["stop", "d25", "d50", "d75", "d100", "gasoline"]],
        {0: {"battle": ["roll", "accident"]}},
        turn=1,
    )
    words = Narrator(g)
    st.apply("draw")
    assert words.action(st.apply("play stop"), st) == (
        "p2 (B) plays Stop! on side A's Battle Pile: side A still stopped by Accident and Stop!"
    )
    st.apply("draw")
    assert words.action(st.apply("play repairs"), st) == "p1 (A) plays Repairs: side A still stopped by Stop!"


def test_a_refill_reshuffle_allowance_without_refills_is_a_warning(tmp_path):
    """turn.refill_reshuffles only counts for refill_empty_hand's refills: alone it changes no game, so
    validate says so (a warning, exit 0) rather than let an author believe the discard pile reshuffles."""
    path = write(
        tmp_path, "id: r\nname: R\nextends: winning-moves\nturn:\n  refill_reshuffles: {value: 3, decided: a test}\n"
    )
    result = CliRunner().invoke(app, ["validate", str(path)])
    out = result.stdout + result.stderr
    assert result.exit_code == 0, out
    assert f"{path.name}:5:" in out and "warning:" in out and "refill_empty_hand is false" in out
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        load_ruleset(path, ["refill-empty-hand"])  # the refill on: the allowance is used
    assert not [w for w in caught if "refill_empty_hand is false" in str(w.message)]
