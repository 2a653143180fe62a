"""Training the ``learned`` bot's value: self-play, Monte Carlo targets, a fit with scikit-learn.

1. Self-play: whole matches of ``game`` between policy bots (the heuristic by default; a bot takes a
   uniformly random legal action with probability ``explore``, so the value sees other lines than
   the policy's), each match dealt from ``(seed, i)``.
2. Positions: at the start of every turn (before its draw), each player's observation is kept with
   probability ``sample``: for the player who just acted it is the position its decision led to
   (an afterstate: what the bot's search evaluates). Its features come from the observation only.
   Memory is bounded: at most ``max_positions`` positions are kept (a numpy array, 8 bytes a feature),
   beyond that a uniform sample of all of them (a reservoir, seeded from the run's seed), put back in
   the order they were played; under the limit every position is kept, as before.
3. Targets: each kept position is labelled with the value of the hand's end for its side (the
   hand's point difference, plus or minus a win bonus when the hand ends the match:
   :func:`mbrules.bots.expert.hand_value`): a Monte Carlo return, no bootstrapping.
4. Fit: a ridge regression on standardized features (``linear``) or a small ReLU network
   (``mlp``), both scikit-learn (the optional extra ``learn``), exported as plain numbers into a
   model file that records the ruleset it was trained for (:mod:`mbrules.bots.value_model`).

Everything is seeded: the same game, seed and settings give the same model file, byte for byte, on
the same versions of the libraries.
"""

from __future__ import annotations

import hashlib
import random
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any, Callable, ContextManager, Iterable, Sequence

from .._paths import install_hint
from ..engine import Action, Game, Observation, State
from ..seats import HAND_OVER, SeatLoop
from ..vocab import DecisionKind
from .base import Bot, make_bot
from .expert import hand_value
from .features import Featurizer
from .value_model import FORMAT, VERSION, ModelDoc, ruleset_digest

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray

    Floats = NDArray[np.float64]

DEFAULT_GAMES = 400
DEFAULT_SAMPLE = 0.5
DEFAULT_EXPLORE = 0.03
DEFAULT_KIND = "linear"
TREES = 200  # boosting rounds of a ``trees`` value
TREE_LEAVES = 31  # leaves of each tree
DEFAULT_HAND = False  # features of the table only (see docs/bots.md: hand features made the search discard)
FIRST_USE_KIND = "linear"  # a model trained by the bot on first use for a custom ruleset
MAX_POSITIONS = 250_000  # positions kept for the fit (about 160 MB at 2 players); a uniform sample beyond
MAX_POSITIONS_LIMIT = 2_000_000  # the most ``--max-positions`` may ask for


FIT_COPIES = 3  # the kept positions' array at the fit's peak: itself, standardized, and the solver's copy
# (measured: a linear or mlp fit of a 83 MB array raised the peak RSS by 163 to 170 MB, about two more copies)


def fit_bytes(game: Game, max_positions: int, hand: bool = DEFAULT_HAND) -> int:
    """About the most memory the positions need, at the fit's peak, when ``max_positions`` are kept (8 bytes a
    feature, :data:`FIT_COPIES` copies): the figure ``mbrules train`` compares with the memory available."""
    return max_positions * len(Featurizer(game, hand).names) * 8 * FIT_COPIES


def available_memory() -> int | None:
    """The memory the system can give now, in bytes (Linux: /proc/meminfo MemAvailable; else the free
    physical pages), or None where it cannot be told."""
    import os

    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


class TrainingStopped(Exception):
    """``should_stop()`` became true: the training was abandoned, nothing written."""


