"""Issue 44's figures in one run: this tree pure, this tree compiled, and a baseline tree, interleaved.

Each workload runs in a fresh process per variant and round (CPU time, ``time.process_time``), the
variants in turn inside each round, so other jobs on the machine weigh on all alike:

* ``engine``: random-bot hands of winning-moves, 4 players (``bench_engine.py``'s loop), hands/CPU-s
  (the history kept inside the timing, as the engine keeps it; read and hashed after it, as the
  hand-written loop hashes nothing);
  ``specialised``: the hand-written loop of the same game (``specialised_loop.py``), run by this tree;
* ``express``, ``asmodee``: random-bot matches of express (3 players) and asmodee-2014 (4), actions/CPU-s;
* ``v1``: ``mille_bornes_v1`` agent steps with ``env.last()`` (vector and mask), random policy, steps/CPU-s;
* ``expert``: expert-bot decisions (2 players, winning-moves), decisions/CPU-s.

With both ``engine`` and ``specialised`` the loop runs inside the engine's turn, right between the pure
engine and the compiled one (the order reversed every other round), and each variant's ratio to the loop is
paired: the median of the rounds' own ratios, with their range and a bootstrap interval of that median.

Every child also prints a hash of what it played (histories, or the v1 vectors): the variants must play
the same games, and the script says so. Variants: ``pure`` (this tree), ``compiled`` (this tree with
``MBRULES_COMPILED=require``: ``make compiled`` first) and one per ``--base [NAME=]DIR`` (e.g. a ``git
worktree`` of an earlier commit; named ``base``, ``base2``, ... unless named; the option may be repeated);
with ``--compiled-bases`` each base that holds a compiled build also runs compiled (``NAME-c``: its own
``make compiled`` first).

    python benchmarks/bench_modes.py --base /tmp/base-66b447d [--rounds 5] [--only engine,v1]
    python benchmarks/bench_modes.py --base start=/tmp/base-main --base old=/tmp/base-66b447d --compiled-bases
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from statistics import median
from typing import Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WORKLOADS = ("engine", "specialised", "express", "asmodee", "v1", "expert")


Played = Callable[[], tuple[int, str]]  # read after the timing: (count, hash of what was played)


def _matches(ruleset: str, players: int, bots: list[str], hands: int, seed: int, per_hand: bool = False) -> Played:
    """Bots play whole matches (the last cut) until ``hands`` hands; then (actions, or hands with
    ``per_hand``; hash of the histories), counted and hashed when asked, outside the timing."""
    from mbrules.engine import Game
    from mbrules.matches import game_seed, play_match
    from mbrules.ruleset import load_ruleset

    game = Game(load_ruleset(ruleset), players)
    histories = []
    done = i = 0
    while done < hands:
        st = play_match(game, game_seed(seed, i), bots, max_hands=hands - done)
        i += 1
        done += st.hands_played
        histories.append(st.history)

    def played() -> tuple[int, str]:
        h = hashlib.sha256()
        actions = 0
        for history in histories:
            hist = [(p, int(a)) for p, a in history]
            actions += sum(1 for p, _ in hist if p >= 0)
            h.update(repr(hist).encode())
        return done if per_hand else actions, h.hexdigest()[:12]

    return played


def _v1(steps: int, seed: int) -> Played:
    """``bench_env.py``'s v1 loop (winning-moves, 4 players): steps, and a hash of every 97th vector."""
    sys.path.insert(0, str(HERE))
    from bench_env import env_run

    from mbrules.env import mille_bornes_v1

    h = hashlib.sha256()

    def seen(i: int, obs: dict) -> None:
        if i % 97 == 0:
            h.update(obs["observation"].tobytes())

    done = env_run(mille_bornes_v1, "winning-moves", 4, steps, seed, seen)
    digest = h.hexdigest()[:12]
    return lambda: (done, digest)


def _specialised(hands: int, seed: int) -> Played:
    from mbrules.engine import Game
    from mbrules.ruleset import load_ruleset

    sys.path.insert(0, str(HERE))
    from specialised_loop import play_hands

    n, _turns = play_hands(Game(load_ruleset("winning-moves"), 4), hands, seed)
    return lambda: (n, "-")


