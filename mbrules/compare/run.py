"""The orchestration of a comparison, in one call a notebook can make: :func:`run_compare`.

Both arms play the same seeds (common random numbers), pair by pair: a work item is a range of pair
indices, and a worker plays match i of arm A and match i of arm B together, so the pairs finished
when a run is stopped are whole pairs. Nothing grows with the number of matches: each pair's
metrics go into running sums (:class:`mbrules.matches.intervals.PairSums`), and its records, when a
report folder is asked for, go to spill files as they arrive (:class:`mbrules.compare.report.RecordSpill`).

The phases, in order:

1. ``main``: ``games`` pairs with the main lineup (``bots``): every metric, flagged by Holm.
2. ``ladder:X>Y``: the skill ladder, one phase per rung pair (random < heuristic < expert; more with ``--rung``):
   X seated on one side (rotating through the sides), Y everywhere else; X's side's win share per arm.
3. ``restricted:R``: restricted play (Jaffe et al., AIIDE 2012): the heuristic on one side against
   itself forbidden decision R everywhere else; the unrestricted side's win share per arm.
4. ``robust:L``: each flagged effect measured again with lineup L on the first pairs (a cheap lineup
   on up to 1,000, a slow one on ``robust_games``): ``robust`` is true when, with every lineup, the
   difference has the main run's sign and its 95% interval excludes 0; ``robust_verdict`` tells a
   lineup that measured the effect clearly smaller, absent or reversed ("differs": it depends on the
   bots) from one with too few pairs to tell ("unconfirmed").

Each arm is compiled once in this process; the pairs are played by the runner of arms of
:mod:`mbrules.matches.arms` (the one sweep uses) on a backend (this process, a process pool or Ray),
whose workers compile both arms once from their resolved rulesets.
"""

from __future__ import annotations

import functools
import math
import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypedDict

from .. import load_game
from ..bots import check_bots, is_slow, ladder_rungs, lineup
from ..bots.restricted import RESTRICTIONS
from ..engine import Game
from ..matches import intervals as stats
from ..matches.arms import PairResult, Phase, cpu_seconds, run_arms
from ..matches.base import DEFAULT_WORKERS
from ..matches.metrics import Metric, metrics_for
from .headline import RESTRICTION_SHORT
from .metrics import (
    Distribution,
    FocusRow,
    MetricRow,
    RobustCheck,
    add_distribution,
    add_pair,
    evaluate_sums,
    excludes_zero,
    mark_not_applicable,
    new_distribution,
    tested_difference,
)

if TYPE_CHECKING:
    from .headline import SummaryItem
    from .report import RecordSpill

# The second lineup of the robustness check: the starting heuristic (another player: it attacks after
# rolling, saves its longest distance card, keeps its safeties differently) at the heuristic's cost, so
# that it plays enough pairs to confirm or refute what the main run flags (the expert's 8 to 25 pairs
# could do neither for most effects: docs/compare.md)
CHECK_BOT = "heuristic-2026"
CHECK_PAIRS = 1000  # the most pairs a cheap lineup plays by default (the main run's first ones)


def default_ladder() -> list[str]:
    """The registered bots that have a rung on the ladder, weakest first (:func:`mbrules.bots.ladder_rungs`:
    random < heuristic < the expert at a small budget). The learned bot is a rung only when asked
    (``--rung learned``): on a ruleset no shipped model fits it trains one first (seconds of CPU, a large
    peak of memory), and it plays no better than the heuristic (docs/bots.md)."""
    return ladder_rungs()


