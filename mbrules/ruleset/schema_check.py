"""Schema layer: one file's data checked against the file JSON Schema, with friendly messages.

Every ``jsonschema`` error is turned into one (or a few) ``FILE:LINE:COL: message`` lines that say
what is wrong and what to do: an unknown key points at the key and lists the allowed ones; a
card whose ``kind`` is known reports only that kind's problems, not the noise of every branch of
the card union; a missing citation says to give exactly one of ``source`` or ``decided``.
"""

from __future__ import annotations

import difflib
import functools
import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .diagnostics import DataKey, Diagnostic, LocNode, YamlData, diag_at, dotted, quote, where_words
from .model import CITATION_NOT_BOTH, file_json_schema
from .schema_valid import Fit, compile_fit

if TYPE_CHECKING:  # jsonschema is imported only to say what is wrong with a file (schema_errors)
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

CITATION_HELP = (
    "give one of 'source' (the rulebook file and section that states it) "
    "or 'decided' (what we chose where the books are silent, and why), not both"
)

_PATTERN_WORDS = {
    r"^[a-z][a-z0-9_]*$": "an id is lowercase letters, digits and '_', starting with a letter (e.g. out_of_gas)",
    r"^[a-z0-9]+(-[a-z0-9]+)*$": "a ruleset id is lowercase letters and digits in words joined by '-' "
    "(e.g. my-house-rules)",
    r"^[1-9][0-9]?$": "a player count is a whole number from 1 to 99",
    r"^[^\n\r]*$": "it must fit on one line (no line breaks)",
    r"^[^\x00-\x1f\x7f-\x9f\u2028\u2029]*$": "it must fit on one line, without control characters (no line breaks, no tabs)",
}

_TYPE_WORDS = {
    "integer": "an integer",
    "number": "a number",
    "string": "text",
    "boolean": "true or false",
    "object": "a mapping",
    "array": "a list",
    "null": "null",
}


@functools.lru_cache(maxsize=1)
def file_schema() -> dict[str, Any]:
    """The file JSON Schema: the packaged one, else generated from the models."""
    return _packaged_schema() or file_json_schema()


@functools.lru_cache(maxsize=1)
def file_validator() -> Draft202012Validator:
    # The schema is checked against the 2020-12 metaschema by tests/test_schema_drift.py, not here:
    # that check took 60 ms of every command that reads a ruleset.
    from jsonschema import Draft202012Validator

    return Draft202012Validator(file_schema())


@functools.lru_cache(maxsize=1)
def _file_fit() -> Fit | None:
    return compile_fit(file_schema())


def _packaged_schema() -> dict[str, Any] | None:
    """The checked-in schema (schemas/ruleset.schema.json; mbrules._paths finds it): read, not
    generated from the models (that took 30 to 70 ms of every command that checks a file).
    tests/test_schema_drift.py keeps it equal to file_json_schema()."""
    from mbrules._paths import schemas_dir

    try:
        schema: dict[str, Any] = json.loads((schemas_dir() / "ruleset.schema.json").read_text("utf-8"))
        return schema
    except (OSError, ValueError):
        return None


def schema_errors(data: YamlData, locs: LocNode) -> list[Diagnostic]:
    """Every schema problem of one file's data, located with ``locs``. A file that fits the schema (nearly
    every one) is told so without jsonschema (:mod:`.schema_valid`: the same yes or no, 70 M instructions
    fewer); jsonschema is asked only what is wrong with one that does not."""
    fit = _file_fit()
    if fit is not None and fit.valid(data) is True:
        return []
    out: list[Diagnostic] = []
    for error in file_validator().iter_errors(data):
        out.extend(_describe(error, locs))
    return sorted(set(out))


def type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "mapping"
    if isinstance(value, list):
        return "list"
    return "null"


def show_value(value: Any) -> str:
    name = type_name(value)
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return f"string {text!r}"
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"{name} {value}"
    return name if name == "null" else f"a {name}"


def _type_word(name: str) -> str:
    return _TYPE_WORDS.get(name, name)


def _expected(schema: Mapping[str, Any]) -> list[str]:
    """What a (sub)schema accepts, in words."""
    if "const" in schema:
        return [repr(schema["const"])]
    if "enum" in schema:
        return [" or ".join(repr(v) for v in schema["enum"])]
    t = schema.get("type")
    if isinstance(t, list):
        return [_type_word(x) for x in t]
    if t:
        return [_type_word(t)]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return [w for sub in schema[key] for w in _expected(sub)]
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return [f"a mapping ({name})"]
    return []


