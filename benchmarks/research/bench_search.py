"""How much can search add to the heuristic? Two measurements, both on the public API.

    .venv/bin/python benchmarks/research/bench_search.py gain --matches 16 expert "expert:z=0"
    .venv/bin/python benchmarks/research/bench_search.py clairvoyant --games 40 --opponent heuristic-2026
    .venv/bin/python benchmarks/research/bench_search.py where --matches 40
    .venv/bin/python benchmarks/research/bench_search.py budget --matches 40 --width 5 --worlds 64

``gain`` records real decisions of a heuristic seat (every third of its turns, extension questions
included) in matches against ``--opponent``, then values every legal action there by playing it
and then the heuristic for every seat to the hand's end, ``--rollouts`` times, *on the real deal*:
the real hands and the real draw order, which only this measurement sees. Each named bot then
decides those positions from its observation alone, and the script prints the mean of (true value
of its choice - true value of the heuristic's choice), in points, with its standard error. A
search that only follows its play-outs' noise shows a negative mean; one that finds better plays
shows a positive one. This is paired and needs no match results, so it separates configurations
that hundreds of matches cannot. ``knowing-hands:expert...`` is the expert told the other players'
real hands (only the draw pile sampled): what inferring them from their play could gain at best.

``where`` asks where the heuristic could improve, on the positions ``gain`` records: for each kind
of action the heuristic chose (play a battle hazard, discard a distance card, ...) and each other
kind on offer, the mean true value of the heuristic's own best action of that other kind less that
of its choice. The alternative is fixed by a rule, not picked by its value, so the mean is a fair
estimate of what always preferring that kind there would gain (one step, the heuristic playing on).
A kind worth preferring shows a mean many standard errors above zero; the script prints the
Bonferroni bar for the number of cells, since among many cells some look good by chance.

``budget`` asks whether a bigger or differently tuned search would help. On the positions ``gain``
records (plays and discards), it runs the expert's own search, the heuristic's best ``--width``
candidates each played out in ``--worlds`` deals of the unseen cards (from the observation only,
the same deals for every candidate), and keeps every play-out's value. Then it replays the search's
final choice offline for every rule on a grid (how many candidates, how many worlds, by how many
standard errors a candidate must beat the heuristic's choice) and prints each rule's mean true gain.
Among many rules one looks good by chance, so the best rule is picked on the positions of one half
of the matches and its gain is reported on the other half (and the other way round): only a gain
that holds on the half it was not picked on is real.

``clairvoyant`` plays matches between a bot that sees every card and ``--opponent``: at each of
its decisions it plays each of the heuristic's best ``--width`` candidates out on the real deal,
as above, and keeps the best. It is not a fair bot and is never registered: it bounds what a
one-step search over the heuristic could do if the hidden cards were known, to set the fair
bots' figures against.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import os
import random
import sys
import time
from statistics import NormalDist, correlation

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_HERE, "..", ".."))  # the checkout (mbrules)
sys.path.insert(0, os.path.join(_HERE, ".."))  # benchmarks/ (bench_bots: the baseline loader, the decision walker)

import mbrules  # noqa: E402
from mbrules.bots import ExpertBot, bot_rng, make_bot, parse_bot  # noqa: E402
from mbrules.bots.expert import hand_value  # noqa: E402
from mbrules.bots.heuristic import HeuristicBot  # noqa: E402
from mbrules.matches.ladder import wilson  # noqa: E402
from mbrules.engine import State  # noqa: E402
from mbrules.matches import game_seed  # noqa: E402
from mbrules.vocab import BATTLE, DISCARD, DISTANCE, EXTEND, HAZARD, PLAY, REMEDY, SAFETY, STOP  # noqa: E402

from bench_bots import add_game_args, load_baseline, real_decisions  # noqa: E402

MAX_ACTIONS = 5000  # a hand is far shorter; only a guard
KNOWING = "knowing-hands:"  # gain: "knowing-hands:expert:z=0" is the expert told the other hands


def playout(st: State, bots: list, side: int, hands: int) -> float:
    """Play ``st`` on to the end of hand number ``hands`` (0-based; it may be over already), the
    heuristic in every seat; our side's points less the best other side's in that hand (plus or
    minus twice the trip bonus when it ends the match)."""
    for _ in range(MAX_ACTIONS):
        if st.is_terminal() or len(st.hand_sheets) > hands:
            break
        acts = st.legal_actions()
        if not acts:
            break  # a state that deals no next hand: this one is over
        if len(acts) == 1:
            st.apply(acts[0])
            continue
        p = st.current_player
        st.apply(bots[p].choose(st.observation(p), acts))
    sheet = st.hand_sheets[hands] if len(st.hand_sheets) > hands else st.score_sheet()
    return hand_value(st.game, [line["total"] for line in sheet], side, st.outcome)  # the expert's own measure


def true_values(st: State, actions: list, side: int, rollouts: int, bots: list, base: int = 0) -> list[float]:
    """Each action's mean play-out value on the real deal (the same tie-break streams for every action)."""
    vals = []
    for a in actions:
        total = 0.0
        for r in range(rollouts):
            for p, b in enumerate(bots):
                b.rng.seed(base + 1000 * r + p)
            w = st.clone()
            hands = len(w.hand_sheets)  # before the action: it may end the hand
            w.apply(a)
            total += playout(w, bots, side, hands)
        vals.append(total / rollouts)
    return vals


