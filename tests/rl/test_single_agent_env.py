"""single_agent_env: a Gymnasium env of one seat against named bots, passing Gymnasium's own checker."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium", reason="the rl extra (pip install 'mbrules[rl]') is not installed")
np = pytest.importorskip("numpy", reason="the rl extra (pip install 'mbrules[rl]') is not installed")

import mbrules  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from mbrules.env import single_agent_env  # noqa: E402


def _episode(env, seed, policy_seed=0):
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0 and obs["action_mask"][0] == 0  # the draw (index 0) is never asked
        obs, r, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
        total += r
        steps += 1
        if term or trunc:
            return total, steps, info


@pytest.mark.parametrize(
    "ruleset,players,opponents",
    [
        ("winning-moves", 2, "heuristic"),
        ("kids-115", 4, "random"),
        ("parker-1971", 3, ["random", "heuristic"]),
    ],
)
def test_gymnasium_check_env_passes(ruleset, players, opponents):
    env = single_agent_env(ruleset=ruleset, players=players, opponents=opponents)
    check_env(env, skip_render_check=True)


def test_a_seeded_episode_is_the_same_twice_and_ends_with_the_match_outcome():
    env = single_agent_env(ruleset="winning-moves", players=2, opponents="heuristic")
    a = _episode(env, 7)
    b = _episode(env, 7)
    assert a[0] == b[0] and a[1] == b[1] and a[2]["outcome"] == b[2]["outcome"]
    result = a[2]["outcome"]["result"]
    assert a[0] == {"A": 1.0, "B": -1.0}.get(result, 0.0)  # seat 0 is side A


def test_points_reward_adds_up_to_the_agents_side_match_total():
    env = single_agent_env(ruleset="winning-moves", players=4, opponents="random", reward="points")
    total, _steps, info = _episode(env, 3)
    assert total == info["outcome"]["totals"]["A"]


def test_the_bots_play_the_other_seats_as_in_a_simulated_match():
    # the agent plays what the heuristic would: the match is simulate's heuristic match of that seed
    from mbrules.bots import make_bot
    from mbrules.matches import play_match

    env = single_agent_env(ruleset="winning-moves", players=2, opponents="heuristic")
    obs, info = env.reset(seed=12)
    me = make_bot("heuristic", env.game, 0, 12)
    while True:
        st = env.state_
        choice = me.choose(st.observation(0), st.legal_actions())
        obs, r, term, trunc, info = env.step(env.space.index[int(choice)])
        if term:
            break
    assert info["outcome"] == play_match(env.game, 12, ["heuristic"]).outcome.to_dict()


def test_an_illegal_action_loses_the_episode_or_raises_when_asked():
    env = single_agent_env(ruleset="winning-moves", players=2, opponents="random")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, r, term, trunc, info = env.step(illegal)
    assert (r, term) == (-1.0, True) and "illegal_action" in info
    env = single_agent_env(ruleset="winning-moves", players=2, opponents="random", illegal="raise")
    env.reset(seed=1)
    with pytest.raises(ValueError, match="legal:"):
        env.step(illegal)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"opponents": "grandmaster"}, "unknown bot"),
        ({"opponents": ["random", "random"]}, "one per other seat"),
        ({"seat": 2}, "seat must be"),
        ({"reward": "money"}, "reward must be"),
        ({"illegal": "ignore"}, "illegal must be"),
    ],
)
def test_bad_parameters_are_refused_with_a_sentence(kwargs, message):
    with pytest.raises(ValueError, match=message):
        single_agent_env(ruleset="winning-moves", players=2, **kwargs)


def test_the_agent_may_sit_in_any_seat_with_partners_played_by_bots():
    env = single_agent_env(ruleset="winning-moves", players=4, opponents="random", seat=3)
    total, steps, info = _episode(env, 5)
    assert steps > 10 and env.state_.is_terminal()
    assert mbrules.load_game("winning-moves", 4).side_of[3] == 1
