"""mbrules ladder: a round robin between named bots over swapped seats and paired seeds; the
table, --json, the same figures for any --workers, and bad input refused with exit 2."""
from __future__ import annotations

import importlib.util
import json

import pytest
from typer.testing import CliRunner

from mbrules.cli.app import app

needs_openskill = pytest.mark.skipif(importlib.util.find_spec("openskill") is None,
                                     reason="the bots extra (pip install 'mbrules[bots]') is not installed")

runner = CliRunner()


def ladder(*args):
    return runner.invoke(app, ["ladder", *args])


@needs_openskill
def test_ladder_prints_the_table():
    res = ladder("--bot", "random", "--bot", "heuristic", "--bot", "expert:budget=2,width=2", "--players", "2",
                 "--games", "1")
    assert res.exit_code == 0, res.output
    for words in ("Ladder", "win rate", "95% CI", "rating mu", "random", "heuristic", "Pairs"):
        assert words in res.output
    assert "expert:budget=2,width=2" in res.output.replace("\n", "").replace("│", "").replace(" ", "") or \
        "expert:budget=2,width=2" in "".join(res.output.split())


@needs_openskill
def test_ladder_json_counts_and_same_for_any_workers():
    args = ["--bot", "random", "--bot", "heuristic", "--players", "4", "--games", "3", "--json"]
    one = json.loads(ladder(*args, "--workers", "1").output)
    two = json.loads(ladder(*args, "--workers", "2").output)
    for d in (one, two):
        d.pop("seconds")
        d["settings"].pop("workers")
    assert one == two
    (pair,) = one["pairs"]
    assert pair["matches"] == 6  # 3 deals x 2 seatings
    assert pair["a_wins"] + pair["b_wins"] + pair["draws_or_unfinished"] == 6
    assert pair["b_wins"] >= 5  # the heuristic partnership beats the random one
    rows = {r["bot"]: r for r in one["bots"]}
    assert one["bots"][0]["bot"] == "heuristic"
    lo, hi = rows["heuristic"]["ci95"]
    assert 0 <= lo <= rows["heuristic"]["win_rate"] <= hi <= 1


@needs_openskill
def test_three_sides_play_six_seatings():
    d = json.loads(ladder("--bot", "random", "--bot", "heuristic", "--players", "3", "--games", "1",
                          "--json").output)
    assert d["seatings_per_seed"] == 6 and d["pairs"][0]["matches"] == 6


@pytest.mark.parametrize("args,words", [
    (["--bot", "random"], "at least two --bot"),
    (["--bot", "random", "--bot", "random"], "given twice"),
    (["--bot", "random", "--bot", "nope"], "unknown bot 'nope'"),
    (["--bot", "random", "--bot", "expert:budget=-1"], "budget must be between"),
    (["--bot", "random", "--bot", "heuristic", "--games", "0"], "--games must be"),
    (["--bot", "random", "--bot", "heuristic", "--workers", "0"], "--workers must be"),
    # checked after the extra (the missing extra is said first, and skipped here without it)
    pytest.param(["--bot", "random", "--bot", "heuristic", "--players", "5"], "is not played with 5 players",
                 marks=needs_openskill),
    pytest.param(["--bot", "random", "--bot", "heuristic", "--ruleset", "no-such"], "no-such", marks=needs_openskill),
])
def test_bad_input_exits_2_with_a_sentence(args, words):
    res = ladder(*args)
    assert res.exit_code == 2, res.output
    assert words in res.output
    assert "Traceback" not in res.output


@needs_openskill
def test_a_huge_ladder_is_fed_lazily_and_stops_cleanly():
    """A million deals a pair: the work is handed out in seed ranges as workers free up and tallied
    as it comes back (never a list of every job, never a result per deal kept), and an interrupt
    kills the workers at once."""
    import tracemalloc

    import mbrules
    from mbrules.matches.ladder import run_ladder

    class Stop(Exception):
        pass

    def progress(done, total):
        assert total == 10**6
        if done >= 16:
            raise Stop

    game = mbrules.load_game("winning-moves", players=2)
    tracemalloc.start()
    with pytest.raises(Stop):
        run_ladder(game, ["random", "heuristic"], 10**6, 1, workers=2, progress=progress)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 20 * 2**20, f"{peak / 2**20:.0f} MB traced for a ladder that played 16 deals"