def match_seed(seed: int, i: int) -> int:
    digest = hashlib.sha256(f"mbrules:{seed}:learn:{i}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def hand_values(game: Game, st: State) -> list[float]:
    """Each side's value of the hand that just ended in ``st`` (points; miles when no score is kept)."""
    if game.scoring_enabled:
        totals = [line["total"] for line in st.score_sheet()]
    else:
        totals = [v.miles for v in st.observation(0).sides]
    out = st.outcome if st.is_terminal() else None
    return [hand_value(game, totals, s, out) for s in range(game.sides)]


class ExploringSeat:
    """A policy bot that takes a uniformly random legal action with probability ``explore`` (from
    the training's own ``rng``, so the bot's stream is the bot's alone)."""

    def __init__(self, bot: Bot, rng: random.Random, explore: float):
        self.bot, self.rng, self.explore = bot, rng, explore

    def decide(self, observation: Observation | None, legal: list[Action]) -> Action | None:
        rng = self.rng
        if rng.random() < self.explore:
            return legal[rng.randrange(len(legal))]
        return self.bot.choose(observation, legal)


def self_play(
    game: Game,
    games: int,
    seed: int,
    policy: Sequence[str] = ("heuristic",),
    sample: float = DEFAULT_SAMPLE,
    explore: float = DEFAULT_EXPLORE,
    progress: Callable[[int], None] | None = None,
    should_stop: Callable[[], object] | None = None,
    hand: bool = True,
    max_positions: int = MAX_POSITIONS,
) -> tuple[NDArray[np.float64], NDArray[np.float64], int]:
    """Feature rows and Monte Carlo targets from ``games`` self-play matches (see the module's text):
    ``(X, y, seen)``, numpy arrays of at most ``max_positions`` rows in the order they were played,
    and the number of positions seen."""
    try:
        import numpy  # noqa: F401  (the positions' arrays: refused here, before any match, without it)
    except ImportError:
        raise RuntimeError(f"training needs scikit-learn: {install_hint('learn')}") from None
    if max_positions < 1:
        raise ValueError("max_positions must be at least 1")
    feat = Featurizer(game, hand)
    kept = _Reservoir(len(feat.names), max_positions, random.Random(f"{seed}:learn:reservoir"))
    names = list(policy)
    if len(names) == 1:
        names = names * game.players
    for i in range(games):
        if should_stop is not None and should_stop():
            raise TrainingStopped
        s = match_seed(seed, i)
        rng = random.Random(f"{s}:learn")
        seats = [ExploringSeat(make_bot(n, game, p, s), rng, explore) for p, n in enumerate(names)]
        st = State.new_match(game, s, deal_next=False)
        loop = SeatLoop(st, seats)
        while True:
            pending = _play_hand(game, st, loop, rng, sample, feat)
            values = hand_values(game, st)
            for side, x in pending:
                kept.add(x, values[side])
            if st.is_terminal():
                break
            st.next_hand()
        if progress is not None:
            progress(i + 1)
    X, y = kept.in_order_played()
    return X, y, kept.seen


def _play_hand(
    game: Game, st: State, loop: SeatLoop, rng: random.Random, sample: float, feat: Featurizer
) -> list[tuple[int, list[float]]]:
    """Play one hand with the seat loop pumped one action at a time; at each turn's start every player's
    position is sampled with probability ``sample``: (its side, its features), in the order seen."""
    pending: list[tuple[int, list[float]]] = []
    while True:  # a turn's start is sampled before its first action
        d = st.decision
        if d.kind == DecisionKind.TURN and not d.drawn:
            for p in range(game.players):
                if rng.random() < sample:
                    pending.append((game.side_of[p], feat(st.observation(p))))
        if loop.step() == HAND_OVER:
            return pending


class _Reservoir:
    """At most ``most`` positions (feature rows and targets): every one up to the limit, then a uniform sample
    of all those seen (reservoir sampling, its own random stream); the arrays grow by half as they fill."""

    def __init__(self, width: int, most: int, reservoir: random.Random) -> None:
        import numpy as np

        self.width, self.most, self.reservoir = width, most, reservoir
        size = min(most, 4096)
        self.X = np.empty((size, width))
        self.y = np.empty(size)
        self.order = np.empty(size, dtype=np.int64)
        self.kept = self.seen = 0

    def add(self, x: list[float], value: float) -> None:
        """One position seen: kept while there is room, else in place of a kept one with probability most/seen."""
        if self.kept < self.most:
            if self.kept == len(self.y):  # grow by half, up to the limit
                import numpy as np

                size = min(self.most, self.kept + self.kept // 2 + 1)
                self.X = np.resize(self.X, (size, self.width))
                self.y, self.order = np.resize(self.y, size), np.resize(self.order, size)
            slot = self.kept
            self.kept += 1
        else:
            slot = self.reservoir.randrange(self.seen + 1)
        if slot < self.most:
            self.X[slot], self.y[slot], self.order[slot] = x, value, self.seen
        self.seen += 1

    def in_order_played(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The kept rows and targets in the order they were played (the held-out tenth is the last matches')."""
        X, y, order = self.X[: self.kept], self.y[: self.kept], self.order[: self.kept]
        if self.seen > self.kept:  # a sample: back in the order played
            import numpy as np

            back = np.argsort(order, kind="stable")
            X, y = X[back], y[back]
        return X, y


def fit(X: ArrayLike, y: ArrayLike, kind: str = DEFAULT_KIND, seed: int = 0) -> tuple[ModelDoc, dict[str, float]]:
    """The model's numbers (``model`` of a model file) and fit figures, from rows ``X`` and targets ``y``."""
    try:
        import numpy as np
        from sklearn.preprocessing import StandardScaler
    except ImportError:
        raise RuntimeError(f"training needs scikit-learn: {install_hint('learn')}") from None
    Xa = np.asarray(X, dtype=float)
    ya = np.asarray(y, dtype=float)
    n = len(ya)
    if n < 10:
        raise ValueError(f"only {n} positions to learn from: play more games")
    # a held-out tenth (the last matches' positions) measures the fit
    cut = max(1, n - n // 10)
    scaler = StandardScaler().fit(Xa[:cut])
    mean = scaler.mean_
    scale = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
    fitter = _FITTERS.get(kind)
    if fitter is None:
        raise ValueError(f"unknown model kind '{kind}' (linear, mlp or trees)")
    model, pred = fitter(Xa, ya, cut, mean, scale, seed)
    held = ya[cut:]
    resid = held - pred
    var = float(held.var()) or 1.0
    figures = {
        "positions": n,
        "held_out": int(len(held)),
        "r2_held_out": round(1.0 - float((resid**2).mean()) / var, 4),
        "rmse_held_out": round(float(np.sqrt((resid**2).mean())), 2),
    }
    return model, figures


# A fitter: (rows, targets, the first held-out row, the rows' mean and scale, seed) -> (the model's numbers,
# its predictions of the held-out rows)
Fitter = Callable[["Floats", "Floats", int, "Floats", "Floats", int], "tuple[ModelDoc, Floats]"]


def _fit_linear(Xa: Floats, ya: Floats, cut: int, mean: Floats, scale: Floats, seed: int) -> tuple[ModelDoc, Floats]:
    """A ridge regression on the standardized rows."""
    from sklearn.linear_model import Ridge

    Z = (Xa - mean) / scale
    reg = Ridge(alpha=1.0).fit(Z[:cut], ya[:cut])
    model = {
        "kind": "linear",
        "mean": _floats(mean),
        "scale": _floats(scale),
        "coef": _floats(reg.coef_),
        "intercept": float(reg.intercept_),
    }
    return model, reg.predict(Z[cut:])


def _fit_mlp(Xa: Floats, ya: Floats, cut: int, mean: Floats, scale: Floats, seed: int) -> tuple[ModelDoc, Floats]:
    """A small neural network (one hidden layer of 32) on the standardized rows and standardized targets."""
    import warnings

    from sklearn.neural_network import MLPRegressor

    Z = (Xa - mean) / scale
    ym, ys = float(ya[:cut].mean()), float(ya[:cut].std() or 1.0)
    net = MLPRegressor(
        hidden_layer_sizes=(32,),
        activation="relu",
        alpha=1e-3,
        batch_size=256,
        learning_rate_init=1e-3,
        max_iter=40,
        early_stopping=True,
        n_iter_no_change=4,
        random_state=seed,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        net.fit(Z[:cut], (ya[:cut] - ym) / ys)
    model = {
        "kind": "mlp",
        "mean": _floats(mean),
        "scale": _floats(scale),
        "out_mean": ym,
        "out_scale": ys,
        "layers": [{"W": [_floats(r) for r in W], "b": _floats(b)} for W, b in zip(net.coefs_, net.intercepts_)],
    }
    return model, net.predict(Z[cut:]) * ys + ym


def _fit_trees(Xa: Floats, ya: Floats, cut: int, mean: Floats, scale: Floats, seed: int) -> tuple[ModelDoc, Floats]:
    """Gradient-boosted trees on the raw rows (the mean and scale are kept in the file all the same)."""
    import numpy as np
    from sklearn.ensemble import HistGradientBoostingRegressor

    hgb = HistGradientBoostingRegressor(
        max_iter=TREES, max_leaf_nodes=TREE_LEAVES, learning_rate=0.1, early_stopping=False, random_state=seed
    ).fit(Xa[:cut], ya[:cut])
    # scikit-learn has no public export of these trees: its fitted attributes are read by name (the
    # test that bots read no private field is about the engine's state; this is the fitting library's)
    base = getattr(hgb, "_baseline_prediction")
    predictors = getattr(hgb, "_predictors")
    model = {
        "kind": "trees",
        "mean": _floats(mean),
        "scale": _floats(scale),
        "base": float(np.ravel(base)[0]),
        "trees": [_tree(t[0]) for t in predictors],
    }
    return model, hgb.predict(Xa[cut:])


_FITTERS: dict[str, Fitter] = {"linear": _fit_linear, "mlp": _fit_mlp, "trees": _fit_trees}


def _tree(predictor: Any) -> dict[str, list[int] | list[float]]:  # Any: scikit-learn has no annotations
    """One fitted tree as flat lists (a leaf's feature is -1); a split sends x <= threshold left."""
    nodes = predictor.nodes
    leaf = nodes["is_leaf"].astype(bool)
    return {
        "feature": [-1 if lf else int(f) for f, lf in zip(nodes["feature_idx"], leaf)],
        "threshold": [0.0 if lf else float(t) for t, lf in zip(nodes["num_threshold"], leaf)],
        "left": [0 if lf else int(v) for v, lf in zip(nodes["left"], leaf)],
        "right": [0 if lf else int(v) for v, lf in zip(nodes["right"], leaf)],
        "value": [float(f"{float(v):.6g}") if lf else 0.0 for v, lf in zip(nodes["value"], leaf)],
    }


def _floats(a: Iterable[float]) -> list[float]:
    return [float(f"{float(v):.6g}") for v in a]


def train(
    game: Game,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    kind: str = DEFAULT_KIND,
    policy: Sequence[str] = ("heuristic",),
    sample: float = DEFAULT_SAMPLE,
    explore: float = DEFAULT_EXPLORE,
    options: Sequence[str] = (),
    progress: Callable[[int], None] | None = None,
    should_stop: Callable[[], object] | None = None,
    hand: bool = DEFAULT_HAND,
    max_positions: int = MAX_POSITIONS,
    fit_guard: Callable[[], ContextManager[object]] | None = None,
) -> ModelDoc:
    """A whole model file's document for ``game``, from ``games`` self-play matches seeded by ``seed``.

    ``should_stop()`` is polled between matches and before the fit (:class:`TrainingStopped`); the fit
    runs inside ``fit_guard()`` (a command makes a signal stop it where it is: scikit-learn polls nothing)."""
    X, y, seen = self_play(game, games, seed, policy, sample, explore, progress, should_stop, hand, max_positions)
    if should_stop is not None and should_stop():
        raise TrainingStopped
    feat = Featurizer(game, hand)
    with fit_guard() if fit_guard is not None else nullcontext():
        model, figures = fit(X, y, kind, seed)
    if seen > len(y):
        figures["positions_seen"] = seen
    return {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": {
            "id": game.ruleset_id,
            "name": game.ruleset.name,
            "options": list(options),
            "digest": ruleset_digest(game),
        },
        "players": game.players,
        "sides": game.sides,
        "features": list(feat.names),
        "target": "hand_points",
        "model": model,
        "training": {
            "games": games,
            "seed": seed,
            "policy": list(policy),
            "sample": sample,
            "explore": explore,
            "kind": kind,
            **figures,
            **({"max_positions": max_positions} if seen > len(y) else {}),
        },
    }
