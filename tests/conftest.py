"""Session-wide test settings."""
from __future__ import annotations

import os
import tempfile

# The learned bot trains a model on first use for rules no shipped model fits and caches it; a test run
# keeps that cache in a temporary folder of its own, never in the user's ~/.cache.
os.environ.setdefault("MBRULES_CACHE", tempfile.mkdtemp(prefix="mbrules-test-cache-"))
