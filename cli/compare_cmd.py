"""``mbrules compare A B``: what a variant does to play. A thin layer over
:func:`mbrules.compare.run_compare` (the orchestration lives in the library): flags, progress, output."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console, JustifyMethod

from mbrules.bots import bot_names

if TYPE_CHECKING:
    from mbrules.compare import Comparison
    from mbrules.engine import Game

from .backends import AddressFlag, BackendFlag, WorkersFlag, check_backend, check_run
from .common import EXIT_USAGE, app, check_range, fail, output_width
from .layout import fits, folded, print_lines, table, wrap
from .reports import check_folder_name, check_report_folder, end_run, folder_run
from .inputs import (
    DEFAULT_PLAYERS,
    MAX_GAMES,
    compile_game,
)

DEFAULT_GAMES = 1000


# compare's flags
_A = Annotated[str, typer.Argument(metavar="A", help="Ruleset A: a bundled id or a path to a YAML file.")]
_B = Annotated[
    str | None,
    typer.Argument(
        metavar="[B]",
        help="Ruleset B (default: A again, so that "
        "'compare winning-moves --option-b hazard-on-hazard' compares one option).",
    ),
]
_OptionA = Annotated[
    list[str] | None, typer.Option("--option-a", help="Option of arm A (id or path); repeat, applied in order.")
]
_OptionB = Annotated[
    list[str] | None, typer.Option("--option-b", help="Option of arm B (id or path); repeat, applied in order.")
]
_Players = Annotated[
    int, typer.Option("--players", "-p", "-n", help="Number of players (arm A, and arm B unless --players-b).")
]
_PlayersB = Annotated[
    int | None,
    typer.Option(
        "--players-b",
        help="Number of players of arm B, when it differs (per-hand and per-match metrics are compared; side metrics shown per arm).",
    ),
]
_Games = Annotated[int, typer.Option("--games", "-g", help="Paired matches (the same seeds in both arms).")]
_Bot = Annotated[
    list[str] | None,
    typer.Option(
        "--bot",
        "-b",
        help="The main lineup: one bot for everybody, or one per player (default heuristic). Bots: "
        + ", ".join(bot_names())
        + ".",
    ),
]
_Bots = Annotated[
    list[str] | None,
    typer.Option(
        "--bots",
        help="Another lineup (one bot for everybody) each flagged effect is measured again with; repeat for more; 'none': no check (default: heuristic-2026, the starting heuristic: cheap enough to confirm or refute each effect).",
    ),
]
_RobustGames = Annotated[
    int | None,
    typer.Option(
        "--robust-games",
        help="Pairs played by the other lineups and by the ladder's expert rung (default: a cheap lineup the first 1000 pairs, or all; the expert games/40, from 8 to 25).",
    ),
]
_Rung = Annotated[
    list[str] | None,
    typer.Option(
        "--rung",
        help="A rung of the skill ladder, weakest first; repeat (default: random, heuristic, expert:budget=4,width=2; add --rung learned to rank the learned bot too).",
    ),
]
_SkillGames = Annotated[
    int | None,
    typer.Option(
        "--skill-games",
        help="Matches per arm of each cheap ladder rung and of each restriction (default: at most 300; 0: no ladder, no restricted play).",
    ),
]
_RestrictedGames = Annotated[
    int | None,
    typer.Option(
        "--restricted-games",
        help="Matches per arm of each restriction of restricted play (default: --skill-games; 0: none).",
    ),
]
_Seed = Annotated[int, typer.Option("--seed", "-s", help="Seed: match i of both arms is dealt from (seed, i).")]
_Json = Annotated[
    bool,
    typer.Option(
        "--json",
        help="One JSON document on stdout: headline (at most three sentences), summary (every flagged effect in words), every metric with a, b, diff, ci95, robust on each flagged one.",
    ),
]
_Out = Annotated[
    str | None,
    typer.Option(
        "--out",
        help="Folder to write the report in (created if missing): "
        "index.html, charts (PNG and SVG), compare.json, matches.jsonl, matches.csv, hands.csv.",
    ),
]
_NoCharts = Annotated[
    bool,
    typer.Option(
        "--no-charts", help="With --out: write the report and the data without charts (no matplotlib needed)."
    ),
]


@app.command()
def compare(
    a: _A,
    b: _B = None,
    option_a: _OptionA = None,
    option_b: _OptionB = None,
    players: _Players = DEFAULT_PLAYERS,
    players_b: _PlayersB = None,
    games: _Games = DEFAULT_GAMES,
    bot: _Bot = None,
    bots: _Bots = None,
    robust_games: _RobustGames = None,
    rung: _Rung = None,
    skill_games: _SkillGames = None,
    restricted_games: _RestrictedGames = None,
    seed: _Seed = 0,
    workers: WorkersFlag = None,
    as_json: _Json = False,
    out: _Out = None,
    no_charts: _NoCharts = False,
    backend: BackendFlag = "local",
    address: AddressFlag = None,
) -> None:
    """Compare two rulesets (or one with and without options) by playing both on the same seeds.

    Opens with at most three sentences (hand length, trips, shutouts, who wins, points), each saying how sure it is: clearly, probably or not shown. Then the rule change in words, each effect with its size, its 95% interval and what another bot measured of it; the skill ladder, restricted play and every metric. Ctrl-C keeps the matches both arms finished (exit 130). Example: mbrules compare winning-moves --option-b hazard-on-hazard -p 4 --out report/
    """
    b_ref = a if b is None else b
    opts_a, opts_b = list(option_a or []), list(option_b or [])
    main_bots = list(bot or ["heuristic"])
    players_b = players if players_b is None else players_b
    workers_used = check_run(games, 2, workers, [("--players", players), ("--players-b", players_b)], seed)
    _check_games_flags(robust_games, skill_games, restricted_games)
    check_backend(backend, address)
    check_folder_name(out)
    robust_bots = None if bots is None else [x for x in bots if x != "none"]
    inputs: list[Path] = []
    game_a, game_b = _arms((a, opts_a, players), (b_ref, opts_b, players_b), main_bots, robust_bots, rung, inputs)
    if out is not None:
        from mbrules.compare.report import check_out

        check_report_folder(check_out, out, inputs, not no_charts)
    from mbrules.compare import run_compare

    with folder_run("pairs", out, backend) as (progress, stop):
        cmp = run_compare(
            game_a,
            game_b,
            options_a=opts_a,
            options_b=opts_b,
            players=players,
            players_b=players_b,
            games=games,
            seed=seed,
            bots=main_bots,
            robust_bots=robust_bots,
            robust_games=robust_games,
            ladder=rung,
            skill_games=skill_games,
            restricted_games=restricted_games,
            workers=workers_used,
            out=out,
            charts=not no_charts,
            inputs=inputs,
            progress=progress,
            should_stop=stop,
            backend=backend,
            address=address,
        )
    # the refs the user typed, not the compiled games, in the settings
    cmp.settings["a"]["ruleset"], cmp.settings["b"]["ruleset"] = a, b_ref
    doc = cmp.document()
    end_run(
        doc,
        as_json,
        lambda: _print(cmp, doc, out if cmp.written else None),
        stop,
        f"{cmp.pairs_done} of {games} paired matches: the figures are those of the matches both arms finished",
        "no paired match finished",
        out,
        cmp.written,
    )


def _check_games_flags(robust_games: int | None, skill_games: int | None, restricted_games: int | None) -> None:
    """The matches of the other lineups, the ladder and restricted play: 0 (none) or 2 or more."""
    for flag, v in (
        ("--robust-games", robust_games),
        ("--skill-games", skill_games),
        ("--restricted-games", restricted_games),
    ):
        check_range(flag, v, 0, MAX_GAMES)
        if v is not None and v == 1:
            fail(f"mbrules: {flag} must be 0 (none) or at least 2", EXIT_USAGE)


def _arms(
    arm_a: tuple[str, list[str], int],
    arm_b: tuple[str, list[str], int],
    bots: list[str],
    robust_bots: list[str] | None,
    rung: list[str] | None,
    inputs: list[Path],
) -> tuple[Game, Game]:
    """Both arms (ruleset, options, players) compiled for the main lineup (``inputs``: every file read), then
    every bot of the other lineups and of the ladder checked against both (it exists, takes its parameters,
    a learned bot's model fits), before any match."""
    from mbrules.bots import UnknownBot, check_bots

    games = tuple(compile_game(ref, opts, n, bots, files_read=inputs) for ref, opts, n in (arm_a, arm_b))
    others = (robust_bots or []) + list(rung or [])
    for arm, game in zip("AB", games):
        try:
            check_bots(others, [game])
        except UnknownBot as e:
            fail(f"mbrules: arm {arm}: {e}", EXIT_USAGE)
    return games[0], games[1]


def _print(cmp: Comparison, doc: dict[str, Any], out: str | None) -> None:
    """The terminal's report, laid out for :func:`output_width`: the title, at most three sentences a player
    reads first, then the rule change, every flagged effect with its interval and bot check, the table of
    every metric (folded into rows when it does not fit), what the marks mean and the settings."""
    from mbrules.compare.report import page_title, settings_words

    width = output_width()
    con = Console(file=sys.stdout, width=width, highlight=False)
    print_lines(con, wrap(page_title(doc), width), style="bold")
    print_lines(con, [line for sentence in cmp.headline for line in wrap(sentence, width, "  ", "  ")])
    con.print()
    _print_effects(con, cmp, width)
    con.print()
    marks_words = _print_metrics(con, cmp, width)
    print_lines(
        con,
        wrap(
            marks_words + "Flagged: Holm's correction over the metrics compared (family-wise 5%). "
            "Shares of matches: Wilson intervals; other figures: delta method, the match as the unit; "
            "differences paired by seed; pt: percentage points.",
            width,
        ),
    )
    print_lines(con, wrap("; ".join(settings_words(doc)) + ".", width))
    if cmp.settings["games"] < 30:
        print_lines(
            con,
            wrap(
                "Fewer than 30 matches: the normal intervals are rough; give --games 200 or more "
                "for figures to rely on.",
                width,
            ),
        )
    if out is not None:
        print_lines(con, wrap(f"Report written to {os.path.join(out, 'index.html')}", width))


def _print_effects(con: Console, cmp: Comparison, width: int) -> None:
    """The rule change in words, then each flagged effect (green when it grows, red when it shrinks), the
    metrics that showed no difference and Holm's note."""
    from mbrules.compare.headline import holm_sentence, no_difference

    print_lines(
        con, wrap("The rule change: " + ("; ".join(cmp.rule_changes) or "none (both arms play the same rules)"), width)
    )
    if not any(r["flagged"] for r in cmp.rows):
        print_lines(con, wrap("No effect on play shown (no metric flagged after Holm's correction).", width))
    else:
        print_lines(
            con,
            wrap(
                "Each effect with its 95% interval (CI), and what other bots measured of it (pt: percentage points):",
                width,
            ),
        )
    for item in cmp.summary:
        r = next((x for x in cmp.rows if x["key"] == item["metric"]), None)
        style = ("green" if (r["diff"] or 0) > 0 else "red") if r is not None and r["flagged"] else None
        print_lines(con, wrap(item["text"] or "", width, "- "), style=style)
    quiet = no_difference(cmp.rows)
    if quiet:
        print_lines(con, wrap("No difference shown in: " + ", ".join(quiet) + ".", width))
    turned = holm_sentence(cmp.rows)
    if turned:
        print_lines(con, wrap(turned, width))


_METRIC_HEADS: tuple[tuple[str, JustifyMethod], ...] = (
    ("metric", "left"),
    ("A", "right"),
    ("95%", "right"),
    ("B", "right"),
    ("95%", "right"),
    ("B − A", "right"),
    ("95%", "right"),
    ("p (Holm)", "right"),
    ("", "left"),
)
_MARKS = {"holds": "robust", "differs": "bots", "unconfirmed": "?", None: "*"}


def _print_metrics(con: Console, cmp: Comparison, width: int) -> str:
    """Every metric: a table when it fits the width, else a few lines a metric. Returns the words saying
    what the table's marks mean (none without the table)."""
    from mbrules.compare.headline import badge
    from mbrules.compare.figures import fmt, fmt_ci, fmt_diff, fmt_diff_ci, fmt_p

    cells, groups = [], []
    for r in cmp.rows:
        k = r["key"]
        mark = "" if not r["flagged"] else _MARKS[r.get("robust_verdict")]
        diff = fmt_diff(r["diff"], k) if r["compared"] else "per arm"
        cells.append(
            [
                r["name"],
                fmt(r["a"], k),
                fmt_ci(r["a_ci95"], k),
                fmt(r["b"], k),
                fmt_ci(r["b_ci95"], k),
                diff,
                fmt_diff_ci(r["ci95"], k),
                fmt_p(r["p_holm"]),
                mark,
            ]
        )
        title = r["name"] + (f": {badge(r)}" if r["flagged"] else "")
        groups.append(
            (
                title,
                [
                    f"A {fmt(r['a'], k)} {fmt_ci(r['a_ci95'], k)}".rstrip(),
                    f"B {fmt(r['b'], k)} {fmt_ci(r['b_ci95'], k)}".rstrip(),
                    f"B − A {diff} {fmt_diff_ci(r['ci95'], k)}".rstrip(),
                    f"p {fmt_p(r['p_holm'])}",
                ],
            )
        )
    if fits([h for h, _ in _METRIC_HEADS], cells, width):
        con.print(table(_METRIC_HEADS, cells))
        return (
            "robust: the flagged effect holds with every bot; bots: it depends on the bots (another "
            "lineup measured it clearly smaller, absent or reversed); ?: not confirmed (too few pairs of "
            "another lineup to tell); *: flagged, not checked with other bots. "
        )
    print_lines(
        con,
        wrap(
            "Every metric: A and B with their 95% intervals, the difference B − A and its "
            "interval, p after Holm's correction:",
            width,
        ),
    )
    for title, g in groups:
        print_lines(con, folded(title, g, width))
    return ""
