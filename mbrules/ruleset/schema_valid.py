"""Whether one file's data fits the file JSON Schema: jsonschema's yes or no, without jsonschema.

``mbrules show`` and ``validate`` check every file they read against the schema; nearly every file is
valid, and then the check only has to say so. :func:`compile_fit` reads the schema once; its
:meth:`Fit.valid` gives the same answer as
``Draft202012Validator(schema).is_valid(data)`` for the keywords the file schema uses (each read as
jsonschema's ``_keywords`` reads it: a keyword about strings passes any other type, ``integer``
takes 3.0, ``true`` is not ``1``, ``additionalProperties`` weighs the ``patternProperties`` joined
with ``|``), with every ``$ref`` looked up once. Only when a file does not fit does
:mod:`.schema_check` import jsonschema (and its ``referencing``: about 70 M instructions) to say
why. A schema with a keyword this does not know, or a ``$ref`` outside the document, is not read here
(:func:`compile_fit` answers None): jsonschema decides. ``tests/test_schema_valid.py`` holds the two to the
same answer on every bundled file and on mutated ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

_Schema = dict[str, Any] | bool
_Check = Callable[[Any, dict[str, Any], Any], bool]  # (keyword's value, the schema it is in, instance)

# Keywords that say nothing about validity (annotations, the schema's own bookkeeping).
_NOTES = frozenset({"title", "description", "default", "examples", "$defs", "$schema", "$comment", "deprecated"})


def _is_object(x: Any) -> bool:
    return isinstance(x, dict)


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": _is_object,
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
    "number": _is_number,
    "integer": lambda x: (isinstance(x, int) and not isinstance(x, bool)) or (isinstance(x, float) and x.is_integer()),
}

_TRUE, _FALSE = object(), object()


def _unbool(x: Any) -> Any:
    return _TRUE if x is True else _FALSE if x is False else x


def equal(one: Any, two: Any) -> bool:
    """JSON equality as jsonschema's ``enum`` and ``const`` test it: ``true`` is not ``1``, ``1`` is ``1.0``."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, (list, tuple)) and isinstance(two, (list, tuple)):
        return len(one) == len(two) and all(equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, dict) and isinstance(two, dict):
        return len(one) == len(two) and all(k in two and equal(v, two[k]) for k, v in one.items())
    return bool(_unbool(one) == _unbool(two))


