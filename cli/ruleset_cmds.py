"""Ruleset commands: rulesets, show, validate, schema, diff (contract: Commands).

The ruleset package (pydantic models, the loader: about 110 ms) is imported inside the commands
that use it, not when the app is built, so that --help and 'schema' need not pay for it.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from mbrules.ruleset import LoadReport, Ruleset
    from mbrules.ruleset.listing import Summary
    from mbrules.ruleset.loader import Origin

from .common import EXIT_CHECK_FAILED, EXIT_OK, EXIT_USAGE, app, fail, fold

JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout instead of text.")]
OptionFlag = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        metavar="OPTION",
        help="An option to apply (a bundled option id or a path to an option file); repeat for more, applied in order.",
    ),
]


def _print_json(doc: Any) -> None:
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    # A lone surrogate (a file name that is not UTF-8) as its JSON escape: stdout can write that.
    text = re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", text)
    sys.stdout.write(text + "\n")


def _as_typed(lines: list[str], ref: str) -> list[str]:
    """Messages about the file the user named, with its path as the user typed it."""
    if not ref.lower().endswith((".yaml", ".yml")):
        return lines
    from mbrules.ruleset.diagnostics import display_path, printable
    from mbrules.ruleset.yamlmarks import real_path

    try:
        shown = printable(display_path(real_path(Path(ref).absolute())))
    except (OSError, ValueError):
        return lines
    typed = printable(ref)
    return [typed + line[len(shown) :] if line.startswith(shown + ":") else line for line in lines]


def _report(ref: str, options: list[str] | None) -> LoadReport:
    from mbrules.ruleset import RulesetError, load_report

    try:
        report = load_report(ref, options or ())
    except RulesetError as exc:
        fail(_as_typed(exc.lines, ref), EXIT_USAGE if exc.usage else EXIT_CHECK_FAILED)
    for line in _as_typed(report.warnings, ref):
        print(line, file=sys.stderr)
    return report


def _load(ref: str, options: list[str] | None) -> Ruleset:
    from mbrules.ruleset import RulesetError, load_ruleset

    try:
        return load_ruleset(ref, options or ())
    except RulesetError as exc:
        fail(_as_typed(exc.lines, ref), EXIT_USAGE if exc.usage else EXIT_CHECK_FAILED)


@app.command("rulesets")
def rulesets_cmd(
    as_json: JsonFlag = False,
    every: Annotated[
        bool,
        typer.Option("--all", "-a", help="List each ruleset and option with its one-line description."),
    ] = False,
    long: Annotated[
        bool,
        typer.Option(
            "--long", "-l", help="Give each option's description, source and exclusive groups, not only its name."
        ),
    ] = False,
) -> None:
    """List the bundled rulesets, and the options by category, in a screen; --all: each with its one-line description, --long: with its description, source and exclusive groups."""
    from mbrules.ruleset.listing import bundled_folder, bundled_ids, summary  # no models

    from .common import output_width

    rulesets = [summary(bundled_folder(False) / f"{i}.yaml", i) for i in bundled_ids(False)]
    options = [summary(bundled_folder(True) / f"{i}.yaml", i) for i in bundled_ids(True)]
    if as_json:
        _print_json(
            {
                "rulesets": [{"id": s.id, "name": s.name, "description": s.description} for s in rulesets],
                "options": [
                    {
                        "id": s.id,
                        "name": s.name,
                        "description": s.description,
                        "category": s.category or None,
                        "source": s.source or None,
                        "groups": list(s.groups),
                    }
                    for s in options
                ],
            }
        )
    elif every or long:
        _print_rulesets_long(rulesets, options, output_width(), long)
    else:
        _print_rulesets_short(rulesets, options, output_width())


def _print_rulesets_long(rulesets: list[Summary], options: list[Summary], columns: int, long: bool) -> None:
    """``mbrules rulesets --all`` (each ruleset and option with its one-line description) or ``--long`` (each
    option with its description, source and groups), the options by category."""
    from mbrules.ruleset.listing import OPTION_CATEGORIES

    width = max((len(s.id) for s in rulesets + options), default=10) + 2
    typer.echo("Rulesets (mbrules show ID):")
    for s in rulesets:
        _entry(s.id, [s.name, s.description], width, columns)
    typer.echo("")
    typer.echo(fold("Options (--option ID), by what they change; two of one group cannot go together:", columns, 0))
    known = list(OPTION_CATEGORIES)
    for cat in [*known, ""]:
        members = [s for s in options if (s.category if s.category in known else "") == cat]
        if not members:
            continue
        typer.echo("")
        typer.echo(fold(f"{cat.capitalize()}: {OPTION_CATEGORIES[cat]}" if cat else "Other (no category):", columns, 2))
        for s in members:
            lines = [s.description if long else s.name]
            if long and s.source:
                lines.append(f"source: {s.source}")
            if long and s.groups:
                lines.append(f"group: {', '.join(s.groups)}")
            _entry(s.id, lines, width, columns)
    if not long:
        typer.echo("")
        typer.echo(
            fold(
                "Each option's description, source and groups: mbrules rulesets --long; its rules in words: "
                "mbrules show RULESET --option ID.",
                columns,
                0,
            )
        )


def _entry(ident: str, lines: list[str], width: int, columns: int) -> None:
    """An id in a column ``width`` wide, then its paragraphs wrapped in the column after it, for ``columns``
    (an id too long for it: on its own line)."""
    import textwrap

    indent = " " * (2 + width)
    column = max(20, columns - len(indent))
    out: list[str] = []  # each line with its indent
    for text in lines:
        # a source's address or a test's name stays whole; a paragraph holding a word longer than the
        # column takes the width under the id instead, so that no line passes the screen
        wide = any(len(word) > column for word in text.split())
        start = "    " if wide else indent
        wrapped = textwrap.wrap(text, max(20, columns - len(start)), break_on_hyphens=False, break_long_words=False)
        out += [start + line for line in wrapped or [""]]
    if out[0].startswith(indent):
        typer.echo(f"  {ident:<{width}}{out.pop(0)[len(indent) :]}")
    else:
        typer.echo(f"  {ident}")
    for line in out:
        typer.echo(line)


def _print_rulesets_short(rulesets: list[Summary], options: list[Summary], columns: int) -> None:
    """``mbrules rulesets`` in a screen: each ruleset on a line (its id and name, folded at the width), then
    each category of options on a line or two (their ids); ``--all`` gives every one-line description."""
    from mbrules.ruleset.listing import OPTION_CATEGORIES

    width = max(len(s.id) for s in rulesets) + 2
    typer.echo("Rulesets (mbrules show ID):")
    for s in rulesets:
        typer.echo(fold(f"  {s.id:<{width}}{s.name}", columns, 2 + width))
    typer.echo("")
    typer.echo(fold("Options (--option ID), by what they change:", columns, 0))
    known = list(OPTION_CATEGORIES)
    for cat in [*known, ""]:
        ids = [s.id for s in options if (s.category if s.category in known else "") == cat]
        if ids:
            typer.echo(fold(f"  {cat.capitalize() if cat else 'Other'}: {', '.join(ids)}", columns, 4))
    typer.echo("")
    typer.echo(
        fold(
            "Each one with its one-line description: mbrules rulesets --all; with its source and groups: --long; "
            "its rules in words: mbrules show RULESET --option ID.",
            columns,
            0,
        )
    )


@app.command("show")
def show_cmd(
    ruleset: Annotated[
        str,
        typer.Argument(
            metavar="RULESET", help="A bundled ruleset id (see 'mbrules rulesets') or a path to a YAML file."
        ),
    ],
    option: OptionFlag = None,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            min=1,
            max=99,
            help="Also show the setup for this many players: deck size, "
            "sides and who plays for each, target, extension, "
            "removed cards.",
        ),
    ] = None,
    explain: Annotated[
        bool,
        typer.Option(
            "--explain",
            "-e",
            help="Also say where each value came from: the file, line and column "
            "that set it (parent, the file's options, the file, then --option), "
            "and its citation (source, decided, or uncited).",
        ),
    ] = False,
    changed: Annotated[
        bool | None,
        typer.Option(
            "--changed/--all",
            help="With --explain: only the values the file itself and its "
            "options (and each --option) set, or every value. Default: "
            "--changed for a file, --all for a bundled id.",
            show_default=False,
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Show a resolved ruleset: cards, relations, play rules, coup fourré, scoring, match.

    Values marked (uncited) were written without a source or decided. Composition order, later wins: the parent, the file's options, the file itself, then each --option."""
    from mbrules.ruleset.render import UnsupportedPlayers, show_json, show_text

    if changed is not None and not explain:
        fail("mbrules: --changed and --all go with --explain", EXIT_USAGE)
    report = _report(ruleset, option) if explain else None
    rs = report.ruleset if report is not None else _load(ruleset, option)
    if report is not None and changed is None:
        changed = ruleset.lower().endswith((".yaml", ".yml"))  # a user's file: what it changes
    origins = report.origins if report is not None else []
    if report is not None and changed:
        own = _own_files(report.files, len(option or []))
        origins = [o for o in origins if o.file in own]
    try:
        if as_json:
            doc = show_json(rs, players)
            if report is not None:
                doc["files"] = report.files
                doc["explain"] = "changed" if changed else "all"
                doc["origins"] = [o.as_json() for o in origins]
            _print_json(doc)
        else:
            typer.echo(fold(show_text(rs, players)), nl=False)
            if report is not None:
                _print_origins(report, origins, len(option or []), bool(changed))
    except UnsupportedPlayers as exc:
        fail(f"mbrules: {exc}", EXIT_USAGE)


