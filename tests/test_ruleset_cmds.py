"""The ruleset commands: rulesets, show, validate, schema, diff (contract: Commands, exit codes 0/1/2)."""

from __future__ import annotations

import json
import subprocess
import sys
import typing
from pathlib import Path

import pytest
from mbrules.cli.app import app
from pydantic import BaseModel
from typer.testing import CliRunner

from mbrules.ruleset import load_ruleset
from mbrules.ruleset.diff import diff_rulesets
from mbrules.ruleset.model import Ruleset
from mbrules.ruleset.words import CITATION_FIELDS, HEADER_FIELDS, PHRASES

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = [
    "asmodee-2014",
    "bsd-mille",
    "dujardin-classic",
    "express",
    "kids-115",
    "parker-1971",
    "playaural",
    "sisyphus-bbs",
    "wikipedia",
    "winning-moves",
]
OPTIONS = sorted(
    [
        "coup-fourre-any-player",
        "extension-1200",
        "extension-bonus-to-finisher",
        "hazard-on-hazard",
        "longer-game",
        "no-voluntary-discard",
        "roll-after-safety",
        "shutout-per-opponent",
        "simpler-game",
        "speed-limit-stacking",
        # the house-rule library (issue 36): rules people play that today's keys already write
        "full-deck",
        "no-safety-extra-turn",
        "cf-no-extra-turn",
        "cf-single-draw",
        "cf-200",
        "all-safeties-700",
        "no-delayed-action",
        "no-200-cap",
        "hazard-without-roll",
        "each-for-himself",
        "three-vs-three",
        "single-hand",
        "trip-1000",
        "hand-size-4",
        # issue 35 (reactions and the turn) and issue 36 (score lines, match ends)
        "fast-play-remedy",
        "queued-coup-fourre-turn",
        "safety-extra-turn-while-deck-lasts",
        "shutout-to-each-opponent",
        "no-100-no-200-bonus",
        "french-end-bonuses",
        "french-extension-end-bonuses",
        "fixed-hands",
        "finisher-wins",
        "tie-first-seat",
        "tie-another-hand",
        # issue 35, legality and card effects
        "no-roll-under-right-of-way",
        "safeties-not-discardable",
        "playable-not-discardable",
        "combination-remedies",
        "remedy-restarts",
        "stacked-hazards",
        "overshoot",
        "safety-distance",
        "exact-finish-bonus",
        # the turn and its draws (issue 35): a mechanism the ruleset's 'turn' section writes
        "reshuffle-discard",
        "draw-from-discard",
        "discard-draw-must-play",
        "mulligan",
        "refill-empty-hand",
        "no-duplicate-draws",
        "play-then-draw",
        # issue 43: the rules that needed a mechanism of their own
        "empty-pile-ends-hand",
        "safety-replacement-draw",
        "karma",
        "solo",
    ]
)


def run(*args: str):
    # the widest layout: these tests read what a line says; tests/test_output_width.py reads how it folds
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "240"})


def test_show_two_players_winning_moves_deals_101_cards_to_700_with_extension_to_1000():
    result = run("show", "winning-moves", "--players", "2")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "deck: 101 cards" in out
    assert "target: 700 miles" in out
    assert "extension: to 1000 miles" in out
    assert "sides: A: p1; B: p2" in out
    assert "removed before the deal: 1 Stop!, 1 Accident, 1 Out of Gas, 1 Flat Tire, 1 Speed Limit" in out


def test_show_json_players_and_partners_sides():
    result = run("show", "winning-moves", "--players", "6", "--json")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["ruleset"]["id"] == "winning-moves"
    assert doc["players"]["sides"] == {"A": ["p1", "p4"], "B": ["p2", "p5"], "C": ["p3", "p6"]}
    assert doc["players"]["deck_size"] == 106 and doc["players"]["target"] == 700
    four = json.loads(run("show", "winning-moves", "--players", "4", "--json").stdout)["players"]
    assert four["sides"] == {"A": ["p1", "p3"], "B": ["p2", "p4"]} and four["extension_to"] is None


