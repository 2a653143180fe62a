"""``mbrules train`` stops on SIGINT and SIGTERM wherever it is, the fit included, with 130 or 143 and the
output as it was; and its memory is bounded whatever --games is: at most --max-positions positions are
kept, a seeded uniform sample beyond (issue 33 item 9). The fit used to ignore a signal until it ended,
then write the model and exit 0; every position of every match was kept (about 0.9 MB a match)."""

from __future__ import annotations

import json
import os
import signal

import pytest
from typer.testing import CliRunner

import mbrules

pytest.importorskip("sklearn")

runner = CliRunner()


def _app():
    from mbrules.cli.app import app

    return app


@pytest.mark.parametrize("signum,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["SIGINT", "SIGTERM"])
def test_a_signal_during_the_fit_stops_train_with_its_code_and_leaves_the_output_as_it_was(
    signum, code, tmp_path, monkeypatch
):
    from mbrules.bots import training

    out = tmp_path / "model.json"
    out.write_text("the user's earlier model\n", encoding="utf-8")
    real = training.fit
    fitted = []

    def fit_signalled(*a, **k):  # the signal arrives while the fit runs (a long fit, in a real run)
        os.kill(os.getpid(), signum)
        fitted.append(real(*a, **k))
        return fitted[-1]

    monkeypatch.setattr(training, "fit", fit_signalled)
    res = runner.invoke(_app(), ["train", "winning-moves", "-p", "2", "--games", "3", "--out", str(out)])
    assert res.exit_code == code, (res.exit_code, res.output[-800:], res.exception)
    assert not fitted  # stopped where it was, not after the fit
    assert out.read_text(encoding="utf-8") == "the user's earlier model\n"
    assert "no model was written" in res.output
    assert [p.name for p in tmp_path.iterdir()] == ["model.json"]  # no temporary file left


def test_train_keeps_at_most_max_positions_for_the_fit_and_says_the_limit_in_help(tmp_path):
    out = tmp_path / "model.json"
    res = runner.invoke(
        _app(),
        ["train", "winning-moves", "-p", "2", "--games", "12", "--max-positions", "1000", "--out", str(out), "--json"],
    )
    assert res.exit_code == 0, (res.output[-800:], res.exception)
    figures = json.loads(res.output[res.output.index("{") :])
    assert figures["positions"] == 1000 and figures["positions_seen"] > 1000
    assert json.loads(out.read_text())["training"]["max_positions"] == 1000
    assert "--max-positions" in runner.invoke(_app(), ["train", "--help"], env={"COLUMNS": "200"}).output
    res = runner.invoke(
        _app(), ["train", "winning-moves", "-p", "2", "--max-positions", "3000000", "--out", str(tmp_path / "m2.json")]
    )
    assert res.exit_code == 2 and "--max-positions must be from 1,000 to 2,000,000" in res.output


def test_the_positions_kept_past_the_limit_are_a_seeded_sample_in_the_order_played():
    """Under the limit every position is kept, in order (the shipped models are reproduced byte for byte);
    past it, the same seed keeps the same positions; the memory is the limit's, not the games'."""
    from mbrules.bots.training import self_play

    game = mbrules.load_game("winning-moves", players=2)
    X_all, y_all, seen = self_play(game, 6, 1, hand=False)
    assert len(y_all) == seen > 600
    X, y, seen2 = self_play(game, 6, 1, hand=False, max_positions=500)
    assert seen2 == seen and X.shape == (500, X_all.shape[1]) and len(y) == 500
    rows = {tuple(r): k for k, r in enumerate(X_all.tolist())}
    where = [rows[tuple(r)] for r in X.tolist()]  # every kept row is a played position, in the order played
    assert where == sorted(where)
    X2, y2, _ = self_play(game, 6, 1, hand=False, max_positions=500)
    assert (X2 == X).all() and (y2 == y).all()


def test_a_bound_whose_positions_would_not_fit_in_memory_is_refused_before_any_work(tmp_path, monkeypatch):
    """Issue 42 item 13: memory does not grow with --games (a reservoir keeps --max-positions), so the bound
    is what must fit: one whose positions, at the fit's peak, need more than the memory available now is
    refused with exit 2 before self-play starts, saying how many would fit; one that fits runs as before."""
    from mbrules.bots import training

    game = mbrules.load_game("winning-moves", players=2)
    per = training.fit_bytes(game, 1)
    monkeypatch.setattr(training, "available_memory", lambda: per * 150_000)

    def no_work(*a, **k):
        raise AssertionError("self-play started")

    monkeypatch.setattr(training, "self_play", no_work)
    out = tmp_path / "m.json"
    args = ["train", "winning-moves", "-p", "2", "--games", "1000000", "--out", str(out)]
    r = runner.invoke(_app(), [*args, "--max-positions", "2000000"])
    assert r.exit_code == 2, r.output
    assert "at most 150,000 positions would fit; pass --max-positions 150000 or fewer" in r.output
    assert not out.exists()
    monkeypatch.setattr(training, "available_memory", lambda: None)  # where it cannot be told: no refusal
    r = runner.invoke(_app(), [*args, "--max-positions", "2000000"])
    assert isinstance(r.exception, AssertionError) and "self-play started" in str(r.exception)