def default_slow_games(games: int) -> int:
    """Pairs played by the slow lineups (robustness, the expert's ladder rung): a fortieth of the
    games, at least 8 and at most 25 (and never more than ``games``)."""
    return min(games, max(8, min(25, games // 40)))


def default_check_games(games: int, bot: str) -> int:
    """Pairs a lineup of the robustness check plays by default: a slow one the slow subset, a cheap one
    the main run's first :data:`CHECK_PAIRS` pairs (all of them up to that)."""
    return default_slow_games(games) if is_slow(bot) else min(games, CHECK_PAIRS)


def default_skill_games(games: int) -> int:
    """Pairs of each cheap ladder rung and of each restriction: at most 300."""
    return min(games, 300)


class ArmSettings(TypedDict):
    """One arm in a comparison's settings (``settings.a`` and ``settings.b`` of ``--json``)."""

    ruleset: str  # as given (an id or a path; the CLI puts back what the user typed)
    ruleset_id: str
    name: str
    options: list[str]
    applied_options: list[str]
    players: int
    sides: int


class CompareSettings(TypedDict):
    """A comparison's settings as ``--json`` writes them (``settings``)."""

    a: ArmSettings
    b: ArmSettings
    players: int
    players_b: int
    games: int
    seed: int
    workers: int
    backend: str
    bots: list[str]
    robust_bots: list[str]
    robust_games: int
    robust_pairs: dict[str, int]
    ladder: list[str]
    skill_games: int
    restricted_games: int
    same_seating: bool


@dataclass
class Comparison:
    """What :func:`run_compare` returns: settings, every metric row, the ladder and the restricted play,
    the headline, and (with ``out``) where the report was written."""

    settings: CompareSettings
    arm_names: tuple[str, str]
    rule_changes: list[str]
    rows: list[MetricRow]
    ladder: list[FocusRow]
    restricted: list[FocusRow]
    summary: list[SummaryItem]
    interrupted: bool
    seconds: dict[str, float]
    pairs_done: int
    distributions: tuple[Distribution, Distribution] = field(
        default_factory=lambda: (new_distribution(), new_distribution())
    )
    headline: list[str] = field(default_factory=list)  # at most three sentences a player reads first
    written: bool = False  # the report folder was written (not when stopped before any pair finished)

    def document(self) -> dict[str, Any]:
        from .report import document

        return document(self)


# -- the orchestration ---------------------------------------------------------------------------
def arm_name(game: Game, options: Sequence[str]) -> str:
    """An arm as a person names it: its ruleset's name and the options applied (by id)."""
    applied = list(game.ruleset.applied_options) or list(options)
    return game.ruleset.name + "".join(f" + {o}" for o in applied)


def run_compare(
    a: str | Game,
    b: str | Game | None = None,
    *,
    options_a: Sequence[str] = (),
    options_b: Sequence[str] = (),
    players: int = 4,
    players_b: int | None = None,
    games: int = 1000,
    seed: int = 0,
    bots: Sequence[str] = ("heuristic",),
    robust_bots: Sequence[str] | None = None,
    robust_games: int | None = None,
    ladder: Sequence[str] | None = None,
    skill_games: int | None = None,
    restricted_games: int | None = None,
    workers: int | None = None,
    out: str | os.PathLike[str] | None = None,
    charts: bool = True,
    inputs: Sequence[str | os.PathLike[str]] = (),
    progress: Callable[[str, str, int, int], None] | None = None,
    should_stop: Callable[[], object] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> Comparison:
    """Compare ruleset ``a`` (an id, a path or a compiled Game) with ``b`` (default: ``a`` again) by
    playing both on the same seeds; return a :class:`Comparison` (``.document()`` is ``--json``).

    ``players_b`` seats arm B differently (default ``players``). ``bots`` is the main lineup;
    ``robust_bots`` the lineups each flagged effect is measured again with (default: ``heuristic-2026``,
    the starting heuristic; ``[]``: none), on ``robust_games`` pairs (default: a cheap lineup up to 1,000, a
    slow one, the expert, ``games/40`` from 8 to 25); ``ladder`` the skill rungs, weakest first
    (default: random, heuristic, the small expert; the learned bot only when named); ``skill_games`` the
    pairs of each cheap rung and of each restriction (0: no ladder and no restricted play).
    ``progress(phase_key, title, done, total)`` is called as pairs finish; ``should_stop()`` is
    polled: once true, the run ends with the pairs both arms finished (``interrupted`` true); without it,
    a KeyboardInterrupt (Ctrl-C in a notebook) does the same.
    ``out``: a folder the report is written to, whole (checked before any match). ``backend="ray"``
    plays the same pairs as Ray tasks on the cluster at ``address``: the same figures.
    """
    t_start, cpu_start = time.perf_counter(), cpu_seconds()
    plan = _plan(a, b, options_a, options_b, players, players_b, games, bots, workers)
    plan.lineups(robust_bots, robust_games, ladder, skill_games, restricted_games)
    spill: RecordSpill | None = None  # with a report folder: the records, as they arrive
    if out is not None:
        from .report import RecordSpill, check_out

        check_out(out, inputs, charts)
        spill = RecordSpill(max(plan.game_a.sides, plan.game_b.sides))
    phases = plan.phases()
    tally = _Tally(plan.games_pair, spill, progress)
    run = functools.partial(
        run_arms,
        plan.games_pair,
        seed=seed,
        consume=tally.consume,
        workers=plan.workers,
        should_stop=should_stop,
        seconds=tally.seconds,
        backend=backend,
        address=address,
    )
    stopped = run(phases=phases, with_records=spill is not None)
    rows = evaluate_sums(tally.sums, plan.same_seating, tally.metrics)
    mark_not_applicable(rows, plan.games_pair, tally.metrics)
    stopped = _check_robustness(rows, plan, tally, run, stopped)
    tally.seconds["total"] = time.perf_counter() - t_start
    tally.seconds["cpu"] = cpu_seconds() - cpu_start
    cmp = _comparison(plan, rows, phases, tally, stopped, seed, backend)
    if out is not None and spill is not None and cmp.pairs_done > 0:  # (a folder has its spill)
        from .report import write_report

        write_report(cmp, out, spill, charts, inputs)
        cmp.written = True
    elif spill is not None:  # stopped before any pair finished: the folder is left as it was, not emptied
        spill.close()
    return cmp


@dataclass
class _Plan:
    """A comparison's arms and lineups as resolved from :func:`run_compare`'s arguments (checked)."""

    game_a: Game
    game_b: Game
    ref_a: str  # each arm's ruleset as given (an id or a path), or its id when a Game was given
    ref_b: str
    options_a: list[str]
    options_b: list[str]
    games: int
    bots: tuple[str, ...]
    workers: int
    robust_bots: list[str] = field(default_factory=list)
    slow: int = 0  # pairs of a slow lineup (robustness, the expert's rung)
    check_pairs: dict[str, int] = field(default_factory=dict)  # pairs of each robustness lineup
    skill: int = 0
    restricted_n: int = 0
    rungs: list[str] = field(default_factory=list)

    @property
    def games_pair(self) -> tuple[Game, Game]:
        return (self.game_a, self.game_b)

    @property
    def same_seating(self) -> bool:
        return self.game_a.players == self.game_b.players and self.game_a.sides == self.game_b.sides

    def lineups(
        self,
        robust_bots: Sequence[str] | None,
        robust_games: int | None,
        ladder: Sequence[str] | None,
        skill_games: int | None,
        restricted_games: int | None,
    ) -> None:
        """The robustness lineups, the ladder's rungs and each phase's pairs; every bot checked against both
        arms before any match."""
        games = self.games
        self.robust_bots = [CHECK_BOT] if robust_bots is None else list(robust_bots)
        self.slow = default_slow_games(games) if robust_games is None else min(games, robust_games)
        self.check_pairs = {
            bot: default_check_games(games, bot) if robust_games is None else min(games, robust_games)
            for bot in self.robust_bots
        }
        self.skill = default_skill_games(games) if skill_games is None else skill_games
        self.restricted_n = self.skill if restricted_games is None else restricted_games
        self.rungs = default_ladder() if ladder is None else list(ladder)
        # a bot that needs something of the game (the learned bot's model) gets it here, once, for both arms,
        # not in every worker: UnknownBot (a sentence) before any match
        check_bots([*self.bots, *self.robust_bots, *(self.rungs if self.skill > 0 else [])], self.games_pair)

    def phases(self) -> list[Phase]:
        """The main phase, the ladder's rungs and the restricted play, in the order they are played."""
        return [
            Phase("main", "main", self.games, "paired matches", bots=self.bots),
            *(_ladder_phases(self.rungs, self.skill, self.slow) if self.skill > 0 else []),
            *_restricted_phases(self.games_pair, self.restricted_n),
        ]


def _plan(
    a: str | Game,
    b: str | Game | None,
    options_a: Sequence[str],
    options_b: Sequence[str],
    players: int,
    players_b: int | None,
    games: int,
    bots: Sequence[str],
    workers: int | None,
) -> _Plan:
    """Both arms compiled and the main lineup checked against both (before any match)."""
    players_b = players if players_b is None else players_b
    ref_b = a if b is None else b
    game_a = a if isinstance(a, Game) else load_game(a, players, list(options_a))
    game_b = ref_b if isinstance(ref_b, Game) else load_game(ref_b, players_b, list(options_b))
    for g in (game_a, game_b):
        lineup(tuple(bots), g.players)  # one bot, or one per player of both arms: refused before any match
    return _Plan(
        game_a,
        game_b,
        a if isinstance(a, str) else game_a.ruleset_id,
        ref_b if isinstance(ref_b, str) else game_b.ruleset_id,
        list(options_a),
        list(options_b),
        games,
        tuple(bots),
        DEFAULT_WORKERS if workers is None else workers,
    )


class _Tally:
    """The running sums of a comparison's pairs as they arrive (nothing grows with the pairs but the spill)."""

    def __init__(
        self,
        games_pair: tuple[Game, Game],
        spill: RecordSpill | None,
        progress: Callable[[str, str, int, int], None] | None,
    ) -> None:
        self.games_pair, self.spill, self.progress = games_pair, spill, progress
        self.metrics = metrics_for(games_pair)  # the registry's, and a metric for each score line the rulesets add
        self.sums = [stats.PairSums() for _ in self.metrics]
        self.focus_sums: dict[str, stats.PairSums] = {}
        self.robust_sums: dict[str, list[stats.PairSums]] = {}
        self.dists = (new_distribution(), new_distribution())
        self.done: dict[str, int] = {}
        self.seconds: dict[str, float] = {}

    def consume(self, phase: Phase, start: int, result: list[PairResult]) -> None:
        """One work item's pairs (``start`` the first one's index), into the sums of its phase."""
        for k, (vals, recs) in enumerate(result):
            if phase.kind == "main":
                add_pair(self.sums, _values(vals[0]), _values(vals[1]))
                if recs is not None and self.spill is not None:  # records come when there is a spill for them
                    for arm, rec, dist, g in zip("AB", recs, self.dists, self.games_pair):
                        add_distribution(dist, rec)
                        self.spill.add(arm, start + k, rec, g.side_names)
            elif phase.kind == "robust":
                add_pair(
                    self.robust_sums.setdefault(phase.key, [stats.PairSums() for _ in self.metrics]),
                    _values(vals[0]),
                    _values(vals[1]),
                )
            else:
                self.focus_sums.setdefault(phase.key, stats.PairSums()).add(_won(vals[0]), 1, _won(vals[1]), 1)
        self.done[phase.key] = self.done.get(phase.key, 0) + len(result)
        if self.progress:
            self.progress(phase.key, phase.title, self.done[phase.key], phase.pairs)


def _check_robustness(
    rows: list[MetricRow], plan: _Plan, tally: _Tally, run: Callable[..., bool], stopped: bool
) -> bool:
    """The robustness phases, when the main run was not stopped and flagged an effect, and ``robust`` on each
    flagged row (:func:`_robustness`); whether the run was stopped."""
    flagged = [r for r in rows if r["flagged"]]
    if not stopped and flagged and plan.robust_bots:
        rphases = [
            Phase(f"robust:{bot}", "robust", plan.check_pairs[bot], f"check: {bot.partition(':')[0]}", bots=(bot,))
            for bot in plan.robust_bots
            if plan.check_pairs[bot] > 0
        ]
        stopped = run(phases=rphases)
    measured = [b for b in plan.robust_bots if plan.check_pairs[b] > 0] if flagged else []
    _robustness(rows, tally.metrics, tally.robust_sums, measured, plan.same_seating)
    return stopped


def _comparison(
    plan: _Plan, rows: list[MetricRow], phases: list[Phase], tally: _Tally, stopped: bool, seed: int, backend: str
) -> Comparison:
    """The :class:`Comparison` of the figures, with its summary and headline (made from the rest)."""
    ladder_rows = [_focus_row(p, tally.focus_sums.get(p.key), plan.same_seating) for p in phases if p.kind == "ladder"]
    restricted_rows = [
        _focus_row(p, tally.focus_sums.get(p.key), plan.same_seating) for p in phases if p.kind == "restricted"
    ]
    _flag_focus_family(ladder_rows + restricted_rows)
    names = (arm_name(plan.game_a, plan.options_a), arm_name(plan.game_b, plan.options_b))
    if names[0] == names[1]:
        names = (names[0] + " (A)", names[1] + " (B)")
    cmp = Comparison(
        _settings(plan, seed, backend),
        names,
        _rule_changes(plan.game_a, plan.game_b),
        rows,
        ladder_rows,
        restricted_rows,
        [],
        stopped,
        tally.seconds,
        tally.done.get("main", 0),
        tally.dists,
    )
    from .headline import headline, summary

    cmp.summary = summary(cmp)
    cmp.headline = headline(cmp)
    return cmp


def _settings(plan: _Plan, seed: int, backend: str) -> CompareSettings:
    """The run's settings as ``--json`` writes them."""
    return {
        "a": _arm_settings(plan.ref_a, plan.game_a, plan.options_a),
        "b": _arm_settings(plan.ref_b, plan.game_b, plan.options_b),
        "players": plan.game_a.players,
        "players_b": plan.game_b.players,
        "games": plan.games,
        "seed": seed,
        "workers": plan.workers,
        "backend": backend,
        "bots": list(plan.bots),
        "robust_bots": plan.robust_bots,
        "robust_games": plan.slow,
        "robust_pairs": plan.check_pairs,
        "ladder": plan.rungs,
        "skill_games": plan.skill,
        "restricted_games": plan.restricted_n,
        "same_seating": plan.same_seating,
    }


def _ladder_phases(rungs: Sequence[str], skill: int, slow: int) -> list[Phase]:
    """A phase for each pair of neighbouring rungs (weakest first): ``skill`` pairs, ``slow`` with a slow bot."""
    out = []
    for weak, strong in zip(rungs, rungs[1:]):
        n = slow if (is_slow(weak) or is_slow(strong)) else skill
        if n > 0:
            title = f"rung {strong.partition(':')[0]} > {weak.partition(':')[0]}"
            out.append(Phase(f"ladder:{strong}>{weak}", "ladder", n, title, focus=strong, other=weak))
    return out


def _restricted_phases(games: Sequence[Game], pairs: int) -> list[Phase]:
    """A phase for each restriction that changes something in one of the games, ``pairs`` pairs each."""
    if pairs <= 0:
        return []
    out = []
    for r in RESTRICTIONS:
        if r == "no_extension" and all(g.extension_to is None for g in games):
            continue  # no extension question in either game: the restriction changes nothing
        if r == "no_discard_draw" and not any(g.draw_from_discard for g in games):
            continue  # no draw from the discard pile in either game (turn.draw_from_discard)
        if r == "no_mulligan" and not any(g.mulligan for g in games):
            continue  # no mulligan in either game (turn.mulligan)
        title = f"forbid {RESTRICTION_SHORT[r]}"
        out.append(Phase(f"restricted:{r}", "restricted", pairs, title, focus="heuristic", other=f"restricted:{r}=1"))
    return out


def _flag_focus_family(rows: list[FocusRow]) -> None:
    """The ladder's and restricted play's differences are a family of their own: Holm over it too."""
    focus = [f for f in rows if tested_difference(f["se"], f["diff"])]
    flags, adjusted = stats.holm([stats.p_value(f["diff"], f["se"]) for f in focus])
    for f in rows:
        f["flagged"], f["p_holm"], f["family"] = False, None, len(focus)
    for f, flag, adj in zip(focus, flags, adjusted):
        f["flagged"], f["p_holm"] = flag, adj


def _arm_settings(ref: str, game: Game, options: list[str]) -> ArmSettings:
    """One arm in the settings: the ruleset as given and as resolved, its options, players and sides."""
    return {
        "ruleset": ref,
        "ruleset_id": game.ruleset_id,
        "name": game.ruleset.name,
        "options": options,
        "applied_options": list(game.ruleset.applied_options),
        "players": game.players,
        "sides": game.sides,
    }


def _rule_changes(game_a: Game, game_b: Game) -> list[str]:
    """What B changes of A, in words (the player count first when it differs)."""
    from ..ruleset.diff import diff_rulesets

    changes = [str(c) for c in diff_rulesets(game_a.ruleset, game_b.ruleset)]
    if game_a.players != game_b.players:
        changes.insert(0, f"players: {game_a.players} → {game_b.players}")
    return changes


def _focus_row(phase: Phase, sums: stats.PairSums | None, comparable: bool) -> FocusRow:
    """A ladder rung or a restriction: the focus side's win share in each arm, and B − A when the arms
    seat the players alike (the share's chance level depends on the number of sides)."""
    s = sums or stats.PairSums()
    n = s.n
    a = s.s[0] / n if n else None
    b = s.s[2] / n if n else None
    d, se = s.paired_diff() if (comparable and n) else (None, None)
    ci = stats.normal_ci(d, se)
    ci_a, ci_b = stats.wilson(s.s[0], n), stats.wilson(s.s[2], n)  # None when n is 0
    return {
        "key": phase.key,
        "kind": phase.kind,
        "focus": phase.focus,
        "other": phase.other,
        "pairs": n,
        "a": a,
        "a_ci95": list(ci_a) if ci_a is not None else None,
        "b": b,
        "b_ci95": list(ci_b) if ci_b is not None else None,
        "diff": d,
        "ci95": list(ci) if ci else None,
        "se": se,
        "excludes_zero": excludes_zero(ci),
    }


def _robustness(
    rows: list[MetricRow],
    metrics: Sequence[Metric],
    robust_sums: dict[str, list[stats.PairSums]],
    robust_bots: list[str],
    comparable: bool,
) -> None:
    """``robust`` on each flagged row: true when with every other lineup the difference has the main
    run's sign and its 95% interval excludes 0; false when one lineup does not show it; None when no
    other lineup was measured (none asked for, or the run stopped before)."""
    from .metrics import row_from_sums

    for k, r in enumerate(rows):
        if not r["flagged"]:
            continue
        checks: list[RobustCheck] = []
        for bot in robust_bots:
            got = robust_sums.get(f"robust:{bot}")
            if got is None or got[k].n < 2:
                checks = []  # a lineup not measured: nothing is said
                break
            rr = row_from_sums(metrics[k], got[k], comparable or metrics[k].scope == "game")
            ci = rr["ci95"]
            verdict = check_verdict(r["diff"] or 0.0, r["se"], rr["diff"], rr["se"], ci)
            checks.append(
                {
                    "bots": bot,
                    "pairs": got[k].n,
                    "diff": rr["diff"],
                    "ci95": ci,
                    "holds": verdict == "holds",
                    "verdict": verdict,
                }
            )
        r["robust"] = None if not checks else all(c["holds"] for c in checks)
        r["robust_checks"] = checks or []
        r["robust_verdict"] = (
            None
            if not checks
            else next((v for v in ("differs", "unconfirmed") if any(c["verdict"] == v for c in checks)), "holds")
        )


def check_verdict(
    main_diff: float, main_se: float | None, diff: float | None, se: float | None, ci: Sequence[float] | None
) -> str:
    """What another lineup's measurement says of an effect the main run flagged.

    ``holds``: its 95% interval excludes 0 on the main run's side. ``differs``: it does not, and it differs
    from the main run's difference by more than both runs' uncertainty allows (beyond 1.96 standard errors
    of the difference of the two: the effect is smaller, absent or reversed with these bots: it depends on
    the bots). ``unconfirmed``: neither: too few pairs to tell (the expert's 8 pairs, often)."""
    if diff is None:
        return "unconfirmed"
    lo, hi = ci if ci else (diff, diff)
    if (main_diff > 0 and lo > 0) or (main_diff < 0 and hi < 0):
        return "holds"
    spread = math.hypot(main_se or 0.0, se or 0.0)
    if abs(main_diff - diff) > stats.Z95 * spread:
        return "differs"
    return "unconfirmed"


def _values(v: object) -> tuple[tuple[int, int], ...]:
    """A main or robust pair's arm result: every metric's (numerator, denominator)."""
    assert isinstance(v, tuple)
    return v


def _won(v: object) -> int:
    """A ladder or restricted pair's arm result: 1 when the focus side won."""
    assert isinstance(v, int)
    return v
