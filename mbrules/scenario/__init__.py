"""Scenario files: the format (model), replaying them through the engine, recording matches."""

from .model import Scenario, scenario_json_schema
from .record import record_match, write_scenario_file
from .replay import ScenarioPathError, ScenarioResult, collect, replay_file, replay_paths

__all__ = [
    "Scenario",
    "ScenarioPathError",
    "ScenarioResult",
    "collect",
    "record_match",
    "replay_file",
    "replay_paths",
    "scenario_json_schema",
    "write_scenario_file",
]
