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

A model file is read whole through one reader (:func:`read_model_file`) before any match: the JSON
within bounds (nesting, digits; no NaN or Infinity), then every field's type and range (pydantic, at
this boundary only), then the shapes a type cannot say (lists as long as the features, layers that
chain to one output, trees whose every node is reached once from the root, so that a walk ends).
Anything else is refused with a sentence naming the file and the value: :class:`ModelError`.

A model is refused, with a sentence, for another ruleset (its digest differs: another edition, other
options, a custom file changed since) or another player count: :class:`ModelError`.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import tempfile
from functools import lru_cache
from operator import mul
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Iterable, NoReturn

if TYPE_CHECKING:
    from pydantic import BaseModel

from .._paths import install_hint
from ..engine import Game

FORMAT: Final = "mbrules-learned-value"
VERSION: Final = 1
ModelDoc = dict[str, Any]  # a model file's JSON document (checked against the schema below before use)
MAX_MODEL_BYTES = 20_000_000
MODELS_DIR = Path(__file__).parent / "models"


def uses_hand(features: Iterable[object]) -> bool:
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


# Bounds of a model file, checked when it is read (a file is data from outside: nothing in it is trusted)
MAX_DEPTH = 16  # nesting of arrays and objects (a model file needs 6)
MAX_DIGITS = 30  # digits of an integer
MAX_ABS = 1e9  # magnitude of any number of the model
MIN_SCALE = 1e-6  # a feature's spread below which standardizing it would overflow (0: a constant feature)
MAX_FEATURES = 4096
MAX_LAYERS = 8
MAX_WIDTH = 4096
MAX_TREES = 10_000
MAX_NODES = 100_000  # nodes of one tree


def _numbers_schema() -> tuple[type[BaseModel], type[BaseModel]]:
    """The pydantic models of a model file (built once, on first use): every field's type and bounds."""
    from typing import Annotated, Literal, Optional, Union

    from pydantic import BaseModel, ConfigDict, Field

    Num = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=-MAX_ABS, le=MAX_ABS)]
    Spread = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=0, le=MAX_ABS)]
    Name = Annotated[str, Field(strict=True, max_length=200)]
    Index = Annotated[int, Field(strict=True, ge=-1, le=MAX_NODES)]
    Vec = Annotated[list[Num], Field(max_length=MAX_WIDTH)]

    class Strict(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)

    class Linear(Strict):
        kind: Literal["linear"]
        mean: Annotated[list[Num], Field(max_length=MAX_FEATURES)]
        scale: Annotated[list[Spread], Field(max_length=MAX_FEATURES)]
        coef: Annotated[list[Num], Field(max_length=MAX_FEATURES)]
        intercept: Num

    class Layer(Strict):
        W: Annotated[list[Vec], Field(min_length=1, max_length=MAX_WIDTH)]
        b: Annotated[Vec, Field(min_length=1)]

    class Mlp(Strict):
        kind: Literal["mlp"]
        mean: Annotated[list[Num], Field(max_length=MAX_FEATURES)]
        scale: Annotated[list[Spread], Field(max_length=MAX_FEATURES)]
        layers: Annotated[list[Layer], Field(min_length=1, max_length=MAX_LAYERS)]
        out_mean: Num = 0.0
        out_scale: Num = 1.0

    class Tree(Strict):
        feature: Annotated[list[Index], Field(min_length=1, max_length=MAX_NODES)]
        threshold: Annotated[list[Num], Field(min_length=1, max_length=MAX_NODES)]
        left: Annotated[list[Index], Field(min_length=1, max_length=MAX_NODES)]
        right: Annotated[list[Index], Field(min_length=1, max_length=MAX_NODES)]
        value: Annotated[list[Num], Field(min_length=1, max_length=MAX_NODES)]

    class Trees(Strict):
        kind: Literal["trees"]
        mean: Annotated[list[Num], Field(max_length=MAX_FEATURES)]
        scale: Annotated[list[Spread], Field(max_length=MAX_FEATURES)]
        base: Num
        trees: Annotated[list[Tree], Field(max_length=MAX_TREES)]

    class Evaluation(Strict):
        features: Annotated[list[Name], Field(min_length=1, max_length=MAX_FEATURES)]
        model: Annotated[Union[Linear, Mlp, Trees], Field(discriminator="kind")]

    class RulesetRef(Strict):
        id: Name
        name: Optional[Annotated[str, Field(strict=True, max_length=1000)]] = None
        options: Annotated[list[Annotated[str, Field(strict=True, max_length=1000)]], Field(max_length=100)] = []
        digest: Annotated[str, Field(strict=True, pattern=r"^[0-9a-f]{64}$")]

    class Document(Evaluation):
        format: Literal["mbrules-learned-value"]  # FORMAT (a Literal type cannot name a constant)
        version: Literal[1]  # VERSION
        ruleset: RulesetRef
        players: Annotated[int, Field(strict=True, ge=1, le=99)]
        sides: Optional[Annotated[int, Field(strict=True, ge=1, le=99)]] = None
        target: Optional[Name] = None
        training: Optional[dict[str, Any]] = None

    return Evaluation, Document


