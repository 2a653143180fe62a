"""mbrules.matches' backends: one interface (run a task over items, results consumed in the items' order),
one executor for the backends that run tasks elsewhere (merge_in_order), the same figures on each."""

from __future__ import annotations

import itertools

import pytest

import mbrules
from mbrules.matches import LocalBackend, make_backend, simulate
from mbrules.matches.base import Backend, merge_in_order


class FakeHandles:
    """Tasks in flight whose results are ready when ``finished`` says so (out of order on purpose)."""

    def __init__(self, finished=lambda item: True, fail=None):
        self.finished = finished
        self.fail = fail
        self.submitted: list = []
        self.aborted: list | None = None
        self.closed = False

    def submit(self, item):
        self.submitted.append(item)
        return item

    def done(self, item) -> bool:
        return self.finished(item)

    def wait(self, item, timeout: float) -> None:
        pass

    def result(self, item):
        if item == self.fail:
            raise RuntimeError(f"task {item} failed")
        return item * 10

    def abort(self, handles: list) -> None:
        self.aborted = list(handles)

    def close(self) -> None:
        self.closed = True


def test_results_are_consumed_in_the_items_order_and_the_run_closes():
    h = FakeHandles()
    got = []
    stopped = merge_in_order(h, range(7), lambda item, r: got.append((item, r)), ahead=3)
    assert not stopped and h.closed and h.aborted is None
    assert got == [(i, 10 * i) for i in range(7)]


def test_a_stop_keeps_the_results_finished_in_a_row_and_drops_the_rest():
    # items 0..4 finished, 5 still running, 6 finished: a stop keeps 0..4 only (a prefix of the seeds)
    running = {5}
    h = FakeHandles(finished=lambda item: item not in running)
    got = []

    def consume(item, r):
        got.append(item)

    asked = iter([False, False, True])  # polled only while item 5 is not done
    stopped = merge_in_order(h, range(10), consume, ahead=8, should_stop=lambda: next(asked, True))
    assert stopped
    assert got == [0, 1, 2, 3, 4]
    assert h.aborted == [5, 6, 7, 8, 9] and not h.closed


def test_a_failed_task_aborts_the_work_in_flight_and_propagates():
    h = FakeHandles(fail=2)
    got = []
    with pytest.raises(RuntimeError, match="task 2 failed"):
        merge_in_order(h, range(6), lambda item, r: got.append(item), ahead=3)
    assert got == [0, 1]
    assert h.aborted and h.aborted[0] == 2 and not h.closed


def test_a_failure_after_a_stop_was_asked_is_a_stop_not_an_error():
    """A worker killed by the same Ctrl-C fails its task: the run reports what finished, it does not crash."""
    h = FakeHandles(finished=lambda item: True, fail=1)
    got = []
    stopped = merge_in_order(h, range(4), lambda item, r: got.append(item), ahead=2, should_stop=lambda: got == [0])
    assert stopped and got == [0]


def test_work_is_handed_out_lazily_a_few_items_ahead_of_the_merge():
    h = FakeHandles()
    got = []

    class Enough(Exception):
        pass

    def consume(item, r):
        got.append(item)
        if len(got) == 5:
            raise Enough

    with pytest.raises(Enough):
        merge_in_order(h, itertools.count(), consume, ahead=4)  # an endless supply of items
    assert len(h.submitted) <= 5 + 4


def _square(game, item, should_stop):
    return item * item


@pytest.mark.parametrize("workers", [1, 2])
def test_the_local_backend_runs_a_task_in_this_process_or_a_pool_with_the_same_results(workers):
    game = mbrules.load_game("winning-moves", players=2)
    got = []
    stopped = LocalBackend(workers).run(game, _square, range(9), lambda i, r: got.append((i, r)), count=9)
    assert not stopped and got == [(i, i * i) for i in range(9)]


def test_simulate_takes_a_backend_object_and_gives_the_figures_of_its_name():
    game = mbrules.load_game("winning-moves", players=2)
    by_name, _ = simulate(game, ["random"], 5, 11, workers=2, backend="local")
    by_object, _ = simulate(game, ["random"], 5, 11, backend=LocalBackend(1))
    assert by_name == by_object and by_name.games == 5


def test_make_backend_refuses_an_unknown_name_and_an_address_without_ray():
    with pytest.raises(ValueError, match="unknown backend"):
        make_backend("gpu")
    with pytest.raises(ValueError, match="ray"):
        make_backend("local", address="10.0.0.1:6379")
    assert isinstance(make_backend("local", 3), Backend) and make_backend("local", 3).workers == 3
