"""``learned``: a one-ply search over its own actions with a value learned from self-play at the leaves.

At every real choice (a turn's play or discard, a coup fourré or fast-play window, the extension
question) the bot:

1. deals ``worlds`` worlds of the cards it has not seen, consistently with its observation
   (:func:`mbrules.engine.determinize.determinize`), the same worlds for every candidate;
2. applies each legal action in each world and lets the table answer it: an opponent holding a
   safety against the hazard just played calls its coup fourré (the table's only reply that depends
   on hidden cards); a question that comes back to the bot itself (the extension question after its
   trip, a window it opened) is answered by the same search, one level down, taking the better answer;
3. values the position reached: exactly when the hand has ended (its point difference for our side,
   plus or minus a win bonus when it ends the match: :func:`mbrules.bots.expert.hand_value`), else by
   the learned value V(observation) of :mod:`mbrules.bots.value_model` (the hand's expected point
   difference, fitted on self-play outcomes by ``mbrules train``);
4. plays the candidate of highest mean value over the worlds (ties: the first legal one).

An action whose outcome cannot depend on hidden cards (anything but a hazard played on another side)
reaches the same observation in every world, so it is valued in the first world only: the same value
the other worlds would give, for less work.

A draw that is a choice (``draw-from-discard``, ``mulligan``) is the heuristic's
(:meth:`HeuristicBot._draw_choice <mbrules.bots.heuristic.HeuristicBot._draw_choice>`): not valued.

The house rules of issue 35 bring no feature the model cannot read: the model is fitted to one
resolved ruleset (its digest: options included) at one player count, and the features are computed
from the observation with that ruleset's cards (:mod:`mbrules.bots.features`). A ruleset with options
therefore has no shipped model: the bot trains one on first use for exactly those rules (or takes
``model=FILE``), and a model made for other rules is refused with a sentence, never read with features
it was not fitted on. What the features do not show (a stack of hazards below the one showing, a
queued turn, which card tops the discard pile) is left to the heuristic's candidates and to the
positions the look-ahead reaches.

What it knows: its observation only. V reads features of the bot's own observation (its hand, the
table, unseen cards counted by kind, the score: :mod:`mbrules.bots.features`); the worlds are dealt
from the observation alone. ``tests/bots/test_bot_fairness.py`` deals a position's unseen cards
otherwise and checks the decision does not change.

Its model: ``learned:model=FILE`` (a file written by ``mbrules train``), else the one shipped for a
bundled ruleset at that player count, else one trained on first use for this ruleset (a few hundred
self-play matches, needs the ``learn`` extra) and cached under ``~/.cache/mbrules/learned`` (or
``$MBRULES_CACHE``). A model trained for other rules is refused, with a sentence.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from .._paths import install_hint
from ..engine import Action, Game, Observation, State
from ..engine.determinize import determinize
from ..vocab import COUP_FOURRE, DECLINE, DRAW, EXTEND, FAST_PLAY, HAZARD, PLAY, STOP, DecisionKind
from .base import UnknownBot, register
from .expert import hand_value
from .features import Featurizer
from .heuristic import HeuristicBot
from .value_model import (
    ModelError,
    ValueModel,
    bundled_model_path,
    cached_model_path,
    load_model,
    ruleset_digest,
    uses_hand,
    write_model,
)

DEFAULT_WORLDS = 8
DEFAULT_WIDTH = 1  # the heuristic's best candidates at a turn (0: every legal action); 1: its own play (docs/bots.md)
DEFAULT_MARGIN = 0  # points by which a candidate's value must beat the heuristic's choice to be played
FIRST_USE_GAMES = 300  # self-play matches of a model trained on first use
DEFAULT_PLIES = 0  # turns played on by the heuristic in each world before the value is read
MAX_LOOKAHEAD_ACTIONS = 400
MAX_SETTLE = 16  # table answers followed after a candidate (coups fourrés; the hand is far shorter)


# models trained on first use in this process, by (ruleset digest, players): a model is trained at most
# once a process even when the cache cannot keep it (worker processes forked later inherit it)
_TRAINED: dict[tuple[str, int], ValueModel] = {}


def _cache_problem(folder: Path) -> str | None:
    """Why the model cache ``folder`` cannot keep a model (None: it can): made if missing, then checked."""
    import os

    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return (e.strerror or str(e)).lower()
    if not folder.is_dir():
        return "not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return "permission denied"
    return None


def model_for(game: Game, model: str | None = None, train_if_missing: bool = True) -> ValueModel:
    """The value model the bot uses for ``game`` (see the module's text); :class:`ModelError` if none."""
    if model is not None:
        return load_model(model, game)
    p = bundled_model_path(game)
    if p is not None:
        return load_model(p, game)
    key = (ruleset_digest(game), game.players)
    if key in _TRAINED:
        return _TRAINED[key]
    cached = cached_model_path(game)
    if cached.is_file():
        try:
            return load_model(cached, game)
        except ModelError:
            pass  # made by another version: trained again below
    if not train_if_missing:
        raise ModelError(f"no model for {game.ruleset_id} at {game.players} players")
    try:
        from .training import FIRST_USE_KIND, train
        import sklearn  # noqa: F401
    except ImportError:
        raise ModelError(
            f"the learned bot has no model for {game.ruleset_id} at {game.players} players; training one on first use "
            f"needs scikit-learn ({install_hint('learn')}), or give one: --bot learned:model=FILE "
            "(made by mbrules train)"
        ) from None
    problem = _cache_problem(cached.parent)
    if problem is None:
        kept = f"kept in {cached}"
    else:
        kept = (
            f"the model cache {cached.parent} is not writable ({problem}): the model is kept in memory for "
            "this run only; set MBRULES_CACHE to a writable folder to keep it"
        )
    print(
        f"learned: training a value model for {game.ruleset_id} at {game.players} players "
        f"({FIRST_USE_GAMES} self-play matches, once; {kept})",
        file=sys.stderr,
    )
    doc = train(game, games=FIRST_USE_GAMES, seed=0, kind=FIRST_USE_KIND)
    value = ValueModel(doc, "the model trained on first use")
    _TRAINED[key] = value
    if problem is None:
        try:
            write_model(doc, cached)
        except OSError as e:
            print(
                f"learned: could not keep the model in {cached} ({e.strerror or e}); it is kept in memory "
                "for this run only",
                file=sys.stderr,
            )
    return value


def _check(game: Game, params: dict[str, Any]) -> None:
    """Called by :func:`mbrules.bots.check_bot` with the game: the model is found (or trained) and fits it."""
    try:
        model_for(game, params.get("model"))
    except ModelError as e:
        raise UnknownBot(f"bot 'learned': {e}") from None


@register(
    "learned",
    "a one-ply search over its own actions with a value learned from self-play (mbrules train) at the leaves, "
    "over sampled worlds of the unseen cards; parameters worlds (sampled worlds a decision, default 8), "
    "model (a model file made by mbrules train; default: the one shipped for the ruleset, or one trained on first use), "
    "width (the heuristic's best candidates searched at a turn; default 1: its own play there, the value deciding "
    "coup fourré windows and the extension question; 0: every legal action)",
    params={
        "worlds": (int, 1, 256),
        "model": (str, 1, 180),
        "width": (int, 0, 64),
        "margin": (int, 0, 100_000),
        "plies": (int, 0, 8),
    },
    check=_check,
)
class LearnedBot:
    observes = True

    def __init__(
        self,
        game: Game,
        player: int,
        rng: random.Random,
        worlds: int = DEFAULT_WORLDS,
        model: str | None = None,
        width: int = DEFAULT_WIDTH,
        margin: int = DEFAULT_MARGIN,
        plies: int = DEFAULT_PLIES,
        value: ValueModel | None = None,
    ):
        self.game = game
        self.player = player
        self.side = game.side_of[player]
        self.rng = rng
        self.worlds = worlds
        self.width = width
        self.margin = float(margin)
        # the heuristic orders the candidates and is the default; it has its own stream
        self.heuristic = HeuristicBot(game, player, random.Random(rng.getrandbits(64)))
        self.plies = plies
        # the look-ahead's policy: the heuristic in every seat of the imagined world
        self.sim_bots = [HeuristicBot(game, p, random.Random(0)) for p in range(game.players)]
        self.model = value if value is not None else model_for(game, model)
        self.features = Featurizer(game, uses_hand(self.model.features))
        self.value = self.model.value

    def choose(self, obs: Observation, legal_actions: list[Action]) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        if legal_actions[0].op == DRAW:
            return self.heuristic.choose(obs, legal_actions)  # a draw that is a choice: the heuristic's (see above)
        g = self.game
        op = legal_actions[0].op
        if op == EXTEND or op == STOP or op == COUP_FOURRE or op == FAST_PLAY or op == DECLINE:
            first = self.heuristic.choose(obs, legal_actions)
            candidates = [first] + [a for a in legal_actions if a != first]
        else:
            candidates = self.heuristic.rank(obs, legal_actions)
            if self.width:
                candidates = candidates[: self.width]
        if len(candidates) == 1:
            return candidates[0]
        rng = self.rng
        worlds = [self._world(obs, rng) for _ in range(self.worlds)]
        seeds = [rng.getrandbits(32) for _ in worlds]
        plies = self.plies
        values = []
        for a in candidates:
            hidden = plies or (a.op == PLAY and g.kind[a.card_index] == HAZARD and a.side_index != self.side)
            ws = worlds if hidden else worlds[:1]
            v = 0.0
            for w, seed in zip(ws, seeds):
                st = w.clone()
                st.apply(a)
                if plies:
                    v += self._lookahead(st, seed)
                else:
                    v += self._leaf(st, 0)
            values.append(v / len(ws))
        # the heuristic's choice unless another candidate's value beats it by the margin
        best, best_v = 0, values[0] + self.margin
        for i in range(1, len(candidates)):
            if values[i] > best_v:
                best, best_v = i, values[i]
        return candidates[best]

    def _world(self, obs: Observation, rng: random.Random) -> State:
        """One world of the unseen cards, dealt from the observation alone (a measurement's subclass
        that is told hidden cards, ``benchmarks/bench_learned.py clairvoyance``, overrides it)."""
        return determinize(obs, rng)

    def _lookahead(self, st: State, seed: int) -> float:
        """The world played on for ``plies`` turns by the heuristic in every seat (the same luck for
        every candidate: the seats' streams are seeded alike), then valued."""
        me = self.player
        bots = self.sim_bots
        for p, b in enumerate(bots):
            b.rng.seed(seed + p)
        turns = 0
        for _ in range(MAX_LOOKAHEAD_ACTIONS):
            acts = st.legal_actions()
            if not acts:
                return self._terminal(st)
            d = st.decision
            if d.kind == DecisionKind.TURN and not d.drawn:
                if turns >= self.plies and d.player == me:
                    break
                turns += 1
                if turns > self.plies + 1:
                    break
            if len(acts) == 1:
                st.apply(acts[0])
                continue
            p = st.current_player
            st.apply(bots[p].choose(st.observation(p), acts))
        return self.value(self.features(st.observation(me)))

    def _leaf(self, st: State, depth: int) -> float:
        """The value for our side of the position ``st`` reached, once the table has answered."""
        me = self.player
        for _ in range(MAX_SETTLE):
            acts = st.legal_actions()
            if not acts:
                return self._terminal(st)
            d = st.decision
            p = st.current_player
            if (
                d.kind == DecisionKind.COUP_FOURRE
                or d.kind == DecisionKind.FAST_PLAY
                or d.kind == DecisionKind.EXTENSION
            ):
                if p == me:
                    if depth > 0:
                        break
                    best = float("-inf")
                    for a in acts:
                        s2 = st.clone()
                        s2.apply(a)
                        best = max(best, self._leaf(s2, depth + 1))
                    return best
                if d.kind == DecisionKind.COUP_FOURRE or d.kind == DecisionKind.FAST_PLAY:
                    # the holder calls it (a coup fourré, a fast play, is worth it)
                    st.apply(next((a for a in acts if a.op == COUP_FOURRE or a.op == FAST_PLAY), acts[0]))
                    continue
            break
        return self.value(self.features(st.observation(me)))

    def _terminal(self, st: State) -> float:
        g = self.game
        if g.scoring_enabled:
            totals = [line["total"] for line in st.score_sheet()]
        else:
            totals = [v.miles for v in st.observation(self.player).sides]
        return hand_value(g, totals, self.side, st.outcome)
