"""Reactions and their windows: the coup fourré window, the fast-play window and the extension question.

Decides: who may answer a hazard with a coup fourré and in which order
(``_open_coup_fourre``: from the attacker's left, the holders of a protecting safety,
WM §7; option coup-fourre-any-player), what a coup fourré does (``_coup_fourre``: the
hazard discarded, the replacement draw, the extra turn at once or queued after the turn in
progress, the window outliving the attacker's turn: coup_fourre.bonus_turn), whether a hazard no coup fourré answered opens a fast-play window
(``_after_hazard``, ``_open_fast_play``: option fast-play-remedy, the side hit's holders of a
remedy for it) and what a fast play does (``_fast_play``), what a pass does
(``_decline``), whether reaching the target opens the extension question
(``_trip_reached``, WM §10C) and what its answer does (``_answer_extension``).

Reads: the Game's ``coup_fourre_enabled``, ``coup_fourre_any_player``,
``coup_fourre_replacement_draw``, ``coup_fourre_extra_turn``, ``coup_fourre_bonus_turn_queued``,
``protectors``, ``fast_play_enabled``, ``fast_play_replacement_draw``, ``fixers``, ``extension_to``;
the position's hands and piles.

May change: the window (``_cf_queue``, ``_cf_hazard``, ``_cf_side``, ``_cf_attacker``; a fast-play
window uses the same fields), the queued turns (``_queued``, ``_resume``),
``_player``, ``_phase``, the caller's hand and coups, the target and the extension's
caller, the completion (``_completer``, ``_completion_delayed``); then hands the turn on
through the turn room. Checks nothing (legality's ``_verify_coup_fourre``, ``_verify_fast_play``,
``_verify_decline`` and ``_verify_answer`` do).
"""

from __future__ import annotations

from ..vocab import BATTLE
from .notation import Action
from .phases import P_COUP, P_EXT, P_FAST, P_HAND_OVER
from .turn import DREW
from .fields import UNJUDGED, StateFields, trait


