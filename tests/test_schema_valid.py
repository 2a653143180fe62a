"""The file schema's yes or no without jsonschema (issue 46, start-up): ``mbrules show`` and ``validate``
tell a file that fits the schema so through :mod:`mbrules.ruleset.schema_valid`, and ask jsonschema
only what is wrong with one that does not. A file that one of them accepts and the other refuses would
either go unchecked or lose its messages, so the two are held to the same answer here: on every bundled
file and on files mutated at the data level (values retyped, out of range, keys removed or unknown)."""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from mbrules.ruleset.model import Ruleset
from mbrules.ruleset.schema_check import _file_fit, file_schema, file_validator, schema_errors
from mbrules.ruleset.schema_valid import compile_fit, equal
from mbrules.ruleset.yamlmarks import parse_bytes

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "rulesets" / "options").glob("*.yaml"))
ODD: list[Any] = [None, True, False, 0, 1, -1, 1.0, 2.5, 3.0, 10**7, -(10**7), "", "x", "stop", "1", "*", "a" * 700]
ODD += [
    "a\tb",
    [],
    [1],
    ["stop"],
    {},
    {"value": 1},
    {"value": True, "source": "s"},
    {"value": 1, "decided": "d", "source": "s"},
]


def _data(path: Path) -> Any:
    return parse_bytes(path.read_bytes(), str(path)).data


def _places(d: Any, pre: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    kids = d.items() if isinstance(d, dict) else enumerate(d) if isinstance(d, list) else []
    return [p for k, v in kids for p in [(*pre, k), *_places(v, (*pre, k))]]


def _mutated(rng: random.Random, doc: Any) -> Any:
    d = copy.deepcopy(doc)
    for _ in range(rng.choice([1, 1, 2, 3])):
        places = _places(d)
        if not places:
            break
        place = rng.choice(places)
        cur = d
        for part in place[:-1]:
            cur = cur[part]
        roll = rng.random()
        if roll < 0.25 and isinstance(cur, dict):
            del cur[place[-1]]
        elif roll < 0.4 and isinstance(cur, dict):
            cur[rng.choice(["bogus", "value", "source", "decided", "kind", "count", "2", "*", "99", "Abc"])] = (
                rng.choice(ODD)
            )
        elif roll < 0.55 and isinstance(cur[place[-1]], int) and not isinstance(cur[place[-1]], bool):
            cur[place[-1]] = rng.choice([cur[place[-1]] * 1000, -cur[place[-1]], float(cur[place[-1]]), True])
        elif roll < 0.7 and isinstance(cur[place[-1]], str):
            cur[place[-1]] = rng.choice(["", cur[place[-1]] + "\t", cur[place[-1]].upper(), cur[place[-1]] * 50, 5])
        else:
            cur[place[-1]] = copy.deepcopy(rng.choice(ODD))
    return d


def test_the_file_schema_is_read_without_jsonschema():
    """Every keyword of the packaged schema is one schema_valid reads: the fast answer is in use."""
    assert _file_fit() is not None


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_bundled_file_fits_as_jsonschema_says(path: Path):
    data = _data(path)
    fit = _file_fit()
    assert fit is not None and fit.valid(data) is True and file_validator().is_valid(data)


def test_mutated_files_get_jsonschemas_answer():
    """600 files mutated at the data level (seeded): the same yes or no as jsonschema's is_valid, and a
    refused file still gets jsonschema's messages (schema_errors is not empty)."""
    rng = random.Random(46)
    docs = [_data(p) for p in FILES]
    fit, validator = _file_fit(), file_validator()
    assert fit is not None
    refused = 0
    for _ in range(600):
        d = _mutated(rng, rng.choice(docs))
        ours, theirs = fit.valid(d), validator.is_valid(d)
        assert ours == theirs, d
        refused += not theirs
    assert 200 < refused < 600  # both answers were asked for many times


def test_a_refused_file_is_described_by_jsonschema():
    """A value out of range: the fast check says no, and jsonschema's error is said at its line and column."""
    parsed = parse_bytes((ROOT / "rulesets" / "winning-moves.yaml").read_bytes(), "w.yaml")
    assert parsed.data is not None and parsed.locs is not None
    parsed.data["play"]["hand_size"]["value"] = 0
    fit = _file_fit()
    assert fit is not None and fit.valid(parsed.data) is False
    (error,) = [str(e) for e in schema_errors(parsed.data, parsed.locs)]
    assert re.fullmatch(
        r"w\.yaml:\d+:\d+: play\.hand_size\.value must be between 1 and 1,000,000 \(the allowed range\), "
        r"got '0'; choose a value in that range",
        error,
    ), error


def test_a_schema_with_a_keyword_it_does_not_read_is_left_to_jsonschema():
    """uniqueItems, a $ref to another document, a nested $id: not read here (None), never guessed."""
    schema = copy.deepcopy(file_schema())
    assert compile_fit(schema) is not None
    for extra in ({"uniqueItems": True}, {"$ref": "other.json#/x"}, {"$id": "https://example.org/x"}):
        assert compile_fit({**schema, "properties": {**schema["properties"], "x": extra}}) is None


def test_enum_and_const_tell_true_from_one_as_jsonschema_does():
    assert not equal(True, 1) and not equal(0, False) and equal(1, 1.0) and equal([1, "a"], [1.0, "a"])
    assert not equal({"a": True}, {"a": 1}) and equal({"a": [None]}, {"a": [None]}) and not equal("1", 1)


def _defaults_of(model: type[BaseModel]) -> list[tuple[str, BaseModel]]:
    found = []
    for name, f in model.model_fields.items():
        if isinstance(f.default, BaseModel):
            found.append((f"{model.__name__}.{name}", f.default))
        if isinstance(f.annotation, type) and issubclass(f.annotation, BaseModel):  # a section: play, turn, ...
            found.extend(_defaults_of(f.annotation))
    return found


def test_every_default_rule_value_is_what_validation_makes():
    """The model's default rule values are built without validation at import (model_construct: no
    validator per class before the first ruleset is read); each one equals what validating its own
    fields gives (its citation included) and carries the same fields as set."""
    defaults = _defaults_of(Ruleset)
    assert len(defaults) >= 28
    for where, value in defaults:
        again = type(value).model_validate(value.model_dump(exclude_unset=True))
        assert again == value and again.model_fields_set == value.model_fields_set, where


def test_a_section_left_out_is_what_validation_makes():
    """fast_play, karma and turn, when a file leaves them out, are made with model_construct (no validator
    built for their classes while a ruleset is read): each equals the section validated from nothing, with
    no field set, and a resolved ruleset's copy equals that too."""
    from mbrules.ruleset import load_ruleset

    rs = load_ruleset("winning-moves")
    for name in ("fast_play", "karma", "turn"):
        factory = Ruleset.model_fields[name].default_factory
        assert factory is not None, name
        made = factory()  # type: ignore[call-arg]
        validated = type(made).model_validate({})
        assert made == validated and made.model_fields_set == validated.model_fields_set == set(), name
        assert getattr(rs, name) == validated, name
