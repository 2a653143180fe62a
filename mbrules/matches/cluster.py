"""The Ray backend: the same items of work as the local process pool, merged in the same order.

:class:`RayBackend` sends the items (seed ranges ``..., start, stop``) out as Ray tasks and hands
their results back in the items' order through :func:`mbrules.matches.base.merge_in_order`, the
executor of the process pool too, so every figure but the timings equals ``--backend local`` for the
same inputs, whatever the cluster.

What reaches the workers is the *resolved* ruleset (the frozen pydantic model, about 12 KB, sent
inline with each task) and the run's task, never a file path: a custom ruleset on the head node's disk
plays the same on a worker that has never seen the file. A worker process compiles the rules once and
keeps them for the next task of the same run (keyed by a digest of the ruleset, the player count and
the task).

Failures: a task whose worker dies is retried by Ray (``max_retries``); since a task is a whole
seed range and its result is merged once, by position, a retried range is neither lost nor
counted twice. A stop (Ctrl-C, SIGTERM: ``should_stop``) cancels the tasks in flight and keeps
the whole ranges finished in a row, like the local pool.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import itertools
import logging
import os
import pickle
import socket
from types import ModuleType
from typing import Any, Callable, Iterable, Iterator, TypeVar

from .._paths import install_hint
from .base import (
    IN_FLIGHT_PER_WORKER,
    Backend,
    BackendUnavailable,
    Consume,
    Games,
    Rules,
    Task,
    compile_rules,
    merge_in_order,
    rules_digest,
    rules_of,
)
from .loop import StopPoll

_I = TypeVar("_I")
_R = TypeVar("_R")
Spec = tuple[Rules, Task[Any, Any]]  # what a Ray task is sent with: the rules to compile and the run's task

TASK_RETRIES = 3
KILL_ONCE_ENV = "MBRULES_TEST_KILL_CHUNK"  # tests: "START:MARKER" kills the worker running that chunk, once


def _ray() -> ModuleType:
    try:
        import ray  # noqa: PLC0415  (an optional extra: imported only when asked for)
    except ImportError:
        raise BackendUnavailable(
            f"--backend ray needs Ray: {install_hint('cluster')} (make test installs it)"
        ) from None
    return ray


def check_available() -> None:
    """:class:`BackendUnavailable` (naming the extra to install) when Ray is not installed."""
    _ray()


_COMPILED: dict[str, tuple[Games, Task[Any, Any]]] = {}  # in a Ray worker process: key -> (Game, task)


def _ray_task(key: str, spec: Spec, item: tuple[Any, ...]) -> tuple[Any, str]:
    """In a Ray worker: the run's task on one item; its result and the node that played it."""
    import ray  # noqa: PLC0415

    kill = os.environ.get(KILL_ONCE_ENV)
    if kill:
        at, marker = kill.split(":", 1)
        if int(at) == item[-2] and not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(1)  # the worker dies mid-run: Ray must retry this range on another process
    hit = _COMPILED.get(key)
    if hit is None:
        rules, task = spec
        hit = _COMPILED[key] = (compile_rules(rules), task)
    game, task = hit
    return task(game, item, None), ray.get_runtime_context().get_node_id()


PROBE_SECONDS = 10.0  # the whole check of an --address: connect, greet, read Ray's answer (docs/cluster.md)


class ConnectStopped(Exception):
    """``should_stop()`` turned true while the cluster's address was being checked: nothing was run."""


