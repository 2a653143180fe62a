"""``expert``: perfect-information Monte Carlo (PIMC) search over the hidden cards.

At every real choice (a turn's play or discard, a coup fourré window, the extension
question) the bot:

1. keeps the heuristic's best few candidates (``width``, default 3; every legal action when
   there are no more), so the search spends its play-outs where they can matter;
2. samples ``worlds`` deals of the cards it has not seen, consistent with its observation
   (:func:`mbrules.engine.determinize.determinize`: the unseen cards, exactly as many in
   each other hand and in the draw pile as the table shows);
3. in each world, plays each candidate and then the rest of the hand with a fast greedy
   policy (:func:`mbrules.engine.determinize.rollout`), the same play-out seed for every
   candidate of a world (common random numbers: the candidates are compared on the same luck);
4. scores a play-out by the hand's points: our side's total less the best other side's
   (the miles when the ruleset keeps no score), plus the match's result when the hand ends it;
5. plays the candidate with the best mean, the heuristic's order breaking ties.

What it knows: its observation only (its hand, the table, the discard pile, the counts of
cards in each hand and in the draw pile, the score). What it must never see: the other hands,
the draw order, the match's RNG, ``State.snapshot()`` or any private field of the real state.
It is handed an :class:`~mbrules.engine.Observation`, never a state, so it cannot; the test
``tests/bots/test_fairness.py`` deals the unseen cards of a position differently and checks
the decision does not change.

Budget: ``--bot expert:budget=N`` is the number of play-outs per decision (worlds × candidates;
default 96, about 45 ms of CPU a decision on one core of the reference machine, see
``benchmarks/bench_bots.py speed``). Work, not wall time, so a seed gives the same game everywhere.

How much the search adds is measured, not assumed (the README's Bots section): the play-outs'
outcomes swing with the cards still to come far more than the candidates differ, so a candidate
replaces the heuristic's choice only when it wins the paired comparison by ``z / 10`` standard
errors; trusting the best mean (``z=0``) makes worse decisions than the heuristic's, measured on
positions whose real hidden cards are known (``benchmarks/bench_search.py``).
"""

from __future__ import annotations

import math
import random

from ..engine import Action, Game, Observation
from ..engine.determinize import determinize, rollout
from ..engine.notation import COUP_FOURRE, DECLINE, DRAW, EXTEND, STOP
from .base import register
from .heuristic import HeuristicBot

DEFAULT_BUDGET = 96
DEFAULT_WIDTH = 3
DEFAULT_Z = 20  # tenths of a standard error by which a candidate must beat the default to be played
MAX_PLAYOUT_ACTIONS = 5000  # a hand is far shorter (the deck bounds it); this only guards a malformed world


