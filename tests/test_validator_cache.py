"""The Ruleset validator kept between runs (issue 46, start-up: :mod:`mbrules.ruleset.validator_cache`).

`show` and `validate` read a ruleset with the validator pydantic made in an earlier run, read back from its
pickle. That is honest only if the validator read back is the one pydantic makes (the same core schema and
config, the rule defaults the very objects the fields hold, the same answers and errors), and if a pickle
made from other sources or libraries is never read: each is checked here."""

from __future__ import annotations

import ast
import copy
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pydantic
import pytest

from mbrules.ruleset import model, validator_cache
from mbrules.ruleset.loader import load_ruleset

PACKAGE = Path(model.__file__).parent
ROOT = Path(__file__).resolve().parents[1]


def _made_fresh() -> Any:
    return validator_cache.pydantic_made(model)


def _read_back(tmp_path: Path) -> Any:
    path = tmp_path / "v.pickle"
    key = validator_cache.cache_key(PACKAGE)
    validator_cache.write_cached(path, key, _made_fresh(), model)
    found = validator_cache.read_cached(path, key, model)
    assert found is not None
    return found


def _same(a: Any, b: Any, at: tuple[Any, ...] = ()) -> None:
    """The two core schemas are the same, object for object: plain values equal, classes, functions and the
    rule defaults the same objects. A definition's ref ends with the id of its class in the process that
    made it (pydantic's own, different in every run): only the name before it is compared."""
    if isinstance(a, dict):
        assert a.keys() == b.keys(), at
        for k in a:
            _same(a[k], b[k], (*at, k))
    elif isinstance(a, (list, tuple)):
        assert type(a) is type(b) and len(a) == len(b), at
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, (*at, i))
    elif isinstance(a, str) and at and at[-1] in ("ref", "schema_ref"):
        assert re.sub(r":\d+$", "", a) == re.sub(r":\d+$", "", b), at
    elif isinstance(a, (str, int, float, bool, type(None))):
        assert type(a) is type(b) and a == b, at
    elif type(a).__name__ == "method":  # a class's bound classmethod, made anew at each attribute access
        assert a == b, at
    else:
        assert a is b, at


def test_the_validator_read_back_is_the_one_pydantic_makes(tmp_path: Path) -> None:
    """The same core schema and config, with the same classes, validators and default objects."""
    fresh, back = _made_fresh().__reduce__(), _read_back(tmp_path).__reduce__()
    assert fresh[0] is back[0]
    _same(fresh[1], back[1])


def _mutations(data: dict[str, Any], rng: random.Random, n: int) -> list[Any]:
    """``n`` copies of ``data`` with one value retyped, one key removed or one unknown key added."""
    paths: list[tuple[Any, ...]] = []

    def walk(node: Any, at: tuple[Any, ...]) -> None:
        paths.append(at)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, (*at, k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, (*at, i))

    walk(data, ())
    odd: list[Any] = [None, True, 0, -1, 2.5, "", "x", "a" * 700, [], {}, {"value": 1}, ["x"]]
    out = []
    for _ in range(n):
        d = copy.deepcopy(data)
        at = rng.choice(paths[1:])
        parent = d
        for k in at[:-1]:
            parent = parent[k]
        how = rng.randrange(3)
        if how == 0:
            parent[at[-1]] = rng.choice(odd)
        elif how == 1 and isinstance(parent, dict):
            del parent[at[-1]]
        elif isinstance(parent, dict):
            parent["unknown_key"] = 1
        out.append(d)
    return out


def test_the_validator_read_back_answers_as_pydantic_does(tmp_path: Path) -> None:
    """Every bundled edition and 300 mutated ones: the same ruleset, or the same errors in the same words."""
    import json

    fresh, back = _made_fresh(), _read_back(tmp_path)
    docs: list[Any] = []
    for rid in ("winning-moves", "dujardin-classic", "express", "asmodee-2014"):
        docs.append(load_ruleset(rid).model_dump(mode="json"))
    docs += _mutations(docs[0], random.Random(46), 300)
    refused = 0
    for doc in docs:
        text = json.dumps(doc)
        try:
            want = fresh.validate_json(text)
        except pydantic.ValidationError as exc:
            refused += 1
            with pytest.raises(pydantic.ValidationError) as got:
                back.validate_json(text)
            # (an error's ctx holds the ValueError raised: equal by its repr, not by identity)
            assert repr(got.value.errors(include_url=False)) == repr(exc.errors(include_url=False))
            assert str(got.value) == str(exc)
            continue
        assert back.validate_json(text) == want
    assert 100 < refused < len(docs)


