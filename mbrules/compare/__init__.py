"""What a variant does to the game: two arms played on the same seeds, metrics with 95% intervals,
paired differences flagged with Holm's correction, charts, an HTML report and per-game export.

``mbrules compare`` is the command; :func:`mbrules.compare.run.run_arm` plays an arm,
:func:`mbrules.compare.metrics.evaluate` compares two, :mod:`mbrules.compare.report` writes them.
"""
