"""``python -m mbrules.cli``: the ``mbrules`` command."""

from .app import main

main()
