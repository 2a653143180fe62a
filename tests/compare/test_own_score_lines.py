"""Compare and sweep measure every score line a ruleset has, those options add included (issue 43), each
in the words of its label on the score line (``scoring.lines.NAME.label``): one place for a line's words."""

from __future__ import annotations

from mbrules import load_game
from mbrules.compare import run_compare
from mbrules.matches.metrics import METRICS, applies, metrics_for
from mbrules.narrate import line_label
from mbrules.ruleset.words import score_line_words
from mbrules.sweep import run_sweep

OPTION = "no-100-no-200-bonus"  # adds the line no_100_no_200, labelled "Trip without 100s or 200s"
KEY = "points_per_hand.no_100_no_200"


def test_an_options_score_line_is_named_by_its_label_on_the_sheet_and_in_the_metrics():
    """The label the option file gives is the sheet's word, the metric's name and the headline's."""
    g = load_game("winning-moves", 2, [OPTION])
    assert score_line_words(g.ruleset)["no_100_no_200"].label == "Trip without 100s or 200s"
    assert line_label("no_100_no_200", g) == "Trip without 100s or 200s"
    assert line_label("fin_vitesse") == "Fin vitesse"  # a line without a label: from its id
    m = next(x for x in metrics_for([load_game("winning-moves", 2), g]) if x.key == KEY)
    assert m.name == "Points per hand and side from trip without 100s or 200s"
    assert m.plain == "trip without 100s or 200s"


def test_the_standard_rulesets_metrics_are_the_registrys_and_an_own_line_applies_where_it_is_on_the_sheet():
    """No option line: the nine standard lines only (the reports stay as they were); with one, it comes
    after them and applies to the arm whose sheet has it."""
    plain, bonus = load_game("winning-moves", 2), load_game("winning-moves", 2, [OPTION])
    assert metrics_for([plain, plain]) == METRICS
    both = metrics_for([plain, bonus])
    keys = [m.key for m in both]
    assert keys.index(KEY) == keys.index("points_per_hand.extension") + 1
    own = both[keys.index(KEY)]
    assert not applies(own, plain) and applies(own, bonus)


def test_compare_reports_an_options_own_score_line_as_a_metric():
    """Arm B's bonus line is a metric of the comparison: measured in B, "–" in A (not on its sheet)."""
    cmp = run_compare("winning-moves", options_b=[OPTION], players=2, games=6, skill_games=0, robust_bots=[], workers=1)
    row = next(r for r in cmp.rows if r["key"] == KEY)
    assert row["a"] is None and row["b"] is not None and row["diff"] is None
    assert cmp.document()["metrics"][KEY]["name"] == "Points per hand and side from trip without 100s or 200s"


def test_sweep_reports_and_draws_an_options_own_score_line():
    """A sweep of a ruleset with the option measures its line at every value, and may draw it (--metric)."""
    sw = run_sweep(
        "winning-moves",
        ["player_counts.2.target=500..800:300"],
        options=[OPTION],
        players=2,
        games=3,
        metrics=[KEY],
        workers=1,
    )
    assert all(p["metrics"][KEY]["value"] is not None for p in sw.points)
    assert KEY in sw.settings["metrics"]
