"""Session-wide test settings, and the rule of the suite's two tiers.

The fast set (``make test-fast``, ``make test-core``, ``make test-compiled``: ``pytest -m "not slow"``) is the
developer's loop: it checks each mechanism, each bundled option and each edition at least once, on one
representative table, count and seed (``tests/tiers.py`` picks one case of each key, or the few data files that
together show every feature, and marks the others slow),
and each property on its explicit examples (every option, prop_helpers.OPTION_COVER) and a few generated
ones (the ``fast`` Hypothesis profile below). The slow set (``@pytest.mark.slow``, or a slow parametrization:
``pytest.param(..., marks=pytest.mark.slow)``) holds the whole-product sweeps: every option at every count
and seed, every table through ``api_test``, fuzzers with many examples, subprocess-heavy CLI tables,
statistical runs. ``make test`` (CI) runs both: no test leaves it. A new test is fast when it is the first
of its mechanism or costs little; a sweep over a product goes slow with its first case kept fast. The
compiled engine's suites (the Makefile's COMPILED_TESTS) keep all their fast cases. A module whose tests are
all slow says so once (``pytestmark = pytest.mark.slow``): the fast set does not even import it.
"""

from __future__ import annotations

import os
import re
import tempfile

import pytest

# The learned bot trains a model on first use for rules no shipped model fits and caches it; a test run
# keeps that cache in a temporary folder of its own, never in the user's ~/.cache.
os.environ.setdefault("MBRULES_CACHE", tempfile.mkdtemp(prefix="mbrules-test-cache-"))

# What a person reads is laid out for the terminal's width (cli.common.output_width: COLUMNS, else the
# terminal, else 80). The suite pins it to the classic 80 columns, so that the bytes a test compares never
# depend on the width of the terminal the tests run in; tests of other widths set COLUMNS themselves.
os.environ["COLUMNS"] = "80"

# scikit-learn's OpenMP threads spin while they wait: on two shared cores a 400-row fit cost 50 CPU-seconds
# (issue 46); the suite runs on two processes already, so each keeps to one thread
os.environ.setdefault("OMP_NUM_THREADS", "1")


# The fast set's properties try their explicit examples and this many generated ones (a test that sets its
# own max_examples keeps it: tests/api's, which make test-compiled runs in the compiled engine)
FAST_EXAMPLES = 10


def _hypothesis_profiles() -> None:
    """Hypothesis profiles for every property test of the suite (issue 42 item 14).

    ``default`` (make test, CI) is derandomized: each test tries the same examples on every run (its
    explicit ``@example``s first: the cases found once and, for the engine's properties, every option),
    so a run cannot pass or fail by chance, and nothing is read from or written to ``.hypothesis/``.
    ``thorough`` (``HYPOTHESIS_PROFILE=thorough``) searches: random examples, many more of them, its
    database on; a case it finds is added to the property's explicit examples (prop_helpers.FOUND)."""
    from hypothesis import HealthCheck, settings

    common = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
    settings.register_profile("default", max_examples=150, derandomize=True, database=None, **common)
    settings.register_profile("fast", max_examples=FAST_EXAMPLES, derandomize=True, database=None, **common)
    settings.register_profile("thorough", max_examples=1000, derandomize=False, **common)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_configure(config):
    """``-m "not slow"`` is the fast set: its properties load the ``fast`` Hypothesis profile unless one is
    asked for (HYPOTHESIS_PROFILE), and MBRULES_TEST_TIER=fast tells the fuzzers (tests/test_fuzz_loader.py)."""
    if _fast_tier(config):
        os.environ.setdefault("MBRULES_TEST_TIER", "fast")
        if "HYPOTHESIS_PROFILE" not in os.environ:
            try:
                from hypothesis import settings

                settings.load_profile("fast")
            except ImportError:
                pass


try:
    _hypothesis_profiles()
except ImportError:  # make test-core installs the test tools, Hypothesis included; without it no property runs
    pass


def _build_each_app_once() -> None:
    """Typer's ``CliRunner.invoke`` rebuilds the app's whole click command tree on every call
    (``typer.main.get_command``: 25 ms of CPU for mbrules' app; the fast set invokes it ~670 times, ~17
    CPU-seconds). The tree is made only from the commands registered on the app, which the tests read and never
    change, so each process builds it once per app and its registrations; the command a test runs is the same
    click command the ``mbrules`` script builds (``app()`` calls the same ``get_command``)."""
    import typer.testing

    build = typer.testing._get_command
    built: dict[tuple, tuple] = {}

    def once(app):
        key = (
            id(app),
            tuple(map(id, app.registered_commands)),
            tuple(map(id, app.registered_groups)),
            id(app.registered_callback),
        )
        if key not in built:
            built[key] = (app, build(app))  # the app kept alive with its tree: its id is never reused
        return built[key][1]

    typer.testing._get_command = once


