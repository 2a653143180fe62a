"""``mbrules ladder``: a round robin between named bots, win rates with 95% CIs and a rating per bot."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from mbrules.bots import UnknownBot, bot_names, check_bot, parse_bot
from mbrules.text import plural

if TYPE_CHECKING:
    from mbrules.engine import Game

from .backends import AddressFlag, BackendFlag, WorkersFlag, check_backend, cluster_session, resolve_workers
from .common import (
    EXIT_CHECK_FAILED,
    EXIT_USAGE,
    SignalFlag,
    app,
    check_range,
    fail,
    fold,
    output_width,
    signals,
    text_console,
)
from .flags import OptionsFlag, PlayersFlag, RulesetFlag
from .inputs import DEFAULT_RULESET, MAX_PLAYERS, SEED_MAX, SEED_MIN, SEED_WORDS, compile_game

MAX_LADDER_BOTS = 16
MAX_LADDER_GAMES = 1_000_000


_Bots = Annotated[
    list[str] | None,
    typer.Option(
        "--bot",
        "-b",
        help=f"A bot to rank ({', '.join(bot_names())}; parameters as name:key=value, e.g. expert:budget=100); "
        "give two or more.",
    ),
]
_Games = Annotated[int, typer.Option("--games", "-g", help="Seeds per pair of bots; each is played in every seating.")]
_Seed = Annotated[
    int, typer.Option("--seed", "-s", help="Seed of the run: deal i is dealt from (seed, i), the same for every pair.")
]
_Json = Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")]


@app.command()
def ladder(
    bot: _Bots = None,
    ruleset: RulesetFlag = DEFAULT_RULESET,
    option: OptionsFlag = None,
    players: PlayersFlag = 2,
    games: _Games = 50,
    seed: _Seed = 0,
    workers: WorkersFlag = None,
    as_json: _Json = False,
    backend: BackendFlag = "local",
    address: AddressFlag = None,
) -> None:
    """Round robin between bots: every pair plays the same deals with seats swapped.

    Prints each bot's win rate with its 95% confidence interval (Wilson) and a rating (openskill's Plackett-Luce: mu, sigma, ordinal mu - 3 sigma; without openskill a Bradley-Terry rating on the Elo scale), then each pair's result. With two sides a deal is played twice (seats swapped); with three sides six times (each bot alone on each side). The same inputs print the same figures for any --workers. Ctrl-C keeps the deals finished (exit 130). The expert bot takes seconds a match: start with few --games.

    Example (about a minute of CPU): mbrules ladder --bot random --bot heuristic --bot expert -p 2 --games 4
    """
    bots, options = list(bot or []), list(option or [])
    game, workers = _ladder_game(bots, ruleset, options, players, games, seed, workers, backend, address)
    if not as_json:  # the size of the run up front; the bar adds the rate and the time left
        _announce(game, bots, games, workers)
    rep, stop = _run(game, bots, games, seed, workers, backend, address)
    if rep["interrupted"]:
        _say_interrupted(rep, stop)
    if as_json:
        settings = {
            "ruleset": ruleset,
            "ruleset_id": game.ruleset_id,
            "options": options,
            "players": players,
            "games_per_pair": games,
            "seed": seed,
            "workers": workers,
            "bots": bots,
            "backend": backend,
        }
        sys.stdout.write(json.dumps({"settings": settings, **rep}, indent=2, ensure_ascii=False) + "\n")
    else:
        _print(game, rep, players, games, seed, workers)
    if rep["interrupted"]:
        raise typer.Exit(stop.exit_code)


def _ladder_game(
    bots: list[str],
    ruleset: str,
    options: list[str],
    players: int,
    games: int,
    seed: int,
    workers: int | None,
    backend: str,
    address: str | None,
) -> tuple[Game, int]:
    """The inputs checked (the first wrong one is a usage error, exit 2) and the game compiled: the game and
    the workers to use."""
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
    check_range("--players", players, 1, MAX_PLAYERS)
    check_range("--games", games, 1, MAX_LADDER_GAMES)
    workers_used = resolve_workers(workers)
    check_range("--seed", seed, SEED_MIN, SEED_MAX, SEED_WORDS)
    check_backend(backend, address)
    game = compile_game(ruleset, options, players, bots[:1])
    try:  # the learned bot's model must fit the game: refused (or trained on first use) before any match
        for b in bots[1:]:
            check_bot(b, game)
    except UnknownBot as e:
        fail(f"mbrules: {e}", EXIT_USAGE)
    if game.sides < 2:
        fail(
            f"mbrules: a ladder needs two sides or more; {game.ruleset_id} with {plural(players, 'player')} has "
            f"{game.sides}",
            EXIT_USAGE,
        )
    return game, workers_used


def _announce(game: Game, bots: list[str], games: int, workers: int) -> None:
    """The size of the run on stderr, before it starts."""
    from mbrules.matches.ladder import seatings

    n_pairs = len(bots) * (len(bots) - 1) // 2
    per = len(seatings(game, "a", "b"))
    print(
        fold(
            f"ladder: {plural(n_pairs, 'pair')} x {plural(games, 'deal')} x {plural(per, 'seating')} = "
            f"{plural(n_pairs * games * per, 'match', 'matches')} on {plural(workers, 'worker')}; the time "
            "left shows once the first deals are in (Ctrl-C keeps the finished ones)",
            output_width(sys.stderr),
        ),
        file=sys.stderr,
    )


def _run(
    game: Game, bots: list[str], games: int, seed: int, workers: int, backend: str, address: str | None
) -> tuple[dict[str, Any], SignalFlag]:
    """The round robin, with a progress bar; Ctrl-C or SIGTERM keeps the deals finished. A worker that died:
    exit 1, nothing reported."""
    from concurrent.futures.process import BrokenProcessPool

    from mbrules.matches.ladder import run_ladder

    from .reports import phase_progress

    try:
        with phase_progress("deals") as progress, signals(raising=False) as stop, cluster_session(backend):
            rep = run_ladder(
                game,
                bots,
                games,
                seed,
                workers=workers,
                progress=lambda n, t: progress("ladder", "ladder", n, t),
                backend=backend,
                address=address,
                should_stop=stop,
            )
    except BrokenProcessPool as e:
        fail(f"mbrules: a worker process stopped unexpectedly ({e}); nothing is reported", EXIT_CHECK_FAILED)
    return rep, stop


def _say_interrupted(rep: dict[str, Any], stop: SignalFlag) -> None:
    """On stderr: how many deals the figures count after Ctrl-C or SIGTERM."""
    from .reports import signal_name

    n, total = rep["deals_played"], rep["deals"]
    print(
        fold(
            f"mbrules: interrupted after {n} of {plural(total, 'deal')} ({signal_name(stop.signum or 0)}); the "
            "figures count those deals (the first of every pair, in seed order)",
            output_width(sys.stderr),
        ),
        file=sys.stderr,
    )


def _print(game: Game, rep: dict[str, Any], players: int, games: int, seed: int, workers: int) -> None:
    """The terminal's report: the settings, the bots best first, each pair, the time taken."""
    from mbrules.matches.ladder import METHOD_WORDS

    out = text_console()
    per = rep["seatings_per_seed"]
    out.print(
        f"{game.ruleset.name}; {plural(players, 'player')}; {plural(games, 'deal')} per pair x {plural(per, 'seating')}; seed {seed}",
        markup=False,
    )
    _print_table(out, *_bots_table(rep))
    out.print(f"Ratings: {METHOD_WORDS[rep['rating_method']]}.", markup=False)
    _print_table(out, *_pairs_table(rep))
    out.print("other: drawn, or unfinished at the ruleset's match.max_hands", markup=False)
    out.print(f"{rep['seconds']:.1f} s on {plural(workers, 'worker')}", markup=False)
    if rep["interrupted"]:
        out.print(
            f"Interrupted after {rep['deals_played']} of {plural(rep['deals'], 'deal')}: the figures above "
            "count those deals.",
            markup=False,
        )


