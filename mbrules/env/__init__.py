"""Reinforcement-learning environments for any ruleset (the ``rl`` extra: ``pip install 'mbrules[rl]'``).

``from mbrules.env import mille_bornes_v0`` gives the PettingZoo AEC environment;
``import mbrules.openspiel`` registers the OpenSpiel game ``python_mille_bornes``. Both share the
action space and observation vector of :mod:`mbrules.env.encoding` (docs/rl.md).
"""
# ``from mbrules.env import mille_bornes_v0`` imports the submodule (and pettingzoo) only when asked.