def _print_origins(report: LoadReport, origins: list[Origin], given_options: int, changed: bool) -> None:
    """show --explain in text: the files in the order they were laid down, then each value with the file,
    line and column that set it and its citation (``changed``: only what the named file and its options set)."""
    files = ", ".join(_shown_file(f) for f in report.files) + (", then --option" if given_options else "")
    typer.echo("")
    if changed:
        top = _shown_file(_own_files(report.files, given_options)[0])
        typer.echo(
            fold(
                f"What {top} and its options change (files in the order they were laid "
                f"down, later wins: {files}; --all lists every value)"
            )
        )
    else:
        typer.echo(fold(f"Where each value comes from (files in the order they were laid down, later wins: {files})"))
    for o in origins:
        cite = f"  [{o.citation}]" if o.citation else ""
        typer.echo(
            fold(
                f"  {o.path} = {json.dumps(o.value, ensure_ascii=False)}  "
                f"({_shown_file(o.file)}:{o.line}:{o.col}){cite}"
            )
        )


def _shown_file(file: str) -> str:
    """A bundled file by its id (``winning-moves``, ``extension-1200``), never by where it is installed."""
    from mbrules.ruleset.listing import bundled_folder

    p = Path(file)
    if p.suffix == ".yaml":
        try:
            where = p.resolve().parent
            if where in (bundled_folder(False).resolve(), bundled_folder(True).resolve()):
                return p.stem
        except OSError:
            pass
    return file


