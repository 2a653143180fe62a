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
