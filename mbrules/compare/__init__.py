"""What a variant does to the game: two arms played on the same seeds, metrics with 95% intervals,
paired differences flagged with Holm's correction, each flagged effect checked with other bots, a
skill ladder, restricted play, a headline in words, charts, an HTML report and per-game export.

One call does it all (the command ``mbrules compare`` is a thin layer over it)::

    from mbrules.compare import run_compare
    cmp = run_compare("winning-moves", options_b=["hazard-on-hazard"], players=4, games=1000)
    cmp.summary          # the headline: [{"metric": ..., "text": ...}, ...]
    cmp.document()       # what --json prints
"""

from .run import Comparison, run_compare

__all__ = ["Comparison", "run_compare"]
