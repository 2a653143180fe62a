"""Bots: the protocol and registry, determinism (own streams, never the global random), and
the heuristic's play: it beats the random bot and follows the rulebooks' Hints for play."""

from __future__ import annotations

import random

import pytest

from mbrules.bots import Bot, HeuristicBot, RandomBot, UnknownBot, bot_names, bot_rng, make_bot, make_bots
from mbrules.engine import Action, Game, State
from mbrules.vocab import DecisionKind
from mbrules.ruleset import load_ruleset
from mbrules.matches import game_seed, play_match, simulate, summary
from positions import position

A, B = 0, 1


@pytest.fixture(scope="module")
def wm():
    return load_ruleset("winning-moves")


@pytest.fixture(scope="module")
def game4(wm):
    return Game(wm, 4)


def fingerprint(st: State):
    snap = st.snapshot()
    return (st.history, snap.hand_sheets, snap.match_totals, snap.winner, st.outcome.to_dict())


# -- registry and protocol --------------------------------------------------------------
def test_registry(game4):
    assert {"random", "heuristic"} <= set(bot_names())
    for name in ("random", "heuristic"):
        bot = make_bot(name, game4, 0, seed=7)
        assert isinstance(bot, Bot) and bot.name == name
    assert isinstance(make_bot("random", game4, 1, 7), RandomBot)
    assert isinstance(make_bot("heuristic", game4, 1, 7), HeuristicBot)
    with pytest.raises(UnknownBot):
        make_bot("nope", game4, 0, 7)
    assert len(make_bots(["random"], game4, 1)) == 4
    assert [b.name for b in make_bots(["random", "heuristic"] * 2, game4, 1)] == ["random", "heuristic"] * 2
    with pytest.raises(UnknownBot):
        make_bots(["random", "heuristic"], game4, 1)


def test_bot_streams_are_per_seed_and_player():
    assert bot_rng(5, 0).random() == bot_rng(5, 0).random()
    assert bot_rng(5, 0).random() != bot_rng(5, 1).random()
    assert bot_rng(5, 0).random() != bot_rng(6, 0).random()


# -- determinism ----------------------------------------------------------------------------
@pytest.mark.parametrize("bots", [["random"], ["heuristic"], ["heuristic", "random"] * 2])
def test_same_seed_same_match_whatever_the_global_random(game4, bots):
    random.seed(1)
    first = fingerprint(play_match(game4, 42, bots))
    random.seed(999)
    random.random()
    before = random.getstate()
    second = fingerprint(play_match(game4, 42, bots))
    assert first == second
    assert random.getstate() == before  # neither the engine nor the bots touch the global random
    assert fingerprint(play_match(game4, 43, bots)) != first


def test_simulate_is_the_same_for_any_worker_count(wm):
    game = Game(wm, 3)
    one, _ = simulate(game, ["random"], 6, seed=3, workers=1)
    two, _ = simulate(game, ["random"], 6, seed=3, workers=2)
    assert one == two
    report = summary(game, one, 1.0)
    assert report["games"] == 6 and sum(report["wins"].values()) + report["draws"] == 6
    assert game_seed(3, 0) != game_seed(3, 1) and game_seed(3, 0) == game_seed(3, 0)


# -- strength ----------------------------------------------------------------------------------
def test_heuristic_beats_random_in_partnership_matches(game4):
    """20 four-player matches, heuristic partnership against random partnership, sides alternating."""
    wins = 0
    for i in range(20):
        h_side = i % 2
        bots = ["heuristic" if game4.side_of[p] == h_side else "random" for p in range(4)]
        st = play_match(game4, game_seed(2024, i), bots)
        wins += st.outcome.winner_index == h_side
    assert wins >= 16, f"heuristic won only {wins} of 20"


@pytest.mark.parametrize("players", [2, 3, 6])
def test_heuristic_beats_random_at_other_counts(wm, players):
    game = Game(wm, players)
    wins = 0
    for i in range(10):
        h_side = i % game.sides
        bots = ["heuristic" if game.side_of[p] == h_side else "random" for p in range(players)]
        wins += play_match(game, game_seed(7, i), bots).outcome.winner_index == h_side
    assert wins >= 8


# -- the Hints for play --------------------------------------------------------------------------


def choose(game: Game, st: State, player: int = 0) -> Action:
    """The heuristic bot's choice for ``player`` (after the draw), from its observation only."""
    if st.decision.kind == "turn" and not st.decision.drawn:
        st.apply(st.legal_actions()[0])
    bot = make_bot("heuristic", game, player, seed=0)
    return bot.choose(st.observation(player), st.legal_actions())


def act(game: Game, text: str) -> Action:
    return Action.parse(text, game)


