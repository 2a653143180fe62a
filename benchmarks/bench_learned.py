"""Figures of the learned bot: win share on paired deals with seats swapped, and CPU per decision.

    python benchmarks/bench_learned.py versus learned heuristic-2026 -p 2 --games 1000
    python benchmarks/bench_learned.py speed -p 2 --matches 20

``versus A B``: deal ``i`` (seed ``(seed, i)``) is played once per seating: with two sides, A on side
A then A on side B (partners alike); with three sides, A alone on each side against two B sides. A's
share of the matches won, with the Wilson 95% interval, and the pair-level interval (the two seatings
of a deal are not independent: the interval over deals of the per-deal share is also printed).

``speed``: CPU time of the learned bot's decisions (only real choices: the forced draw is not
asked), measured with ``time.process_time`` around ``choose`` in whole matches against the heuristic.
"""
from __future__ import annotations

import argparse
import hashlib
import math
import time

import mbrules
from mbrules.bots import make_bots
from mbrules.engine import State


def deal_seed(seed: int, i: int) -> int:
    return int.from_bytes(hashlib.sha256(f"bench-learned:{seed}:{i}".encode()).digest()[:8], "big") >> 1


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def play(game, seed: int, names: list[str], timer: list | None = None, timed: int = -1):
    bots = make_bots(names, game, seed)
    st = State.new_match(game, seed)
    while not st.is_terminal():
        acts = st.legal_actions()
        if len(acts) == 1:
            st.apply(acts[0])
            continue
        p = st.current_player
        obs = st.observation(p)
        if timer is not None and p == timed:
            t = time.process_time()
            a = bots[p].choose(obs, acts)
            timer.append(time.process_time() - t)
        else:
            a = bots[p].choose(obs, acts)
        st.apply(a)
    return st.outcome


def seatings(game, a: str, b: str) -> list[list[str]]:
    out = []
    for k in range(game.sides):
        out.append([a if game.side_of[p] == k else b for p in range(game.players)])
    return out


def versus(args) -> None:
    game = mbrules.load_game(args.ruleset, players=args.players, options=args.option or [])
    wins = n = 0
    per_deal = []
    t0 = time.process_time()
    for i in range(args.games):
        s = deal_seed(args.seed, i)
        won = 0
        lineups = seatings(game, args.a, args.b)
        for k, names in enumerate(lineups):
            out = play(game, s, names)
            won += out.winner_index == k
        wins += won
        n += len(lineups)
        per_deal.append(won / len(lineups))
    lo, hi = wilson(wins, n)
    mean = sum(per_deal) / len(per_deal)
    sd = math.sqrt(sum((x - mean) ** 2 for x in per_deal) / max(1, len(per_deal) - 1))
    half = 1.96 * sd / math.sqrt(len(per_deal))
    print(f"{args.a} vs {args.b}, {args.ruleset} {' '.join(args.option or [])} {args.players} players, seed {args.seed}: "
          f"{args.a} won {wins} of {n} matches ({args.games} deals x {n // args.games} seatings) = {wins / n:.1%}; "
          f"Wilson 95% {lo:.1%} to {hi:.1%}; over deals {mean - half:.1%} to {mean + half:.1%}; "
          f"{time.process_time() - t0:.0f} s CPU")


def speed(args) -> None:
    game = mbrules.load_game(args.ruleset, players=args.players, options=args.option or [])
    times: list[float] = []
    for i in range(args.matches):
        names = ["learned" if game.side_of[p] == 0 else "heuristic" for p in range(game.players)]
        play(game, deal_seed(args.seed, i), [args.bot if x == "learned" else x for x in names], times, 0)
    times.sort()
    n = len(times)
    print(f"{args.bot}, {args.ruleset} {args.players} players: {n} decisions, CPU per decision mean "
          f"{1000 * sum(times) / n:.2f} ms, median {1000 * times[n // 2]:.2f} ms, 95th percentile "
          f"{1000 * times[int(n * 0.95)]:.2f} ms, max {1000 * times[-1]:.2f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    v = sub.add_parser("versus")
    v.add_argument("a")
    v.add_argument("b")
    v.add_argument("--games", type=int, default=200)
    s = sub.add_parser("speed")
    s.add_argument("--matches", type=int, default=10)
    s.add_argument("--bot", default="learned")
    for p in (v, s):
        p.add_argument("-p", "--players", type=int, default=2)
        p.add_argument("--ruleset", default="winning-moves")
        p.add_argument("--option", action="append")
        p.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    versus(args) if args.cmd == "versus" else speed(args)


if __name__ == "__main__":
    main()
