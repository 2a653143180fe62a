"""Rulesets as data: the model, the loader, validation and diff.

The names below are imported on first use (PEP 562), so that a command that only lists the bundled
files (``mbrules rulesets``, :mod:`mbrules.ruleset.listing`) does not build the pydantic models.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_WHERE = {
    "Diagnostic": "diagnostics",
    "RulesetError": "diagnostics",
    "Ruleset": "model",
    **{
        name: "loader"
        for name in (
            "FileCheck",
            "LoadReport",
            "Origin",
            "RulesetWarning",
            "Summary",
            "bundled_option_ids",
            "bundled_ruleset_ids",
            "check_file",
            "clear_cache",
            "load_report",
            "load_ruleset",
            "option_summary",
            "ruleset_summary",
        )
    },
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:  # for type checkers and editors (``X as X``: re-exported, as __all__ says at run time)
    from .diagnostics import Diagnostic as Diagnostic, RulesetError as RulesetError
    from .loader import (
        FileCheck as FileCheck,
        LoadReport as LoadReport,
        Origin as Origin,
        RulesetWarning as RulesetWarning,
        Summary as Summary,
        bundled_option_ids as bundled_option_ids,
        bundled_ruleset_ids as bundled_ruleset_ids,
        check_file as check_file,
        clear_cache as clear_cache,
        load_report as load_report,
        load_ruleset as load_ruleset,
        option_summary as option_summary,
        ruleset_summary as ruleset_summary,
    )
    from .model import Ruleset as Ruleset
