"""The one model of many matches (issue 37 item 2): a match's record is built from any state the loop
leaves, and the ladder reads who won, and its intervals, from the metric registry."""

from __future__ import annotations

import mbrules
from mbrules.matches.intervals import wilson
from mbrules.matches.ladder import Tally, play_pairing, report, seatings
from mbrules.matches.loop import game_seed, play_match
from mbrules.matches.metrics import arm_value, won_by
from mbrules.matches.records import match_record


def test_a_match_capped_by_the_loop_has_a_record_with_its_hands_points():
    """play_match(max_hands=1) stops before the match is over (no outcome): its record reads the state's
    sheets, by side index (it used to index them by side name and raise TypeError)."""
    g = mbrules.load_game("winning-moves", players=2)
    st = play_match(g, 1, ["random", "random"], max_hands=1)
    assert st.outcome is None
    rec = match_record(g, 1, st, ["random", "random"])
    assert rec.result == "unfinished" and rec.winner == -1 and rec.hands_played == 1
    sheet = st.hand_sheets[0]
    assert rec.hands[0].points == tuple(sheet[s]["total"] for s in range(g.sides))


def test_won_by_counts_the_side_a_bot_holds_in_each_seating():
    """won_by(bot) is 1 for a match that bot's side won, whichever side it sat on; a draw or another bot's
    win is 0 (the ladder's per-seating winner is read from it)."""
    g = mbrules.load_game("winning-moves", players=3)
    s = game_seed(4, 0)
    for lineup in seatings(g, "random", "heuristic"):
        rec = match_record(g, s, play_match(g, s, lineup), lineup)
        a, b = won_by("random", g).values(rec), won_by("heuristic", g).values(rec)
        assert a[1] == b[1] == 1
        if rec.winner < 0:
            assert a[0] == b[0] == 0
        else:
            assert {a[0], b[0]} == {0, 1}
            assert (a[0] == 1) == (lineup[g.side_players[rec.winner][0]] == "random")


def test_the_ladder_report_takes_its_win_rates_and_intervals_from_the_registry():
    """Every win rate and 95% interval of the ladder's report is arm_value's for the registry's won_by
    metric (Wilson), rounded to 4 digits; a pair not yet played shows (None, [0, 1])."""
    g = mbrules.load_game("winning-moves", players=2)
    pairs = [(0, 1)]
    tally = Tally(["random", "heuristic"], pairs, "bradley-terry")
    tally.add(0, [play_pairing(g, "random", "heuristic", 2, i) for i in range(3)])
    rep = report(g, tally, 0.0)
    for row in rep["bots"]:
        fig = arm_value(won_by(row["bot"], g), (row["wins"], row["matches"]), row["matches"])
        assert row["win_rate"] == round(fig["value"], 4)
        assert row["ci95"] == [round(x, 4) for x in fig["ci95"]]
        assert fig["ci95"] == list(wilson(row["wins"], row["matches"]))
    empty = report(g, Tally(["random", "heuristic"], pairs, "bradley-terry"), 0.0)
    assert empty["pairs"][0]["a_win_rate"] is None and empty["pairs"][0]["a_ci95"] == [0.0, 1.0]
