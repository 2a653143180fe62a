"""``mbrules play`` (one headless match between bots, narrated) and ``mbrules simulate`` (many, with statistics)."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Callable, Iterator, Sequence

import typer
from rich.console import Console
from rich.table import Table

from mbrules._paths import install_hint
from mbrules.bots import bot_names, lineup
from mbrules.engine import Game, Observer, State, Transition
from mbrules.text import plural
from mbrules.narrate import Narrator as Words, line_label

if TYPE_CHECKING:
    from mbrules.matches.records import MatchRecord
    from mbrules.matches.stats import MatchStats
    from mbrules.scenario.record import Recorder

from .backends import AddressFlag, BackendFlag, WorkersFlag, check_backend, check_run, cluster_session
from .common import (
    EXIT_CHECK_FAILED,
    EXIT_USAGE,
    Interrupted,
    SignalFlag,
    app,
    check_range,
    fail,
    signals,
    text_console,
)
from .flags import OptionsFlag, PlayersFlag, RulesetFlag
from .reports import count_bar, signal_name
from .inputs import (
    BOTS_HELP,
    DEFAULT_BOT,
    DEFAULT_PLAYERS,
    DEFAULT_RULESET,
    MAX_HANDS_FLAG,
    MAX_PLAYERS,
    SEED_MAX,
    SEED_MIN,
    SEED_WORDS,
    compile_game,
)


def _side_label(game: Game, s: int) -> str:
    return f"{game.side_names[s]} ({', '.join(game.player_names[p] for p in game.side_players[s])})"


def _bots_by_player(game: Game, bots: list[str]) -> dict[str, str]:
    """Each player's bot: ``bots`` holds one name for everybody or one per player in seating order."""
    return dict(zip(game.player_names, lineup(bots, game.players)))


def _sides_table(game: Game, title: str, first: str = "") -> Table:
    """A table with a label column and one right-aligned column per side."""
    table = Table(title=title, title_justify="left")
    table.add_column(first)
    for s in range(game.sides):
        table.add_column(_side_label(game, s), justify="right")
    return table


# -- the narrative ------------------------------------------------------------------------
class Narrator(Observer):
    """Tells a match as it is played (mbrules.narrate's words, from each action's transition):
    who plays what on whom, coups fourrés, extensions, each hand's score."""

    def __init__(self, game: Game, console: Console):
        self.g = game
        self.words = Words(game)
        self.out = console

    def hand_start(self, st: State) -> None:
        self.out.rule(f"Hand {st.hand_no + 1}", style="bold")
        self.say(self.words.hand_start(st, st.current_player))

    def transition(self, st: State, t: Transition) -> None:
        line = self.words.action(t, st)
        if line is not None:
            self.say(line)

    def say(self, text: str) -> None:
        self.out.print(text, markup=False, highlight=False)

    def hand_over(self, st: State) -> None:
        g = self.g
        self.say(self.words.hand_end(st))
        table_now = st.observation(0)
        sheets = st.hand_sheets
        sheet = sheets[-1]
        table = _sides_table(g, f"Score sheet, hand {len(sheets)}")
        for line in g.score_line_names:  # the contract's lines and the ruleset's own (scoring.lines)
            table.add_row(
                line_label(line, g),
                *(str(sheet[s][line]) for s in range(g.sides)),
                end_section=line == g.score_line_names[-2],
            )
        table.add_row("Running total", *(str(t) for t in st.match_totals))
        table.add_row(f"{self.words.unit.capitalize()} travelled", *(str(v.miles) for v in table_now.sides))
        self.out.print(table)


def _result(game: Game, st: State) -> tuple[str, str]:
    """(result for JSON, sentence): the winner's side name, ``draw``, or ``unfinished``."""
    return Words(game).result(st)


