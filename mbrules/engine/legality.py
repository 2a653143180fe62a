"""Legality: whether an action may be taken now, and if not, its reason code and sentence.

Decides: every refusal, in the contract's precedence (hand-over, extension-pending,
not-your-turn, no-coup-fourre / no-fast-play, no-extension, not-in-hand, bad-target, the card's own
checks, must-play), one ``_verify_*`` check per operation (PokerKit's ``verify_X``):
``_verify_draw``, ``_verify_play`` (its card checks in ``_play_reason``),
``_verify_discard``, ``_verify_coup_fourre``, ``_verify_fast_play`` (option fast-play-remedy: a
remedy out of turn, inside its window), ``_verify_decline``, ``_verify_answer``,
dispatched by ``_verify``; ``legal_actions()`` lists what those same checks accept, so
the two cannot disagree; ``_sentence`` words a refusal for people.

Reads: the position (hands, piles, the derived side state ``_rolling``, ``_bhaz``,
``_lhaz``, ``_limit``, ``_prot``, miles, target, phase, the open window) and the
:class:`~mbrules.engine.game.Game`'s legality tables (``card_spec``, ``kind``,
``hazard_sides``, ``protects_mask``, ``hazard_on_hazard``, ``hazard_needs_rolling``,
``speed_limit_stacking``, ``voluntary_discard``, ``fixers``, ``fixes_mask``; issue 35:
``go_with_rolling_safety``, ``undiscardable``, ``discard_playable``, ``discard_free``, ``stacked_hazards``
with ``_bmask``, ``overshoot``, ``moves``; the turn's ``draw_from_discard``, ``discard_draw_must_play``,
``mulligan``). The codes these options add (``rolling-safety``,
``same-hazard``, ``other-hazard``, ``not-discardable``, ``playable-card``) take their places among the
card's own checks; ``draw-pile-out`` (a turn with no draw at all), ``no-discard-draw`` then
``discard-draw-must-play`` judge a draw from the discard pile after not-your-turn, and ``discard-draw-must-play`` a discard after the card's own checks, before
must-play (docs/api.md).

May change: nothing in the position. Its only writes are its own memo of
``_play_reason``'s answers (``_can``, ``_hit``), which the effects room empties
whenever something those answers read changes, and ``legal_actions``' marks of the cards
it met in its last call (``_met``, ``_met_no``: derived, never read by another room).

A new legality rule: a field in the model, its table in ``Game``, a branch here
reading that table (with the ruling it plays), never the edition's name.
"""

from __future__ import annotations

from typing import Any, Final, cast

from ..vocab import BATTLE, DISTANCE, HAZARD, KARMA, REMEDY, SAFETY, SPEED
from ..vocab import COUP_FOURRE, DECLINE, DISCARD, DRAW, EXTEND, FAST_PLAY, MULLIGAN, OWN, PLAY, STOP
from ..vocab import Reason
from .actions import IllegalAction
from .notation import Action, ActionLike, parse
from .phases import P_COUP, P_DRAW, P_EXT, P_FAST, P_HAND_OVER, P_MULL, P_PLAY
from .fields import UNJUDGED, StateFields, trait

