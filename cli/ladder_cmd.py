"""``mbrules ladder``: a round robin between named bots, win rates with 95% CIs and a rating per bot."""
from __future__ import annotations

import json
import sys
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from mbrules.bots import UnknownBot, bot_names, check_bot, parse_bot
from mbrules.engine.words import plural

from .backends import ADDRESS_HELP, BACKEND_HELP, check_backend, cluster_session, resolve_workers, workers_option
from .common import EXIT_CHECK_FAILED, EXIT_USAGE, Interrupted, app, check_range, fail, signals
from .play_cmds import MAX_PLAYERS, SEED_MAX, SEED_MIN, SEED_WORDS, WIDTH, compile_game

MAX_LADDER_BOTS = 16
MAX_LADDER_GAMES = 1_000_000


@app.command()
def ladder(
    bot: Optional[list[str]] = typer.Option(
        None, "--bot", "-b",
        help=f"A bot to rank ({', '.join(bot_names())}; parameters as name:key=value, e.g. expert:budget=100); "
             "give two or more."),
    ruleset: str = typer.Option("winning-moves", "--ruleset", "-r", help="Bundled ruleset id or path to a YAML file."),
    option: Optional[list[str]] = typer.Option(None, "--option", "-o", help="Option id or path; repeat to apply several, in order."),
    players: int = typer.Option(2, "--players", "-p", "-n", help="Number of players."),
    games: int = typer.Option(50, "--games", "-g", help="Seeds per pair of bots; each is played in every seating."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the run: deal i is dealt from (seed, i), the same for every pair."),
    workers: Optional[int] = workers_option(),
    as_json: bool = typer.Option(False, "--json", help="One JSON document on stdout."),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP, metavar="local|ray"),
    address: Optional[str] = typer.Option(None, "--address", help=ADDRESS_HELP, metavar="HOST:PORT"),
) -> None:
    """Round robin between bots: every pair plays the same deals with seats swapped.

    Prints each bot's win rate with its 95% confidence interval (Wilson) and an openskill rating
    (Plackett-Luce: mu, sigma, ordinal mu - 3 sigma), then each pair's result. With two sides a
    deal is played twice (seats swapped); with three sides six times (each bot alone on each side).
    The same inputs print the same figures for any --workers.
    """
    bots = list(bot or [])
    if len(bots) < 2:
        fail("mbrules: give at least two --bot to rank (e.g. --bot random --bot heuristic)", EXIT_USAGE)
    check_range("--bot (count)", len(bots), 2, MAX_LADDER_BOTS, f"given 2 to {MAX_LADDER_BOTS} times")
    dup = sorted({b for b in bots if bots.count(b) > 1})
    if dup:
        fail(f"mbrules: --bot {dup[0]} is given twice; each bot is ranked once", EXIT_USAGE)
    try:
        for b in bots:
            parse_bot(b)
    except UnknownBot as e:
        fail(f"mbrules: {e}", EXIT_USAGE)
    options = list(option or [])
    check_range("--players", players, 1, MAX_PLAYERS)
    check_range("--games", games, 1, MAX_LADDER_GAMES)
    workers = resolve_workers(workers)
    check_range("--seed", seed, SEED_MIN, SEED_MAX, SEED_WORDS)
    check_backend(backend, address)
    from mbrules.matches.ladder import RatingsUnavailable, plackett_luce

    try:
        plackett_luce()  # the ratings' extra, before any match is played
    except RatingsUnavailable as e:
        fail(f"mbrules: {e}", EXIT_USAGE)
    game = compile_game(ruleset, options, players, bots[:1])
    try:  # the learned bot's model must fit the game: refused (or trained on first use) before any match
        for b in bots[1:]:
            check_bot(b, game)
    except UnknownBot as e:
        fail(f"mbrules: {e}", EXIT_USAGE)
    if game.sides < 2:
        fail(f"mbrules: a ladder needs two sides or more; {game.ruleset_id} with {plural(players, 'player')} has "
             f"{game.sides}", EXIT_USAGE)
    try:
        import openskill  # noqa: F401  the ratings (the bots extra): checked before any match is played
    except ImportError:
        fail("mbrules: ladder's ratings need openskill: pip install 'mbrules[bots]'", EXIT_USAGE)

    from concurrent.futures.process import BrokenProcessPool

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from mbrules.matches.ladder import run_ladder

    err = Console(stderr=True)
    try:
        with Progress(TextColumn("ladder"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=err, transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task("deals", total=games * len(bots) * (len(bots) - 1) // 2)
            with signals(raising=True), cluster_session(backend):
                rep = run_ladder(game, bots, games, seed, workers=workers,
                                 progress=lambda n, t: bar.update(task, completed=n), backend=backend,
                                 address=address)
    except Interrupted as e:
        print(f"mbrules: interrupted ({'SIGINT' if e.signum == 2 else 'SIGTERM'}); no ranking is reported",
              file=sys.stderr)
        raise typer.Exit(e.exit_code)
    except BrokenProcessPool as e:
        fail(f"mbrules: a worker process stopped unexpectedly ({e}); nothing is reported", EXIT_CHECK_FAILED)
    settings = {"ruleset": ruleset, "ruleset_id": game.ruleset_id, "options": options, "players": players,
                "games_per_pair": games, "seed": seed, "workers": workers, "bots": bots,
                "backend": backend}
    if as_json:
        sys.stdout.write(json.dumps({"settings": settings, **rep}, indent=2, ensure_ascii=False) + "\n")
        return
    out = Console(file=sys.stdout, width=WIDTH, highlight=False)
    per = rep["seatings_per_seed"]
    out.print(f"{game.ruleset.name}; {plural(players, 'player')}; {plural(games, 'deal')} per pair x {plural(per, 'seating')}; seed {seed}",
              markup=False)
    t = Table(title="Ladder (best rating first)", title_justify="left")
    for col, just in (("bot", "left"), ("matches", "right"), ("wins", "right"), ("win rate", "right"),
                      ("95% CI", "right"), ("rating mu", "right"), ("sigma", "right"), ("ordinal", "right")):
        t.add_column(col, justify=just, overflow="fold")  # a long bot name wraps, never cut
    for r in rep["bots"]:
        lo, hi = r["ci95"]
        t.add_row(r["bot"], str(r["matches"]), str(r["wins"]), f"{r['win_rate']:.1%}", f"{lo:.1%} to {hi:.1%}",
                  f"{r['rating']['mu']:.2f}", f"{r['rating']['sigma']:.2f}", f"{r['rating']['ordinal']:.2f}")
    out.print(t)
    p = Table(title="Pairs (A's share of the pair's matches)", title_justify="left")
    for col, just in (("A", "left"), ("B", "left"), ("matches", "right"), ("A won", "right"), ("B won", "right"),
                      ("other", "right"), ("A's share", "right"), ("95% CI", "right")):
        p.add_column(col, justify=just, overflow="fold")
    for r in rep["pairs"]:
        lo, hi = r["a_ci95"]
        p.add_row(r["a"], r["b"], str(r["matches"]), str(r["a_wins"]), str(r["b_wins"]),
                  str(r["draws_or_unfinished"]), f"{r['a_win_rate']:.1%}", f"{lo:.1%} to {hi:.1%}")
    out.print(p)
    out.print("other: drawn, or unfinished at the ruleset's match.max_hands", markup=False)
    out.print(f"{rep['seconds']:.1f} s on {plural(workers, 'worker')}", markup=False)
