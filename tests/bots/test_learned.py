"""The learned bot: features from the ruleset's own cards, model files tied to their ruleset, training
deterministic for a seed, the search's decisions, and ``mbrules train`` on the command line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mbrules
from mbrules.bots import make_bot, parse_bot, UnknownBot, check_bot
from mbrules.bots.features import Featurizer
from mbrules.bots.value_model import (
    MODELS_DIR,
    ModelError,
    ValueModel,
    bundled_model_path,
    load_model,
    read_model_file,
    ruleset_digest,
)
from mbrules.engine import Game
from mbrules.engine.determinize import determinize
from mbrules.ruleset import load_ruleset
from mbrules.testing import tables
from bots_helpers import decisions

CUSTOM = Path(__file__).parent.parent / "data" / "custom-hazard.yaml"
runner = CliRunner()


def _app():
    from mbrules.cli.app import app

    return app


def test_features_of_a_custom_hazard_come_from_its_cards():
    game = Game(load_ruleset(str(CUSTOM)), 2)
    names = Featurizer(game, hand=True).names
    for name in (
        "me.stopped_by.ice",
        "opp1.stopped_by.ice",
        "me.safety.snow_tires",
        "me.exposed.ice",
        "unseen.ice",
        "unseen.salt",
        "hand.salt",
    ):
        assert name in names
    wm = Featurizer(mbrules.load_game("winning-moves", players=2), hand=True).names
    assert "unseen.ice" not in wm and "unseen.stop" in wm


def test_features_have_their_names_length_for_every_bundled_player_count():
    for players in (2, 3, 4, 6):
        game = mbrules.load_game("winning-moves", players=players)
        for hand in (True, False):
            feat = Featurizer(game, hand)
            for st, p, _ in decisions(game, seed=1, every=7):
                assert len(feat(st.observation(p))) == len(feat.names)


def test_features_do_not_change_with_the_hidden_cards():
    game = mbrules.load_game("winning-moves", players=2)
    feat = Featurizer(game, hand=True)
    rng = random.Random(3)
    for st, p, _ in decisions(game, seed=5, every=5):
        obs = st.observation(p)
        w = determinize(obs, rng)
        assert feat(w.observation(p)) == feat(obs)


def test_ruleset_digest_tells_options_apart_and_not_loads():
    a = mbrules.load_game("winning-moves", players=2)
    assert ruleset_digest(a) == ruleset_digest(mbrules.load_game("winning-moves", players=2))
    assert ruleset_digest(a) != ruleset_digest(
        mbrules.load_game("winning-moves", players=2, options=["hazard-on-hazard"])
    )


@pytest.mark.parametrize("ruleset,players", tables())  # every bundled edition at each player count it names
def test_a_model_ships_for_every_bundled_edition_at_each_player_count(ruleset, players):
    game = mbrules.load_game(ruleset, players=players)
    path = bundled_model_path(game)
    assert path is not None and path.parent == MODELS_DIR
    model = load_model(path, game)
    assert len(model.features) == len(Featurizer(game, hand=False).names)


def test_a_shipped_model_is_refused_for_another_ruleset_with_a_sentence():
    path = MODELS_DIR / "winning-moves-2p.json"
    for other in (
        mbrules.load_game("parker-1971", players=2),
        mbrules.load_game("winning-moves", players=4),
        mbrules.load_game("winning-moves", players=2, options=["hazard-on-hazard"]),
    ):
        with pytest.raises(ModelError, match="was trained for winning-moves at 2 players, not for this game"):
            load_model(path, other)


def test_a_file_that_is_not_a_model_is_refused(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ModelError, match="invalid JSON"):
        read_model_file(bad)
    bad.write_text(json.dumps({"format": "something else"}), encoding="utf-8")
    with pytest.raises(ModelError, match="not an mbrules learned-value model"):
        read_model_file(bad)
    with pytest.raises(ModelError, match="no such model file"):
        read_model_file(tmp_path / "missing.json")


def test_bot_parameters_take_a_model_path_and_check_it_against_the_game(tmp_path):
    assert parse_bot("learned:model=a/b.json,worlds=4") == ("learned", {"model": "a/b.json", "worlds": 4})
    with pytest.raises(UnknownBot, match="worlds must be between 1 and 256"):
        parse_bot("learned:worlds=0")
    game = mbrules.load_game("parker-1971", players=2)
    with pytest.raises(UnknownBot, match="trained for winning-moves"):
        check_bot(f"learned:model={MODELS_DIR / 'winning-moves-2p.json'}", game)


def test_linear_value_is_the_dot_product_of_standardized_features():
    doc = {
        "features": ["a", "b"],
        "model": {"kind": "linear", "mean": [1.0, 0.0], "scale": [2.0, 1.0], "coef": [4.0, -1.0], "intercept": 10.0},
    }
    m = ValueModel(doc)
    # 10 + 4 * (3 - 1) / 2 - 1 * 5
    assert m.value([3.0, 5.0]) == pytest.approx(9.0)
    assert m.values([[3.0, 5.0], [1.0, 0.0]]) == pytest.approx([9.0, 10.0])


def test_trees_value_walks_each_tree_and_adds_the_leaves_to_the_base():
    # one tree: x0 <= 1.5 -> leaf 10, else (x1 <= 0 -> leaf -4, else leaf 7)
    tree = {
        "feature": [0, -1, 1, -1, -1],
        "threshold": [1.5, 0, 0.0, 0, 0],
        "left": [1, 0, 3, 0, 0],
        "right": [2, 0, 4, 0, 0],
        "value": [0, 10.0, 0, -4.0, 7.0],
    }
    doc = {
        "features": ["a", "b"],
        "model": {"kind": "trees", "mean": [0, 0], "scale": [1, 1], "base": 100.0, "trees": [tree, tree]},
    }
    m = ValueModel(doc)
    assert m.values([[1.0, 9.0], [2.0, 0.0], [2.0, 1.0]]) == pytest.approx([120.0, 92.0, 114.0])


def test_a_tree_that_points_outside_itself_is_refused():
    tree = {"feature": [0], "threshold": [1.0], "left": [5], "right": [6], "value": [0.0]}
    with pytest.raises(ModelError, match="tree"):
        ValueModel(
            {"features": ["a"], "model": {"kind": "trees", "mean": [0], "scale": [1], "base": 0.0, "trees": [tree]}}
        )


def test_trees_exported_from_scikit_learn_predict_what_scikit_learn_predicts():
    pytest.importorskip("sklearn")
    import numpy as np
    from mbrules.bots.training import fit

    rng = random.Random(3)
    X = [[rng.random() * 4, float(rng.randrange(3)), rng.random()] for _ in range(400)]
    y = [10 * x[0] * x[1] - 5 * x[2] + rng.random() for x in X]
    model, figures = fit(X, y, kind="trees")
    m = ValueModel({"features": ["a", "b", "c"], "model": model})
    from sklearn.ensemble import HistGradientBoostingRegressor
    from mbrules.bots import training

    ref = HistGradientBoostingRegressor(
        max_iter=training.TREES,
        max_leaf_nodes=training.TREE_LEAVES,
        learning_rate=0.1,
        early_stopping=False,
        random_state=0,
    )
    cut = len(y) - len(y) // 10
    ref.fit(np.asarray(X[:cut]), np.asarray(y[:cut]))
    # leaf values are written with 6 significant digits
    assert m.values(X[:50]) == pytest.approx(list(ref.predict(np.asarray(X[:50]))), rel=1e-4, abs=1e-3)
    assert figures["r2_held_out"] > 0.9


def test_learned_bot_plays_legal_actions_through_a_whole_match_and_repeats_it():
    from mbrules.matches import play_match

    game = mbrules.load_game("winning-moves", players=2)
    a = play_match(game, 11, ["learned", "heuristic"])
    b = play_match(game, 11, ["learned", "heuristic"])
    assert a.is_terminal() and a.outcome == b.outcome


def test_learned_bot_takes_the_trip_when_the_last_card_completes_it():
    """A distance card that ends the hand with the trip done is worth more than anything else."""
    game = mbrules.load_game("winning-moves", players=2)
    for st, p, acts in decisions(game, seed=2, hands=3):
        obs = st.observation(p)
        target = obs.target
        done = [
            a
            for a in acts
            if a.op == "play" and game.miles[a.card_index] and obs.my_side.miles + game.miles[a.card_index] == target
        ]
        if done and obs.extension_called_by < 0 and obs.target == game.extension_to:
            bot = make_bot("learned", game, p, seed=1)
            assert bot.choose(obs, acts) in done


def test_training_is_deterministic_for_a_seed():
    pytest.importorskip("sklearn")
    from mbrules.bots.training import train

    game = mbrules.load_game("winning-moves", players=2)
    # 3 self-play matches a model, not 12 (issue 46 point 7: 1.4 -> 0.8 CPU-s at 6, 0.3 less at 3): an
    # unseeded exploration or a match seed that ignores the run's seed shows at 3 as at 12
    a = train(game, games=3, seed=4)
    b = train(game, games=3, seed=4)
    c = train(game, games=3, seed=5)
    assert a == b
    assert a["model"] != c["model"]
    assert a["ruleset"]["digest"] == ruleset_digest(game) and a["players"] == 2


def test_train_command_writes_a_model_that_plays_and_is_refused_elsewhere(tmp_path):
    pytest.importorskip("sklearn")
    out = tmp_path / "m.json"
    r = runner.invoke(_app(), ["train", "winning-moves", "-p", "2", "--games", "8", "--out", str(out), "--json"])
    assert r.exit_code == 0, r.output
    figures = json.loads(r.stdout)
    assert figures["games"] == 8 and figures["positions"] > 0 and out.is_file()
    r = runner.invoke(_app(), ["play", "-p", "2", "--bot", f"learned:model={out}", "--json"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(_app(), ["play", "-p", "2", "--ruleset", "parker-1971", "--bot", f"learned:model={out}"])
    assert r.exit_code == 2
    assert "was trained for winning-moves at 2 players" in r.stderr
    assert "Traceback" not in r.output


def test_train_command_refuses_bad_input_before_any_work(tmp_path):
    r = runner.invoke(_app(), ["train", "winning-moves", "-p", "2", "--games", "0", "--out", str(tmp_path / "m.json")])
    assert r.exit_code == 2
    r = runner.invoke(_app(), ["train", "winning-moves", "-p", "2", "--out", str(tmp_path / "no" / "m.json")])
    assert r.exit_code == 2 and "no such folder" in r.stderr
    r = runner.invoke(_app(), ["train", "no-such-ruleset", "-p", "2", "--out", str(tmp_path / "m.json")])
    assert r.exit_code == 2
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
def test_a_custom_ruleset_trains_a_model_on_first_use_and_caches_it(tmp_path, monkeypatch):
    pytest.importorskip("sklearn")
    from mbrules.bots import learned

    monkeypatch.setenv("MBRULES_CACHE", str(tmp_path))
    monkeypatch.setattr(learned, "FIRST_USE_GAMES", 10)
    game = Game(load_ruleset(str(CUSTOM)), 2)
    model = learned.model_for(game)
    cached = list((tmp_path / "learned").glob("custom-hazard-*-2p.json"))
    assert len(cached) == 1
    assert "opp1.stopped_by.ice" in model.features
    monkeypatch.setattr(learned, "FIRST_USE_GAMES", 0)  # a second use trains nothing: it reads the cache
    assert learned.model_for(game).features == model.features


@pytest.mark.slow
def test_bench_learned_prints_a_paired_win_share_and_the_cpu_per_decision():
    import re
    import subprocess
    import sys

    root = Path(__file__).parent.parent.parent
    run = lambda *a: subprocess.run(
        [sys.executable, "benchmarks/bench_learned.py", *a],
        cwd=root,  # noqa: E731
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = run("versus", "heuristic", "heuristic-2026", "--games", "2")
    assert out.returncode == 0, out.stderr
    m = re.search(r"heuristic won (\d+) of 4 matches \(2 deals x 2 seatings\)", out.stdout)
    assert m and 0 <= int(m.group(1)) <= 4
    out = run("speed", "--matches", "1")
    assert out.returncode == 0, out.stderr
    assert re.search(r"\d+ decisions, CPU per decision mean [\d.]+ ms", out.stdout)
    out = run("versus", "hands:learned", "heuristic-2026", "--games", "1")
    assert out.returncode == 0, out.stderr
    assert re.search(r"hands:learned won \d of 2 matches", out.stdout)
    out = run("versus", "draws:learned", "heuristic-2026", "--games", "1")
    assert out.returncode == 0, out.stderr
    assert re.search(r"draws:learned won \d of 2 matches", out.stdout)


def test_learned_plays_the_heuristics_choice_at_a_turn_by_default():
    """width=1 is the default (docs/bots.md: 57.1% against heuristic-2026 where width=3 gave 52.6%): at a
    turn the learned bot plays the heuristic's first choice; its value decides the other questions."""
    from mbrules.bots.learned import DEFAULT_WIDTH, LearnedBot
    from mbrules.vocab import DecisionKind

    assert DEFAULT_WIDTH == 1
    game = mbrules.load_game("winning-moves", players=2)
    bot = make_bot("learned", game, 0, seed=3)
    assert isinstance(bot, LearnedBot) and bot.width == 1
    st = game.new_match(5)
    turns = 0
    while not st.is_terminal() and turns < 40:
        acts = st.legal_actions()
        if st.current_player == 0 and st.decision.kind == DecisionKind.TURN and len(acts) > 1:
            obs = st.observation(0)
            assert bot.choose(obs, acts) == bot.heuristic.rank(obs, acts)[0]
            turns += 1
        st.apply(acts[0] if st.current_player else bot.choose(st.observation(0), acts))
    assert turns >= 10


def test_compare_ranks_the_learned_bot_only_when_asked():
    """compare's default ladder leaves the learned bot out (it may train a model first: seconds of CPU and a
    large peak of memory on a new ruleset); --rung learned still ranks it."""
    from mbrules.compare.run import default_ladder

    assert "learned" not in " ".join(default_ladder())
    assert default_ladder() == ["random", "heuristic", "expert:budget=4,width=2"]
