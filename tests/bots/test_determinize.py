"""Determinization (mbrules.engine.determinize): a world built from one seat's observation alone
shows that seat exactly what it saw, deals the unseen cards (and only them) to the hidden places,
and depends on the observation and the RNG only, never on the real hidden cards."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import mbrules
from mbrules.vocab import DecisionKind
from mbrules.bots.playout import rollout
from mbrules.engine.determinize import determinize, hidden_pool
from bots_helpers import decisions


def hidden(st, player):
    snap = st.snapshot()
    others = tuple(tuple(sorted(h)) for p, h in enumerate(snap.hands) if p != player)
    return others, snap.draw_pile


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_world_shows_the_observer_exactly_what_it_saw(players):
    game = mbrules.load_game("winning-moves", players=players)
    rng = random.Random(1)
    for st, p, acts in decisions(game, seed=players, every=3):
        obs = st.observation(p)
        world = determinize(obs, rng)
        assert world.observation(p) == obs
        assert world.legal_actions() == acts  # the same choice, the same words
        # the hidden places hold exactly the unseen cards
        others, draw = hidden(world, p)
        assert Counter(c for h in others for c in h) + Counter(draw) == Counter(hidden_pool(obs))


def test_worlds_differ_with_the_rng_and_not_with_the_real_hidden_cards():
    game = mbrules.load_game("winning-moves", players=4)
    st, p, _ = decisions(game, seed=11)[5]
    obs = st.observation(p)
    a = determinize(obs, random.Random(3))
    b = determinize(obs, random.Random(3))
    c = determinize(obs, random.Random(4))
    assert a.snapshot() == b.snapshot()
    assert hidden(a, p) != hidden(c, p)
    # another real world with the same observation (a's) gives the same sampled world
    assert determinize(a.observation(p), random.Random(3)).snapshot() == a.snapshot()


def test_windows_and_extension_questions_are_rebuilt():
    seen = set()
    for seed in range(40):
        game = mbrules.load_game("winning-moves", players=2 + seed % 3)
        for st, p, acts in decisions(game, seed=seed, bots=("heuristic",), hands=2):
            kind = st.decision.kind
            if kind not in (DecisionKind.COUP_FOURRE, DecisionKind.EXTENSION):
                continue
            obs = st.observation(p)
            world = determinize(obs, random.Random(seed))
            assert world.decision == st.decision
            assert world.legal_actions() == acts
            for a in acts:  # every answer can be played out to the hand's end
                w = world.clone()
                w.apply(a)
                rollout(w, random.Random(0))
                assert w.hand_over
            seen.add(kind)
        if seen == {DecisionKind.COUP_FOURRE, DecisionKind.EXTENSION}:
            break
    assert seen == {DecisionKind.COUP_FOURRE, DecisionKind.EXTENSION}


@pytest.mark.parametrize(
    "ruleset,options,players",
    [
        ("parker-1971", [], 3),
        ("kids-115", [], 2),
        ("wikipedia", [], 6),
        ("winning-moves", ["roll-after-safety", "coup-fourre-any-player"], 4),
    ],
)
def test_rollouts_end_every_hand_on_other_rulesets(ruleset, options, players):
    game = mbrules.load_game(ruleset, players=players, options=options)
    for st, p, acts in decisions(game, seed=5, every=7):
        world = determinize(st.observation(p), random.Random(p))
        assert world.observation(p) == st.observation(p)
        rollout(world, random.Random(1))
        assert world.hand_over


def test_known_cards_are_dealt_to_their_hand_and_the_rest_at_random():
    """``known`` (measurement only: no fair bot has it) puts the given cards in that player's hand;
    the world still shows the observer what it saw and hides exactly the unseen cards."""
    game = mbrules.load_game("winning-moves", players=3)
    for st, p, _ in decisions(game, seed=5, every=7):
        obs = st.observation(p)
        real = st.snapshot().hands
        q = (p + 1) % 3
        world = determinize(obs, random.Random(2), {q: list(real[q])})
        assert sorted(world.snapshot().hands[q]) == sorted(real[q])
        assert world.observation(p) == obs
        others, draw = hidden(world, p)
        assert Counter(c for h in others for c in h) + Counter(draw) == Counter(hidden_pool(obs))
        part = determinize(obs, random.Random(2), {q: list(real[q][:2])})
        assert not Counter(real[q][:2]) - Counter(part.snapshot().hands[q])
    st, p, _ = decisions(game, seed=5)[3]
    obs = st.observation(p)
    with pytest.raises(ValueError, match="another player"):
        determinize(obs, random.Random(1), {p: [obs.hand[0]]})
    unseen = obs.unseen()
    c = min((c for c in range(game.n_cards) if game.deck_counts[c]), key=lambda c: unseen[c])
    assert unseen[c] + 1 <= obs.hand_sizes[(p + 1) % 3]
    with pytest.raises(ValueError, match="is not unseen"):  # one copy more than the unseen ones
        determinize(obs, random.Random(1), {(p + 1) % 3: [c] * (unseen[c] + 1)})


@pytest.mark.parametrize("ruleset, players, seed", [("wikipedia", 3, 9), ("wikipedia", 2, 4), ("wikipedia", 4, 2)])
def test_a_world_offers_the_legal_actions_of_the_table_under_roll_after_safety(ruleset, players, seed):
    """Under roll-after-safety a safety played normally asks for a Roll, unless Right of Way spares it. The
    table once allowed a useless second Roll to a side holding Right of Way after such a safety, which no seat
    can see (the side rolls either way): a sampled world refused it, and the learned bot, having chosen it in
    its world, crashed at the table (wikipedia, 3 players, seed 9). A world must offer what the table offers."""
    game = mbrules.load_game(ruleset, players=players)
    rng = random.Random(seed)
    for st, p, acts in decisions(game, seed=seed, hands=3):
        world = determinize(st.observation(p), rng)
        assert world.legal_actions() == acts
