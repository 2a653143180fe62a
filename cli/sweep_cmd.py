"""``mbrules sweep RULESET --set PATH=VALUES``: which value of a rule gives what. A thin layer over
:func:`mbrules.sweep.run_sweep` (the orchestration lives in the library): flags, progress, output."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console, JustifyMethod

from mbrules.bots import bot_names

if TYPE_CHECKING:
    from mbrules.engine import Game
    from mbrules.sweep.run import Sweep
    from mbrules.sweep.values import Setting

from .backends import AddressFlag, BackendFlag, WorkersFlag, check_backend, check_run
from .common import EXIT_CHECK_FAILED, EXIT_USAGE, app, fail, output_width
from .flags import PlayersFlag
from .layout import fits, folded, print_lines, table, wrap
from .reports import check_folder_name, check_report_folder, end_run, folder_run
from .inputs import check_bot_count

DEFAULT_GAMES = 200


# sweep's own flags
_Ruleset = Annotated[str, typer.Argument(metavar="RULESET", help="A bundled ruleset id or a path to a YAML file.")]
_Set = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        help="PATH=VALUES: a value as 'mbrules show RULESET --explain' names it (player_counts.2.target, cards.stop.count, match.target_points, scoring.safe_trip, player_counts.*.target) and its values: a list (500,700,900) or a range FROM..TO:STEP (600..1400:100); at most 50. Repeat to move several values together, point by point (as many values each).",
    ),
]
_Options = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="Option applied under every value (id or path); repeat, applied in order."),
]
_Games = Annotated[int, typer.Option("--games", "-g", help="Matches per value (every value dealt the same seeds).")]
_Metric = Annotated[
    list[str] | None,
    typer.Option(
        "--metric",
        "-m",
        help="A metric drawn as a response curve (default turns_per_hand and hands_per_match); repeat. Every metric is in the JSON and the report.",
    ),
]
_Target = Annotated[
    str | None,
    typer.Option(
        "--target",
        help="METRIC=VALUE (e.g. turns_per_hand=60; a share in percent, 0 to 100: first_side_win_share=55 or =55% is 55%, =1 is 1%): names the values whose 95% interval holds it, and the closest.",
    ),
]
_Bots = Annotated[
    list[str] | None,
    typer.Option(
        "--bot",
        "-b",
        help="One bot for everybody, or one per player (default heuristic). Bots: " + ", ".join(bot_names()) + ".",
    ),
]
_Seed = Annotated[int, typer.Option("--seed", "-s", help="Seed: match i of every value is dealt from (seed, i).")]
_Json = Annotated[
    bool,
    typer.Option(
        "--json",
        help="One JSON document on stdout: headline (at most three sentences), summary (the trends in words), points (one per value, each with every metric and its 95% interval), trend, target.",
    ),
]
_Out = Annotated[
    str | None,
    typer.Option(
        "--out",
        help="Folder to write the report in (created if missing): index.html, response.png, response.svg, points.csv, sweep.json.",
    ),
]
_NoCharts = Annotated[bool, typer.Option("--no-charts", help="With --out: no charts (no matplotlib needed).")]


@app.command()
def sweep(
    ruleset: _Ruleset,
    set_: _Set = None,
    option: _Options = None,
    players: PlayersFlag = 2,
    games: _Games = DEFAULT_GAMES,
    metric: _Metric = None,
    target: _Target = None,
    bot: _Bots = None,
    seed: _Seed = 0,
    workers: WorkersFlag = None,
    as_json: _Json = False,
    out: _Out = None,
    no_charts: _NoCharts = False,
    backend: BackendFlag = "local",
    address: AddressFlag = None,
) -> None:
    """Sweep a ruleset value over paired matches and see the response: which value gives what.

    Each value is the ruleset patched in memory and checked as a file would be (an invalid one is refused before any match, exit 2). Opens with at most three sentences (what the value does to hand length, trips, shutouts, who wins, points; clearly or not shown), then the trends in words and a table: each value with the chosen metrics and their 95% intervals. Ctrl-C keeps the matches every value finished (exit 130). Example: mbrules sweep winning-moves -p 2 --set player_counts.2.target=500..900:200 --games 200 --out sweep/
    """
    opts = list(option or [])
    bots = list(bot or ["heuristic"])
    workers_used = check_run(games, 2, workers, [("--players", players)], seed)
    check_backend(backend, address)
    check_folder_name(out)
    inputs: list[Path] = []
    settings, points = _points(ruleset, opts, players, set_ or [], bots, metric or [], target, inputs)
    _check_bots_fit(bots, settings, points)
    if out is not None:
        from mbrules.sweep.report import check_out

        check_report_folder(check_out, out, inputs, not no_charts)
    from mbrules.sweep import SetError, run_sweep

    with folder_run("seeds", out, backend) as (progress, stop):
        try:
            sw = run_sweep(
                ruleset,
                set_ or [],
                options=opts,
                players=players,
                games=games,
                seed=seed,
                bots=bots,
                metrics=metric or [],
                target=target,
                workers=workers_used,
                out=out,
                charts=not no_charts,
                inputs=inputs,
                progress=progress,
                should_stop=stop,
                backend=backend,
                address=address,
            )
        except SetError as e:
            fail(str(e), EXIT_USAGE)
    doc = sw.document()
    end_run(
        doc,
        as_json,
        lambda: _print(sw, doc, out if sw.written else None),
        stop,
        f"{sw.seeds_done} of {games} matches per value: the figures are those of the matches every value finished",
        "no match finished for every value",
        out,
        sw.written,
    )


def _points(
    ruleset: str,
    opts: list[str],
    players: int,
    sets: list[str],
    bots: list[str],
    metrics: list[str],
    target: str | None,
    inputs: list[Path],
) -> tuple[list[Setting], list[Game]]:
    """The bots named, the metrics and the target read, and every value's game compiled and checked before
    any match (``inputs``: every file read): the settings and the games. The first error: exit 2 (an
    invalid ruleset: 1)."""
    from mbrules.bots import UnknownBot, check_bot
    from mbrules.ruleset import RulesetError
    from mbrules.sweep import SetError
    from mbrules.sweep.run import build_settings, check_metrics, compile_points, parse_target

    try:
        for b in bots:
            check_bot(b)
    except UnknownBot as e:
        fail(f"mbrules: {e}", EXIT_USAGE)
    check_bot_count(bots, players)
    try:
        check_metrics(metrics)
        if target is not None:
            parse_target(target)
        settings = build_settings(ruleset, opts, players, sets)
        points = compile_points(ruleset, opts, players, settings, inputs)  # every value checked before any match
    except SetError as e:
        fail(str(e), EXIT_USAGE)
    except RulesetError as e:
        fail(e.lines, EXIT_USAGE if e.usage else EXIT_CHECK_FAILED)
    except OSError as e:
        fail(f"mbrules: cannot read {ruleset}: {e.strerror or e}", EXIT_USAGE)
    return settings, points


def _check_bots_fit(bots: list[str], settings: list[Setting], points: list[Game]) -> None:
    """Every bot against every value (a learned bot's model), before any match."""
    from mbrules.bots import UnknownBot, check_bots
    from mbrules.sweep.values import point_label

    for j, game in enumerate(points):
        try:
            check_bots(bots, [game])
        except UnknownBot as e:
            fail(f"mbrules: --set {point_label(settings, j)}: {e}", EXIT_USAGE)


def _print(sw: Sweep, doc: dict[str, Any], out: str | None) -> None:
    """The terminal's report, laid out for :func:`output_width`: the title, at most three sentences a player
    reads first, the trends with their intervals, then each value's figures (a table, folded into rows when
    it does not fit)."""
    from mbrules.compare.figures import fmt, fmt_ci
    from mbrules.sweep.values import fmt_value

    width = output_width()
    con = Console(file=sys.stdout, width=width, highlight=False)
    s = doc["settings"]
    what = " and ".join(f"{x.get('words') or x['path']} ({x['path']})" for x in s["sets"])
    print_lines(
        con,
        wrap(
            f"Sweep of {what} in {s['ruleset_name']}: {s['players']} players, "
            f"{doc['matches_per_value']} matches per value (the same seeds), bots {', '.join(s['bots'])}",
            width,
        ),
        style="bold",
    )
    print_lines(con, [line for sentence in sw.headline for line in wrap(sentence, width, "  ", "  ")])
    con.print()
    for item in doc["summary"]:
        if item["metric"] != "point":
            print_lines(con, wrap(item["text"], width, "- "))
    single = len(s["sets"]) == 1
    heads: list[tuple[str, JustifyMethod]] = [(s["sets"][0]["path"] if single else "values", "left")]
    for k in s["metrics"]:
        heads += [(doc["points"][0]["metrics"][k]["name"], "right"), ("95%", "right")]
    held = set(doc["target"]["held_by"]) if doc.get("target") else set()
    cells, groups = [], []
    for p in doc["points"]:
        row = []
        for k in s["metrics"]:
            m = p["metrics"][k]
            row += [fmt(m["value"], k), fmt_ci(m["ci95"], k)]
        name = (fmt_value(p["value"]) if single else p["label"]) + (" ◀ target" if p["label"] in held else "")
        cells.append([name, *row])
        groups.append(
            (
                p["label"] + (" ◀ target" if p["label"] in held else ""),
                [
                    f"{p['metrics'][k]['name']} {fmt(p['metrics'][k]['value'], k)} "
                    f"{fmt_ci(p['metrics'][k]['ci95'], k)}".rstrip()
                    for k in s["metrics"]
                ],
            )
        )
    con.print()
    if not fits([h for h, _ in heads], cells, width):  # the title names the path already
        heads[0] = ("value" if single else "values", "left")
    if fits([h for h, _ in heads], cells, width):
        con.print(table(heads, cells))
    else:
        for title, g in groups:
            print_lines(con, folded(title, g, width))
    print_lines(
        con,
        wrap(
            "95% intervals: shares of matches by Wilson, other figures by the delta method (the match "
            "as the unit); trends: the least-squares slope over the values, paired by seed, Holm over "
            "the metrics. Every metric of every value: --json or --out.",
            width,
        ),
    )
    if doc["matches_per_value"] < 30:
        print_lines(
            con,
            wrap("Fewer than 30 matches per value: the normal intervals are rough; give --games 200 or more.", width),
        )
    if out is not None:
        print_lines(con, wrap(f"Report written to {os.path.join(out, 'index.html')}", width))