def test_gets_rolling_when_it_has_nobody_to_attack(game4):
    """WM §12 B: a Roll first, when no opponent can be attacked (B is stopped already)."""
    st = position(game4, {0: ["roll", "stop", "d100"]}, {B: {"battle": ["roll", "accident"]}})
    assert choose(game4, st) == act(game4, "play roll")


def test_attacks_before_getting_rolling(game4):
    """Measured, against the book's order (WM §12 B): stopping a rolling opponent is worth more than our
    own start, which waits a turn (docs/bots.md gives the figures)."""
    st = position(game4, {0: ["roll", "stop", "d100"]}, {B: {"battle": ["roll"]}})
    assert choose(game4, st) == act(game4, "play stop on B")


def test_attacks_when_rolling(game4):
    st = position(game4, {0: ["accident", "d25"]}, {A: {"battle": ["roll"]}, B: {"battle": ["roll"]}})
    assert choose(game4, st) == act(game4, "play accident on B")


def test_attacks_the_leading_opponent(wm):
    game = Game(wm, 3)
    st = position(
        game,
        {0: ["stop"]},
        {A: {}, B: {"battle": ["roll"], "distance": ["d100"]}, 2: {"battle": ["roll"], "distance": ["d200", "d100"]}},
    )
    assert choose(game, st) == act(game, "play stop on C")


def test_keeps_a_safety_for_a_coup_fourre_early(game4):
    st = position(game4, {0: ["extra_tank", "d100"]}, {A: {"battle": ["roll"]}})
    a = choose(game4, st)
    assert a != act(game4, "play extra_tank")
    assert a == act(game4, "play d100")


def test_plays_a_safety_that_unblocks(game4):
    st = position(game4, {0: ["puncture_proof", "spare_tire", "d100"]}, {A: {"battle": ["roll", "flat_tire"]}})
    assert choose(game4, st) == act(game4, "play puncture_proof")


def test_plays_safeties_before_the_end(game4):
    st = position(game4, {0: ["driving_ace", "d100"]}, {A: {"battle": ["roll"]}}, draw=3)
    assert choose(game4, st) == act(game4, "play driving_ace")
    # and before the card that completes the trip ends the hand
    st = position(
        game4,
        {0: ["driving_ace", "d100"]},
        {A: {"battle": ["roll"], "distance": ["d200", "d200", "d100", "d100", "d100", "d100", "d100"]}},
    )
    assert st.snapshot().sides[A].miles == 900
    assert choose(game4, st) == act(game4, "play driving_ace")


def test_discards_dead_cards_first(game4):
    # side A is stopped with no Roll in hand: only discards; a third 200 can never be played
    dead200 = position(
        game4,
        {0: ["d200", "d100", "repairs", "gasoline", "spare_tire"]},
        {A: {"battle": ["stop"], "distance": ["d200", "d200"]}, B: {"battle": ["roll"]}},
    )
    assert choose(game4, dead200) == act(game4, "discard d200")
    # a hazard every opponent is protected against
    protected = position(
        game4,
        {0: ["out_of_gas", "repairs", "gasoline", "spare_tire", "d100"]},
        {A: {"battle": ["stop"]}, B: {"safeties": ["extra_tank"]}},
    )
    assert choose(game4, protected) == act(game4, "discard out_of_gas")
    # a remedy whose hazards are all used (WM §12 E): the three Accidents are on the table
    used = position(
        game4,
        {0: ["repairs", "gasoline", "spare_tire", "d100", "d75"]},
        {
            A: {"battle": ["stop"]},
            B: {
                "battle": [
                    "roll",
                    "accident",
                    "repairs",
                    "roll",
                    "accident",
                    "repairs",
                    "roll",
                    "accident",
                    "repairs",
                    "roll",
                ]
            },
        },
    )
    assert choose(game4, used) == act(game4, "discard repairs")


def test_plays_its_longest_distance_first(game4):
    """Measured, against the hint to save a Safe Trip (WM §8): the 200 goes first, tempo is worth more."""
    st = position(game4, {0: ["d200", "d100", "d75"]}, {A: {"battle": ["roll"]}, B: {"battle": ["stop"]}})
    assert choose(game4, st) == act(game4, "play d200")


def ranked(game: Game, st: State, player: int = 0) -> list[Action]:
    """The heuristic bot's order of the legal actions for ``player`` (after the draw)."""
    if st.decision.kind == "turn" and not st.decision.drawn:
        st.apply(st.legal_actions()[0])
    return make_bot("heuristic", game, player, seed=0).rank(st.observation(player), st.legal_actions())


