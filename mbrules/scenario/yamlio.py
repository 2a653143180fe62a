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

MAX_BYTES = 16 * 1024 * 1024  # a recorded match of many hands can pass the 1 MiB of a ruleset file

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
    with open(path, "rb") as fh:
        raw = fh.read(MAX_BYTES + 1)
    text, errors = _decode(raw, file)
    if text is None:
        return [Document(file, 1, None, None, 1, [_scenario_words(e) for e in errors])]
    return parse_documents(text, file)


def _decode(raw: bytes, file: str) -> tuple[str | None, list[Diagnostic]]:
    """UTF-8 text without control characters (the loader's checks), up to MAX_BYTES."""
    if len(raw) > MAX_BYTES:
        return None, [Diagnostic(file, 1, 1, f"the file is larger than {MAX_BYTES >> 20} MiB: split the match "
                                             "into several files")]
    if len(raw) <= ym.MAX_BYTES:
        return ym.decode_text(raw, file)
    # A recorded match may pass the loader's 1 MiB bound for ruleset files: the same checks, here.
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        prefix = raw[: exc.start].decode("utf-8", errors="replace")
        line, col = ym._line_col_of_offset(prefix, len(prefix))
        return None, [Diagnostic(file, line, col, f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be decoded; "
                                                  "save the file as UTF-8 text")]
    bad = ym._CONTROL.search(text)
    if bad is not None:
        line, col = ym._line_col_of_offset(text, bad.start())
        return None, [Diagnostic(file, line, col, f"control character U+{ord(bad.group()):04X} is not allowed in a "
                                                  "scenario file; remove it")]
    return text, []


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
