"""Hostile RL table (issue 22 item 5): an action index outside 0..N-1 is a ValueError naming the range, in every
entry point, and nothing is played or recorded; never counted from the end, never a bare IndexError."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra (pip install 'mbrules[rl]') is not installed")
np = pytest.importorskip("numpy", reason="the rl extra (pip install 'mbrules[rl]') is not installed")
pyspiel = pytest.importorskip("pyspiel")

import mbrules.openspiel  # noqa: E402,F401
from mbrules.env import mille_bornes_v0, mille_bornes_v1, single_agent_env  # noqa: E402

N = 51  # actions of winning-moves at 2 players
BAD = [-51, -1, N, N + 1, 10**6]
RANGE = rf"0\.\.{N - 1}"


def _player_node(draws="chance"):
    game = pyspiel.load_game(
        "python_mille_bornes", {"ruleset": "winning-moves", "players": 2, "hands": 1, "draws": draws}
    )
    s = game.new_initial_state()
    k = 0
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[k % len(s.chance_outcomes())][0])
        k += 1
    return s


@pytest.mark.parametrize("index", BAD)
@pytest.mark.parametrize("draws", ["chance", "player"])
def test_openspiel_apply_action_out_of_range_is_a_value_error_and_leaves_the_history(index, draws):
    s = _player_node(draws)
    before = (s.history(), str(s))
    with pytest.raises(ValueError, match=RANGE):
        s.apply_action(index)
    assert (s.history(), str(s)) == before


@pytest.mark.parametrize("index", [-1, -19, 19, 10**6])
def test_openspiel_chance_outcome_out_of_range_is_a_value_error(index):
    game = pyspiel.load_game("python_mille_bornes", {"ruleset": "winning-moves", "players": 2})
    s = game.new_initial_state()
    with pytest.raises(ValueError, match=r"0\.\.18"):
        s.apply_action(index)
    assert s.history() == []


@pytest.mark.parametrize("index", BAD)
def test_openspiel_action_to_string_out_of_range_is_a_value_error(index):
    s = _player_node()
    with pytest.raises(ValueError, match=RANGE):
        s.action_to_string(0, index)


def test_openspiel_chance_action_to_string_out_of_range_is_a_value_error():
    s = _player_node()
    with pytest.raises(ValueError, match=r"0\.\.18"):
        s.action_to_string(pyspiel.PlayerId.CHANCE, -1)


def test_openspiel_an_in_range_action_the_rules_refuse_is_a_value_error_with_the_legal_ones():
    s = _player_node()
    before = s.history()
    with pytest.raises(ValueError, match="legal now"):
        s.apply_action(3)  # stop: no extension question is open
    assert s.history() == before


@pytest.mark.parametrize("index", BAD + [np.int64(-1), True, 1.5, "3", None])
@pytest.mark.parametrize(
    "make",
    [
        lambda: mille_bornes_v0.raw_env(ruleset="winning-moves", players=2),
        lambda: mille_bornes_v0.env(ruleset="winning-moves", players=2),
        lambda: mille_bornes_v1.env(ruleset="winning-moves", players=2),
    ],
    ids=["v0-raw_env", "v0-env", "v1-env"],
)
def test_pettingzoo_step_out_of_range_is_a_value_error_and_plays_nothing(make, index):
    env = make()
    env.reset(seed=1)
    st = env.unwrapped.state_
    before = (len(st.history), env.agent_selection)
    with pytest.raises(
        ValueError, match=RANGE if not isinstance(index, (float, str, bool)) and index is not None else "integer index"
    ):
        env.step(index)
    assert (len(st.history), env.agent_selection) == before


@pytest.mark.parametrize("index", BAD + [np.int64(N), 2.0])
def test_single_agent_env_step_out_of_range_is_a_value_error_and_plays_nothing(index):
    env = single_agent_env(ruleset="winning-moves", players=2, opponents="random")
    env.reset(seed=1)
    before = len(env.state_.history)
    with pytest.raises(ValueError, match=RANGE if not isinstance(index, float) else "integer index"):
        env.step(index)
    assert len(env.state_.history) == before