def test_plays_a_safety_rather_than_throw_away_its_only_roll(game4):
    """WM §12 C read with numbers: a safety held for a coup fourré is worth less than our only Roll;
    played, it scores 100 and gives another turn. A second Roll is worth little, and goes first."""
    stopped = {A: {"battle": ["roll", "accident"]}, B: {"battle": ["roll"]}}
    order = ranked(game4, position(game4, {0: ["extra_tank", "roll", "d100", "d100", "d100", "d100"]}, stopped))
    assert order.index(act(game4, "play extra_tank")) < order.index(act(game4, "discard roll"))
    order = ranked(game4, position(game4, {0: ["extra_tank", "roll", "roll", "d100", "d100", "d100"]}, stopped))
    assert order.index(act(game4, "discard roll")) < order.index(act(game4, "play extra_tank"))


def test_holds_a_safety_longer_the_more_of_its_hazards_can_come(game4):
    """A safety whose hazards are mostly unseen is kept rather than a 100 discarded (a coup fourré is
    likely); with one Stop left to come, the 100 is worth more."""
    hand = {0: ["right_of_way", "d100", "repairs", "gasoline", "spare_tire", "roll"]}
    stopped = {A: {"battle": ["roll", "accident"]}, B: {"battle": ["roll"]}}
    order = ranked(game4, position(game4, hand, stopped))
    assert order.index(act(game4, "discard d100")) < order.index(act(game4, "play right_of_way"))
    out = {
        A: {"battle": ["roll", "accident"]},
        B: {
            "battle": ["roll", "stop", "roll", "stop", "roll", "stop", "roll", "stop", "roll"],
            "speed": [
                "speed_limit",
                "end_of_limit",
                "speed_limit",
                "end_of_limit",
                "speed_limit",
                "end_of_limit",
                "speed_limit",
                "end_of_limit",
            ],
        },
    }
    order = ranked(game4, position(game4, hand, out))
    assert order.index(act(game4, "play right_of_way")) < order.index(act(game4, "discard d100"))


def test_always_calls_a_coup_fourre(game4):
    st = position(game4, {0: ["accident"], 1: ["driving_ace"]}, {A: {"battle": ["roll"]}, B: {"battle": ["roll"]}})
    st.apply(st.legal_actions()[0])
    st.apply(act(game4, "play accident on B"))
    assert st.decision.kind == DecisionKind.COUP_FOURRE
    q = st.decision.player
    bot = make_bot("heuristic", game4, q, seed=0)
    a = bot.choose(st.observation(q), st.legal_actions())
    assert a == act(game4, "coup-fourre driving_ace")


def test_extension_is_called_only_when_likely(wm):
    game = Game(wm, 2)

    def at_700(hand, draw, opp_distance):
        st = position(
            game,
            {0: hand},
            {
                A: {"battle": ["roll"], "distance": ["d200", "d200", "d100", "d100", "d75"]},
                B: {"battle": ["roll"], "distance": opp_distance},
            },
            draw=draw,
        )
        st.apply(st.legal_actions()[0])
        st.apply("play d25")
        assert st.decision.kind == DecisionKind.EXTENSION
        return make_bot("heuristic", game, 0, seed=0).choose(st.observation(0), st.legal_actions())

    assert at_700(["d25", "d100", "d100", "d100", "d75"], 40, ["d100"]) == game.extend_action
    assert at_700(["d25", "d25", "d25", "d25", "d25"], 40, ["d100"]) == game.stop_action  # not the miles in hand
    assert (
        at_700(["d25", "d100", "d100", "d100", "d75"], 3, ["d100"]) == game.stop_action
    )  # the draw pile is nearly out
    assert (
        at_700(["d25", "d100", "d100", "d100", "d75"], 40, ["d200", "d200", "d100", "d75"]) == game.stop_action
    )  # close
    assert at_700(["d25", "d100", "d100", "d100", "d75"], 40, []) == game.stop_action  # a shutout is won already


def test_bot_facts_live_in_the_registration():
    """Issue 37: whether a bot is slow, where it stands on compare's skill ladder and whether it gives
    the terminal game's hints are said where it registers, and the tools read them there."""
    from mbrules.bots import bot_facts, hint_bot, is_slow, ladder_rungs, register
    from mbrules.bots import base
    from mbrules.compare.run import default_ladder

    assert is_slow("expert") and is_slow("expert:budget=4") and not is_slow("heuristic") and not is_slow("nope")
    assert ladder_rungs() == default_ladder() == ["random", "heuristic", "expert:budget=4,width=2"]
    assert hint_bot() == "expert"
    saved = (dict(base._REGISTRY), dict(base._PARAMS), dict(base._FACTS))
    try:

        @register("oracle-test", "a test bot", slow=True, ladder=5, hints=9)
        class Oracle:  # noqa: N801
            observes = False

            def __init__(self, game, player, rng):
                pass

        assert bot_facts("oracle-test:x=1").slow
        assert default_ladder()[-1] == "oracle-test" and hint_bot() == "oracle-test"
    finally:
        base._REGISTRY, base._PARAMS, base._FACTS = saved
    assert hint_bot() == "expert"