BotsFlag = Annotated[list[str] | None, typer.Option("--bot", "-b", help=BOTS_HELP.format(names=", ".join(bot_names())))]
"""``--bot`` of play and simulate: one bot for everybody or one per player."""
# play's own flags
_PlayPlayers = Annotated[
    int, typer.Option("--players", "-p", "-n", help="Number of players (2, 3, 4 or 6 in the bundled editions).")
]
_MatchSeed = Annotated[int, typer.Option("--seed", "-s", help="Seed of the match: the same seed gives the same game.")]
_Hands = Annotated[
    int | None, typer.Option("--hands", "-k", help="Stop after K hands (default: play the whole match).")
]
_Record = Annotated[
    Path | None,
    typer.Option(
        "--record",
        help="Also write the game as a replayable scenario file; with --human it is a save, continued by the same command.",
    ),
]
_PlayJson = Annotated[
    bool,
    typer.Option("--json", help="One JSON document on stdout: every hand's score sheet, the match totals and result."),
]
_Human = Annotated[
    list[str] | None,
    typer.Option(
        "--human",
        help="Play this seat yourself in the terminal (p1, p2, ...); repeat for hot seat. Bots play the other seats.",
    ),
]
_Plain = Annotated[
    bool,
    typer.Option(
        "--plain",
        help="With --human: a prompt loop that prints each screen (scrollback, SSH, screen readers) instead of the full-screen game.",
    ),
]


@app.command()
def play(
    ruleset: RulesetFlag = DEFAULT_RULESET,
    option: OptionsFlag = None,
    players: _PlayPlayers = DEFAULT_PLAYERS,
    seed: _MatchSeed = 0,
    bot: BotsFlag = None,
    hands: _Hands = None,
    record: _Record = None,
    as_json: _PlayJson = False,
    human: _Human = None,
    plain: _Plain = False,
) -> None:
    """Play a headless match between bots and tell it; with --human, play seats yourself.

    With no flags: the winning-moves ruleset, 4 players (two partnerships), the heuristic bot for every player, a whole match, seed 0. The same ruleset, options, players, bots and seed always print the same game.

    Examples: mbrules play -p 2 --bot heuristic --bot expert --seed 7; mbrules play --human p1 (you play p1)
    """
    options = list(option or [])
    bots = list(bot or [DEFAULT_BOT])
    check_range("--hands", hands, 1, MAX_HANDS_FLAG)
    check_range("--players", players, 1, MAX_PLAYERS)
    check_range("--seed", seed, SEED_MIN, SEED_MAX, SEED_WORDS)
    inputs: list[Path] = []
    game = compile_game(ruleset, options, players, bots, files_read=inputs)
    seats = _check_people_and_record(game, human or [], plain, as_json, record, inputs)
    done: dict[str, bool] = {}
    try:
        with signals(raising=True):
            if seats:  # a person plays: the terminal UI (mbrules/tui/)
                from mbrules.tui import run_human

                code = run_human(
                    game,
                    ruleset,
                    options,
                    players,
                    seed,
                    bots,
                    seats,
                    hands,
                    record,
                    inputs,
                    done,
                    full_screen=not plain,
                )
                if code:
                    raise typer.Exit(code)
            else:
                _play(game, ruleset, options, players, seed, bots, hands, record, inputs, as_json, done)
    except Interrupted as e:
        name = signal_name(e.signum)
        what = "the match was not finished" if "played" not in done else "the output was cut short"
        if record is not None:
            what += (
                f"; {record} was written whole"
                if "recorded" in done
                else f"; {record} was left as it was"
                if record.exists()
                else "; nothing was recorded"
            )
        print(f"mbrules: interrupted ({name}): {what}", file=sys.stderr)
        raise typer.Exit(e.exit_code)


def _check_people_and_record(
    game: Game, human: list[str], plain: bool, as_json: bool, record: Path | None, inputs: list[Path]
) -> list[int]:
    """--human, --plain and --record checked before any game is played (a usage error first, then the
    files): the seats people play."""
    if plain and not human:
        fail("mbrules: --plain goes with --human (it is how a person's seat is shown)", EXIT_USAGE)
    seats = _human_seats(game, human, as_json)  # before any file is checked: a usage error first
    if seats and not plain:
        try:
            import textual  # noqa: F401  (extra "human")
        except ImportError:
            fail(
                f"mbrules: the full-screen game needs Textual: {install_hint('human')} "
                "(or add --plain for the prompt loop)",
                EXIT_USAGE,
            )
    if record is not None:
        from mbrules.safe_output import OutputPathError, check_output_file

        try:  # before any game is played: never an input, a link, a FIFO, a device, a folder
            check_output_file(record, inputs, "--record")
        except OutputPathError as e:
            fail(str(e), EXIT_USAGE)
        if not seats:
            from mbrules.tui.resume import is_saved_game

            if is_saved_game(record):  # a person's saved game is continued by --human, never replaced
                fail(
                    f"mbrules: --record {record} holds a game saved by play --human (the same command continues "
                    "it): give another --record file; it is left as it was",
                    EXIT_USAGE,
                )
    return seats


