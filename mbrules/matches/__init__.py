"""Running many matches: one match, many on a backend, their statistics, and the ladder.

- :mod:`~mbrules.matches.loop`: :func:`play_match` (one match between bots) and the one seed recipe
  (:func:`derive_seed`, :func:`game_seed`);
- :mod:`~mbrules.matches.base`: where matches run, one interface (:class:`Backend`) over this machine
  (:mod:`~mbrules.matches.local`: this process or a process pool) and a Ray cluster
  (:mod:`~mbrules.matches.cluster`), picked by name with :func:`make_backend`; the one chunker (:func:`chunks`);
- :mod:`~mbrules.matches.records`: one :class:`MatchRecord` a match (with its :class:`HandRecord` s), the
  facts every statistic is read from;
- :mod:`~mbrules.matches.metrics`: the metric registry (:data:`METRICS`) simulate, compare and sweep show;
- :mod:`~mbrules.matches.simulation`: :func:`simulate`, many matches on one ruleset, counted as running
  sums (:mod:`~mbrules.matches.stats`) with 95% intervals (:mod:`~mbrules.matches.intervals`);
- :mod:`~mbrules.matches.arms`: :func:`run_arms`, arms (rulesets, a sweep's values) played on the same
  seeds pair by pair: the runner of compare and sweep;
- :mod:`~mbrules.matches.ladder`: :func:`run_ladder`, a round robin between bots with ratings.

Layers: this package uses the engine and the bots; ``compare`` and ``sweep`` call it; it calls neither.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the checker sees of the names loaded on first use below (all in __all__)
    from .arms import Phase, run_arms  # noqa: F401
    from .backend import make_backend  # noqa: F401
    from .base import Backend, BackendUnavailable, DEFAULT_WORKERS, MAX_GAMES, MAX_WORKERS, chunks  # noqa: F401
    from .ladder import RatingsUnavailable, run_ladder  # noqa: F401
    from .local import LocalBackend  # noqa: F401
    from .loop import Stopped, count_turns, derive_seed, game_seed, play_match  # noqa: F401
    from .metrics import METRICS, METRIC_BY_KEY, Metric  # noqa: F401
    from .records import HandRecord, MatchRecord, match_record  # noqa: F401
    from .simulation import simulate  # noqa: F401
    from .stats import MatchStats, match_stats, merge_stats, new_stats, summary  # noqa: F401

# name -> submodule; loaded on first use, so that ``import mbrules.matches.loop`` (``play``) costs no
# more than the loop
_WHERE = {
    "DEFAULT_WORKERS": "base",
    "MAX_GAMES": "base",
    "MAX_WORKERS": "base",
    "Backend": "base",
    "BackendUnavailable": "base",
    "LocalBackend": "local",
    "make_backend": "backend",
    "chunks": "base",
    "HandRecord": "records",
    "MatchRecord": "records",
    "match_record": "records",
    "METRICS": "metrics",
    "METRIC_BY_KEY": "metrics",
    "Metric": "metrics",
    "Phase": "arms",
    "run_arms": "arms",
    "RatingsUnavailable": "ladder",
    "run_ladder": "ladder",
    "Stopped": "loop",
    "count_turns": "loop",
    "derive_seed": "loop",
    "game_seed": "loop",
    "play_match": "loop",
    "simulate": "simulation",
    "MatchStats": "stats",
    "match_stats": "stats",
    "merge_stats": "stats",
    "new_stats": "stats",
    "summary": "stats",
}
__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:  # Any: the attribute named (the imports above type each one)
    if name in _WHERE:
        value = getattr(import_module(f".{_WHERE[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
