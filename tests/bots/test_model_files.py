"""A model file is data from outside: ``learned:model=FILE`` reads the whole file through one
validating reader (types, bounds, shapes, values) and refuses a damaged one with a sentence and exit 2
before any match, in every command that plays (issue 33 items 5 and 6). A damaged model used to end in
a traceback, or worse: a tree pointing back to itself hung the bot's first decision, and a NaN made the
bot silently play the heuristic."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mbrules
from mbrules.bots.value_model import MODELS_DIR, ModelError, ValueModel, load_model

SHIPPED = json.loads((MODELS_DIR / "winning-moves-2p.json").read_text(encoding="utf-8"))
NF = len(SHIPPED["features"])


def _with(path: list, value) -> dict:
    doc = copy.deepcopy(SHIPPED)
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


def _mlp(widths: list[tuple[int, int]]) -> dict:
    layers = [{"W": [[0.01] * cols for _ in range(rows)], "b": [0.0] * cols} for rows, cols in widths]
    return _with(["model"], {"kind": "mlp", "mean": [0.0] * NF, "scale": [1.0] * NF, "layers": layers})


def _trees(tree: dict) -> dict:
    return _with(["model"], {"kind": "trees", "mean": [0.0] * NF, "scale": [1.0] * NF, "base": 0.0, "trees": [tree]})


def _text(doc) -> str:
    return json.dumps(doc, indent=1)


DAMAGED = {
    # item 5: wrong types, huge numbers, deep nesting
    "ruleset-a-list": (_text(_with(["ruleset"], ["winning-moves"])), "ruleset"),
    "ruleset-a-string": (_text(_with(["ruleset"], "winning-moves")), "ruleset"),
    "features-a-number": (_text(_with(["features"], 5)), "features"),
    "players-a-string": (_text(_with(["players"], "2")), "players"),
    "players-true": (_text(_with(["players"], True)), "players"),
    "coef-a-string": (_text(_with(["model", "coef", 3], "1.5")), r"model\.coef\[3\]"),
    "5000-digit-number": (_text(SHIPPED).replace('"players": 2', '"players": 2' + "0" * 4999), "5000 digits"),
    "5000-digit-intercept": (
        _text(SHIPPED).replace('"intercept": ', '"intercept": 1' + "0" * 4999 + ", \"x\": "),
        "5000 digits",
    ),
    "huge-coefficient": (_text(_with(["model", "coef", 0], 1e300)), r"model\.coef\[0\]"),
    "overflowing-float": (_text(SHIPPED).replace('"intercept": ', '"intercept": 1e999, "x": '), "out of range"),
    "200000-nested-brackets": ("[" * 200_000 + "]" * 200_000, "nested deeper"),
    "nesting-in-training": (
        _text(_with(["training", "x"], 0)).replace('"x": 0', '"x": ' + "[" * 100 + "]" * 100),
        "nested deeper",
    ),
    "unknown-key-in-model": (_text(_with(["model", "coefs"], [1.0])), "coefs"),
    # item 6: shapes and values
    "mlp-middle-layer-too-wide": (_text(_mlp([(NF, 8), (7, 1)])), r"layers\[1\]\.W has 7 rows"),
    "mlp-ragged-rows": (
        _text(_mlp([(NF, 8), (8, 1)])).replace("[\n      0.01\n     ]", "[0.01, 0.01]", 1),
        r"model\.layers\[1\]\.W\[0\]",
    ),
    "mlp-two-outputs": (_text(_mlp([(NF, 8), (8, 2)])), "gives 2 values, not 1"),
    "empty-tree": (
        _text(_trees({"feature": [], "threshold": [], "left": [], "right": [], "value": []})),
        r"trees\[0\]\.feature",
    ),
    "tree-node-points-to-itself": (
        _text(
            _trees(
                {
                    "feature": [0, 0, -1, -1],
                    "threshold": [1.0] * 4,
                    "left": [1, 1, 0, 0],
                    "right": [2, 3, 0, 0],
                    "value": [0.0] * 4,
                }
            )
        ),
        "node 1 points to itself",
    ),
    "tree-node-points-to-the-root": (
        _text(
            _trees(
                {
                    "feature": [0, 0, -1, -1],
                    "threshold": [1.0] * 4,
                    "left": [1, 0, 0, 0],
                    "right": [2, 3, 0, 0],
                    "value": [0.0] * 4,
                }
            )
        ),
        "node 1 points to node 0, already in the tree",
    ),
    "tree-feature-out-of-range": (
        _text(
            _trees(
                {
                    "feature": [NF, -1, -1],
                    "threshold": [1.0, 0.0, 0.0],
                    "left": [1, 0, 0],
                    "right": [2, 0, 0],
                    "value": [0.0] * 3,
                }
            )
        ),
        f"feature {NF}",
    ),
    "nan-intercept": (_text(_with(["model", "intercept"], float("nan"))), "NaN"),
    "infinity-coefficient": (_text(_with(["model", "coef", 5], float("inf"))), "Infinity"),
    "minus-infinity-in-training": (_text(_with(["training", "r2_held_out"], float("-inf"))), "-Infinity"),
    "tiny-spread": (_text(_with(["model", "scale", 2], 1e-300)), r"model\.scale\[2\]"),
}

runner = CliRunner()


def _app():
    from mbrules.cli.app import app

    return app


COMMANDS = {
    "play": lambda m: ["play", "--ruleset", "winning-moves", "-p", "2", "--bot", f"learned:model={m}", "--hands", "1"],
    "simulate": lambda m: [
        "simulate",
        "--ruleset",
        "winning-moves",
        "-p",
        "2",
        "--games",
        "2",
        "--workers",
        "1",
        "--bot",
        f"learned:model={m}",
    ],
    "ladder": lambda m: [
        "ladder",
        "--bot",
        "random",
        "--bot",
        f"learned:model={m}",
        "-p",
        "2",
        "--games",
        "2",
        "--workers",
        "1",
    ],
}


NEEDS = {"ladder": ("openskill", "bots")}  # the ladder's ratings: the bots extra


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("damage", list(DAMAGED))
def test_a_damaged_model_file_is_refused_with_a_sentence_before_any_match(damage, command, tmp_path):
    if command in NEEDS:
        pytest.importorskip(
            NEEDS[command][0],
            reason=f"the {NEEDS[command][1]} extra (pip install 'mbrules[{NEEDS[command][1]}]') is not installed",
        )
    text, says = DAMAGED[damage]
    model = tmp_path / "model.json"
    model.write_text(text, encoding="utf-8")
    res = runner.invoke(_app(), COMMANDS[command](model))
    assert res.exit_code == 2, (res.exit_code, res.output[-2000:], res.exception)
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert "Traceback" not in res.output
    assert f"{model}" in res.output and "learned" in res.output
    import re

    assert re.search(says, res.output), res.output[-600:]


@pytest.mark.parametrize(
    "damage",
    [
        "nan-intercept",
        "tree-node-points-to-itself",
        "mlp-middle-layer-too-wide",
        "ruleset-a-string",
        "5000-digit-number",
    ],
)
def test_a_damaged_model_is_refused_through_the_api_with_a_model_error(damage, tmp_path):
    model = tmp_path / "model.json"
    model.write_text(DAMAGED[damage][0], encoding="utf-8")
    with pytest.raises(ModelError):
        load_model(model, mbrules.load_game("winning-moves", players=2))


def test_every_shipped_model_passes_the_reader():
    """The bounds refuse damage, not the models `mbrules train` writes."""
    for path in sorted(MODELS_DIR.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        game = mbrules.load_game(doc["ruleset"]["id"], players=doc["players"])
        assert load_model(path, game).kind in ("linear", "mlp", "trees")


def test_a_model_built_in_memory_is_checked_as_a_file_is():
    """ValueModel (the model trained on first use, kept in memory) goes through the same checks."""
    with pytest.raises(ModelError, match="NaN|number"):
        ValueModel(
            {
                "features": ["a"],
                "model": {"kind": "linear", "mean": [0.0], "scale": [1.0], "coef": [float("nan")], "intercept": 0.0},
            }
        )


WM2 = MODELS_DIR / "winning-moves-2p.json"  # fits winning-moves at 2 players, not with hazard-on-hazard


@pytest.mark.parametrize(
    "args,says",
    [
        (["--bots", f"learned:model={WM2}"], "arm B: bot 'learned'"),
        (["--skill-games", "2", "--rung", "random", "--rung", f"learned:model={WM2}"], "arm B: bot 'learned'"),
        (["--bots", "learned:model=no-such-model.json"], "no such model file"),
        (
            ["--skill-games", "2", "--rung", "random", "--rung", "learned:model=no-such-model.json"],
            "no such model file",
        ),
    ],
    ids=["bots-other-rules", "rung-other-rules", "bots-missing", "rung-missing"],
)
def test_compare_checks_every_bot_of_both_arms_before_the_first_match(args, says, tmp_path):
    """--bots and --rung bots are built in the workers: a model that does not fit arm B (or is missing)
    is refused in the command, exit 2 and a sentence, and the report folder is not touched."""
    out = tmp_path / "report"
    res = runner.invoke(
        _app(),
        [
            "compare",
            "winning-moves",
            "--option-b",
            "hazard-on-hazard",
            "-p",
            "2",
            "--games",
            "2",
            "--skill-games",
            "0",
            "--workers",
            "1",
            "--out",
            str(out),
            "--no-charts",
            *args,
        ],
    )
    assert res.exit_code == 2, (res.exit_code, res.output[-1500:], res.exception)
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert says in res.output and "Traceback" not in res.output
    assert not out.exists()


def test_compare_through_the_api_refuses_a_rung_that_does_not_fit_arm_b_before_any_match():
    from mbrules.bots import UnknownBot
    from mbrules.compare import run_compare

    with pytest.raises(UnknownBot, match="trained for winning-moves"):
        run_compare(
            "winning-moves",
            options_b=["hazard-on-hazard"],
            players=2,
            games=2,
            skill_games=2,
            workers=1,
            robust_bots=[],
            ladder=["random", f"learned:model={WM2}"],
        )


def test_sweep_checks_every_bot_against_every_swept_value_before_the_first_match(tmp_path):
    out = tmp_path / "sweep"
    res = runner.invoke(
        _app(),
        [
            "sweep",
            "winning-moves",
            "-p",
            "2",
            "--set",
            "match.target_points=4000,6000",
            "--games",
            "2",
            "--workers",
            "1",
            "--bot",
            f"learned:model={WM2}",
            "--out",
            str(out),
            "--no-charts",
        ],
    )
    assert res.exit_code == 2, (res.exit_code, res.output[-1500:], res.exception)
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert "--set match.target_points=" in res.output and "bot 'learned'" in res.output
    assert "Traceback" not in res.output and not out.exists()


def test_sweep_through_the_api_refuses_a_model_that_does_not_fit_a_value_before_any_match():
    from mbrules.bots import UnknownBot
    from mbrules.sweep import run_sweep

    with pytest.raises(UnknownBot, match="trained for winning-moves"):
        run_sweep(
            "winning-moves",
            ["match.target_points=4000,6000"],
            players=2,
            games=2,
            workers=1,
            bots=[f"learned:model={WM2}"],
        )


@pytest.mark.parametrize("cache", ["a-file", "learned-is-a-file"])
def test_an_unwritable_model_cache_trains_once_a_process_and_says_it_is_not_writable(cache, tmp_path, monkeypatch):
    """A custom ruleset has no shipped model: the bot trains one on first use. When the cache cannot keep
    it, the model used to be trained again for every match while the message said 'once'."""
    pytest.importorskip("sklearn")
    from mbrules.bots import learned, training

    if cache == "a-file":
        where = tmp_path / "cache-file"
        where.write_text("not a folder\n")
    else:
        where = tmp_path / "cache"
        where.mkdir()
        (where / "learned").write_text("not a folder\n")
    monkeypatch.setenv("MBRULES_CACHE", str(where))
    monkeypatch.setattr(learned, "FIRST_USE_GAMES", 4)
    monkeypatch.setattr(learned, "_TRAINED", {}, raising=False)  # a fresh process: nothing trained yet
    calls = tmp_path / "calls"  # a file: a forked worker's training counts too
    real = training.train

    def counted(*a, **k):
        with open(calls, "a") as f:
            f.write("train\n")
        return real(*a, **k)

    monkeypatch.setattr(training, "train", counted)
    custom = Path(__file__).parent.parent / "data" / "custom-hazard.yaml"
    res = runner.invoke(
        _app(),
        [
            "simulate",
            "--ruleset",
            str(custom),
            "-p",
            "2",
            "--games",
            "3",
            "--workers",
            "2",
            "--bot",
            "learned:worlds=1",
            "--json",
        ],
    )
    assert res.exit_code == 0, (res.output[-1500:], res.exception)
    assert calls.read_text().count("train") == 1
    assert "is not writable" in res.output and "kept in memory" in res.output
