"""The one seat loop (mbrules.seats, issue 37): every match is played by asking the seat whose
decision it is; a seat may answer later (a person, an agent) and the loop is pumped again."""

from __future__ import annotations

import random

import pytest

import mbrules
from mbrules.bots import make_bots
from mbrules.engine import State
from mbrules.matches import play_match
from mbrules.seats import DECIDED, HAND_OVER, LATER, LONE, BotSeat, LaterSeat, SeatLater, SeatLoop
from mbrules.vocab import DRAW, DecisionKind


def _game(players=2, options=()):
    return mbrules.load_game("winning-moves", players=players, options=list(options))


class Spy:
    """A seat that records every question (who decides, what kind, how many moves) and answers the first move."""

    def __init__(self, player, log, asks_lone=False):
        self.player, self.log, self.asks_lone = player, log, asks_lone
        self.state = None
        self.rng = random.Random(player)

    def decide(self, observation, legal):
        st = self.state
        self.log.append(
            (
                self.player,
                st.current_player,
                st.decision.kind,
                len(legal),
                legal[0].op,
                list(legal) == st.legal_actions(),
            )
        )
        return self.rng.choice(legal)


def test_a_seat_answering_later_plays_the_same_match_as_a_bot_answering_at_once():
    """A person is one more seat: the match a pumped LaterSeat plays with its bot's moves offered
    one by one is the match the bot plays in a blocking loop, move for move."""
    g = _game(3)
    seats = [BotSeat(b, asks_lone=True) for b in make_bots(["heuristic"], g, 11)]
    at_once = SeatLoop(State.new_match(g, 11, deal_next=False), seats).play()

    bots = make_bots(["heuristic"], g, 11)
    person = LaterSeat()
    loop = SeatLoop(
        State.new_match(g, 11, deal_next=False),
        [person, BotSeat(bots[1], asks_lone=True), BotSeat(bots[2], asks_lone=True)],
    )
    asked = 0
    while True:
        p = loop.advance()
        if p < 0:
            if loop.hand_finished():
                break
            loop.next_hand()
            continue
        assert p == 0 and loop.waiting == 0
        st = loop.state
        person.offer(bots[0].choose(st.observation(0), st.legal_actions()))
        assert loop.step() == DECIDED
        asked += 1
    assert asked > 10
    assert loop.state.history == at_once.history
    assert loop.state.outcome == at_once.outcome


def test_the_step_function_says_what_it_did():
    g = _game(2)
    person = LaterSeat()
    loop = SeatLoop(State.new_match(g, 3, deal_next=False), [person, BotSeat(make_bots(["random"], g, 3)[1])])
    seen = set()
    for _ in range(2000):
        done = loop.step()
        seen.add(done)
        if done == LATER:
            assert loop.waiting == 0 and loop.state.current_player == 0
            assert loop.step() == LATER  # asked again, still later: nothing was taken
            person.offer(loop.state.legal_actions()[0])
        elif done == HAND_OVER:
            assert loop.state.hand_over and loop.waiting == -1
            break
    assert seen == {LONE, DECIDED, LATER, HAND_OVER}


def test_a_blocking_play_refuses_a_seat_that_answers_later():
    g = _game(2)
    loop = SeatLoop(State.new_match(g, 1, deal_next=False), [LaterSeat(), BotSeat(make_bots(["random"], g, 1)[1])])
    with pytest.raises(SeatLater):
        loop.play()
    assert loop.waiting == 0


@pytest.mark.parametrize("asks_lone", [False, True])
def test_every_question_goes_to_the_seat_of_the_current_player_whatever_the_decision(asks_lone):
    """Routing is by ``current_player`` alone: coup fourré windows (called by any player under the
    option) and extension questions reach the seat deciding, with the state's legal actions. A lone
    draw is never asked; another lone move is asked only of a seat that says ``asks_lone``."""
    g = _game(4, ["coup-fourre-any-player", "extension-1200"])
    kinds = set()
    for seed in range(3):
        log = []
        spies = [Spy(p, log, asks_lone) for p in range(4)]
        st = State.new_match(g, seed, deal_next=False)
        for s in spies:
            s.state = st
        SeatLoop(st, spies).play()
        for seat, current, kind, n, op, same in log:
            assert seat == current and same
            assert not (n == 1 and op == DRAW)
            if not asks_lone:
                assert n > 1
            kinds.add(kind)
        if asks_lone:
            assert any(n == 1 for *_, n, op, same in log)
    assert {DecisionKind.TURN, DecisionKind.COUP_FOURRE, DecisionKind.EXTENSION} <= kinds


def test_should_stop_abandons_the_match_before_a_question():
    g = _game(2)
    calls = []

    class Stop(Exception):
        pass

    def stop():
        calls.append(1)
        return len(calls) > 5

    with pytest.raises(Stop):
        SeatLoop(
            State.new_match(g, 2, deal_next=False),
            [BotSeat(b) for b in make_bots(["random"], g, 2)],
            should_stop=stop,
            stopped=Stop,
        ).play()
    assert len(calls) == 6


def test_max_hands_counts_the_hands_already_done():
    g = mbrules.load_game("parker-1971", players=2)
    st = SeatLoop(
        State.new_match(g, 4, deal_next=False),
        [BotSeat(b) for b in make_bots(["random"], g, 4)],
        max_hands=3,
        hands_done=1,
    ).play()
    assert st.hands_played == 2


def test_play_match_is_a_seat_loop_of_bots():
    g = _game(3)
    via_loop = SeatLoop(
        State.new_match(g, 9, deal_next=False),
        [BotSeat(b) for b in make_bots(["heuristic", "random", "heuristic"], g, 9)],
    ).play()
    assert play_match(g, 9, ["heuristic", "random", "heuristic"]).history == via_loop.history


def test_seats_of_the_wrong_number_are_refused():
    with pytest.raises(ValueError, match="3 seats for 2 players"):
        SeatLoop(State.new_match(_game(2), 1), [LaterSeat()] * 3)


def test_an_answer_that_comes_later_is_taken_once_and_checked():
    """An agent's action (env.step) is the waiting seat's answer: taken without asking again; a
    refused one leaves the seat waiting and the state as it was; with nobody waiting it is an error."""
    g = _game(2)
    loop = SeatLoop(State.new_match(g, 5, deal_next=False), [LaterSeat(), BotSeat(make_bots(["random"], g, 5)[1])])
    with pytest.raises(ValueError, match="no seat is waiting"):
        loop.answer(loop.state.legal_actions()[0])
    assert loop.advance() == 0
    before = loop.state.history
    legal = set(loop.state.legal_actions())
    wrong = next(a for a in g.actions.values() if a not in legal)
    with pytest.raises(mbrules.IllegalAction):
        loop.answer(wrong)
    assert loop.waiting == 0 and loop.state.history == before
    loop.answer(loop.state.legal_actions()[0])
    assert loop.waiting == -1 and len(loop.state.history) == len(before) + 1
