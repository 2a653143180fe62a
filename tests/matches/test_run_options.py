"""Options shared by every command that plays many matches: one --workers default (the constant
mbrules.matches.DEFAULT_WORKERS), -p for the player count, and a clear exit 2 when the ladder's extra is missing."""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest
from typer.testing import CliRunner

from mbrules._paths import install_hint
from mbrules.cli.app import app
from mbrules.matches import base

runner = CliRunner()

QUICK = {
    "simulate": ["simulate", "--games", "3", "--bot", "random", "--json"],
    "compare": ["compare", "winning-moves", "--games", "2", "--skill-games", "0", "--bot", "random", "--json"],
    "ladder": ["ladder", "--bot", "random", "--bot", "heuristic", "--games", "1", "--json"],
}
# the ladder's ratings need the bots extra: without it, its rows skip (the test below checks its message)
COMMANDS = [
    pytest.param(
        c,
        marks=pytest.mark.skipif(
            c == "ladder" and importlib.util.find_spec("openskill") is None,
            reason="the bots extra (pip install 'mbrules[bots]') is not installed",
        ),
    )
    for c in sorted(QUICK)
]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_takes_its_workers_default_from_the_one_constant(command, monkeypatch):
    monkeypatch.setattr(base, "DEFAULT_WORKERS", 3)  # a value no command would have as its own
    res = runner.invoke(app, [*QUICK[command], "-p", "2"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["settings"]["workers"] == 3


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_that_plays_many_matches_takes_p_for_the_player_count(command):
    res = runner.invoke(app, [*QUICK[command], "-p", "3", "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["settings"]["players"] == 3


def test_ladder_without_openskill_rates_with_bradley_terry_and_says_so(monkeypatch):
    """openskill is an optional extra: without it the ladder still ranks the bots (a Bradley-Terry fit on
    the Elo scale) and names the method, in the text and in --json."""
    for name in [m for m in sys.modules if m == "openskill" or m.startswith("openskill.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "openskill", None)  # what an environment without the extra does: ImportError
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    args = ["ladder", "--bot", "random", "--bot", "heuristic", "--games", "3", "--workers", "1"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "Bradley-Terry" in res.stdout and "openskill is not installed" in res.stdout
    assert "rating (Elo)" in res.stdout and "Traceback" not in res.output
    doc = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    assert doc["rating_method"] == "bradley-terry"
    best, worst = doc["bots"]
    assert best["bot"] == "heuristic" and best["rating"]["elo"] > 1500 > worst["rating"]["elo"]


@pytest.mark.parametrize("command", sorted(QUICK))
def test_help_names_the_extra_ray_needs_and_the_one_workers_default(command):
    """Rich draws --help and took '[cluster]' in pip install 'mbrules[cluster]' for a style tag, dropping it."""
    res = runner.invoke(app, [command, "--help"], terminal_width=200)
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.replace("│", " ").split())
    assert install_hint("cluster") in text
    assert f"default: the CPUs, at most {base.WORKERS_CAP}" in text
