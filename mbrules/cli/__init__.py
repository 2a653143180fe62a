"""``mbrules.cli`` in a checkout: the command's code lives in the top-level ``cli/`` folder.

An installed wheel maps ``mbrules.cli`` to that folder (pyproject's ``package-dir``) and never
ships this file; run from a checkout (``PYTHONPATH=.``), this package takes its modules from
``cli/``, so ``python -m mbrules.cli`` and ``from mbrules.cli.app import main`` work without
installing. Nothing named ``cli`` is ever installed at the top level.
"""

from mbrules._paths import cli_dir as _cli_dir

_top = _cli_dir()
if _top is not None:
    __path__ = [str(_top)]  # noqa: F821  the submodules (app, common, ...) are cli/'s files
