"""PettingZoo environment throughput against the engine's own, measured in the same run.

A random policy (uniform over the action mask) plays whole matches through
``mbrules.env.mille_bornes_v0`` and the env's steps/s (one step = one action of one agent,
draws included, every step reading the observation with ``env.last()``) are printed next to
the engine's turns/s from ``benchmarks/bench_engine.py``'s loop (random bots, no observation),
measured in the same process just before. The goal (issue 15): env steps/s >= half the
engine's turns/s.

    python benchmarks/bench_env.py [--steps 20000] [--hands 1000] [--repeat 3]
                                   [--ruleset winning-moves] [--players 4] [--seed 0]
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_engine import run as engine_run  # noqa: E402  the engine's own loop, same figures as bench_engine

from mbrules.engine import Game  # noqa: E402
from mbrules.env import mille_bornes_v0  # noqa: E402
from mbrules.ruleset import load_ruleset  # noqa: E402


def env_run(ruleset: str, players: int, steps: int, seed: int, observe: bool = True,
            wrapped: bool = True) -> tuple[int, int]:
    """Random policy over the mask for ``steps`` env steps (whole matches, the last cut): (steps, matches).

    ``wrapped``: ``env()`` (PettingZoo's order-enforcing and bounds wrappers, as users get it) or
    ``raw_env()``; ``observe=False`` reads only the action mask, not the observation vector.
    """
    env = (mille_bornes_v0.env if wrapped else mille_bornes_v0.raw_env)(ruleset=ruleset, players=players)
    rng = np.random.default_rng(seed)
    done = matches = 0
    m = 0
    while done < steps:
        env.reset(seed=seed * 100_003 + m)
        m += 1
        for agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last(observe)
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"] if observe else env.unwrapped.action_mask(agent)
            legal = np.flatnonzero(mask)
            env.step(int(legal[rng.integers(len(legal))]))
            done += 1
            if done >= steps:
                break
        matches += 1
    return done, matches


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ruleset", default="winning-moves")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    print("command:", " ".join([sys.executable, *sys.argv]) if argv is None else " ".join(argv))
    print(f"python: {platform.python_implementation()} {platform.python_version()} ({platform.machine()})")
    game = Game(load_ruleset(args.ruleset), args.players)
    engine_run(game, ["random"], 100, args.seed + 1)  # warm-up
    env_run(args.ruleset, args.players, 1000, args.seed + 1)
    best_e = best_v = best_m = best_w = 0.0
    for r in range(args.repeat):
        t0 = time.perf_counter()
        _hands, turns = engine_run(game, ["random"], args.hands, args.seed)
        e = turns / (time.perf_counter() - t0)
        t0 = time.perf_counter()
        steps, _ = env_run(args.ruleset, args.players, args.steps, args.seed)
        v = steps / (time.perf_counter() - t0)
        t0 = time.perf_counter()
        steps, _ = env_run(args.ruleset, args.players, args.steps, args.seed, observe=False)
        m = steps / (time.perf_counter() - t0)
        t0 = time.perf_counter()
        steps, _ = env_run(args.ruleset, args.players, args.steps, args.seed, wrapped=False)
        w = steps / (time.perf_counter() - t0)
        print(f"run {r + 1}: engine {e:,.0f} turns/s; env {v:,.0f} steps/s with observations, "
              f"{m:,.0f} steps/s mask only, raw_env {w:,.0f} steps/s with observations")
        best_e, best_v, best_m, best_w = max(best_e, e), max(best_v, v), max(best_m, m), max(best_w, w)
    print(f"best: engine {best_e:,.0f} turns/s; env {best_v:,.0f} steps/s with observations "
          f"({best_v / best_e:.2f} of the engine's), {best_m:,.0f} steps/s mask only ({best_m / best_e:.2f}), "
          f"raw_env {best_w:,.0f} steps/s with observations ({best_w / best_e:.2f}); "
          f"random policy, {args.players} players, {args.ruleset}, one process")


if __name__ == "__main__":
    main()
