"""The rules of issue 43 in the learning environments: the programs' tables (playaural: four cars, a
reshuffled pile, queued coup fourré turns, safeties replaced at once) and the options that end a hand
at the empty draw pile or replace a safety, through OpenSpiel, Gymnasium and PettingZoo."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the rl extra (pip install 'mbrules[rl]') is not installed")
np = pytest.importorskip("numpy", reason="the rl extra (pip install 'mbrules[rl]') is not installed")

import mbrules.openspiel as mos  # noqa: E402
from mbrules.env import single_agent_env  # noqa: E402
from mbrules.vocab import PLAY, SAFETY  # noqa: E402


def load(ruleset="winning-moves", options="", players=2, **params):
    return pyspiel.load_game(
        mos.SHORT_NAME, {"ruleset": ruleset, "players": players, "hands": 1, "options": options, **params}
    )


def test_openspiel_a_replaced_safety_s_card_is_a_chance_outcome():
    """With safety-replacement-draw the card that replaces a safety is drawn when it is played: with
    draws=chance it must be a chance node's outcome (its odds the draw pile's), not a card the engine
    took from its own shuffle."""
    g = load(options="safety-replacement-draw")
    seen = 0
    for seed in range(30):
        rng = random.Random(seed)
        s = g.new_initial_state()
        while not s.is_terminal() and seen <= seed:
            if s.is_chance_node():
                outs = s.chance_outcomes()
                s.apply_action(rng.choices([c for c, _ in outs], [p for _, p in outs])[0])
                continue
            acts = s.legal_actions()
            safeties = [
                a
                for a in acts
                if (x := s.mb_state.game.action(s.action_to_string(s.current_player(), a))).op == PLAY
                and s.mb_state.game.kind[x.card_index] == SAFETY
            ]
            if safeties and s.mb_state.observation(s.current_player()).draw_pile:
                s.apply_action(safeties[0])
                assert s.is_chance_node(), "the replacement card came without a chance node"
                seen += 1
                break
            s.apply_action(rng.choice(acts))
    assert seen, "no safety was played in turn in 30 random hands"


@pytest.mark.parametrize("players", [2, 4])
def test_openspiel_random_simulation_plays_the_playaural_table(players):
    pyspiel.random_sim_test(load("playaural", players=players), num_sims=1, serialize=False, verbose=False)


def test_gymnasium_episode_on_the_playaural_table_at_four_cars_ends_with_the_match():
    env = single_agent_env(ruleset="playaural", players=4, opponents="random")
    obs, info = env.reset(seed=3)
    for _ in range(20000):
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(legal[0]))
        if terminated or truncated:
            break
    assert terminated


def test_gymnasium_episode_with_the_empty_pile_ending_the_race():
    env = single_agent_env(ruleset="winning-moves", players=2, opponents="heuristic", options="empty-pile-ends-hand")
    obs, info = env.reset(seed=1)
    for _ in range(5000):
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(legal[-1]))
        if terminated or truncated:
            break
    assert terminated and reward in (-1.0, 0.0, 1.0)
