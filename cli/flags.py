"""The flags several commands share, declared once (``Annotated`` aliases): the same names, help and
behaviour in every command that takes them. A command gives its own default after ``=``.

Only Typer is imported here (cheap). The flags of the commands that play many matches (``--workers``,
``--backend``, ``--address``) are in :mod:`cli.backends`, with the checks that go with them; those of the
ruleset commands (``--json``, ``--option``) in :mod:`cli.ruleset_cmds`.
"""

from __future__ import annotations

from typing import Annotated

import typer

RULESET_HELP = "Bundled ruleset id or path to a YAML file."

RulesetFlag = Annotated[str, typer.Option("--ruleset", "-r", help=RULESET_HELP)]
"""``--ruleset`` of the commands that default to a bundled ruleset (play, simulate, ladder)."""

RulesetArgument = Annotated[str, typer.Argument(help=RULESET_HELP, metavar="RULESET")]
"""The ruleset a command cannot do without (train)."""

OptionsFlag = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="Option id or path; repeat to apply several, in order.")
]
"""``--option`` of the commands that play (play, simulate, ladder, train)."""

PlayersFlag = Annotated[int, typer.Option("--players", "-p", "-n", help="Number of players.")]
"""``--players`` (simulate, ladder, sweep, train; play and compare say more of it)."""
