"""CPU time of the expert's greedy play-outs (``expert:greedy=1``): determinize a world, play it out.

    python benchmarks/bench_playout.py [--worlds 40] [--per-world 10] [--reps 5]

Positions: ``--worlds`` random positions of 4-player winning-moves (seeds 0...), each determinized
``--per-world`` times and played to the hand's end by :func:`mbrules.bots.playout.rollout`. Prints
the CPU seconds of each repetition and their minimum (the least disturbed by other load).
"""

from __future__ import annotations

import argparse
import random
import time

import mbrules
from mbrules.bots.playout import rollout
from mbrules.engine import State
from mbrules.engine.determinize import determinize


def positions(n: int) -> list:
    g = mbrules.load_game("winning-moves", players=4)
    out = []
    seed = 0
    while len(out) < n:
        st = State.new_match(g, seed, deal_next=False)
        rng = random.Random(seed)
        for _ in range(rng.randrange(5, 60)):
            if st.hand_over:
                break
            st.apply(rng.choice(st.legal_actions()))
        if not st.hand_over:
            out.append(st.observation(st.decision.player))
        seed += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", type=int, default=40)
    ap.add_argument("--per-world", type=int, default=10)
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    obs = positions(a.worlds)
    reps = []
    for _ in range(a.reps):
        t = time.process_time()
        for i, o in enumerate(obs):
            for k in range(a.per_world):
                rollout(determinize(o, random.Random(i * 1000 + k)), random.Random(k))
        reps.append(time.process_time() - t)
    n = len(obs) * a.per_world
    print(f"{n} play-outs a repetition, {a.reps} repetitions: CPU s " + " ".join(f"{x:.3f}" for x in reps))
    print(f"minimum {min(reps):.3f} s: {min(reps) / n * 1e6:.0f} us a play-out (determinize included)")


if __name__ == "__main__":
    main()
