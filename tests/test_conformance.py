"""Every scenario under tests/conformance/**/*.yaml is its own test, failing with the replay's diff.

The test id is the file's path below tests/conformance without '.yaml'
(``winning-moves/s07-coup-fourre-skips-players``; ``#2`` and on for the further documents of a
multi-document file). Each test also carries the id with '_' for '-' as a keyword (a mark), so
``pytest -k coup-fourre`` and ``pytest -k coup_fourre`` both select it.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from mbrules.ruleset.diagnostics import display_path
from mbrules.scenario.replay import run_document
from mbrules.scenario.yamlio import read_documents

ROOT = Path(__file__).parent / "conformance"


def _params():
    out = []
    for path in sorted(ROOT.rglob("*.yaml")):
        rel = path.relative_to(ROOT).with_suffix("").as_posix()
        docs = read_documents(path, display_path(path))
        for doc in docs:
            ident = rel if doc.index == 1 else f"{rel}#{doc.index}"
            keyword = "".join(ch if ch.isalnum() else "_" for ch in rel)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", pytest.PytestUnknownMarkWarning)
                mark = getattr(pytest.mark, keyword)
            out.append(pytest.param(path, doc, id=ident, marks=mark))
    return out


PARAMS = _params()


def test_conformance_folder_has_scenarios():
    assert PARAMS, f"no scenarios under {ROOT}"


@pytest.mark.parametrize(("path", "doc"), PARAMS)
def test_conformance(path, doc):
    result = run_document(doc, path.parent)
    if not result.passed:
        pytest.fail("\n".join(result.lines()), pytrace=False)