_G: dict = {}


def mean_se(xs: list[float]) -> tuple[float, float]:
    """The mean of ``xs`` and its standard error (NaN for fewer than two)."""
    n = len(xs)
    m = sum(xs) / n
    return m, (math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n) if n > 1 else float("nan"))


def positions_line(ns, n: int, seconds: float) -> str:
    """The first line of ``gain`` and ``where``: what was recorded and how it was valued."""
    return (
        f"{ns.ruleset}, {ns.players} players: {n} decisions of the heuristic's seat in {ns.matches} matches "
        f"against {ns.opponent}, each action valued by {ns.rollouts} play-outs on the real deal ({seconds:.0f} s)"
    )


def _record(i: int):
    ns = _G["ns"]
    g = _G["game"]
    seed = game_seed(ns.seed, i)
    bots = [make_bot("heuristic" if g.side_of[p] == 0 else ns.opponent, g, p, seed) for p in range(g.players)]
    sims = [HeuristicBot(g, p, random.Random(0)) for p in range(g.players)]
    st = State.new_match(g, seed)
    out = []
    n = 0
    for p, acts in real_decisions(st):
        obs = st.observation(p)
        if g.side_of[p] == 0 and acts[0].op in (PLAY, DISCARD, EXTEND, STOP):
            n += 1
            if n % 3 == 0:
                out.append((p, [int(a) for a in acts], true_values(st, acts, 0, ns.rollouts, sims), st.clone()))
        st.apply(bots[p].choose(obs, acts))
    return out


def _gain(args):
    spec, part, parts = args
    g = _G["game"]
    gains = []
    knowing = spec.startswith(KNOWING)
    for k, (p, acts, vals, st) in enumerate(_G["positions"][part::parts]):
        obs = st.observation(p)
        legal = st.legal_actions()
        h = make_bot("heuristic", g, p, seed=k).choose(obs, legal)  # the reference: the same stream as the bot's
        if knowing:  # the expert, told the other hands (only its draw pile sampled): never a fair bot
            name, params = parse_bot(spec[len(KNOWING) :])
            hands = st.snapshot().hands
            bot = ExpertBot(
                g, p, bot_rng(k, p), **params, known={q: list(hands[q]) for q in range(g.players) if q != p}
            )
            b = bot.choose(obs, legal)
        else:
            b = make_bot(spec, g, p, seed=k).choose(obs, legal)
        gains.append(vals[acts.index(int(b))] - vals[acts.index(int(h))])
    return gains


def _record_all(ns) -> list:
    """Every match's recorded positions, kept in ``_G`` (``positions``, and ``match_of``: each one's
    match). Recorded here, in one process: a State does not cross a process boundary (the workers
    that use them are forked and inherit them)."""
    recorded = [(i, x) for i in range(ns.matches) for x in _record(i)]
    _G["positions"] = [x for _, x in recorded]
    _G["match_of"] = [i for i, _ in recorded]
    return _G["positions"]


