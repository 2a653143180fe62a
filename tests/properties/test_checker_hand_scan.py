"""The checker's count of draws a ruleset withholds (coup_fourre.replacement_draw and fast_play.replacement_draw
false) is read incrementally (issue 46 point 7: a hand-long scan of the history after every action made each hand
quadratic). The incremental reading must give what the hand-long backward reading gives on any history: one
that grows an action at a time, a new hand's mark, a history that jumps to another match, or one changed
in place (the memo is then read afresh)."""

from __future__ import annotations

import random

from mbrules.testing import load_game
from mbrules.testing.checker import _short_draws
from mbrules.vocab import COUP_FOURRE, DRAW, FAST_PLAY, MULLIGAN, PLAY

MARK = (-1, -1)


def _backward(hist, n, cf_short, fast_short):
    """The reading the checker made before: backwards from the end to the hand's mark, a mulligan's ending draw
    clearing what its player called before it."""
    short, refilled = [0] * n, [False] * n
    for i in range(len(hist) - 1, -1, -1):
        q, a = hist[i]
        if q < 0:
            break
        if a.op == DRAW and i > 0 and hist[i - 1][0] == q and hist[i - 1][1].op == MULLIGAN:
            refilled[q] = True
        elif not refilled[q] and ((a.op == COUP_FOURRE and cf_short) or (a.op == FAST_PLAY and fast_short)):
            short[q] += 1
    return short


def _history(rng, game, length):
    """A history of the ops the reading tells apart, mulligans followed by their draw, and hand marks."""
    by_op = {}
    for a in game.actions.values():
        by_op.setdefault(a.op, []).append(a)
    out = []
    while len(out) < length:
        r = rng.random()
        q = rng.randrange(game.players)
        if r < 0.05:
            out.append(MARK)
        elif r < 0.15:
            out += [(q, rng.choice(by_op[MULLIGAN])), (q, rng.choice(by_op[DRAW]))]
        else:
            op = rng.choice([COUP_FOURRE, FAST_PLAY, DRAW, PLAY, MULLIGAN])
            out.append((q, rng.choice(by_op[op])))
    return out


def test_the_incremental_reading_of_withheld_draws_equals_the_backward_reading_of_the_hand():
    game = load_game("winning-moves", 3, ["cf-single-draw", "fast-play-remedy", "mulligan"])
    rng = random.Random(46)
    n = game.players
    for flags in ((True, False), (False, True), (True, True)):
        hist = _history(rng, game, 400)
        for k in range(len(hist) + 1):  # growing one entry at a time, as after every action
            assert _short_draws(hist[:k], n, *flags) == _backward(hist[:k], n, *flags), k
        for _ in range(60):  # jumps back and forth (another match, a replay), and entries changed in place
            k = rng.randrange(len(hist) + 1)
            h = list(hist[:k])
            if h and rng.random() < 0.5:
                h[rng.randrange(len(h))] = (rng.randrange(n), rng.choice(list(game.actions.values())))
            assert _short_draws(h, n, *flags) == _backward(h, n, *flags)