def test_show_without_players_lists_every_section():
    out = run("show", "parker-1971").stdout
    for heading in ("Cards:", "Relations", "Players", "Play", "Coup fourré", "Scoring", "Match", "Names"):
        assert f"\n{heading}" in out
    assert "5 × Red Light (stop)" in out
    assert "4 players: 2 sides (partners: p1+p3, p2+p4); trip 1000 miles, no extension" in out


def test_show_with_option_reports_it():
    out = run("show", "winning-moves", "--option", "extension-1200", "--players", "4").stdout
    assert "Options applied: extension-1200" in out
    assert "extension: to 1200 miles" in out


def test_show_unsupported_player_count_is_a_usage_error():
    result = run("show", "winning-moves", "--players", "5")
    assert result.exit_code == 2
    assert "is not played with 5 players (it allows 2, 3, 4, 6)" in result.stderr  # the same words as play
    assert result.stdout == ""


@pytest.mark.parametrize(
    "args",
    [
        ("show", "no-such-ruleset"),
        ("show", "winning-moves", "--option", "no-such-option"),
        ("diff", "winning-moves", "nope"),
        ("show", "winning-moves", "--bogus-flag"),
        ("show", "winning-moves", "--players", "many"),
        ("schema", "nonsense"),
        ("validate", "does-not-exist.yaml"),
    ],
)
def test_usage_errors_exit_2(args):
    result = run(*args)
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert "Traceback" not in result.stdout + result.stderr


def test_unknown_ruleset_message_lists_the_bundled_ones():
    result = run("show", "winning-move")
    assert "unknown ruleset 'winning-move': did you mean 'winning-moves'?" in result.stderr


def test_rulesets_lists_bundled_rulesets_and_options_with_descriptions():
    result = run("rulesets", "--all")
    assert result.exit_code == 0
    for ident in BUNDLED + OPTIONS:
        assert f"  {ident} " in result.stdout
    doc = json.loads(run("rulesets", "--json").stdout)
    assert [r["id"] for r in doc["rulesets"]] == BUNDLED
    assert [o["id"] for o in doc["options"]] == OPTIONS
    assert all(r["description"] and "\n" not in r["description"] for r in doc["rulesets"] + doc["options"])


def test_schema_ruleset_prints_the_checked_in_schema():
    result = run("schema", "ruleset")
    assert result.exit_code == 0
    assert result.stdout == (ROOT / "schemas" / "ruleset.schema.json").read_text(encoding="utf-8")
    assert run("schema").stdout == result.stdout


def test_schema_scenario_prints_a_json_schema():
    result = run("schema", "scenario")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["$schema"].startswith("https://json-schema.org/draft/2020-12")


def test_validate_bundled_files_are_ok():
    files = sorted(str(p) for p in (ROOT / "rulesets").rglob("*.yaml"))
    result = run("validate", *files)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [f"OK {f}" for f in files]  # each path as it was typed


def test_validate_json_reports_each_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\nname: Bad\ndescription: d\nsource: s\nextends: winning-moves\nfoo: 1\n")
    result = run("validate", "--json", str(ROOT / "rulesets" / "winning-moves.yaml"), str(bad))
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["ok"] is False
    assert [f["ok"] for f in doc["files"]] == [True, False]
    err = doc["files"][1]["errors"][0]
    assert (err["line"], err["col"]) == (6, 1) and "unknown key 'foo'" in err["message"]
    assert result.stderr.strip().endswith("bad.yaml:6:1: " + err["message"])


