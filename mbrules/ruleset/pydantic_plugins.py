"""pydantic's plugin look-up, done on the files when it would find nothing (issue 46: start-up).

When pydantic builds its first validator it looks for plugins: every installed distribution's entry
points, through ``importlib.metadata`` (the module, its e-mail parser, then each distribution's
metadata: about 22 M instructions of ``mbrules show``, which no bare ``import pydantic`` pays). The
same look-up done here reads only the ``entry_points.txt`` of each distribution on ``sys.path``: when
none declares the ``pydantic`` group, pydantic's own cache of plugins is set to what its look-up would
have found, none. Anything this cannot read as importlib.metadata would (a zip on the path, another
finder that lists distributions, plugins switched off or already looked up) is left to pydantic.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import PathFinder

_GROUP = "[pydantic]"


def _declares_pydantic_plugin(folder: str) -> bool | None:
    """Whether a distribution under ``folder`` (a path entry) declares a pydantic plugin; None when the
    entry is not a folder this can read as importlib.metadata does (a zip file, an unreadable folder)."""
    try:
        names = os.listdir(folder or ".")
    except FileNotFoundError:
        return False  # importlib.metadata finds nothing there either
    except OSError:
        return None if os.path.exists(folder or ".") else False
    for name in names:
        if name.rpartition(".")[2].lower() not in ("dist-info", "egg-info"):
            continue
        path = os.path.join(folder or ".", name, "entry_points.txt")
        if not os.access(path, os.F_OK):
            continue  # (most distributions have none: asked without raising an error for each)
        try:
            with open(path, "rb") as f:
                text = f.read().decode("utf-8")  # (splitlines below reads \r\n and \r as text mode would)
        except (FileNotFoundError, NotADirectoryError):
            continue
        except (OSError, ValueError):
            return None
        if _GROUP in text and any(line.strip() == _GROUP for line in text.splitlines()):
            return True
    return False


_declared: bool | None = None  # the scan's answer, once made


def no_plugin_declared() -> bool:
    """True when pydantic's plugin look-up would find nothing (or has found nothing), told without importing
    pydantic's loader; False when a plugin is declared or when only pydantic can tell (see the module)."""
    global _declared
    loader = sys.modules.get("pydantic.plugin._loader")
    plugins = getattr(loader, "_plugins", None)
    if plugins is not None:
        return not plugins
    if os.environ.get("PYDANTIC_DISABLE_PLUGINS") is not None:
        return False  # pydantic reads the switch itself
    if _declared is None:
        _declared = _scan()
    return not _declared


def _scan() -> bool:
    """Whether a distribution on ``sys.path`` may declare a pydantic plugin (True when this cannot tell)."""
    if any(getattr(f, "find_distributions", None) is not None and f is not PathFinder for f in sys.meta_path):
        return True  # another finder lists distributions: only importlib.metadata knows them
    for entry in sys.path:
        if not isinstance(entry, str) or entry.lower().endswith(".egg"):
            return True  # an egg's metadata is in its own layout: left to importlib.metadata
        if _declares_pydantic_plugin(entry) is not False:
            return True  # a plugin (pydantic loads it) or a path entry this cannot read
    return False


def skip_empty_plugin_lookup() -> None:
    """Tell pydantic it has no plugins when no installed distribution declares one (see the module). Called
    before pydantic makes a validator or serializer for the ruleset models."""
    try:
        from pydantic.plugin import _loader
    except ImportError:  # pragma: no cover - pydantic moved its loader: it looks for plugins itself
        return
    if getattr(_loader, "_plugins", True) is not None or os.environ.get("PYDANTIC_DISABLE_PLUGINS") is not None:
        return
    if no_plugin_declared():
        _loader._plugins = {}
