"""Mille Bornes as an OpenSpiel game: ``import mbrules.openspiel`` registers ``python_mille_bornes``.

The adapter lives beside the other environments, in :mod:`mbrules.env.openspiel`; this name stays the
contract's (``import mbrules.openspiel``) and is that very module: its names, its registration, its state.
"""

from __future__ import annotations

import sys

from .env import openspiel as _adapter

sys.modules[__name__] = _adapter
