"""Small truths a newcomer meets (issue 34 item 4): each said once, where it lives, the same everywhere."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from mbrules.cli.app import app

runner = CliRunner()


def _err(*args: str):
    res = runner.invoke(app, list(args))
    return res.exit_code, " ".join(res.output.split())


@pytest.mark.parametrize(
    "command",
    [
        ["play"],
        ["simulate", "--games", "1"],
        ["ladder", "--bot", "random"],
        ["compare", "winning-moves", "--games", "2"],
    ],
)
def test_a_misspelt_bot_gets_a_did_you_mean(command):
    code, words = _err(*command, "--bot", "heuristc")
    assert code == 2 and "unknown bot 'heuristc': did you mean 'heuristic'?" in words


def test_a_bot_name_like_no_other_gets_the_list_only():
    code, words = _err("play", "--bot", "zzz")
    assert code == 2 and "did you mean" not in words and "(bots: expert, heuristic" in words


def test_show_and_play_refuse_a_player_count_in_the_same_words():
    """One sentence (mbrules.engine.words.players_refused) for show -p 7, play -p 7 and the Python API."""
    import mbrules
    from mbrules.engine import GameError

    sentence = "winning-moves is not played with 7 players (it allows 2, 3, 4, 6)"
    for args in (["show", "winning-moves", "-p", "7"], ["play", "-p", "7"], ["simulate", "-p", "7"]):
        code, words = _err(*args)
        assert code == 2 and words == f"mbrules: {sentence}", args
    with pytest.raises(GameError, match=r"is not played with 7 players \(it allows 2, 3, 4, 6\)"):
        mbrules.load_game("winning-moves", players=7)


def test_simulate_says_coups_fourres_with_the_accent():
    res = runner.invoke(app, ["simulate", "--games", "4", "--workers", "1"])
    assert res.exit_code == 0
    assert "Coups fourrés per hand" in res.stdout and "ourres" not in res.stdout
    assert "Hands whose trip is completed" in res.stdout  # the registry's names, as compare prints them


@pytest.mark.parametrize(
    "value,ci,share,shown",
    [
        (68.675, (64.52, 72.83), False, ("69", "[65, 73]")),  # ±4.2: units
        (3.6, (3.42, 3.78), False, ("3.60", "[3.42, 3.78]")),  # ±0.18 starts with 1: two digits
        (0.8257, (0.758, 0.894), True, ("83%", "[76%, 89%]")),  # a share in percent
        (1262.3, (1211.0, 1313.6), False, ("1262", "[1211, 1314]")),
        (0.36194, (0.35312, 0.37061), False, ("0.362", "[0.353, 0.371]")),
        (5.0, (5.0, 5.0), False, ("5", "[5, 5]")),  # no spread: no digits made up
        (None, None, False, ("–", "")),
        (17818, None, False, ("17,818", "")),
    ],
)
def test_simulate_shows_a_figure_to_the_digits_its_interval_supports(value, ci, share, shown):
    from mbrules.cli.play_cmds import _figure

    assert _figure(value, ci, share) == shown


def test_no_benchmark_needs_a_worktree_of_an_old_commit():
    """The starting heuristic is the registered bot heuristic-2026: a benchmark's usage never asks for a
    worktree of an old commit (/tmp/h0), which a fresh clone does not have."""
    from pathlib import Path

    from mbrules.bots import bot_names

    root = Path(__file__).resolve().parents[1]
    assert "heuristic-2026" in bot_names()
    for path in sorted((root / "benchmarks").rglob("*.py")) + [root / "docs" / "bots.md"]:
        assert "/tmp/h0" not in path.read_text(encoding="utf-8"), path.name
