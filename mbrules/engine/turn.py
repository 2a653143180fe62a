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
order (``_first_player``, ``_hand_no``), legality's memo at a deal (``_can``, ``_hit``: the Game's
``deal_can``, ``deal_hit``) and, at a hand's end, ``_hand_sheets``,
``_completers``, ``_match_totals``, ``_winner``. Checks nothing (legality does).

The ruleset's ``turn`` section (issue 35) is played here, from the Game's tables
``plain_draws`` (none of the below: a draw takes the top card), ``max_reshuffles``,
``pass_over_held``, ``refill_empty_hand``, ``draw_from_discard``, ``mulligan`` and
``play_then_draw``: every draw from the draw pile goes through :meth:`_take` (a
reshuffle when the pile is empty and one is allowed, then passing over held cards);
:meth:`_can_draw` says whether any draw is possible (the hand's end, Delayed Action and
whether a turn starts with a draw all ask it). It also changes ``_discard`` (a reshuffle
empties it, a draw from it takes its top: each a new list, never shortened in place, so
a reader that counts the pile by appends sees the change), ``_face_up``, ``_reshuffles``,
``_note``, ``_drawn_more`` and ``_after_draw``.

Where the draw pile is read: ``_draw`` here takes its top card (through ``_take``); the coup
fourré's replacement draw (reactions' ``_coup_fourre``) and the fast play's (reactions' ``_fast_play``) take one too;
effects' ``_play`` asks whether it is empty for a safety's extra turn
(``play.safety_extra_turn_needs_draw_pile``); ``_start_turn``, ``_end_turn`` and
``_next_with_cards`` ask whether it is empty (then a turn has no draw, and a player with no
cards is passed), and reactions' ``_trip_reached`` reads it for Delayed Action. A rule about
the pile running out (a reshuffle) or about what a draw takes belongs in this room and must
cover every one of those places.
"""

from __future__ import annotations

import random

from ..vocab import Reason, Termination
from .actions import IllegalAction
from .notation import Action
from .phases import P_COUP, P_DRAW, P_EXT, P_FAST, P_HAND_OVER, P_MATCH_OVER, P_MULL, P_PLAY
from .fields import StateFields, trait
from .rng import native_bits

# State._note: what the current action's draws did (Transition.reshuffled, .from_discard)
RESHUFFLED = 1
FROM_DISCARD_PILE = 2
DREW = 4  # a card for the actor's own draw (the record's 'drawn'), on any path but the books' plain draw
MULLIGAN_ENDED = 8


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """``rng.shuffle(cards)`` written out: CPython's ``Random.shuffle`` and its ``_randbelow`` (by
    ``getrandbits``), the same swaps from the same draws, so a compiled engine (``make compiled``) runs it
    as one native loop (the library's is Python calling Python per card: 8% of a compiled random-bot
    hand). tests/test_engine_shuffle.py holds it to ``rng.shuffle`` on this Python.

    ``_randbelow(n)`` draws ``n.bit_length()`` bits: that length is kept as ``n`` falls (one less each time ``n``
    drops below a power of two), not asked of every ``n`` (a method call a card)."""
    bits = native_bits(rng)  # C getrandbits past rng.MatchRandom's override; its kept state copy dropped
    size = len(cards)
    if size < 2:
        return
    k = size.bit_length()
    low = 1 << (k - 1)  # the least number of k bits
    for n in range(size, 1, -1):  # a card of cards[:n] swaps with cards[n - 1]
        if n < low:
            k -= 1
            low >>= 1
        j = bits(k)
        while j >= n:
            j = bits(k)
        i = n - 1
        cards[i], cards[j] = cards[j], cards[i]


@trait
class TurnFlow(StateFields):
    """The turn room of :class:`~mbrules.engine.state.State` (a mixin: no slots of its own)."""

    __slots__ = ()

    def _deal(self) -> None:
        """Shuffle with the match's RNG and deal one card at a time from the first player (WM §3)."""
        g = self.game
        self._reset_hand()
        deck = list(g.deck)
        shuffle(self._rng, deck)
        if g.max_reshuffles or g.max_refill_reshuffles:
            self._hand_seed = self._rng.getrandbits(63)  # this hand's reshuffles (a recorded hand names it)
        N = g.players
        for _ in range(g.hand_size):
            for k in range(N):
                self._hands[(self._first_player + k) % N].append(deck.pop())
        self._stock = deck
        for s in range(g.sides):
            self._refresh(s)
        # legality's memo starts from its answers at every deal (Game.deal_can, deal_hit), not from none
        self._can = [list(row) for row in g.deal_can]
        self._hit = [list(row) for row in g.deal_hit]
        self._start_turn(self._first_player)
        for o in self._observers:
            # a room is always part of a State, which a room may not import (tests/test_engine_rooms.py)
            o.hand_start(self)  # type: ignore[arg-type]

    def next_hand(self) -> None:
        """Deal the next hand of the match; the deal passes to the left (rulings: The match)."""
        if self._phase != P_HAND_OVER:
            raise IllegalAction(
                Reason.NOT_YOUR_TURN, "the next hand is dealt only when this hand is over and the match is not"
            )
        self._hand_no += 1
        if self.game.deal_passes_left:
            self._first_player = (self._first_player + 1) % self.game.players
        self._history.append((-1, -1))
        self._deal()

    def _draw_plain(self, p: int) -> None:
        """The books' draw (Game.plain_draws: no turn rule is on): ``p`` takes the top card (WM §5).
        The hot loop's (State.step, apply's fast path); :meth:`_draw` is every draw."""
        self._history.append(self.game.draw_entries[p])  # (p, the draw), built once per seat
        c = self._stock.pop()
        self._hands[p].append(c)
        self._last_draw = c
        self._phase = P_PLAY

    def _draw(self, p: int) -> None:
        """The start of a turn: ``p`` takes the top card of the draw pile (WM §5), by the turn rules."""
        g = self.game
        if g.plain_draws:
            self._draw_plain(p)
            return
        self._history.append((p, g.draw_action))
        hand = self._hands[p]
        if g.refill_empty_hand and not hand:
            self._draw_up_to(p, g.hand_size, True)  # the Java game's custom rule: an empty hand first draws a full one
            if g.play_then_draw and hand:
                self._after_turn_draw(p)  # play then draw: the refill is this draw; the turn's play follows
                return
        if self._can_draw():
            c = self._take(p)
            hand.append(c)
            self._last_draw = c
            self._note |= DREW
        self._after_turn_draw(p)

    def _after_turn_draw(self, p: int) -> None:
        """``p``'s draw (or a mulligan's draw back) is done: draw then play goes on to the play; play then
        draw has played already, so the turn passes to whoever it was due to."""
        if self.game.play_then_draw:
            q = self._after_draw
            self._after_draw = -1
            self._start_turn(q)
        else:
            self._phase = P_PLAY

    def _can_draw(self) -> bool:
        """Whether a card can be drawn: the draw pile has one, or a reshuffle is allowed and would give one."""
        return bool(self._stock) or (self._reshuffles < self.game.max_reshuffles and bool(self._discard))

    def _can_refill(self, p: int) -> bool:
        """turn.refill_empty_hand: ``p`` holds nothing and a refill could draw (turn.refill_reshuffles)."""
        return (
            not self._hands[p]
            and self.game.refill_empty_hand
            and (bool(self._stock) or (self._reshuffles < self.game.max_refill_reshuffles and bool(self._discard)))
        )

    def _reshuffle(self) -> None:
        """The whole discard pile, shuffled with the match's RNG, becomes the draw pile (turn.reshuffles)."""
        pile = self._discard
        face_up = self._face_up
        for c in pile:
            face_up[c] -= 1  # back face down: its order is hidden again
        # the k-th reshuffle of a hand is shuffled from (hand seed, k): a recorded or set-up hand replays it
        shuffle(random.Random(self._hand_seed * 128 + self._reshuffles), pile)
        hook = self._reshuffle_hook
        if hook is not None:  # chance nodes choose the cards drawn from it (mbrules.openspiel): they reorder it
            hook(pile)
        self._stock = pile
        self._discard = []  # a new list: the discard pile is empty after a reshuffle
        self._reshuffles += 1
        self._note |= RESHUFFLED

    def _take(self, p: int) -> int:
        """One card from the draw pile for ``p`` (the caller checked :meth:`_can_draw`): a reshuffle first
        when the pile is empty; then, with turn.pass_over_held, the first card ``p`` does not hold among the
        top ``pass_over_held + 1`` (the ones passed over stay in order), else the top card."""
        stock = self._stock
        if not stock:
            self._reshuffle()
            stock = self._stock
        n = self.game.pass_over_held
        if n:
            hand = self._hands[p]
            top = len(stock) - 1
            for i in range(top, max(top - n, 0) - 1, -1):
                if stock[i] not in hand:
                    return stock.pop(i)
        return stock.pop()

    def _draw_up_to(self, p: int, size: int, refill: bool = False) -> None:
        """``p`` draws until holding ``size`` cards, as far as the draw pile and the reshuffles go (a refill's:
        turn.refill_reshuffles)."""
        hand = self._hands[p]
        limit = self.game.max_refill_reshuffles if refill else self.game.max_reshuffles
        while len(hand) < size and (self._stock or (self._reshuffles < limit and self._discard)):
            c = self._take(p)
            hand.append(c)
            self._drawn_more.append(c)

    def _draw_owed(self, p: int) -> None:
        """Play then draw, a coup fourré's extra turn: the attacker's draw is taken at once from the draw
        pile (no choice), before the caller's turn; it is the attacker's own, not the record's."""
        if self._can_draw():
            self._hands[p].append(self._take(p))
        self._after_draw = -1

    def _draw_from_discard(self, p: int) -> None:
        """turn.draw_from_discard: ``p`` takes the discard pile's top card instead of drawing (face up: public)."""
        g = self.game
        self._history.append((p, g.draw_discard_action))
        hand = self._hands[p]
        pile = self._discard
        c = pile[-1]
        self._discard = pile[:-1]  # a new list (see the module's contract)
        self._face_up[c] -= 1
        if g.refill_empty_hand and not hand:
            self._draw_up_to(p, g.hand_size, True)  # the refill comes first, but the top was chosen: taken before
        hand.append(c)
        self._last_draw = c
        self._note |= FROM_DISCARD_PILE | DREW
        self._after_turn_draw(p)

    def _mulligan(self, p: int, a: Action) -> None:
        """turn.mulligan: ``p`` throws one card face up on the discard pile, instead of the turn's draw;
        the mulligan stays open for more cards until ``draw`` ends it."""
        c = a.card_index
        self._history.append((p, a))
        self._hands[p].remove(c)
        self._discard.append(c)
        self._face_up[c] += 1
        self._phase = P_MULL

    def _end_mulligan(self, p: int) -> None:
        """``draw`` in a mulligan: ``p`` draws back to the hand size, and the turn is over."""
        g = self.game
        self._history.append((p, g.draw_action))
        self._draw_up_to(p, g.hand_size)
        self._note |= MULLIGAN_ENDED
        if self._drawn_more:
            self._last_draw = self._drawn_more.pop()  # the last card drawn is the record's 'drawn'
            self._note |= DREW
        if g.play_then_draw:
            self._after_turn_draw(p)
        else:
            self._pass_turn(p)

    def turn_player(self) -> int:
        """Who plays the next turn (for a coup fourré or fast-play window: the attacker's left, or the first
        queued coup fourré turn, if it is declined; play then draw: the attacker, whose draw comes next)."""
        if self._phase in (P_DRAW, P_PLAY, P_EXT, P_MULL):
            return self._player
        if self._phase == P_COUP or self._phase == P_FAST:
            if self.game.play_then_draw and self._can_draw():
                return self._cf_attacker  # play then draw: the attacker's draw comes next
            return self._turn_owner()
        return -1

    def _turn_owner(self) -> int:
        """While a window is open: whose turn comes once the attacker's is over (the first queued coup
        fourré turn, else the attacker's left), a player with no cards once the draw pile is out passed."""
        if self._queued:
            return self._next_with_cards(self._queued[0])
        return self._next_with_cards((self._cf_attacker + 1) % self.game.players)

    def _next_with_cards(self, p: int) -> int:
        N = self.game.players
        if self._stock or self._can_draw():
            return p
        for _ in range(N):
            if self._hands[p] or self._can_refill(p):
                return p
            p = (p + 1) % N
        return -1

    def _start_turn(self, p: int) -> None:
        """Give ``p`` a turn; a player with no cards once the draw pile is out is passed. With
        turn.draw_pile_out_ends_hand the hand ends instead once nothing can be drawn (the JAR game's README,
        coachme.fr: the game stops when no card is left to draw)."""
        g = self.game
        if g.plain_draws and not g.draw_pile_out_ends_hand:
            # the books' draws (no reshuffle, no refill, draw then play): a card can be drawn while the draw pile
            # holds one, and nothing refills a hand (the general path below, its _next_with_cards, _can_draw and
            # _can_refill read so, written out: the calls of a rule nobody plays here cost nothing)
            if self._stock:
                self._player = p
                self._phase = P_DRAW
                return
            # the draw pile out, as at the end of every hand: the next player holding a card plays, else the hand is
            # over
            hands = self._hands
            N = g.players
            for _ in range(N):
                if hands[p]:
                    self._player = p
                    self._phase = P_PLAY
                    return
                p = (p + 1) % N
            self._end_hand()
            return
        q = self._next_with_cards(p)
        if q < 0 or (
            self.game.draw_pile_out_ends_hand and not self._stock and not self._can_draw() and not self._can_refill(q)
        ):
            self._end_hand()  # every hand empty after the draw pile ran out
            return
        self._player = q
        if self.game.play_then_draw and self._hands[q]:
            self._phase = P_PLAY  # play then draw: the turn starts with the play
            self._after_draw = -1
        elif self._stock or self._can_draw() or self._can_refill(q):
            self._phase = P_DRAW
            if self.game.play_then_draw:  # an empty hand's turn is its draw; a refill's, then the play
                self._after_draw = q if self._can_refill(q) else (q + 1) % self.game.players
        else:
            self._phase = P_PLAY

    def _end_turn(self, p: int) -> None:
        """``p``'s play is done and the turn passes (play then draw: after ``p``'s draw)."""
        g = self.game
        if self._resume >= 0:  # queued coup fourré turns come first (option queued-coup-fourre-turn)
            if self._queued:
                q = self._queued.pop(0)
                if g.play_then_draw:
                    self._draw_next(p, q)
                else:
                    self._start_turn(q)
                return
            r = self._resume  # then play goes on from the last caller's left (PlayAural _end_turn)
            self._resume = -1
        else:
            r = p
        q = r + 1
        if q == g.players:
            q = 0
        if g.play_then_draw:
            self._draw_next(p, q)
            return
        if self._stock:  # the common case of _start_turn: the next player draws
            self._player = q
            self._phase = P_DRAW
            return
        self._start_turn(q)

    def _pass_turn(self, p: int) -> None:
        """The turn passes from ``p`` to the next player, whatever the turn's order (a mulligan's end)."""
        self._start_turn((p + 1) % self.game.players)

    def _turn_again(self, p: int) -> None:
        """``p`` takes another turn (a safety, WM §5B); play then draw: after the draw that ends this one."""
        if self.game.play_then_draw:
            self._draw_next(p, p)
        else:
            self._start_turn(p)

    def _play_again(self, p: int) -> None:
        """``p`` plays again at once, its draw already taken (play.safety_replacement_draw's extra turn)."""
        self._player = p
        self._phase = P_PLAY

    def _draw_next(self, p: int, then: int) -> None:
        """Play then draw: ``p`` has played; ``p`` draws next (a decision: the draw pile, or the discard
        pile's top, or a mulligan), then ``then`` plays. Once nothing can be drawn the turn passes at once."""
        if self._can_draw():
            self._player = p
            self._phase = P_DRAW
            self._after_draw = then
        else:
            self._start_turn(then)

    def _end_hand(self) -> None:
        sheet = self.score_sheet()
        self._hand_sheets.append(sheet)
        self._completers.append(self.current_completer())
        self._hand_reshuffles.append(self._reshuffles)
        for s in range(self.game.sides):
            self._match_totals[s] += sheet[s]["total"]
        self._winner = self._match_winner()
        if self._winner is None and len(self._hand_sheets) >= self.game.max_hands:
            self._winner = Termination.UNFINISHED  # the ruleset's hands-per-match cap: a runaway match ends, unfinished
        self._phase = P_MATCH_OVER if self._winner is not None else P_HAND_OVER
        self._cf_queue = []
        self._queued = []
        self._resume = -1
