"""mille_bornes_v1: the draw is never an agent step, the drawn card is in the next observation; state() is privileged."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra (pip install 'mbrules[rl]') is not installed")
np = pytest.importorskip("numpy", reason="the rl extra (pip install 'mbrules[rl]') is not installed")

import mbrules  # noqa: E402
from mbrules.env import mille_bornes_v0, mille_bornes_v1  # noqa: E402


def _play(env, seed, policy_seed=0, limit=10_000):
    """Uniform legal play; yields (agent, observation dict) at every live agent step."""
    rng = np.random.default_rng(policy_seed)
    env.reset(seed=seed)
    for n, agent in enumerate(env.agent_iter()):
        if n >= limit:
            return
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            env.step(None)
            continue
        yield agent, obs
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))


def test_v1_never_offers_the_draw_and_every_turn_starts_with_the_card_drawn():
    env = mille_bornes_v1.env(ruleset="winning-moves", players=4)
    at = {name: i for i, name in enumerate(env.encoder.names)}
    steps = 0
    for agent, obs in _play(env, 5):
        steps += 1
        assert obs["action_mask"][0] == 0  # index 0 is draw: never legal in v1
        assert obs["observation"][at["decision.draw"]] == 0.0
        st = env.state_
        if st.decision.kind == "turn" and st.observation(st.current_player).draw_pile > 0:
            assert len(st.observation(st.current_player).hand) == env.game.hand_size + 1  # six held plus the draw
    assert steps > 100


def test_v1_plays_the_engines_match_with_the_draws_left_out_of_the_agent_steps():
    # the same seed and the same non-draw choices give the engine's history; v1's steps are its non-draw actions
    env = mille_bornes_v1.env(ruleset="kids-115", players=2)
    for _ in _play(env, 11):
        pass
    hist = [(p, a) for p, a in env.state_.history if p >= 0]
    st = mbrules.load_game("kids-115", 2).new_match(11)
    for p, a in hist:
        assert st.current_player == p
        st.apply(a)
    assert st.is_terminal() and st.outcome == env.state_.outcome
    agent_steps = sum(env._steps.values())
    assert agent_steps == sum(1 for _p, a in hist if a.op != 0)


def test_v1_takes_about_half_the_steps_of_v0_for_a_match():
    v0 = mille_bornes_v0.env(ruleset="winning-moves", players=4)
    v1 = mille_bornes_v1.env(ruleset="winning-moves", players=4)
    n0 = sum(1 for _ in _play(v0, 2))
    n1 = sum(1 for _ in _play(v1, 2))
    assert n1 < 0.7 * n0


def test_state_is_the_whole_position_including_every_hidden_hand():
    env = mille_bornes_v1.env(ruleset="winning-moves", players=4)
    env.reset(seed=3)
    s = env.state()
    assert env.state_space.contains(s)
    n = env.game.n_cards
    snap = env.state_.snapshot()
    for p in range(4):
        assert list(s[p * n : (p + 1) * n]) == [float(snap.hands[p].count(c)) for c in range(n)]
    assert s[4 * n : 5 * n].sum() == len(snap.draw_pile)


@pytest.mark.parametrize("call", ["step", "observe", "state", "agent_iter"])
def test_v1_refuses_a_call_before_reset(call):
    env = mille_bornes_v1.env(ruleset="kids-115", players=2)
    args = {"step": (1,), "observe": ("p1",), "state": (), "agent_iter": ()}[call]
    with pytest.raises(RuntimeError, match="reset"):
        getattr(env, call)(*args)


def test_options_given_as_one_string_are_one_option_not_its_letters():
    env = mille_bornes_v1.env(ruleset="winning-moves", players=2, options="hazard-on-hazard")
    assert env.game.hazard_on_hazard
