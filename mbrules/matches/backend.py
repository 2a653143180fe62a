"""Which backend runs a run's matches: :func:`make_backend` picks one by name (``--backend local|ray``).

The interface and the executor they share are in :mod:`mbrules.matches.base`; the backends in
:mod:`mbrules.matches.local` (this process, or a process pool) and :mod:`mbrules.matches.cluster` (Ray).
"""

from __future__ import annotations

from .base import DEFAULT_WORKERS, Backend

BACKENDS = ("local", "ray")


def make_backend(
    name: str = "local", workers: int = DEFAULT_WORKERS, *, address: str | None = None, nodes: set[str] | None = None
) -> Backend:
    """The backend called ``name`` (``local`` or ``ray``); ``address`` is the Ray cluster's (None: a
    local Ray instance with ``workers`` CPUs) and ``nodes`` collects the ids of the nodes Ray used."""
    if name == "local":
        if address is not None:
            raise ValueError("an address goes with the ray backend")
        from .local import LocalBackend

        return LocalBackend(workers)
    if name == "ray":
        from .cluster import RayBackend

        return RayBackend(workers, address=address, nodes=nodes)
    raise ValueError(f"unknown backend {name!r}: 'local' or 'ray'")


def as_backend(
    backend: str | Backend, workers: int, address: str | None = None, nodes: set[str] | None = None
) -> Backend:
    """``backend`` itself, or the one it names."""
    if isinstance(backend, Backend):
        return backend
    return make_backend(backend, workers, address=address, nodes=nodes)
