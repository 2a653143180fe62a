"""The observer hooks (``State.add_observer``), in a module of their own that is never compiled: tools
subclass :class:`Observer`, and a compiled module's class would accept only its exact type (docs/performance.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .notation import Action, ActionLike
    from .state import State
    from .transition import Transition


class Observer:
    """Hooks around a match (``State.add_observer``); override what you need, the rest do nothing.

    ``before_action`` sees the state before an accepted action, ``after_action`` after it, and
    ``transition`` what it did (the :class:`~mbrules.engine.transition.Transition` ``apply`` returns);
    ``refused`` an action ``apply`` turned down (the state unchanged);
    ``hand_start`` runs when a hand has been dealt, before its first action (an observer added
    to a hand not yet begun hears it then; one added later in a hand hears the next one's);
    ``hand_over`` runs when a hand ends (its sheet is the last of the match's), before the
    next deal; ``match_over`` once, at the end.
    """

    def hand_start(self, state: "State") -> None:
        """A hand is dealt and nobody has acted in it yet: ``state.current_player`` acts first."""

    def before_action(self, state: "State", player: int, action: "Action") -> None:
        pass

    def after_action(self, state: "State", player: int, action: "Action") -> None:
        pass

    def transition(self, state: "State", transition: "Transition") -> None:
        """What the action just accepted did: who acted, what was drawn and swept, who decides next."""

    def refused(self, state: "State", player: int, action: "ActionLike", error: Exception) -> None:
        """``apply`` refused ``action`` (as given: an Action, an int or text); the state is unchanged."""

    def hand_over(self, state: "State") -> None:
        pass

    def match_over(self, state: "State") -> None:
        pass
