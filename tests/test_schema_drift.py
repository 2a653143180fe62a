"""The checked-in ruleset schema is the one the model generates (editors and outside tools read the file)."""

from __future__ import annotations

import json
from pathlib import Path

from jsonschema import Draft202012Validator

from mbrules.ruleset.model import file_json_schema, schema_text

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "schemas" / "ruleset.schema.json"


def test_checked_in_ruleset_schema_matches_the_model():
    assert SCHEMA.read_text(encoding="utf-8") == schema_text(), (
        "schemas/ruleset.schema.json is out of date with mbrules/ruleset/model.py: run `make schemas` "
        "and commit the result"
    )


def test_ruleset_schema_is_valid_json_schema_2020_12():
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema == file_json_schema()


def test_bundled_files_point_editors_at_the_schema():
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        assert path.read_text(encoding="utf-8").startswith(
            "# yaml-language-server: $schema=../schemas/ruleset.schema.json\n"
        ), path.name
    for path in sorted((ROOT / "rulesets" / "options").glob("*.yaml")):
        assert path.read_text(encoding="utf-8").startswith(
            "# yaml-language-server: $schema=../../schemas/ruleset.schema.json\n"
        ), path.name
