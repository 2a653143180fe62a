"""The ``learned`` bot's value model: a file that records the ruleset it was trained for, and its evaluation.

A model file is JSON (small, readable, diffable)::

    {"format": "mbrules-learned-value", "version": 1,
     "ruleset": {"id": "winning-moves", "digest": "<sha256 of the resolved ruleset>"}, "players": 2,
     "features": ["me.miles", ...], "target": "hand_points",
     "model": {"kind": "linear", "mean": [...], "scale": [...], "coef": [...], "intercept": 12.5},
     "training": {"games": 600, "seed": 0, "positions": 41234, ...}}

``model.kind`` is ``linear`` (a ridge regression on standardized features, evaluated in pure Python)
or ``mlp`` (one or more hidden ReLU layers, evaluated with numpy) or ``trees`` (gradient-boosted
regression trees, scikit-learn's ``HistGradientBoostingRegressor``, evaluated in pure Python). The value is the hand's point
difference for the seat's side (its total less the best other side's, plus or minus a win bonus
when the hand ends the match: :func:`mbrules.bots.expert.hand_value`), so a search can compare a
leaf's estimate with the exact value of a hand that has ended.

A model is refused, with a sentence, for another ruleset (its digest differs: another edition, other
options, a custom file changed since) or another player count: :class:`ModelError`.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import lru_cache
from operator import mul
from pathlib import Path

from .._paths import install_hint
from ..engine import Game

FORMAT = "mbrules-learned-value"
VERSION = 1
MAX_MODEL_BYTES = 20_000_000
MODELS_DIR = Path(__file__).parent / "models"


def uses_hand(features) -> bool:
    """Whether a model's features describe the hand (``hand.*``) or the table only."""
    return any(str(f).startswith("hand.") for f in features)


class ModelError(ValueError):
    """A model file that cannot be used: unreadable, not a model, or trained for another game."""


def ruleset_digest(game: Game) -> str:
    """A digest of the resolved ruleset (options applied): equal for the same rules however loaded.

    Values left at the model's default are left out, so a rule added to the model with a default that
    keeps every ruleset as it was (fast_play, scoring.lines, ...) leaves the digests, and the models
    trained for them, as they were."""
    data = game.ruleset.model_dump(mode="json", exclude_defaults=True)
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def describe_game(game: Game) -> str:
    return f"{game.ruleset_id} ({game.ruleset.name}) at {game.players} players"


class ValueModel:
    """A loaded model: ``value(features) -> float`` (points), ``values(rows) -> list[float]``."""

    def __init__(self, doc: dict, source: str = "model"):
        self.doc = doc
        self.source = source
        self.features = tuple(doc["features"])
        m = doc["model"]
        self.kind = m["kind"]
        mean = [float(v) for v in m["mean"]]
        scale = [float(v) if float(v) > 0 else 1.0 for v in m["scale"]]
        if len(mean) != len(self.features) or len(scale) != len(self.features):
            raise ModelError(f"{source}: its scaler does not match its {len(self.features)} features")
        if self.kind == "linear":
            coef = [float(v) for v in m["coef"]]
            if len(coef) != len(self.features):
                raise ModelError(f"{source}: {len(coef)} coefficients for {len(self.features)} features")
            # standardization folded into the weights: v = b + sum(w_i x_i)
            self.w = [c / s for c, s in zip(coef, scale)]
            self.b = float(m["intercept"]) - sum(c * mu / s for c, mu, s in zip(coef, mean, scale))
        elif self.kind == "mlp":
            try:
                import numpy as np
            except ImportError:  # pragma: no cover - numpy ships with the learn and rl extras
                raise ModelError(f"{source}: a network model needs numpy ({install_hint('learn')})") from None
            self.np = np
            self.mean = np.asarray(mean)
            self.scale = np.asarray(scale)
            self.layers = [(np.asarray(layer["W"], dtype=float), np.asarray(layer["b"], dtype=float))
                           for layer in m["layers"]]
            if self.layers[0][0].shape[0] != len(self.features) or self.layers[-1][0].shape[1] != 1:
                raise ModelError(f"{source}: its layers do not match its {len(self.features)} features")
            self.out_scale = float(m.get("out_scale", 1.0))
            self.out_mean = float(m.get("out_mean", 0.0))
        elif self.kind == "trees":
            # gradient-boosted regression trees on the raw features, evaluated in pure Python: every tree
            # is flat lists (feature, threshold, left, right, leaf value); a node whose feature is -1 is a leaf
            try:
                self.base = float(m["base"])
                self.trees = [(tuple(int(v) for v in t["feature"]), tuple(float(v) for v in t["threshold"]),
                               tuple(int(v) for v in t["left"]), tuple(int(v) for v in t["right"]),
                               tuple(float(v) for v in t["value"])) for t in m["trees"]]
            except (KeyError, TypeError, ValueError):
                raise ModelError(f"{source}: its trees are not readable") from None
            nf = len(self.features)
            for f, thr, left, right, val in self.trees:
                n = len(f)
                if not (n == len(thr) == len(left) == len(right) == len(val)) or any(
                        not -1 <= fi < nf or (fi >= 0 and not (0 < left[i] < n and 0 < right[i] < n))
                        for i, fi in enumerate(f)):
                    raise ModelError(f"{source}: a tree does not match its {nf} features")
        else:
            raise ModelError(f"{source}: unknown model kind '{self.kind}' (linear, mlp or trees)")

    def value(self, x: list[float]) -> float:
        if self.kind == "linear":
            return self.b + sum(map(mul, self.w, x))
        if self.kind == "trees":
            v = self.base
            for f, thr, left, right, val in self.trees:
                i = 0
                fi = f[0]
                while fi >= 0:
                    i = left[i] if x[fi] <= thr[i] else right[i]
                    fi = f[i]
                v += val[i]
            return v
        return self.values([x])[0]

    def values(self, rows: list[list[float]]) -> list[float]:
        if not rows:
            return []
        if self.kind == "linear":
            w, b = self.w, self.b
            return [b + sum(map(mul, w, x)) for x in rows]
        if self.kind == "trees":
            return [self.value(x) for x in rows]
        np = self.np
        h = (np.asarray(rows, dtype=float) - self.mean) / self.scale
        for i, (W, b) in enumerate(self.layers):
            h = h @ W + b
            if i < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        return list(h[:, 0] * self.out_scale + self.out_mean)


