"""Bot names with parameters (--bot expert:budget=50): parsed by the registry, checked with a
sentence, and plain names work as before."""

from __future__ import annotations


import pytest

import mbrules
from mbrules.bots import ExpertBot, UnknownBot, check_bot, lineup, make_bot, parse_bot
from mbrules.bots.expert import DEFAULT_BUDGET


def test_plain_names_and_parameters():
    assert parse_bot("heuristic") == ("heuristic", {})
    assert parse_bot("expert:budget=50") == ("expert", {"budget": 50})
    assert parse_bot("expert:budget=5,width=3") == ("expert", {"budget": 5, "width": 3})
    game = mbrules.load_game("winning-moves", players=2)
    bot = make_bot("expert:budget=7", game, 0, seed=1)
    assert isinstance(bot, ExpertBot) and bot.budget == 7
    assert make_bot("expert", game, 0, seed=1).budget == DEFAULT_BUDGET == 96
    assert lineup(["expert:budget=3"], 2) == ["expert:budget=3"] * 2


@pytest.mark.parametrize(
    "spec,words",
    [
        ("nope", "unknown bot 'nope'"),
        ("heuristic:budget=3", "bot 'heuristic' has no parameter 'budget'"),
        ("expert:depth=3", "has no parameter 'depth'"),
        ("expert:budget=x", "budget must be an integer"),
        ("expert:budget=0", "budget must be between 1 and"),
        ("expert:budget=10**9", "budget must be an integer"),
        ("expert:budget", "is not key=value"),
        ("expert:", "parameters after ':'"),
        ("expert:budget=1,budget=2", "given twice"),
        ("expert:" + "x" * 300, "at most 200 characters"),
    ],
)
def test_bad_parameters_are_refused_with_a_sentence(spec, words):
    with pytest.raises(UnknownBot, match=None) as e:
        check_bot(spec)
    assert words in str(e.value)


def test_cli_refuses_a_bad_bot_parameter_with_exit_2():
    from typer.testing import CliRunner

    from mbrules.cli.app import app

    res = CliRunner().invoke(app, ["simulate", "--bot", "expert:budget=0", "--games", "1"])
    assert res.exit_code == 2
    assert "budget must be between 1 and" in res.output
    assert "Traceback" not in res.output
