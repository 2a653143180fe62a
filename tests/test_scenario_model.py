"""The scenario model and its checked-in JSON Schema (schemas/scenario.schema.json)."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from pydantic import ValidationError

from mbrules.vocab import REASON_CODES
from mbrules.scenario.model import ActionStep, Expect, ExpectStep, Scenario, scenario_json_schema, schema_text
from mbrules.scenario.yamlio import read_documents
from tiers import cover

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


def _judged_keys(node, key: str | None = None) -> set[str]:
    """The schema's property names whose values it judges by more than their type (an enum, a const, a
    pattern): 'rejected', 'draw_from', a card, a player."""
    out: set[str] = set()
    if isinstance(node, dict):
        if key is not None and ("enum" in node or "const" in node or "pattern" in node):
            out.add(key)
        for k, v in node.items():
            inner = key if k in ("anyOf", "allOf", "oneOf", "items", "additionalProperties", "$defs") else k
            out |= _judged_keys(v, None if k in ("properties", "$defs") else inner)
    elif isinstance(node, list):
        for v in node:
            out |= _judged_keys(v, key)
    return out - {"scenario"}  # its title: free text


JUDGED = _judged_keys(scenario_json_schema())


def _shape(node, path: tuple = ()) -> set[tuple]:
    """What the schema meets in a document: each path (players and sides as one, list items as one) with its
    value's type, and the value itself where the schema judges it (JUDGED)."""
    if isinstance(node, dict):
        out = {(path, "dict")}
        for k, v in node.items():
            name = "p#" if re.fullmatch(r"p[0-9]+", str(k)) else "S" if re.fullmatch(r"[A-Z]", str(k)) else str(k)
            out |= _shape(v, (*path, name))
        return out
    if isinstance(node, list):
        return {(path, "list")}.union(*(_shape(v, (*path, "*")) for v in node))
    judged = path and path[-1] in JUDGED and isinstance(node, (str, bool))
    return {(path, type(node).__name__, node if judged else None)}


@functools.cache
def _conformance_documents() -> dict[Path, list]:
    """test_conformance's documents (read at its collection) by file: one pass over its 437 params, not one a
    file (416 scans comparing paths: ~0.2 CPU-s of the collection)."""
    import test_conformance

    out: dict[Path, list] = {}
    for param in test_conformance.PARAMS:
        path, doc = param.values
        out.setdefault(path, []).append(doc)
    return out


def _documents(path: Path) -> list:
    """The file's documents: test_conformance's, read at its collection, or read here."""
    return _conformance_documents().get(path) or read_documents(path, str(path))


def _file_shape(path: Path) -> set[tuple]:
    return set().union(*(_shape(doc.data) for doc in _documents(path)))


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    """One validator for the module's files (building it cost 13 ms a file, three quarters of the test)."""
    return Draft202012Validator(scenario_json_schema())


@pytest.mark.parametrize("path", cover(VALID, _file_shape, ids=lambda p: p.relative_to(ROOT).as_posix()))
def test_every_scenario_file_in_the_repo_meets_the_json_schema_and_the_model(path, validator):
    """Each file (make test); the fast set the ~45 files that together show every path, type and judged value
    any file shows (tiers.cover): the schema's validation was ~14 ms a file, 416 files (issue 46 point 7)."""
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
