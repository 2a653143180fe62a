"""``mbrules play`` and ``mbrules simulate`` from the command line (Typer's CliRunner, in process)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mbrules.cli.app import app
from mbrules.testing import load_rules, tables
from mbrules.vocab import SCORE_LINES
from tiers import one_each

TABLES = tables()  # every bundled edition at each player count its rules name
CUSTOM = str(Path(__file__).parent / "data" / "custom-hazard.yaml")


def run(*args: str):
    result = CliRunner().invoke(app, list(args))
    assert "Traceback" not in result.output
    return result


def stdout_of(result) -> str:
    return result.stdout if hasattr(result, "stdout") else result.output


@pytest.mark.parametrize(  # the fast set: each edition at one of its counts, in turn
    ("ruleset", "players"), one_each(TABLES, key=lambda t: t[0], ids=lambda t: f"{t[0]}-{t[1]}")
)
def test_play_json_plays_a_whole_match_the_same_twice(ruleset, players):
    args = ["play", "--ruleset", ruleset, "--players", str(players), "--seed", "11", "--json"]
    first = run(*args)
    assert first.exit_code == 0, first.output
    second = run(*args)
    assert stdout_of(first) == stdout_of(second)
    doc = json.loads(stdout_of(first))
    sides = list("ABCDEFGHIJKL"[: load_rules(ruleset).player_counts[str(players)].sides])
    assert doc["settings"]["ruleset_id"] == ruleset and doc["settings"]["players"] == players
    assert doc["settings"]["seed"] == 11 and set(doc["settings"]["bots"].values()) == {"heuristic"}
    assert list(doc["sides"]) == sides
    assert doc["hands"], "no hand played"
    for hand in doc["hands"]:
        assert list(hand["score_sheet"]) == sides
        for lines in hand["score_sheet"].values():
            assert list(lines) == list(SCORE_LINES)
            assert lines["total"] == sum(v for k, v in lines.items() if k != "total")
    assert doc["match_totals"] == doc["hands"][-1]["running_totals"]
    assert doc["match_totals"] == {s: sum(h["score_sheet"][s]["total"] for h in doc["hands"]) for s in sides}
    assert doc["result"] in sides + ["draw"]  # a whole match is decided
    assert doc["winner"] == doc["result"]


def test_play_narrative_is_byte_identical_and_uses_display_names():
    args = ["play", "--ruleset", "kids-115", "--seed", "3", "--bot", "random"]
    first = run(*args)
    assert first.exit_code == 0
    assert stdout_of(first) == stdout_of(run(*args))
    text = stdout_of(first)
    assert "Drive Pile" in text or "Go" in text  # the kids edition's own names
    assert "Score sheet, hand 1" in text and "Running total" in text
    assert "wins the match" in text or "draw" in text


def test_play_defaults_and_hands_limit():
    result = run("play", "--hands", "1", "--json")
    assert result.exit_code == 0
    doc = json.loads(stdout_of(result))
    assert doc["settings"]["ruleset_id"] == "winning-moves" and doc["settings"]["players"] == 4
    assert doc["settings"]["seed"] == 0 and doc["settings"]["hands"] == 1
    assert len(doc["hands"]) == 1
    assert doc["result"] in ("unfinished", "A", "B")


def test_play_bots_per_player_and_custom_ruleset():
    result = run("play", "--ruleset", CUSTOM, "--players", "2", "--bot", "heuristic", "--bot", "random", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(stdout_of(result))
    assert doc["settings"]["bots"] == {"p1": "heuristic", "p2": "random"}
    assert doc["settings"]["ruleset_id"] == "custom-hazard"


def test_play_record_writes_a_replayable_file(tmp_path):
    out = tmp_path / "match.yaml"
    result = run("play", "--players", "2", "--seed", "5", "--hands", "2", "--record", str(out), "--json")
    assert result.exit_code == 0, result.output
    assert out.is_file() and "scenario:" in out.read_text()
    replay = run("replay", str(out))
    assert replay.exit_code == 0, replay.output
    assert "2 passed, 0 failed" in stdout_of(replay)


@pytest.mark.parametrize(
    "args,needle",
    [
        (["--bot", "nope"], "unknown bot"),
        (["--players", "5"], "not played with 5 players"),
        (["--ruleset", "nope"], "unknown ruleset"),
        (["--option", "nope"], "unknown option"),
        (["--hands", "-1"], "--hands"),
        (["--bot", "random", "--bot", "random"], "once per player"),
        (["--ruleset", "/nonexistent/r.yaml"], "/nonexistent/r.yaml"),
        (["--record", "/nonexistent/dir/x.yaml"], "cannot write"),
    ],
)
def test_play_usage_errors_exit_2(args, needle):
    result = run("play", *args)
    assert result.exit_code == 2
    assert needle in result.output
    assert stdout_of(result).strip() == "" or needle in stdout_of(result)


def test_play_invalid_ruleset_file_exits_1(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\nextends: winning-moves\nnot_a_key: 1\n")
    result = run("play", "--ruleset", str(bad))
    assert result.exit_code == 1
    assert f"{bad}:3:1" in result.output


def test_simulate_json_and_workers_agree():
    base = ["simulate", "--players", "3", "--games", "6", "--seed", "2", "--bot", "random", "--json"]
    one = json.loads(stdout_of(run(*base)))
    two = json.loads(stdout_of(run(*base, "--workers", "2")))
    for key in (
        "games",
        "hands",
        "turns",
        "seconds",
        "wins",
        "draws",
        "mean_turns_per_hand",
        "trip_completed_share",
        "coups_fourres_per_hand",
        "mean_score_per_line",
        "hands_per_second",
    ):
        assert key in one
    assert one["games"] == 6 and set(one["wins"]) == {"A", "B", "C"}
    assert sum(one["wins"].values()) + one["draws"] == 6
    assert set(one["mean_score_per_line"]) == set(SCORE_LINES)
    timing = ("seconds", "hands_per_second", "turns_per_second", "settings")
    assert {k: v for k, v in one.items() if k not in timing} == {k: v for k, v in two.items() if k not in timing}


def test_simulate_human_output_and_errors():
    result = run("simulate", "--games", "3", "--bot", "random")
    assert result.exit_code == 0
    assert (
        "Hands per second" in stdout_of(result)
        and "Turns per hand" in stdout_of(result)
        and "Mean score per hand" in stdout_of(result)
    )
    assert run("simulate", "--games", "0").exit_code == 2
    assert run("simulate", "--workers", "0").exit_code == 2
    assert run("simulate", "--bot", "nope").exit_code == 2


def test_the_narrative_says_a_safety_gives_another_turn_only_where_the_rules_give_one(tmp_path):
    rules = tmp_path / "no-extra-turn.yaml"
    rules.write_text(
        "id: no-extra-turn\nname: No extra turn\ndescription: a safety ends the turn\nsource: test\n"
        "extends: winning-moves\n"
        "play:\n  safety_extra_turn: {value: false, decided: a test of the narrative}\n",
        encoding="utf-8",
    )
    # the first hand (two safeties each way at seed 5), not the whole match: the words come from the transition's
    # extra_turn, one line of mbrules/narrate.py (issue 46 point 7: 0.2 CPU-s)
    plain = run("play", "--ruleset", str(rules), "--seed", "5", "--hands", "1").stdout
    usual = run("play", "--seed", "5", "--hands", "1").stdout
    assert "to the Safety Area." in plain and "plays again" not in plain
    assert "to the Safety Area and plays again." in usual


def test_play_json_says_why_an_unfinished_match_stopped():
    doc = json.loads(stdout_of(run("play", "--players", "2", "--hands", "1", "--seed", "4", "--json")))
    assert doc["result"] == "unfinished" and doc["stopped_by"] == "hands"
    whole = json.loads(stdout_of(run("play", "--players", "2", "--seed", "4", "--json")))
    assert whole["stopped_by"] is None and whole["result"] in ("A", "B", "draw")


def test_simulate_json_says_it_was_not_interrupted():
    result = run("simulate", "--games", "3", "--players", "2", "--bot", "random", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(stdout_of(result))
    assert doc["interrupted"] is False and doc["games"] == 3 and doc["unfinished"] == 0


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--games", "1", "--players", "2", "--bot", "random", "--json"],
        ["play", "--players", "2", "--bot", "random", "--hands", "1", "--json"],
        ["ladder", "--bot", "random", "--bot", "heuristic", "--games", "1", "--workers", "1", "--json"],
    ],
)
def test_commands_compile_rulesets_through_load_game(args, monkeypatch):
    """Issue 37: the command compiles a ruleset the library's way (mbrules.load_game), not by hand, so
    the two cannot drift apart; and no command module imports another's private helper."""
    import mbrules

    calls = []
    real = mbrules.load_game

    def spy(*a, **k):
        calls.append(a[0])
        return real(*a, **k)

    monkeypatch.setattr(mbrules, "load_game", spy)
    run(*args)
    assert calls and calls[0] == "winning-moves", f"{args[0]} did not compile through mbrules.load_game"