def gain(ns) -> None:
    g = mbrules.load_game(ns.ruleset, players=ns.players, options=ns.option)
    _G.update(ns=ns, game=g)
    t = time.perf_counter()
    ctx = mp.get_context("fork")
    pos = _record_all(ns)
    best = [
        max(v) - v[a.index(int(make_bot("heuristic", g, p, seed=k).choose(st.observation(p), st.legal_actions())))]
        for k, (p, a, v, st) in enumerate(pos)
    ]
    print(positions_line(ns, len(pos), time.perf_counter() - t))
    print(f"  knowing the deal, the best action beats the heuristic's by {sum(best) / len(best):.1f} points a decision")
    for spec in ns.bots:
        t = time.perf_counter()
        with ctx.Pool(ns.workers) as pool:
            parts = pool.map(_gain, [(spec, i, ns.workers) for i in range(ns.workers)])
        gains = [x for xs in parts for x in xs]
        n = len(gains)
        m, se = mean_se(gains)
        changed = sum(1 for x in gains if x)
        print(
            f"  {spec:>28}: {m:+7.2f} points a decision against the heuristic's choice (SE {se:.2f}); "
            f"a different value in {changed} of {n} ({time.perf_counter() - t:.0f} s)",
            flush=True,
        )


def kind_of(g, a) -> str:
    """An action's kind for ``where``: play or discard, and the card's kind (its pile, the go card,
    a distance card's miles), from the compiled game; no card id is named."""
    c = a.card_index
    k = g.kind[c]
    if k == DISTANCE:
        what = f"distance {g.miles[c]}"
    elif k == SAFETY:
        what = "safety"
    elif k == REMEDY and g.is_go[c]:
        what = "go card"
    else:
        what = ("hazard" if k == HAZARD else "remedy") + (" (battle)" if g.pile[c] == BATTLE else " (speed)")
    return ("play " if a.op == PLAY else "discard ") + what


def where(ns) -> None:
    g = mbrules.load_game(ns.ruleset, players=ns.players, options=ns.option)
    _G.update(ns=ns, game=g)
    t = time.perf_counter()
    with mp.get_context("fork").Pool(ns.workers) as pool:
        pos = [x for xs in pool.map(_record_values, range(ns.matches)) for x in xs]
    cells: dict = {}
    for p, acts, vals, ranked in pos:
        value = dict(zip(acts, vals))
        chosen = g.actions[ranked[0]]
        mine = kind_of(g, chosen)
        seen = {mine}
        for a in ranked[1:]:
            other = kind_of(g, g.actions[a])
            if other in seen:
                continue
            seen.add(other)
            cells.setdefault((mine, other), []).append(value[a] - value[ranked[0]])
    rows = []
    for (mine, other), d in cells.items():
        n = len(d)
        if n < max(2, ns.min_n):  # a standard error needs two
            continue
        m, se = mean_se(d)
        rows.append((m / se if se else 0.0, mine, other, n, m, se))
    rows.sort(key=lambda r: -r[0])
    bar = NormalDist().inv_cdf(1 - 0.025 / max(1, len(rows)))
    print(positions_line(ns, len(pos), time.perf_counter() - t))
    print(
        f"  {len(rows)} cells of {max(2, ns.min_n)} decisions or more; a cell beats the heuristic at 95% (Bonferroni) "
        f"when its mean is above {bar:.2f} standard errors"
    )
    print(f"  {'the heuristic chose':<26} {'instead':<26} {'n':>6} {'gain':>8} {'SE':>7} {'t':>6}")
    for tt, mine, other, n, m, se in rows[: ns.top]:
        flag = "  <-" if tt > bar else ""
        print(f"  {mine:<26} {other:<26} {n:>6} {m:>+8.1f} {se:>7.1f} {tt:>+6.2f}{flag}")