def _human_seats(game: Game, names: list[str], as_json: bool) -> list[int]:
    """The seats given with --human (player names), checked; a person needs a terminal."""
    if not names:
        return []
    if as_json:
        fail("mbrules: --human and --json cannot go together: a person plays in the terminal", EXIT_USAGE)
    seats = []
    for name in names:
        if name not in game.player_names:
            fail(
                f"mbrules: --human {name!r} is not a seat of this game (players: {', '.join(game.player_names)})",
                EXIT_USAGE,
            )
        seats.append(game.player_names.index(name))
    from mbrules.tui import no_terminal

    if no_terminal():
        fail(
            "mbrules: --human needs a terminal: standard input and output must both be a TTY "
            "(to watch bots play without one, leave out --human)",
            EXIT_USAGE,
        )
    return sorted(set(seats))


def _play(
    game: Game,
    ruleset: str,
    options: list[str],
    players: int,
    seed: int,
    bots: list[str],
    hands: int | None,
    record: Path | None,
    inputs: list[Path],
    as_json: bool,
    done: dict[str, bool],
) -> None:
    """The body of ``play`` once its inputs are checked (run with SIGINT/SIGTERM raising Interrupted)."""
    from mbrules.matches.loop import play_match

    from mbrules.scenario.record import Recorder

    recorder = Recorder() if record is not None else None
    watchers = [recorder] if recorder is not None else []
    if as_json:
        st = play_match(game, seed, bots, max_hands=hands, observers=watchers)
    else:
        console = text_console()
        _tell_settings(console, game, players, seed, bots)
        narrator = Narrator(game, console)
        st = play_match(game, seed, bots, max_hands=hands, observers=[narrator, *watchers])
        console.rule("Result", style="bold")
        console.print(_result(game, st)[1], markup=False)

    done["played"] = True
    if record is not None and recorder is not None:  # the one is given with the other
        _write_record(recorder, st, ruleset, options, players, seed, record, inputs)
        done["recorded"] = True
    if as_json:
        doc = _match_document(game, st, ruleset, options, players, seed, bots, hands)
        sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def _tell_settings(console: Console, game: Game, players: int, seed: int, bots: list[str]) -> None:
    """The narrated match's first lines: the ruleset, its options, the sides, the bots and the seed."""
    rs = game.ruleset
    console.print(f"{rs.name}", markup=False)
    if rs.applied_options:
        console.print(f"Options: {', '.join(rs.applied_options)}", markup=False)
    sides = "; ".join(_side_label(game, s) for s in range(game.sides))
    lineup = ", ".join(f"{p} {b}" for p, b in _bots_by_player(game, bots).items())
    console.print(f"{plural(players, 'player')}, sides {sides}. Bots: {lineup}. Seed {seed}.", markup=False)


def _write_record(
    recorder: Recorder,
    st: State,
    ruleset: str,
    options: list[str],
    players: int,
    seed: int,
    record: Path,
    inputs: list[Path],
) -> None:
    """--record: the match as a replayable scenario file, whole or not at all (a temporary file renamed over
    the target, checked again just before); a write that fails is a usage error."""
    from mbrules.safe_output import OutputPathError
    from mbrules.scenario.record import record_match, write_scenario_file

    text = record_match(recorder, st, ruleset, options, players, seed, out_dir=Path(os.path.realpath(record)).parent)
    try:
        write_scenario_file(record, text, inputs, "--record")
    except OutputPathError as e:
        fail(str(e), EXIT_USAGE)
    except OSError as e:
        fail(f"mbrules: cannot write {record}: {e.strerror or e}", EXIT_USAGE)


