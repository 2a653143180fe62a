"""A custom ruleset adds a battle hazard (Black Ice), its remedy (Salt) and its safety (Snow Tires):
it plays correctly with no engine change (contract: the engine is generic)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mbrules.engine import Action, Game, IllegalAction
from mbrules.vocab import BATTLE, HAZARD, REMEDY, SAFETY, DecisionKind
from mbrules.ruleset import load_ruleset
from mbrules.matches import play_match
from positions import position

CUSTOM = Path(__file__).parent / "data" / "custom-hazard.yaml"
A, B = 0, 1


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset(str(CUSTOM))


@pytest.fixture(scope="module")
def game(ruleset):
    return Game(ruleset, 4)


def c(game: Game, cid: str) -> int:
    return game.card(cid)


def act(game: Game, text: str) -> Action:
    return Action.parse(text, game)


def side(st, s: int):
    """Side ``s``'s table as every player sees it (the public view of the piles)."""
    return st.snapshot().sides[s]


def test_the_custom_cards_are_compiled_from_the_ruleset(ruleset, game):
    assert ruleset.id == "custom-hazard"
    assert ruleset.box.total.value == 118
    ice, salt, tires = c(game, "ice"), c(game, "salt"), c(game, "snow_tires")
    assert (game.kind[ice], game.kind[salt], game.kind[tires]) == (HAZARD, REMEDY, SAFETY)
    assert game.pile[ice] == BATTLE and game.pile[salt] == BATTLE
    assert game.deck_counts[ice] == 3 and game.deck_counts[salt] == 4 and game.deck_counts[tires] == 1
    assert len(game.deck) == 114
    assert game.protectors[ice] == (tires,)
    assert game.safety_cards_in_deck == 5
    # the 2-player game removes the classic hazards only; Black Ice keeps its three copies
    assert Game(ruleset, 2).deck_counts[ice] == 3


def test_black_ice_blocks_and_salt_then_roll_fix_it(game):
    st = position(game, {0: ["ice"], 1: ["salt", "roll", "d100"]}, {A: {"battle": ["roll"]}, B: {"battle": ["roll"]}})
    st.apply(st.legal_actions()[0])  # p1 draws
    ice_on_b = act(game, "play ice on B")
    assert ice_on_b in st.legal_actions()
    st.apply(ice_on_b)
    assert side(st, B).hazard == c(game, "ice") and not side(st, B).moving
    assert st.decision.kind == DecisionKind.TURN and st.decision.player == 1  # nobody on B holds Snow Tires: no window
    st.apply(st.legal_actions()[0])  # p2 draws
    legal = st.legal_actions()
    assert act(game, "play d100") not in legal and act(game, "play d100 on B") not in legal
    for words in ("play d100", "play d100 on B"):
        with pytest.raises(IllegalAction) as e:
            st.clone().apply(words)
        assert e.value.code == "cannot-move"
    for words in ("play roll", "play roll on B"):
        with pytest.raises(IllegalAction) as e:
            st.clone().apply(words)
        assert e.value.code == "nothing-to-fix"  # the Roll fixes the Stop, not Black Ice
    assert act(game, "play salt") in legal
    assert st.can_apply("play salt on B")
    st.apply("play salt")
    assert side(st, B).hazard == -1 and not side(st, B).moving  # a remedy, then a Roll (WM §6A)
    # p3, p4 and p1 discard, then p2 rolls
    for _ in range(3):
        st.apply(st.legal_actions()[0])
        st.apply(next(a for a in st.legal_actions() if a.kind == "discard"))
    assert st.decision == (DecisionKind.TURN, 1, False)
    st.apply(st.legal_actions()[0])
    st.apply("play roll")
    assert side(st, B).moving


def test_snow_tires_protect_against_black_ice(game):
    st = position(game, {0: ["ice"]}, {A: {"battle": ["roll"]}, B: {"battle": ["roll"], "safeties": ["snow_tires"]}})
    st.apply(st.legal_actions()[0])
    assert act(game, "play ice on B") not in st.legal_actions()
    for words in ("play ice on B", "play ice"):  # the only opposing side either way
        with pytest.raises(IllegalAction) as e:
            st.apply(words)
        assert e.value.code == "protected"


def test_snow_tires_cancel_black_ice_showing(game):
    st = position(game, {1: ["snow_tires", "d100"]}, {A: {"battle": ["roll"]}, B: {"battle": ["roll", "ice"]}}, turn=1)
    assert not side(st, B).moving
    st.apply(st.legal_actions()[0])
    st.apply("play snow_tires")
    assert c(game, "ice") in st.snapshot().discard  # 'cancels the attack in progress' (WM §6B)
    assert side(st, B).moving  # the Roll under it shows again
    assert st.decision == (DecisionKind.TURN, 1, False)  # and another turn
    st.apply(st.legal_actions()[0])
    st.apply("play d100")
    assert side(st, B).miles == 100


def test_coup_fourre_with_snow_tires_scores_300_plus_100(game):
    st = position(game, {0: ["ice"], 3: ["snow_tires"]}, {A: {"battle": ["roll"]}, B: {"battle": ["roll"]}})
    st.apply(st.legal_actions()[0])
    st.apply("play ice on B")
    d = st.decision
    assert d.kind == DecisionKind.COUP_FOURRE and d.player == 3  # p4, p1's partner's opponent, holds Snow Tires
    cf = act(game, "coup-fourre snow_tires")
    assert cf in st.legal_actions()
    st.apply(cf)
    assert side(st, B).coup_fourres == (c(game, "snow_tires"),)
    assert side(st, B).hazard == -1 and side(st, B).moving
    sheet = st.score_sheet()[B]
    assert sheet["safeties"] == 100 and sheet["coup_fourres"] == 300
    assert st.decision.player == 3  # the caller plays next (WM §7)


def test_all_safeties_needs_the_five(game):
    four = ["extra_tank", "puncture_proof", "driving_ace", "right_of_way"]
    st = position(game, {}, {A: {"battle": ["roll"], "safeties": four}, B: {"battle": ["roll"]}})
    assert st.score_sheet()[A]["all_safeties"] == 0
    assert st.score_sheet()[A]["safeties"] == 400
    st = position(
        game, {}, {A: {"battle": ["roll"], "safeties": four, "coups": ["snow_tires"]}, B: {"battle": ["roll"]}}
    )
    line = st.score_sheet()[A]
    assert line["all_safeties"] == 300 and line["safeties"] == 500 and line["coup_fourres"] == 300


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_whole_matches_play_with_black_ice(ruleset, players):
    g = Game(ruleset, players)
    ice = g.card("ice")
    ice_played = 0
    for seed in range(3):
        for bots in (["heuristic"], ["random"]):
            st = play_match(g, seed, bots)
            out = st.outcome
            assert st.match_over and out is not None and out.result is not None
            assert sum(out.totals.values()) == sum(sheet[s]["total"] for sheet in out.hand_sheets for s in g.side_names)
            ice_played += sum(1 for p, a in st.history if p >= 0 and a.kind == "play" and a.card_index == ice)
    assert ice_played > 0  # the bots play the new hazard
