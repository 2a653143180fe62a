"""`mbrules replay PATH... [--json]`: run scenario files (spec: scenarios.md, Output of mbrules replay)."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List

import typer

from .common import EXIT_CHECK_FAILED, EXIT_OK, EXIT_USAGE, app, fail


@app.command("replay")
def replay(
    paths: List[Path] = typer.Argument(
        ..., metavar="PATH...", help="scenario files, or folders (every *.yaml under them, sorted)",
        show_default=False, readable=False),  # an unreadable file is reported by replay_file, naming it
    as_json: bool = typer.Option(False, "--json", help="print one JSON document with every scenario's result"),
) -> None:
    """Run scenario files: one line a scenario (PASS/FAIL title), a diff for each failure, then 'N passed, N failed'.

    Exit 0 when none failed, 1 when one failed or a file is invalid, 2 when a path does not exist.
    """
    from mbrules.ruleset.diagnostics import printable  # control characters and lone surrogates escaped
    from mbrules.scenario.replay import ScenarioPathError, collect, replay_file, summary_line  # only here

    try:
        files = collect(paths)
    except ScenarioPathError as exc:
        fail(printable(str(exc)), EXIT_USAGE)
    results = []
    for f in files:
        try:
            file_results = replay_file(f)
        except ScenarioPathError as exc:
            fail(printable(str(exc)), EXIT_USAGE)
        for r in file_results:
            for d in r.errors:  # an invalid file is an error where a file is involved: stderr too
                print(d, file=sys.stderr)
            if not as_json:
                print("\n".join(printable(line) for line in r.lines()), flush=True)
        results += file_results
    passed = sum(r.passed for r in results)
    failed = len(results) - passed
    if as_json:
        print(json.dumps({"scenarios": [r.as_json() for r in results], "passed": passed, "failed": failed,
                          "files": len(files)}, indent=2))
    else:
        print(summary_line(results))
    raise typer.Exit(EXIT_OK if failed == 0 else EXIT_CHECK_FAILED)