def test_validate_unreadable_file_exits_2_even_with_an_invalid_one(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("")
    result = run("validate", str(bad), str(tmp_path / "missing.yaml"))
    assert result.exit_code == 2
    assert "the file is empty" in result.stderr and "cannot read this file" in result.stderr


def test_diff_parker_1971_wikipedia_in_words():
    result = run("diff", "parker-1971", "wikipedia")
    assert result.exit_code == 0
    lines = [line.strip() for line in result.stdout.splitlines()]
    assert lines[0].startswith("parker-1971 → wikipedia (options: hazard-on-hazard")
    for expected in (
        "cards in the box: 112 → 110",
        "Stop is called: Red Light → Stop",
        "a hazard may cover another hazard: no → yes",
        "a Roll must follow a safety that corrects a hazard: no → yes",
        "who may call a coup fourré: a player of the side attacked → any player holding the safety",
        "shutout bonus: once → for each opposing side with no distance",
        "extension bonus goes to: the caller if its side completes the extended trip, else each opposing side"
        " → the side that completes the extended trip",
    ):
        assert expected in lines, expected


def test_diff_with_option_shows_what_the_option_changes():
    result = run("diff", "winning-moves", "winning-moves", "--option", "hazard-on-hazard")
    assert result.stdout.splitlines()[1:] == ["  a hazard may cover another hazard: no → yes"]
    doc = json.loads(run("diff", "winning-moves", "winning-moves", "--option", "extension-1200", "--json").stdout)
    assert doc["b"]["options"] == ["extension-1200"]
    changes = {c["path"]: c for c in doc["changes"]}
    assert changes["player_counts.2.target"]["before_value"] == 700
    assert changes["player_counts.2.target"]["after_value"] == 1000
    assert changes["player_counts.4.extension_to"]["after"] == "to 1200 miles"


def test_diff_removed_cards_per_player_count():
    changes = {str(c) for c in diff_rulesets(load_ruleset("winning-moves"), load_ruleset("kids-115"))}
    assert (
        "2 players: cards removed before the deal: 1 Stop!, 1 Accident, 1 Out of Gas, 1 Flat Tire, "
        "1 Speed Limit → 1 Out of Gas, 1 Flat Tire, 1 Speed Limit"
    ) in changes


def test_diff_of_a_ruleset_with_itself_is_empty():
    assert run("diff", "kids-115", "kids-115").stdout.splitlines()[1:] == ["  no rule differences"]


def _leaf_patterns(model: type[BaseModel], prefix: str = "") -> list[str]:
    """Every field path of the model that diff compares ('*' for a mapping key)."""
    out = []
    for name, info in model.model_fields.items():
        if name in CITATION_FIELDS or (not prefix and name in HEADER_FIELDS):
            continue
        path = f"{prefix}{name}"
        ann = info.annotation
        origin = typing.get_origin(ann)
        if origin is dict and _models_in(typing.get_args(ann)[1]):  # keyed by id: each entry compared
            out.append(f"{path}.*")
            for m in _models_in(typing.get_args(ann)[1]):
                out += _leaf_patterns(m, f"{path}.*.")
        elif _models_in(ann) and not any(issubclass(m, _rule_base()) for m in _models_in(ann)):
            for m in _models_in(ann):
                out += _leaf_patterns(m, f"{path}.")
        else:
            out.append(path)
    return sorted(set(out))


def _rule_base():
    from mbrules.ruleset.model import Rule

    return Rule


def _models_in(ann) -> list[type[BaseModel]]:
    if isinstance(ann, type) and issubclass(ann, BaseModel):
        return [ann]
    return [m for arg in typing.get_args(ann) for m in _models_in(arg)]


def test_every_model_field_has_words_for_show_and_diff():
    patterns = _leaf_patterns(Ruleset)
    assert "play.hazard_on_hazard" in patterns and "cards.*.fixes" in patterns
    missing = [p for p in patterns if p not in PHRASES]
    assert not missing, f"add a phrase to mbrules/ruleset/words.py PHRASES for: {missing}"


# a process each (0.5 CPU-s): the fast set runs a failed check (exit 1) and a usage error (exit 2), make test all
@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["show", "BAD"], 1),
        (["show", "nope"], 2),
        pytest.param(["diff", "winning-moves", "BAD"], 1, marks=pytest.mark.slow),
        pytest.param(["rulesets", "--json"], 0, marks=pytest.mark.slow),
        pytest.param(["--help"], 0, marks=pytest.mark.slow),
    ],
    ids=lambda v: "-".join(v) if isinstance(v, list) else str(v),
)
def test_commands_never_show_a_traceback_as_a_subprocess(tmp_path, args, code):
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"\xff\xfe\x00garbage")
    script = Path(sys.executable).with_name("mbrules")
    cmd = [str(script)] if script.exists() else [sys.executable, "-c", "from mbrules.cli.app import main; main()"]
    args = [str(bad) if a == "BAD" else a for a in args]
    proc = subprocess.run([*cmd, *args], check=False, capture_output=True, text=True, timeout=60)
    assert proc.returncode == code, (args, proc.stderr)
    assert "Traceback" not in proc.stdout + proc.stderr