def _record_values(i: int):
    """``_record``'s positions without their states (a State does not cross a process boundary),
    each with the heuristic's ranking of its legal actions."""
    g = _G["game"]
    out = []
    for p, acts, vals, st in _record(i):
        if g.actions[acts[0]].op not in (PLAY, DISCARD):
            continue  # the extension question: no kinds of card to compare
        ranked = HeuristicBot(g, p, random.Random(0)).rank(st.observation(p), st.legal_actions())
        out.append((p, acts, vals, [int(a) for a in ranked]))
    return out


class _SearchRecorder(ExpertBot):
    """The expert's own search, never dropping a candidate, with its play-out values kept instead of
    acted on."""

    def _decide(self, diffs, live):
        self.diffs = diffs
        return 0


def _search_values(args):
    part, parts = args
    ns = _G["ns"]
    g = _G["game"]
    out = []
    positions = _G["positions"]
    for j in range(part, len(positions), parts):
        p, acts, vals, st = positions[j]
        if g.actions[acts[0]].op not in (PLAY, DISCARD):
            continue  # the extension question: its two answers are not the heuristic's ranking
        obs = st.observation(p)
        legal = st.legal_actions()
        bot = _SearchRecorder(g, p, bot_rng(j, p), width=ns.width, drop=None)
        cands = bot.heuristic.rank(obs, legal)[: ns.width]
        if len(cands) < 2:
            continue
        bot.budget = ns.worlds * len(cands)
        bot.choose(obs, legal)
        value = dict(zip(acts, vals))
        out.append((_G["match_of"][j], [value[int(a)] for a in cands], bot.diffs))
    return out


def search_pick(diffs: list, width: int, worlds: int, z: float) -> int:
    """The expert's final choice (``ExpertBot._decide``) from the first ``worlds`` play-outs of its
    first ``width`` candidates (``diffs[i]``: candidate i's values less the heuristic choice's, world
    by world): the default (0) unless another beats it in the paired comparison by more than ``z``
    standard errors. Computed here, not by the bot, so the replay is checked against it."""
    best, best_t = 0, z
    for i in range(1, min(width, len(diffs))):
        d = diffs[i][:worlds]
        if len(d) < 2:
            continue
        m, se = mean_se(d)
        t = m / se if se > 0 else (math.inf if m > 0 else (-math.inf if m < 0 else 0.0))
        if t > best_t or (t == best_t and best and m > 0):
            best, best_t = i, t
    return best


def budget(ns) -> None:
    g = mbrules.load_game(ns.ruleset, players=ns.players, options=ns.option)
    _G.update(ns=ns, game=g)
    t = time.perf_counter()
    _record_all(ns)  # the halves below are halves of the matches: match_of
    seconds = time.perf_counter() - t
    t = time.perf_counter()
    with mp.get_context("fork").Pool(ns.workers) as pool:
        pos = [x for xs in pool.map(_search_values, [(i, ns.workers) for i in range(ns.workers)]) for x in xs]
    print(positions_line(ns, len(pos), seconds))
    print(
        f"  the search: the heuristic's best {ns.width} candidates, {ns.worlds} worlds each "
        f"({time.perf_counter() - t:.0f} s)"
    )
    halves = ([x for x in pos if x[0] % 2 == 0], [x for x in pos if x[0] % 2 == 1])
    widths = sorted({w for w in (2, 3, 5, ns.width) if w <= ns.width})
    worlds = sorted({w for w in (8, 16, 32, 64, 128, ns.worlds) if w <= ns.worlds})
    rules = [(w, n, z) for w in widths for n in worlds for z in (0.0, 1.0, 1.5, 2.0)]

    def gains(part, rule):
        return [q[search_pick(v, *rule)] - q[0] for _, q, v in part]

    print(
        f"  {'candidates':>10} {'worlds':>6} {'z':>4} {'gain (SE), all':>18} {'even matches':>16} {'odd matches':>16}"
    )
    table = {}
    for rule in rules:
        row = [mean_se(gains(part, rule)) for part in (pos, *halves)]
        table[rule] = row
        print(f"  {rule[0]:>10} {rule[1]:>6} {rule[2]:>4.1f} " + " ".join(f"{m:>+8.2f} ({se:5.2f})" for m, se in row))
    for pick, test in ((1, 2), (2, 1)):
        rule = max(rules, key=lambda r: table[r][pick][0])
        m, se = table[rule][test]
        print(
            f"  the best rule on the {'even' if pick == 1 else 'odd'} matches ({rule[0]} candidates, {rule[1]} worlds, "
            f"z {rule[2]}): {table[rule][pick][0]:+.2f} there, {m:+.2f} (SE {se:.2f}) on the others"
        )
    est = [(sum(d[i]) / len(d[i]), q[i] - q[0]) for _, q, d in pos for i in range(1, len(q))]
    if len(est) > 2:
        print(
            f"  correlation of the search's estimate of a candidate's edge over the heuristic's choice with its true "
            f"edge, all {ns.worlds} worlds: {correlation(*zip(*est)):.3f} ({len(est)} candidates)"
        )


