"""Rulesets as data: the model, the loader, validation and diff."""
from .loader import RulesetError, load_ruleset
from .model import Ruleset

__all__ = ["Ruleset", "RulesetError", "load_ruleset"]
