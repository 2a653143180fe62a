"""The PettingZoo AEC environment passes PettingZoo's own checks, for every bundled ruleset at 2 and 4 players."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra (pip install 'mbrules[rl]') is not installed")
np = pytest.importorskip("numpy", reason="the rl extra (pip install 'mbrules[rl]') is not installed")

import mbrules  # noqa: E402
from mbrules.env import mille_bornes_v0, mille_bornes_v1  # noqa: E402
from mbrules.env.encoding import ActionSpace  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from mbrules.testing import tables  # noqa: E402
from tiers import one_each  # noqa: E402

RULESETS = ("parker-1971", "winning-moves", "kids-115", "wikipedia", "dujardin-classic")
NEW = ("asmodee-2014", "express")  # issue 36: the two newest editions at every player count their rules name
TABLES = [(r, n) for r in RULESETS for n in (2, 4)] + [(r, n) for r, n in tables() if r in NEW]


VERSIONS = [mille_bornes_v0, mille_bornes_v1]


# api_test's three advice warnings (not failures), each left by design (16 tables x 3 = the 48 of every run):
API_ADVICE = [
    # seats are the contract's player names (p1, p2, ...), the names every other output uses
    r"ignore:We recommend agents to be named in the format:UserWarning",
    # a Dict space {observation, action_mask}: PettingZoo's own layout for classic card and board games (its
    # api_test whitelists its own such envs by name: chess, go, ...), so that a policy masks illegal actions
    r"ignore:Observation space for each agent probably should be:UserWarning",
    r"ignore:Observation is not a NumPy array:UserWarning",
]


@pytest.mark.slow
@pytest.mark.parametrize("version", VERSIONS, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
@pytest.mark.parametrize("ruleset,players", TABLES)
@pytest.mark.filterwarnings(*API_ADVICE)
def test_pettingzoo_api_test_passes(ruleset, players, version):
    api_test(version.env(ruleset=ruleset, players=players), num_cycles=300)


@pytest.mark.parametrize(
    ("ruleset", "players", "version"),
    # the fast set: each edition at one table and version, in turn; the slow set: the others
    one_each(
        [(r, n, v) for r, n in TABLES for v in VERSIONS],
        key=lambda c: c[0],
        ids=lambda c: f"{c[2].__name__.rsplit('.', 1)[-1]}-{c[0]}-{c[1]}",
    ),
)
def test_pettingzoo_seed_test_passes(ruleset, players, version):
    seed_test(lambda: version.env(ruleset=ruleset, players=players), num_cycles=100)


def _random_episode(env, seed):
    """Uniform legal play to the end: steps and (terminated, truncated) per agent, the rewards each
    agent collected, and the outcome the last agent to end was shown."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = {a: 0 for a in env.possible_agents}
    total = {a: 0.0 for a in env.possible_agents}
    ended = {}
    outcome = None
    for agent in env.agent_iter():
        obs, r, term, trunc, info = env.last()
        steps[agent] += 1
        total[agent] += r
        if term or trunc:
            ended[agent] = (term, trunc)
            outcome = info.get("outcome", outcome)
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    return steps, ended, total, outcome


@pytest.mark.parametrize("max_cycles", [1, 4, 9])
def test_max_cycles_truncates_once_an_agent_has_taken_that_many_steps(max_cycles):
    # PettingZoo's max_cycles_test, AEC half: the busiest agent is visited max_cycles + 1 times
    # (its last visit is the dead step). Its parallel half and its median check need every agent
    # to act each cycle, which a turn-based card game cannot (docs/rl.md).
    env = mille_bornes_v0.env(ruleset="winning-moves", players=4, max_cycles=max_cycles)
    steps, ended, _, _ = _random_episode(env, 3)
    assert max(steps.values()) == max_cycles + 1
    assert ended == {a: (False, True) for a in env.possible_agents}