@trait
class Reactions(StateFields):
    """The reactions room of :class:`~mbrules.engine.state.State` (a mixin: no slots of its own)."""

    __slots__ = ()

    def _open_coup_fourre(self, attacker: int, hazard: int, ts: int) -> None:
        """After a hazard lands: a window for the holders of a protecting safety, until the next draw (WM §7)."""
        g = self.game
        if g.coup_fourre_enabled:
            N = g.players
            queue = []
            prots = g.protectors[hazard]
            for k in range(1, N + 1):
                q = (attacker + k) % N
                if q == attacker:
                    continue
                if not g.coup_fourre_any_player and g.side_of[q] != ts:
                    continue
                hand = self._hands[q]
                for sc in prots:
                    if sc in hand:
                        queue.append(q)
                        break
            if queue:
                self._cf_queue = queue
                self._cf_hazard = hazard
                self._cf_side = ts
                self._cf_attacker = attacker
                self._player = queue[0]
                self._phase = P_COUP
                return
        self._after_hazard(attacker, hazard, ts)

    def _after_hazard(self, attacker: int, hazard: int, ts: int) -> None:
        """No coup fourré answered the hazard: a fast-play window, where the ruleset has one, else the next turn."""
        if self.game.fast_play_enabled and self._open_fast_play(attacker, hazard, ts):
            return
        self._end_turn(attacker)

    def _open_fast_play(self, attacker: int, hazard: int, ts: int) -> bool:
        """Option fast-play-remedy: a window for the players of the side hit (from the attacker's left) who hold
        a remedy fixing the hazard still showing, that the side could play now (2014 Dujardin/Asmodee rules,
        fast play; the window's order and who may answer are decided in the option). Whether it opened."""
        g = self.game
        if self._bhaz[ts] != hazard and self._lhaz[ts] != hazard:
            return False  # nothing left to answer
        N = g.players
        queue = []
        fixers = g.fixers[hazard]
        for k in range(1, N + 1):
            q = (attacker + k) % N
            if g.side_of[q] != ts or q == attacker:  # one never answers one's own hazard (rulings: solo)
                continue
            hand = self._hands[q]
            for c in fixers:
                if c in hand and self._play_reason(ts, c, ts) is None:
                    queue.append(q)
                    break
        if not queue:
            return False
        self._cf_queue = queue
        self._cf_hazard = hazard
        self._cf_side = ts
        self._cf_attacker = attacker
        self._player = queue[0]
        self._phase = P_FAST
        return True

    def _replacement_draw(self, q: int) -> None:
        """``q`` draws a card out of turn to refill its hand (after a coup fourré or a fast play), through the
        turn room's one draw (a reshuffle, passing over held cards, where the ruleset says so)."""
        d = self._take(q)
        self._hands[q].append(d)
        self._last_draw = d
        self._note |= DREW

    def _lay_out_of_turn(self, action: Action, q: int) -> int:
        """``q``'s card of a reaction (a coup fourré's safety, a fast play's remedy) leaves its hand face up, the
        action recorded; returns the card."""
        c = action.card_index
        self._history.append((q, action))
        self._hands[q].remove(c)
        self._face_up[c] += 1
        return c

    def _fast_play(self, action: Action, q: int) -> None:
        """``q`` plays remedy ``action.card`` out of turn (checked by :meth:`_verify_fast_play`); the turn then
        passes as if the hazard's turn had just ended."""
        g = self.game
        c = self._lay_out_of_turn(action, q)
        qs = g.side_of[q]
        # the remedy answers the window's hazard, on that hazard's pile: a combination remedy (fixing hazards of
        # both piles) too, which goes where the hazard it answers shows (rules2014 p.7: 'when an opponent places
        # a Hazard card on your Drive pile, you are allowed to IMMEDIATELY play a Remedy card'; rulings of fast play)
        self._lay_remedy(qs, c, g.pile[self._cf_hazard] == BATTLE)
        self._cf_queue = []
        if g.fast_play_replacement_draw and self._can_draw():
            self._replacement_draw(q)  # the fast player's hand is full again for its own turn
        self._end_turn(self._cf_attacker)

    def _coup_fourre(self, action: Action, q: int) -> None:
        """``q`` calls a coup fourré (checked by :meth:`_verify_coup_fourre`; WM §7)."""
        g = self.game
        c = self._lay_out_of_turn(action, q)
        qs = g.side_of[q]
        self._coups[qs].append(c)
        self._coup_count += 1
        if self._cf_side == qs:
            pile = (self._battle if g.pile[self._cf_hazard] == BATTLE else self._speed)[qs]
            if pile and pile[-1] == self._cf_hazard:
                self._discard.append(pile.pop())  # the hazard goes to the discard pile (WM §7)
        self._protect(qs, c, normal=False)
        self._cf_queue = []
        if g.coup_fourre_replacement_draw and self._can_draw():
            self._replacement_draw(q)  # 'draw one card to bring the number of cards held to six' (WM §7)
        if g.safety_distance and self._safety_miles(qs):
            self._trip_reached(q, qs)  # option safety-distance: a coup fourré's miles completed the trip
        elif g.coup_fourre_extra_turn and g.coup_fourre_bonus_turn_queued:
            # option queued-coup-fourre-turn (PlayAural game.py _action_dirty_trick): the window outlives the
            # attacker's turn, which the hazard ended, so the call comes in the turn now in progress (the
            # attacker's left, or a turn queued before). That turn stays with its player; a caller who is not
            # that player plays its bonus turn after it (_end_turn serves the queue), and play then goes on
            # from the caller's left; a caller whose turn it is only draws its replacement (nothing queued)
            owner = self._turn_owner()
            self._end_turn(self._cf_attacker)
            if q != owner and self._phase < P_HAND_OVER:
                self._queued.append(q)
                self._resume = q
        elif g.coup_fourre_extra_turn:
            if g.play_then_draw:
                self._draw_owed(self._cf_attacker)  # play then draw: the attacker's draw is taken at once
            self._start_turn(q)  # a full turn; players in between lose theirs (WM §7)
        else:
            self._end_turn(self._cf_attacker)

    def _decline(self) -> None:
        self._cf_queue.pop(0)
        if self._cf_queue:
            self._player = self._cf_queue[0]
        elif self._phase == P_COUP:
            self._after_hazard(self._cf_attacker, self._cf_hazard, self._cf_side)
        else:
            self._end_turn(self._cf_attacker)

    def _trip_reached(self, p: int, ps: int) -> None:
        g = self.game
        self._completer = ps
        self._completion_delayed = not self._can_draw()  # Delayed Action (WM §8): nothing left to draw
        if g.extension_to is not None and self._extension_called_by < 0 and self._target < g.extension_to:
            self._phase = P_EXT  # the extension question, once per hand (WM §10C)
            self._player = p
        else:
            self._end_hand()

    def _answer_extension(self, extend: bool) -> None:
        p = self._player
        if extend:
            self._extension_called_by = p
            to = self.game.extension_to
            assert to is not None  # the question is asked only where the rules give an extension
            self._target = to
            # every side's distance is judged against the new target
            self._can = [[UNJUDGED] * self.game.n_cards for _ in self._can]
            self._completer = -1  # 'played as though it had always been for a trip of 1000 miles'
            self._completion_delayed = False
            self._end_turn(p)
        else:
            self._end_hand()
