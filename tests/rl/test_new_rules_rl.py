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


@pytest.mark.parametrize("players", [2, pytest.param(4, marks=pytest.mark.slow)])  # 4: a whole match of 4 cars
def test_openspiel_random_simulation_plays_the_playaural_table(players):
    pyspiel.random_sim_test(load("playaural", players=players), num_sims=1, serialize=False, verbose=False)


def test_gymnasium_episode_on_the_playaural_table_at_four_cars_ends_with_the_match():
    env = single_agent_env(ruleset="playaural", players=4, opponents="random")
    terminated, _ = _episode(env, 3, 20000, first=True)
    assert terminated


def test_gymnasium_episode_with_the_empty_pile_ending_the_race():
    env = single_agent_env(ruleset="winning-moves", players=2, opponents="heuristic", options="empty-pile-ends-hand")
    terminated, reward = _episode(env, 1, 5000)
    assert terminated and reward in (-1.0, 0.0, 1.0)


def _episode(env, seed: int, steps: int, first: bool = False) -> tuple[bool, float]:
    """One episode, the agent taking the first (``first``) or the last legal action: (terminated, last reward)."""
    obs, info = env.reset(seed=seed)
    terminated, reward = False, 0.0
    for _ in range(steps):
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(legal[0] if first else legal[-1]))
        if terminated or truncated:
            break
    return terminated, reward


def _karma_after_a_neutralised_attack():
    """A three-player karma match played at random until an attack is neutralised: its game and state."""
    import mbrules

    g = mbrules.load_game("winning-moves", players=3, options=["karma"])
    st = g.new_match(2)
    rng = random.Random(2)
    while not st.is_terminal():
        if st.apply(rng.choice(st.legal_actions())).neutralised:
            return g, st
    raise AssertionError("no attack was neutralised in a whole match")


def test_rl_observation_shows_each_side_s_karma_from_the_observer_s_seat():
    """Option karma: the vector ends with karma[+k], each side's karma seen from the observer's side, and the
    fast writer (compact) writes what the encoder reads from the Observation."""
    from mbrules.env.encoding import ObservationEncoder

    g, st = _karma_after_a_neutralised_attack()
    enc = ObservationEncoder(g)
    names = list(enc.names)
    at = names.index("karma[+0]")
    assert names[at : at + 3] == ["karma[+0]", "karma[+1]", "karma[+2]"]
    for p in range(g.players):
        obs = st.observation(p)
        want = [1.0 if obs.sides[(obs.side + k) % 3].karma else 0.0 for k in range(3)]
        assert list(enc.encode_state(st, p))[at : at + 3] == want
        assert want.count(0.0) >= 2  # the two sides of the neutralised attack lost theirs
    assert "karma[+0]" not in ObservationEncoder(mbrules_game_without_karma()).names


def mbrules_game_without_karma():
    import mbrules

    return mbrules.load_game("winning-moves", players=3)


def test_openspiel_random_simulation_plays_karma_at_three_sides():
    pyspiel.random_sim_test(load(options="karma", players=3), num_sims=2, serialize=False, verbose=False)


def test_gymnasium_episode_with_karma_plays_false_virtue_through_the_action_mask():
    """The karma card is an action of the space (play false_virtue); a whole episode ends with the match."""
    env = single_agent_env(ruleset="winning-moves", players=3, opponents="heuristic", options="karma")
    assert "play false_virtue" in env.unwrapped.space.words()
    terminated, _ = _episode(env, 4, 20000)
    assert terminated