_build_each_app_once()


def _keep_every_table_loaded() -> None:
    """The loader keeps the last 64 resolved rulesets (loader._CACHE_SIZE: what a command or a server needs);
    the suite resolves ~900 distinct (ruleset, options) pairs, test_narrate's 732 while it is collected, so the
    pairs a later test asks again were pushed out: the fast set resolved 3,239 times (18 CPU-s) for 889 pairs.
    The suite's processes keep them all (~80 KB a ruleset: 532 pairs, 41 MB); a changed file is still seen
    (each hit checks the files' signatures)."""
    from mbrules.ruleset import loader

    loader._CACHE_SIZE = max(loader._CACHE_SIZE, 4096)


_keep_every_table_loaded()


def _cleared_cache_comes_back():
    """A test that empties the loader's cache (``clear_cache``: the authoring tests, test_compose, the loader's
    error tests, each in-process command row of tests/cli_runs.py) reads its files afresh, as it checks; the
    rulesets resolved before it are put back when it ends, so the tests after it do not resolve the same pairs
    again (test_option_edition_pairs re-resolved ~550 of them, ~2.5 CPU-s). A put-back entry is still checked
    against its files' signatures on every hit, as any entry is; the ones the test resolved stay too.

    The two caches set what they held aside when they are emptied (their ``clear``: clear_cache, and the file
    cache's own emptying at 256 files), and the fixture puts that back after the test: a test that clears
    nothing costs a look at an empty list. Copying both caches around every test cost ~0.3 ms a test with
    ~500 rulesets held (~1 CPU-s of the fast set's 3,000 tests)."""
    from collections import OrderedDict

    from mbrules.ruleset import files, loader

    def set_aside_when_cleared(cache):
        class Kept(type(cache)):
            aside: list = []  # what each clear emptied, oldest first, until the test ends

            def clear(self):
                if self:
                    self.aside.append(dict(self))
                super().clear()

        return Kept(cache)

    assert isinstance(loader._cache, OrderedDict) and loader._file_cache is files._file_cache
    loader._cache = set_aside_when_cleared(loader._cache)
    files._file_cache = loader._file_cache = set_aside_when_cleared(files._file_cache)

    @pytest.fixture(autouse=True)
    def _loader_cache_kept():
        yield
        rulesets, texts = loader._cache.aside, files._file_cache.aside
        if rulesets:
            with loader._cache_lock:
                for kept in rulesets:
                    for key, entry in kept.items():
                        loader._cache.setdefault(key, entry)
            rulesets.clear()
        if texts:
            with files._file_lock:
                for kept in texts:
                    for key, read in kept.items():  # the file cache holds 256 (files._read): no more back
                        if len(files._file_cache) < 256:
                            files._file_cache.setdefault(key, read)
            texts.clear()

    return _loader_cache_kept


_loader_cache_kept = _cleared_cache_comes_back()


def _gc_scans_what_is_new():
    """Python's full collections scan every object alive: the suite's process holds ~900,000 by its end (the
    modules, the collected tests, every ruleset resolved: _keep_every_table_loaded), and the fast set made 41
    full collections, 21.5 of its 297 CPU-s (issue 46 point 7; gc.callbacks timing, the whole fast set in one
    process). After the collection and after each test module, whatever is garbage is collected and what lives
    on is frozen (``gc.freeze``: the permanent generation, never scanned; what mbrules.web.server does after
    its start-up): a full collection then scans only what the module being run made. What is frozen is still
    freed by its reference count; only a cycle that became garbage after its freeze stays (the module-scoped
    fixtures are torn down before the freeze at the module's end: what lasts longer is session-wide)."""
    import gc

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(session):
        gc.collect()
        gc.freeze()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(item, nextitem):
        yield  # the module's fixtures are torn down when the next test is another module's
        if nextitem is None or getattr(nextitem, "module", None) is not getattr(item, "module", None):
            gc.collect()  # this module's garbage, cycles included: only the unfrozen objects are scanned
            gc.freeze()

    return pytest_collection_finish, pytest_runtest_teardown


pytest_collection_finish, pytest_runtest_teardown = _gc_scans_what_is_new()


