"""Where a command's matches run: ``--workers``, ``--backend local|ray`` and ``--address``, shared by every
command that plays many matches (simulate, compare, ladder)."""

from __future__ import annotations

import contextlib
import sys
from typing import Annotated, Iterator

import typer

from mbrules.matches import base as _runs

from mbrules._paths import install_hint

from .common import EXIT_USAGE, check_range, fail
from .inputs import MAX_GAMES, MAX_PLAYERS, SEED_MAX, SEED_MIN, SEED_WORDS

WORKERS_HELP = (
    f"Worker processes (default: the CPUs, at most {_runs.WORKERS_CAP}); the figures are the same for any number."
)

BACKEND_HELP = (
    "Where the matches run: 'local' (this machine's process pool, --workers processes) or 'ray' "
    f"(a Ray cluster: {install_hint('cluster')}). Every figure but the timings is the same."
)
# (written plainly: cli.common escapes Rich markup in every help string, so [cluster] is shown as written)
ADDRESS_HELP = (
    "With --backend ray: the cluster's address (e.g. 10.0.0.5:6379, or 'auto' on a cluster node); "
    "default: start a local Ray instance with --workers CPUs."
)


WorkersFlag = Annotated[int | None, typer.Option("--workers", "-w", help=WORKERS_HELP, show_default=False)]
"""``--workers`` of every command that plays many matches (default None: :func:`resolve_workers`'s one default)."""
BackendFlag = Annotated[str, typer.Option("--backend", help=BACKEND_HELP, metavar="local|ray")]
"""``--backend`` (default ``local``), checked with ``--address`` by :func:`check_backend`."""
AddressFlag = Annotated[str | None, typer.Option("--address", help=ADDRESS_HELP, metavar="HOST:PORT")]
"""``--address`` (default None)."""


def resolve_workers(workers: int | None) -> int:
    """``--workers`` as given, or the one default (:data:`mbrules.matches.DEFAULT_WORKERS`); out of range: exit 2."""
    workers = _runs.DEFAULT_WORKERS if workers is None else workers
    check_range("--workers", workers, 1, _runs.MAX_WORKERS)
    return workers


def check_run(games: int, min_games: int, workers: int | None, players: list[tuple[str, int]], seed: int) -> int:
    """The numbers of a command that plays many matches, checked in one order (``--games`` from ``min_games``,
    ``--workers``, each ``--players`` flag, ``--seed``): the first out of range is a usage error (exit 2).
    Returns the workers to use (:func:`resolve_workers`)."""
    check_range("--games", games, min_games, MAX_GAMES)
    workers = resolve_workers(workers)
    for flag, count in players:
        check_range(flag, count, 1, MAX_PLAYERS)
    check_range("--seed", seed, SEED_MIN, SEED_MAX, SEED_WORDS)
    return workers


def check_backend(backend: str, address: str | None) -> None:
    """A usage error (exit 2) for an unknown backend, an address without Ray, or Ray not installed."""
    if backend not in ("local", "ray"):
        fail(f"mbrules: --backend must be 'local' or 'ray' (got {backend[:60]!r})", EXIT_USAGE)
    if address is not None and backend != "ray":
        fail("mbrules: --address goes with --backend ray", EXIT_USAGE)
    if backend == "ray":
        from mbrules.matches.base import BackendUnavailable
        from mbrules.matches.cluster import check_available

        try:
            check_available()
        except BackendUnavailable as e:
            fail(f"mbrules: {e}", EXIT_USAGE)


@contextlib.contextmanager
def cluster_session(backend: str) -> Iterator[None]:
    """Around a command's runs: a cluster that cannot be reached is a usage error; Ray is shut down after."""
    if backend != "ray":
        yield
        return
    from mbrules.matches.base import BackendUnavailable
    from mbrules.matches.cluster import shutdown

    try:
        # Ray's driver threads print cluster events (a worker that died, a task retried) with print():
        # they go to stderr, so that stdout keeps only the command's own output (one JSON document)
        with contextlib.redirect_stdout(sys.stderr):
            yield
    except BackendUnavailable as e:
        fail(f"mbrules: {e}", EXIT_USAGE)
    finally:
        with contextlib.redirect_stdout(sys.stderr):
            shutdown()