def _match_document(
    game: Game,
    st: State,
    ruleset: str,
    options: list[str],
    players: int,
    seed: int,
    bots: list[str],
    hands: int | None,
) -> dict[str, Any]:
    """play --json: the settings, the sides, every hand's score sheet with the running totals, the result."""
    names = game.side_names
    result, _ = _result(game, st)
    hands_doc = []
    running = [0] * game.sides
    for i, sheet in enumerate(st.hand_sheets):
        running = [r + sheet[s]["total"] for s, r in enumerate(running)]
        hands_doc.append(
            {
                "hand": i + 1,
                "score_sheet": {
                    names[s]: {line: sheet[s][line] for line in game.score_line_names} for s in range(game.sides)
                },
                "running_totals": {names[s]: running[s] for s in range(game.sides)},
            }
        )
    return {
        "settings": {
            "ruleset": ruleset,
            "ruleset_id": game.ruleset_id,
            "options": options,
            "applied_options": list(game.ruleset.applied_options),
            "players": players,
            "seed": seed,
            "bots": _bots_by_player(game, bots),
            # how the match ends (match.mode, its hands or points, the tie-break): what 'result' was judged by
            "match": {
                "mode": game.match_mode,
                "target_points": game.target_points,
                "hands": game.match_hands,
                "tie_break": game.match_tie_break,
                "max_hands": game.max_hands,
            },
            "hands": hands,
        },
        "sides": {names[s]: [game.player_names[p] for p in game.side_players[s]] for s in range(game.sides)},
        "hands": hands_doc,
        "match_totals": {names[s]: st.match_totals[s] for s in range(game.sides)},
        "result": result,
        "winner": result if result != "unfinished" else None,
        # why an unfinished match stopped: --hands, or the ruleset's match.max_hands bound
        "stopped_by": (None if result != "unfinished" else "max_hands" if st.outcome is not None else "hands"),
    }


# simulate's own flags
_SimGames = Annotated[int, typer.Option("--games", "-g", help="Number of whole matches to play.")]
_RunSeed = Annotated[int, typer.Option("--seed", "-s", help="Seed of the run: game i is dealt from (seed, i).")]
_SimJson = Annotated[
    bool, typer.Option("--json", help="One JSON document on stdout with the statistics and throughput.")
]
_RecordsOut = Annotated[
    Path | None,
    typer.Option(
        "--out",
        help="Also write one record per game: FILE.jsonl (a match a line, "
        "hands nested) or FILE.csv (a hand a row). At most 1,000,000 games.",
    ),
]


@app.command()
def simulate(
    ruleset: RulesetFlag = DEFAULT_RULESET,
    option: OptionsFlag = None,
    players: PlayersFlag = DEFAULT_PLAYERS,
    games: _SimGames = 100,
    seed: _RunSeed = 0,
    workers: WorkersFlag = None,
    bot: BotsFlag = None,
    as_json: _SimJson = False,
    out: _RecordsOut = None,
    backend: BackendFlag = "local",
    address: AddressFlag = None,
) -> None:
    """Play many matches between bots; show progress, then statistics (with 95% intervals) and throughput.

    Defaults: winning-moves, 4 players, the heuristic bot, 100 games, seed 0, a worker per CPU (at most 8). Every figure but the timings is the same for the same inputs, whatever --workers is.

    Example: mbrules simulate -r parker-1971 -p 2 --games 500 --out games.csv
    """
    options = list(option or [])
    bots = list(bot or [DEFAULT_BOT])
    workers_used = check_run(games, 1, workers, [("--players", players)], seed)
    check_backend(backend, address)
    inputs: list[Path] = []
    game = compile_game(ruleset, options, players, bots, files_read=inputs)
    if out is not None:
        _check_records_out(out, inputs, games)
    nodes: set[str] = set()
    stats, seconds, stop = _simulate(game, bots, games, seed, workers_used, out, inputs, backend, address, nodes)
    from mbrules.matches.stats import summary

    report = summary(game, stats, seconds)
    interrupted = stop.signum is not None
    report["interrupted"] = interrupted
    settings: dict[str, Any] = {
        "ruleset": ruleset,
        "ruleset_id": game.ruleset_id,
        "options": options,
        "players": players,
        "games": games,
        "seed": seed,
        "workers": workers_used,
        "bots": _bots_by_player(game, bots),
        "backend": backend,
    }
    if backend == "ray":
        report["cluster"] = {"address": address, "nodes_used": len(nodes)}  # where the tasks ran (not a figure)
    if interrupted:
        name = signal_name(stop.signum or 0)  # set: interrupted
        n = stats.games
        which = f"games 0 to {n - 1} of the seed, whole chunks merged in order" if n else "no game finished"
        print(
            f"mbrules: interrupted after {n} of {plural(games, 'game')} ({name}); the statistics count those {plural(n, 'game')} "
            f"({which})",
            file=sys.stderr,
        )
    if as_json:
        sys.stdout.write(json.dumps({"settings": settings, **report}, indent=2, ensure_ascii=False) + "\n")
    else:
        _print_statistics(game, stats, report, settings)
    if interrupted:
        raise typer.Exit(stop.exit_code)


