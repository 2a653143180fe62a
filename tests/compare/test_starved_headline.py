"""Issue 35: when trips almost never complete in an arm (4 cars each for himself, 3,500 miles in the deck and
nothing reshuffled), the compare headline says so first, with an interval, in a player's words; a metric that
does not apply to an arm's rules (reshuffles, draws from the discard pile) is "–" (null in JSON), never 0."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mbrules.cli.app import app
from mbrules.compare.headline import STARVED, headline, starved_sentences
from test_headline import JARGON, comparison, row  # noqa: E402  (the same rows as the other headline tests)


def starved_row(a, b, a_ci, n=200):
    r = row("trip_completed_share", a, b, flagged=True, robust=True, verdict="holds")
    r.update(a_ci95=a_ci, b_ci95=[b - 0.02, b + 0.02], n_a=n, n_b=n)
    return r


def test_an_arm_whose_trips_almost_never_complete_opens_the_headline_with_the_deck_running_out():
    cmp = comparison(
        [
            starved_row(0.03, 0.92, [0.01, 0.05]),
            row("turns_per_hand", 100.0, 160.0, flagged=True, se=1, robust=True, verdict="holds"),
        ]
    )
    lines = headline(cmp)
    assert lines[0] == (
        "Clearly, under A the deck runs out before any car arrives in 97% of hands (somewhere "
        "between 95% and 99%, from 200 matches): trips almost never complete."
    )
    assert len(lines) == 3 and lines[1].startswith("Clearly, hands get about 60% longer")
    assert not any(j in lines[0] for j in JARGON)


def test_probably_when_the_interval_reaches_below_the_threshold_and_nothing_when_trips_complete():
    cmp = comparison([starved_row(0.08, 0.92, [0.02, 0.15], n=12)])
    assert starved_sentences(cmp)[0].startswith("Probably, under A the deck runs out before any car arrives in 92%")
    assert starved_sentences(comparison([starved_row(1 - STARVED + 0.01, 0.92, [0.05, 0.2])])) == []
    assert starved_sentences(comparison([starved_row(0.85, 0.97, [0.8, 0.9])])) == []


@pytest.fixture(scope="module")
def four_cars(tmp_path_factory):
    """The real command: 4 players each for himself, A without and B with reshuffle-discard."""
    out = tmp_path_factory.mktemp("cmp") / "report"
    res = CliRunner().invoke(
        app,
        [
            "compare",
            "winning-moves",
            "--option-a",
            "each-for-himself",
            "--option-b",
            "each-for-himself",
            "--option-b",
            "reshuffle-discard",
            "-p",
            "4",
            "--games",
            "6",  # A's share 99% (96% to 100%), "Clearly" as at 12 (98% to 100%): half the matches (issue 46 point 7)
            "--skill-games",
            "0",
            "--restricted-games",
            "0",
            "--robust-games",
            "0",
            "--workers",
            "1",
            "--out",
            str(out),
            "--no-charts",  # the report's words are what is checked (and the core install has no matplotlib)
        ],
        env={"COLUMNS": "80"},
    )
    assert res.exit_code == 0, res.output
    return res.output, json.loads((out / "compare.json").read_text()), (out / "index.html").read_text()


def test_compare_of_four_cars_each_for_himself_says_the_deck_runs_out_under_a(four_cars):
    text, doc, _ = four_cars
    first = doc["headline"][0]
    assert first.split(",")[0] in ("Clearly", "Probably")
    assert "under A the deck runs out before any car arrives in" in first and "from 6 matches" in first
    assert not any("under B" in line for line in doc["headline"])  # reshuffled, B's trips complete
    assert " ".join(first.split()[:6]) in " ".join(text.split())  # the terminal opens with it too


def test_a_metric_that_does_not_apply_to_an_arm_is_a_dash_not_zero(four_cars):
    _, doc, html = four_cars
    m = doc["metrics"]
    assert m["reshuffles_per_hand"]["a"] is None and m["reshuffles_per_hand"]["b"] > 0
    assert m["reshuffles_per_hand"]["diff"] is None and not m["reshuffles_per_hand"]["flagged"]
    assert m["discard_draws_per_hand"]["a"] is None and m["discard_draws_per_hand"]["b"] is None
    row_html = html[html.index("<code>reshuffles_per_hand</code>") :]
    row_html = row_html[: row_html.index("</tr>")]
    assert "<td>–<br>" in row_html and "seated differently" not in row_html


def test_sweep_names_the_values_where_the_deck_runs_out_before_any_car_arrives():
    """The same sentence in a sweep's headline, naming only the swept values where trips almost never
    complete (4 cars each for himself: a 1000-mile trip, not a 500-mile one)."""
    res = CliRunner().invoke(
        app,
        [
            "sweep",
            "winning-moves",
            "-p",
            "4",
            "-o",
            "each-for-himself",
            "--set",
            "player_counts.4.target=500,1000",
            "--games",
            "4",  # 98% (94% to 100%) at 1000 miles, as 99% (96% to 100%) at 6 (issue 46 point 7)
            "--workers",
            "1",
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    first = json.loads(res.stdout)["headline"][0]  # output holds stderr too: a progress line once the run takes seconds
    assert first.startswith("The deck runs out before any car arrives in ")
    assert "at player_counts.4.target=1000 (somewhere between" in first and "=500" not in first
    assert first.endswith("trips almost never complete there.")
