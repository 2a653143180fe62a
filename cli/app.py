"""Entry point of the `mbrules` command. Each module below registers its commands on `app`."""
from __future__ import annotations

from .common import app  # noqa: F401
from . import ruleset_cmds  # noqa: F401  rulesets, show, validate, schema, diff
from . import play_cmds  # noqa: F401
from . import replay_cmd  # noqa: F401


def main() -> None:
    app()
