"""Hypothesis strategies: a bundled configuration, a dealt match, and random legal play; and the explicit
examples every property runs first whatever the profile (:func:`with_examples`): each case a property has
found once (``FOUND``) and configurations that together play every bundled option and ruleset
(``OPTION_COVER``), so that no run passes because the draw missed an option or a case found before."""

from __future__ import annotations

import random
import warnings

from hypothesis import assume, example
from hypothesis import strategies as st

from mbrules.testing import bundled_ids, load_game, load_rules
from mbrules.ruleset import RulesetError

RULESETS, OPTIONS = bundled_ids()


@st.composite
def configurations(draw, max_options: int = 3):
    """(ruleset id, option ids, players): a bundled ruleset, up to ``max_options`` options in any order."""
    rid = draw(st.sampled_from(RULESETS))
    opts = tuple(draw(st.lists(st.sampled_from(OPTIONS), max_size=max_options, unique=True)))
    try:
        rs = load_rules(rid, opts)
    except RulesetError:
        assume(False)  # options that do not combine are refused by the loader, not played
    players = draw(st.sampled_from(sorted(int(k) for k in rs.player_counts)))
    return rid, opts, players


seeds = st.integers(min_value=0, max_value=2**32 - 1)


def game_of(config):
    rid, opts, players = config
    return load_game(rid, players, opts)


def new_match(game, seed: int, observers=()):
    """A match that rests at each hand's end (``hand_over``) until ``next_hand()``, as these tests expect."""
    from mbrules.engine import State

    st = State.new_match(game, seed, deal_next=False)
    for o in observers:
        st.add_observer(o)
    return st


def canonical(game, player: int, action):
    """The one form ``legal_actions()`` lists for ``player``'s ``action``: a hazard names its side (the
    only opposing side when unnamed), any other play is unnamed when it names the player's own side."""
    if action.kind != "play":
        return action
    side = game.side_of[player]
    c = action.card_index
    if game.ruleset.cards[action.card].kind == "hazard":
        opp = game.hazard_sides[side]
        return game.play_action[c][opp[0]] if action.side is None and len(opp) == 1 else action
    return game.play_own[c] if action.side_index == side else action


def random_prefix(state, rng: random.Random, steps: int) -> None:
    """Apply up to ``steps`` random legal actions (dealing new hands as the match goes on)."""
    for _ in range(steps):
        if state.match_over:
            return
        if state.hand_over:
            state.next_hand()
            continue
        state.apply(rng.choice(state.legal_actions()))


# Cases a property found once, kept for good: (configuration, deal seed, play seed, steps of random play
# before the property looks), and what it found.
FOUND = [
    # issue 42 item 11: a coup fourré took the draw pile's last card, the attacker's owed draw (play then
    # draw) reshuffled at once; the replayer, judging by the pile's size, read 'no card was drawn'
    (("asmodee-2014", ("play-then-draw", "playable-not-discardable"), 6), 1073741823, 0, 92),
    # issue 42 item 14: a fast-play window (asmodee-2014 has fast play); the candidates had no fast play
    (("asmodee-2014", ("speed-limit-stacking", "no-voluntary-discard"), 3), 0, 0, 55),
    # found by the derandomized run on main's playaural (issue 43): after a safety with no extra turn
    # (no-safety-extra-turn), p2 holds 7 cards outside its turn (the checker's hand size, step 115)
    (("playaural", ("no-safety-extra-turn",), 2), 0, 0, 116),
]


def _plays(rid: str, opts: list[str]) -> bool:
    """Whether the options compose onto ruleset ``rid`` and each changes something there (the loader's
    'changes nothing' warning says an option would be played without being played)."""
    from mbrules.ruleset import load_ruleset

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            load_ruleset(rid, opts)
        except RulesetError:
            return False
    return not any("changes nothing" in str(w.message) for w in seen)


def _option_cover(per: int = 3) -> list[tuple[str, tuple[str, ...], int]]:
    """Configurations that together play every bundled option (up to ``per`` at a time, on the rulesets in
    turn, each at one of its player counts in turn) and every bundled ruleset: the same list on every run."""
    left, out = list(OPTIONS), []
    while left:
        k = len(out)
        for rid in RULESETS[k % len(RULESETS) :] + RULESETS[: k % len(RULESETS)]:
            opts: list[str] = []
            for o in left:
                if len(opts) < per:
                    if _plays(rid, opts + [o]):
                        opts.append(o)
            if opts:
                break
        assert opts, f"no bundled ruleset takes any of {left}"
        left = [o for o in left if o not in opts]
        counts = sorted(int(n) for n in load_rules(rid, tuple(opts)).player_counts)
        out.append((rid, tuple(opts), counts[k % len(counts)]))
    missing = [r for r in RULESETS if r not in {c[0] for c in out}]
    return out + [(r, (), sorted(int(n) for n in load_rules(r).player_counts)[0]) for r in missing]


OPTION_COVER = _option_cover()


def with_examples(make):
    """Hypothesis ``@example``s for a property: each case of ``FOUND``, then each configuration of
    ``OPTION_COVER`` (the k-th dealt and played from seed k, looked at after 20 + 37 k % 300 steps).
    ``make(config, deal_seed, play_seed, steps)`` gives the example's arguments: a dict (keywords) or a
    tuple (positional), as the property's ``@given`` names them."""
    cases = list(FOUND) + [(c, k, k, 20 + 37 * k % 300) for k, c in enumerate(OPTION_COVER)]

    def decorate(test):
        for case in reversed(cases):  # decorators apply inside out: FOUND's run first
            args = make(*case)
            test = example(**args)(test) if isinstance(args, dict) else example(*args)(test)
        return test

    return decorate
