"""Reading scenario files: the ruleset loader's bounded YAML layer, several documents a file.

Our addition to the spec: a scenario file may hold several YAML documents separated by ``---``,
each a scenario of its own (``mbrules play --record`` writes one document per hand). Positions
stay those of the whole file. Everything else is the loader's YAML layer
(:mod:`mbrules.ruleset.yamlmarks`): the same reading and decoding checks (with a larger size
bound), safe composition only, duplicate keys refused, alias expansion and nesting bounded, plain
tags only; its messages name the file a scenario file (:data:`~mbrules.ruleset.yamlmarks.SCENARIO`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from mbrules.ruleset import yamlmarks as ym
from mbrules.ruleset.diagnostics import Diagnostic, LocNode, YamlMap

MAX_BYTES = 16 * 1024 * 1024  # a recorded match of many hands can pass the 1 MiB of a ruleset file
MAX_NODES = ym.MAX_NODES  # per document: a recorded hand is about 1,000 nodes
MAX_FILE_NODES = 200_000  # per file: room for a recorded match of a couple of hundred hands
TOO_LARGE = f"the file is larger than {MAX_BYTES >> 20} MiB: split the match into several files"


@dataclass
class Document:
    """One scenario document: data (a mapping, or None when unreadable), positions, problems."""

    file: str  # as shown in messages
    index: int  # 1-based position in the file
    data: YamlMap | None
    locs: LocNode | None
    line: int = 1
    errors: list[Diagnostic] = field(default_factory=list)


def read_documents(path: Path, file: str) -> list[Document]:
    """Every document of one scenario file. OSError (missing, unreadable, not a regular file: the
    file is opened once and checked on its descriptor, :func:`~mbrules.ruleset.yamlmarks.read_regular`)
    goes to the caller."""
    text, errors = ym.decode_text(ym.read_bytes(path, MAX_BYTES), file, MAX_BYTES, TOO_LARGE, ym.SCENARIO)
    if text is None:
        return [Document(file, 1, None, None, 1, errors)]
    return parse_documents(text, file)


def parse_documents(text: str, file: str) -> list[Document]:
    """Compose each document safely and build plain data with positions (never raises for bad input)."""
    try:
        roots = ym.compose_documents(text, max_nodes=MAX_NODES, max_file_nodes=MAX_FILE_NODES, kind=ym.SCENARIO)
    except ym.YamlError as exc:
        return [Document(file, exc.document, None, None, exc.line, [exc.diagnostic(file)])]
    docs: list[Document] = []
    for i, root in enumerate(roots, start=1):
        line, col = ym.position(root)
        if isinstance(root, yaml.ScalarNode) and root.tag == ym.T_NULL and root.value in ("", "~", "null"):
            if len(roots) > 1:
                continue  # an empty document ('---' at the end of a file) holds no scenario
        # A key YAML 1.1 reads as a boolean stays the text written: the spec writes ``on: B`` (the
        # side a hazard is played on), so ``on`` works unquoted and a stray ``yes:`` is an unknown key.
        try:
            data, locs, errors = ym.build_document(root, file, bool_keys_as_text=True, kind=ym.SCENARIO)
        except ym.YamlError as exc:
            docs.append(Document(file, i, None, None, line, [exc.diagnostic(file)]))
            continue
        if not isinstance(data, dict):
            what = {list: "a list"}.get(type(data), "a single value" if data is not None else "empty")
            errors.append(
                Diagnostic(
                    file,
                    line,
                    col,
                    f"the document is {what}, not a mapping: a scenario is a "
                    "mapping of keys 'scenario:', 'source:', 'ruleset:', "
                    "'players:', 'steps:'",
                )
            )
            docs.append(Document(file, i, None, None, line, errors))
            continue
        docs.append(Document(file, i, data, locs, line, errors))
    if not docs:
        docs.append(
            Document(
                file,
                1,
                None,
                None,
                1,
                [
                    Diagnostic(
                        file, 1, 1, "the file is empty: a scenario is a mapping that starts with 'scenario: TITLE'"
                    )
                ],
            )
        )
    return docs
