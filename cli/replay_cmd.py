"""`mbrules replay PATH... [--json]`: run scenario files (spec: scenarios.md, Output of mbrules replay)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List

import typer

from .common import EXIT_CHECK_FAILED, EXIT_OK, EXIT_USAGE, app, fail


def _ruleset_kind(path: Path) -> str | None:
    """'a ruleset' or 'an option' when the file looks like one (top-level ruleset sections or
    'kind: option', and no scenario key), else None. Read only after the file failed as a scenario:
    its first 64 KiB, as text (no second YAML parse)."""
    import re

    from mbrules.ruleset.listing import SECTIONS

    try:
        with open(path, "rb") as fh:
            text = fh.read(64 * 1024).decode("utf-8", "replace")
    except OSError:
        return None
    keys = set(re.findall(r"^([a-z_]+)\s*:", text, flags=re.M))
    if keys & {"scenario", "steps", "setup"}:
        return None
    if re.search(r"^kind\s*:\s*option\s*$", text, flags=re.M):
        return "an option"
    if keys & (set(SECTIONS) | {"extends"}):
        return "a ruleset"
    return None


@app.command("replay")
def replay(
    paths: List[Path] = typer.Argument(
        ...,
        metavar="PATH...",
        help="scenario files, or folders (every *.yaml under them, sorted)",
        show_default=False,
        readable=False,
    ),  # an unreadable file is reported by replay_file, naming it
    as_json: bool = typer.Option(False, "--json", help="print one JSON document with every scenario's result"),
) -> None:
    """Run scenario files: one line a scenario (PASS/FAIL title), a diff for each failure, then 'N passed, N failed'.

    Exit 0 when none failed, 1 when one failed or a file is invalid, 2 when a path does not exist.

    Example: mbrules play -p 2 --record game.yaml, then mbrules replay game.yaml
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
        what = _ruleset_kind(f) if len(file_results) == 1 and not file_results[0].passed else None
        if what is not None:  # a ruleset or an option where a scenario belongs: say so, not 14 key errors
            shown = printable(str(f))
            print(
                f"{shown}:1:1: this is {what}, not a scenario: check it with 'mbrules validate {shown}'"
                + ("" if what.endswith("option") else f", play it with 'mbrules play --ruleset {shown}'"),
                file=sys.stderr,
            )
            if not as_json:
                print(f"FAIL {shown} ({what}, not a scenario)", flush=True)
            results += file_results  # counted as failed: exit 1
            continue
        for r in file_results:
            for d in r.errors:  # an invalid file is an error where a file is involved: stderr too
                print(d, file=sys.stderr)
            if not as_json:
                print("\n".join(printable(line) for line in r.lines()), flush=True)
        results += file_results
    passed = sum(r.passed for r in results)
    failed = len(results) - passed
    if as_json:
        print(
            json.dumps(
                {"scenarios": [r.as_json() for r in results], "passed": passed, "failed": failed, "files": len(files)},
                indent=2,
            )
        )
    else:
        print(summary_line(results))
    raise typer.Exit(EXIT_OK if failed == 0 else EXIT_CHECK_FAILED)
