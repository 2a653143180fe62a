"""What one accepted action did: the record :meth:`State.apply` returns and gives to observers.

PokerKit's model (``state.fold()`` returns a ``Folding``): the engine says what happened, so a
narrator, a recorder or a checker reads it instead of working it out again from the table. The
record is a frozen tuple built once per action; code that does not want it ignores the value.

``drawn`` names a card only its drawer may see (unless ``from_discard``: the discard pile's top is
public): a narration for the whole table leaves it out; so is ``drawn_more``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..vocab import DecisionKind

if TYPE_CHECKING:
    from .notation import Action


class Transition(NamedTuple):
    """One accepted action and its effects. Cards are indices into ``game.card_ids``; players and
    sides are ints (``game.player_names``, ``game.side_names``); -1 means none."""

    player: int  # who acted
    action: "Action"
    hand_no: int  # the hand it was played in, from 0
    drawn: int  # the card the actor took from the draw pile by it (a draw; a coup fourré's replacement), or -1
    side: int  # the side the card went to (a hazard: the side attacked; else the actor's), or -1 (no card)
    swept: tuple[int, ...]  # cards it sent to the discard pile besides a discarded card (hazards cancelled)
    window_hazard: int  # a coup fourré or fast play called, or a window let pass: the hazard of its window; else -1
    miles: int  # the acting side's distance after it
    target: int  # the trip's target after it (an extension raises it)
    trip_completed: bool  # it completed the trip (the extension question may follow)
    extra_turn: bool  # the rules give the actor another turn at once (a safety, a coup fourré)
    next_player: int  # who decides next, or -1 (the hand or the match is over)
    next_decision: DecisionKind  # what is asked of next_player (or hand_over, match_over)
    hand_over: bool  # it ended the hand
    match_over: bool  # it ended the match
    # the turn's draws (ruleset 'turn'; all False / empty under the books' rules):
    reshuffled: bool  # a draw of it found the draw pile empty and shuffled the discard pile into a new one
    from_discard: bool  # the actor took the discard pile's top card (``drawn``; public, as the card was face up)
    drawn_more: tuple[int, ...]  # cards it drew besides ``drawn`` (a refill, a mulligan's draw back): the actor's only
    queued_turn: bool = (
        False  # a coup fourré whose extra turn waits for the turn in progress (option queued-coup-fourre-turn)
    )
    # ruleset 'karma' (option karma; all empty / False without it):
    karma_lost: tuple[int, ...] = ()  # the sides that lost their karma by it (an attacker shunned; both, neutralised)
    neutralised: bool = False  # a hazard between two sides with karma: it went to the discard pile (in ``swept``)
    karma_regained: bool = False  # a karma card gave the actor's side its karma back


__all__ = ["Transition"]
