"""What a player reads first (issue 34): compare and sweep open with at most three sentences chosen by what a
table notices (hand length, trips, shutouts, who wins, then points), each with a plain word for its certainty;
the robustness check tells "depends on the bots" from "too few pairs to tell"; where Holm's correction
changes a verdict, the line says so. The sentences are built from rows here (no match played) except where the
command itself is the point."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from mbrules.cli.app import app
from mbrules.compare.headline import (
    CERTAINTY,
    focus_sentence,
    headline,
    holm_sentence,
    robust_words,
    summary,
)
from mbrules.matches.metrics import METRICS
from mbrules.compare.report import settings_words
from mbrules.compare.run import check_verdict

JARGON = ("pt", "95% CI", "CI", "expert:budget", "budget=", "p =", "Holm's", "±")


def row(
    key: str,
    a: float,
    b: float,
    *,
    flagged: bool,
    se: float = 0.01,
    robust=None,
    verdict=None,
    checks=(),
    excludes_zero=None,
) -> dict:
    m = next(x for x in METRICS if x.key == key)
    diff = b - a
    ci = [diff - 1.96 * se, diff + 1.96 * se]
    return {
        "key": key,
        "name": m.name,
        "label": m.label,
        "scope": m.scope,
        "compared": True,
        "a": a,
        "b": b,
        "diff": diff,
        "ci95": ci,
        "se": se,
        "a_ci95": None,
        "b_ci95": None,
        "n_a": 100,
        "n_b": 100,
        "kind": m.kind,
        "plain": m.plain,
        "method": "delta",
        "p": 0.001 if flagged else 0.2,
        "pairs": 100,
        "flagged": flagged,
        "p_holm": 0.001 if flagged else 0.2,
        "excludes_zero": (ci[0] > 0 or ci[1] < 0) if excludes_zero is None else excludes_zero,
        "robust": robust,
        "robust_verdict": verdict,
        "robust_checks": list(checks),
    }


def comparison(rows: list[dict], bots=("heuristic",)) -> SimpleNamespace:
    keys = {r["key"] for r in rows}
    rest = [row(m.key, 1.0, 1.0, flagged=False) for m in METRICS if m.key not in keys]
    cmp = SimpleNamespace(
        rows=rows + rest, settings={"bots": list(bots)}, pairs_done=100, ladder=[], restricted=[], arm_names=("A", "B")
    )
    cmp.summary = summary(cmp)
    return cmp


HOLDS = [
    {"bots": "heuristic-2026", "pairs": 1000, "diff": -8.0, "ci95": [-9.0, -7.0], "holds": True, "verdict": "holds"}
]


def test_the_headline_speaks_of_hand_length_trips_and_shutouts_before_points_whatever_their_size():
    """Issue 34: ordering by relative size put "Winning margin (points)" first; a table notices hand length,
    trips and shutouts first, so the headline speaks of them even when the margin moved more."""
    cmp = comparison(
        [
            row("margin", 2500, 1900, flagged=True, se=100, robust=True, verdict="holds", checks=HOLDS),
            row("shutout_share", 0.18, 0.09, flagged=True, robust=True, verdict="holds", checks=HOLDS),
            row("turns_per_hand", 67.0, 57.0, flagged=True, se=1, robust=True, verdict="holds", checks=HOLDS),
            row("trip_completed_share", 0.85, 0.97, flagged=True, robust=True, verdict="holds", checks=HOLDS),
        ]
    )
    lines = headline(cmp)
    assert lines == [
        "Clearly, hands get about 15% shorter (67.0 → 57.0 turns).",
        "Clearly, trips are completed more often (85% → 97% of hands).",
        "Clearly, shutouts become rarer (18% → 9% of hands).",
    ]
    # the detailed effects follow the same order (hand length, trips, shutouts, who wins, points)
    assert [x["metric"] for x in cmp.summary][:4] == [
        "turns_per_hand",
        "trip_completed_share",
        "shutout_share",
        "first_side_win_share",
    ]


def test_each_sentence_carries_a_plain_certainty_word_and_no_jargon():
    unconfirmed = [
        {
            "bots": "expert:budget=4,width=2",
            "pairs": 8,
            "diff": -7.5,
            "ci95": [-16.7, 1.6],
            "holds": False,
            "verdict": "unconfirmed",
        }
    ]
    cmp = comparison(
        [
            row(
                "turns_per_hand",
                67.0,
                57.0,
                flagged=True,
                se=1,
                robust=False,
                verdict="unconfirmed",
                checks=unconfirmed,
            ),
            row("points_per_hand", 1268, 1320, flagged=True, se=10, robust=True, verdict="holds", checks=HOLDS),
        ]
    )
    lines = headline(cmp)
    assert 1 <= len(lines) <= 3
    for line in lines:
        assert line.split(",")[0].split(":")[0].lower() in CERTAINTY, line
        assert not any(j in line.replace("points", "") for j in JARGON), line
    # the expert's 8 pairs cannot tell: the sentence says "not confirmed", never "depends on the bots"
    assert lines[0] == (
        "Probably, hands get about 15% shorter (67.0 → 57.0 turns); not confirmed with the expert (8 pairs)."
    )
    assert lines[1].startswith("Not shown: a change in who wins")  # who wins, asked first by a player
    assert lines[2] == "Clearly, each side scores about 4% more points a hand (1268 → 1320 points)."


def test_a_check_with_too_few_pairs_reads_not_confirmed_and_one_that_measured_less_reads_depends_on_the_bots():
    # main run: -10 ± 0.6; the expert's 8 pairs: -7.5 in [-16.7, +1.6]: holds 0 and -10 alike
    assert check_verdict(-10.0, 0.3, -7.5, 4.7, [-16.7, 1.6]) == "unconfirmed"
    # heuristic-2026's 1000 pairs: -8.2 in [-8.8, -7.5]: the effect is there
    assert check_verdict(-10.0, 0.3, -8.2, 0.33, [-8.8, -7.5]) == "holds"
    # random bots complete no trip in either arm: 0 ± 0 against +12.6 ± 0.6: the effect is absent with them
    assert check_verdict(0.126, 0.006, 0.0, 0.0, [0.0, 0.0]) == "differs"
    # a check's interval that excludes the main estimate by less than both runs' uncertainty: cannot tell
    assert check_verdict(-588.0, 160.0, -152.0, 159.0, [-465.0, 160.0]) == "unconfirmed"
    r = row(
        "turns_per_hand",
        67.0,
        57.0,
        flagged=True,
        se=1,
        robust=False,
        verdict="unconfirmed",
        checks=[
            {
                "bots": "expert:budget=4,width=2",
                "pairs": 8,
                "diff": -7.5,
                "ci95": [-16.7, 1.6],
                "holds": False,
                "verdict": "unconfirmed",
            }
        ],
    )
    words = robust_words(r)
    assert words.startswith("not confirmed (with the expert, 8 pairs: −7.50") and "depends" not in words
    assert "expert:budget" not in words


def test_where_holm_turns_an_interval_that_excludes_zero_into_not_shown_the_line_says_so():
    # who wins: +6 pt, an interval that excludes 0, yet not flagged once corrected for every metric tested
    win = row("first_side_win_share", 0.45, 0.51, flagged=False, se=0.02)
    assert win["excludes_zero"]
    cmp = comparison(
        [win, row("turns_per_hand", 67.0, 57.0, flagged=True, se=1, robust=True, verdict="holds", checks=HOLDS)]
    )
    said = next(x for x in headline(cmp) if "who wins" in x)
    assert said.startswith("Not shown:") and "once corrected for testing" in said
    assert "Who wins" in holm_sentence(cmp.rows) and "Holm" in holm_sentence(cmp.rows)
    rung = {
        "kind": "ladder",
        "focus": "learned",
        "other": "expert:budget=4,width=2",
        "a": 0.25,
        "b": 0.625,
        "pairs": 8,
        "diff": 0.375,
        "ci95": [0.016, 0.734],
        "flagged": False,
        "excludes_zero": True,
        "family": 5,
    }
    line = focus_sentence(rung, ("A", "B"))
    assert "no difference shown once corrected for the 5 ladder and restricted-play tests (Holm)" in line
    assert "matches per arm" in line and "a arm" not in line and "expert:budget" not in line


def test_nothing_flagged_reads_not_shown_in_one_sentence():
    cmp = comparison([])
    assert headline(cmp) == [
        "Not shown: any effect on play (hand length, trips, shutouts, who wins, points) in 100 paired matches."
    ]


def test_settings_say_one_worker_process_not_process_es():
    doc = {
        "settings": {
            "a": {"players": 4, "sides": 2, "ruleset": "x"},
            "b": {"players": 4, "sides": 2, "ruleset": "x"},
            "games": 10,
            "seed": 0,
            "bots": ["heuristic"],
            "robust_bots": [],
            "robust_games": 8,
            "skill_games": 0,
            "restricted_games": 0,
            "workers": 1,
        },
        "arms": {"a": "A", "b": "B"},
        "pairs": 10,
    }
    assert settings_words(doc)[-1].startswith("1 worker process;")
    doc["settings"]["workers"] = 2
    assert settings_words(doc)[-1].startswith("2 worker processes;")


FAST = ["--games", "12", "--skill-games", "0", "--bots", "random", "--robust-games", "4", "--workers", "1"]


@pytest.fixture(scope="module")
def at_80(tmp_path_factory):
    out = tmp_path_factory.mktemp("cmp") / "report"
    res = CliRunner().invoke(
        app,
        [
            "compare",
            "winning-moves",
            "--option-b",
            "hazard-on-hazard",
            "-p",
            "4",
            *FAST,
            "--out",
            f"{out}/",
            "--no-charts",
        ],
        env={"COLUMNS": "80"},
    )
    assert res.exit_code == 0, res.output
    return res.stdout, out


def test_compare_at_80_columns_opens_with_the_headline_and_no_line_is_wider(at_80):
    text, _ = at_80
    lines = text.splitlines()
    assert max(len(x) for x in lines) <= 80
    first = [x.strip() for x in lines[1:4]]
    assert all(x.split(",")[0].split(":")[0].lower() in CERTAINTY for x in first if x and x[0].isupper()), first
    # the table does not fit: its rows fold, each metric's name then its figures, never a box cut mid-cell
    assert "┃" not in text and "Turns per hand" in text and "    A " in text


def test_the_report_path_is_written_once_with_one_slash(at_80):
    text, out = at_80
    assert f"Report written to {out}/index.html" in " ".join(text.split())
    assert "//index.html" not in text


def test_compare_at_a_wide_terminal_keeps_its_table():
    res = CliRunner().invoke(app, ["compare", "winning-moves", "-p", "4", *FAST], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "┃ metric" in res.stdout and max(len(x) for x in res.stdout.splitlines()) <= 200


def test_json_gives_the_headline_as_at_most_three_sentences(at_80):
    """The document of at_80's compare: its report's compare.json holds the bytes ``--json`` prints (cli/reports.py
    end_run and mbrules/compare/report.py write the same ``cmp.document()``); a compare of its own for ``--json``
    played the same matches again (issue 46 point 7). ``--json`` itself: test_compare_cli, test_starved_headline."""
    doc = json.loads((at_80[1] / "compare.json").read_text(encoding="utf-8"))
    assert isinstance(doc["headline"], list) and 1 <= len(doc["headline"]) <= 3
    assert all(isinstance(x, str) and x.split(",")[0].split(":")[0].lower() in CERTAINTY for x in doc["headline"])


def test_restricted_play_says_when_holm_turned_a_decision_into_not_shown():
    def forbid(key, diff, lo, hi):
        return {
            "key": f"restricted:{key}",
            "kind": "restricted",
            "focus": "heuristic",
            "other": f"restricted:{key}=1",
            "a": 0.9,
            "b": 0.9 + diff,
            "pairs": 300,
            "diff": diff,
            "ci95": [lo, hi],
            "flagged": False,
            "excludes_zero": lo > 0 or hi < 0,
            "family": 6,
        }

    cmp = comparison([])
    cmp.restricted = [forbid("no_attack", -0.043, -0.077, -0.010), forbid("no_coup_fourre", 0.01, -0.02, 0.04)]
    line = next(x["text"] for x in summary(cmp) if x["metric"] == "restricted")
    assert line == (
        "Restricted play: no decision (attacks, coups fourrés) shown to weigh more or less under B, once "
        "corrected for the 6 ladder and restricted-play tests (Holm); the interval alone excludes 0 for "
        "attacks"
    )
