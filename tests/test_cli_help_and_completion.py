"""Issue 29 items 1 and 2: shell completion of values, and help text shown as written (no Rich markup)."""

from __future__ import annotations

import functools
import re

import pytest
import typer
from typer.testing import CliRunner

from mbrules._paths import install_hint
from mbrules.bots import bot_names
from mbrules.cli.app import app
from mbrules.ruleset.listing import bundled_ids

RULESETS = bundled_ids(False)
OPTIONS = bundled_ids(True)


def complete(line: str) -> list[str]:
    """What bash gets back for the last word of ``line`` (Typer's own completion protocol)."""
    words = line.split(" ")
    res = CliRunner().invoke(
        app,
        [],
        prog_name="mbrules",
        env={"_MBRULES_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": str(len(words) - 1)},
    )
    assert res.exit_code == 0, res.output
    return [w for w in res.output.splitlines() if w]


def test_the_bundled_lists_are_what_the_contract_names():
    assert {"parker-1971", "winning-moves", "kids-115", "wikipedia", "dujardin-classic"} <= set(RULESETS)
    assert {"extension-1200", "hazard-on-hazard", "simpler-game"} <= set(OPTIONS)


@pytest.mark.parametrize(
    "line",
    [
        "mbrules show ",
        "mbrules diff winning-moves ",
        "mbrules play --ruleset ",
        "mbrules simulate -r ",
        "mbrules compare ",
        "mbrules compare winning-moves ",
        "mbrules ladder --ruleset ",
    ],
)
def test_a_ruleset_completes_to_the_bundled_ruleset_ids(line):
    assert complete(line) == RULESETS


def test_a_ruleset_completes_by_its_prefix():
    assert complete("mbrules show w") == [r for r in RULESETS if r.startswith("w")] == ["wikipedia", "winning-moves"]


@pytest.mark.parametrize(
    "line",
    [
        "mbrules show winning-moves --option ",
        "mbrules play -o ",
        "mbrules diff a b --option ",
        "mbrules compare winning-moves --option-b ",
        "mbrules compare winning-moves --option-a ",
    ],
)
def test_an_option_completes_to_the_bundled_option_ids(line):
    assert complete(line) == OPTIONS


@pytest.mark.parametrize("line", ["mbrules play --bot ", "mbrules simulate -b ", "mbrules ladder --bot "])
def test_a_bot_completes_to_the_bot_names(line):
    assert complete(line) == bot_names()
    assert {"random", "heuristic", "expert", "heuristic-2026"} <= set(complete(line))


@pytest.mark.parametrize(
    "line",
    [
        "mbrules show ./",
        "mbrules show examples/st",
        "mbrules play --ruleset ~/r",
        "mbrules show my.yaml",
        "mbrules play --option ../opt",
        "mbrules show zzz",
    ],
)
def test_a_path_gets_no_names_so_the_shell_completes_it_as_a_file(line):
    assert complete(line) == []


@functools.cache
def _all_commands():
    """The app's commands, its click tree built once for the module (~25 ms a build; the tests read it)."""
    group = typer.main.get_command(app)
    return sorted(group.commands.items())


def _flat(text: str) -> str:
    """Help as one line of words: Rich's boxes and wrapping taken out."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


@pytest.mark.parametrize("name", [n for n, _ in _all_commands()])
def test_every_bracket_in_a_help_string_is_shown_as_written(name):
    """Rich markup would take '[cluster]' of pip install 'mbrules[cluster]' for a style and drop it."""
    command = dict(_all_commands())[name]
    res = CliRunner().invoke(app, [name, "--help"], env={"COLUMNS": "1000", "TERMINAL_WIDTH": "1000"})
    assert res.exit_code == 0, res.output
    shown = _flat(res.output)
    texts = [p.help or "" for p in command.params] + [(command.help or "").split("\n\n")[0]]
    for text in texts:
        for token in re.findall(r"\S*\[[^\]\s]+\]\S*", text):
            assert token.rstrip(".,;:)") in shown, (name, token)


def test_the_backend_help_names_the_cluster_extra():
    for name in ("simulate", "compare", "ladder"):
        res = CliRunner().invoke(app, [name, "--help"], env={"COLUMNS": "1000", "TERMINAL_WIDTH": "1000"})
        assert install_hint("cluster") in _flat(res.output), name  # pip install -e '.[cluster]' in a checkout


def test_every_command_that_takes_a_player_count_takes_dash_p():
    """Contract: -p/--players is the player count in every command that takes one."""
    takes = {name: [p for p in command.params if p.name == "players"] for name, command in _all_commands()}
    missing = [name for name, params in takes.items() if params and "-p" not in params[0].opts]
    assert [n for n, p in takes.items() if p] and missing == []


GAME_COMMANDS = ("play", "simulate", "replay", "compare", "sweep", "ladder", "train")


@pytest.mark.parametrize("name", [n for n, _ in _all_commands()])
def test_no_help_text_has_a_hard_line_break_inside_a_paragraph(name):
    """Help paragraphs are one line each in the source, so Rich folds them to the terminal: a hard break
    inside a paragraph shows as a short line at 80 columns (ladder's and train's did)."""
    command = dict(_all_commands())[name]
    for paragraph in (command.help or "").strip().split("\n\n"):
        assert "\n" not in paragraph.strip(), (name, paragraph[:60])


@pytest.mark.parametrize("name", GAME_COMMANDS)
def test_every_command_that_runs_games_shows_an_example(name):
    res = CliRunner().invoke(app, [name, "--help"], env={"COLUMNS": "80"})
    assert res.exit_code == 0
    assert re.search(r"Examples?[^:]*:.*\bmbrules " + name, _flat(res.output)), name


def test_the_top_level_help_names_every_kind_of_run():
    """A newcomer's `mbrules --help` says what compare, sweep, ladder and train are for, not only their names."""
    res = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "80"})
    intro = _flat(res.output).split("Options")[0]
    for name in ("compare", "sweep", "ladder", "train"):
        assert name in intro, name
