"""Tune a house rule: sweep a ruleset value over paired matches and see the response.

One call does it (the command ``mbrules sweep`` is a thin layer over it)::

    from mbrules.sweep import run_sweep
    sw = run_sweep("winning-moves", ["player_counts.2.target=500..900:200"], players=2, games=200)
    sw.summary        # the headline in words
    sw.document()     # what --json prints: points, one per value, each with its metrics and intervals
"""

from .run import Sweep, run_sweep
from .values import SetError

__all__ = ["SetError", "Sweep", "run_sweep"]
