"""CLI polish: --version, completion, -p everywhere, readable metavars, diff --exit-code, paths as typed,
an option file labelled by its id, replay given a ruleset, option groups listed."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mbrules.ruleset.listing import OPTION_CATEGORIES

from authoring_helpers import ROOT, run, write

MBRULES = str(Path(sys.executable).parent / "mbrules")
COMMANDS = ["rulesets", "show", "validate", "schema", "diff", "play", "simulate", "replay"]


def test_version_prints_the_installed_version():
    from importlib.metadata import version

    result = subprocess.run([MBRULES, "--version"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.strip() == f"mbrules {version('mbrules')}"


def test_shell_completion_is_offered():
    out = run("--help").stdout
    assert "--install-completion" in out and "--show-completion" in out


@pytest.mark.parametrize("command", ["show", "play", "simulate"])
def test_every_command_with_a_player_count_takes_dash_p(command):
    out = run(command, "--help").stdout
    assert re.search(r"--players\s+-p", out), out


@pytest.mark.parametrize("command", COMMANDS)
def test_help_shows_no_python_types(command):
    out = run(command, "--help").stdout
    assert not re.search(r"<[a-z][a-zA-Z\[\] ]*>", out), out


def test_diff_exit_code_is_one_when_rulesets_differ_like_git_diff():
    assert run("diff", "winning-moves", "winning-moves", "--exit-code").exit_code == 0
    assert run("diff", "winning-moves", "winning-moves", "-o", "hazard-on-hazard", "--exit-code").exit_code == 1
    assert run("diff", "winning-moves", "winning-moves", "-o", "hazard-on-hazard").exit_code == 0
    result = run("diff", "winning-moves", "parker-1971", "--exit-code", "--json")
    assert result.exit_code == 1 and json.loads(result.stdout)["changes"]


def test_validate_prints_paths_as_typed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub" / "m.yaml", "id: m\nname: M\nextends: winning-moves\n")
    typed = "./sub/../sub/m.yaml"
    assert run("validate", typed).stdout.strip() == f"OK {typed}"
    write(tmp_path / "sub" / "bad.yaml", "id: m\nname: M\nextends: winning-moves\nplay: {hand_sise: 2}\n")
    result = run("validate", "./sub/bad.yaml")
    assert result.exit_code == 1 and result.output.startswith("./sub/bad.yaml:4:")


def test_show_and_diff_name_the_file_as_typed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "bad.yaml", "id: b\nname: B\nextends: winning-moves\nplay: {hand_sise: 2}\n")
    for args in (("show", "./bad.yaml"), ("diff", "winning-moves", "./bad.yaml")):
        result = run(*args)
        assert result.exit_code == 1 and result.output.startswith("./bad.yaml:4:"), result.output


def test_an_option_given_as_a_file_is_labelled_by_its_id(tmp_path):
    opt = write(
        tmp_path / "some-file-name.yaml",
        "kind: option\nid: seven-cards\nname: Seven\nplay:\n  hand_size: {value: 7, decided: more}\n",
    )
    result = run("show", "winning-moves", "-o", opt, "--json")
    assert json.loads(result.stdout)["ruleset"]["applied_options"] == ["seven-cards"]


@pytest.mark.parametrize(
    "path, what", [("examples/stap-op.yaml", "a ruleset"), ("rulesets/options/hazard-on-hazard.yaml", "an option")]
)
def test_replay_given_a_ruleset_says_to_validate_it(path, what):
    result = run("replay", ROOT / path)
    assert result.exit_code == 1
    assert f"this is {what}, not a scenario: check it with 'mbrules validate" in result.output
    assert "unknown key" not in result.output


def test_rulesets_lists_option_groups():
    out = run("rulesets", "--long").stdout  # the column after the ids follows the longest id
    assert re.search(r"  simpler-game .*\n(?: {20,}.*\n)*? {20,}group: game-mode, trip-length\n", out)
    doc = json.loads(run("rulesets", "--json").stdout)
    groups = {o["id"]: o["groups"] for o in doc["options"]}
    assert groups["longer-game"] == ["game-mode"] and groups["no-voluntary-discard"] == []
    assert groups["hazard-on-hazard"] == groups["stacked-hazards"] == ["covered-hazards"]


def test_rulesets_lists_the_options_under_their_category_each_with_its_source():
    """Issue 35: `mbrules rulesets` lists the options grouped by what they change, each with its source;
    every bundled option says its category, and the listing fits 80 columns."""
    out = run("rulesets", "--long").stdout
    assert all(len(line) <= 80 for line in out.splitlines())
    options = out[out.index("Options") :]
    headings = [line.split(":")[0] for line in options.splitlines()[1:] if line and not line.startswith(" ")]
    doc = json.loads(run("rulesets", "--json").stdout)
    used = {o["category"] for o in doc["options"]}
    # in OPTION_CATEGORIES' order; empty ones left out
    assert headings == [c.capitalize() for c in OPTION_CATEGORIES if c in used]
    after = headings[headings.index("Legality") + 1]
    legality = options[options.index("Legality:") : options.index(f"{after}:")]
    assert "  hazard-on-hazard " in legality and "  shutout-per-opponent " not in legality
    assert "source: winning-moves.txt §12 Hint H" in legality  # speed-limit-stacking's own source
    cats = {o["id"]: o["category"] for o in doc["options"]}
    assert cats["simpler-game"] == "modes" and cats["extension-1200"] == "scoring"
    assert all(cats[o] for o in cats), "every bundled option has a category"
    assert all(o["source"] for o in doc["options"])


@pytest.mark.parametrize(
    "text, message",
    [
        # the category is one of a closed list (the schema's enum), so a typo does not make a new heading
        (
            "kind: option\nid: opt\nname: O\ncategory: legalty\nplay:\n  hand_size: {value: 7, decided: x}\n",
            "opt.yaml:4:11: category must be one of turn, piles, legality, scoring, tables, modes",
        ),
        # a category says where an option is listed; a ruleset is listed apart, so it has none
        ("id: r\nname: R\nextends: winning-moves\ncategory: legality\n", "opt.yaml:4:1: only an option has a category"),
    ],
    ids=["unknown-category", "ruleset-with-category"],
)
def test_a_category_off_the_list_or_on_a_ruleset_is_refused(tmp_path, text, message):
    bad = tmp_path / "opt.yaml"
    bad.write_text(text)
    result = run("validate", str(bad))
    assert result.exit_code == 1
    assert message in result.output


def test_rulesets_does_not_build_the_models():
    code = (
        "import sys; sys.argv=['mbrules','rulesets']\nfrom mbrules.cli.app import app\n"
        "try: app()\nexcept SystemExit: pass\n"
        "assert 'mbrules.ruleset.model' not in sys.modules, 'the models were built'"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_a_ruleset_warning_is_one_line_on_stderr(tmp_path):
    f = write(tmp_path / "h.yaml", "id: h\nname: H\nextends: winning-moves\nplay:\n  hand_size: 5\n")
    result = subprocess.run(
        [
            MBRULES,
            "show",
            str(f),
            "-o",
            "hazard-on-hazard",
            "-o",
            str(
                write(tmp_path / "o.yaml", "kind: option\nid: o\nname: O\nplay:\n  hand_size: {value: 7, decided: x}\n")
            ),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0
    assert result.stderr.splitlines() == [
        f"{f}:5:14: warning: option 'o' (given with --option, applied last) "
        "changes play.hand_size.value from '5', which this file sets, to '7'"
    ]


def test_rulesets_lists_the_options_by_name_with_the_rest_a_flag_away():
    """Issue 36, then issue 46: with some fifty options, the listing a player reads first names each option
    (grouped by category since issue 46: tests/test_ruleset_cmds.py checks it fits a screen); the
    description is one flag away (--all) and the source and groups another (--long)."""
    out = run("rulesets").stdout
    doc = json.loads(run("rulesets", "--json").stdout)
    options = out[out.index("Options") :]
    for o in doc["options"]:
        assert o["id"] in options and o["description"] not in options
    assert "source:" not in options
    assert "mbrules rulesets --all" in out and "--long" in out