_SCHEMA: list[type[BaseModel]] = []


def _schema() -> list[type[BaseModel]]:
    if not _SCHEMA:
        _SCHEMA.extend(_numbers_schema())
    return _SCHEMA


def _where(loc: tuple[int | str, ...]) -> str:
    """A pydantic error location as the model file's path to the value: model.layers[0].W[3] (the
    kind pydantic inserts after ``model`` to say which form it tried is left out)."""
    out = ""
    for i, part in enumerate(loc):
        if isinstance(part, int):
            out += f"[{part}]"
        elif not (i == 1 and loc[0] == "model" and part in ("linear", "mlp", "trees")):
            out += ("." if out else "") + str(part)
    return out or "the document"


def _validated(doc: object, source: str, whole: bool) -> Any:
    """``doc`` checked against the model file's schema (``whole``: the header too, else the features
    and the model only) and its shapes; :class:`ModelError` with the first problem, where it is.

    Any: the schema's classes are built on first use (pydantic is imported then), inside
    :func:`_numbers_schema`, so no annotation outside it can name them."""
    from pydantic import ValidationError

    evaluation, document = _schema()
    if not isinstance(doc, dict):
        raise ModelError(f"{source}: a damaged model: the document is not an object")
    m = doc.get("model")
    if isinstance(m, dict) and m.get("kind") not in ("linear", "mlp", "trees"):
        kind = m.get("kind")
        raise ModelError(f"{source}: unknown model kind {str(kind)[:40]!r} (linear, mlp or trees)")
    try:
        v: Any = (document if whole else evaluation).model_validate(
            doc if whole else {"features": doc.get("features"), "model": m}
        )
    except ValidationError as e:
        errs = e.errors(include_url=False, include_input=False)
        first = errs[0]
        more = f" (and {len(errs) - 1} more)" if len(errs) > 1 else ""
        msg = re.sub(r" or instance of \w+", "", first["msg"]).replace("a valid dictionary", "a JSON object")
        raise ModelError(
            f"{source}: a damaged model: {_where(first['loc'])}: {msg[:1].lower()}{msg[1:]}{more}"
        ) from None
    _check_shapes(v.model, len(v.features), source)
    return v


def _check_shapes(m: Any, nf: int, source: str) -> None:  # Any: one of _numbers_schema's models
    """What a type cannot say: every list as long as the features, layers that chain, trees that end."""
    if len(m.mean) != nf or len(m.scale) != nf:
        raise ModelError(f"{source}: a damaged model: its scaler does not match its {nf} features")
    for i, s in enumerate(m.scale):
        if 0 < s < MIN_SCALE:
            raise ModelError(
                f"{source}: a damaged model: model.scale[{i}] is {s:g}, too small a spread "
                f"(0 for a constant feature, else at least {MIN_SCALE:g})"
            )
    if m.kind == "linear":
        if len(m.coef) != nf:
            raise ModelError(f"{source}: a damaged model: {len(m.coef)} coefficients for {nf} features")
    elif m.kind == "mlp":
        width = nf
        for i, layer in enumerate(m.layers):
            if len(layer.W) != width:
                raise ModelError(
                    f"{source}: a damaged model: model.layers[{i}].W has {len(layer.W)} rows; "
                    f"the {'features are' if i == 0 else 'layer before gives'} {width} values"
                )
            out = len(layer.b)
            bad = next((r for r, row in enumerate(layer.W) if len(row) != out), None)
            if bad is not None:
                raise ModelError(
                    f"{source}: a damaged model: model.layers[{i}].W[{bad}] has {len(layer.W[bad])} "
                    f"values; the layer's b has {out}"
                )
            width = out
        if width != 1:
            raise ModelError(f"{source}: a damaged model: the last layer gives {width} values, not 1")
    else:
        for t, tree in enumerate(m.trees):
            _check_tree(tree, t, nf, source)