def split_address(address: str) -> tuple[str, int]:
    """``HOST:PORT`` or ``[IPv6]:PORT`` as (host, port); a sentence (BackendUnavailable) for anything else."""
    shown = address[:60]
    if address.startswith("["):
        host, close, rest = address[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
        if not close or not host:
            raise BackendUnavailable(f"--address {shown!r}: an IPv6 address is written [HOST]:PORT, e.g. [::1]:6379")
    else:
        host, sep, port = address.rpartition(":")
        if sep and ":" in host:
            raise BackendUnavailable(f"--address {shown!r}: write an IPv6 address in brackets, e.g. [::1]:6379")
        if not sep:
            port = ""
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise BackendUnavailable(f"--address must be HOST:PORT, [IPv6]:PORT or 'auto' (got {shown!r})")
    return host or "127.0.0.1", int(port)


def _probe(address: str, should_stop: Callable[[], object] | None = None, seconds: float = PROBE_SECONDS) -> None:
    """Check that a Ray cluster's GCS answers at ``address`` before ray.init (which retries for minutes and
    cannot be interrupted meanwhile): it speaks gRPC, so HTTP/2's greeting gets a SETTINGS frame back at once.
    Nothing listening, a port that accepts and says nothing, one that answers something else, or one that
    closes at once: BackendUnavailable with a sentence, within ``seconds``. Every wait is sliced in 0.1 s,
    so a stop (``should_stop()``: Ctrl-C, SIGTERM) ends it at once with :class:`ConnectStopped`."""
    import time

    if address in ("auto", "local") or "://" in address:
        return
    host, port = split_address(address)
    shown = address[:60]
    deadline = time.monotonic() + seconds

    def wait(sock: socket.socket, writing: bool) -> bool:
        return _wait(sock, writing, deadline, should_stop)

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as e:
        raise _refusal(shown, f"cannot resolve {host[:60]!r}: {(e.strerror or str(e)).lower()}") from None
    last: str = "nothing answered"
    for family, kind, proto, _, addr in infos:
        sock = socket.socket(family, kind, proto)
        try:
            sock.setblocking(False)
            err = sock.connect_ex(addr)
            if err not in (0, errno.EINPROGRESS, errno.EWOULDBLOCK):
                last = os.strerror(err).lower()
                continue
            if not wait(sock, writing=True):
                raise _refusal(shown, f"no connection within {seconds:g} s")
            err = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if err:
                last = os.strerror(err).lower()
                continue
            _check_greeting(sock, wait, shown, seconds)
            return
        except OSError as e:
            last = (e.strerror or str(e)).lower()
        finally:
            sock.close()
    raise _refusal(shown, last)


def _wait(sock: socket.socket, writing: bool, deadline: float, should_stop: Callable[[], object] | None) -> bool:
    """Wait until ``sock`` can be written (or read); False once ``deadline`` (time.monotonic) has passed.
    Sliced in 0.1 s, so that a stop ends it at once (:class:`ConnectStopped`)."""
    import select
    import time

    while True:
        if should_stop is not None and should_stop():
            raise ConnectStopped
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        r, w, _ = select.select([] if writing else [sock], [sock] if writing else [], [], min(0.1, left))
        if r or w:
            return True


def _refusal(shown: str, words: str) -> BackendUnavailable:
    return BackendUnavailable(
        f"cannot start or reach the Ray cluster at {shown}: {words} "
        "(is 'ray start --head' running there, and is this its GCS port?)"
    )


def _check_greeting(
    sock: socket.socket, wait: Callable[[socket.socket, bool], bool], shown: str, seconds: float
) -> None:
    """Greet as an HTTP/2 client on a connected ``sock`` and read the first frame's 9-byte header: a gRPC
    server answers with its SETTINGS frame; anything else is a :class:`BackendUnavailable` saying what came."""
    # HTTP/2 client preface and an empty SETTINGS frame; a gRPC server answers with its SETTINGS
    sock.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00")
    got = b""
    while len(got) < 9:
        if not wait(sock, False):
            raise _refusal(
                shown, f"the port accepted the connection but said nothing for {seconds:g} s: not a Ray cluster"
            )
        try:
            part = sock.recv(9 - len(got))
        except OSError as e:
            raise _refusal(
                shown, f"the connection was reset ({(e.strerror or str(e)).lower()}): not a Ray cluster"
            ) from None
        if not part:
            raise _refusal(shown, "the port closed the connection at once: not a Ray cluster")
        got += part
    if got[3] != 0x04:  # frame type SETTINGS
        raise _refusal(shown, "the port answered, but not as Ray does (no gRPC greeting): not a Ray cluster")


def _placer(ray: ModuleType) -> Callable[[], object]:
    """Hand tasks to the nodes in turn, each as often as it has CPUs (soft: a node that is gone or full
    lets Ray place the task elsewhere). Ray's own policy keeps short tasks on the driver's node while
    it has room, so a second node would idle through a run of quick matches."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy  # noqa: PLC0415

    cpus = {n["NodeID"]: int(n.get("Resources", {}).get("CPU", 0)) for n in ray.nodes() if n.get("Alive")}
    slots = [node for k in range(max(cpus.values(), default=0)) for node in sorted(cpus) if cpus[node] > k]
    if not slots:
        return lambda: "DEFAULT"
    turn = itertools.cycle(slots)
    return lambda: NodeAffinitySchedulingStrategy(node_id=next(turn), soft=True)


RAY_TOKEN_LOGGER = "ray._private.authentication.authentication_token_setup"


def _not_the_token_notice(record: logging.LogRecord) -> bool:
    return "Token authentication is enabled" not in record.getMessage()


@contextlib.contextmanager
def quiet_local_token_notice() -> Iterator[None]:
    """While mbrules starts a local Ray instance for itself (no --address), Ray's notice that token
    authentication is on, meant for a cluster others reach, is not printed; a cluster the user names
    keeps every notice."""
    log = logging.getLogger(RAY_TOKEN_LOGGER)
    log.addFilter(_not_the_token_notice)
    try:
        yield
    finally:
        log.removeFilter(_not_the_token_notice)


def _connect(
    ray: ModuleType, address: str | None, workers: int, should_stop: Callable[[], object] | None = None
) -> None:
    """Connect (or start a local instance); the address is checked first (:func:`_probe`), and the
    command's SIGINT/SIGTERM handlers are kept (ray.init sets its own SIGTERM handler, which exits 15)."""
    import signal  # noqa: PLC0415

    if ray.is_initialized():
        return
    if address:
        _probe(address, should_stop, PROBE_SECONDS)  # read when called: a test's process may set a shorter bound
    kw: dict[str, object] = dict(include_dashboard=False, log_to_driver=False, configure_logging=False)
    import threading  # noqa: PLC0415

    main = threading.current_thread() is threading.main_thread()
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)} if main else {}
    try:
        if address:
            ray.init(address=address, **kw)  # a cluster the user names: Ray's notices are theirs to read
        else:  # a local instance with as many CPUs as --workers asks for
            with quiet_local_token_notice():
                ray.init(num_cpus=max(1, workers), **kw)
    except Exception as e:  # noqa: BLE001  (Ray raises several kinds for an unreachable cluster)
        raise BackendUnavailable(
            f"cannot start or reach the Ray cluster{' at ' + address if address else ''}: "
            f"{str(e).splitlines()[0] if str(e) else type(e).__name__}"
        ) from None
    finally:
        for sig, handler in handlers.items():
            if handler is not None:
                signal.signal(sig, handler)