def test_action_mask_is_exactly_the_engines_legal_actions():
    env = mille_bornes_v0.env(ruleset="wikipedia", players=4, options=["hazard-on-hazard"])
    env.reset(seed=11)
    raw = env.unwrapped
    rng = np.random.default_rng(0)
    for _ in range(400):
        agent = env.agent_selection
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            break
        st = raw.state_
        words = sorted(raw.space.actions[i]._text for i in np.flatnonzero(obs["action_mask"]))
        assert words == sorted(str(a) for a in st.legal_actions())
        for other in env.possible_agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))


def test_action_space_lists_every_action_once_with_hazards_naming_each_side():
    g = mbrules.load_game("winning-moves", players=6)
    space = ActionSpace(g)
    words = space.words()
    assert len(set(words)) == len(words)
    assert words[:4] == ["draw", "decline", "extend", "stop"]
    assert {
        "play stop on A",
        "play stop on B",
        "play stop on C",
        "play d200",
        "discard d200",
        "coup-fourre driving_ace",
    } <= set(words)
    assert "coup-fourre d200" not in words and "play d200 on A" not in words


def test_match_reward_is_zero_sum_and_pays_the_winning_side():
    env = mille_bornes_v0.env(ruleset="kids-115", players=4)
    _, _, total, outcome = _random_episode(env, 5)
    assert sum(total.values()) == pytest.approx(0.0)
    if outcome["winner"] is not None:
        side = "AB".index(outcome["winner"])
        assert [total[f"p{i + 1}"] for i in range(4)] == [1.0 if i % 2 == side else -1.0 for i in range(4)]


def test_points_reward_adds_up_to_each_sides_match_total():
    env = mille_bornes_v0.env(ruleset="winning-moves", players=2, reward="points")
    _, _, total, outcome = _random_episode(env, 2)
    totals = outcome["totals"]
    assert total == {"p1": float(totals["A"]), "p2": float(totals["B"])}


def test_reset_with_a_seed_plays_the_engines_match_of_that_seed():
    env = mille_bornes_v0.env(ruleset="parker-1971", players=2)
    env.reset(seed=42)
    st = mbrules.load_game("parker-1971", players=2).new_match(42)
    assert env.unwrapped.state_.observation(0) == st.observation(0)
    env.reset()
    assert env.unwrapped.state_.observation(1) == mbrules.load_game("parker-1971", 2).new_match(43).observation(1)


def test_observation_never_shows_another_hand():
    # two matches whose hidden cards differ give the same vector for a seat that saw the same things
    env = mille_bornes_v0.env(ruleset="winning-moves", players=2)
    raw = env.unwrapped
    env.reset(seed=1)
    vec = env.observe("p1")["observation"].copy()
    expected = raw.encoder.encode(raw.state_.observation(0), 0, [line["total"] for line in raw.state_.score_sheet()])
    assert np.allclose(vec, np.asarray(expected, dtype=np.float32))
    assert raw.observation_space("p1")["observation"].contains(vec)


def test_render_ansi_shows_the_table_and_the_seat_to_act():
    env = mille_bornes_v0.env(ruleset="winning-moves", players=4, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert "side A (p1 p3)" in text and "p1 holds:" in text and "legal: draw" in text


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"reward": "money"}, "reward must be"),
        ({"render_mode": "rgb_array"}, "render_mode must be"),
        ({"max_cycles": 0}, "max_cycles must be"),
    ],
)
def test_bad_parameters_are_refused_with_a_sentence(kwargs, message):
    with pytest.raises(ValueError, match=message):
        mille_bornes_v0.env(**kwargs)


def test_an_illegal_action_is_refused_with_the_legal_ones():
    env = mille_bornes_v0.env(ruleset="winning-moves", players=2)
    env.reset(seed=1)
    with pytest.raises(ValueError, match="legal: draw"):
        env.step(env.unwrapped.space.index[int(env.unwrapped.game.stop_action)])