def _check_tree(tree: Any, t: int, nf: int, source: str) -> None:  # Any: _numbers_schema's Tree
    """Lists of one length, features in range, and every node reached once from the root: a node that
    points back (to itself or an ancestor) would never end a walk, a child outside the tree cannot be read."""
    f, left, right = tree.feature, tree.left, tree.right
    n = len(f)
    if not (n == len(tree.threshold) == len(left) == len(right) == len(tree.value)):
        raise ModelError(f"{source}: a damaged model: tree {t}'s lists are not of one length")
    seen = [False] * n
    seen[0] = True
    todo = [0]
    while todo:
        i = todo.pop()
        fi = f[i]
        if fi < 0:
            continue
        if fi >= nf:
            raise ModelError(f"{source}: a damaged model: tree {t}, node {i} splits on feature {fi}; there are {nf}")
        for child in (left[i], right[i]):
            if not 0 <= child < n:
                raise ModelError(
                    f"{source}: a damaged model: tree {t}, node {i} points to node {child}, "
                    f"outside the tree's {n} nodes"
                )
            if seen[child]:
                where = "itself" if child == i else f"node {child}, already in the tree"
                raise ModelError(
                    f"{source}: a damaged model: tree {t}, node {i} points to {where} "
                    "(a loop: a walk of the tree would never end)"
                )
            seen[child] = True
            todo.append(child)


class ValueModel:
    """A loaded model: ``value(features) -> float`` (points), ``values(rows) -> list[float]``.

    ``doc`` is checked whole first (types, bounds, shapes: :class:`ModelError`), so a value is always a number."""

    def __init__(self, doc: ModelDoc, source: str = "model"):
        v = _validated(doc, source, whole=False)
        self.doc = doc
        self.source = source
        self.features = tuple(v.features)
        m = v.model
        self.kind = m.kind
        mean = list(m.mean)
        scale = [s if s > 0 else 1.0 for s in m.scale]
        if self.kind == "linear":
            coef = m.coef
            # standardization folded into the weights: v = b + sum(w_i x_i)
            self.w = [c / s for c, s in zip(coef, scale)]
            self.b: float = m.intercept - sum(c * mu / s for c, mu, s in zip(coef, mean, scale))
        elif self.kind == "mlp":
            try:
                import numpy as np
            except ImportError:  # pragma: no cover - numpy ships with the learn and rl extras
                raise ModelError(f"{source}: a network model needs numpy ({install_hint('learn')})") from None
            self.np = np
            self.mean = np.asarray(mean, dtype=float)
            self.scale = np.asarray(scale, dtype=float)
            self.layers = [(np.asarray(layer.W, dtype=float), np.asarray(layer.b, dtype=float)) for layer in m.layers]
            self.out_scale = m.out_scale
            self.out_mean = m.out_mean
        else:
            # gradient-boosted regression trees on the raw features, evaluated in pure Python: every tree
            # is flat lists (feature, threshold, left, right, leaf value); a node whose feature is -1 is a leaf
            self.base: float = m.base
            self.trees = [
                (tuple(t.feature), tuple(t.threshold), tuple(t.left), tuple(t.right), tuple(t.value)) for t in m.trees
            ]

    def value(self, x: list[float]) -> float:
        if self.kind == "linear":
            lin: float = self.b + sum(map(mul, self.w, x))  # operator.mul is typed as Any
            return lin
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
        for i, (W, bias) in enumerate(self.layers):
            h = h @ W + bias
            if i < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        return list(h[:, 0] * self.out_scale + self.out_mean)