def _is_option_file(file: str) -> bool:
    from mbrules.ruleset.listing import bundled_folder

    p = Path(file)
    try:
        if p.resolve().parent == bundled_folder(True).resolve():
            return True
        with open(p, encoding="utf-8", errors="replace") as f:
            return re.search(r"^kind:\s*[\"']?option\b", f.read(64 * 1024), re.M) is not None
    except OSError:
        return False


def _own_files(files: list[str], given_options: int) -> list[str]:
    """The file named on the command line (first), then every option file laid down: its own
    ``options:`` and each --option (the last ``given_options`` files)."""
    top = files[-(given_options + 1)]
    return [top] + [f for f in files if f != top and _is_option_file(f)]


@app.command("validate")
def validate_cmd(
    files: Annotated[
        list[str], typer.Argument(metavar="FILE", help="Ruleset or option files (YAML) to check.", show_default=False)
    ],  # text: printed as typed; unreadable: FILE:1:1
    as_json: JsonFlag = False,
) -> None:
    """Check ruleset and option files: every error as FILE:LINE:COL: message on stderr.

    A ruleset is checked fully resolved (extends, options); an option file (kind: option) is checked by the schema and by applying it over winning-moves. Prints 'OK FILE' for each valid file. Exit 1 if a file is invalid, 2 if a file cannot be read.
    """
    from mbrules.ruleset import RulesetError, check_file
    from mbrules.ruleset.diagnostics import printable

    results = []
    code = EXIT_OK
    for path in files:
        try:
            result = check_file(Path(path))
        except RulesetError as exc:
            for line in exc.lines:
                print(line, file=sys.stderr)
            results.append(
                {
                    "file": str(path),
                    "kind": "unreadable",
                    "ok": False,
                    "errors": [{"message": line} for line in exc.lines],
                }
            )
            code = EXIT_USAGE
            continue
        typed = printable(str(path))  # the file as the user typed it (messages about it too)
        shown = [d if d.file != result.file else type(d)(typed, d.line, d.col, d.message) for d in result.diagnostics]
        for d in shown:
            print(str(d), file=sys.stderr)
        for w in result.warnings:
            print(w, file=sys.stderr)
        if result.ok:
            if not as_json:
                typer.echo(f"OK {typed}")
        elif code == EXIT_OK:
            code = EXIT_CHECK_FAILED
        results.append(
            {
                "file": typed,
                "kind": result.kind,
                "ok": result.ok,
                "errors": [d.as_json() for d in shown],
                "warnings": list(result.warnings),
            }
        )
    if as_json:
        _print_json({"ok": code == EXIT_OK, "files": results})
    if code:
        raise typer.Exit(code)


