"""The phases of a hand: what the :class:`~mbrules.engine.state.State` waits for, as small ints.

Decides nothing; every room reads ``State._phase`` against these names, and the turn,
the reactions and the scoring rooms set it. ``PHASE_KIND[phase]`` is the contract's
decision kind for it (a turn before and after its draw are both a TURN).
"""

from __future__ import annotations

from ..vocab import DecisionKind

# Every phase where someone acts comes before P_HAND_OVER (``phase < P_HAND_OVER``: the hand goes on).
# P_FAST: a fast-play window (option fast-play-remedy), the reactions room's.
# P_MULL: a mulligan under way (turn.mulligan), the turn room's.
P_DRAW, P_PLAY, P_COUP, P_EXT, P_FAST, P_MULL, P_HAND_OVER, P_MATCH_OVER = range(8)
PHASE_KIND = (
    DecisionKind.TURN,
    DecisionKind.TURN,
    DecisionKind.COUP_FOURRE,
    DecisionKind.EXTENSION,
    DecisionKind.FAST_PLAY,
    DecisionKind.MULLIGAN,
    DecisionKind.HAND_OVER,
    DecisionKind.MATCH_OVER,
)
