"""Soak: play many hands over every configuration with the invariants checked, on every core.

    python benchmarks/soak.py                    # the default soak (make soak)
    python benchmarks/soak.py --hands 300        # a slice (runs inside make test)
    python benchmarks/soak.py --replay soak-failures/X.yaml   # replay a failure, invariants checked
    python benchmarks/soak.py --every-bot        # every option x every registered bot, 3 whole matches each

Every configuration is a bundled ruleset, with no option, one bundled option, or an ordered pair of
two different bundled options (``--no-pairs``: not the pairs), at each player count it allows, played
by each bot (random, heuristic); a pair the loader refuses (RulesetError) is skipped and counted. One
more configuration pins the match bound: ``benchmarks/capped-match.yaml`` (``match.max_hands`` 1),
whose matches stop unfinished after one hand; in every configuration a match that lasts more than
its ruleset's ``match.max_hands`` hands is a failure. Each hand is played to its end; on a
share of the hands (``--share``, default 0.4) the invariants of :mod:`mbrules.testing` are
checked after every action, and on every hand at its end. A crash, a violated invariant or a hand
that does not end is a failure: it is shrunk to the shortest prefix of its hand that still fails
and written under ``soak-failures/`` as a one-hand scenario file (the recorder's format) that
``mbrules replay`` runs, with the violations and the command that reproduces it in its header.

``--every-bot`` soaks the bots instead (:func:`bot_plan`): every option set (no option, each bundled
option, the capped pin) with every registered bot (:func:`every_bot`: the slow ones at their ladder
budget, the restricted one forbidden everything, the learned one with the shipped model or, where the
options leave none, a small one trained for the soak), ``--rounds`` whole matches each, each on another
bundled ruleset and player count the option set allows. A bot that chooses an action not among the
legal ones, a crash, a hand past ``MAX_ACTIONS`` actions or a match past its ``match.max_hands`` is a
failure; every match must end (won, drawn, or stopped unfinished at the bound).

The last line is the figure: hands, configurations, seconds, failures. Exit 0 when none failed.
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import json
import multiprocessing as mp
import os
import random
import sys
import time
import traceback
from pathlib import Path

from mbrules.engine import Observer
from mbrules.testing import (
    Before,
    View,
    bundled_ids,
    check,
    check_transition,
    configurations,
    load_game,
    load_rules,
    replay_history,
)

MAX_ACTIONS = 5000  # a hand that has not ended after this many actions hangs
DEFAULT_HANDS = 100_000
# Checking every invariant after every action costs ~5x the play itself: on 2 cores 100,000
# hands fully checked take ~20 minutes, so by default a share of the hands (drawn from the
# seed, so a run is reproducible) is checked after every action and every hand at its end.
DEFAULT_SHARE = 0.4
CAPPED = Path(__file__).resolve().with_name("capped-match.yaml")  # the match bound's pin (max_hands 1)


def covering_pairs(options: list, ruleset_index: int, rounds: int = 1) -> list:
    """A bounded sample of the ordered pairs of ``options``: in each of ``rounds`` rounds every option
    comes first once and second once, its partner a fixed step along the sorted list (the step differs by
    round and by ruleset, so other rulesets meet other pairs). ``len(options) * rounds`` pairs at most,
    where every ordered pair is ``n * (n - 1)``: the slice in ``make test`` grows with the options, not
    with their square; the full soak (``pair_configurations()`` without ``pairs``) plays them all.

    One round (issue 46 point 7, round 14; two before): 972 -> 484 hands in ``make test``'s pair slice. The
    lines of mbrules the second round reached and the first did not (16, a line tracer's) are all reached,
    by the same checks, in the conformance scenarios' checked replays
    (tests/properties/test_conformance_invariants.py) and most in the option sweeps' api_test, but for one:
    :data:`PAIR_EXTRA`'s hand plays it."""
    n = len(options)
    out: list = []
    for r in range(rounds):
        step = 1 + (ruleset_index * 7 + r * 3) % max(1, n - 1)
        for i, a in enumerate(options):
            pair = (a, options[(i + step) % n])
            if pair[0] != pair[1] and pair not in out:
                out.append(pair)
    return out


def pair_configurations(rulesets=None, options=None, sample: bool = False) -> tuple[list, list]:
    """Every bundled ruleset with every ordered pair of two different bundled options (with ``sample``:
    the pairs of :func:`covering_pairs`), at each player count it allows, and the pairs the loader
    refuses: ``(configs, skipped)``, skipped as ``(ruleset, (a, b), first line of the error)``. Ordered:
    options apply in order, and where two set the same rule the later one wins (simpler-game then
    longer-game is not longer-game then simpler-game)."""
    from mbrules.ruleset import RulesetError

    if rulesets is None or options is None:
        r, o = bundled_ids()
        rulesets = r if rulesets is None else rulesets
        options = o if options is None else options
    configs, skipped = [], []
    for j, rid in enumerate(rulesets):
        pairs = covering_pairs(list(options), j) if sample else itertools.permutations(options, 2)
        for pair in pairs:
            try:
                rs = load_rules(rid, pair)
            except RulesetError as e:
                skipped.append((rid, pair, (e.lines or ["RulesetError"])[0]))
                continue
            for n in sorted(int(k) for k in rs.player_counts):
                configs.append((rid, pair, n))
    return configs, skipped


def pair_sample() -> list:
    """Every sampled pair (:func:`covering_pairs`) on every ruleset, once, the player count turning (the full
    soak plays every count): ``make test``'s pair slice (tests/test_hostile_runtime.py) checks every action of
    a hand of each."""
    configs, _ = pair_configurations(sample=True)
    by_pair: dict = {}
    for r, o, n in configs:
        by_pair.setdefault((r, o), []).append(n)
    return [(r, o, ns[i % len(ns)]) for i, ((r, o), ns) in enumerate(sorted(by_pair.items()))]


# hands of the former two-round pair sample (``plan``'s units: the random bot, seed 7) that reach a line of
# mbrules no other checked test reaches, kept in make test's pair slice with the one-round sample (round 14: a
# probe at each of the 16 lines the second round alone reached, over the sample, the option sweeps, the
# conformance scenarios and their checked replays, test_engine_legality and test_engine_properties)
PAIR_EXTRA = [
    # engine/effects.py _fixes_battle under stacked-hazards (a combination remedy's battle pile judged by every
    # hazard in force, _bmask): no sweep stacks hazards with a combination remedy; this hand does, at 5 players
    {"config": ["playaural", ["combination-remedies", "stacked-hazards"], 5], "seed": 595_001_792},
]


def pair_units() -> list[dict]:
    """``make test``'s pair slice: a hand of each sampled pair (:func:`pair_sample`) with the random bot, every
    action checked, then :data:`PAIR_EXTRA`'s hands."""
    one = pair_sample()
    extra = [
        {"config": e["config"], "bot": "random", "hands": 1, "seed": e["seed"], "share": 1.0, "full": False}
        for e in PAIR_EXTRA
    ]
    return plan(len(one), 7, 1.0, one, ["random"]) + extra


def capped_configurations() -> list:
    """The match bound's pin: ``capped-match.yaml`` at every player count it allows."""
    rs = load_rules(str(CAPPED))
    return [(str(CAPPED), (), n) for n in sorted(int(k) for k in rs.player_counts)]


def soak_configurations(pairs: bool = True) -> tuple[list, list]:
    """The default soak's configurations (singles, the capped pin, and with ``pairs`` every ordered
    pair of options) and the skipped pairs."""
    configs = list(configurations()) + capped_configurations()
    skipped: list = []
    if pairs:
        more, skipped = pair_configurations()
        configs += more
    return configs, skipped


def _bot_names() -> list[str]:
    from mbrules.bots import bot_names

    return [b for b in ("random", "heuristic") if b in bot_names()]


LEARNED_SOAK_GAMES = 8  # self-play matches of a learned model trained for a soak configuration (legality, not strength)


def every_bot() -> list[str]:
    """Every registered bot as the bot soak seats it: a slow one at its skill-ladder budget (the
    expert's ``expert:budget=4,width=2``), ``restricted`` with every restriction on (each filter is
    exercised), the others by name. The learned bot's model is found per configuration
    (:func:`_soak_bot`)."""
    from mbrules.bots import bot_facts, bot_names
    from mbrules.bots.restricted import RESTRICTIONS

    out = []
    for name in bot_names():
        if name == "restricted":
            out.append("restricted:" + ",".join(f"{r}=1" for r in RESTRICTIONS))
        else:
            out.append(bot_facts(name).ladder_spec if bot_facts(name).slow else name)
    return out


def option_sample(configs: list, shift: int = 0) -> list:
    """One configuration per option set of ``configs`` (no option, each option, the capped pin): for the
    i-th set, its (i * 7 + shift)-th configuration modulo their number, so that the sample meets every
    ruleset and player count across the options, and another ``shift`` meets others. A bounded covering
    sample for the bot soak in ``make test`` (its bots taken in turn by :func:`plan`)."""
    by: dict = {}
    for c in configs:
        by.setdefault((c[0] if c[0] == str(CAPPED) else "", tuple(c[1])), []).append(c)
    return [group[(i * 7 + shift) % len(group)] for i, group in enumerate(by.values())]


def bot_plan(configs: list, bots: list[str], rounds: int, seed: int, share: float) -> list[dict]:
    """The bot soak's units: every option set of ``configs`` x every bot of ``bots``, ``rounds`` whole
    matches each, each match on another configuration of the option set (:func:`option_sample` shifted
    by round and bot, so the bots meet different rulesets and player counts)."""
    units = []
    for r in range(rounds):
        for b, bot in enumerate(bots):
            for c in option_sample(configs, shift=r * len(bots) + b):
                units.append(
                    {
                        "config": [c[0], list(c[1]), c[2]],
                        "bot": bot,
                        "hands": 1,
                        "seed": seed + len(units) * 1_000_003,
                        "share": share,
                        "full": True,
                    }
                )
    return units


def _soak_bot(bot: str, game, folder: str) -> str:
    """The ``--bot`` value that plays ``bot`` on ``game``: the learned bot gets the model shipped for the
    rules or, where the options leave none, one trained here on ``LEARNED_SOAK_GAMES`` self-play matches
    and written into ``folder`` (the soak checks legality and that matches end, not strength)."""
    if bot.partition(":")[0] != "learned" or "model=" in bot:
        return bot
    from mbrules.bots.value_model import bundled_model_path, write_model

    if bundled_model_path(game) is not None:
        return bot
    from mbrules.bots.training import train

    path = Path(folder) / "model.json"
    if not path.exists():
        write_model(train(game, games=LEARNED_SOAK_GAMES, seed=0), path)
    return bot + ("," if ":" in bot else ":") + f"model={path}"


def _full_checks(seed: int, hand_no: int, share: float) -> bool:
    if share >= 1.0:
        return True
    return random.Random(f"{seed}:{hand_no}:share").random() < share


# ----------------------------------------------------------------------------
# One unit of work: a configuration and a bot, a quota of hands


class _Failure(Exception):
    """Raised by the watcher to stop the match at a violated invariant or a hang."""

    def __init__(self, kind: str, problems: list[str]):
        super().__init__(problems[0])
        self.kind = kind
        self.problems = problems


class _Watch(Observer):
    """The observer that checks one match as :func:`mbrules.matches.play_match` plays it.

    ``before_action`` sees every action before it is applied: on a full-check hand it checks the
    previous action's effect (``check_transition`` and ``check``) and copies the state for this
    one. At each hand's end the last action's effect, or on other hands the state, is checked.
    One copy of the state (a :class:`View`) serves all three: it is the previous action's "after",
    which both checks read, and, the state being unchanged until this action applies, this one's
    "before" (a copy costs more than the checks that read it: three copies of one state were half
    the soak's time).
    """

    def __init__(self, seed: int, share: float, bot: str):
        self.seed, self.share, self.bot = seed, share, bot
        self.state = None
        self.hand_no = -1
        self.full = False
        self.start = 0  # history length at the hand's start
        self.cut = 0  # history length before the action in ``pending``
        self.pending = None  # (player, action) about to be applied
        self.prior = None  # Before(state) of the pending action, on full-check hands
        self.seen = None  # the View last_problems took of the state, until the next action applies
        self.hands = self.actions = self.checked = 0  # hands finished or failed, their actions
        self.counted = -1  # the last hand added to the counts
        self.length = 0  # the history's length (counted here: reading state.history copies it)

    def before_action(self, state, p: int, action) -> None:
        if state.hand_no != self.hand_no:
            if self.hand_no >= 0:
                self.length += 1  # the new-hand mark
            self.state = state
            self.hand_no = state.hand_no
            self.full = _full_checks(self.seed, state.hand_no, self.share)
            self.start = self.length
            self.seen = None  # the last hand's end, not this state
        else:
            self._check_last()
        if self.length - self.start >= MAX_ACTIONS:
            raise _Failure("hang", [f"the hand did not end within {MAX_ACTIONS} actions"])
        self.cut = self.length
        self.pending = (p, action)
        if self.full:
            self.prior = self.seen if self.seen is not None else Before(state)
        self.seen = None

    def after_action(self, state, p: int, action) -> None:
        self.length += 1

    def refused(self, state, p: int, action, error) -> None:
        self.state = state
        legal = [str(a) for a in state.legal_actions()]
        raise _Failure(
            "illegal", [f"the {self.bot} bot chose {action!r}, not one of the legal actions {legal} ({error})"]
        )

    def hand_over(self, state) -> None:
        self.count_hand()
        bad = self.last_problems() if self.prior is not None else check(state)
        if bad:
            raise _Failure("invariant", bad)

    def last_problems(self) -> list[str]:
        """What the last applied action broke, on a full-check hand (once: the copy is dropped)."""
        if self.prior is None:
            return []
        after = self.seen = View(self.state)  # the state now: after the last action, before the next
        bad = check_transition(self.prior, self.pending[1], after) + check(after)
        self.prior = None
        return bad

    def _check_last(self) -> None:
        bad = self.last_problems()
        if bad:
            raise _Failure("invariant", bad)

    def count_hand(self) -> None:
        """Add the current hand (ended or failed) and the actions applied in it, once."""
        if self.state is not None and self.counted != self.hand_no:
            self.counted = self.hand_no
            n = self.length - self.start
            self.hands += 1
            self.actions += n
            self.checked += n if self.full else 0


def run_unit(unit: dict) -> dict:
    """Play ``unit['hands']`` hands of one configuration with one bot (``unit['full']``: that many whole
    matches, each played to its end); return counts and failures."""
    import tempfile

    rid, opts, players = unit["config"]
    game = load_game(rid, players, tuple(opts))
    with tempfile.TemporaryDirectory(prefix="mb-soak-") as folder:
        return _run_unit(unit, game, _soak_bot(unit["bot"], game, folder))


def _run_unit(unit: dict, game, spec: str) -> dict:
    from mbrules.matches.loop import play_match

    rid, opts, players = unit["config"]
    bot = unit["bot"]
    full = bool(unit.get("full"))
    hands = actions = checked = capped = matches = tried = capped_elsewhere = 0
    failures = []
    seed = unit["seed"]
    while (tried if full else hands) < unit["hands"]:
        watch = _Watch(seed, unit["share"], bot)
        failure = None
        tried += 1
        try:
            quota = None if full else unit["hands"] - hands
            st = play_match(game, seed, [spec], max_hands=quota, observers=[watch])
            matches += 1
            played = st.hands_played
            if played > game.max_hands:  # the engine's bound (match.max_hands) was not kept
                raise _Failure(
                    "runaway", [f"the match went on for {played} hands, past match.max_hands {game.max_hands}"]
                )
            if full and (st.outcome is None or not st.is_terminal()):
                raise _Failure("unended", [f"the match stopped after {played} hands without an outcome"])
            if st.outcome is not None and st.outcome.unfinished:
                capped += 1  # stopped by the bound, not by the unit's quota
                if Path(rid).resolve() != CAPPED:
                    capped_elsewhere += 1  # a real ruleset's match that reached match.max_hands
        except _Failure as e:
            failure = {"kind": e.kind, "problems": e.problems}
        except Exception as e:  # a crash of the engine or of a bot is a failure
            if watch.state is None:
                raise
            applied = watch.length > watch.cut  # the pending action went through: not its crash
            bad = watch.last_problems() if applied else []  # its effect is checked at the next decision
            if bad:  # the action before the crash broke an invariant: that is the failure
                failure = {"kind": "invariant", "problems": bad}
            else:
                failure = {
                    "kind": "crash",
                    "problems": [f"{type(e).__name__}: {e}"],
                    "traceback": traceback.format_exc(),
                    "cut": watch.length if applied else watch.cut,
                    "pending": None if applied else watch.pending,
                }
        watch.count_hand()
        hands += watch.hands
        actions += watch.actions
        checked += watch.checked
        if failure is not None:
            state = watch.state
            failure.update(
                config=[rid, list(opts), players],
                bot=bot,
                seed=seed,
                hand_no=state.hand_no,
                hand_start=watch.start,
                history=list(state.history),
                full=watch.full,
            )
            failure.setdefault("cut", len(state.history))
            failures.append(failure)  # the match cannot go on from a broken state
        seed += 1
    return {
        "hands": hands,
        "actions": actions,
        "checked": checked,
        "failures": failures,
        "capped": capped,
        "matches": matches,
        "bot": bot,
        "capped_elsewhere": capped_elsewhere,
    }


# ----------------------------------------------------------------------------
# Failures: shrink, write as a scenario, replay


def shrink(failure: dict) -> dict:
    """The shortest prefix of the failing hand that still fails (invariant failures)."""
    if failure["kind"] != "invariant":
        return failure
    rid, opts, players = failure["config"]
    game = load_game(rid, players, tuple(opts))
    hist = failure["history"][: failure["cut"]]
    start = failure["hand_start"]
    state = replay_history(game, failure["seed"], hist[:start])
    for i in range(start, len(hist)):
        p, a = hist[i]
        prior = Before(state)
        state.apply(a, p)
        bad = check_transition(prior, a, state, p) + check(state)
        if bad:
            return dict(failure, cut=i + 1, problems=bad)
    return failure


def _step_line(game, player: int, action) -> str:
    from mbrules.scenario.format import NoStep, step_text
    from mbrules.vocab import DECLINE, DRAW

    who = game.player_names[player]
    action = game.action(action)
    if action.op in (DRAW, DECLINE):
        return f"# the crash came at {game.describe(action)} by {who}"
    try:
        return "  - {" + step_text(game, player, action) + "}"
    except NoStep:
        return f"  - {{player: {who}, action: {action}}}"


def scenario_text(failure: dict) -> str:
    """The failing hand as a one-hand scenario (recorder format), cut at the failure."""
    from mbrules.scenario.record import Recorder, record_match

    rid, opts, players = failure["config"]
    game = load_game(rid, players, tuple(opts))
    seed = failure["seed"]
    hist = failure["history"][: failure["cut"]]
    recorder = Recorder()
    state = replay_history(game, seed, hist, observers=[recorder])
    recorder.hands = recorder.hands[-1:]  # the failing hand only
    if recorder.hands and recorder.hands[0]["end"] is None:  # the failing hand did not end
        recorder.winner = None
    text = record_match(recorder, state, rid, opts, players, seed)
    if failure["kind"] == "crash" and failure.get("pending"):
        p, a = failure["pending"]
        lines = text.rstrip("\n").split("\n")
        at = max(i for i, ln in enumerate(lines) if ln.startswith("  - expect:"))
        lines.insert(at, _step_line(game, p, a))
        lines = lines[: at + 1]  # the crashing step ends the scenario
        text = "\n".join(lines) + "\n"
    cmd = (
        f"python benchmarks/soak.py --one {rid} {' '.join('--option ' + o for o in opts)} "
        f"--players {players} --bot {failure['bot']} --seed {seed}"
    ).replace("  ", " ")
    head = [
        f"# soak failure ({failure['kind']}): {rid} {'+'.join(opts) or '(no option)'}, {players} players, "
        f"bot {failure['bot']}, match seed {seed}, hand {failure['hand_no'] + 1}",
        "# shrunk to the shortest prefix of the hand that still fails; the expect below is what the engine did.",
        "# replay with the invariants checked: python benchmarks/soak.py --replay THIS_FILE",
        f"# reproduce from the start of the match: {cmd}",
    ]
    for p in failure["problems"]:
        head.append(f"# - {p}")
    for ln in (failure.get("traceback") or "").rstrip().split("\n"):
        if ln:
            head.append(f"#   {ln}")
    return "\n".join(head) + "\n" + text


def write_failure(failure: dict, out_dir: Path, index: int) -> Path:
    from mbrules.scenario.record import write_scenario_file

    from mbrules.safe_output import check_output_dir

    check_output_dir(out_dir, flag="--out")  # a folder, not a link to one; each file is checked as written
    out_dir.mkdir(parents=True, exist_ok=True)
    rid, opts, players = failure["config"]
    rname = Path(rid).stem if rid.endswith(".yaml") else rid  # the capped pin is a path
    name = f"{index:03d}-{failure['kind']}-{rname}{'-' + '-'.join(opts) if opts else ''}-{players}p-{failure['bot']}-s{failure['seed']}.yaml"
    path = out_dir / name
    write_scenario_file(path, scenario_text(failure))
    return path


def replay_checked(path: str | Path) -> list[str]:
    """Replay a scenario file with the invariants checked after every accepted action: the
    violations, a crash, and the replay's own FAIL lines (empty: the failure is gone)."""
    from mbrules.testing import checked_replay

    try:
        results, problems, positions = checked_replay(path, dealt=True)
    except Exception as e:  # the replay itself crashed: that is the failure reproduced
        return [f"replay crashed: {type(e).__name__}: {e}"]
    problems = positions + problems
    for r in results:
        for line in r.lines():
            if not line.startswith("PASS"):
                problems.append(line)
    return problems


# ----------------------------------------------------------------------------
# The driver


def plan(hands: int, seed: int, share: float, configs=None, bots=None, full: bool = False) -> list[dict]:
    configs = configs if configs is not None else soak_configurations()[0]
    bots = bots or _bot_names()
    # configuration-major rounds: round r gives configuration i the bot (i + r) mod len(bots), so a run of
    # fewer hands than configurations x bots still plays every configuration once (the bots alternating)
    # before it plays any configuration twice
    combos = [(c, bots[(i + r) % len(bots)]) for r in range(len(bots)) for i, c in enumerate(configs)]
    per, extra = divmod(hands, len(combos))
    units = []
    for i, (c, b) in enumerate(combos):
        quota = per + (1 if i < extra else 0)
        if quota:
            units.append(
                {
                    "config": [c[0], list(c[1]), c[2]],
                    "bot": b,
                    "hands": quota,
                    "seed": seed + i * 1_000_003,
                    "share": share,
                    "full": full,
                }
            )
    return units


def check_pairwise(units: list[dict], met_elsewhere: set | frozenset = frozenset()) -> list[dict]:
    """``units`` (one hand each) with the invariants after every action (share 1) on a covering subset and
    at each hand's end only (share 0) on the others: every pair of values of two facets (ruleset, option set,
    player count, bot) that some unit has is met by a checked hand. Each (ruleset, option set) is checked
    once, at a player count that turns down the list; then, greedily, the unit meeting the most pairs no
    checked one met, until every pair is met. Every unit is still played to its hand's end (a crash, a hang, an illegal action, a broken
    invariant at the end, a match past its bound are failures): the full checks of every action, five
    times the play's cost, go where a facet pair is new (``make test``'s slice; ``make soak`` plays every
    pair of options too).

    ``met_elsewhere``: facet pairs another run checks action by action (``make test``'s pair slice checks
    every action of a hand of each option on each ruleset): a (ruleset, option set) in it is not checked
    for its own sake, and no hand is checked only to meet it."""

    def facets(u: dict) -> tuple:
        rid, opts, n = u["config"]
        return (("r", rid), ("o", tuple(opts)), ("n", n), ("b", u["bot"]))

    def pairs(u: dict) -> set:
        f = facets(u)
        return {(f[i], f[j]) for i in range(len(f)) for j in range(i + 1, len(f))}

    groups: dict = {}
    for u in units:
        groups.setdefault(facets(u)[:2], []).append(u)
    chosen = {id(g[i % len(g)]) for i, (key, g) in enumerate(groups.items()) if key not in met_elsewhere}
    met: set = set(met_elsewhere)
    for u in units:
        if id(u) in chosen:
            met |= pairs(u)
    # then, greedily, the hand meeting the most pairs no checked hand met (the first in the plan on a tie;
    # a hand's count is only ever lowered by a choice, so a count taken from the heap and still true is the
    # largest): about half the checked hands of taking each hand that meets a new pair in the plan's order
    heap = [(-len(pairs(u) - met), i) for i, u in enumerate(units) if id(u) not in chosen]
    heapq.heapify(heap)
    while heap:
        gain, i = heapq.heappop(heap)
        now = len(pairs(units[i]) - met)
        if now == 0:
            continue
        if now != -gain:
            heapq.heappush(heap, (-now, i))
            continue
        chosen.add(id(units[i]))
        met |= pairs(units[i])
    return [dict(u, share=1.0 if id(u) in chosen else 0.0) for u in units]


def _worker_init(parent: int) -> None:
    """Pool initializer: Ctrl-C is the parent's to handle, and a worker dies with its parent."""
    import signal

    from mbrules.matches.local import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # (main's handler is for the parent; terminate() sends SIGTERM)
    die_with_parent(parent)


def soak(
    hands: int = DEFAULT_HANDS,
    workers: int | None = None,
    seed: int = 0,
    share: float = DEFAULT_SHARE,
    out_dir: str | Path = "soak-failures",
    configs=None,
    bots=None,
    progress: bool = True,
    pairs: bool = True,
    full: bool = False,
    units: list[dict] | None = None,
) -> dict:
    """The soak (see the module's text); ``full``: ``hands`` counts whole matches, each played to its end;
    ``units`` (:func:`bot_plan`): these instead of :func:`plan`'s."""
    skipped: list = []
    if configs is None and units is None:
        configs, skipped = soak_configurations(pairs)
    if units is None:
        units = plan(hands, seed, share, configs, bots, full)
    full = full or any(u.get("full") for u in units)
    workers = workers or os.cpu_count() or 1
    t0 = time.perf_counter()
    totals = {"hands": 0, "actions": 0, "checked": 0, "capped": 0, "matches": 0, "capped_elsewhere": 0}
    per_bot: dict[str, dict[str, int]] = {}
    failures = []
    last = t0
    if workers == 1:
        results = map(run_unit, units)
        pool = None
    else:
        pool = mp.get_context("spawn" if sys.platform == "win32" else "fork").Pool(
            workers, initializer=_worker_init, initargs=(os.getpid(),)
        )
        results = pool.imap_unordered(run_unit, units, chunksize=1)
    try:
        for done, r in enumerate(results, 1):
            for k in totals:
                totals[k] += r[k]
            mine = per_bot.setdefault(r["bot"], {"matches": 0, "hands": 0, "actions": 0, "failures": 0})
            for k in ("matches", "hands", "actions"):
                mine[k] += r[k]
            mine["failures"] += len(r["failures"])
            failures += r["failures"]
            now = time.perf_counter()
            if progress and (now - last > 5 or done == len(units)):
                last = now
                print(
                    f"  {done}/{len(units)} units, {totals['hands']} hands, {now - t0:.0f} s, {len(failures)} failures",
                    file=sys.stderr,
                    flush=True,
                )
    except BaseException:  # Ctrl-C, SIGTERM (main turns it into KeyboardInterrupt), a crash: no worker left
        if pool is not None:
            pool.terminate()
            pool.join()
            pool = None
        raise
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    seconds = time.perf_counter() - t0
    written = []
    for i, f in enumerate(failures[:50]):
        try:
            f = shrink(f)
            written.append(str(write_failure(f, Path(out_dir), i)))
        except Exception as e:  # writing a failure must not hide the others
            written.append(f"(could not write failure {i}: {type(e).__name__}: {e})")
    configs_n = len({(tuple(u["config"][:1]) + tuple(u["config"][1]) + (u["config"][2],)) for u in units})
    pair_configs = len(
        {(u["config"][0], tuple(u["config"][1]), u["config"][2]) for u in units if len(u["config"][1]) == 2}
    )
    return {
        "hands": totals["hands"],
        "actions": totals["actions"],
        "checked_actions": totals["checked"],
        "configurations": configs_n,
        "bots": sorted({u["bot"] for u in units}),
        "workers": workers,
        "seconds": round(seconds, 1),
        "failures": len(failures),
        "pair_configurations": pair_configs,
        "skipped_pairs": len(skipped),
        "option_sets": len({(u["config"][0] == str(CAPPED), tuple(u["config"][1])) for u in units}),
        "skipped_pair_reasons": [f"{r} {a}+{b}: {why}" for r, (a, b), why in skipped[:20]],
        "matches": totals["matches"],
        "capped_matches": totals["capped"],
        "full_matches": full,
        "capped_outside_pin": totals["capped_elsewhere"],
        "per_bot": per_bot,
        "failure_files": written,
        "share": share,
        "failure_summaries": [
            f"{f['kind']}: {f['config']} bot {f['bot']} seed {f['seed']}: {f['problems'][0]}" for f in failures[:20]
        ],
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=None, help=f"hands to play in all (default {DEFAULT_HANDS})")
    ap.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--share",
        type=float,
        default=DEFAULT_SHARE,
        help="share of hands with the invariants checked after every action (all: at hand end)",
    )
    ap.add_argument("--out", default="soak-failures", help="folder for failure scenarios")
    ap.add_argument("--json", action="store_true", help="print the figure as one JSON document")
    ap.add_argument("--one", metavar="RULESET", help="only this ruleset (with --option, --players, --bot)")
    ap.add_argument("--option", action="append", default=[])
    ap.add_argument("--players", type=int)
    ap.add_argument("--bot", action="append")
    ap.add_argument("--replay", metavar="FILE", help="replay a failure scenario with the invariants checked")
    ap.add_argument("--no-pairs", action="store_true", help="no configurations with two options")
    ap.add_argument(
        "--every-bot",
        action="store_true",
        help="every option x every registered bot (or --bot): --rounds whole matches each",
    )
    ap.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="with --every-bot: whole matches of each option with each bot (default %(default)s)",
    )
    a = ap.parse_args(argv)
    if a.every_bot and a.hands is not None:
        ap.error("--every-bot plays --rounds whole matches of each option with each bot, not --hands")
    if not 1 <= a.rounds <= 1000:
        ap.error("--rounds must be between 1 and 1000")
    if (a.hands is not None and a.hands < 1) or (a.workers is not None and a.workers < 1) or not 0.0 <= a.share <= 1.0:
        ap.error("--hands and --workers must be at least 1, --share between 0 and 1")
    if a.replay:
        problems = replay_checked(a.replay)
        for p in problems:
            print(p)
        print(f"{a.replay}: {'reproduced' if problems else 'no failure'}: {len(problems)} problems")
        return 1 if problems else 0
    configs = None
    if a.one:
        from mbrules.ruleset import RulesetError

        try:
            rs = load_rules(a.one, tuple(a.option))
        except RulesetError as e:
            ap.error("; ".join(e.lines))
        counts = [a.players] if a.players else sorted(int(k) for k in rs.player_counts)
        configs = [(a.one, tuple(a.option), n) for n in counts]
    units = None
    if a.every_bot:
        units = bot_plan(
            configs if configs is not None else soak_configurations(pairs=False)[0],
            a.bot or every_bot(),
            a.rounds,
            a.seed,
            a.share,
        )
    import signal

    got = {"signum": signal.SIGINT}

    def _term(signum, frame):
        got["signum"] = signum
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, _term)
    try:
        fig = soak(
            a.hands or DEFAULT_HANDS,
            a.workers,
            a.seed,
            a.share,
            a.out,
            configs,
            a.bot,
            progress=not a.json,
            pairs=not a.no_pairs,
            units=units,
        )
    except KeyboardInterrupt:
        print("soak: interrupted; the workers are stopped, nothing is reported", file=sys.stderr)
        return 128 + int(got["signum"])  # 130 Ctrl-C, 143 SIGTERM
    if a.json:
        print(json.dumps(fig))
    else:
        for s in fig["failure_summaries"]:
            print(f"FAIL {s}")
        for w in fig["failure_files"]:
            print(f"  written: {w}")
        print(
            f"soak: {fig['hands']} hands, {fig['configurations']} configurations x {len(fig['bots'])} bots "
            f"({', '.join(fig['bots'])}), {fig['seconds']} s on {fig['workers']} workers, {fig['failures']} failures; "
            f"{fig['actions']} actions, invariants after every action on {fig['checked_actions']} of them "
            f"(share {fig['share']:g} of hands), at hand end on every hand; "
            f"{fig['pair_configurations']} configurations with a pair of options, {fig['skipped_pairs']} pairs "
            f"skipped (the loader refuses them); {fig['matches']} matches, {fig['capped_matches']} stopped "
            f"unfinished at match.max_hands"
        )
        for r in fig["skipped_pair_reasons"]:
            print(f"  skipped pair: {r}")
        if fig["full_matches"]:
            print(f"  whole matches of {fig['option_sets']} option sets (no option, each option, the capped pin);")
            print(f"  {fig['capped_outside_pin']} stopped at match.max_hands outside the capped pin; by bot:")
            for b, n in sorted(fig["per_bot"].items()):
                print(
                    f"  {b.partition(':')[0]}: {n['matches']} whole matches, {n['hands']} hands, "
                    f"{n['actions']} actions, {n['failures']} failures"
                )
    return 1 if fig["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