_WHOLE_MODULE_SLOW = re.compile(r"^pytestmark = \(?\s*pytest\.mark\.slow\s*\)?\s*(#.*)?$", re.MULTILINE)


def _fast_tier(config) -> bool:
    return config.getoption("markexpr", "").replace(" ", "") == "notslow"


def _marked_slow_as_a_whole(path) -> bool:
    """Whether a test module says ``pytestmark = pytest.mark.slow`` at its top level: every test in it is slow."""
    try:
        return bool(_WHOLE_MODULE_SLOW.search(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError):
        return False


def pytest_ignore_collect(collection_path, config):
    """The fast set does not import a module marked slow as a whole (``pytestmark = pytest.mark.slow``): all
    its tests would be deselected, after its imports were paid (Selenium, Ray, the terminal drivers: about
    3 CPU-s of the fast set's collection, issue 46 point 7). ``make test`` collects it, and checks there that
    each module this rule would skip has only slow tests (``pytest_collection_modifyitems``)."""
    if _fast_tier(config) and collection_path.suffix == ".py" and collection_path.name.startswith("test_"):
        return True if _marked_slow_as_a_whole(collection_path) else None
    return None


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which reads the groups into the ids it hands out
def pytest_collection_modifyitems(config, items):
    """make test runs on two processes (pytest-xdist, --dist loadgroup): the tests that start or join a Ray
    instance run on one of them, one after another, since two Ray instances on one machine find each other.

    xdist hands out the tests in the order collected, a few at a time: a test of minutes that comes last runs
    alone while the other worker idles. On a worker, the tests marked ``long`` are collected first (longest
    first is the classic rule for two machines); every worker sorts alike, so their collections agree.

    A module-scoped fixture is computed on every worker that runs one of its tests: a file that names such a
    fixture in ``ONE_WORKER_FIXTURES`` (a table of command runs, the score oracle's matches) has the tests that
    use it run on one worker, so it is computed once (it was twice: 13 CPU-s each for the hostile tables)."""
    if not _fast_tier(config):  # the modules the fast set does not import: not one fast test among them
        whole = {}
        for item in items:
            if whole.setdefault(item.path, _marked_slow_as_a_whole(item.path)) and not item.get_closest_marker("slow"):
                raise pytest.UsageError(f"{item.nodeid}: its module reads as slow as a whole, the test is not slow")
    for item in items:
        path = str(item.fspath)
        if f"{os.sep}cluster{os.sep}" in path or "ray" in os.path.basename(path):
            item.add_marker(pytest.mark.xdist_group("ray"))
            continue
        shared = getattr(getattr(item, "module", None), "ONE_WORKER_FIXTURES", ())
        if any(name in item.fixturenames for name in shared):
            item.add_marker(pytest.mark.xdist_group(f"{item.module.__name__}:{'+'.join(shared)}"))
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=lambda item: item.get_closest_marker("long") is None)  # stable: otherwise as collected


# `MBRULES_TEST_CPU=FILE pytest ...` appends one line per test to FILE: its CPU seconds in this process
# (setup, call and teardown: a module fixture's cost lands on the first test that uses it), the CPU seconds of
# the child processes it waited for, and its node id, tab-separated. Wall time means little on a shared
# machine; CPU time is what `make test` costs two cores. benchmarks/test_cpu.py sums the lines per file.
# `MBRULES_TEST_WALL=FILE` appends the wall-clock side: the xdist worker, the test's start and end (seconds
# since the epoch), its CPU seconds (own and waited-for children) and its node id: a test whose wall time
# far exceeds its CPU leaves a core idle under `make test`'s two workers.
_CPU_LOG = os.environ.get("MBRULES_TEST_CPU")
_WALL_LOG = os.environ.get("MBRULES_TEST_WALL")

if _CPU_LOG or _WALL_LOG:
    import resource
    import time

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item, nextitem):
        start, own, kids = time.time(), time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN)
        yield
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        child = after.ru_utime + after.ru_stime - kids.ru_utime - kids.ru_stime
        own = time.process_time() - own
        if _CPU_LOG:
            with open(_CPU_LOG, "a", encoding="utf-8") as log:
                log.write(f"{own:.4f}\t{child:.4f}\t{item.nodeid}\n")
        if _WALL_LOG:
            worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
            with open(_WALL_LOG, "a", encoding="utf-8") as log:
                log.write(f"{worker}\t{start:.3f}\t{time.time():.3f}\t{own + max(child, 0):.4f}\t{item.nodeid}\n")