@app.command("schema")
def schema_cmd(
    which: Annotated[
        str,
        typer.Argument(
            help="ruleset (a ruleset or option file) or scenario (a scenario file).", metavar="[ruleset|scenario]"
        ),
    ] = "ruleset",
    as_json: JsonFlag = False,
) -> None:
    """Print the JSON Schema (2020-12) of ruleset files or scenario files."""
    del as_json  # the schema is JSON already
    if which == "ruleset":
        from mbrules.ruleset.model import schema_text
    elif which == "scenario":
        from mbrules.scenario.model import schema_text
    else:
        fail(f"mbrules: unknown schema '{which}': choose ruleset or scenario", EXIT_USAGE)
    sys.stdout.write(schema_text())


@app.command("diff")
def diff_cmd(
    first: Annotated[str, typer.Argument(metavar="RULESET_A", help="The ruleset to compare from (id or path).")],
    second: Annotated[str, typer.Argument(metavar="RULESET_B", help="The ruleset to compare to (id or path).")],
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            metavar="OPTION",
            help="An option applied to the SECOND ruleset (repeat for more), so "
            "'mbrules diff winning-moves winning-moves --option hazard-on-hazard' shows what the "
            "option changes.",
        ),
    ] = None,
    exit_code: Annotated[
        bool,
        typer.Option(
            "--exit-code", help="Exit 1 when the rulesets differ, 0 when they do not (as 'git diff --exit-code')."
        ),
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """The rule differences between two resolved rulesets, in words. Options apply to the second.

    Exit 0 (with --exit-code: 0 only when there is no difference, 1 when there is one), 1 if a file is invalid, 2 for a usage error."""
    from mbrules.ruleset.diff import diff_rulesets

    a = _load(first, None)
    b = _load(second, option)
    changes = diff_rulesets(a, b)
    if as_json:
        _print_json(
            {
                "a": {"id": a.id, "name": a.name, "options": list(a.applied_options)},
                "b": {"id": b.id, "name": b.name, "options": list(b.applied_options)},
                "changes": [c.as_json() for c in changes],
            }
        )
        if exit_code and changes:
            raise typer.Exit(EXIT_CHECK_FAILED)
        return

    def label(rs: Ruleset) -> str:
        return rs.id + (f" (options: {', '.join(rs.applied_options)})" if rs.applied_options else "")

    typer.echo(fold(f"{label(a)} → {label(b)}"))
    if not changes:
        typer.echo("  no rule differences")
    for c in changes:
        typer.echo(fold(f"  {c}"))
    if exit_code and changes:
        raise typer.Exit(EXIT_CHECK_FAILED)
