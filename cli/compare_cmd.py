"""``mbrules compare A B``: what a variant does to play, metric by metric, with intervals and charts."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from mbrules.bots import bot_names

from mbrules.matches.base import MAX_GAMES

from .backends import ADDRESS_HELP, BACKEND_HELP, check_backend, cluster_session, resolve_workers, workers_option
from .common import EXIT_CHECK_FAILED, EXIT_USAGE, app, check_range, fail, signals
from .play_cmds import (
    BOTS_HELP, DEFAULT_PLAYERS, MAX_PLAYERS, SEED_MAX, SEED_MIN, SEED_WORDS, WIDTH,
    _bots_by_player, _compile,
)

DEFAULT_GAMES = 1000


@app.command()
def compare(
    a: str = typer.Argument(..., metavar="A", help="Ruleset A: a bundled id or a path to a YAML file."),
    b: Optional[str] = typer.Argument(None, metavar="[B]", help="Ruleset B (default: A again, so that "
                                      "'compare winning-moves --option-b hazard-on-hazard' compares one option)."),
    option_a: Optional[list[str]] = typer.Option(None, "--option-a", help="Option of arm A (id or path); repeat, applied in order."),
    option_b: Optional[list[str]] = typer.Option(None, "--option-b", help="Option of arm B (id or path); repeat, applied in order."),
    players: int = typer.Option(DEFAULT_PLAYERS, "--players", "-p", "-n", help="Number of players (both arms)."),
    games: int = typer.Option(DEFAULT_GAMES, "--games", "-g", help="Matches per arm (the same seeds in both)."),
    bot: Optional[list[str]] = typer.Option(None, "--bot", "-b", help=BOTS_HELP.format(names=", ".join(bot_names()))),
    skill_games: Optional[int] = typer.Option(None, "--skill-games", help="Strong-bot-vs-weak-bot matches per arm for skill sensitivity (default: --games; 0: none)."),
    strong_bot: Optional[str] = typer.Option(None, "--strong-bot", help="The strong bot of the skill matches (default: the first registered of expert, heuristic)."),
    weak_bot: str = typer.Option("random", "--weak-bot", help="The weak bot of the skill matches."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed: match i of both arms is dealt from (seed, i)."),
    workers: Optional[int] = workers_option(),
    as_json: bool = typer.Option(False, "--json", help="One JSON document on stdout: every metric with a, b, diff and ci95."),
    out: Optional[Path] = typer.Option(None, "--out", help="Folder to write the report in (created if missing): "
                                       "index.html, charts (PNG and SVG), compare.json, matches.jsonl, matches.csv, hands.csv."),
    no_charts: bool = typer.Option(False, "--no-charts", help="With --out: write the table and the data without charts (no matplotlib needed)."),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP, metavar="local|ray"),
    address: Optional[str] = typer.Option(None, "--address", help=ADDRESS_HELP, metavar="HOST:PORT"),
) -> None:
    """Compare two rulesets (or one with and without options) by playing both on the same seeds.

    Prints each metric for A and B with its 95% interval and the paired difference B - A with its interval; flags the differences that hold after Holm's correction over all the metrics (family-wise error 5%). Example: mbrules compare winning-moves --option-b hazard-on-hazard --out report/
    """
    from mbrules.compare.run import default_strong_bot, make_arm, run_arm

    b_ref = a if b is None else b
    opts_a, opts_b = list(option_a or []), list(option_b or [])
    bots = list(bot or ["heuristic"])
    strong = strong_bot or default_strong_bot()
    skill_games = games if skill_games is None else skill_games
    check_range("--games", games, 2, MAX_GAMES)
    check_range("--skill-games", skill_games, 0, MAX_GAMES)
    workers = resolve_workers(workers)
    check_range("--players", players, 1, MAX_PLAYERS)
    check_range("--seed", seed, SEED_MIN, SEED_MAX, SEED_WORDS)
    check_backend(backend, address)
    if 0 < skill_games < 2:
        fail("mbrules: --skill-games must be 0 (none) or at least 2", EXIT_USAGE)
    inputs: list[Path] = []
    game_a = _compile(a, opts_a, players, bots, files_read=inputs)
    game_b = _compile(b_ref, opts_b, players, bots, files_read=inputs)
    _compile(a, opts_a, players, [strong], files_read=None)  # the skill bots exist
    _compile(a, opts_a, players, [weak_bot], files_read=None)
    if game_a.sides != game_b.sides:
        fail(f"mbrules: the two arms seat {players} players in different sides ({game_a.sides} and {game_b.sides}); "
             "seat and side metrics need the same seating", EXIT_USAGE)
    charts_wanted = out is not None and not no_charts
    if charts_wanted:
        from mbrules.compare import charts

        if not charts.available():
            fail(f"mbrules: {charts.INSTALL_HINT}", EXIT_USAGE)
    if out is not None:
        from mbrules.safe_output import OutputPathError, check_output_dir

        try:
            check_output_dir(out, inputs, "--out")
        except OutputPathError as e:
            fail(str(e), EXIT_USAGE)

    arms = [make_arm("A", a, opts_a, players), make_arm("B", b_ref, opts_b, players)]
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from concurrent.futures.process import BrokenProcessPool

    err = Console(stderr=True)
    per_arm = games + skill_games
    finished = True
    with Progress(TextColumn("comparing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("matches", total=2 * per_arm)
        with signals(raising=False) as stop:
            try:
                with cluster_session(backend):
                    for k, arm in enumerate(arms):
                        base = k * per_arm
                        finished = run_arm(arm, players, bots, games, skill_games, strong, weak_bot, seed, workers,
                                           progress=lambda n, base=base: bar.update(task, completed=base + n),
                                           should_stop=stop, backend=backend, address=address)
                        if not finished:
                            break
            except BrokenProcessPool as e:
                fail(f"mbrules: a worker process stopped unexpectedly ({e}); the other workers were stopped "
                     "and nothing is reported", EXIT_CHECK_FAILED)
    if stop.signum is not None or not finished:
        name = "SIGINT" if stop.signum == 2 else "SIGTERM" if stop.signum == 15 else f"signal {stop.signum}"
        print(f"mbrules: interrupted ({name}) before both arms were played: nothing is compared and nothing written",
              file=sys.stderr)
        raise typer.Exit(stop.exit_code)

    from mbrules.compare.metrics import evaluate
    from mbrules.compare.report import document, fmt, fmt_ci, fmt_diff, fmt_diff_ci, out_files

    rows = evaluate(arms[0].records, arms[1].records, arms[0].skill_records or None, arms[1].skill_records or None)
    settings = {
        "a": {"ruleset": a, "ruleset_id": game_a.ruleset_id, "options": opts_a,
              "applied_options": list(game_a.ruleset.applied_options)},
        "b": {"ruleset": b_ref, "ruleset_id": game_b.ruleset_id, "options": opts_b,
              "applied_options": list(game_b.ruleset.applied_options)},
        "players": players, "games": games, "skill_games": skill_games, "seed": seed, "workers": workers,
        "backend": backend,
        "bots": _bots_by_player(game_a, bots), "strong_bot": strong, "weak_bot": weak_bot,
        "paired": "both arms play the same seeds: match i is dealt from (seed, i)",
    }
    doc = document(settings, rows, {"a": arms[0].seconds, "b": arms[1].seconds}, False)
    title = f"{_arm_words(a, opts_a)} (A) vs {_arm_words(b_ref, opts_b)} (B), {players} players"

    if out is not None:
        from mbrules.safe_output import OutputPathError, write_file_atomic

        try:
            files = out_files(doc, arms, rows, game_a.side_names, charts_wanted, title)
            out.mkdir(exist_ok=True)
            for name, content in files.items():
                write_file_atomic(out / name, content, inputs, "--out")
        except OutputPathError as e:
            fail(str(e), EXIT_USAGE)
        except OSError as e:
            fail(f"mbrules: cannot write in {out}: {e.strerror or e}", EXIT_USAGE)

    if as_json:
        sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
        return
    con = Console(file=sys.stdout, width=WIDTH + 40, highlight=False)
    con.print(title, markup=False)
    skill_words = (f"skill: {strong} vs {weak_bot}, {skill_games} matches per arm" if skill_games
                   else "no skill matches (--skill-games 0)")
    con.print(f"{games} paired matches per arm (seed {seed}), bots {', '.join(bots)}; {skill_words}", markup=False)
    t = Table(title_justify="left")
    for col, just in (("metric", "left"), ("A", "right"), ("95%", "right"), ("B", "right"), ("95%", "right"),
                      ("B − A", "right"), ("95%", "right"), ("", "left")):
        t.add_column(col, justify=just)
    for r in rows:
        k = r["key"]
        t.add_row(k, fmt(r["a"], k), fmt_ci(r["a_ci95"], k), fmt(r["b"], k), fmt_ci(r["b_ci95"], k),
                  fmt_diff(r["diff"], k), fmt_diff_ci(r["ci95"], k),
                  "*" if r["flagged"] else "·" if r["excludes_zero"] else "")
    con.print(t)
    flagged = [r["key"] for r in rows if r["flagged"]]
    tested = sum(1 for r in rows if r["p_holm"] is not None)
    con.print(f"* flagged ({len(flagged)}): the difference holds after Holm's correction over the {tested} metrics "
              "tested (family-wise error 5%); · its own 95% interval excludes 0, but not after the correction. "
              "Shares of matches: Wilson intervals; other figures: delta method, the match as the unit; "
              "differences paired by seed.", markup=False)
    if games < 30 or 0 < skill_games < 30:
        con.print("Fewer than 30 matches per arm: the normal intervals are rough; give --games 200 or more "
                  "for figures to rely on.", markup=False)
    if out is not None:
        con.print(f"Report written to {out}/index.html", markup=False)


def _arm_words(ref: str, options: list[str]) -> str:
    return ref + "".join(f" +{o}" for o in options)