def test_no_command_module_imports_a_private_name_of_another():
    import ast

    import mbrules.cli

    bad = []
    for path in sorted(Path(list(mbrules.cli.__path__)[0]).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (
                node.level or (node.module or "").startswith(("cli", "mbrules.cli"))
            ):
                bad += [
                    f"{path.name}: {a.name}" for a in node.names if a.name.startswith("_") and a.name != "__version__"
                ]
    assert not bad, bad
    assert len(list(Path(list(mbrules.cli.__path__)[0]).glob("*.py"))) > 10


@pytest.mark.parametrize("players", [3] + [pytest.param(n, marks=pytest.mark.slow) for n in (2, 4, 6)])
def test_simulate_and_compare_play_the_french_edition_at_each_player_count(players):
    """Issue 36: dujardin-classic plays at each player count its rules name (2, 3, 4, 6) in simulate and in
    compare against winning-moves (cheap lineups: a few random-bot matches)."""
    sim = run(
        "simulate",
        "--ruleset",
        "dujardin-classic",
        "--players",
        str(players),
        "--games",
        "3",
        "--bot",
        "random",
        "--workers",
        "1",
        "--json",
    )
    assert sim.exit_code == 0, sim.output
    doc = json.loads(stdout_of(sim))
    assert doc["games"] == 3 and doc["unfinished"] == 0 and not doc["interrupted"]
    assert sum(doc["wins"].values()) + doc["draws"] == 3
    cmp = run(
        "compare",
        "winning-moves",
        "dujardin-classic",
        "--players",
        str(players),
        "--games",
        "4",
        "--skill-games",
        "2",
        "--robust-games",
        "2",
        "--bot",
        "random",
        "--bots",
        "random",
        "--rung",
        "random",
        "--rung",
        "heuristic",
        "--restricted-games",
        "2",
        "--workers",
        "1",
        "--json",
    )
    assert cmp.exit_code == 0, cmp.output
    doc = json.loads(stdout_of(cmp))
    assert doc["pairs"] == 4 and doc["arms"]["b"].startswith("1000 Bornes, Dujardin")
    assert "a safety's extra turn only while the draw pile lasts: no → yes" in doc["rule_changes"]