def _hint_for(value: Any, expected: list[str]) -> str:
    if isinstance(value, bool) and "text" in expected:
        return " (YAML reads yes/no/on/off/true/false as true or false: put the text in quotes)"
    if isinstance(value, str) and "true or false" in expected and value.lower() in ("yes", "no", "y", "n"):
        return " (write true or false)"
    if isinstance(value, str) and any(e in ("an integer", "a number") for e in expected):
        if re.fullmatch(r"\s*-?[0-9]+\s*", value):
            return " (remove the quotes to write a number)"
    return ""


def _path(error: ValidationError) -> list[DataKey]:
    return list(error.absolute_path)


# jsonschema types these attributes "or unset": they are set on every error a validator reports.
def _keyword(error: ValidationError) -> Any:
    """The failed keyword's value in the schema (any JSON value: a list for ``required``, a number for ``maximum``)."""
    return error.validator_value


def _instance(error: ValidationError) -> YamlData:
    """The value the error is about, as read from the file."""
    return error.instance


def _schema(error: ValidationError) -> Mapping[str, Any]:
    """The (sub)schema the failed keyword is in (every one is a mapping here: the file schema has no
    ``true``/``false`` schemas)."""
    return error.schema if isinstance(error.schema, dict) else {}


def _describe(error: ValidationError, locs: LocNode) -> list[Diagnostic]:
    v = error.validator
    path = _path(error)
    inst = _instance(error)
    schema = _schema(error)

    if v == "additionalProperties" and isinstance(inst, dict):
        return _unknown_keys(error, locs)
    if v == "required" and isinstance(inst, dict):
        missing = [k for k in _keyword(error) if k not in inst]
        keys = ", ".join(f"'{k}'" for k in missing)
        word = "key" if len(missing) == 1 else "keys"
        msg = f"missing {word} {keys} {where_words(path)}"
        msg += "; add it"
        return [diag_at(locs, path, msg, key=True)]
    if v in ("oneOf", "anyOf"):
        return _alternatives(error, locs)
    if v == "not" and _keyword(error) == CITATION_NOT_BOTH:
        return [diag_at(locs, path, f"{CITATION_HELP} {where_words(path)}: this gives both", key=True)]
    if v == "type":
        expected = _expected(schema)
        msg = f"expected {' or '.join(expected)}, got {show_value(inst)}{_hint_for(inst, expected)}"
        if "value" in schema.get("properties", {}) and not isinstance(inst, dict):
            shown = json.dumps(inst) if isinstance(inst, (bool, int, float, str)) or inst is None else "..."
            msg += f" (a rule is written with its citation: {{value: {shown}, source: \"...\"}} or decided)"
        return [diag_at(locs, path, msg + f" {where_words(path)}")]
    if v == "enum":
        allowed = ", ".join(str(x) for x in _keyword(error))
        return [diag_at(locs, path, f"{_last(path)} must be one of {allowed}, got {show_value(inst)}")]
    if v == "const":
        return [diag_at(locs, path, f"{_last(path)} must be {_keyword(error)!r}, got {show_value(inst)}")]
    if v == "pattern":
        words = _PATTERN_WORDS.get(_keyword(error), f"it must match {_keyword(error)}")
        return [diag_at(locs, path, f"{show_value(inst)} is not valid for {_last(path)}: {words}")]
    if v == "propertyNames":
        return _bad_key_names(error, locs)
    if (
        v in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum")
        and "minimum" in schema
        and "maximum" in schema
    ):
        low, high = schema["minimum"], schema["maximum"]
        return [
            diag_at(
                locs,
                path,
                f"{_last(path)} must be between {low:,} and {high:,} (the allowed range), "
                f"got {quote(inst)}; choose a value in that range",
            )
        ]
    if v in ("minimum", "exclusiveMinimum"):
        return [diag_at(locs, path, f"{_last(path)} must be at least {_keyword(error)}, got {quote(inst)}")]
    if v in ("maximum", "exclusiveMaximum"):
        return [diag_at(locs, path, f"{_last(path)} must be at most {_keyword(error)}, got {quote(inst)}")]
    if v == "minLength":
        if _keyword(error) == 1:
            return [diag_at(locs, path, f"{_last(path)} must not be empty; write some text")]
        return [diag_at(locs, path, f"{_last(path)} must be at least {_keyword(error)} characters long")]
    if v == "maxLength":
        return [
            diag_at(
                locs, path, f"{_last(path)} is too long ({len(inst)} characters; at most {_keyword(error)}); shorten it"
            )
        ]
    if v == "maxItems":
        return [diag_at(locs, path, f"{_last(path)} has {len(inst)} items; at most {_keyword(error)} are allowed")]
    if v == "minItems":
        return [diag_at(locs, path, f"{_last(path)} needs at least {_keyword(error)} items")]
    return [diag_at(locs, path, f"{error.message} {where_words(path)}")]