def test_a_pickle_made_from_other_sources_is_never_read(tmp_path: Path) -> None:
    """The key covers the keyed sources: a model edited since the pickle was made gives another key, and a
    pickle under another key is made again, not read."""
    src = tmp_path / "src"
    src.mkdir()
    for name in validator_cache.KEYED:
        (src / name).write_bytes((PACKAGE / name).read_bytes())
    key = validator_cache.cache_key(src)
    assert key == validator_cache.cache_key(PACKAGE)
    (src / "model.py").write_bytes((PACKAGE / "model.py").read_bytes() + b"\n# edited\n")
    edited = validator_cache.cache_key(src)
    assert edited != key
    path = tmp_path / "v.pickle"
    validator_cache.write_cached(path, key, _made_fresh(), model)
    assert validator_cache.read_cached(path, edited, model) is None
    assert validator_cache.read_cached(path, key, model) is not None


def test_a_broken_or_missing_pickle_is_made_again(tmp_path: Path) -> None:
    path = tmp_path / "v.pickle"
    key = validator_cache.cache_key(PACKAGE)
    assert validator_cache.read_cached(path, key, model) is None
    validator_cache.write_cached(path, key, _made_fresh(), model)
    path.write_bytes(path.read_bytes()[:-200])
    assert validator_cache.read_cached(path, key, model) is None


def test_the_keyed_modules_import_nothing_else_of_the_package() -> None:
    """Ruleset's schema is made from the code of the keyed modules alone: none imports another module of
    this package at import (one that did could change the schema without changing the key; an import
    inside a function, such as the listing's folder look-up, runs only when called, after the model is
    made)."""
    keyed = {Path(name).stem for name in validator_cache.KEYED}
    for name in validator_cache.KEYED:
        tree = ast.parse((PACKAGE / name).read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                assert node.level == 1 and node.module in keyed, (name, ast.unparse(node))
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                assert not any(n.startswith("mbrules") for n in names), (name, ast.unparse(node))


def _fresh_state(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(validator_cache, "_made", None)


def test_a_declared_pydantic_plugin_keeps_pydantics_own_validator(monkeypatch: pytest.MonkeyPatch) -> None:
    """pydantic wraps each validator in its plugins' hooks: with a plugin declared, or plugins switched off by
    PYDANTIC_DISABLE_PLUGINS (pydantic reads it), the ruleset is validated by pydantic's own validator and no
    pickle is read."""
    from mbrules.ruleset import pydantic_plugins

    def no_read(*args: Any) -> Any:
        raise AssertionError("the pickle was read")

    monkeypatch.setattr(validator_cache, "read_cached", no_read)
    _fresh_state(monkeypatch)
    monkeypatch.setattr(pydantic_plugins, "no_plugin_declared", lambda: False)
    assert validator_cache.ruleset_validator() is model.Ruleset.__pydantic_validator__
    monkeypatch.undo()

    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", "__all__")
    monkeypatch.delitem(sys.modules, "pydantic.plugin._loader", raising=False)
    assert not pydantic_plugins.no_plugin_declared()


def test_a_distribution_declaring_the_pydantic_group_is_a_plugin(tmp_path: Path) -> None:
    from mbrules.ruleset.pydantic_plugins import _declares_pydantic_plugin

    dist = tmp_path / "someplugin-1.0.dist-info"
    dist.mkdir()
    (dist / "entry_points.txt").write_text("[console_scripts]\nx = y:z\n", encoding="utf-8")
    assert _declares_pydantic_plugin(str(tmp_path)) is False
    (dist / "entry_points.txt").write_text("[pydantic]\nmy_plugin = my_plugin:plugin\n", encoding="utf-8")
    assert _declares_pydantic_plugin(str(tmp_path)) is True


def test_with_its_pickle_a_ruleset_is_read_without_pydantics_schema_build(tmp_path: Path) -> None:
    """The point of the cache (issue 46: start-up): a second process reads winning-moves with the validator
    from the pickle; Ruleset's model is not built and pydantic's plugin loader (importlib.metadata) is not
    imported. The first process made the pickle."""
    code = (
        "import sys, pathlib\n"
        "from mbrules.ruleset import validator_cache as vc\n"
        f"vc.cache_file = lambda: pathlib.Path({str(tmp_path / 'v.pickle')!r})\n"
        "from mbrules.ruleset.loader import check_file\n"
        "from mbrules.ruleset import model\n"
        "assert check_file(pathlib.Path('rulesets/winning-moves.yaml')).ok\n"
        "print(model.Ruleset.__pydantic_complete__, 'importlib.metadata' in sys.modules)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(ROOT)
    runs = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=False)
        for _ in range(2)
    ]
    assert [r.stdout.split() for r in runs] == [["True", "True"], ["False", "False"]], [r.stderr[-2000:] for r in runs]