def test_diff_dujardin_classic_winning_moves_lists_exactly_the_differences():
    """Issue 36 item 5: `mbrules diff dujardin-classic winning-moves` lists the two rules that differ (the
    capot to each opponent, the safety's extra turn while the draw pile lasts) and the French words, and
    nothing else: every line it prints is one of these."""
    lines = run("diff", "dujardin-classic", "winning-moves").stdout.splitlines()
    assert lines[0] == "dujardin-classic → winning-moves"
    rules = [line for line in lines[1:] if " is called: " not in line and " is called:" not in line]
    assert rules == [
        "  cards in the box: 106 → 110",
        "  reference card score_card (never dealt): none → 2 × Score Card (1000 BORNES - THE SCORE)",
        "  reference card guide_card (never dealt): none → 2 × Guide Card (Guide to MILLE BORNES)",
        "  a safety's extra turn only while the draw pile lasts: yes → no",
        "  score line shutout: 500 to each opposing side (when it played some distance), for each side "
        "where the side played no distance → none",
        "  distances are counted in: km → miles",
    ]
    names = [line for line in lines[1:] if " is called: " in line]
    assert len(names) == 18 + 6  # every card but Accident, and the six piles
    assert "  Stop is called: Feu rouge → Stop!" in names
    assert "  the draw pile is called: Sabot → Draw Pile" in names


def test_show_with_match_end_options_gives_the_match_end_in_words():
    """Issue 36 item 5: `show RULESET --option ...` says how the match ends and how a tie is broken in words."""
    out = run("show", "dujardin-classic", "--option", "fixed-hands", "--option", "tie-first-seat").stdout
    assert "  the match: a fixed number of hands (match.hands); highest total wins" in out
    assert "  hands in a match of a fixed number of hands: 4" in out
    assert "  equal highest results: the tied side nearest the first seat wins (side A first)" in out
    out = run("show", "winning-moves", "--option", "no-100-no-200-bonus").stdout
    assert "  score line no_100_no_200: 500 to each side where " in out


def test_show_marks_a_contract_scoring_key_a_score_line_replaces_as_not_read():
    """A ruleset's scoring.lines entry under a contract line's name replaces that line's rule: show says the
    keys the engine no longer reads for it are not read, so a reader is not told 'shutout bonus: once'
    for an edition that pays each opponent."""
    out = run("show", "winning-moves", "--option", "shutout-to-each-opponent").stdout
    assert "  shutout bonus points: 500 (not read: score line shutout below pays it)" in out
    assert "  safe trip bonus: 300\n" in out  # a line not replaced is shown as before
    assert "(not read: score line" not in run("show", "winning-moves").stdout


def test_rulesets_fits_a_screen_and_names_every_ruleset_and_option():
    """Issue 46: the listing grew to 125 lines; by default it is grouped (the rulesets a line each, then the
    options by category, their ids) so that it fits a screen of 80 by 40, and names every one; --all lists
    each with its one-line description."""
    out = CliRunner().invoke(app, ["rulesets"], env={"COLUMNS": "80"}).stdout
    lines = out.splitlines()
    assert len(lines) <= 40 and max(len(line) for line in lines) <= 80
    for ident in BUNDLED:
        assert f"  {ident} " in out
    named = {i.strip() for line in lines if ": " in line for i in line.partition(": ")[2].split(",")}
    named |= {i.strip(",") for line in lines if line.startswith("    ") for i in line.split()}
    assert set(OPTIONS) <= named
