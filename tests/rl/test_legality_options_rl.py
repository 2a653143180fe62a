"""The RL environments play issue 35's legality options (stacked hazards in the observation vector,
the discard restrictions in the action masks): PettingZoo's and OpenSpiel's own checks on each."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra (pip install 'mbrules[rl]') is not installed")

from mbrules.env import mille_bornes_v0, mille_bornes_v1  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

OPTIONS = [
    "no-roll-under-right-of-way",
    "safeties-not-discardable",
    "playable-not-discardable",
    "combination-remedies",
    "remedy-restarts",
    "stacked-hazards",
    "overshoot",
    "safety-distance",
]


@pytest.mark.slow  # 8 options x 2 envs of PettingZoo's api_test (about a minute of CPU)
@pytest.mark.parametrize("version", [mille_bornes_v0, mille_bornes_v1], ids=lambda m: m.__name__.rsplit(".", 1)[-1])
@pytest.mark.parametrize("option", OPTIONS)
def test_pettingzoo_api_test_passes_on_each_legality_option(option, version):
    api_test(version.env(ruleset="winning-moves", players=4, options=[option]), num_cycles=200)


# the fast set: the first option (each option's rule is checked in the engine's fast tests); the slow set: the rest
@pytest.mark.parametrize("option", [OPTIONS[0]] + [pytest.param(o, marks=pytest.mark.slow) for o in OPTIONS[1:]])
def test_openspiel_random_sim_test_passes_on_each_legality_option(option):
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")
    import mbrules.openspiel as mos

    game = pyspiel.load_game(mos.SHORT_NAME, {"ruleset": "winning-moves", "players": 2, "hands": 1, "options": option})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
