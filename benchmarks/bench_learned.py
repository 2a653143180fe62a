"""Figures of the learned bot: win share on paired deals with seats swapped, and CPU per decision.

    python benchmarks/bench_learned.py versus learned heuristic-2026 -p 2 --games 1000
    python benchmarks/bench_learned.py speed -p 2 --matches 20
    python benchmarks/bench_learned.py versus hands:learned heuristic-2026 -p 2 --games 200   # clairvoyance

``versus A B``: deal ``i`` (seed ``(seed, i)``) is played once per seating: with two sides, A on side
A then A on side B (partners alike); with three sides, A alone on each side against two B sides. A's
share of the matches won, with the Wilson 95% interval, and the pair-level interval (the two seatings
of a deal are not independent: the interval over deals of the per-deal share is also printed).

``clairvoyance A B``: the bound split in two. ``A`` is ``learned`` (with its parameters) told some
hidden cards by the benchmark, never a fair bot: ``hands:learned`` deals the opponents' real hands
into every world (the draw pile sampled), ``draws:learned`` the real draw order (the other hands
sampled), ``both:learned`` both. Only the first gap (hands) can be closed by inference from the
opponents' plays; the second is luck no fair bot can see.

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
from mbrules.bots.learned import LearnedBot
from mbrules.engine import State
from mbrules.engine.determinize import determinize, hidden_pool

SEES = ("hands", "draws", "both")


class ClairvoyantLearned(LearnedBot):
    """The learned bot told hidden cards of the real match (``truth``, set before every choice)."""

    sees = "hands"
    truth: State | None = None

    def _world(self, obs, rng):
        st = self.truth
        snap = st.snapshot()
        me = self.player
        others = [q for q in range(self.game.players) if q != me]
        if self.sees in ("hands", "both"):
            w = determinize(obs, rng, known={q: list(snap.hands[q]) for q in others})
        else:  # the real draw pile's cards go to the pile: the other hands are dealt from the rest
            pool = hidden_pool(obs)
            for c in st._stock:
                pool.remove(c)
            rng.shuffle(pool)
            known, k = {}, 0
            for q in others:
                known[q] = pool[k : k + obs.hand_sizes[q]]
                k += obs.hand_sizes[q]
            w = determinize(obs, rng, known=known)
        if self.sees in ("draws", "both"):
            assert sorted(w._stock) == sorted(st._stock)
            w._stock = list(st._stock)  # the same cards, in the real order
        return w


def bot_for(game, name: str, p: int, seed: int):
    sees, _, rest = name.partition(":")
    from mbrules.bots.base import parse_bot, bot_rng

    _, params = parse_bot(rest)
    b = ClairvoyantLearned(game, p, bot_rng(seed, p), **params)
    b.sees = sees
    return b


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
    seeing = [n.partition(":")[0] in SEES for n in names]
    bots = make_bots(["heuristic" if s else n for s, n in zip(seeing, names)], game, seed)
    for p, s in enumerate(seeing):
        if s:
            bots[p] = bot_for(game, names[p], p, seed)
    st = State.new_match(game, seed)
    while not st.is_terminal():
        acts = st.legal_actions()
        if len(acts) == 1:
            st.apply(acts[0])
            continue
        p = st.current_player
        obs = st.observation(p)
        if seeing[p]:
            bots[p].truth = st
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
    print(
        f"{args.a} vs {args.b}, {args.ruleset} {' '.join(args.option or [])} {args.players} players, seed {args.seed}: "
        f"{args.a} won {wins} of {n} matches ({args.games} deals x {n // args.games} seatings) = {wins / n:.1%}; "
        f"Wilson 95% {lo:.1%} to {hi:.1%}; over deals {mean - half:.1%} to {mean + half:.1%}; "
        f"{time.process_time() - t0:.0f} s CPU"
    )


def speed(args) -> None:
    game = mbrules.load_game(args.ruleset, players=args.players, options=args.option or [])
    times: list[float] = []
    for i in range(args.matches):
        names = ["learned" if game.side_of[p] == 0 else "heuristic" for p in range(game.players)]
        play(game, deal_seed(args.seed, i), [args.bot if x == "learned" else x for x in names], times, 0)
    times.sort()
    n = len(times)
    print(
        f"{args.bot}, {args.ruleset} {args.players} players: {n} decisions, CPU per decision mean "
        f"{1000 * sum(times) / n:.2f} ms, median {1000 * times[n // 2]:.2f} ms, 95th percentile "
        f"{1000 * times[int(n * 0.95)]:.2f} ms, max {1000 * times[-1]:.2f} ms"
    )


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
