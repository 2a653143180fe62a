"""``mbrules train``: learn the ``learned`` bot's value model from self-play of any valid ruleset."""

from __future__ import annotations

import json
import signal
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Iterator

import typer

from mbrules._paths import install_hint
from mbrules.engine import Game
from mbrules.bots.training import MAX_POSITIONS, MAX_POSITIONS_LIMIT  # (numpy is imported only when it trains)

from .common import EXIT_USAGE, Interrupted, SignalFlag, app, check_range, fail, signals, text_console
from .reports import count_bar
from .flags import OptionsFlag, PlayersFlag, RulesetArgument
from .inputs import MAX_PLAYERS, SEED_MAX, SEED_MIN, SEED_WORDS, compile_game

MAX_TRAIN_GAMES = 1_000_000
KINDS = ("linear", "mlp", "trees")


@contextmanager
def _stop_where_it_is(stop: SignalFlag) -> Iterator[None]:
    """While the value is fitted: scikit-learn polls no flag, so SIGINT or SIGTERM raises
    :class:`Interrupted` where the main thread is (between its iterations, after a call into C); a
    signal that came just before the fit stops it before it starts."""

    def handler(signum: int, frame: object) -> None:
        if stop.signum is None:
            stop.signum = signum
            raise Interrupted(signum)

    if stop.signum is not None:
        raise Interrupted(stop.signum)
    old = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


_ModelOut = Annotated[Path, typer.Option("--out", help="The model file to write (JSON), whole or not at all.")]
_Games = Annotated[int, typer.Option("--games", "-g", help="Self-play matches to learn from.")]
_Seed = Annotated[int, typer.Option("--seed", "-s", help="Seed of the run: match i is dealt from (seed, i).")]
_Kind = Annotated[
    str,
    typer.Option(
        "--kind",
        help="The value's form: linear (ridge regression, the default) or "
        "mlp (a small network; needs numpy to play) or trees (gradient-boosted trees, pure Python to play).",
        metavar="linear|mlp|trees",
    ),
]
_MaxPositions = Annotated[
    int,
    typer.Option(
        "--max-positions",
        help=f"Memory bound: the positions kept for the "
        f"fit (8 bytes a feature: about 160 MB at 2 players for the default; at most "
        f"{MAX_POSITIONS_LIMIT:,}); past it a uniform sample of every position, seeded. "
        "Memory does not grow with --games.",
    ),
]
_Json = Annotated[bool, typer.Option("--json", help="One JSON document on stdout: the training's figures.")]


@app.command()
def train(
    ruleset: RulesetArgument,
    *,  # the flags in the order help lists them, the required ones among them
    option: OptionsFlag = None,
    players: PlayersFlag,
    out: _ModelOut,
    games: _Games = 1000,
    seed: _Seed = 0,
    kind: _Kind = "linear",
    max_positions: _MaxPositions = MAX_POSITIONS,
    as_json: _Json = False,
) -> None:
    """Learn a value model for the learned bot (--bot learned:model=FILE) from self-play.

    The heuristic plays whole matches against itself; at the start of every turn each player's observation is kept with the hand's final point difference for its side (a Monte Carlo target), and a value is fitted on features of the observation derived from the ruleset's own cards (scikit-learn, the optional extra learn). The same ruleset, options, players, games and seed give the same model file. A model is refused (exit 2) for another ruleset than its own.

    Memory is bounded by --max-positions (250,000 positions by default), whatever --games is. Ctrl-C or SIGTERM, during self-play or the fit, stops it (exit 130 or 143) and nothing is written.

    Example: mbrules train winning-moves -p 2 --games 200 --out wm2.json, then mbrules play -p 2 --bot learned:model=wm2.json
    """
    options = list(option or [])
    inputs: list[Path] = []
    game = _training_game(ruleset, options, players, games, seed, kind, max_positions, out, inputs)
    doc, stop, seconds, cpu_seconds = _train_and_write(game, options, games, seed, kind, max_positions, out, inputs)
    if stop.signum is not None:  # it came while the file was written: the model is whole, the exit says so
        print(f"mbrules: interrupted; {out} was written whole before the signal took effect", file=sys.stderr)
        raise typer.Exit(stop.exit_code)
    figures = dict(doc["training"])
    figures.update(
        {
            "out": str(out),
            "ruleset": game.ruleset_id,
            "options": options,
            "players": players,
            "seconds": seconds,
            "cpu_seconds": cpu_seconds,
        }
    )
    if as_json:
        sys.stdout.write(json.dumps(figures, indent=2, ensure_ascii=False) + "\n")
        return
    con = text_console()
    con.print(
        f"{game.ruleset.name}; {players} players: a {kind} value from {games} self-play matches "
        f"({figures['positions']:,} positions), seed {seed}",
        markup=False,
    )
    con.print(
        f"held-out fit: R² {figures['r2_held_out']}, RMSE {figures['rmse_held_out']} points a hand "
        f"({figures['held_out']:,} positions)",
        markup=False,
    )
    con.print(
        f"wrote {out} in {figures['seconds']} s ({figures['cpu_seconds']} s of CPU); "
        f"play it with --bot learned:model={out}",
        markup=False,
    )


