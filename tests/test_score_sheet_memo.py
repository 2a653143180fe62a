"""The score sheet's kept rows (engine/scorelines.py ``sheet_rows``): equal to a new payment at every position.

``State.score_sheet()`` reuses the last sheet's rows while ``sheet_key`` (everything a line reads) is unchanged,
so the checker's snapshot of each position pays the lines only when a distance, a safety, a coup fourré, an
emptied hand or a hand's end changed them. A field a line reads that the key left out would hand a stale sheet on:
every bundled edition alone and every option over winning-moves play random hands, and at each position the
sheet is compared with :func:`pay_lines`' own (the positions in play order, so the kept rows are the previous
position's whenever the key says they may be).
"""

from __future__ import annotations

import random

import pytest

from mbrules.engine import Game, State
from mbrules.engine import scorelines
from mbrules.engine.scorelines import pay_lines, sheet_key, sheet_rows
from mbrules.ruleset import RulesetError, bundled_option_ids, bundled_ruleset_ids, load_ruleset


def _configurations():
    # the fast set: every edition alone (each its own lines); the options over winning-moves, slow
    for rid in bundled_ruleset_ids():
        yield pytest.param(rid, (), id=rid)
    for opt in bundled_option_ids():
        yield pytest.param("winning-moves", (opt,), id=f"winning-moves+{opt}", marks=pytest.mark.slow)


def _fresh(st: State) -> list[list[int]]:
    return pay_lines(st, st.current_completer())


@pytest.mark.parametrize("rid,opts", list(_configurations()))
def test_the_kept_rows_are_a_new_payments_at_every_position(rid, opts):
    try:
        rs = load_ruleset(rid, list(opts))
    except RulesetError as exc:  # an option its edition refuses (tests/test_option_edition_pairs.py)
        assert exc.refusal, exc
        return
    players = sorted(int(c) for c in rs.player_counts)[-1]  # the most seats: the most sides and hands to empty
    st = State.new_match(Game(rs, players), 7)
    rnd = random.Random(7)
    kept = 0
    for _ in range(900):
        if st.match_over:
            break
        if st.hand_over:
            st.next_hand()
            continue
        st.apply(rnd.choice(st.legal_actions()), st.decision.player)
        before = scorelines._last_sheet
        rows = sheet_rows(st, st.current_completer())
        kept += before is not None and rows is before[1]
        assert rows == _fresh(st), f"{rid} {opts}: a kept sheet differs from a new payment"
    assert kept, "no position reused the last sheet: the test checked no kept rows"


def test_a_field_a_line_reads_changes_the_key():
    """Poked, not played: each field the lines read, changed alone, gives a new key and the new sheet."""
    st = State.new_match(Game(load_ruleset("winning-moves"), 2), 3)
    for _ in range(40):
        st.apply(st.legal_actions()[0])
    done = st.current_completer()
    key = sheet_key(st, done)
    st.score_sheet()
    pokes = {
        "_miles": lambda: st._miles.__setitem__(0, st._miles[0] + 25),
        "_safeties": lambda: st._safeties[1].append(st._safeties[1][0] if st._safeties[1] else 0),
        "_coups": lambda: st._coups[0].append(0),
        "_played": lambda: st._played[1].__setitem__(0, st._played[1][0] + 1),
        "_target": lambda: setattr(st, "_target", st._target + 300),
        "_extension_called_by": lambda: setattr(st, "_extension_called_by", 1),
        "_completer": lambda: setattr(st, "_completer", 0),
        "_completion_delayed": lambda: setattr(st, "_completion_delayed", not st._completion_delayed),
        "_hands": lambda: st._hands[1].clear(),
    }
    for name, poke in pokes.items():
        twin = st.clone()
        poke()
        assert sheet_key(st, done) != key, f"{name} changed, the key did not"
        assert st.score_sheet() == [dict(zip(st.game.score_line_names, r)) for r in _fresh(st)], name
        setattr(st, name, getattr(twin, name))  # back as it was (the clone's copy)
        assert sheet_key(st, done) == key, name
