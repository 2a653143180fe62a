"""The scenario model and its checked-in JSON Schema (schemas/scenario.schema.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from pydantic import ValidationError

from mbrules.vocab import REASON_CODES
from mbrules.scenario.model import ActionStep, Expect, ExpectStep, Scenario, scenario_json_schema, schema_text
from mbrules.scenario.yamlio import read_documents

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "schemas" / "scenario.schema.json"
VALID = sorted((ROOT / "tests" / "conformance").rglob("*.yaml")) + sorted(
    (ROOT / "tests" / "scenarios_format" / "valid").rglob("*.yaml")
)

BASE = {"scenario": "t", "source": "s", "ruleset": "winning-moves", "players": 2}


def test_checked_in_scenario_schema_matches_the_model():
    assert SCHEMA.read_text(encoding="utf-8") == schema_text(), (
        "schemas/scenario.schema.json is out of date with mbrules/scenario/model.py: run `make schemas` "
        "(or `mbrules schema scenario > schemas/scenario.schema.json`) and commit the result"
    )


def test_scenario_schema_is_json_schema_2020_12():
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)
    assert schema == scenario_json_schema()


def test_schema_reason_codes_are_the_engines():
    schema = scenario_json_schema()
    rejected = schema["$defs"]["ActionStep"]["properties"]["rejected"]
    enums = [b.get("enum") or ([b["const"]] if "const" in b else None) for b in rejected["anyOf"]]
    codes = {c for e in enums if e for c in e if isinstance(c, str)}
    assert codes == set(REASON_CODES)


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    """One validator for the module's files (building it cost 13 ms a file, three quarters of the test)."""
    return Draft202012Validator(scenario_json_schema())


@pytest.mark.parametrize("path", VALID, ids=[p.relative_to(ROOT).as_posix() for p in VALID])
def test_every_scenario_file_in_the_repo_meets_the_json_schema_and_the_model(path, validator):
    for doc in read_documents(path, str(path)):
        assert not doc.errors, doc.errors
        errors = [e.message for e in validator.iter_errors(doc.data)]
        assert not errors, f"{path} document {doc.index}: {errors}"
        Scenario.model_validate(doc.data)


BAD_STEPS = [
    ({"player": "p1", "play": "d25", "discard": "d50"}, "two actions"),
    ({"player": "p1"}, "needs one of"),
    ({"player": "p1", "discard": "d25", "on": "B"}, "'on:' goes only with 'play:'"),
    ({"player": "p1", "extension": True, "draw": "d25"}, "'draw:' cannot go with 'extension:'"),
    ({"player": "p1", "play": "d25", "rejected": False}, "rejected"),
    ({"player": "p1", "play": "d25", "rejected": "not-moving"}, "rejected"),
    ({"player": "p1", "extension": "yes"}, "extension"),
    ({"player": "P1", "play": "d25"}, "player"),
    ({"player": "p1", "play": "d25", "on": "b"}, "on"),
    ({"player": "p1", "play": "d25", "colour": "red"}, "colour"),
    ({"expect": {"turn": "p1", "miles": 3}}, "miles"),
    ({"expect": {"sides": {"A": {"rolling": True}}}}, "rolling"),
    ({"expect": {"score": {"A": {"Bonus": 3}}}}, "Bonus"),  # a ruleset's own line is snake_case (scoring.lines)
    ({"expect": {"score": {"A": {"bonus": "3"}}}}, "bonus"),
    ({"expect": {"winner": "nobody"}}, "winner"),
]


@pytest.mark.parametrize(("step", "word"), BAD_STEPS, ids=[w for _, w in BAD_STEPS])
def test_the_model_refuses_bad_steps(step, word, validator):
    with pytest.raises(ValidationError) as info:
        Scenario.model_validate({**BASE, "steps": [step]})
    assert word in str(info.value)
    # The JSON Schema refuses them too (editors see the same format).
    assert list(validator.iter_errors({**BASE, "steps": [step]}))


@pytest.mark.parametrize(
    "bad",
    [
        {"players": "4"},
        {"players": True},
        {"ruleset": ""},
        {"scenario": "two\nlines"},
        {"steps": []},
        {"setup": {"rest": "hand"}},
        {"setup": {"seed": -1}},
        {"setup": {"turn": "p0"}},
        {"setup": {"sides": {"A": {"pile": []}}}},
        {"setup": {"hands": {"p1": "d25"}}},
        {"extra": 1},
    ],
)
def test_the_model_refuses_bad_top_levels(bad, validator):
    data = {**BASE, "steps": [{"player": "p1", "play": "d25"}], **bad}
    with pytest.raises(ValidationError):
        Scenario.model_validate(data)
    assert list(validator.iter_errors(data))


def test_expect_tells_a_null_written_from_a_key_left_out():
    e = ExpectStep.model_validate({"expect": {"winner": None, "sides": {"A": {"battle": None}}}}).expect
    assert isinstance(e, Expect)
    assert "winner" in e.model_fields_set and "turn" not in e.model_fields_set
    assert e.sides["A"].model_fields_set == {"battle"}


def test_action_key():
    assert ActionStep.model_validate({"player": "p2", "extension": False}).action_key == "extension"
    assert ActionStep.model_validate({"player": "p2", "coup_fourre": "driving_ace"}).action_key == "coup_fourre"
