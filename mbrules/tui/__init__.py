"""Play a seat yourself: ``mbrules play --human p1`` (a Rich prompt loop; see :mod:`mbrules.tui.session`)."""

from .session import HumanSession, QuitMatch, hint_bot_name, no_terminal, run_human

__all__ = ["HumanSession", "QuitMatch", "hint_bot_name", "no_terminal", "run_human"]