def _table(title: str, columns: tuple[str, ...], names: int) -> Table:
    """A report table: the first ``names`` columns left-aligned, the figures right-aligned."""
    t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    for k, col in enumerate(columns):
        t.add_column(col, justify="left" if k < names else "right")
    return t


def _bots_table(rep: dict[str, Any]) -> tuple[Table, list[str]]:
    """The bots, best rating first: the table, and the same as one line a bot (for a narrow console)."""
    from mbrules.matches.ladder import BRADLEY_TERRY

    elo = rep["rating_method"] == BRADLEY_TERRY
    t = _table(
        "Ladder (best rating first)",
        ("bot", "matches", "wins", "win rate (95% CI)")
        + (("rating (Elo)",) if elo else ("rating mu", "sigma", "ordinal")),
        1,
    )
    rows = []
    for r in rep["bots"]:
        rating = r["rating"]
        ratings: tuple[str, ...] = (
            (f"{rating['elo']:.0f}",)
            if elo
            else (f"{rating['mu']:.2f}", f"{rating['sigma']:.2f}", f"{rating['ordinal']:.2f}")
        )
        t.add_row(r["bot"], str(r["matches"]), str(r["wins"]), _share(r["win_rate"], r["ci95"]), *ratings)
        rows.append(
            f"{r['bot']}: {plural(r['matches'], 'match', 'matches')}, {plural(r['wins'], 'win')}, win rate "
            f"{_share(r['win_rate'], r['ci95'], True)}, "
            + (
                f"rating {ratings[0]} (Elo)"
                if elo
                else f"rating mu {ratings[0]}, sigma {ratings[1]}, ordinal {ratings[2]}"
            )
        )
    return t, rows


