"""One YAML, diagnostics and error-mapping layer for rulesets and scenarios alike: messages name the
file kind through a parameter (never by rewriting text, so what a user wrote is quoted as written),
and one mapper turns a pydantic validation into FILE:LINE:COL diagnostics for both."""

from __future__ import annotations

from typing import Annotated, Literal, Union

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from mbrules.ruleset import yamlmarks as ym
from mbrules.ruleset.diagnostics import ModelWords, validation_diagnostics
from mbrules.scenario.yamlio import parse_documents


def _text_of(diags) -> str:
    return "\n".join(map(str, diags))


def test_a_yaml_problem_names_the_kind_of_file_it_is_in():
    tagged = "a: !!python/object:os.system x\n"
    assert "a ruleset file is plain YAML" in _text_of(ym.parse_text(tagged, "r.yaml").errors)
    (doc,) = parse_documents(tagged, "s.yaml")
    assert "a scenario file is plain YAML" in _text_of(doc.errors)
    assert "ruleset" not in _text_of(doc.errors)


def test_what_a_user_wrote_is_quoted_as_written_in_a_scenario_message():
    (doc,) = parse_documents("'a ruleset file': 1\n'a ruleset file': 2\n", "s.yaml")
    assert "duplicate key 'a ruleset file'" in _text_of(doc.errors)


@pytest.mark.parametrize("kind", [ym.RULESET, ym.SCENARIO])
def test_the_node_bound_message_names_the_file_kind(kind):
    with pytest.raises(ym.YamlError) as info:
        ym.compose_documents("[" + ", ".join(["1"] * 50) + "]\n", max_nodes=10, kind=kind)
    assert f"({kind.a_file} is small)" in info.value.message


def _composed(text: str, **bounds) -> tuple:
    try:
        return ("composed", len(ym.compose_documents(text, **bounds)))
    except ym.YamlError as exc:
        return (exc.line, exc.col, exc.message, exc.document)


_ITEMS = "  - 1\n  - {a: [b, c]}\n  - &xN ü\n  - *xN\n  - k: v\n    'é': [1]\n"
_BOUND_TEXTS = {
    "block": "id: x\njunk:\n" + "".join(_ITEMS.replace("N", str(n)) for n in range(40)),
    "flow": "junk: [" + ", ".join(f"{{é{n}: [1, 2]}}" for n in range(80)) + "]\n",
    "syntax error past the bound": "junk:\n" + "  - 1\n" * 60 + "  - [\n",
    "syntax error before": "junk:\n" + "  - 1\n" * 20 + "  - [\n" + "  - 1\n" * 60,
    "undefined alias before": "junk:\n  - *nothere\n" + "  - 1\n" * 60,
    "duplicate anchor before": "a: &d 1\nb: &d 2\njunk:\n" + "  - 1\n" * 60,
    "several documents": ("---\na: [1, 2, 3]\n" * 40),
}


@pytest.mark.parametrize("bounds", [dict(max_nodes=50), dict(max_nodes=20, max_file_nodes=90, kind=ym.SCENARIO)])
@pytest.mark.parametrize("name", list(_BOUND_TEXTS))
def test_libyaml_refuses_at_the_node_bound_as_the_python_composer_does(monkeypatch, name, bounds):
    """Past the node bound libyaml's events refuse the file themselves (the pure-Python composer took a CPU-second
    to read a 20,001-node file to the same place): the same words, line, column and document as the pure-Python
    path gives, which is the path without libyaml; a problem before the bound (a syntax error, an alias or
    anchor the composer refuses) still goes to that path and is what is said."""
    text = _BOUND_TEXTS[name]
    fast = _composed(text, **bounds)
    monkeypatch.setattr(ym, "_CLoader", None)
    assert fast == _composed(text, **bounds)
    if "before" not in name:
        assert "too many YAML nodes" in str(fast[2])
        monkeypatch.undo()
        monkeypatch.setattr(ym, "_BoundedLoader", None)  # the refusal does not reach the pure-Python composer
        assert _composed(text, **bounds) == fast


class Leaf(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["leaf"]
    size: int


class Other(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["other"]
    name: str


class Root(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    title: str
    count: int
    items: dict[str, Annotated[Union[Leaf, Other], Field(discriminator="kind")]]


def _map(text: str, words: ModelWords | None = None) -> list[str]:
    parsed = ym.parse_text(text, "f.yaml")
    assert not parsed.errors
    with pytest.raises(ValidationError) as info:
        Root.model_validate(parsed.data)
    return [str(d) for d in validation_diagnostics(info.value.errors(), parsed.data, parsed.locs, words)]


def test_missing_keys_of_one_mapping_make_one_message_at_the_mapping():
    out = _map("items: {}\n")
    assert out == ["f.yaml:1:1: missing keys 'title', 'count' at the top level; add them"]


def test_a_union_branch_tag_is_not_taken_for_a_key_of_the_data():
    out = _map("title: t\ncount: 1\nitems:\n  a: {kind: leaf}\n")
    assert out == ["f.yaml:4:3: missing key 'size' in items.a; add it"]


def test_a_wrong_type_says_where_and_what_was_written_when_the_kind_asks():
    out = _map("title: t\ncount: '3'\nitems: {}\n")
    assert out == ["f.yaml:2:8: Input should be a valid integer in count"]
    out = _map("title: t\ncount: '3'\nitems: {}\n", ModelWords(show_value=True))
    assert out == ["f.yaml:2:8: Input should be a valid integer in count (got '3')"]


def test_an_unknown_key_lists_the_keys_the_kind_of_file_allows_there():
    words = ModelWords(model_at=lambda path, data: Root if not path else None)
    out = _map("title: t\ncount: 1\nitems: {}\ncolour: red\n", words)
    assert out == [
        "f.yaml:4:1: unknown key 'colour' at the top level (allowed here: title, count, items): remove "
        "it or fix its spelling"
    ]


def test_a_kind_gives_its_own_words_for_a_value():
    words = ModelWords(
        explain=lambda path, value: ("a count is a number", "write digits") if path == ["count"] else None
    )
    out = _map("title: t\ncount: three\nitems: {}\n", words)
    assert out == ["f.yaml:2:8: a count is a number in count: write digits"]