def _training_game(
    ruleset: str,
    options: list[str],
    players: int,
    games: int,
    seed: int,
    kind: str,
    max_positions: int,
    out: Path,
    inputs: list[Path],
) -> Game:
    """The inputs checked and the game compiled (``inputs``: every file read), before any match: the first
    wrong one, a model file that may not be written there, memory that cannot hold the bound or no
    scikit-learn is a usage error (exit 2); an invalid ruleset exits 1."""
    check_range("--players", players, 1, MAX_PLAYERS)
    check_range("--games", games, 1, MAX_TRAIN_GAMES)
    check_range("--seed", seed, SEED_MIN, SEED_MAX, SEED_WORDS)
    check_range("--max-positions", max_positions, 1_000, MAX_POSITIONS_LIMIT)
    if kind not in KINDS:
        fail(f"mbrules: --kind must be linear, mlp or trees (got {kind[:30]})", EXIT_USAGE)
    game = compile_game(ruleset, options, players, ["heuristic"], files_read=inputs)
    if game.sides < 2:
        from mbrules.text import plural

        fail(
            f"mbrules: training needs two sides or more; {game.ruleset_id} with {plural(players, 'player')} has "
            f"{plural(game.sides, 'side')}",
            EXIT_USAGE,
        )
    _refuse_what_memory_cannot_hold(game, max_positions)
    from mbrules.safe_output import OutputPathError, check_output_file

    try:
        check_output_file(out, inputs, "--out")
    except OutputPathError as e:
        fail(str(e), EXIT_USAGE)
    try:
        import sklearn  # noqa: F401
    except ImportError:
        fail(f"mbrules: training needs scikit-learn: {install_hint('learn')}", EXIT_USAGE)
    return game


def _train_and_write(
    game: Game,
    options: list[str],
    games: int,
    seed: int,
    kind: str,
    max_positions: int,
    out: Path,
    inputs: list[Path],
) -> tuple[dict[str, Any], SignalFlag, float, float]:
    """Self-play with a progress bar, the fit, then the model file written whole (SIGINT and SIGTERM held
    meanwhile): the model's document, the signal flag, the seconds and CPU seconds it took. A signal before the write: nothing is written,
    exit 130 or 143."""
    from mbrules.bots.training import TrainingStopped, train as run
    from mbrules.safe_output import OutputPathError, write_file_atomic

    t0, c0 = time.monotonic(), time.process_time()
    with count_bar("self-play", "{:,.1f} matches/s") as bar:
        task = bar.add_task("matches", total=games)
        with signals(raising=False) as stop:
            try:
                doc = run(
                    game,
                    games=games,
                    seed=seed,
                    kind=kind,
                    options=options,
                    progress=lambda n: bar.update(task, completed=n),
                    should_stop=stop,
                    max_positions=max_positions,
                    fit_guard=lambda: _stop_where_it_is(stop),
                )
            except (TrainingStopped, Interrupted):
                print(
                    f"mbrules: interrupted ({'SIGINT' if stop.signum == signal.SIGINT else 'SIGTERM'}); "
                    f"no model was written, {out} is as it was",
                    file=sys.stderr,
                )
                raise typer.Exit(stop.exit_code)
            except ValueError as e:
                fail(f"mbrules: {e}", EXIT_USAGE)
            text = json.dumps(doc, indent=1, ensure_ascii=True) + "\n"
            try:  # SIGINT and SIGTERM are held while the file is written: it is written whole, or not at all
                write_file_atomic(out, text, inputs, "--out")
            except OutputPathError as e:
                fail(str(e), EXIT_USAGE)
            except OSError as e:
                fail(f"mbrules: cannot write {out}: {e.strerror or e}", EXIT_USAGE)
    return doc, stop, round(time.monotonic() - t0, 1), round(time.process_time() - c0, 1)


def _refuse_what_memory_cannot_hold(game: Game, max_positions: int) -> None:
    """Before any work: exit 2 when the positions --max-positions keeps would not fit, at the fit's peak, in
    the memory available now, saying how many would (issue 42 item 13). Memory does not grow with --games
    (past the bound a uniform sample is kept), so the bound is what must fit."""
    from mbrules.bots.training import available_memory, fit_bytes

    need, free = fit_bytes(game, max_positions), available_memory()
    if free is None or need <= free:
        return
    fits = free * max_positions // need
    fail(
        f"mbrules: --max-positions {max_positions:,} would need about {need / 1e9:.1f} GB at the fit, and "
        f"{free / 1e9:.1f} GB is available: at most {fits:,} positions would fit"
        + (f"; pass --max-positions {fits} or fewer" if fits >= 1_000 else ""),
        EXIT_USAGE,
    )
