"""turn.discard_draw_must_play (option draw-from-discard): every hand ends, whatever the seats do.

Issue 35's defect: with a draw from the discard pile and nothing more, seats that take the discard top
and discard again (A takes X and discards Y, B takes Y and discards Z, ...) never end the hand, since the
draw pile never moves; one agent playing every seat (RL self-play, a web table) loops for ever. The rule
makes every turn either draw from the draw pile or put a card on a tableau (the potential argument is in
``Legality._verify_draw_discard``'s docstring). Here adversarial seats (they take the discard top whenever
it is legal and otherwise keep the discard pile cycling: a discard before a play, a window declined, an
extension taken) play hands that must end within the bound that argument gives, computed from the deck,
the deal and the reshuffles allowed; and the same seats with the rule off go past that bound."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

import mbrules
from mbrules.vocab import DECLINE, DISCARD, DRAW, EXTEND, HAZARD, MULLIGAN, PLAY, SAFETY


def turn_bound(game: mbrules.Game) -> int:
    """The most turn actions (draws, plays, discards) a hand can take under turn.discard_draw_must_play.

    Draws from the draw pile: at most the pile at the deal plus the whole deck for each reshuffle allowed.
    Cards played onto a tableau: at most the deck, plus every hazard once more for each safety (a safety
    sweeps the hazards it protects against back to the discard pile, where they may be taken again).
    A turn draws from the draw pile, or plays a card, or draws nothing and leaves the hands a card
    smaller, which happens at most once for each card dealt, drawn or taken: so at most
    ``dealt + 2 * (draws + plays)`` turns, each of at most two turn actions."""
    deck = len(game.deck)
    dealt = game.players * game.hand_size
    draws = deck - dealt + max(game.max_reshuffles, game.max_refill_reshuffles) * deck
    hazards = sum(1 for c in game.deck if game.kind[c] == HAZARD)
    safeties = sum(1 for c in game.deck if game.kind[c] == SAFETY)
    plays = deck + safeties * hazards
    return 2 * (dealt + 2 * (draws + plays))


def adversary(st: mbrules.State, rng: random.Random, prefers_discard: bool) -> mbrules.Action:
    """A seat that keeps the discard pile cycling: the discard top whenever it may take it, else a discard
    (``prefers_discard``; else a play, so that play then draw may take the top after it), every window
    declined, every extension taken, a mulligan ended at once."""
    acts = st.legal_actions()
    for a in acts:
        if a.op == DRAW and a.from_discard:
            return a
    plain = [a for a in acts if a.op == DRAW]
    if plain:
        return plain[0]  # the draw pile (or the end of a mulligan), never a new mulligan
    for op in (DECLINE, EXTEND):
        for a in acts:
            if a.op == op:
                return a
    discards = [a for a in acts if a.op == DISCARD]
    plays = [a for a in acts if a.op == PLAY]
    first, then = (discards, plays) if prefers_discard else (plays, discards)
    pick = first or then or [a for a in acts if a.op != MULLIGAN] or acts
    return rng.choice(pick)


def play_one_hand(game: mbrules.Game, seed: int, prefers: list[bool], cap: int, every: list[int] | None = None) -> int:
    """The turn actions the adversaries take before the first hand ends (stopping at ``cap``); ``every``,
    if given, gets the count of all their actions (window answers and extension answers too)."""
    st = game.new_match(seed)  # it deals the next hand as soon as one ends: the first hand ends when one is played
    rng = random.Random(seed)
    turn_actions = actions = 0
    while not st.hands_played and not st.is_terminal() and turn_actions < cap:
        p = st.decision.player
        a = adversary(st, rng, prefers[p])
        st.apply(a)
        actions += 1
        if a.op in (DRAW, PLAY, DISCARD):
            turn_actions += 1
    if every is not None:
        every.append(actions)
    return turn_actions


OPTION_SETS = [
    ["draw-from-discard", "discard-draw-must-play"],
    ["draw-from-discard", "discard-draw-must-play", "reshuffle-discard"],
    ["draw-from-discard", "discard-draw-must-play", "play-then-draw"],
    ["draw-from-discard", "discard-draw-must-play", "each-for-himself"],
]
_GAMES: dict[tuple[str, ...], mbrules.Game] = {}


def _game(options: list[str], players: int) -> mbrules.Game:
    key = (*options, str(players))
    if key not in _GAMES:
        _GAMES[key] = mbrules.load_game("winning-moves", players=players, options=options)
    return _GAMES[key]


@settings(max_examples=30, deadline=None)
@given(
    options=hs.sampled_from(OPTION_SETS),
    players=hs.sampled_from([2, 3, 4]),
    seed=hs.integers(0, 2**32),
    prefers=hs.lists(hs.booleans(), min_size=4, max_size=4),
)
def test_adversarial_seats_end_every_hand_within_the_bound(options, players, seed, prefers):
    """Seats that take the discard top whenever they may and otherwise feed the discard pile end the hand
    within the bound of the potential argument (draws from a finite pile, plays onto the tableau)."""
    game = _game(options, players)
    assert game.discard_draw_must_play
    bound = turn_bound(game)
    taken = play_one_hand(game, seed, prefers, cap=bound + 1)
    assert taken <= bound, f"the hand took more than {bound} turn actions"


def test_draw_from_discard_alone_ends_every_hand_by_the_stall_rule():
    """The sources' discard draw (racecard, the OCaml game) asks nothing of the taker: the same seats then
    take the top and discard it again, and the stall rule (turn.stall_discards, a ruling) ends the hand:
    each stretch with no draw from the draw pile and no play is at most that many discards."""
    game = mbrules.load_game("winning-moves", players=2, options=["draw-from-discard"])
    assert game.draw_from_discard and not game.discard_draw_must_play and game.stall_checked
    bound = turn_bound(game) * (game.stall_discards + 1)
    for seed in (1, 2):
        st_taken = play_one_hand(game, seed, [True, True], cap=bound + 1)
        assert st_taken <= bound, f"the hand took more than {bound} turn actions"


def test_without_the_stall_rule_the_same_seats_go_past_the_bound(tmp_path: Path):
    """The defect the stall rule fixes (issue 35): the discard draw with nothing owed and no stall rule
    worth the name, and the same seats go past the bound (they take the top and discard it again)."""
    off = tmp_path / "no-stall.yaml"
    off.write_text(
        "kind: option\nid: no-stall\nname: No stall rule worth the name (the defect)\n"
        "description: The discard top may be taken and discarded again, 10000 times.\ncategory: piles\n"
        "source: tests/test_discard_draw_bound.py\n"
        "turn:\n  stall_discards: {value: 10000, decided: \"the defect of issue 35, for this test\"}\n",
        encoding="utf-8",
    )
    game = mbrules.load_game("winning-moves", players=2, options=["draw-from-discard", str(off)])
    assert game.draw_from_discard and not game.discard_draw_must_play
    bound = turn_bound(game)
    assert play_one_hand(game, 1, [True, True], cap=bound + 1) > bound


@settings(max_examples=8, deadline=None)
@given(
    options=hs.sampled_from(OPTION_SETS),
    players=hs.sampled_from([2, 4]),
    seed=hs.integers(0, 2**32),
    prefers=hs.lists(hs.booleans(), min_size=4, max_size=4),
)
def test_openspiel_max_game_length_holds_the_adversarial_hand(options, players, seed, prefers):
    """OpenSpiel's ``max_game_length`` per hand (``_hand_length``) counts what the rule bounds: the
    adversaries' actions and the chance nodes of the cards dealt and drawn stay within it."""
    openspiel = pytest.importorskip("mbrules.openspiel")
    game = _game(options, players)
    every: list[int] = []
    play_one_hand(game, seed, prefers, cap=turn_bound(game) + 1, every=every)
    chance = (1 + max(game.max_reshuffles, game.max_refill_reshuffles)) * len(game.deck)
    assert every[0] + chance <= openspiel._hand_length(game)