@register(
    "expert",
    "PIMC search: samples the unseen cards many times and plays each good candidate out; "
    "parameters budget (play-outs a decision, default 96), width (candidates, default 3), z (tenths of a "
    "standard error a candidate must win by to replace the heuristic's choice, default 20), greedy=1 (fast "
    "greedy play-outs instead of the heuristic)",
    params={"budget": (int, 1, 100_000), "width": (int, 1, 64), "greedy": (int, 0, 1), "z": (int, 0, 100)},
)
class ExpertBot:
    observes = True

    def __init__(self, game: Game, player: int, rng: random.Random, budget: int = DEFAULT_BUDGET,
                 width: int = DEFAULT_WIDTH, greedy: int = 0, z: int = DEFAULT_Z, known=None):
        self.game = game
        self.player = player
        self.side = game.side_of[player]
        self.rng = rng
        self.budget = budget
        self.width = width
        # The heuristic orders the candidates and breaks ties; it has its own stream.
        self.heuristic = HeuristicBot(game, player, random.Random(rng.getrandbits(64)))
        self.greedy = bool(greedy)
        # cards known in other hands (player -> cards, or a callable of the observation giving that):
        # never set by make_bot, so a fair bot has none; benchmarks/bench_search.py measures with them
        self.known = known
        self.confidence = z / 10.0
        # The play-out policy: the heuristic for every seat of the imagined world, each with its own stream.
        self.sim_bots = [HeuristicBot(game, p, random.Random(0)) for p in range(game.players)]
        g = game
        self.scoring = g.scoring_enabled

    def choose(self, obs: Observation, legal_actions: list[Action]) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        op = legal_actions[0].op
        if op == DRAW:
            return legal_actions[0]
        if op == EXTEND or op == STOP or op == COUP_FOURRE or op == DECLINE:
            # the heuristic's answer first: the search must show the other is better to play it
            first = self.heuristic.choose(obs, legal_actions)
            candidates = [first] + [a for a in legal_actions if a != first]
        else:
            candidates = self.heuristic.rank(obs, legal_actions)[: self.width]
        if len(candidates) == 1:
            return candidates[0]
        k = len(candidates)
        worlds = max(2, self.budget // k)
        # values[w][i]: candidate i's play-out value in world w (the same world and luck for all i)
        values = []
        rng = self.rng
        for _ in range(worlds):
            world = determinize(obs, rng, self.known(obs) if callable(self.known) else self.known)
            seed = rng.getrandbits(32)
            row = []
            for a in candidates:
                st = world.clone()
                st.apply(a)
                if self.greedy:
                    rollout(st, random.Random(seed))
                else:
                    self._playout(st, seed)
                row.append(self._value(st))
            values.append(row)
        return candidates[self._pick(values, k, worlds)]

    def _pick(self, values: list[list[float]], k: int, worlds: int) -> int:
        """The candidate to play: the default (index 0, the heuristic's choice, or the first legal
        answer) unless another beats it in the paired comparison by ``z / 10`` standard errors.

        The play-outs are noisy; a candidate that only looks better by chance would make the bot
        worse than the heuristic it starts from. Paired differences (same world, same luck) keep
        the noise small."""
        best, best_t = 0, self.confidence
        for i in range(1, k):
            d = [row[i] - row[0] for row in values]
            mean = sum(d) / worlds
            var = sum((x - mean) ** 2 for x in d) / (worlds - 1)
            se = math.sqrt(var / worlds)
            t = mean / se if se > 0 else (math.inf if mean > 0 else 0.0)
            if t > best_t or (t == best_t and best and mean > 0):
                best, best_t = i, t
        return best

    def _playout(self, st, seed: int) -> None:
        """Play the imagined hand to its end, every seat played by the heuristic (public API only)."""
        bots = self.sim_bots
        for p, b in enumerate(bots):
            b.rng.seed(seed + p)
        legal = st.legal_actions
        apply = st.apply
        for _ in range(MAX_PLAYOUT_ACTIONS):
            acts = legal()
            if not acts:
                return  # the hand is over
            if len(acts) == 1:
                apply(acts[0])
                continue
            p = st.current_player
            apply(bots[p].choose(st.observation(p), acts))

    def _value(self, st) -> float:
        """Our side's lead at the hand's end, in points (miles when the ruleset keeps no score)."""
        if self.scoring:
            totals = [line["total"] for line in st.score_sheet()]
        else:
            totals = [v.miles for v in st.observation(self.player).sides]
        return hand_value(self.game, totals, self.side, st.outcome)


def hand_value(game: Game, totals: list[int], side: int, outcome) -> float:
    """A finished hand's worth to ``side``: its total less the best other side's, plus or minus a
    win bonus (twice the trip bonus; twice the trip when the ruleset keeps no score) when the hand
    ended the match."""
    v = float(totals[side] - max(t for s, t in enumerate(totals) if s != side))
    if outcome is not None and outcome.termination != "unfinished":
        bonus = 2 * max(game.pts_trip, 1) if game.scoring_enabled else 2 * game.target
        v += bonus if outcome.winner_index == side else -bonus
    return v
