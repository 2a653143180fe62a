"""The turn and its draws: the deal, the draw, whose turn it is, and the hand's end.

Decides: how a hand is dealt (``_deal``, WM §3) and the next one (``next_hand``: the
deal passes left), what the draw takes (``_draw``, WM §5), who plays next
(``_start_turn``, ``_end_turn``, ``_next_with_cards``: a player with no cards once the
draw pile is out is passed; queued coup fourré turns, ``_queued``, are served first and play then
goes on from ``_resume``'s left; ``turn_player``), and when the hand is over
(``_end_hand``: the sheet, the match totals, the match's result, the hands cap).

Reads: the Game's ``deck``, ``hand_size``, ``players``, ``deal_passes_left``,
``max_hands``; the position's hands and draw pile; the scoring room's ``score_sheet``,
``current_completer`` and ``_match_winner``.

May change: the draw pile, hands, ``_last_draw``, ``_player``, ``_phase``, the queued coup fourré
turns (``_queued``, ``_resume``: served and emptied), the deal's
order (``_first_player``, ``_hand_no``) and, at a hand's end, ``_hand_sheets``,
``_completers``, ``_match_totals``, ``_winner``. Checks nothing (legality does).

Where the draw pile is read: ``_draw`` here takes its top card; the coup fourré's replacement
draw (reactions' ``_coup_fourre``) and the fast play's (reactions' ``_fast_play``) take one too;
effects' ``_play`` asks whether it is empty for a safety's extra turn
(``play.safety_extra_turn_needs_draw_pile``); ``_start_turn``, ``_end_turn`` and
``_next_with_cards`` ask whether it is empty (then a turn has no draw, and a player with no
cards is passed), and reactions' ``_trip_reached`` reads it for Delayed Action. A rule about
the pile running out (a reshuffle) or about what a draw takes belongs in this room and must
cover every one of those places.
"""

from __future__ import annotations

from ..vocab import Reason, Termination
from .actions import IllegalAction
from .phases import P_COUP, P_DRAW, P_EXT, P_FAST, P_HAND_OVER, P_MATCH_OVER, P_PLAY
from .fields import StateFields


class TurnFlow(StateFields):
    """The turn room of :class:`~mbrules.engine.state.State` (a mixin: no slots of its own)."""

    __slots__ = ()

    def _deal(self) -> None:
        """Shuffle with the match's RNG and deal one card at a time from the first player (WM §3)."""
        g = self.game
        self._reset_hand()
        deck = list(g.deck)
        self._rng.shuffle(deck)
        N = g.players
        for _ in range(g.hand_size):
            for k in range(N):
                self._hands[(self._first_player + k) % N].append(deck.pop())
        self._stock = deck
        for s in range(g.sides):
            self._refresh(s)
        self._start_turn(self._first_player)
        for o in self._observers:
            # a room is always part of a State, which a room may not import (tests/test_engine_rooms.py)
            o.hand_start(self)  # type: ignore[arg-type]

    def next_hand(self) -> None:
        """Deal the next hand of the match; the deal passes to the left (rulings: The match)."""
        if self._phase != P_HAND_OVER:
            raise IllegalAction(Reason.NOT_YOUR_TURN, "the next hand is dealt only when this hand is over and the match is not")
        self._hand_no += 1
        if self.game.deal_passes_left:
            self._first_player = (self._first_player + 1) % self.game.players
        self._history.append((-1, -1))
        self._deal()

    def _draw(self, p: int) -> None:
        """The start of a turn: ``p`` takes the top card of the draw pile (WM §5)."""
        self._history.append((p, self.game.draw_action))
        c = self._stock.pop()
        self._hands[p].append(c)
        self._last_draw = c
        self._phase = P_PLAY

    def turn_player(self) -> int:
        """Who plays the next turn (for a coup fourré or fast-play window: the attacker's left, or the first
        queued coup fourré turn, if it is declined)."""
        if self._phase in (P_DRAW, P_PLAY, P_EXT):
            return self._player
        if self._phase == P_COUP or self._phase == P_FAST:
            if self._queued:
                return self._next_with_cards(self._queued[0])
            return self._next_with_cards((self._cf_attacker + 1) % self.game.players)
        return -1

    def _next_with_cards(self, p: int) -> int:
        N = self.game.players
        if self._stock:
            return p
        for _ in range(N):
            if self._hands[p]:
                return p
            p = (p + 1) % N
        return -1

    def _start_turn(self, p: int) -> None:
        """Give ``p`` a turn; a player with no cards once the draw pile is out is passed."""
        q = self._next_with_cards(p)
        if q < 0:
            self._end_hand()  # every hand empty after the draw pile ran out
            return
        self._player = q
        self._phase = P_DRAW if self._stock else P_PLAY

    def _end_turn(self, p: int) -> None:
        if self._resume >= 0:  # queued coup fourré turns come first (option queued-coup-fourre-turn)
            if self._queued:
                self._start_turn(self._queued.pop(0))
                return
            p = self._resume  # then play goes on from the attacker's left: nobody loses a turn
            self._resume = -1
        q = p + 1
        if q == self.game.players:
            q = 0
        if self._stock:  # the common case of _start_turn: the next player draws
            self._player = q
            self._phase = P_DRAW
            return
        self._start_turn(q)

    def _end_hand(self) -> None:
        sheet = self.score_sheet()
        self._hand_sheets.append(sheet)
        self._completers.append(self.current_completer())
        for s in range(self.game.sides):
            self._match_totals[s] += sheet[s]["total"]
        self._winner = self._match_winner()
        if self._winner is None and len(self._hand_sheets) >= self.game.max_hands:
            self._winner = Termination.UNFINISHED  # the ruleset's hands-per-match cap: a runaway match ends, unfinished
        self._phase = P_MATCH_OVER if self._winner is not None else P_HAND_OVER
        self._cf_queue = []
        self._queued = []
        self._resume = -1
