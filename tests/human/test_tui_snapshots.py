"""Snapshots of the full-screen game at 80×24 (the classic terminal) and 120×40 (pytest-textual-snapshot).

A change to what the screen shows fails here with an SVG diff report; when the change is meant,
``pytest tests/human/test_tui_snapshots.py --snapshot-update`` takes the new screens (look at them).
"""

from __future__ import annotations

import pytest

pytest.importorskip("textual")
pytest.importorskip("pytest_textual_snapshot")

import mbrules  # noqa: E402
from mbrules.tui.app import MatchDriver, MilleBornesApp  # noqa: E402


def app(ruleset="winning-moves", players=2, seed=41, humans=(0,)):
    game = mbrules.load_game(ruleset, players=players)
    return MilleBornesApp(MatchDriver(game, seed, ["heuristic"], list(humans), max_hands=1))


def test_table_hand_moves_and_score_fit_80x24(snap_compare):
    # a few moves in: the last plays, a card picked with the arrows and its targets
    assert snap_compare(app(), press=["1", "1", "1", "right", "right"], terminal_size=(80, 24))


def test_six_players_three_sides_use_the_room_of_120x40(snap_compare):
    assert snap_compare(app(players=6, seed=5), press=["1", "1"], terminal_size=(120, 40))


def test_rules_pane_at_80x24(snap_compare):
    assert snap_compare(app(), press=["r"], terminal_size=(80, 24))


def test_score_sheet_screen_at_80x24(snap_compare):
    assert snap_compare(app(), press=["1"] * 60, terminal_size=(80, 24))
