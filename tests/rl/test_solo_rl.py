"""A one-player table (option solo) in the learning environments: Gymnasium's single agent with no
opponent, PettingZoo with one agent, and OpenSpiel's clear refusal (its game is registered zero-sum
between sides, and a lone side has nothing to sum against)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (pip install 'mbrules[rl]') is not installed")
pytest.importorskip("gymnasium", reason="the rl extra (pip install 'mbrules[rl]') is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pip install 'mbrules[rl]') is not installed")

from mbrules.env import mille_bornes_v1, single_agent_env  # noqa: E402


def test_solo_single_agent_env_plays_a_whole_match_with_no_opponent():
    """The agent is the only seat: no opponent bot, every decision is its own, and the match reward is
    +1 (the lone side wins a finished match)."""
    env = single_agent_env(ruleset="winning-moves", players=1, opponents=[], options=["solo"])
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    total, steps = 0.0, 0
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        obs, r, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
        total += r
        steps += 1
        if term or trunc:
            break
    assert term and not trunc and total == 1.0 and steps > 10


def test_solo_single_agent_env_refuses_an_opponent_at_a_one_player_table():
    """One seat leaves no other seat for a bot: naming one is a clear error."""
    with pytest.raises(ValueError, match="opponents"):
        single_agent_env(ruleset="winning-moves", players=1, opponents=["heuristic"], options=["solo"])


def test_solo_pettingzoo_env_has_one_agent_and_plays_to_the_end():
    env = mille_bornes_v1.env(ruleset="winning-moves", players=1, options=["solo"])
    env.reset(seed=1)
    assert env.possible_agents == ["p1"]
    rng = np.random.default_rng(0)
    steps = 0
    for agent in env.agent_iter(max_iter=20_000):
        assert agent == "p1"
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert not env.agents and steps > 10


def test_solo_openspiel_refuses_a_one_side_table_clearly():
    pyspiel = pytest.importorskip("pyspiel", reason="the rl extra (pip install 'mbrules[rl]') is not installed")
    import mbrules.openspiel as mos

    with pytest.raises(Exception, match="zero-sum game of 2 or more sides"):
        pyspiel.load_game(mos.SHORT_NAME, {"ruleset": "winning-moves", "players": 1, "options": "solo"})
