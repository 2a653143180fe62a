"""Option karma (issue 43): PlayAural's karma rule as data, through the public API.

The points of the rule are replayed by tests/conformance/options/opt-karma.yaml; these tests check what a
scenario cannot: the rule comes back with every hand, a ruleset that writes a karma card without the rule
is refused at its line, the cards a variant adds stay out of the box's count, the record of each action says
what karma did (so the narrator needs no rule of its own), and a ruleset without karma pays nothing for it."""

from __future__ import annotations

import random

import pytest

import mbrules
from mbrules.engine import State
from mbrules.narrate import Narrator, why_not
from mbrules.ruleset import RulesetError, load_ruleset


def _game(players: int = 3):
    return mbrules.load_game("winning-moves", players=players, options=["karma"])


def _position(g, karma: dict[int, bool], hand0: list[str]):
    """p1 to play with ``hand0`` (after its draw), every other hand dealt from the rest; sides rolling."""
    ix = g.index
    deck = list(g.deck)
    hands = [[ix[c] for c in hand0]]
    for c in hands[0]:
        deck.remove(c)
    sides = {s: {"battle": [ix["roll"]], "karma": karma.get(s, True)} for s in range(g.sides)}
    for _ in sides:
        deck.remove(ix["roll"])
    for _ in range(1, g.players):
        hands.append([deck.pop(deck.index(ix[c])) for c in ("d25", "d50", "d75", "d100", "gasoline", "d25")])
    st = State.from_position(g, hands=hands, draw_top_first=deck, sides=sides)
    st.step(g.draw_action)  # p1's draw: it now plays
    return st


def test_every_side_has_its_karma_again_at_each_new_hand():
    """PlayAural state.py RaceState.reset (each race): has_karma = True for every team, whatever the last hand did."""
    g = _game()
    st = g.new_match(3)
    rng = random.Random(3)
    lost = False
    while not st.is_terminal() and st.hand_no == 0:
        t = st.apply(rng.choice(st.legal_actions()))
        lost = lost or bool(t.karma_lost)
    assert lost, "no side lost its karma in the first hand"
    assert st.hand_no == 1 and all(v.karma for v in st.snapshot().sides)


def test_a_neutralised_attack_is_recorded_and_told_without_a_rule_of_the_narrator():
    g = _game()
    st = _position(g, {}, ["accident", "d25", "d50", "d75", "d100", "false_virtue"])
    t = st.apply("play accident on B")
    assert t.neutralised and t.karma_lost == (0, 1) and t.swept == (g.index["accident"],)
    assert t.next_decision == "turn" and t.next_player == 1  # no coup fourré window, whoever holds the ace
    words = Narrator(g).action(t)
    assert "neutralised" in words and "lose their karma" in words


def test_a_shunned_attacker_is_recorded_and_its_refusal_worded_for_people():
    g = _game()
    st = _position(g, {1: False}, ["stop", "d25", "d50", "d75", "d100", "false_virtue"])
    assert why_not(st, 0, g.index["false_virtue"]).startswith("you still have your karma")
    t = st.apply("play stop on B")
    assert t.karma_lost == (0,) and not t.neutralised and "shunned" in Narrator(g).action(t)
    snap = st.snapshot()
    assert [v.karma for v in snap.sides] == [False, False, True]
    assert snap.sides[1].battle[-1] == g.index["stop"]


def test_a_side_without_karma_is_told_why_it_may_not_attack_a_side_with_karma():
    g = _game()
    st = _position(g, {0: False}, ["stop", "d25", "d50", "d75", "d100", "false_virtue"])
    with pytest.raises(mbrules.IllegalAction) as refused:
        st.verify("play stop on C")
    assert refused.value.code == "shunned"
    assert why_not(st, 0, g.index["stop"]).startswith("you have lost your karma")
    names = [str(a) for a in st.legal_actions()]
    assert "play stop on C" not in names and "play stop on B" not in names  # both still have theirs
    t = st.apply("play false_virtue")
    assert t.karma_regained and st.snapshot().sides[0].karma_cards == (g.index["false_virtue"],)


def test_a_karma_card_without_the_karma_rule_is_refused_at_its_line(tmp_path):
    f = tmp_path / "virtue.yaml"
    f.write_text(
        "id: virtue\nname: Virtue\nextends: winning-moves\nbox: {added_cards: [false_virtue]}\n"
        "cards:\n  false_virtue: {kind: karma, name: False Virtue, count: 2}\n",
        encoding="utf-8",
    )
    with pytest.raises(RulesetError) as caught:
        load_ruleset(f)
    assert "virtue.yaml:6:" in str(caught.value) and "karma.enabled is false" in str(caught.value)


def test_cards_a_variant_adds_are_dealt_but_not_counted_in_the_box():
    rs = load_ruleset("winning-moves", ["karma"])
    assert rs.box.total.value == 110 and rs.deck_for(4)["false_virtue"] == 2
    assert len(_game(4).deck) == 108


def test_a_ruleset_without_karma_has_no_karma_anywhere():
    """Off, every side's karma is False, so the hot loop's one test (a hazard's) short-circuits at once, no
    record says karma and no view shows it."""
    g = mbrules.load_game("winning-moves", players=3)
    st = g.new_match(1)
    rng = random.Random(1)
    for _ in range(300):
        t = st.apply(rng.choice(st.legal_actions()))
        assert not (t.karma_lost or t.neutralised or t.karma_regained)
    assert all(v.karma is None for v in st.snapshot().sides)
    assert "karma" not in st.observation(0).to_dict()["sides"]["A"]
