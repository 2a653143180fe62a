"""Learning against the random bot with mbrules.env.single_agent_env: REINFORCE, a linear policy, numpy only.

A softmax policy over the legal actions (logits = W x + b, the action mask setting the illegal
ones to -inf) is trained by REINFORCE with a running-mean baseline on the match reward (+1 won,
-1 lost). Before and after training it plays ``--eval`` matches against the random bot on seeds
it never trained on, and the win rates are printed with their 95% Wilson intervals, with the CPU
time spent. docs/rl.md gives a run's figures.

    python examples/train_reinforce.py [--ruleset kids-115] [--players 2] [--episodes 4000]
                                       [--eval 1000] [--lr 0.01] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from mbrules.env import single_agent_env


class LinearPolicy:
    def __init__(self, n_obs: int, n_actions: int, rng: np.random.Generator):
        self.W = np.zeros((n_actions, n_obs))
        self.b = np.zeros(n_actions)
        self.rng = rng

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.W @ x + self.b
        logits[mask == 0] = -np.inf
        z = np.exp(logits - logits.max())
        return z / z.sum()

    def act(self, obs) -> tuple[int, np.ndarray, np.ndarray]:
        x = obs["observation"].astype(np.float64)
        p = self.probs(x, obs["action_mask"])
        return int(self.rng.choice(len(p), p=p)), x, p


def play(env, policy: LinearPolicy, seed: int, record: bool):
    obs, _ = env.reset(seed=seed)
    steps = []
    while True:
        a, x, p = policy.act(obs)
        if record:
            steps.append((a, x, p))
        obs, reward, terminated, truncated, _ = env.step(a)
        if terminated or truncated:
            return reward, steps


def win_rate(env, policy: LinearPolicy, seeds) -> tuple[int, int]:
    wins = sum(play(env, policy, s, record=False)[0] > 0 for s in seeds)
    return wins, len(seeds)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="kids-115")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--episodes", type=int, default=4000)
    ap.add_argument("--eval", type=int, default=1000)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    env = single_agent_env(ruleset=args.ruleset, players=args.players, opponents="random")
    n_obs = env.observation_space["observation"].shape[0]
    policy = LinearPolicy(n_obs, env.action_space.n, np.random.default_rng(args.seed))
    eval_seeds = range(10**9, 10**9 + args.eval)  # never trained on
    c0 = time.process_time()
    before = win_rate(env, policy, eval_seeds)
    baseline = 0.0
    for ep in range(args.episodes):
        reward, steps = play(env, policy, args.seed * 10**6 + ep, record=True)
        advantage = reward - baseline
        baseline += 0.01 * (reward - baseline)
        for a, x, p in steps:
            g = -p
            g[a] += 1.0  # d log pi(a|x) / d logits
            policy.W += args.lr * advantage * np.outer(g, x)
            policy.b += args.lr * advantage * g
    train_cpu = time.process_time() - c0
    after = win_rate(env, policy, eval_seeds)
    cpu = time.process_time() - c0
    for label, (k, n) in (("untrained (uniform over legal actions)", before), ("after training", after)):
        lo, hi = wilson(k, n)
        print(f"{label}: won {k} of {n} against random, {k / n:.3f} (95% CI {lo:.3f}..{hi:.3f})")
    print(
        f"{args.episodes} training matches, {args.ruleset}, {args.players} players, seed {args.seed}; "
        f"CPU {cpu:.0f} s in all ({train_cpu:.0f} s to the end of training)"
    )


if __name__ == "__main__":
    main()
