"""mbrules's installed version, read without importing ``importlib.metadata`` (about 25 ms of its
e-mail parser: a fifth of ``mbrules --version``).

The metadata is found as ``importlib.metadata`` finds it: the first ``sys.path`` entry holding a
``mbrules-*.dist-info`` (its ``METADATA``) or ``mbrules*.egg-info`` (its ``PKG-INFO``) directory gives
its ``Version:`` line. Anything else (a zip on the path, a metadata file without that line) is left
to ``importlib.metadata`` itself.
"""

from __future__ import annotations

import os
import sys

_FILES = {".dist-info": "METADATA", ".egg-info": "PKG-INFO"}


def _metadata_file(entry: str) -> str | None:
    try:
        names = os.listdir(entry or ".")
    except OSError:
        return None
    for name in sorted(names):
        stem, dot, suffix = name.rpartition(".")
        kind = _FILES.get(dot + suffix)
        if kind and stem.split("-")[0].lower().replace("-", "_") == "mbrules":
            return os.path.join(entry or ".", name, kind)
    return None


def installed_version() -> str | None:
    """The installed version of mbrules, or None when it was never installed (a bare source tree)."""
    for entry in sys.path:
        if not os.path.isdir(entry or "."):
            if os.path.exists(entry):
                break  # a zip: importlib.metadata's own search from here
            continue  # nothing there (a missing zip, a path hook's name): no metadata
        path = _metadata_file(entry)
        if path is None:
            continue
        try:
            with open(path, encoding="utf-8") as f:
                for line in f:
                    if line.startswith("Version:"):
                        return line.partition(":")[2].strip()
                    if not line.strip():
                        break  # the headers end at the first blank line
        except OSError:
            pass
        break
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mbrules")
    except PackageNotFoundError:
        return None
