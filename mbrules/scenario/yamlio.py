"""Reading scenario files: the ruleset loader's bounded YAML layer, several documents a file.

Our addition to the spec: a scenario file may hold several YAML documents separated by ``---``,
each a scenario of its own (``mbrules play --record`` writes one document per hand). Positions
stay those of the whole file. Everything else is the loader's YAML layer
(:mod:`mbrules.ruleset.yamlmarks`): safe composition only, duplicate keys refused, alias
expansion and nesting bounded, plain tags only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from mbrules.ruleset import yamlmarks as ym
from mbrules.ruleset.diagnostics import Diagnostic, LocNode

@dataclass
class Document:
    """One scenario document: data (a mapping, or None when unreadable), positions, problems."""

    file: str  # as shown in messages
    index: int  # 1-based position in the file
    data: Any
    locs: LocNode | None
    line: int = 1
    errors: list[Diagnostic] = field(default_factory=list)


class _ScenarioBuilder(ym._Builder):
    """The loader's builder, but a key YAML 1.1 reads as a boolean stays the text written.

    The spec writes ``on: B`` (the side a hazard is played on); PyYAML's safe resolver reads a bare
    ``on`` (like ``yes``, ``off``) as true. In a scenario such a key is its text, so ``on`` works
    unquoted and a stray ``yes:`` is reported as an unknown key.
    """

    def _key(self, key_node):
        if isinstance(key_node, yaml.ScalarNode) and key_node.tag == ym.T_BOOL:
            return key_node.value
        return super()._key(key_node)


def _scenario_words(d: Diagnostic) -> Diagnostic:
    msg = d.message.replace("a ruleset file", "a scenario file").replace("ruleset file", "scenario file")
    return Diagnostic(d.file, d.line, d.col, msg)


def read_documents(path: Path, file: str) -> list[Document]:
    """Every document of one scenario file. OSError (missing, unreadable) goes to the caller."""
    text, errors = ym.decode_text(ym.read_bytes(path), file)
    if text is None:
        return [Document(file, 1, None, None, 1, [_scenario_words(e) for e in errors])]
    return parse_documents(text, file)


def parse_documents(text: str, file: str) -> list[Document]:
    """Compose each document safely and build plain data with positions (never raises for bad input)."""
    docs: list[Document] = []
    loader = ym._BoundedLoader(text)
    roots = []
    try:
        try:
            while loader.check_node():
                roots.append(loader.get_node())
        except ym._Abort as exc:
            line, col = ym._pos(exc.mark)
            return [Document(file, len(roots) + 1, None, None, line,
                             [_scenario_words(Diagnostic(file, line, col, exc.message))])]
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line, col = ym._pos(mark) if mark is not None else (1, 1)
            return [Document(file, len(roots) + 1, None, None, line,
                             [Diagnostic(file, line, col, ym._syntax_message(exc))])]
        except RecursionError:
            return [Document(file, 1, None, None, 1, [Diagnostic(file, 1, 1, "nesting too deep to read")])]
    finally:
        loader.dispose()
    for i, root in enumerate(roots, start=1):
        line, col = ym._pos(root.start_mark)
        if isinstance(root, yaml.ScalarNode) and root.tag == ym.T_NULL and root.value in ("", "~", "null"):
            if len(roots) > 1:
                continue  # an empty document ('---' at the end of a file) holds no scenario
        builder = _ScenarioBuilder(file)
        try:
            ym._check_expansion(root)
            data, locs = builder.build(root, None, 1)
        except ym._Abort as exc:
            el, ec = ym._pos(exc.mark)
            docs.append(Document(file, i, None, None, line, [_scenario_words(Diagnostic(file, el, ec, exc.message))]))
            continue
        errors = [_scenario_words(e) for e in builder.errors]
        if not isinstance(data, dict):
            what = {list: "a list"}.get(type(data), "a single value" if data is not None else "empty")
            errors.append(Diagnostic(file, line, col, f"the document is {what}, not a mapping: a scenario is a "
                                                      "mapping of keys 'scenario:', 'source:', 'ruleset:', "
                                                      "'players:', 'steps:'"))
            docs.append(Document(file, i, None, None, line, errors))
            continue
        docs.append(Document(file, i, data, locs, line, errors))
    if not docs:
        docs.append(Document(file, 1, None, None, 1, [Diagnostic(
            file, 1, 1, "the file is empty: a scenario is a mapping that starts with 'scenario: TITLE'")]))
    return docs