def _clairvoyant_match(args):
    seed, side = args
    ns = _G["ns"]
    g = _G["game"]
    bots = [make_bot(ns.opponent, g, p, seed) for p in range(g.players)]
    mine = {p: HeuristicBot(g, p, random.Random(seed + p)) for p in range(g.players) if g.side_of[p] == side}
    sims = [HeuristicBot(g, p, random.Random(0)) for p in range(g.players)]
    rng = random.Random(seed)  # the play-outs' tie-break streams, new at each decision
    st = State.new_match(g, seed)
    for p, acts in real_decisions(st):
        obs = st.observation(p)
        if p in mine:
            if acts[0].op in (PLAY, DISCARD):
                cands = mine[p].rank(obs, acts)[: ns.width]
            else:
                first = mine[p].choose(obs, acts)
                cands = [first] + [a for a in acts if a != first]
            vals = true_values(st, cands, side, ns.rollouts, sims, rng.getrandbits(32))
            st.apply(cands[max(range(len(cands)), key=lambda i: (vals[i], -i))])
        else:
            st.apply(bots[p].choose(obs, acts))
    return st.outcome.winner_index == side


def clairvoyant(ns) -> None:
    g = mbrules.load_game(ns.ruleset, players=ns.players, options=ns.option)
    _G.update(ns=ns, game=g)
    t = time.perf_counter()
    jobs = [(game_seed(ns.seed, i), s) for i in range(ns.games) for s in range(g.sides)]
    with mp.get_context("fork").Pool(ns.workers) as pool:
        won = sum(pool.map(_clairvoyant_match, jobs, chunksize=1))
    lo, hi = wilson(won, len(jobs))
    print(
        f"{ns.ruleset}, {ns.players} players: the clairvoyant one-step search (width {ns.width}, {ns.rollouts} "
        f"play-outs an action, on the real deal) against {ns.opponent}: {won} of {len(jobs)} matches, "
        f"{won / len(jobs):.1%} (95% CI {lo:.1%} to {hi:.1%}); {time.perf_counter() - t:.0f} s"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("gain", "where", "budget", "clairvoyant"):
        p = sub.add_parser(name)
        add_game_args(p, seed=77)
        p.add_argument("--workers", type=int, default=2)
        p.add_argument("--opponent", default="heuristic")
        if name == "gain":
            p.add_argument("bots", nargs="+")
        if name in ("gain", "where", "budget"):
            p.add_argument("--matches", type=int, default=16)
            p.add_argument("--rollouts", type=int, default=24)
        if name == "where":
            p.add_argument("--top", type=int, default=12, help="cells printed, best first")
            p.add_argument("--min-n", type=int, default=20, help="cells with fewer decisions are left out (at least 2)")
        if name == "budget":
            p.add_argument("--width", type=int, default=5, help="the heuristic's best candidates searched")
            p.add_argument(
                "--worlds", type=int, default=64, help="deals of the unseen cards, each candidate played in all"
            )
        if name == "clairvoyant":
            p.add_argument("--games", type=int, default=40)
            p.add_argument("--width", type=int, default=3)
            p.add_argument("--rollouts", type=int, default=2)
    ns = ap.parse_args()
    if ns.baseline:
        load_baseline(ns.baseline)
    {"gain": gain, "where": where, "budget": budget, "clairvoyant": clairvoyant}[ns.cmd](ns)


if __name__ == "__main__":
    main()
