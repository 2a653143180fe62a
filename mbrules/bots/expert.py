"""``expert``: perfect-information Monte Carlo (PIMC) search over the hidden cards.

At every real choice (a turn's play or discard, a coup fourré or fast-play window, the extension
question) the bot:

1. keeps the heuristic's best few candidates (``width``, default 3; both answers of a coup
   fourré window or the extension question), so the search spends its play-outs where they
   can matter;
2. deals the cards it has not seen at random, consistently with its observation
   (:func:`mbrules.engine.determinize.determinize`: the unseen cards, exactly as many in
   each other hand and in the draw pile as the table shows): one world;
3. in each world, plays each candidate and then the rest of the hand with the heuristic in
   every seat (``greedy=1``: a fast greedy policy, :func:`mbrules.bots.playout.rollout`),
   the same play-out seed for every candidate of a world (common random numbers: the
   candidates are compared on the same luck);
4. scores a play-out by the hand's points: our side's total less the best other side's
   (the miles when the ruleset keeps no score), plus the match's result when the hand ends it;
5. with ``drop`` set, looks at the candidates every 8 worlds from the 16th and plays out no
   further one that trails the heuristic's choice by ``drop / 10`` standard errors or never
   differs from it; the search ends when none is left or the budget is spent;
6. plays another candidate than the heuristic's choice only when it beats it in the paired
   comparison by ``z / 10`` standard errors (the best such), else the heuristic's choice.

A draw that is a choice (``draw-from-discard``: the pile or the discard pile's top; ``mulligan``:
a mulligan or not, and which cards to throw) is the heuristic's, not searched: see
:meth:`HeuristicBot._draw_choice <mbrules.bots.heuristic.HeuristicBot._draw_choice>`.

What it knows: its observation only (its hand, the table, the discard pile, the counts of
cards in each hand and in the draw pile, the score). What it must never see: the other hands,
the draw order, the match's RNG, ``State.snapshot()`` or any private field of the real state.
It is handed an :class:`~mbrules.engine.Observation`, never a state, so it cannot; the test
``tests/bots/test_bot_fairness.py`` deals the unseen cards of a position differently and checks
the decision does not change.

Budget: ``--bot expert:budget=N`` is the most play-outs a decision (worlds × candidates; default
96, about 40 ms of CPU a decision on one core of the reference machine, see
``benchmarks/bench_bots.py speed``); without ``drop`` the search always spends it all. Work, not
wall time, so a seed gives the same game everywhere.

How much the search adds is measured, not assumed (docs/bots.md): the play-outs'
outcomes swing with the cards still to come far more than the candidates differ, so a candidate
replaces the heuristic's choice only when it wins the paired comparison by ``z / 10`` standard
errors; trusting the best mean (``z=0``) makes worse decisions than the heuristic's, measured on
positions whose real hidden cards are known (``benchmarks/research/bench_search.py``).
"""

from __future__ import annotations

import math
import random

from ..engine import Action, Game, Observation, Outcome, State
from ..engine.determinize import determinize
from mbrules.vocab import COUP_FOURRE, DECLINE, DRAW, EXTEND, FAST_PLAY, STOP, Termination
from .base import register
from .heuristic import HeuristicBot
from .playout import rollout

DEFAULT_BUDGET = 96
DEFAULT_WIDTH = 3
DEFAULT_Z = 20  # tenths of a standard error by which a candidate must beat the default to be played
DEFAULT_DROP = None  # tenths of a standard error: a candidate this far behind the default is dropped; None: never
BATCH_WORLDS = 8  # worlds dealt between two looks at the candidates
MIN_WORLDS = 16  # worlds dealt before a candidate may be dropped
MAX_PLAYOUT_ACTIONS = 5000  # a hand is far shorter (the deck bounds it); this only guards a malformed world