# The contract's reason codes, by mbrules.vocab.Reason's own names, bound once here: an enum member's
# lookup (Reason.SPEED_LIMIT) costs about 0.2 µs on Python 3.11, and legal_actions() asks for a reason
# of nearly every card it weighs; each a Final, which a compiled module holds in a static of its own (a
# name bound by tuple unpacking was a lookup in the module's dict at every use)
ALREADY_LIMITED: Final = Reason.ALREADY_LIMITED
BAD_TARGET: Final = Reason.BAD_TARGET
CANNOT_MOVE: Final = Reason.CANNOT_MOVE
EXTENSION_PENDING: Final = Reason.EXTENSION_PENDING
HAND_OVER: Final = Reason.HAND_OVER
MUST_PLAY: Final = Reason.MUST_PLAY
NO_COUP_FOURRE: Final = Reason.NO_COUP_FOURRE
NO_EXTENSION: Final = Reason.NO_EXTENSION
NO_FAST_PLAY: Final = Reason.NO_FAST_PLAY
NOT_IN_HAND: Final = Reason.NOT_IN_HAND
NOT_ROLLING: Final = Reason.NOT_ROLLING
NOT_YOUR_TURN: Final = Reason.NOT_YOUR_TURN
NOTHING_TO_FIX: Final = Reason.NOTHING_TO_FIX
OVER_TARGET: Final = Reason.OVER_TARGET
PROTECTED: Final = Reason.PROTECTED
SPEED_LIMIT: Final = Reason.SPEED_LIMIT
TOO_MANY_200: Final = Reason.TOO_MANY_200
NOT_DISCARDABLE: Final = Reason.NOT_DISCARDABLE
OTHER_HAZARD: Final = Reason.OTHER_HAZARD
PLAYABLE_CARD: Final = Reason.PLAYABLE_CARD
ROLLING_SAFETY: Final = Reason.ROLLING_SAFETY
SAME_HAZARD: Final = Reason.SAME_HAZARD
NO_DISCARD_DRAW: Final = Reason.NO_DISCARD_DRAW
NO_MULLIGAN: Final = Reason.NO_MULLIGAN
DISCARD_DRAW_MUST_PLAY: Final = Reason.DISCARD_DRAW_MUST_PLAY
DRAW_PILE_OUT: Final = Reason.DRAW_PILE_OUT
SHUNNED: Final = Reason.SHUNNED
HAS_KARMA: Final = Reason.HAS_KARMA


