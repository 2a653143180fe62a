"""A match's record agrees with its outcome and its public history (records.py)."""

from __future__ import annotations

import pytest

import mbrules
from mbrules.matches.records import match_record
from mbrules.vocab import SCORE_LINES
from mbrules.matches import count_turns, play_match


def _record(ruleset, players, seed, options=()):
    game = mbrules.load_game(ruleset, players=players, options=list(options))
    st = play_match(game, seed, ["heuristic"])
    return game, st, match_record(game, seed, st, ["heuristic"])


def test_hand_points_add_up_to_the_match_totals_and_turns_to_the_history():
    for players in (2, 3, 4, 6):
        game, st, rec = _record("winning-moves", players, 3)
        assert rec.hands_played == len(st.outcome.hand_sheets)
        assert [sum(h.points[s] for h in rec.hands) for s in range(game.sides)] == list(st.match_totals)
        assert rec.turns == count_turns(st.history)
        for h in rec.hands:
            assert h.points == h.line("total")
            assert sum(h.line(line)[s] for line in SCORE_LINES if line != "total" for s in range(game.sides)) == sum(
                h.points
            )


def test_completed_by_is_the_outcomes_completing_side_or_minus_one_for_exhaustion():
    game, st, rec = _record("winning-moves", 3, 8)
    assert [game.side_names[h.completed_by] if h.completed_by >= 0 else None for h in rec.hands] == list(
        st.outcome.completed
    )
    for h in rec.hands:
        done = h.completed_by
        assert (h.line("trip_completed")[done] > 0) if done >= 0 else not any(h.line("trip_completed"))


def test_the_first_player_moves_left_each_hand_when_the_deal_passes_left():
    game, st, rec = _record("winning-moves", 4, 2)
    assert [h.first_player for h in rec.hands] == [k % 4 for k in range(rec.hands_played)]
    assert all(h.first_side == game.side_of[h.first_player] for h in rec.hands)


def test_extensions_called_and_made_follow_the_history_and_the_extension_line():
    called = made = 0
    for seed in range(12):
        game, st, rec = _record("winning-moves", 3, seed, ["extension-1200"])
        for h in rec.hands:
            called += h.extension_called
            made += h.extension_made
            if h.extension_made:
                assert h.extension_called and h.completed_by >= 0
        n_extend = sum(1 for p, a in st.history if p >= 0 and a.kind == "extend")
        assert n_extend == sum(h.extension_called for h in rec.hands)
    assert called > 0 and made > 0  # the option is exercised


def test_safe_trip_and_shutout_flags_are_the_sheets_lines():
    seen = set()
    for seed in range(10):
        _, _, rec = _record("winning-moves", 2, seed)
        for h in rec.hands:
            assert h.safe_trip == any(h.line("safe_trip"))
            assert h.shutout == any(h.line("shutout"))
            seen.update(k for k in ("safe_trip", "shutout") if getattr(h, k))
    assert seen == {"safe_trip", "shutout"}


def test_lead_changes_and_comeback_come_from_the_running_totals():
    for seed in range(8):
        game, st, rec = _record("winning-moves", 2, seed)
        running, leaders = [0, 0], []
        for h in rec.hands:
            running = [r + p for r, p in zip(running, h.points)]
            leaders.append(0 if running[0] > running[1] else 1 if running[1] > running[0] else -1)
        strict = [x for x in leaders if x >= 0]
        assert rec.lead_changes == sum(1 for u, v in zip(strict, strict[1:]) if u != v)
        assert rec.leader_after_first_hand == leaders[0]
        if rec.winner >= 0 and leaders[0] >= 0 and rec.hands_played > 1:
            assert rec.comeback == (rec.winner != leaders[0])
        if rec.winner >= 0:
            assert rec.margin == abs(st.match_totals[0] - st.match_totals[1])


def test_a_record_is_frozen_hashable_and_crosses_processes():
    """Records are frozen dataclasses (issue 37): no field can be changed, none holds a mutable
    container, so a record hashes, compares by value and pickles to a worker and back unchanged."""
    import dataclasses
    import pickle

    game, _, rec = _record("winning-moves", 4, 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rec.turns = 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        rec.hands[0].turns = 0
    assert hash(rec) == hash(pickle.loads(pickle.dumps(rec))) and pickle.loads(pickle.dumps(rec)) == rec
    assert rec.hands[0].line("total") == rec.hands[0].points