def _pairs_table(rep: dict[str, Any]) -> tuple[Table, list[str]]:
    """Each pair's result: the table, and the same as one line a pair (for a narrow console)."""
    p = _table(
        "Pairs (A's share of the pair's matches)",
        ("A", "B", "matches", "A won", "B won", "other", "A's share (95% CI)"),
        2,
    )
    rows = []
    for r in rep["pairs"]:
        p.add_row(
            r["a"],
            r["b"],
            str(r["matches"]),
            str(r["a_wins"]),
            str(r["b_wins"]),
            str(r["draws_or_unfinished"]),
            _share(r["a_win_rate"], r["a_ci95"]),
        )
        rows.append(
            f"{r['a']} (A) against {r['b']} (B): {plural(r['matches'], 'match', 'matches')}, A won "
            f"{r['a_wins']}, B won {r['b_wins']}, other {r['draws_or_unfinished']}; A's share "
            f"{_share(r['a_win_rate'], r['a_ci95'], True)}"
        )
    return p, rows


def _share(rate: float | None, ci: list[float], named: bool = False) -> str:
    """A share and its 95% interval, ``75.0% (40.9–92.8)`` (``named``: ``75.0% (95% CI 40.9–92.8)``)."""
    shown = "–" if rate is None else f"{rate:.1%}"
    return f"{shown} ({'95% CI ' if named else ''}{100 * ci[0]:.1f}–{100 * ci[1]:.1f})"


def _print_table(out: Console, table: Table, rows: list[str]) -> None:
    """``table`` when it fits the console's width unfolded; else its title and one line a row (``rows``),
    folded between words, so that no figure is ever cut in a cell."""
    from rich.measure import Measurement

    if Measurement.get(out, out.options.update_width(10_000), table).maximum <= out.width:
        out.print(table)
        return
    out.print(table.title, markup=False)
    for row in rows:
        out.print(fold(row, out.width, 4), markup=False)
