"""Rulesets as data: the model, the loader, validation and diff."""
from .diagnostics import Diagnostic, RulesetError
from .loader import (
    FileCheck,
    LoadReport,
    Origin,
    RulesetWarning,
    Summary,
    bundled_option_ids,
    bundled_ruleset_ids,
    check_file,
    clear_cache,
    load_report,
    load_ruleset,
    option_summary,
    ruleset_summary,
)
from .model import Ruleset

__all__ = [
    "Diagnostic", "FileCheck", "LoadReport", "Origin", "Ruleset", "RulesetError", "RulesetWarning", "Summary",
    "bundled_option_ids", "bundled_ruleset_ids", "check_file", "clear_cache", "load_report", "load_ruleset",
    "option_summary", "ruleset_summary",
]