def check_model(doc: ModelDoc, game: Game, names: tuple[str, ...], source: str) -> None:
    """Raise :class:`ModelError` (a sentence) unless ``doc`` was trained for ``game``'s rules and players."""
    from ..ruleset.diagnostics import printable

    rs = doc.get("ruleset") or {}
    if rs.get("digest") != ruleset_digest(game) or doc.get("players") != game.players:
        trained = f"{printable(str(rs.get('id', '?')))} at {doc.get('players', '?')} players"
        if rs.get("options"):
            trained += f" with options {printable(', '.join(rs['options']))[:300]}"
        raise ModelError(
            f"{source} was trained for {trained}, not for this game ({describe_game(game)}"
            f"{', other rules or options' if rs.get('id') == game.ruleset_id and doc.get('players') == game.players else ''}"
            f"); train one for it with: mbrules train {game.ruleset_id} -p {game.players} --out MODEL"
        )
    if tuple(doc.get("features") or ()) != names:
        raise ModelError(
            f"{source} was made with other features than this version of mbrules computes; "
            f"train it again with mbrules train"
        )


def _nesting(text: str) -> int:
    """How deep arrays and objects nest in JSON ``text`` (strings skipped), without parsing it."""
    depth = deepest = 0
    for m in re.finditer(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    break
        elif c in "]}":
            depth -= 1
    return deepest


def parse_model_json(text: str, source: str) -> object:
    """The JSON value of a model file's text, read within bounds: nesting at most ``MAX_DEPTH``,
    integers of at most ``MAX_DIGITS`` digits, no NaN or Infinity (nor a number that overflows to it)."""
    if _nesting(text) > MAX_DEPTH:
        raise ModelError(f"{source}: not a model file (arrays or objects nested deeper than {MAX_DEPTH})")

    def bounded_int(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_DIGITS:
            raise ModelError(
                f"{source}: a damaged model: a number of {len(digits.lstrip('-'))} digits (at most {MAX_DIGITS})"
            )
        return int(digits)

    def finite_float(t: str) -> float:
        x = float(t)
        if not math.isfinite(x):
            raise ModelError(f"{source}: a damaged model: the number {t[:40]} is out of range")
        return x

    def no_constant(name: str) -> NoReturn:
        raise ModelError(f"{source}: a damaged model: {name} is not a number a model may hold")

    try:
        return json.loads(text, parse_int=bounded_int, parse_float=finite_float, parse_constant=no_constant)
    except json.JSONDecodeError as e:
        raise ModelError(f"{source}:{e.lineno}:{e.colno}: not a model file (invalid JSON: {e.msg})") from None
    except RecursionError:  # pragma: no cover - the nesting is bounded above
        raise ModelError(f"{source}: not a model file (nested too deeply)") from None


def read_model_file(path: str | os.PathLike[str]) -> ModelDoc:
    """The JSON document of a model file, checked whole (its header, types, bounds and shapes);
    :class:`ModelError` with a sentence for anything else."""
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
    doc = parse_model_json(text, str(path))
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ModelError(f"{path}: not an mbrules learned-value model (no \"format\": \"{FORMAT}\")")
    if doc.get("version") != VERSION or isinstance(doc.get("version"), bool):
        raise ModelError(
            f"{path}: model format version {str(doc.get('version'))[:20]}; this mbrules reads version {VERSION}"
        )
    for key in ("ruleset", "players", "features", "model"):
        if key not in doc:
            raise ModelError(f"{path}: a model file without '{key}'")
    _validated(doc, str(path), whole=True)
    return doc


@lru_cache(maxsize=32)
def _load(path: str, mtime: float, game: Game) -> ValueModel:
    from .features import feature_names

    doc = read_model_file(path)
    check_model(doc, game, feature_names(game, uses_hand(doc["features"])), path)
    return ValueModel(doc, path)


def load_model(path: str | os.PathLike[str], game: Game) -> ValueModel:
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
    try:
        digest = _shipped_digest(str(p), os.stat(p).st_mtime)
    except OSError:
        return None
    return p if digest == ruleset_digest(game) else None


@lru_cache(maxsize=64)
def _shipped_digest(path: str, mtime: float) -> str | None:
    """The ruleset digest a shipped model file was trained for (None: not a readable model), read once."""
    try:
        digest: str = read_model_file(path)["ruleset"]["digest"]  # a str: the schema's pattern
        return digest
    except ModelError:
        return None


def cache_dir() -> Path:
    base = os.environ.get("MBRULES_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "mbrules"
    )
    return Path(base) / "learned"


def cached_model_path(game: Game) -> Path:
    """Where a model trained on first use for ``game``'s rules is kept (by the rules' digest)."""
    return cache_dir() / f"{game.ruleset_id}-{ruleset_digest(game)[:16]}-{game.players}p.json"


def write_model(doc: ModelDoc, path: str | os.PathLike[str]) -> None:
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