def _simulate(
    game: Game,
    bots: list[str],
    games: int,
    seed: int,
    workers: int,
    out: Path | None,
    inputs: list[Path],
    backend: str,
    address: str | None,
    nodes: set[str],
) -> tuple[MatchStats, float, SignalFlag]:
    """The matches, with a progress bar, each chunk's records streamed to ``out``; Ctrl-C or SIGTERM stops the
    workers and keeps the whole chunks. A worker that died: exit 1, nothing reported."""
    from concurrent.futures.process import BrokenProcessPool

    from mbrules.matches.simulation import simulate as run

    with count_bar("simulating", "{:,.0f} games/s") as bar:
        task = bar.add_task("games", total=games)
        with signals(raising=False) as stop:  # Ctrl-C, SIGTERM: the workers are stopped, the whole chunks kept
            try:
                with _records_file(out, inputs, game) as on_records:  # streamed, renamed into place at the end
                    with cluster_session(backend):
                        stats, seconds = run(
                            game,
                            bots,
                            games,
                            seed,
                            workers=workers,
                            progress=lambda n: bar.update(task, completed=n),
                            should_stop=stop,
                            records=out is not None,
                            backend=backend,
                            address=address,
                            nodes=nodes,
                            on_records=on_records,
                        )
            except BrokenProcessPool as e:  # a worker killed from outside, or its set-up failed
                fail(
                    f"mbrules: a worker process stopped unexpectedly ({e}); the other workers were stopped "
                    "and nothing is reported",
                    EXIT_CHECK_FAILED,
                )
    return stats, seconds, stop


def _print_statistics(game: Game, stats: MatchStats, report: dict[str, Any], settings: dict[str, Any]) -> None:
    """simulate's report on the terminal: the settings, every figure with its 95% interval and the throughput,
    the mean score per hand of each line."""
    games, seed, workers = settings["games"], settings["seed"], settings["workers"]
    con = text_console()
    con.print(
        f"{game.ruleset.name}; {plural(settings['players'], 'player')}; bots: "
        + ", ".join(f"{p} {b}" for p, b in settings["bots"].items()),
        markup=False,
    )
    interrupted = report["interrupted"]
    counted = (
        f"{stats.games} of {plural(games, 'match', 'matches')} (interrupted)"
        if interrupted
        else plural(games, "match", "matches")
    )
    t = Table(title=f"{counted}, seed {seed}, {plural(workers, 'worker')}", title_justify="left")
    t.add_column("figure")
    t.add_column("value", justify="right")
    t.add_column("95% interval", justify="right")
    for key in ("games", "hands", "turns"):
        t.add_row(key.capitalize(), *_figure(report[key], None))
    ci = report["ci95"]
    for s in range(game.sides):
        t.add_row(
            f"Matches won by {_side_label(game, s)}",
            str(report["wins"][game.side_names[s]]),
            _ci_words(ci["win_share"][game.side_names[s]], share=True),
        )
    # every metric of the registry, by the names compare and sweep show it under (mbrules.matches.metrics),
    # each to the digits its interval supports
    from mbrules.matches.metrics import METRICS, applies

    for metric in METRICS:
        fig = stats.figure(metric) if applies(metric, game) else {"value": None, "ci95": None}
        t.add_row(metric.name or metric.label, *_figure(fig["value"], fig["ci95"], share=metric.key.endswith("_share")))
    t.add_row("Seconds", f"{report['seconds']:.2f}", "")
    for key in ("hands_per_second", "turns_per_second"):
        rate = report[key]
        t.add_row(key.replace("_", " ").capitalize(), "–" if rate is None else f"{rate:,.0f}", "")
    con.print(t)
    con.print(
        "95% intervals: Wilson for shares of matches; the delta method over matches for the other "
        "figures (a match's hands are not independent). The same metrics as compare and sweep.",
        markup=False,
    )
    m = _sides_table(game, "Mean score per hand, per side", "line")
    for line in report["mean_score_per_line"]:
        m.add_row(
            line_label(line, game) if line != "total" else "Total",
            *(
                "–"
                if report["mean_score_per_line"][line][n] is None
                else f"{report['mean_score_per_line'][line][n]:.1f}"
                for n in game.side_names
            ),
        )
    con.print(m)
    if interrupted:
        con.print(
            f"Interrupted after {stats.games} of {plural(games, 'game')}: the figures above count those games.",
            markup=False,
        )