def check_model(doc: dict, game: Game, names: tuple[str, ...], source: str) -> None:
    """Raise :class:`ModelError` (a sentence) unless ``doc`` was trained for ``game``'s rules and players."""
    rs = doc.get("ruleset") or {}
    if rs.get("digest") != ruleset_digest(game) or doc.get("players") != game.players:
        trained = f"{rs.get('id', '?')} at {doc.get('players', '?')} players"
        if rs.get("options"):
            trained += f" with options {', '.join(rs['options'])}"
        raise ModelError(
            f"{source} was trained for {trained}, not for this game ({describe_game(game)}"
            f"{', other rules or options' if rs.get('id') == game.ruleset_id and doc.get('players') == game.players else ''}"
            f"); train one for it with: mbrules train {game.ruleset_id} -p {game.players} --out MODEL")
    if tuple(doc.get("features") or ()) != names:
        raise ModelError(f"{source} was made with other features than this version of mbrules computes; "
                         f"train it again with mbrules train")


def read_model_file(path: str | os.PathLike) -> dict:
    """The JSON document of a model file; :class:`ModelError` with a sentence for anything else."""
    p = Path(path)
    try:
        if not p.is_file():
            raise ModelError(f"{path}: no such model file" if not p.exists() else f"{path}: not a regular file")
        if p.stat().st_size > MAX_MODEL_BYTES:
            raise ModelError(f"{path}: too large for a model file (over {MAX_MODEL_BYTES:,} bytes)")
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise ModelError(f"{path}: cannot read it: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise ModelError(f"{path}: not a model file (not UTF-8 text)") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ModelError(f"{path}:{e.lineno}:{e.colno}: not a model file (invalid JSON: {e.msg})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ModelError(f"{path}: not an mbrules learned-value model (no \"format\": \"{FORMAT}\")")
    if doc.get("version") != VERSION:
        raise ModelError(f"{path}: model format version {doc.get('version')!r}; this mbrules reads version {VERSION}")
    for key in ("ruleset", "players", "features", "model"):
        if key not in doc:
            raise ModelError(f"{path}: a model file without '{key}'")
    return doc


@lru_cache(maxsize=32)
def _load(path: str, mtime: float, game: Game) -> ValueModel:
    from .features import feature_names

    doc = read_model_file(path)
    check_model(doc, game, feature_names(game, uses_hand(doc.get("features") or ())), path)
    try:
        return ValueModel(doc, path)
    except (KeyError, TypeError, ValueError, IndexError) as e:
        if isinstance(e, ModelError):
            raise
        raise ModelError(f"{path}: a damaged model ({type(e).__name__}: {e})") from None


def load_model(path: str | os.PathLike, game: Game) -> ValueModel:
    """The model in ``path``, checked against ``game`` (cached per process while the file is unchanged)."""
    p = str(Path(path))
    try:
        mtime = os.stat(p).st_mtime
    except OSError:
        mtime = 0.0
    return _load(p, mtime, game)


def bundled_model_path(game: Game) -> Path | None:
    """The shipped model for ``game`` when its rules are exactly a bundled ruleset's (no options)."""
    p = MODELS_DIR / f"{game.ruleset_id}-{game.players}p.json"
    if not p.is_file():
        return None
    try:
        doc = read_model_file(p)
    except ModelError:
        return None
    if (doc.get("ruleset") or {}).get("digest") != ruleset_digest(game):
        return None
    return p


def cache_dir() -> Path:
    base = os.environ.get("MBRULES_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "mbrules")
    return Path(base) / "learned"


def cached_model_path(game: Game) -> Path:
    """Where a model trained on first use for ``game``'s rules is kept (by the rules' digest)."""
    return cache_dir() / f"{game.ruleset_id}-{ruleset_digest(game)[:16]}-{game.players}p.json"


def write_model(doc: dict, path: str | os.PathLike) -> None:
    """Write ``doc`` to ``path`` whole or not at all (a temporary file in the same folder, then renamed)."""
    p = Path(path)
    text = json.dumps(doc, indent=1, ensure_ascii=True) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=str(p.parent) if str(p.parent) else ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
