"""api_test keeps the copy of the engine's own State taken after an action as the next action's ``before`` and
as what the checks between actions read (issue 46 point 7: one snapshot an action instead of two). The
kept copy must report every failure a new copy reports: each custom game that test_api_test.py breaks
is run here with the copy kept, as for the engine's State, and fails on the same rule."""

from __future__ import annotations

import pytest

import mbrules.testing.view as view
from test_api_test import CustomState, _broken, _fails


class _ListsTooMuch(CustomState):
    def legal_actions(self):
        acts = super().legal_actions()
        return acts + [a for a in self.game.actions.values() if not self.can_apply(a)][:1]


class _Shallow(CustomState):
    def clone(self):
        twin = super().clone()
        twin._hands = self._hands  # deliberately shared
        return twin


class _Peeking(CustomState):
    def observation(self, player):
        obs = super().observation(player)
        draw = self.snapshot().draw_pile
        return obs._replace(window_hazard=draw[0] if draw else -1)


class _Generous(CustomState):
    def score_sheet(self):  # 100 points of shutout the rulings do not give
        return [{**x, "shutout": x["shutout"] + 100, "total": x["total"] + 100} for x in super().score_sheet()]


class _LenientVerify(CustomState):
    def verify(self, action, player=None):  # accepts everything: judged through it, not through refusal
        return None


class _Wordless(CustomState):
    def _sentence(self, code, a, q):  # a refusal verify words with no sentence
        return "" if code == "not-in-hand" else super()._sentence(code, a, q)


class _Forgetful(CustomState):
    @property
    def history(self):
        return super().history[:-1]  # the last action is not recorded


@pytest.mark.parametrize(
    ("state_class", "rule"),
    [
        (_ListsTooMuch, "legality"),
        (_Shallow, "clone"),
        (_Peeking, "observation"),
        (_Generous, "invariants"),
        (_Forgetful, "transition"),
        (_LenientVerify, "legality"),
        (_Wordless, "legality"),
    ],
    ids=lambda v: v if isinstance(v, str) else v.__name__.strip("_"),
)
def test_a_copy_kept_between_actions_reports_each_broken_rule(state_class, rule, monkeypatch):
    """Each breakage reported with the copy kept (the engine's State's path) as with a new copy each time."""
    monkeypatch.setattr(view, "queries_change_nothing", lambda state: True)
    _fails(_broken(state_class), rule)
    monkeypatch.setattr(view, "queries_change_nothing", lambda state: False)
    _fails(_broken(state_class), rule)


def test_the_copy_is_kept_for_the_engine_s_own_state_only():
    """A custom State's queries may change it: it gets a new copy each time, as before."""
    import mbrules

    assert view.queries_change_nothing(mbrules.load_game("winning-moves", players=2).new_match(1))
    assert not view.queries_change_nothing(_broken(CustomState).new_match(1))