class RayBackend(Backend):
    """A Ray cluster at ``address`` (None: a local Ray instance with ``workers`` CPUs). ``nodes`` (a set)
    collects the ids of the nodes that ran tasks."""

    name = "ray"

    def __init__(self, workers: int, *, address: str | None = None, nodes: set[str] | None = None) -> None:
        super().__init__(workers)
        self.address = address
        self.nodes = nodes if nodes is not None else set()

    def run(
        self,
        game: Games,
        task: Task[_I, _R],
        items: Iterable[_I],
        consume: Consume[_I, _R],
        *,
        count: int,
        should_stop: StopPoll | None = None,
    ) -> bool:
        ray = _ray()
        try:
            _connect(ray, self.address, self.workers, should_stop)
        except ConnectStopped:
            return True  # stopped while the address was checked: nothing ran
        cpus = int(ray.cluster_resources().get("CPU", 1)) or 1
        # ~12 KB: passed inline with each task, where Ray keeps it out of the object store. A ray.put()
        # reference would pull every task to the node holding the object (locality-aware scheduling
        # wins over SPREAD): on a two-node cluster all tasks ran on the head node.
        spec: Spec = (rules_of(game), task)
        key = hashlib.sha256(rules_digest(game).encode() + pickle.dumps(task)).hexdigest()
        remote = ray.remote(max_retries=TASK_RETRIES, retry_exceptions=False, num_cpus=1)(_ray_task)
        nodes = self.nodes

        def took(item: _I, result: tuple[_R, str]) -> None:
            value, node = result
            nodes.add(node)
            consume(item, value)

        return merge_in_order(
            _RayHandles(ray, remote, key, spec, _placer(ray)), items, took, cpus * IN_FLIGHT_PER_WORKER, should_stop
        )


class _RayHandles:
    """:class:`mbrules.matches.base.Handles` over Ray object refs."""

    # Any: Ray's remote function and object references (Ray has no annotations)
    def __init__(self, ray: ModuleType, remote: Any, key: str, spec: Spec, place: Callable[[], object]) -> None:
        self.ray, self.remote, self.key, self.spec, self.place = ray, remote, key, spec, place

    def submit(self, item: object) -> Any:
        return self.remote.options(scheduling_strategy=self.place()).remote(self.key, self.spec, item)

    def done(self, ref: Any) -> bool:
        return bool(self.ray.wait([ref], timeout=0)[0])

    def wait(self, ref: Any, timeout: float) -> None:
        self.ray.wait([ref], timeout=timeout)

    def result(self, ref: Any) -> Any:
        return self.ray.get(ref)

    def abort(self, refs: list[Any]) -> None:
        for ref in refs:
            self.ray.cancel(ref, force=True)

    def close(self) -> None:
        pass


def shutdown() -> None:
    """Disconnect (and stop a local instance this process started)."""
    try:
        import ray  # noqa: PLC0415
    except ImportError:
        return
    if ray.is_initialized():
        ray.shutdown()