def child(what: str, scale: float) -> None:
    """One timed run of ``what`` in this process, printed as JSON (count, CPU seconds, hash)."""

    def job(seed: int, n: float) -> Played:
        k = max(1, int(n * scale))
        if what == "engine":
            return _matches("winning-moves", 4, ["random"], k, seed, per_hand=True)
        if what == "specialised":
            return _specialised(k, seed)
        if what == "express":
            return _matches("express", 3, ["random"], k, seed)
        if what == "asmodee":
            return _matches("asmodee-2014", 4, ["random"], k, seed)
        if what == "v1":
            return _v1(k, seed)
        return _matches("winning-moves", 2, ["expert"], k, seed)  # each action an expert's: a decision or a forced move

    sizes = {"engine": 1500, "specialised": 1500, "express": 600, "asmodee": 600, "v1": 15000, "expert": 1}
    if what != "expert":  # an expert's hand takes seconds: its own first decisions warm it up
        job(1, sizes[what] / 10)  # warm-up
    c0 = time.process_time()
    played = job(0, sizes[what])
    cpu = time.process_time() - c0
    n, digest = played()
    print(json.dumps({"n": n, "cpu": cpu, "hash": digest}))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument(
        "--base", action="append", default=[], help="[NAME=]DIR: a baseline tree (e.g. git worktree add /tmp/b 66b447d)"
    )
    ap.add_argument("--compiled-bases", action="store_true", help="run every base with a build compiled too (NAME-c)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", default=",".join(WORKLOADS))
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every workload's size")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.child, args.scale)
        return 0
    variants = [("pure", str(ROOT), None), ("compiled", str(ROOT), "require")]
    for i, spec in enumerate(args.base):
        name, _, where = spec.rpartition("=")
        name = name or ("base" if i == 0 else f"base{i + 1}")
        variants.append((name, str(Path(where).resolve()), None))
        if args.compiled_bases and (Path(where) / "build" / "compiled" / "manifest.json").exists():
            variants.append((f"{name}-c", str(Path(where).resolve()), "require"))
    rates: dict[tuple[str, str], list[float]] = {}
    hashes: dict[tuple[str, str], set[str]] = {}
    print("command:", " ".join([sys.executable, *sys.argv]))
    only = args.only.split(",")
    paired = "engine" in only and "specialised" in only
    spec = ("pure", str(ROOT), None)  # the hand-written loop, run by this tree
    for r in range(args.rounds):
        for what in only:
            if what == "specialised" and paired:
                continue  # run inside the engine's turn, below
            runs = [(what, v) for v in variants] if what != "specialised" else [(what, spec)]
            if what == "engine" and paired:
                # the loop right between the pure engine and the compiled one, so that each round's ratios are of
                # runs minutes apart at most (the machine's load moves between rounds); every other round the
                # order reversed, so neither side of a pair always runs first
                runs.insert(1, ("specialised", spec))
                if r % 2:
                    runs.reverse()
            for job, (name, root, mode) in runs:
                env = {k: v for k, v in os.environ.items() if k != "MBRULES_COMPILED"}
                env["PYTHONPATH"] = root
                if mode:
                    env["MBRULES_COMPILED"] = mode
                cmd = [sys.executable, str(Path(__file__).resolve()), "--child", job, "--scale", str(args.scale)]
                out = subprocess.run(cmd, env=env, cwd=root, capture_output=True, text=True, check=True).stdout
                m = json.loads(out.splitlines()[-1])
                rates.setdefault((job, name), []).append(m["n"] / m["cpu"])
                hashes.setdefault((job, name), set()).add(m["hash"])
        print(f"round {r + 1} done", flush=True)
    report(rates, hashes, [n for n, _r, _m in variants])
    return 0


def report(
    rates: dict[tuple[str, str], list[float]], hashes: dict[tuple[str, str], set[str]], names: list[str]
) -> None:
    """Per workload: each variant's median rate (and range), ratios of medians, and whether the games agree."""
    for what in WORKLOADS:
        mine = {name: rs for (w, name), rs in rates.items() if w == what}
        if not mine:
            continue
        med = {name: sorted(rs)[len(rs) // 2] for name, rs in mine.items()}
        line = "; ".join(f"{n} {med[n]:,.0f} ({min(rs):,.0f}..{max(rs):,.0f})" for n, rs in mine.items())
        print(f"{what}: per CPU-second, median (range) of {len(next(iter(mine.values())))}: {line}")
        if what != "specialised":
            same = len({h for (w, _n), hs in hashes.items() if w == what for h in hs}) == 1
            print(f"  same games in every variant and round: {'yes' if same else 'NO'}")
        bases = [n for n in names[2:] if not n.endswith("-c")]
        pairs = [("compiled", "pure")] + [(a, b) for b in bases for a in ("pure", "compiled")]
        pairs += [("compiled", f"{b}-c") for b in bases]
        for a, b in pairs:
            if a in med and b in med:
                print(f"  {a} / {b}: {med[a] / med[b]:.2f}")
    spec = rates.get(("specialised", "pure"))
    if spec:
        for name in names:
            e = rates.get(("engine", name))
            if e:
                print(f"engine ({name}) / hand-written loop, hands per CPU-second: {paired_ratio(e, spec)}")


def paired_ratio(engine: list[float], loop: list[float], resamples: int = 2000) -> str:
    """The engine's rate over the loop's, round by round (each round runs the two minutes apart at most): the
    median of the per-round ratios, their range, and a 90% bootstrap interval of that median (resampled rounds,
    a fixed seed: the same rates give the same line), with the number of rounds. A ratio of two medians taken
    over the whole run mixed rounds whose load differed (the loop and the engine ran minutes apart), so its
    spread was the two rates' spreads together."""
    import random

    ratios = [e / s for e, s in zip(engine, loop)]
    n = len(ratios)
    rng = random.Random(0)
    boot = sorted(median(rng.choices(ratios, k=n)) for _ in range(resamples))
    lo, hi = boot[int(0.05 * resamples)], boot[int(0.95 * resamples) - 1]
    return (
        f"{median(ratios):.2f}, the median of {n} rounds' ratios (range {min(ratios):.2f}..{max(ratios):.2f}; "
        f"90% bootstrap interval of the median {lo:.2f}..{hi:.2f}; "
        f"ratio of the medians {median(engine) / median(loop):.2f})"
    )


if __name__ == "__main__":
    sys.exit(main())
