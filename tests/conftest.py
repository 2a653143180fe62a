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


def pytest_collection_modifyitems(config, items):
    """make test runs on two processes (pytest-xdist, --dist loadgroup): the tests that start or join a Ray
    instance run on one of them, one after another, since two Ray instances on one machine find each other."""
    import pytest

    for item in items:
        path = str(item.fspath)
        if f"{os.sep}cluster{os.sep}" in path or "ray" in os.path.basename(path):
            item.add_marker(pytest.mark.xdist_group("ray"))
