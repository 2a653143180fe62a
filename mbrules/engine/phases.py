"""The phases of a hand: what the :class:`~mbrules.engine.state.State` waits for, as small ints.

Decides nothing; every room reads ``State._phase`` against these names, and the turn,
the reactions and the scoring rooms set it. ``PHASE_KIND[phase]`` is the contract's
decision kind for it (a turn before and after its draw are both a TURN).
"""

from __future__ import annotations

from typing import Final

from ..vocab import DecisionKind

# Every phase where someone acts comes before P_HAND_OVER (``phase < P_HAND_OVER``: the hand goes on).
# P_FAST: a fast-play window (option fast-play-remedy), the reactions room's.
# P_MULL: a mulligan under way (turn.mulligan), the turn room's.
# Each a literal Final: a compiled module holds it as a constant, not a lookup in its module's dict at every use.
P_DRAW: Final = 0
P_PLAY: Final = 1
P_COUP: Final = 2
P_EXT: Final = 3
P_FAST: Final = 4
P_MULL: Final = 5
P_HAND_OVER: Final = 6
P_MATCH_OVER: Final = 7
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
