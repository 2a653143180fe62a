"""Shell completion of values (``mbrules --install-completion``).

A parameter completes by its name, the same in every command: a ruleset (``show RULESET``, ``diff``'s
two, ``compare``'s A and B, ``--ruleset``) offers the bundled ruleset ids, an option (``--option``,
``--option-a``, ``--option-b``) the bundled option ids, ``--bot`` the bot names. A value that looks
like a path (it holds a ``/``, starts with ``.`` or ``~``, or ends in ``.yaml``), or that no bundled
name starts with, gets no names back: the shell then completes it as a file, as before.
"""

from __future__ import annotations

import importlib
from typing import Any

RULESET_PARAMS = frozenset({"ruleset", "first", "second", "a", "b"})
OPTION_PARAMS = frozenset({"option", "option_a", "option_b"})
BOT_PARAMS = frozenset({"bot"})


def looks_like_path(text: str) -> bool:
    return "/" in text or text.startswith((".", "~")) or text.lower().endswith((".yaml", ".yml"))


def values_for(param: str, incomplete: str) -> list[str] | None:
    """The names that complete ``incomplete`` for the parameter named ``param`` (None: not one of ours)."""
    if param in BOT_PARAMS:
        from mbrules.bots import bot_names

        pool = bot_names()
    elif param in RULESET_PARAMS or param in OPTION_PARAMS:
        if looks_like_path(incomplete):
            return []
        from mbrules.ruleset.listing import bundled_ids

        pool = bundled_ids(param in OPTION_PARAMS)
    else:
        return None
    return [v for v in pool if v.startswith(incomplete)]


def install() -> None:
    """Typer's parameters complete by name (only while the shell asks: nothing is imported before)."""
    from typer import core

    # recent Typer carries its own copy of Click (typer._click) and no longer installs Click: the
    # CompletionItem is the one typer.core builds with, whichever Click that is (older Typer: Click's)
    CompletionItem: Any = getattr(core, "CompletionItem", None)
    if CompletionItem is None:
        CompletionItem = importlib.import_module("click.shell_completion").CompletionItem

    for cls in (core.TyperArgument, core.TyperOption):
        complete = cls.shell_complete

        def shell_complete(self: Any, ctx: Any, incomplete: str, _complete: Any = complete) -> Any:
            if self._custom_shell_complete is None and self.name:
                names = values_for(self.name, incomplete)
                if names is not None:
                    return [CompletionItem(v) for v in names]
            return _complete(self, ctx, incomplete)

        cls.shell_complete = shell_complete  # type: ignore[method-assign]  # Typer has no hook for completing values by name