@pytest.mark.parametrize(
    "options",
    [
        ["draw-from-discard", "discard-draw-must-play"],
        ["draw-from-discard", "discard-draw-must-play", "play-then-draw"],
    ],
)
def test_a_sampled_world_refuses_what_the_real_position_refuses(options):
    """The rule looks back at the turn (did it take the discard top; did it play a card): the observation
    shows that public past (``recent``), so a search bot's world (``determinize``) offers exactly the real
    position's moves, a discard after a discard draw refused there too."""
    from mbrules.engine.determinize import determinize

    game = _game(options, 2)
    st, rng = game.new_match(5), random.Random(5)
    bites = 0  # positions where the rule refuses something: a discard after a discard draw, a discard draw
    for i in range(400):
        if st.hands_played or st.is_terminal():
            break
        p = st.decision.player
        world = determinize(st.observation(p), rng)
        assert world.legal_actions() == st.legal_actions()
        try:
            st.verify(game.draw_discard_action, p)
        except mbrules.IllegalAction as e:
            bites += e.code == "discard-draw-must-play"
        bites += st.history[-1:] == ((p, game.draw_discard_action),)
        st.apply(adversary(st, rng, i % 3 == 0))
    assert bites, "no position where the rule refuses a move was checked"


def _position(options, hands, discard, battle_a):
    game = _game(options, 2)
    idx = game.card
    st = mbrules.State.from_position(
        game,
        hands=[[idx(c) for c in h] for h in hands],
        draw_top_first=[idx("accident"), idx("d25")],
        discard=[idx(c) for c in discard],
        sides={0: {"battle": [idx(c) for c in battle_a]}},
    )
    return game, st


def test_the_table_says_why_the_discard_top_is_refused_and_why_a_discard_is():
    """narrate.take_refusal (the terminal game's t key, the browser table's refused 'draw discard') and
    narrate.refusal (a refused discard) word the rule for the person at the table, within 80 columns."""
    from mbrules.narrate import refusal, take_refusal

    hand = ["d25", "d50", "d75", "d100", "gasoline", "spare_tire"]
    game, st = _position(["draw-from-discard", "discard-draw-must-play"], [hand, hand], ["roll", "d200"], ["stop"])
    try:
        st.verify("draw discard")
        raise AssertionError("a top that helps nothing was taken")
    except mbrules.IllegalAction as e:
        assert e.code == "discard-draw-must-play" and "200" in e.message
    words = take_refusal(game, st.observation(0))
    assert words == (
        "Even holding 200 Miles you could play no card: the top of the Discard Pile is taken only "
        "to play a card that turn."
    )
    game, st = _position(["draw-from-discard", "discard-draw-must-play"], [hand, hand], ["d200", "roll"], ["stop"])
    st.apply("draw discard")
    try:
        st.verify("discard gasoline")
        raise AssertionError("a discard after a discard draw was accepted")
    except mbrules.IllegalAction as e:
        said = refusal(game, st.observation(0), game.card("gasoline"), -1, e.code, e.message)
    assert said.startswith("you took the top of the Discard Pile this turn: play a card")
    game, st = _position(
        ["draw-from-discard", "discard-draw-must-play", "play-then-draw"], [hand, hand], ["d200"], ["roll"]
    )
    st.apply("discard gasoline")
    assert st.legal_actions() == [game.draw_action]  # a discard this turn: the draw pile only
    assert take_refusal(game, st.observation(0)) == (
        "You may take the top of the Discard Pile only after playing a card this turn, not a discard."
    )