def _figure(value: float | None, ci: Sequence[float] | None, share: bool = False) -> tuple[str, str]:
    """A figure and its 95% interval, to the digits the interval supports: the half-width's first significant
    digit (its first two when they start with 1 or 2, as physicists round an uncertainty), so 69 [64, 73],
    not 68.675 [64.52, 72.83]; a share in percent; a count as it is."""
    import math

    if value is None:
        return "–", ""
    if not ci:
        return (f"{value:,}" if isinstance(value, int) else f"{value:g}"), ""
    scale = 100 if share else 1
    half = scale * (ci[1] - ci[0]) / 2
    if half <= 0:
        digits = 0
    else:
        first = math.floor(math.log10(half))
        digits = min(4, max(0, -first + (1 if half / 10**first < 3 else 0)))
    unit = "%" if share else ""
    low, mid, high = (f"{scale * v:.{digits}f}" for v in (ci[0], value, ci[1]))
    return f"{mid}{unit}", f"[{low}{unit}, {high}{unit}]"


def _ci_words(ci: Sequence[float] | None, share: bool = False) -> str:
    if not ci:
        return ""
    if share:
        return f"[{100 * ci[0]:.1f}%, {100 * ci[1]:.1f}%]"
    return f"[{ci[0]:.4g}, {ci[1]:.4g}]"


MAX_RECORDED_GAMES = 1_000_000  # simulate --out streams its records to disk (about 32 KB a game): 32 GB at most


def _check_records_out(out: Path, inputs: list[Path], games: int) -> None:
    """``simulate --out``: a .jsonl or .csv file that may be written, checked before any game is played."""
    from mbrules.safe_output import OutputPathError, check_output_file

    if out.suffix.lower() not in (".jsonl", ".csv"):
        fail(f"mbrules: --out {out}: give a file ending in .jsonl (a match a line) or .csv (a hand a row)", EXIT_USAGE)
    if games > MAX_RECORDED_GAMES:
        fail(
            f"mbrules: --out records at most {MAX_RECORDED_GAMES:,} games (got --games {games:,}): "
            "run several simulations with other seeds",
            EXIT_USAGE,
        )
    try:
        check_output_file(out, inputs, "--out")
    except OutputPathError as e:
        fail(str(e), EXIT_USAGE)


@contextlib.contextmanager
def _records_file(
    out: Path | None, inputs: list[Path], game: Game
) -> Iterator[Callable[[int, list[MatchRecord]], None] | None]:
    """``simulate --out``: yields the callback that streams each chunk's records (in seed order) to a
    temporary file, renamed over ``out`` when the run ends (whole, with the games counted if interrupted);
    None without ``--out``. A failed write is a usage error and leaves ``out`` as it was."""
    if out is None:
        yield None
        return
    from mbrules.compare import export
    from mbrules.safe_output import OutputPathError, open_output_atomic

    names = game.side_names
    as_jsonl = out.suffix.lower() == ".jsonl"
    in_run = False  # an OSError of the run itself (not of this file) is not this file's
    try:
        with open_output_atomic(out, inputs, "--out") as fh:
            if not as_jsonl:
                fh.write(export.hands_csv_header(names))

            def on_records(first: int, records: list[MatchRecord]) -> None:
                try:
                    if as_jsonl:
                        fh.write(
                            export.jsonl(export.match_row(r, names, index=first + k) for k, r in enumerate(records))
                        )
                    else:
                        fh.write(
                            export.hands_csv_rows(((None, first + k, "main", r) for k, r in enumerate(records)), names)
                        )
                except OSError as e:
                    raise _RecordsNotWritten(e) from None

            in_run = True
            yield on_records
            in_run = False
    except OutputPathError as e:
        fail(str(e), EXIT_USAGE)
    except _RecordsNotWritten as e:
        fail(f"mbrules: cannot write {out}: {e.args[0].strerror or e.args[0]}; it is left as it was", EXIT_USAGE)
    except OSError as e:
        if in_run:
            raise
        fail(f"mbrules: cannot write {out}: {e.strerror or e}; it is left as it was", EXIT_USAGE)


class _RecordsNotWritten(Exception):
    """simulate --out: a chunk of records could not be written (the disk is full...)."""