def _last(path: list[DataKey]) -> str:
    return dotted(path) if path else "the document"


def _unknown_keys(error: ValidationError, locs: LocNode) -> list[Diagnostic]:
    schema = _schema(error)
    path = _path(error)
    props = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    out = []
    for key in _instance(error):
        if key in props or any(re.search(p, key) for p in patterns):
            continue
        if patterns and not props:
            words = "; ".join(_PATTERN_WORDS.get(p, f"keys must match {p}") for p in patterns)
            msg = f"{quote(key)} is not a valid key {where_words(path)}: {words}"
        else:
            allowed = ", ".join(props)
            close = difflib.get_close_matches(key, list(props), n=1)
            guess = f"; did you mean '{close[0]}'?" if close else ""
            msg = f"unknown key {quote(key)} {where_words(path)} (allowed: {allowed}){guess}"
        out.append(diag_at(locs, [*path, key], msg, key=True))
    return out


def _bad_key_names(error: ValidationError, locs: LocNode) -> list[Diagnostic]:
    path = _path(error)
    sub = _keyword(error) if isinstance(_keyword(error), dict) else {}
    limit = sub.get("maxLength")
    out = []
    for key in _instance(error) if isinstance(_instance(error), dict) else []:
        if limit is not None and len(key) > limit:
            out.append(
                diag_at(
                    locs,
                    [*path, key],
                    f"key '{key[:40]}...' is too long ({len(key)} characters; at most {limit}) {where_words(path)}",
                    key=True,
                )
            )
    return out or [diag_at(locs, path, f"{error.message} {where_words(path)}")]


def _branches(error: ValidationError) -> dict[int, list[ValidationError]]:
    groups: dict[int, list[ValidationError]] = {}
    for sub in error.context or []:
        branch = sub.schema_path[0]
        assert isinstance(branch, int)  # an anyOf/oneOf error's context: the path starts at a branch's index
        groups.setdefault(branch, []).append(sub)
    return groups


def _alternatives(error: ValidationError, locs: LocNode) -> list[Diagnostic]:
    path = _path(error)
    inst = _instance(error)
    schema = _schema(error)
    if "discriminator" in schema:
        return _tagged_union(error, locs)
    groups = _branches(error)
    if not groups:  # oneOf matched more than one branch
        return [diag_at(locs, path, f"{error.message} {where_words(path)}")]
    alternatives = _keyword(error)
    fitting = [
        i
        for i, errs in groups.items()
        if not any(e.validator in ("type", "const", "enum") and not e.relative_path for e in errs)
    ]
    # A branch that fits the value's type but fails a constraint: report its errors.
    for i in sorted(fitting):
        out: list[Diagnostic] = []
        for sub in groups[i]:
            out.extend(_describe(sub, locs))
        if out:
            return out
    expected = [w for alt in alternatives for w in _expected(alt)]
    msg = f"expected {' or '.join(dict.fromkeys(expected))}, got {show_value(inst)}{_hint_for(inst, expected)}"
    return [diag_at(locs, path, f"{msg} {where_words(path)}")]


def _tagged_union(error: ValidationError, locs: LocNode) -> list[Diagnostic]:
    path = _path(error)
    inst = _instance(error)
    mapping: dict[str, str] = _schema(error)["discriminator"]["mapping"]
    prop = _schema(error)["discriminator"].get("propertyName", "kind")
    kinds = list(mapping)
    if not isinstance(inst, dict):
        return [
            diag_at(
                locs,
                path,
                f"expected a mapping (a card with {prop}: {', '.join(kinds)}), "
                f"got {show_value(inst)} {where_words(path)}",
            )
        ]
    if prop not in inst:
        return [
            diag_at(
                locs,
                path,
                f"missing key '{prop}' {where_words(path)}: {prop} must be one of {', '.join(kinds)}",
                key=True,
            )
        ]
    kind = inst[prop]
    if not isinstance(kind, str) or kind not in mapping:
        return [diag_at(locs, [*path, prop], f"{prop} must be one of {', '.join(kinds)}, got {show_value(kind)}")]
    ref = mapping[kind]
    index = next(i for i, alt in enumerate(_keyword(error)) if alt.get("$ref") == ref)
    out: list[Diagnostic] = []
    for sub in _branches(error).get(index, []):
        out.extend(_describe(sub, locs))
    return out or [diag_at(locs, path, f"{error.message} {where_words(path)}")]
