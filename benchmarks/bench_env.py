"""RL environment throughput against the engine's own, in CPU time, measured in the same run.

Every figure is per CPU-second of this process (``time.process_time``), random play throughout:

* engine: actions of ``play_match`` (random bots, no observation), draws and answers included;
* ``mille_bornes_v1`` (the draw automatic): agent steps, each reading the observation with
  ``env.last()`` (the vector and the mask), as users get it from ``env()``;
* ``mille_bornes_v0`` (the draw an agent step): the same, through its wrapper;
* OpenSpiel ``python_mille_bornes``: ``apply_action`` calls (chance outcomes included) with a random
  policy over ``legal_actions()``, no observation asked.

Goals (issue 27): v1 >= 0.25 of the engine's actions per CPU-second; OpenSpiel >= 0.4.

    python benchmarks/bench_env.py [--steps 20000] [--hands 600] [--repeat 3]
                                   [--ruleset winning-moves] [--players 4] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mbrules.engine import Game  # noqa: E402
from mbrules.env import mille_bornes_v0, mille_bornes_v1  # noqa: E402
from mbrules.ruleset import load_ruleset  # noqa: E402
from mbrules.matches import game_seed, play_match  # noqa: E402


def engine_run(game: Game, hands: int, seed: int) -> int:
    """Random bots play whole matches (the last cut) until ``hands`` hands: the engine's actions, draws included."""
    done = actions = 0
    i = 0
    while done < hands:
        st = play_match(game, game_seed(seed, i), ["random"], max_hands=hands - done)
        i += 1
        done += st.hands_played
        actions += sum(1 for p, _a in st.history if p >= 0)
    return actions


def env_run(module, ruleset: str, players: int, steps: int, seed: int, on_obs=None) -> int:
    """Random policy over the mask for ``steps`` live agent steps, each reading its observation
    (``on_obs(step, obs)`` is called with each live one: bench_modes.py hashes some)."""
    env = module.env(ruleset=ruleset, players=players)
    rng = np.random.default_rng(seed)
    done = m = 0
    while done < steps:
        env.reset(seed=seed * 100_003 + m)
        m += 1
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            if on_obs is not None:
                on_obs(done, obs)
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            done += 1
            if done >= steps:
                break
    return done


def openspiel_run(ruleset: str, players: int, steps: int, seed: int) -> int | None:
    """Random play through pyspiel (hands=1 episodes): ``apply_action`` calls, chance outcomes included."""
    try:
        import pyspiel

        import mbrules.openspiel  # noqa: F401  registers the game
    except ImportError:
        return None
    game = pyspiel.load_game("python_mille_bornes", {"ruleset": ruleset, "players": players, "hands": 1})
    rng = random.Random(seed)
    done = 0
    while done < steps:
        state = game.new_initial_state()
        while not state.is_terminal() and done < steps:
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            done += 1
    return done


def _rate(fn, *args) -> float:
    c0 = time.process_time()
    n = fn(*args)
    if n is None:
        return float("nan")
    return n / (time.process_time() - c0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--hands", type=int, default=600)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ruleset", default="winning-moves")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    print("command:", " ".join([sys.executable, *sys.argv]) if argv is None else " ".join(argv))
    print(f"python: {platform.python_implementation()} {platform.python_version()} ({platform.machine()})")
    game = Game(load_ruleset(args.ruleset), args.players)
    engine_run(game, 50, args.seed + 1)  # warm-up
    env_run(mille_bornes_v1, args.ruleset, args.players, 500, args.seed + 1)
    openspiel_run(args.ruleset, args.players, 500, args.seed + 1)
    rows = []
    for r in range(args.repeat):
        e = _rate(engine_run, game, args.hands, args.seed)
        v1 = _rate(env_run, mille_bornes_v1, args.ruleset, args.players, args.steps, args.seed)
        v0 = _rate(env_run, mille_bornes_v0, args.ruleset, args.players, args.steps, args.seed)
        os_ = _rate(openspiel_run, args.ruleset, args.players, args.steps, args.seed)
        rows.append((e, v1, v0, os_))
        print(
            f"run {r + 1}: engine {e:,.0f} actions/cpu-s; v1 {v1:,.0f} steps/cpu-s ({v1 / e:.3f}); "
            f"v0 {v0:,.0f} ({v0 / e:.3f}); openspiel {os_:,.0f} actions/cpu-s ({os_ / e:.3f})"
        )
    ratios = list(zip(*[(v1 / e, v0 / e, o / e) for e, v1, v0, o in rows]))
    names = ("mille_bornes_v1 steps with observations", "mille_bornes_v0 steps with observations", "OpenSpiel actions")
    goals = (0.25, None, 0.4)
    for name, rs, goal in zip(names, ratios, goals):
        lo, hi = min(rs), max(rs)
        verdict = "" if goal is None else (f"  goal >= {goal}: " + ("met" if lo >= goal else "NOT met"))
        print(
            f"{name}: {sorted(rs)[len(rs) // 2]:.3f} of the engine's actions per CPU-second "
            f"(median of {len(rs)} runs, range {lo:.3f}..{hi:.3f}){verdict}"
        )
    print(
        f"random play, {args.players} players, {args.ruleset}; engine {args.hands} hands a run, "
        f"each env {args.steps} steps a run; one process"
    )


if __name__ == "__main__":
    main()