class _Fit:
    """The file schema, read once: :meth:`valid` walks an instance through it."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.refs: dict[str, _Schema] = {}
        self.checks: dict[str, _Check] = {
            "type": lambda v, s, x: any(_TYPES[t](x) for t in (v if isinstance(v, list) else [v])),
            "enum": lambda v, s, x: any(equal(e, x) for e in v),
            "const": lambda v, s, x: equal(x, v),
            "pattern": lambda v, s, x: not isinstance(x, str) or re.search(v, x) is not None,
            "minLength": lambda v, s, x: not isinstance(x, str) or len(x) >= v,
            "maxLength": lambda v, s, x: not isinstance(x, str) or len(x) <= v,
            "minimum": lambda v, s, x: not _is_number(x) or x >= v,
            "maximum": lambda v, s, x: not _is_number(x) or x <= v,
            "minItems": lambda v, s, x: not isinstance(x, list) or len(x) >= v,
            "maxItems": lambda v, s, x: not isinstance(x, list) or len(x) <= v,
            "required": lambda v, s, x: not isinstance(x, dict) or all(k in x for k in v),
            "properties": self._properties,
            "patternProperties": self._pattern_properties,
            "additionalProperties": self._additional,
            "propertyNames": lambda v, s, x: not isinstance(x, dict) or all(self.valid(v, k) for k in x),
            "items": self._items,
            "anyOf": lambda v, s, x: any(self.valid(sub, x) for sub in v),
            "allOf": lambda v, s, x: all(self.valid(sub, x) for sub in v),
            "oneOf": lambda v, s, x: sum(1 for sub in v if self.valid(sub, x)) == 1,
            "not": lambda v, s, x: not self.valid(v, x),
            "if": self._if,
            "then": lambda v, s, x: True,  # read with "if"
            "else": lambda v, s, x: True,
            "$ref": lambda v, s, x: self.valid(self.refs[v], x),
        }

    def readable(self) -> bool:
        """Every keyword of the schema (and of each part a ``$ref`` reaches) is one :meth:`valid` reads,
        every ``$ref`` points inside the document."""
        if not self._readable(self.root, top=True):
            return False
        done: set[str] = set()
        while len(done) < len(self.refs):  # each part a $ref reaches, once (refs may reach more refs)
            ref = next(r for r in self.refs if r not in done)
            done.add(ref)
            if not self._readable(self.refs[ref]):
                return False
        return True

    def _readable(self, node: Any, top: bool = False) -> bool:
        if isinstance(node, bool):
            return True
        if not isinstance(node, dict):
            return False
        for key, value in node.items():
            if key in _NOTES or (key == "$id" and top):
                continue
            if key not in self.checks or (key == "items" and "prefixItems" in node):
                return False
            if key == "type" and not all(t in _TYPES for t in (value if isinstance(value, list) else [value])):
                return False
            if key == "$ref" and not self._look_up(value):
                return False
            if not all(self._readable(sub) for sub in _parts(key, value)):
                return False
        return True

    def _look_up(self, ref: Any) -> bool:
        if not isinstance(ref, str) or not ref.startswith("#") or "%" in ref:
            return False
        if ref in self.refs:
            return True
        node: Any = self.root
        for part in ref[1:].split("/")[1:] if ref != "#" else []:
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(node, dict) or part not in node:
                return False
            node = node[part]
        if not isinstance(node, (dict, bool)):
            return False
        self.refs[ref] = node
        return True

    def valid(self, schema: _Schema, x: Any) -> bool:
        if schema is True:
            return True
        if schema is False:
            return False
        checks = self.checks
        for key, value in schema.items():
            check = checks.get(key)
            if check is not None and not check(value, schema, x):
                return False
        return True

    def _properties(self, props: dict[str, Any], schema: dict[str, Any], x: Any) -> bool:
        if not isinstance(x, dict):
            return True
        return all(self.valid(sub, x[k]) for k, sub in props.items() if k in x)

    def _pattern_properties(self, patterns: dict[str, Any], schema: dict[str, Any], x: Any) -> bool:
        if not isinstance(x, dict):
            return True
        return all(self.valid(sub, v) for p, sub in patterns.items() for k, v in x.items() if re.search(p, k))

    def _additional(self, extra: Any, schema: dict[str, Any], x: Any) -> bool:
        if not isinstance(x, dict):
            return True
        props = schema.get("properties", {})
        patterns = "|".join(schema.get("patternProperties", {}))
        others = [k for k in x if k not in props and not (patterns and re.search(patterns, k))]
        if isinstance(extra, dict):
            return all(self.valid(extra, x[k]) for k in others)
        return bool(extra) or not others

    def _items(self, items: _Schema, schema: dict[str, Any], x: Any) -> bool:
        return not isinstance(x, list) or all(self.valid(items, item) for item in x)

    def _if(self, cond: _Schema, schema: dict[str, Any], x: Any) -> bool:
        if self.valid(cond, x):
            return "then" not in schema or self.valid(schema["then"], x)
        return "else" not in schema or self.valid(schema["else"], x)


def _parts(key: str, value: Any) -> list[Any]:
    """The subschemas a keyword holds (None where it should hold one and does not: not readable)."""
    if key in ("properties", "patternProperties"):
        return list(value.values()) if isinstance(value, dict) else [None]
    if key in ("anyOf", "allOf", "oneOf"):
        return list(value) if isinstance(value, list) and value else [None]
    if key in ("additionalProperties", "propertyNames", "items", "not", "if", "then", "else"):
        return [value]
    return []


class Fit:
    """:func:`compile_fit`'s answer: the schema read once."""

    def __init__(self, fit: _Fit) -> None:
        self._fit = fit

    def valid(self, data: Any) -> bool | None:
        """Whether ``data`` fits the schema, as jsonschema says (None: nesting too deep to walk here)."""
        try:
            return self._fit.valid(self._fit.root, data)
        except RecursionError:
            return None


def compile_fit(schema: dict[str, Any]) -> Fit | None:
    """``schema`` (a JSON Schema 2020-12 document) read once for :meth:`Fit.valid`, or None when it uses
    something this does not read (then only jsonschema can say)."""
    fit = _Fit(schema)
    return Fit(fit) if fit.readable() else None