@trait
class Legality(StateFields):
    """The legality room of :class:`~mbrules.engine.state.State` (a mixin: no slots of its own)."""

    __slots__ = ()

    def _play_reason(self, ps: int, c: int, ts: int) -> str | None:
        """Why side ``ps`` may not play card ``c`` on side ``ts`` now (None: it may)."""
        k, m, most, bit, pile, fixes, go = self.game.card_spec[c]
        if k == DISTANCE:
            if ts != ps:
                return BAD_TARGET
            if not self._rolling[ps]:
                return CANNOT_MOVE  # no Roll showing and no Right of Way, or a hazard showing (WM §6C)
            if m > self._limit[ps]:
                return SPEED_LIMIT  # only 25 or 50 under a Speed Limit (WM §6A)
            if self._played[ps][c] >= most:
                return TOO_MANY_200  # no more than two 200s (WM §6C)
            if self._miles[ps] + m > self._target and not self.game.overshoot:
                return OVER_TARGET  # never past the trip's length (WM §6C); option overshoot: may pass it
            return None
        if k == HAZARD:
            if ts not in self.game.hazard_sides[ps]:
                return BAD_TARGET  # on an opponent's pile (WM §4); player_counts.*.hazards_on own_side: one's own
            if self._prot[ts] & bit:
                return PROTECTED  # a safety protects the side (WM §6B)
            if self._karma[ts] and not self._karma[ps]:  # ruleset 'karma' (all False without it): PlayAural
                return SHUNNED  # game.py _can_play_hazard_on_team 'if not attacker.has_karma and target.has_karma'
            if pile == BATTLE:
                if self._bhaz[ts] >= 0:
                    if self.game.stacked_hazards:  # option stacked-hazards: any other hazard may join the stack
                        return SAME_HAZARD if self._bmask[ts] & bit else None
                    return None if self.game.hazard_on_hazard else NOT_ROLLING  # no hazard on a hazard (WM §2)
                if not self._rolling[ts] and self.game.hazard_needs_rolling:
                    return NOT_ROLLING  # only on a Roll, or with Right of Way (WM §2, §6B)
                return None
            if self._lhaz[ts] >= 0 and not self.game.speed_limit_stacking:
                return ALREADY_LIMITED  # rulings: no speed limit on a limited side
            return None
        if ts != ps:
            return BAD_TARGET  # remedies and safeties go on one's own piles (WM §4)
        if k == REMEDY:
            if go and self._row[ps] and not self.game.go_with_rolling_safety:
                return ROLLING_SAFETY  # option no-roll-under-right-of-way: no go card under a rolling safety
            if pile != SPEED:  # the battle pile, or both piles (a combination remedy): battle first
                h = self._bhaz[ps]
                if h >= 0:
                    if fixes >> h & 1:
                        if go and self.game.stacked_hazards and self._bmask[ps] & ~fixes:
                            return OTHER_HAZARD  # option stacked-hazards: the Roll comes last
                        return None
                    if self.game.stacked_hazards and fixes & self._bmask[ps]:  # any hazard in force it fixes
                        return OTHER_HAZARD if go and self._bmask[ps] & ~fixes else None
                    if pile == BATTLE:
                        return NOTHING_TO_FIX
                elif pile == BATTLE:
                    if not go:
                        return NOTHING_TO_FIX  # a remedy only on its own hazard showing (WM §2)
                    b = self._battle[ps]
                    if b and self.game.moves[b[-1]] and not (self._needs_go[ps] and not self._row[ps]):
                        # no Roll on a Roll (rulings: Play), nor on a restarting remedy, unless a safety played
                        # normally asks for one (option roll-after-safety) and no Right of Way spares it
                        return NOTHING_TO_FIX
                    return None
            h = self._lhaz[ps]
            return None if (h >= 0 and fixes >> h & 1) else NOTHING_TO_FIX
        if k == KARMA:  # ruleset 'karma': PlayAural game.py _can_play_card 'return not race_state.has_karma'
            return HAS_KARMA if self._karma[ps] else None
        return None  # a safety may always be played (WM §5B)

    def _target_side(self, p: int, a: Action) -> int:
        """The side a play lands on: the one named, else one's own (a hazard: the only opposing side, or -1)."""
        ts = a.side_index
        if ts != OWN:
            return ts
        g = self.game
        ps = g.side_of[p]
        if g.kind[a.card_index] == HAZARD:
            opp = g.hazard_sides[ps]
            return opp[0] if len(opp) == 1 else -1
        return ps

    def _verify_draw(self) -> str | None:
        """The draw starts a turn, once (WM §5)."""
        return None if self._phase == P_DRAW else NOT_YOUR_TURN

    def _verify_draw_discard(self) -> str | None:
        """turn.draw_from_discard: the discard pile's top instead of the draw, when there is one to take;
        with turn.discard_draw_must_play, only by a turn that puts a card on a tableau.

        Why turn.discard_draw_must_play bounds a hand (issue 35: without it, A takes X and discards Y, B
        takes Y and discards Z, A takes Z and discards X, ... while the draw pile never moves). Draw then
        play: the top may be taken only when the taker, holding it, could play a card (the top is public
        and nothing changes between the draw and the play, so this is decided here), and
        :meth:`_verify_discard` refuses that turn's discard; play then draw: only after this turn played a
        card (:meth:`_turn_played`). So every turn either draws from the draw pile, or plays a card onto a
        tableau, or (draw pile out, no reshuffle left) draws nothing and leaves the hands a card smaller.
        A potential that every turn raises and that is bounded: draws from the draw pile, at most its
        size at the deal plus the deck for each of the ``turn.reshuffles`` reshuffles; cards played, at
        most the deck (distance, remedies and safeties stay on the tableau for good) plus the hazards a
        safety sweeps back to the discard pile (at most the hazards, once per safety); and cards leaving
        the hands with no draw, at most the cards dealt and drawn. ``tests/test_discard_draw_bound.py``
        plays adversarial seats against that figure."""
        g = self.game
        if self._phase != P_DRAW:
            # the top is taken in place of the turn's draw: a turn with none at all says so (issue 42 item 12)
            return DRAW_PILE_OUT if g.draw_from_discard and self._turn_without_draw() else NOT_YOUR_TURN
        if not g.draw_from_discard or not self._discard:
            return NO_DISCARD_DRAW
        if g.discard_draw_must_play:
            p = self._player
            if g.play_then_draw:
                if not self._turn_played(p):
                    return DISCARD_DRAW_MUST_PLAY
            elif not self._can_play(p, self._discard[-1]):
                return DISCARD_DRAW_MUST_PLAY
        return None

    def _turn_without_draw(self) -> bool:
        """At the play of a turn: the turn has no draw at all, since nothing can be drawn (the draw pile out and
        no reshuffle left: winning-moves.txt §6C) and its player did not take the last card itself (draw then
        play: that draw is the player's last act); not a turn whose draw is done, nor one that draws after its
        play (play then draw, while a card is left)."""
        if self._phase != P_PLAY or self._can_draw():
            return False
        if self.game.play_then_draw:
            return True  # its draw would come after the play, and there is none to come
        h = self._history
        return not (h and h[-1][0] == self._player and cast(Action, h[-1][1]).op == DRAW)

    def _turn_played(self, p: int) -> bool:
        """Play then draw: whether ``p``'s turn, now at its draw, played a card (not a discard, and not an
        empty hand's turn, which is only its draw). The history back to this turn's play: windows and
        extension answers after it are passed over; a position set up with no history (a search's world)
        is given the benefit of the doubt."""
        h = self._history
        for i in range(len(h) - 1, -1, -1):
            q, a = h[i]
            if q < 0:
                return False  # the hand's start
            op = cast(Action, a).op  # the history holds Actions (ints to the checker)
            if op == PLAY:
                return q == p
            if op == DISCARD or op == DRAW or op == MULLIGAN:
                return False
        return True

    def _took_discard_top(self, p: int) -> bool:
        """Draw then play: whether ``p``'s turn, now at its play, took the discard pile's top (its last act)."""
        h = self._history
        return bool(h) and h[-1][0] == p and h[-1][1] == self.game.draw_discard_action

    def _verify_mulligan(self, p: int, c: int) -> str | None:
        """turn.mulligan: instead of the turn's draw (or in a mulligan under way), throw a card ``p`` holds."""
        if not self.game.mulligan or (self._phase != P_DRAW and self._phase != P_MULL):
            return NO_MULLIGAN
        if c not in self._hands[p]:
            return NOT_IN_HAND
        return None

    def _verify_play(self, p: int, c: int, ts: int) -> str | None:
        """``p``, whose turn it is and who has drawn, plays card ``c`` on side ``ts``. A card on one's own side
        but a hazard is answered from legal_actions' memo (judged there, as a rule, before the play is chosen:
        a call fewer at most plays)."""
        if c not in self._hands[p]:
            return NOT_IN_HAND
        g = self.game
        ps = g.side_of[p]
        if ts == ps and g.kind[c] != HAZARD:
            memo = self._can[ps]
            why = memo[c]
            if why is UNJUDGED:
                why = memo[c] = self._play_reason(ps, c, ps)
            return why
        return self._play_reason(ps, c, ts)

    def _discard_allowed(self, can_play: bool) -> bool:
        """Option no-voluntary-discard: a discard only when no card can be played (rulings: Play)."""
        return self.game.voluntary_discard or not can_play

    def _can_play(self, p: int, extra: int = -1) -> bool:
        """Whether ``p`` could play a card of the hand now (``extra``: as if also holding that card)."""
        g = self.game
        ps = g.side_of[p]
        cards = set(self._hands[p])
        if extra >= 0:
            cards.add(extra)
        for c in cards:
            targets = g.hazard_sides[ps] if g.kind[c] == HAZARD else (ps,)
            if any(self._play_reason(ps, c, ts) is None for ts in targets):
                return True
        return False

    def _verify_discard(self, p: int, c: int) -> str | None:
        """``p``, whose turn it is and who has drawn, discards card ``c``.

        The card's own checks first (a kind never discarded, a card that could be played), then
        must-play (contract: last). A player who could neither play nor discard any card may discard
        anything (docs/conformance.md, rulings of the options): a position never leaves its player
        without a move."""
        if c not in self._hands[p]:
            return NOT_IN_HAND
        if self.game.discard_free:
            return None
        return self._discard_reason(p, c, None)

    def _discard_reason(self, p: int, c: int, can_play: bool | None) -> str | None:
        """:meth:`_verify_discard`'s checks of card ``c``, which ``p`` holds, past the hand test, in their
        order. ``can_play``: whether ``p`` could play a card now, when the caller knows it
        (``legal_actions()`` has just judged every card), else None: worked out here, only where a check
        reads it (the hand's card checks once, not once per discard candidate)."""
        g = self.game
        if g.undiscardable[c]:
            if can_play is None:
                can_play = self._can_play(p)
            if can_play or not all(g.undiscardable[x] for x in self._hands[p]):
                return NOT_DISCARDABLE  # option safeties-not-discardable (BSD mille move.c)
        if not g.discard_playable and self._card_playable(p, c):
            return PLAYABLE_CARD  # option playable-not-discardable (PlayPalace always_allow_discarding off)
        if g.discard_draw_must_play and not g.play_then_draw and self._took_discard_top(p):
            return DISCARD_DRAW_MUST_PLAY  # the turn took the discard top: it plays (it can: checked at the draw)
        if g.voluntary_discard:
            return None
        if can_play is None:
            can_play = self._can_play(p)
        return None if self._discard_allowed(can_play) else MUST_PLAY

    def _card_playable(self, p: int, c: int) -> bool:
        """Whether ``p`` could play card ``c`` now on some side."""
        g = self.game
        ps = g.side_of[p]
        targets = g.hazard_sides[ps] if g.kind[c] == HAZARD else (ps,)
        return any(self._play_reason(ps, c, ts) is None for ts in targets)

    def _verify_coup_fourre(self, q: int, c: int) -> str | None:
        """``q`` calls a coup fourré with safety ``c``: only inside its window, against the hazard that opened it."""
        g = self.game
        if self._phase != P_COUP or q not in self._cf_queue:
            return NO_COUP_FOURRE
        if g.kind[c] != SAFETY or not g.protects_mask[c] & g.bit[self._cf_hazard]:
            return NO_COUP_FOURRE
        if c not in self._hands[q]:
            return NOT_IN_HAND
        return None

    def _verify_fast_play(self, q: int, c: int) -> str | None:
        """``q`` answers the window's hazard with remedy ``c`` out of turn (option fast-play-remedy): only
        inside its window, with a remedy that fixes that hazard and that the side could play now."""
        g = self.game
        if self._phase != P_FAST or q not in self._cf_queue:
            return NO_FAST_PLAY
        if g.kind[c] != REMEDY or not g.fixes_mask[c] >> self._cf_hazard & 1:
            return NO_FAST_PLAY
        if c not in self._hands[q]:
            return NOT_IN_HAND
        qs = g.side_of[q]
        return self._play_reason(qs, c, qs)

    def _verify_decline(self, q: int | None) -> str | None:
        """Only the player whose window (coup fourré or fast play) it is lets it pass."""
        if self._phase != P_COUP and self._phase != P_FAST:
            return NO_COUP_FOURRE
        return None if q is None or q == self._player else NOT_YOUR_TURN

    def _verify_answer(self, q: int | None) -> str | None:
        """Only the player who reached the target answers the extension question (WM §10C)."""
        if self._phase != P_EXT:
            return NO_EXTENSION
        return None if q is None or q == self._player else NOT_YOUR_TURN

    def _verify(self, a: Action, q: int | None) -> str | None:
        """Why player ``q`` (None: whoever decides now) may not take action ``a``; None when it may.

        The codes come in the contract's order: hand-over, extension-pending, not-your-turn,
        no-coup-fourre, no-extension, not-in-hand, bad-target, the card's own checks, must-play.
        An extension answer or a coup fourré is judged by its question or window first: one
        that is not open answers no-extension or no-coup-fourre, whoever sends it (the
        conformance scenarios s10c and s07 pin this reading).
        """
        ph = self._phase
        op = a.op
        p = self._player
        if ph >= P_HAND_OVER:
            return HAND_OVER
        if ph == P_EXT and op != EXTEND and op != STOP:
            return EXTENSION_PENDING
        if op == EXTEND or op == STOP:
            return self._verify_answer(q)
        if op == COUP_FOURRE:
            return self._verify_coup_fourre(self._player if q is None else q, a.card_index)
        if op == FAST_PLAY:  # judged by its window first, as a coup fourré is
            return self._verify_fast_play(self._player if q is None else q, a.card_index)
        if op == DECLINE:
            return self._verify_decline(q)
        if ph == P_COUP or ph == P_FAST or (q is not None and q != p):
            return NOT_YOUR_TURN
        if op == DRAW:
            if a.from_discard:
                return self._verify_draw_discard()
            return None if ph == P_DRAW or ph == P_MULL else NOT_YOUR_TURN  # a mulligan ends with its draw
        if op == MULLIGAN:
            return self._verify_mulligan(p, a.card_index)
        if ph == P_DRAW or ph == P_MULL:
            return NOT_YOUR_TURN  # a turn's draw comes first (play then draw: after the play)
        if op == DISCARD:
            return self._verify_discard(p, a.card_index)
        return self._verify_play(p, a.card_index, self._target_side(p, a))

    def refusal(self, action: ActionLike, player: int | None = None) -> str | None:
        """The reason code :meth:`apply` would refuse ``action`` from ``player`` with (None: whoever decides
        now), or None when it would accept it: :meth:`verify`'s check without building its sentence or
        raising (a checker asking about every action of the game at each decision). An int that is no
        action of the game, or no player of it, answers ``not-your-turn`` as verify's refusal does; text
        that is not an action raises :class:`NotationError`. :meth:`verify` is built on it, so a subclass
        that overrides it changes both (and :meth:`can_apply`, built on verify)."""
        if type(action) is Action and player is None:
            return self._verify(action, None)  # the commonest ask: whoever decides
        a = self._find_action(action)
        if a is None or self._no_player(player):
            return NOT_YOUR_TURN
        return self._verify(a, player)

    def verify(self, action: ActionLike, player: int | None = None) -> None:
        """Raise :class:`IllegalAction` (:meth:`refusal`'s reason code and a sentence) unless ``player`` may
        take ``action`` now."""
        why = self.refusal(action, player)
        if why is not None:
            a = self._as_action(action)  # no action of the game, no such player: their own sentences
            raise IllegalAction(why, self._sentence(why, a, self._check_player(player)))

    def can_apply(self, action: ActionLike, player: int | None = None) -> bool:
        """Whether :meth:`apply` would accept ``action`` from ``player`` (None: whoever decides now): whether
        :meth:`verify` raises nothing (a subclass's own verify included)."""
        try:
            self.verify(action, player)
        except IllegalAction:
            return False
        return True

    def legal_actions(self) -> list[Action]:
        """The actions of whoever decides now, each once, in its shortest words (empty when nobody acts)."""
        ph = self._phase
        if ph == P_PLAY:
            g = self.game
            p = self._player
            ps = g.side_of[p]
            hazard_rows, own, da = g.turn_tables
            can = self._can[ps]  # _play_reason's answers, remembered until the side changes
            hit = self._hit
            foes = self._foes[ps]
            acts = []
            discards: list[Action] = []
            # each distinct card once, in hand order: a card met in this call has its mark set to this call's
            # number (a mask of the cards met made a new int at every card, its bits past the small ints'). The
            # mark is that number's one object, told by identity (a number's object stays alive while a mark holds
            # it, so no later call's is the same): typed Any, a compiled engine stores it as it is, where an int
            # would be boxed anew at every card
            met: list[Any] = self._met
            t = self._met_no + 1
            self._met_no = t
            mark: Any = t
            for c in self._hands[p]:
                if met[c] is mark:
                    continue
                met[c] = mark
                # _verify_play's card checks (every card here is in the hand)
                row = hazard_rows[c]
                if row:  # a hazard
                    # the sides ps may attack (Game.hazard_sides), less (ruleset 'karma') those it is shunned by. The
                    # memo of a side hit holds what its own piles say, whoever attacks: _play_reason's karma check
                    # passes for every side listed here
                    for ts in foes:
                        memo = hit[ts]
                        why = memo[c]
                        if why is UNJUDGED:
                            why = memo[c] = self._play_reason(ps, c, ts)  # a hazard's checks read only the side hit
                        if why is None:
                            acts.append(row[ts])
                else:
                    why = can[c]
                    if why is UNJUDGED:
                        why = can[c] = self._play_reason(ps, c, ps)
                    if why is None:
                        acts.append(own[c])
                discards.append(da[c])
            if g.discard_free:
                acts += discards
            elif g.voluntary_discard or self._discard_allowed(bool(acts)):
                can_play = bool(acts)  # the plays judged above: whether p could play a card
                for a in discards:  # a loop, not a comprehension: no closure cells made at every call
                    if self._discard_reason(p, a.card_index, can_play) is None:
                        acts.append(a)
            return acts
        return self._legal_off_play(ph)

    def _legal_off_play(self, ph: int) -> list[Action]:
        """:meth:`legal_actions` at any phase but a turn's play. A method of its own: in the pure engine, the
        closure cells of its comprehensions were made at every call of ``legal_actions``, the turn's play's
        included (five cells: 3% of a random-bot hand's instructions with the two calls ``step_next`` saves)."""
        if ph == P_DRAW:
            g = self.game
            if not g.draw_choices:
                return [g.draw_action]
            acts = [g.draw_action]
            if g.draw_from_discard and self._verify_draw_discard() is None:
                acts.append(g.draw_discard_action)
            if g.mulligan:
                ma = g.mulligan_action
                acts += [ma[c] for c in dict.fromkeys(self._hands[self._player])]
            return acts
        if ph == P_MULL:
            g = self.game
            ma = g.mulligan_action
            return [g.draw_action, *[ma[c] for c in dict.fromkeys(self._hands[self._player])]]
        if ph == P_COUP:
            g = self.game
            p = self._player
            acts = [g.coup_action[c] for c in g.protectors[self._cf_hazard] if self._verify_coup_fourre(p, c) is None]
            acts.append(g.decline_action)
            return acts
        if ph == P_EXT:
            return [self.game.extend_action, self.game.stop_action]
        if ph == P_FAST:
            g = self.game
            p = self._player
            acts = [g.fast_action[c] for c in g.fixers[self._cf_hazard] if self._verify_fast_play(p, c) is None]
            acts.append(g.decline_action)
            return acts
        return []

    def _find_action(self, action: ActionLike) -> Action | None:
        """The game's action ``action`` names; None for an int that is none (text that is no action raises
        :class:`NotationError`)."""
        if type(action) is Action:
            return action
        if isinstance(action, str):
            return parse(action, self.game)
        return self.game.actions.get(action) if isinstance(action, int) and not isinstance(action, bool) else None

    def _as_action(self, action: ActionLike) -> Action:
        a = self._find_action(action)
        if a is None:
            raise IllegalAction(NOT_YOUR_TURN, f"{action!r} is not an action of this game (see mbrules.Action)")
        return a

    def _no_player(self, player: int | None) -> bool:
        """``player`` names no seat of the game (None: whoever decides, always one)."""
        return player is not None and not 0 <= player < self.game.players

    def _check_player(self, player: int | None) -> int | None:
        if self._no_player(player):
            raise IllegalAction(NOT_YOUR_TURN, f"there is no player #{player} in a {self.game.players}-player game")
        return player

    def _sentence(self, code: str, a: Action, q: int | None) -> str:
        """The sentence for people that goes with a refusal's reason code."""
        g = self.game
        p = self._player if q is None else q
        who = g.player_names[p] if 0 <= p < g.players else "nobody"
        if code == NOT_YOUR_TURN:
            return self._not_your_turn(a, p, who)
        said = self._phase_sentence(code, a, p, who)
        if said is not None:
            return said
        return self._card_sentence(code, a, p, who)

    def _phase_sentence(self, code: str, a: Action, p: int, who: str) -> str | None:
        """A refusal about the hand's phase, a window, the draw or the mulligan (not about the card); None for
        another code."""
        g = self.game
        if code == HAND_OVER:
            return "the hand is over" if self._phase == P_HAND_OVER else "the match is over"
        if code == EXTENSION_PENDING:
            return f"{g.player_names[self._player]} must first answer the extension question (extend or stop)"
        if code == NO_EXTENSION:
            return "no extension question is open"
        if code == NO_FAST_PLAY:
            if self._phase == P_FAST and p in self._cf_queue:
                return f"{a.card} does not fix {g.card_ids[self._cf_hazard]}"
            return f"no fast play is open to {who} now"
        if code == NO_COUP_FOURRE:
            if self._phase == P_COUP and p in self._cf_queue:
                return f"{a.card} does not protect against {g.card_ids[self._cf_hazard]}"
            return f"no coup fourré is open to {who} now"
        if code == DRAW_PILE_OUT:
            return (
                f"the draw pile is out, so {who}'s turn has no draw: the discard pile's top is taken only in"
                " place of a draw from the draw pile"
            )
        if code == NO_DISCARD_DRAW:
            if not g.draw_from_discard:
                return "this ruleset does not let a player draw from the discard pile"
            return "the discard pile is empty"
        if code == DISCARD_DRAW_MUST_PLAY:
            if a.op == DISCARD:
                return f"{who} took the discard pile's top this turn and must play a card, not discard"
            if g.play_then_draw:
                return f"{who} may take the discard pile's top only after playing a card this turn (not a discard)"
            top = g.card_ids[self._discard[-1]] if self._discard else "?"
            return f"{who} could not play a card even holding {top}: the discard pile's top is taken only to play"
        if code == NO_MULLIGAN:
            if not g.mulligan:
                return "this ruleset has no mulligan"
            return f"{who} may take a mulligan only instead of the turn's draw"
        return None

    def _not_your_turn(self, a: Action, p: int, who: str) -> str:
        """Why player ``p`` may not act now: a window or question open for another, another's turn, or this turn's
        draw (taken already, not taken yet, none)."""
        g = self.game
        cur = g.player_names[self._player]
        if self._phase == P_COUP:
            return f"a coup fourré window is open for {cur}"
        if self._phase == P_FAST:
            return f"a fast-play window is open for {cur}"
        if self._phase == P_EXT:
            return f"the extension question is {cur}'s"
        if p != self._player:
            return f"it is {cur}'s turn, not {who}'s"
        if self._phase == P_MULL:
            return f"{who} is taking a mulligan: throw another card (mulligan CARD) or draw to end it"
        if a.op == DRAW:
            if self._turn_without_draw():
                return f"the draw pile is out, so {who}'s turn has no draw: play or discard a card"
            if self.game.play_then_draw and self._phase == P_PLAY:
                return f"{who} plays first this turn and draws after it (play then draw)"
            return f"{who} has already drawn this turn"
        if self.game.play_then_draw:
            return f"{who} has played this turn and must now draw"
        return f"{who} must draw before playing"

    def _card_sentence(self, code: str, a: Action, p: int, who: str) -> str:
        """A refusal about the card played or discarded (and the side it goes to)."""
        g = self.game
        c = a.card_index
        card = a.card
        if code == NOT_IN_HAND:
            return f"{who} does not hold {card}"
        if code == MUST_PLAY:
            return f"{who} holds a playable card and may not discard"
        ps = g.side_of[p]
        mine = g.side_names[ps]
        ts = self._target_side(p, a)
        side = a.side or (g.side_names[ts] if 0 <= ts < g.sides else "?")
        if code == CANNOT_MOVE:
            return f"side {mine} is not rolling: it needs a go card (or a rolling safety) and no hazard showing"
        if code == SPEED_LIMIT:
            return f"{card} is above the speed limit of {self._limit[ps]} in force on side {mine}"
        if code == OVER_TARGET:
            return f"{card} would take side {mine} from {self._miles[ps]} past the target of {self._target}"
        if code == TOO_MANY_200:
            return f"side {mine} has already played {self._played[ps][c]} of {card}, the most allowed in a hand"
        if code == PROTECTED:
            return f"side {side} is protected against {card} by a safety"
        if code == NOT_ROLLING:
            return f"{card} needs side {side} rolling (a go card on top, or a rolling safety with no hazard showing)"
        if code == ALREADY_LIMITED:
            return f"side {side} already has a speed limit showing"
        if code == SHUNNED:
            return f"side {mine} has lost its karma: it may attack only a side that has lost its karma too"
        if code == HAS_KARMA:
            return f"side {mine} still has its karma: {card} gives back a karma lost"
        if code == BAD_TARGET:
            if g.kind[c] == HAZARD:
                if ts < 0:
                    return f"{card} needs a side: write 'play {card} on SIDE' ({', '.join(g.side_names)})"
                where = "their own side" if g.hazards_on_own_side else "an opponent's side"
                return f"{who} cannot play {card} on side {side}: hazards go on {where}"
            return f"{who} plays {card} on their own side {mine}, not on side {side}"
        if code == NOTHING_TO_FIX:
            return f"{card} has nothing to fix on side {mine}"
        if code == ROLLING_SAFETY:
            return f"side {mine} rolls on its safety: {card} may not be played while it is down"
        if code == OTHER_HAZARD:
            others = ", ".join(g.card_ids[h] for h in self.battle_hazards(ps) if not g.fixes_mask[c] >> h & 1)
            return f"{card} comes last: side {mine} must first fix {others}"
        if code == SAME_HAZARD:
            return f"side {side} already has {card} in force"
        if code == NOT_DISCARDABLE:
            return f"{card} may not be discarded ({g.ruleset.cards[g.card_ids[c]].kind} cards never are): play it"
        if code == PLAYABLE_CARD:
            return f"{card} could be played, so it may not be discarded: play it or discard a card that cannot"
        return code
