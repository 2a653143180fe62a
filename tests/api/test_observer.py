"""Observer hooks: around every accepted action, at each hand's end and once at the match's end; never
for a refused action."""

from __future__ import annotations

import random

import pytest

import mbrules
from mbrules.matches import play_match
from api_helpers import game_of


class Log(mbrules.Observer):
    def __init__(self):
        self.events = []

    def before_action(self, state, player, action):
        self.events.append(("before", player, str(action), len(state.history)))

    def after_action(self, state, player, action):
        self.events.append(("after", player, str(action), len(state.history)))

    def hand_over(self, state):
        self.events.append(("hand_over", state.hands_played))

    def match_over(self, state):
        self.events.append(("match_over", state.outcome.result))


@pytest.mark.parametrize("deal_next", [True, False])
def test_hooks_frame_every_accepted_action_and_each_hands_end(deal_next):
    game = game_of("winning-moves", 2)
    state = mbrules.State.new_match(game, 5, deal_next=deal_next)
    log = Log()
    state.add_observer(log)
    rng = random.Random(1)
    accepted = 0
    while not state.is_terminal():
        if state.hand_over:
            state.next_hand()
            continue
        refused = next(x for x in game.actions.values() if not state.can_apply(x))
        n = len(log.events)
        with pytest.raises(mbrules.IllegalAction):
            state.apply(refused)
        assert len(log.events) == n  # a refused action runs no hook
        a = rng.choice(state.legal_actions())
        n = len(log.events)
        state.apply(a)
        accepted += 1
        before, after = log.events[n], log.events[n + 1]
        assert before[0] == "before" and after[0] == "after" and before[2] == after[2] == str(a)
        assert after[3] == before[3] + 1  # the action is in the history between the two
    kinds = [e[0] for e in log.events]
    assert kinds.count("before") == kinds.count("after") == accepted
    assert [e[1] for e in log.events if e[0] == "hand_over"] == list(range(1, state.hands_played + 1))
    assert kinds.count("match_over") == 1 and kinds[-1] == "match_over"
    assert log.events[-1][1] == state.outcome.result


def test_play_match_passes_observers_and_remove_observer_stops_them():
    game = game_of("kids-115", 4)
    log = Log()
    st = play_match(game, 3, ["random"], observers=[log])
    assert sum(1 for e in log.events if e[0] == "after") == sum(1 for p, _ in st.history if p >= 0)
    state = game.new_match(3)
    other = Log()
    state.add_observer(other)
    state.remove_observer(other)
    state.apply(state.legal_actions()[0])
    assert other.events == []


class Starts(mbrules.Observer):
    def __init__(self):
        self.events = []

    def hand_start(self, state):
        assert not state.hand_over
        self.events.append(("start", state.hand_no, state.current_player, len(state.history)))

    def before_action(self, state, player, action):
        if not self.events or self.events[-1][0] != "action":
            self.events.append(("action", state.hand_no, player))

    def hand_over(self, state):
        self.events.append(("over", state.hand_no))


@pytest.mark.parametrize("deal_next", [True, False])
def test_hand_start_is_heard_once_per_hand_before_its_first_action(deal_next):
    """The observers no longer work out a hand's start from ``hand_no``: the engine says it, once a
    hand is dealt, with its first player deciding."""
    game = game_of("parker-1971", 2)
    state = mbrules.State.new_match(game, 3, deal_next=deal_next)
    obs = Starts()
    state.add_observer(obs)  # before the first hand's first action: it hears that hand's start
    rng = random.Random(2)
    while not state.is_terminal():
        if state.hand_over:
            state.next_hand()
            continue
        state.apply(rng.choice(state.legal_actions()))
    starts = [e for e in obs.events if e[0] == "start"]
    assert len(starts) == state.hands_played > 1
    assert [e[1] for e in starts] == list(range(state.hands_played))
    for k, e in enumerate(obs.events):
        if e[0] == "start":
            assert obs.events[k + 1][:2] == ("action", e[1])  # then its first action, by its first player
            assert obs.events[k + 1][2] == e[2]
            assert k == 0 or obs.events[k - 1] == ("over", e[1] - 1)


def test_an_observer_added_in_the_middle_of_a_hand_hears_the_next_hands_start_only():
    game = game_of("parker-1971", 2)
    state = mbrules.State.new_match(game, 3, deal_next=False)
    state.apply(state.legal_actions()[0])  # the first draw: the hand has begun
    obs = Starts()
    state.add_observer(obs)
    assert obs.events == []
    play_until = state.hand_no
    rng = random.Random(0)
    while state.hand_no == play_until and not state.hand_over:
        state.apply(rng.choice(state.legal_actions()))
    state.next_hand()
    assert [e for e in obs.events if e[0] == "start"] == [("start", 1, state.current_player, len(state.history))]