@register(
    "expert",
    "PIMC search: samples the unseen cards many times and plays each good candidate out; "
    "parameters budget (the most play-outs a decision, default 96), width (candidates, default 3), z (tenths of a "
    "standard error a candidate must win by to replace the heuristic's choice, default 20), drop (tenths of a "
    "standard error behind the heuristic's choice at which a candidate is played out no further; default: "
    "never), greedy=1 (fast greedy play-outs instead of the heuristic)",
    params={
        "budget": (int, 1, 100_000),
        "width": (int, 1, 64),
        "greedy": (int, 0, 1),
        "z": (int, 0, 100),
        "drop": (int, -100, 100),
    },
    # its matches cost seconds; on compare's ladder at a small budget (about 0.5 s of CPU a 4-player match of
    # winning-moves against 7 ms for the heuristic), so it is affordable on a subset of the pairs; the
    # strongest bot that gives hints
    slow=True,
    ladder=2,
    ladder_spec="expert:budget=4,width=2",
    hints=2,
)
class ExpertBot:
    observes = True

    def __init__(
        self,
        game: Game,
        player: int,
        rng: random.Random,
        budget: int = DEFAULT_BUDGET,
        width: int = DEFAULT_WIDTH,
        greedy: int = 0,
        z: int = DEFAULT_Z,
        drop: int | None = DEFAULT_DROP,
        known: dict[int, list[int]] | None = None,
    ):
        self.game = game
        self.player = player
        self.side = game.side_of[player]
        self.rng = rng
        self.budget = budget
        self.width = width
        # The heuristic orders the candidates and breaks ties; it has its own stream.
        self.heuristic = HeuristicBot(game, player, random.Random(rng.getrandbits(64)))
        self.greedy = bool(greedy)
        # cards known in other hands (player -> cards):
        # never set by make_bot, so a fair bot has none; benchmarks/research/bench_search.py measures with them
        self.known = known
        self.confidence = z / 10.0
        self.drop = None if drop is None else drop / 10.0
        # The play-out policy: the heuristic for every seat of the imagined world, each with its own stream.
        self.sim_bots = [HeuristicBot(game, p, random.Random(0)) for p in range(game.players)]
        g = game
        self.scoring = g.scoring_enabled

    def choose(self, obs: Observation, legal_actions: list[Action]) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        op = legal_actions[0].op
        if op == DRAW:
            # a draw that is a choice (draw-from-discard, mulligan, a mulligan under way): the heuristic's
            # answer, not searched (what the draw pile gives is the very luck the worlds sample)
            return self.heuristic.choose(obs, legal_actions)
        if op == EXTEND or op == STOP or op == COUP_FOURRE or op == FAST_PLAY or op == DECLINE:
            # the heuristic's answer first: the search must show the other is better to play it
            first = self.heuristic.choose(obs, legal_actions)
            candidates = [first] + [a for a in legal_actions if a != first]
        else:
            candidates = self.heuristic.rank(obs, legal_actions)[: self.width]
        if len(candidates) == 1:
            return candidates[0]
        k = len(candidates)
        max_worlds = max(2, self.budget // k)
        # diffs[i][w]: candidate i's play-out value less the default's (candidate 0) in world w: the same
        # world and luck for both (common random numbers), so the noise they share cancels
        diffs: list[list[float]] = [[] for _ in range(k)]
        live = list(range(1, k))
        rng = self.rng
        known = self.known
        n = 0
        while live and n < max_worlds:
            for _ in range(min(BATCH_WORLDS, max_worlds - n)):
                world = determinize(obs, rng, known)
                seed = rng.getrandbits(32)
                v0 = self._play(world, candidates[0], seed)
                for i in live:
                    diffs[i].append(self._play(world, candidates[i], seed) - v0)
                n += 1
            if self.drop is not None and n >= MIN_WORLDS:
                # a candidate already behind the default by ``drop`` standard errors, or never different
                # from it, is played out no further: the play-outs go to the ones still in doubt, and
                # the search stops when none is left
                live = [i for i in live if paired_t(diffs[i]) > self.drop and any(diffs[i])]
        return candidates[self._decide(diffs, live)]

    def _decide(self, diffs: list[list[float]], live: list[int]) -> int:
        """The candidate to play: the default (index 0, the heuristic's choice, or the first legal
        answer) unless a ``live`` one beats it in the paired comparison by ``z / 10`` standard errors
        (``diffs[i]``: candidate i's play-out values less the default's, world by world).
        ``benchmarks/research/bench_search.py budget`` replays it offline.

        The play-outs are noisy; a candidate that only looks better by chance would make the bot
        worse than the heuristic it starts from. Paired differences (same world, same luck) keep
        the noise small."""
        best, best_t = 0, self.confidence
        for i in live:
            t = paired_t(diffs[i])
            # equal t (two never-varying leads over the default): the later one, if it leads
            if t > best_t or (t == best_t and best and sum(diffs[i]) > 0):
                best, best_t = i, t
        return best

    def _play(self, world: State, action: Action, seed: int) -> float:
        """``action`` played in a copy of ``world``, then the hand played out: its value to our side."""
        st = world.clone()
        st.apply(action)
        if self.greedy:
            rollout(st, random.Random(seed))
        else:
            self._playout(st, seed)
        return self._value(st)

    def _playout(self, st: State, seed: int) -> None:
        """Play the imagined hand to its end, every seat played by the heuristic (public API only)."""
        bots = self.sim_bots
        for p, b in enumerate(bots):
            b.rng.seed(seed + p)
        legal = st.legal_actions
        apply = st.step  # a play-out reads no transition
        for _ in range(MAX_PLAYOUT_ACTIONS):
            acts = legal()
            if not acts:
                return  # the hand is over
            if len(acts) == 1:
                apply(acts[0])
                continue
            p = st.current_player
            apply(bots[p].choose(st.observation(p), acts))

    def _value(self, st: State) -> float:
        """Our side's lead at the hand's end, in points (miles when the ruleset keeps no score)."""
        if self.scoring:
            totals = [line["total"] for line in st.score_sheet()]
        else:
            totals = [v.miles for v in st.observation(self.player).sides]
        return hand_value(self.game, totals, self.side, st.outcome)


def paired_t(d: list[float]) -> float:
    """Paired differences' mean in standard errors (infinite when they never vary and are not 0)."""
    n = len(d)
    if n < 2:
        return 0.0
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    if var > 0:
        return mean / math.sqrt(var / n)
    return math.inf if mean > 0 else (-math.inf if mean < 0 else 0.0)


def hand_value(game: Game, totals: list[int], side: int, outcome: Outcome | None) -> float:
    """A finished hand's worth to ``side``: its total less the best other side's, plus or minus a
    win bonus (twice the trip bonus; twice the trip when the ruleset keeps no score) when the hand
    ended the match."""
    v = float(totals[side] - max((t for s, t in enumerate(totals) if s != side), default=0))  # one side: its total
    if outcome is not None and outcome.termination != Termination.UNFINISHED:
        bonus = 2 * max(game.scoring_trip_completed, 1) if game.scoring_enabled else 2 * game.target
        v += bonus if outcome.winner_index == side else -bonus
    return v
