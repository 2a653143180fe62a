"""Bot figures: speed (decisions/s, ms a decision) and head-to-head strength with 95% CIs.

    .venv/bin/python benchmarks/bench_bots.py speed [--players 2] [--matches 6]
    .venv/bin/python benchmarks/bench_bots.py positions heuristic-2026 heuristic
    .venv/bin/python benchmarks/bench_bots.py versus expert heuristic-2026 --games 200 --players 2 --workers 2

``speed`` times each bot's ``choose`` in self-play: wall and CPU time (the CPU figure is the one
to read on a shared machine: another job's load does not count in it).
``positions`` records the decisions of a set of matches once, then times each named bot deciding
every one of them (the same positions for every bot, best of ``--repeat`` passes of CPU time), and
prints microseconds a decision and each bot's speed against the first: the fair way to compare two
versions of one bot, whose own games would otherwise differ.
``versus`` plays ``--games`` seeds twice, seats swapped (paired seeds: each bot holds each seat
of the same deal once), and prints A's share of the matches won with a Wilson 95% interval.
The starting heuristic (commit 5e57a76) is the registered bot ``heuristic-2026``
(mbrules/bots/heuristic_2026.py, frozen): old-against-new needs no other checkout. ``--baseline DIR``
still registers the heuristic bot of any other checkout (``git worktree add DIR COMMIT``) as
``heuristic0``, for this script only; the package never ships it.
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing as mp
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import mbrules  # noqa: E402
from mbrules.matches.ladder import wilson  # Wilson 95%, (0, 1) for n = 0
from mbrules.bots import base as _base  # noqa: E402
from mbrules.matches import game_seed, play_match  # noqa: E402


def load_baseline(checkout: str, name: str = "heuristic0") -> None:
    """Register ``checkout``'s heuristic bot as ``name`` (restoring this checkout's ``heuristic``)."""
    path = os.path.join(checkout, "mbrules", "bots", "heuristic.py")
    saved = dict(_base._REGISTRY), dict(_base._PARAMS)
    spec = importlib.util.spec_from_file_location("mbrules.bots._baseline_heuristic", path)
    mod = importlib.util.module_from_spec(spec)
    mod.__package__ = "mbrules.bots"
    spec.loader.exec_module(mod)
    cls = mod.HeuristicBot
    _base._REGISTRY.clear()
    _base._REGISTRY.update(saved[0])
    _base._PARAMS.clear()
    _base._PARAMS.update(saved[1])
    _base.register(name, f"the heuristic bot of {checkout}")(cls)


def real_decisions(st):
    """Walk a match: apply every forced action (the draw, mostly) and yield ``(player, legal actions)``
    at each real decision; the caller applies the action chosen before asking for the next."""
    while not st.is_terminal():
        acts = st.legal_actions()
        if len(acts) == 1:
            st.apply(acts[0])
            continue
        yield st.current_player, acts


_G: dict = {}


def _init(ruleset, options, players, baseline):
    if baseline:
        load_baseline(baseline)
    _G["game"] = mbrules.load_game(ruleset, players=players, options=options)


def _pair(args):
    """Game ``i`` twice, seats swapped: A's wins, B's wins, draws/unfinished."""
    a, b, seed, i = args
    g = _G["game"]
    s = game_seed(seed, i)
    res = [0, 0, 0]
    for first, second in ((a, b), (b, a)):
        lineup = [first if p % g.sides == 0 else second for p in range(g.players)]
        if g.sides > 2:
            lineup = [first if g.side_of[p] == 0 else second for p in range(g.players)]
        out = play_match(g, s, lineup).outcome
        if out.winner_index < 0:
            res[2] += 1
        elif (out.winner_index == 0) == (first == a):
            res[0] += 1
        else:
            res[1] += 1
    return res


def versus(ns) -> None:
    t = time.perf_counter()
    jobs = [(ns.a, ns.b, ns.seed, i) for i in range(ns.games)]
    ctx = mp.get_context("fork")
    with ctx.Pool(ns.workers, _init, (ns.ruleset, ns.option, ns.players, ns.baseline)) as pool:
        res = [0, 0, 0]
        for k, r in enumerate(pool.imap_unordered(_pair, jobs, chunksize=1)):
            res = [x + y for x, y in zip(res, r)]
            if ns.progress and (k + 1) % ns.progress == 0:
                print(
                    f"  after {k + 1} seeds: {ns.a} {res[0]}, {ns.b} {res[1]}, other {res[2]}",
                    file=sys.stderr,
                    flush=True,
                )
    n = sum(res)
    lo, hi = wilson(res[0], n)
    print(
        f"{ns.a} vs {ns.b}: {ns.ruleset} {' '.join(ns.option)} {ns.players} players, {n} matches "
        f"({ns.games} seeds x 2 seatings, seed {ns.seed}): {ns.a} won {res[0]}, {ns.b} won {res[1]}, "
        f"{res[2]} drawn/unfinished; {ns.a}'s share {res[0] / n:.1%} (95% CI {lo:.1%} to {hi:.1%}); "
        f"{time.perf_counter() - t:.0f} s on {ns.workers} worker(s)"
    )


class _Timed:
    """Wraps a bot: counts its decisions and the time spent in them."""

    def __init__(self, bot):
        self.bot = bot
        self.observes = getattr(bot, "observes", True)
        self.n = 0
        self.t = 0.0
        self.cpu = 0.0
        self.worst = 0.0

    def choose(self, obs, legal):
        t = time.perf_counter()
        c = time.process_time()
        a = self.bot.choose(obs, legal)
        self.cpu += time.process_time() - c
        d = time.perf_counter() - t
        self.n += 1
        self.t += d
        self.worst = max(self.worst, d)
        return a


def speed(ns) -> None:
    from mbrules.bots import make_bot
    from mbrules.engine import State

    g = mbrules.load_game(ns.ruleset, players=ns.players, options=ns.option)
    print(f"{ns.ruleset}, {ns.players} players, {ns.matches} matches a bot (self-play), one process")
    for name in ns.bots:
        timed_all = []
        t0 = time.perf_counter()
        for i in range(ns.matches):
            seed = game_seed(ns.seed, i)
            bots = [_Timed(make_bot(name, g, p, seed)) for p in range(g.players)]
            timed_all += bots
            st = State.new_match(g, seed)
            for p, acts in real_decisions(st):
                b = bots[p]
                st.apply(b.choose(st.observation(p) if b.observes else None, acts))
        wall = time.perf_counter() - t0
        n = sum(b.n for b in timed_all)
        t = sum(b.t for b in timed_all)
        cpu = sum(b.cpu for b in timed_all)
        worst = max(b.worst for b in timed_all)
        print(
            f"  {name:>22}: {n} decisions, {n / t:,.0f} decisions/s, {1000 * t / n:.3f} ms a decision wall, "
            f"{1000 * cpu / n:.3f} ms CPU (worst {1000 * worst:.1f} ms wall); {wall:.2f} s for the matches"
        )


def positions(ns) -> None:
    from mbrules.bots import make_bot
    from mbrules.engine import State

    g = mbrules.load_game(ns.ruleset, players=ns.players, options=ns.option)
    recorded = []  # (player, observation, legal actions) of every real decision
    for i in range(ns.matches):
        seed = game_seed(ns.seed, i)
        bots = [make_bot(ns.bots[p % len(ns.bots)], g, p, seed) for p in range(g.players)]
        st = State.new_match(g, seed)
        for p, acts in real_decisions(st):
            obs = st.observation(p)
            recorded.append((p, obs, acts))
            st.apply(bots[p].choose(obs, acts))
    print(
        f"{ns.ruleset}, {ns.players} players: {len(recorded)} decisions recorded from {ns.matches} matches of "
        f"{' vs '.join(ns.bots)}; best of {ns.repeat} passes of CPU time, one process"
    )
    first = None
    for rnd in range(ns.rounds):
        for name in ns.bots:
            best = float("inf")
            for _ in range(ns.repeat):
                bots = [make_bot(name, g, p, 1) for p in range(g.players)]  # fresh: no decision remembered
                t = time.process_time()
                for p, obs, acts in recorded:
                    bots[p].choose(obs, acts)
                best = min(best, time.process_time() - t)
            us = 1e6 * best / len(recorded)
            if name == ns.bots[0]:
                first = us
            print(
                f"  round {rnd + 1} {name:>22}: {us:6.2f} us a decision, {first / us:4.2f}x the speed of {ns.bots[0]}",
                flush=True,
            )


def tables(ns) -> None:
    """CPU of heuristic self-play matches with the game's tables shared (one build per Game) against the
    same matches with the tables built for every bot (as before issue 34), rounds interleaved."""
    from mbrules.bots import heuristic

    g = mbrules.load_game(ns.ruleset, players=ns.players, options=ns.option)
    shared = heuristic._game_tables

    def per_bot(cls, game):
        return heuristic._build_tables(cls, game)

    hands = 0
    cpu = {"built for every bot": [], "shared per Game": []}
    for r in range(ns.rounds):
        for name, fn in (("built for every bot", per_bot), ("shared per Game", shared)):
            heuristic._game_tables = fn
            t = time.process_time()
            n = 0
            for i in range(ns.matches):
                n += len(play_match(g, game_seed(ns.seed, i), ["heuristic"]).outcome.hand_sheets)
            cpu[name].append(time.process_time() - t)
            hands = n
    heuristic._game_tables = shared
    best = {k: min(v) for k, v in cpu.items()}
    old, new = best["built for every bot"], best["shared per Game"]
    print(
        f"{ns.ruleset}, {ns.players} players, {ns.matches} heuristic matches ({hands} hands), best of {ns.rounds} "
        f"rounds of CPU: tables built for every bot {1e6 * old / hands:.0f} us a hand, shared per Game "
        f"{1e6 * new / hands:.0f} us a hand: {100 * (old - new) / old:.1f}% less"
    )


def add_game_args(p: argparse.ArgumentParser, seed: int) -> None:
    """The options every bot benchmark takes: the game played, the seed, and ``--baseline``."""
    p.add_argument("--ruleset", default="winning-moves")
    p.add_argument("--option", action="append", default=[])
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=seed)
    p.add_argument("--baseline", default=None, help="a checkout whose heuristic bot is registered as heuristic0")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("speed", "versus", "positions", "tables"):
        p = sub.add_parser(name)
        add_game_args(p, seed=0)
        if name == "speed":
            p.add_argument("--matches", type=int, default=6)
            p.add_argument("--bots", nargs="+", default=["random", "heuristic", "expert"])
        elif name == "tables":
            p.add_argument("--matches", type=int, default=400)
            p.add_argument("--rounds", type=int, default=5)
        elif name == "positions":
            p.add_argument(
                "bots",
                nargs="+",
                help="bots to time; the first is the reference (and with the "
                "others, in seat order, plays the matches recorded)",
            )
            p.add_argument("--matches", type=int, default=40)
            p.add_argument("--repeat", type=int, default=7)
            p.add_argument("--rounds", type=int, default=2)
        else:
            p.add_argument("a")
            p.add_argument("b")
            p.add_argument("--games", type=int, default=200)
            p.add_argument("--workers", type=int, default=2)
            p.add_argument("--progress", type=int, default=0, help="print the counts every N seeds (stderr)")
    ns = ap.parse_args()
    if ns.cmd == "tables":
        tables(ns)
    elif ns.cmd in ("speed", "positions"):
        if ns.baseline:
            load_baseline(ns.baseline)
        (speed if ns.cmd == "speed" else positions)(ns)
    else:
        versus(ns)


if __name__ == "__main__":
    main()
