"""Where the bundled rulesets and the schemas are, in a checkout and when installed.

The project keeps them in top-level folders (``rulesets/``, ``schemas/``) beside ``mbrules/``.
An installed wheel ships them inside the package as ``mbrules/bundled/`` and ``mbrules/schemas/``
(pyproject's ``package-dir``); a checkout (run with ``PYTHONPATH=.``, or installed editable) has
them beside the package. This module is the one place that knows both: the installed folder when
it is there, else the checkout's.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
CHECKOUT_DIR = PACKAGE_DIR.parent  # the project's root when mbrules/ is a checkout's folder


def _either(installed: str, checkout: str) -> Path:
    inside = PACKAGE_DIR / installed
    if inside.is_dir():
        return inside
    return CHECKOUT_DIR / checkout


def bundled_dir() -> Path:
    """The folder of the bundled rulesets (its ``options/`` holds the bundled options)."""
    return _either("bundled", "rulesets")


def schemas_dir() -> Path:
    """The folder of the checked-in JSON Schemas (``ruleset.schema.json``, ``scenario.schema.json``)."""
    return _either("schemas", "schemas")


def cli_dir() -> Path | None:
    """The top-level ``cli/`` folder of a checkout, or None when mbrules is installed from a wheel."""
    top = CHECKOUT_DIR / "cli"
    return top if (top / "app.py").is_file() else None


def is_checkout() -> bool:
    """mbrules runs from a project checkout (a clone: pyproject.toml and rulesets/ beside the package,
    run with ``PYTHONPATH=.`` or installed editable), not from an installed wheel."""
    return (CHECKOUT_DIR / "pyproject.toml").is_file() and (CHECKOUT_DIR / "rulesets").is_dir()


def install_hint(extra: str) -> str:
    """The command that installs an optional extra, as this copy of mbrules can take it: ``pip install -e
    '.[EXTRA]'`` in a checkout (run in its folder; a checkout cannot reach the published name), ``pip install
    'mbrules[EXTRA]'`` for an installed wheel."""
    return f"pip install -e '.[{extra}]'" if is_checkout() else f"pip install 'mbrules[{extra}]'"


DEFAULT_RULESET = "winning-moves"  # the edition a command, an environment or OpenSpiel plays when none is named
