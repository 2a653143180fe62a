"""OpenSpiel's ISMCTS against mbrules' bots, through the OpenSpiel game ``python_mille_bornes``.

ISMCTS (``open_spiel.python.algorithms.ismcts``, random-rollout evaluator) plays seat p1 in
even games and p2 in odd ones against a bundled bot (``random``, ``heuristic``); every chance
node is drawn from the game's ``chance_outcomes()`` with a seeded generator, so a run is
reproducible. Prints wins, draws, losses and ISMCTS's win rate with a 95% Wilson interval,
the resampling counters (how often a redraw had to be drawn again, or the true deal kept).

    python benchmarks/research/ismcts_vs_bots.py [--games 16] [--sims 40] [--ruleset kids-115]
                                        [--players 2] [--hands 0] [--opponents random,heuristic]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import mbrules.openspiel as mos
from mbrules.matches.ladder import wilson  # Wilson 95%, (0, 1) for n = 0
from mbrules.bots import make_bot


def play(game, opponent: str, seat: int, sims: int, seed: int) -> float:
    """One match: ISMCTS in ``seat``, ``opponent`` bots elsewhere; ISMCTS's return."""
    rs = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, sims, random_state=rs)
    redraw = random.Random(seed)  # OpenSpiel's default sampler is unseeded: ours makes a run reproducible
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, redraw))
    mb = game.mb
    others = {p: make_bot(opponent, mb, p, seed * 31 + p) for p in range(mb.players) if p != seat}
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            outs = s.chance_outcomes()
            s.apply_action(outs[rs.choice(len(outs), p=[pr for _, pr in outs])][0])
            continue
        p = s.current_player()
        if p == seat:
            s.apply_action(bot.step(s))
        else:
            st = s.mb_state  # the bot reads its own seat's observation only
            b = others[p]
            legal = st.legal_actions()
            a = b.choose(st.observation(p) if getattr(b, "observes", True) else None, legal)
            s.apply_action(game.space.index[int(a)])
    return s.returns()[seat]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--sims", type=int, default=40)
    ap.add_argument("--ruleset", default="kids-115")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--hands", type=int, default=0)
    ap.add_argument("--opponents", default="random,heuristic")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--draws",
        default="chance",
        choices=["chance", "player"],
        help="the game's draws parameter (docs/bots.md's figures: player, the earlier form)",
    )
    args = ap.parse_args(argv)
    print("command:", " ".join([sys.executable, *sys.argv]) if argv is None else " ".join(argv), flush=True)
    game = pyspiel.load_game(
        mos.SHORT_NAME, {"ruleset": args.ruleset, "players": args.players, "hands": args.hands, "draws": args.draws}
    )
    for opp in args.opponents.split(","):
        w = d = l = 0
        t0 = time.perf_counter()
        for i in range(args.games):
            r = play(game, opp, i % args.players, args.sims, args.seed * 1000 + i)
            w, d, l = w + (r > 0), d + (r == 0), l + (r < 0)
        lo, hi = wilson(w, args.games)
        print(
            f"ISMCTS({args.sims} sims) vs {opp}: {w} won, {d} drawn, {l} lost of {args.games} "
            f"({args.ruleset}, {args.players} players, seeds {args.seed * 1000}..{args.seed * 1000 + args.games - 1}); "
            f"win rate {w / args.games:.2f}, 95% Wilson CI [{lo:.2f}, {hi:.2f}]; "
            f"{time.perf_counter() - t0:.0f} s",
            flush=True,
        )
    print("resampling:", mos.RESAMPLE_STATS, flush=True)


if __name__ == "__main__":
    main()
