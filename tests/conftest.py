"""Session-wide test settings."""

from __future__ import annotations

import os
import tempfile

# The learned bot trains a model on first use for rules no shipped model fits and caches it; a test run
# keeps that cache in a temporary folder of its own, never in the user's ~/.cache.
os.environ.setdefault("MBRULES_CACHE", tempfile.mkdtemp(prefix="mbrules-test-cache-"))

# What a person reads is laid out for the terminal's width (cli.common.output_width: COLUMNS, else the
# terminal, else 80). The suite pins it to the classic 80 columns, so that the bytes a test compares never
# depend on the width of the terminal the tests run in; tests of other widths set COLUMNS themselves.
os.environ["COLUMNS"] = "80"


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
    settings.register_profile("thorough", max_examples=1000, derandomize=False, **common)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


try:
    _hypothesis_profiles()
except ImportError:  # make test-core installs the test tools, Hypothesis included; without it no property runs
    pass


def pytest_collection_modifyitems(config, items):
    """make test runs on two processes (pytest-xdist, --dist loadgroup): the tests that start or join a Ray
    instance run on one of them, one after another, since two Ray instances on one machine find each other."""
    import pytest

    for item in items:
        path = str(item.fspath)
        if f"{os.sep}cluster{os.sep}" in path or "ray" in os.path.basename(path):
            item.add_marker(pytest.mark.xdist_group("ray"))
