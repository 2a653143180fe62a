"""Mille Bornes as an OpenSpiel game, for any ruleset: ``import mbrules.openspiel`` registers it.

    import pyspiel
    import mbrules.openspiel  # registers python_mille_bornes
    game = pyspiel.load_game("python_mille_bornes", {"ruleset": "kids-115", "players": 2, "hands": 1})
    game = pyspiel.load_game("python_mille_bornes(ruleset=winning-moves,players=4,options=hazard-on-hazard)")

Parameters: ``ruleset`` (a bundled id or a YAML path), ``players``, ``options`` (option ids or
paths, separated by ``+`` or ``;``: OpenSpiel's game string already uses commas), ``hands`` (0,
the default: the whole match; ``hands=1``: one hand is one episode, the research setting, whose
``max_game_length()`` is one hand's), ``draws`` (``"chance"``, the default, or ``"player"``).

Chance, ``draws="chance"``: each hand opens with one chance node per card dealt (outcome ``c`` =
card index ``c``, probability = copies left / cards left), and every card drawn afterwards is a
chance outcome too, taken at the moment it is drawn (the draw that starts a turn, and a coup
fourré's or a fast play's replacement draw): the draw is never a player decision, and the odds of each card are
those of a uniform shuffle of the cards not yet seen by anyone. ``draws="player"`` keeps the
earlier form: the whole deck order drawn by chance nodes when the hand starts, and each draw a
player action (the only legal one then).

The ruleset's turn rules (issue 35): a draw that is a choice (the discard top, a mulligan) is a
player action; with ``draws="chance"`` every card any action takes from the draw pile (a mulligan's
draw back, a refill, play then draw's owed draw) is a chance outcome when it is taken, and so is each
card taken from a pile a reshuffle made (that pile's odds: its cards were face up). The action is
played first on a copy, the cards chance gave in place, to learn whether it takes one more
(``_probe``); the engine's reshuffle is ordered through ``set_reshuffle_hook``. ``draws="player"``
refuses a ruleset that reshuffles; ``draws="chance"`` refuses ``no-duplicate-draws`` (docs/rl.md).

Players and information: imperfect information; ``observation_string``/``observation_tensor``
are built from what the seat may see only (the vector of ``mbrules.env.encoding``, written from
the engine's compact state); ``information_state_string`` adds the seat's perfect-recall history
(every public action, the cards it was dealt and drew, never another seat's cards or a window it
was not asked), and ``information_state_tensor`` is the observation vector (a summary, not
perfect recall). Nothing is built for an action that does not ask for it.

Action indices: a player action outside ``0..num_distinct_actions()-1``, a chance outcome that is
not a card left, or an action the rules refuse is a ``ValueError`` naming the range or the
reason; nothing is counted from the end and the history keeps only actions applied.

Returns: at the match's end (or after ``hands`` hands), +1 to each player of the winning side and
``-W/L`` to each other player (W winners, L losers), so the game is zero-sum; 0 for a draw or an
unfinished match.

ISMCTS: ``resample_from_infostate`` redraws the cards the seat has not seen (other hands, and
the cards drawn by others that never came face up, from everything still hidden), keeps every
card it has seen where it was, and replays the hand; a redraw under which a past action would be
illegal (a window that needs a safety the redraw did not give its holder) is drawn again, up to
64 times, then the true deal is kept (counted in ``RESAMPLE_STATS``). Serialization: OpenSpiel's
default (the history of actions) works.

``bot(game, player, "heuristic")`` is a ``pyspiel.Bot`` playing any mbrules bot in one seat.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Callable, NoReturn, Sequence, TypeVar

import numpy as np
import pyspiel

import mbrules
from mbrules._paths import DEFAULT_RULESET
from mbrules.engine import Action, Game as _EngineGame, IllegalAction, State as _EngineState

from ..bots import check_bot, make_bot
from ..engine.compact import (
    ObservationWriter,
    arrange_next_draws,
    arrange_top,
    draw_due,
    draw_pile_counts,
    draw_pile_size,
    hands_held,
    reshuffles_made,
    set_reshuffle_hook,
    stack_next_draw,
)
from .encoding import ActionSpace, ObservationEncoder, check_index
from ..seats import BotSeat, SeatLoop
from ..vocab import COUP_FOURRE, DECLINE, DISCARD, DRAW, FAST_PLAY, HAZARD, MULLIGAN, PLAY, SAFETY

__all__ = [
    "DRAWS",
    "MAX_PLAYERS",
    "RESAMPLE_STATS",
    "RESAMPLE_TRIES",
    "SHORT_NAME",
    "MilleBornesBot",
    "MilleBornesGame",
    "MilleBornesState",
    "bot",
]

SHORT_NAME = "python_mille_bornes"
Event = tuple[Any, ...]  # ("deal", hand, hands) or ("act", player, action code, cards drawn[, (slot, taker)...])
MAX_PLAYERS = 9  # the largest bundled table: playaural seats 2 to 9 (tests/rl/test_openspiel_game.py checks every one)
RESAMPLE_TRIES = 64
RESAMPLE_STATS = {"resamples": 0, "redraws": 0, "kept_true_deal": 0}
DRAWS = ("chance", "player")
_T = TypeVar("_T")  # an item of a _Shared list

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

_DEFAULTS = {"ruleset": DEFAULT_RULESET, "players": 4, "options": "", "hands": 0, "draws": "chance"}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Mille Bornes (mbrules, any ruleset)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _hand_length(mb: _EngineGame) -> int:
    """The most actions and chance nodes one hand counts (``max_game_length`` per hand).

    The books' hand: a chance node, a draw, a card and a window answer per card of the deck, the deck
    again for each reshuffle allowed, and the extension question. A draw from the discard pile adds
    turns that take nothing from the draw pile; with turn.discard_draw_must_play (option discard-draw-must-play)
    each of them plays a card onto a tableau (the potential argument of ``Legality._verify_draw_discard``):
    at most the deck, plus every hazard once more for each safety (which sweeps hazards back to the
    discard pile), each turn a draw, a card, a window's answers and an extension answer. Without that
    rule, the stall rule (turn.stall_discards) bounds the turns of a discard-pile draw and a discard
    between two of those."""
    passes = 1 + int(max(mb.max_reshuffles, mb.max_refill_reshuffles))
    per_pass = 4 * len(mb.deck)
    books = passes * per_pass + 2
    if not mb.draw_from_discard:
        return books
    hazards = sum(1 for c in mb.deck if mb.kind[c] == HAZARD)
    safeties = sum(1 for c in mb.deck if mb.kind[c] == SAFETY)
    plays = len(mb.deck) + safeties * hazards
    bounded = books + plays * (3 + mb.players)
    if mb.discard_draw_must_play:
        return bounded
    # the stall rule (turn.stall_discards): between two draws from the draw pile or plays, at most that many
    # turns of a discard-pile draw and a discard
    progress = passes * len(mb.deck) + plays
    return bounded + (progress + 1) * mb.stall_discards * 2


def _options(text: str) -> list[str]:
    return [o.strip() for o in text.replace(";", "+").split("+") if o.strip()]


class MilleBornesGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """One ruleset, options and player count, compiled once (``self.mb``)."""

    def __init__(self, params: dict[str, Any] | None = None):
        p: dict[str, Any] = dict(_DEFAULTS)
        p.update(params or {})
        mb = mbrules.load_game(str(p["ruleset"]), players=int(p["players"]), options=_options(str(p["options"])))
        if mb.sides < 2:
            # the game type is registered once, zero-sum between sides: a lone side (option solo) sums to nothing
            raise ValueError(
                f"{mb.ruleset_id}: {mb.players} player(s) on one side (option solo) is not a game OpenSpiel's "
                f"{SHORT_NAME} can play: it is registered as a zero-sum game of 2 or more sides; play a one-side "
                "table with mbrules.env.single_agent_env or the PettingZoo environment"
            )
        draws = str(p["draws"])
        if draws == "player" and mb.max_reshuffles + mb.max_refill_reshuffles:
            # draws=player orders the whole deck by chance when the hand starts; a reshuffled pile's order
            # would be the engine's own shuffle, hidden from OpenSpiel: draws=chance gives it card by card
            raise ValueError(
                f"{mb.ruleset_id}: draws=player cannot play a ruleset that reshuffles the discard "
                "pile (turn: reshuffle-discard); use draws=chance (the default), where each card "
                "taken from a reshuffled pile is a chance outcome"
            )
        if draws == "chance" and mb.pass_over_held:
            # a draw that passes over held cards takes a card that depends on the pile's order below its top,
            # not a card chosen uniformly from the pile: the chance outcomes would have the wrong odds
            raise ValueError(
                f"{mb.ruleset_id}: draws=chance cannot play a draw that passes over held cards "
                "(turn: no-duplicate-draws); use draws=player, where chance orders the whole deck "
                "when the hand starts"
            )
        self.mb = mb
        self.hands = int(p["hands"])
        if self.hands < 0:
            raise ValueError(f"hands must be 0 (the whole match) or a positive number, not {self.hands}")
        self.draws = str(p["draws"])
        if self.draws not in DRAWS:
            raise ValueError(f"draws must be one of {', '.join(DRAWS)}, not {self.draws!r}")
        self.space = ActionSpace(mb)
        self.encoder = ObservationEncoder(mb)
        self.ctx = _Context(
            mb,
            self.space,
            self.encoder,
            self.hands,
            self.draws == "chance",
            # a play may take a card too (play.safety_replacement_draw): the generic path, as the turn rules
            mb.ruleset.turn != type(mb.ruleset.turn)() or mb.safety_replacement_draw,
        )
        sizes = [len(side) for side in mb.side_players]
        worst = min(-w / (mb.players - w) for w in sizes)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.space),
            max_chance_outcomes=mb.n_cards,
            num_players=mb.players,
            min_utility=worst,
            max_utility=1.0,
            utility_sum=0.0,
            # a hand: a chance node per card of the deck (dealt or drawn), then at most a draw, a
            # card and a window answer per card of the deck, and the extension question; a reshuffle
            # gives the deck's cards again (at most turn.reshuffles times a hand); with draw-from-discard
            # each draw from the discard pile comes with a card played (turn.discard_draw_must_play),
            # counted as _hand_length says (docs/rl.md)
            max_game_length=(min(mb.max_hands, self.hands) if self.hands else mb.max_hands) * _hand_length(mb),
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> MilleBornesState:
        return MilleBornesState(self, self.ctx)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self.ctx, perfect_recall)


class MilleBornesState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no type information
    """A match: chance nodes deal each hand (and, by default, every card drawn); the engine plays it (``mb_state``)."""

    def __init__(self, game: MilleBornesGame, ctx: "_Context"):
        super().__init__(game)
        self._g = ctx  # shared, never copied: the compiled game and its layouts
        mb = ctx.mb
        self._counts = list(mb.deck_counts)  # copies not yet dealt or drawn this hand
        self._left = len(mb.deck)
        self._order: _Shared[int] = _Shared()  # the cards in the order chance gave them: dealt, then drawn
        self._first = 0  # first player of this hand
        self._totals = [0] * mb.sides  # match totals before this hand
        self._hands_done = 0
        self._hand_start = 0  # len(history()) when this hand's first chance node came
        self._result: list[float] | None = None  # returns once the match is over
        self._hand = _Hand(None)  # the engine's State for the hand in play (``mb_state``)
        # this hand since the deal: (player, Action), (-1, card) a draw
        self._moves: _Shared[tuple[int, int]] = _Shared()
        self._pending = -1  # draws="chance": a coup fourré waiting for its replacement draw's chance outcome
        self._used_slots: set[int] = set()  # draws=player with turn rules: the slots taken this hand
        self._events = _Events()  # what happened, for each seat's information state string
        self._drawn = 0  # cards taken off the draw pile this hand (the next slot is dealt + this)
        self._hand_events = 0  # index in self._events of this hand's deal
        self._cur = _CHANCE  # current_player(), kept up to date by every action
        # the ruleset's turn rules with draws=chance (ctx.generic): an action (a player's, or a lone draw) that
        # takes cards waits in _pend as (action, index, player) while chance gives them, segment by segment
        # (_segs[0]: from the draw pile as it is, _segs[k]: from the pile the k-th reshuffle of the action
        # makes); _need is (segment, copies of each card it may give) while a card is wanted, else None
        self._pend: tuple[Action, int | None, int] | None = None
        self._segs: list[list[int]] = []
        self._need: tuple[int, list[int]] | None = None
        # per slot of _order: the pile it came from (0 the deck, k the k-th reshuffle)
        self._pools: _Shared[int] = _Shared()

    def _copy(self) -> MilleBornesState:
        """OpenSpiel's ``clone`` (a deep copy: the engine's State cloned, the compiled game shared)."""
        copy: MilleBornesState = self.clone()
        return copy

    def _live(self) -> _EngineState:
        """The engine's State of the hand in play, where one is (every move but a deal's chance node)."""
        st = self._hand.st
        assert st is not None, "a hand is in play"
        return st

    @property
    def mb_state(self) -> _EngineState | None:
        """The engine's State of the hand in play (None while a hand is being dealt)."""
        return self._hand.st

    # -- whose move -------------------------------------------------------------------
    def current_player(self) -> int:
        return self._cur  # OpenSpiel asks several times an action: worked out once, in _whose_move

    def _whose_move(self) -> int:
        if self._result is not None:
            return _TERMINAL
        st = self._hand.st
        if self._g.generic:
            return _CHANCE if st is None or self._need is not None else st.current_player
        if st is None or self._pending >= 0 or (self._g.chance_draws and draw_due(st)):
            return _CHANCE
        return st.current_player

    def is_terminal(self) -> bool:
        return self._result is not None

    def _legal_actions(self, player: int) -> list[int]:
        st = self._hand.st
        if st is None or player != self._cur:
            return []
        idx = self._g.space.index
        return sorted([idx[a] for a in st.legal_actions()])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._need is not None:  # a card the pending action takes: from the pile it is taken from
            counts = self._need[1]
            total = sum(counts)
            return [(c, n / total) for c, n in enumerate(counts) if n > 0]
        left = self._left
        return [(c, n / left) for c, n in enumerate(self._counts) if n > 0]

    # -- moves ---------------------------------------------------------------------------
    def apply_action(self, action: object) -> None:
        """OpenSpiel's ``apply_action``; a negative index is refused here, before OpenSpiel's own check
        (-1 is its ``kInvalidAction``: a ``SpielError`` that would not name the range)."""
        if type(action) is not int or action < 0:
            self._check(action)
        super().apply_action(action)

    def _check(self, action: object) -> int:
        """``action`` as an int in the range of the node (chance outcomes or player actions), else ``ValueError``."""
        if self._result is not None:
            raise ValueError("the match is over: no action applies")
        if self._cur == _CHANCE:
            return check_index(action, self._g.mb.n_cards, "chance outcome")
        return self._g.space.check(action)

    def _apply_action(self, action: object) -> None:
        if self._result is not None:
            raise ValueError("the match is over: no action applies")
        if self._cur == _CHANCE:
            c = (
                action
                if type(action) is int and 0 <= action < self._g.n_cards
                else check_index(action, self._g.n_cards, "chance outcome")
            )
            if self._need is not None:
                self._take_card(c)
                self._cur = self._whose_move()
                return
            if self._counts[c] <= 0:
                raise ValueError(f"chance outcome {c} ({self._g.mb.card_ids[c]}) is not a card left to deal or draw")
            self._counts[c] -= 1
            self._left -= 1
            self._order.append(c)
            if self._hand.st is None:
                self._deal_card()
            else:
                self._draw_card(c)
        else:
            self._play(
                action if type(action) is int and 0 <= action < self._g.n_actions else self._g.space.check(action)
            )
        self._cur = self._whose_move()

    def _deal_card(self) -> None:
        mb = self._g.mb
        N, hs = mb.players, mb.hand_size
        dealt = N * hs if self._g.chance_draws else len(mb.deck)
        if len(self._order) < dealt:
            return
        hands: list[list[int]] = [[] for _ in range(N)]
        for j in range(N * hs):  # one card at a time from the first player (WM §3)
            hands[(self._first + j) % N].append(self._order[j])
        if self._g.chance_draws:
            # the rest of the deck, in card order: which card comes next is each draw's chance outcome
            rest = [c for c, n in enumerate(self._counts) for _ in range(n)]
        else:
            rest = self._order[N * hs :]
        # the hands before this one count (a match of match.hands hands ends after its last: fixed_hands)
        self._hand = _Hand(
            _EngineState.from_position(
                mb,
                hands=hands,
                draw_top_first=rest,
                turn=self._first,
                match_totals=self._totals,
                hands_played=self._hands_done,
            )
        )
        self._moves = _Shared()
        self._drawn = 0
        self._hand_events = len(self._events.items)
        self._events.add(("deal", self._hands_done, tuple(tuple(h) for h in hands)))
        if self._g.generic:
            self._pools = _Shared([0] * len(self._order))
            self._lone_draw()

    def _draw_card(self, c: int) -> None:
        st = self._live()
        stack_next_draw(st, c)
        self._moves.append((-1, c))
        if self._pending >= 0:
            a = self._g.space.actions[self._pending]
            self._pending = -1
            self._engine_apply(a)
        else:
            self._engine_apply(self._g.mb.draw_action)

    def _play(self, index: int) -> None:
        st = self._live()
        a = self._g.space.actions[index]
        p = st.current_player
        mb = self._g.mb
        if self._g.generic:
            try:
                st.verify(a)
            except mbrules.IllegalAction as exc:
                self._refuse(index, a, exc)
            self._moves.append((p, a))
            self._begin(a, index)
            return
        refill = (a.op == COUP_FOURRE and mb.coup_fourre_replacement_draw) or (
            a.op == FAST_PLAY and mb.fast_play_replacement_draw
        )  # a fast play draws as a coup fourré does
        if self._g.chance_draws and refill and draw_pile_size(st):
            try:
                st.verify(a)
            except mbrules.IllegalAction as exc:
                self._refuse(index, a, exc)
            self._moves.append((p, a))
            self._pending = index  # the replacement draw is a chance outcome: the coup fourré waits for it
            return
        self._engine_apply(a, index)
        self._moves.append((p, a))

    # -- the turn rules, draws=chance: every card taken is a chance outcome when it is taken ----------------
    def _lone_draw(self) -> None:
        """A draw that is the only move (a turn's draw, play then draw's): its cards by chance at once."""
        st = self._hand.st
        if self._pend is None and self._result is None and st is not None and draw_due(st):
            self._begin(self._g.mb.draw_action, None)

    def _begin(self, a: Action, index: int | None) -> None:
        self._pend = (a, index, self._live().current_player)
        self._segs = [[]]
        self._go_on()

    def _take_card(self, c: int) -> None:
        assert self._need is not None  # a chance node of the turn rules
        k, counts = self._need
        if counts[c] <= 0:
            raise ValueError(
                f"chance outcome {c} ({self._g.mb.card_ids[c]}) is not a card left in the pile being drawn from"
            )
        while len(self._segs) <= k:
            self._segs.append([])
        self._segs[k].append(c)
        self._order.append(c)
        self._pools.append(reshuffles_made(self._live()) + k)
        self._moves.append((-1, c))
        self._go_on()

    def _go_on(self) -> None:
        """The pending action wants another card (``_need``), or has all it takes and is applied."""
        self._need = self._probe()
        if self._need is not None:
            return
        assert self._pend is not None  # (an action waits for its cards)
        a, index, p = self._pend
        segs = self._segs
        self._pend, self._segs = None, []
        st = self._live()
        before = hands_held(st)
        arrange_next_draws(st, segs[0])
        set_reshuffle_hook(st, _Arranger(segs[1:]))
        try:
            st.step(a)  # verified, and every card it takes is in place: it cannot be refused
        except mbrules.IllegalAction as exc:
            self._refuse(index, a, exc)
        finally:
            set_reshuffle_hook(st, None)
        taken = [c for seg in segs for c in seg]
        first = len(self._order) - len(taken)
        takers = _takers(before, hands_held(st), p, a, taken)
        drew = tuple(c for c, q in zip(taken, takers) if q == p)
        self._events.add(("act", p, a, drew, tuple(zip(range(first, first + len(taken)), takers))))
        if st.hand_over:
            self._end_hand(st)
            return
        self._lone_draw()

    def _probe(self) -> tuple[int, list[int]] | None:
        """Play the pending action on a copy, its chosen cards in place: (segment, copies it may give) for
        the first card it takes that chance has not given yet, or None when it has all it takes."""
        st = self._live()
        assert self._pend is not None  # (an action waits for its cards)
        a = self._pend[0]
        segs = self._segs
        twin = st.clone()
        stock = draw_pile_size(st)
        arrange_next_draws(twin, segs[0])
        hook = _Arranger(segs[1:], record=True, n_cards=self._g.n_cards)
        set_reshuffle_hook(twin, hook)
        twin.step(a)
        left = draw_pile_size(twin)
        made = len(hook.sizes)
        takes = [stock if made else stock - left]
        piles = [draw_pile_counts(st)]
        for k in range(made):
            takes.append(hook.sizes[k] - (left if k == made - 1 else 0))
            piles.append(hook.piles[k])
        for k, n in enumerate(takes):
            seg = segs[k] if k < len(segs) else []
            if len(seg) < n:
                counts = list(piles[k])
                for c in seg:
                    counts[c] -= 1
                return k, counts
        return None

    def _refuse(self, index: int | None, a: Action, exc: IllegalAction) -> NoReturn:
        legal = ", ".join(str(x) for x in self._live().legal_actions())
        raise ValueError(f"action {index} ({a}) is refused: {exc.message}; legal now: {legal}") from None

    def _engine_apply(self, a: Action, index: int | None = None) -> None:
        st = self._live()
        p = st.current_player
        op = a.op
        taking = self._g.taking  # draws=player with turn rules: any action may take cards (a refill, a draw back)
        refills = taking or op == COUP_FOURRE or op == FAST_PLAY  # besides a draw, only these take cards
        before = draw_pile_size(st) if refills else 0
        held = hands_held(st) if taking else []
        top = -1
        if taking and op == DRAW and a.from_discard:
            top = st.observation(p).discard[-1]
        try:
            st.step(a)  # the engine's one legality check; a refusal leaves the state as it was (no record wanted)
        except mbrules.IllegalAction as exc:
            self._refuse(index, a, exc)
        if taking:  # which cards each seat took (a pass over held cards takes one below the top)
            gained = _gained(held, hands_held(st), p, a)
            if top >= 0:  # the discard pile's top card: taken, but not from the draw pile
                gained[p][top] -= 1
            took = [c for q in range(len(gained)) for c in gained[q].elements()]
            slots = self._slots_of(took)
            takers = _takers(held, hands_held(st), p, a, took)
            drew = tuple(c for c, q in zip(took, takers) if q == p)
            self._events.add(("act", p, a, drew, tuple(zip(slots, takers))))
            if st.hand_over:
                self._end_hand(st)
            return
        taken = 1 if op == DRAW else (before - draw_pile_size(st) if refills else 0)
        if taken:
            j = self._g.dealt + self._drawn  # the slot of the first card taken
            self._drawn += taken
            drew = tuple(self._order[j : j + taken])
        else:
            drew = ()
        self._events.add(("act", p, a, drew))
        if st.hand_over:
            self._end_hand(st)

    def _slots_of(self, cards: Sequence[int]) -> list[int]:
        """draws=player: the slots (places in the chance-given order) of ``cards`` just taken from the draw
        pile: copies of one card are alike, so each takes the first slot of that card not taken yet."""
        out = []
        used = self._used_slots
        for c in cards:
            j = next(j for j in range(self._g.dealt, len(self._order)) if self._order[j] == c and j not in used)
            used.add(j)
            out.append(j)
        return out

    def _end_hand(self, st: _EngineState) -> None:
        mb = self._g.mb
        self._hands_done += 1
        self._totals = list(st.match_totals)
        if st.is_terminal() or self._hands_done >= mb.max_hands:
            out = st.outcome
            w = out.winner_index if out is not None else -1
            self._result = _returns(mb, w)
            return
        if self._g.hands and self._hands_done >= self._g.hands:  # the episode's cap: most points so far wins
            best = max(self._totals)
            w = self._totals.index(best) if self._totals.count(best) == 1 else -1
            self._result = _returns(mb, w)
            return
        if mb.deal_passes_left:  # rulings: The match: the deal passes to the left
            self._first = (self._first + 1) % mb.players
        self._counts = list(mb.deck_counts)
        self._left = len(mb.deck)
        self._order = _Shared()
        self._pools = _Shared()
        self._used_slots = set()
        self._hand = _Hand(None)
        self._hand_start = len(self.history()) + 1  # this action is appended to the history after this call

    def returns(self) -> list[float]:
        if self._result is None:
            return [0.0] * self._g.mb.players
        return list(self._result)

    # -- strings ---------------------------------------------------------------------------
    def _action_to_string(self, player: int, action: object) -> str:
        mb = self._g.mb
        if player == _CHANCE:
            c = check_index(action, mb.n_cards, "chance outcome")
            return f"deal {mb.card_ids[c]}"
        return str(self._g.space.actions[self._g.space.check(action)])

    def __str__(self) -> str:
        if self._result is not None:
            return f"match over after {self._hands_done} hands: totals {self._totals}, returns {self._result}"
        if self.mb_state is None:
            return f"hand {self._hands_done + 1}: dealing, {len(self._order)} of {len(self._g.mb.deck)} cards"
        return repr(self.mb_state)

    # -- ISMCTS ------------------------------------------------------------------------------
    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> MilleBornesState:
        """A state ``player_id`` cannot tell from this one, its unseen cards redrawn (module docstring)."""
        RESAMPLE_STATS["resamples"] += 1
        if self.mb_state is None or self._result is not None:
            return self._copy()  # nothing hidden is in play between hands
        rng = (
            probability_sampler
            if isinstance(probability_sampler, random.Random)
            else random.Random(_seed_from(probability_sampler))
        )
        if self._pend is not None:
            return self._copy()  # an action waits for its cards (a chance node): no seat decides here
        fixed = self._slots().known_to(player_id)
        live = self._live()
        free = [j for j in range(len(self._order)) if j not in fixed]
        if self._g.generic:
            # a card is redrawn only among the cards of its own pile: the deck's, or a reshuffled pile's (whose
            # cards were all face up: public); the pile being drawn from keeps its undrawn cards in the pool
            pools: dict[int, list[int]] = {}
            for j in free:
                pools.setdefault(self._pools[j], []).append(j)
            now = reshuffles_made(live)
            rest = [c for c, n in enumerate(draw_pile_counts(live)) for _ in range(n)]
            groups = [
                (slots, [self._order[j] for j in slots] + (rest if k == now else [])) for k, slots in pools.items()
            ]
        else:
            groups = [
                (free, [self._order[j] for j in free] + [c for c, n in enumerate(self._counts) for _ in range(n)])
            ]
        prefix = self.history()[: self._hand_start]
        for _ in range(RESAMPLE_TRIES):
            order = list(self._order)
            for slots, hidden in groups:
                rng.shuffle(hidden)
                for j, c in zip(slots, hidden):
                    order[j] = c
            new = self._replay(prefix, order)
            if new is not None:
                return new
            RESAMPLE_STATS["redraws"] += 1
        RESAMPLE_STATS["kept_true_deal"] += 1
        return self._copy()

    def _slots(self) -> "_Slots":
        """Which slots of this hand each seat has seen, from the hand's events (worked out when asked)."""
        mb = self._g.mb
        slots = _Slots(self._first, mb.players, mb.hand_size)
        actions = mb.actions
        for e in self._events.items[self._hand_events + 1 :]:
            if len(e) > 4:  # the turn rules: each slot taken and who took it
                slots.track(self._order, e[1], actions[e[2]], 0, e[4])
            else:
                slots.track(self._order, e[1], actions[e[2]], len(e[3]))
        return slots

    def _replay(self, prefix: Sequence[int], order: Sequence[int]) -> MilleBornesState | None:
        try:
            return self._replay_moves(prefix, order)
        except ValueError:  # a card the redraw put where the rules cannot take it (a pile that lacks it)
            return None

    def _replay_moves(self, prefix: Sequence[int], order: Sequence[int]) -> MilleBornesState | None:
        s: MilleBornesState = self.get_game().new_initial_state()
        for a in prefix:
            s.apply_action(a)
        mb = self._g.mb
        dealt = mb.players * mb.hand_size if self._g.chance_draws else len(mb.deck)
        for c in order[:dealt]:
            s.apply_action(c)
        j = dealt
        idx = self._g.space.index
        for p, a in self._moves:
            if p < 0:  # a card drawn: the redraw's card of that slot
                if not s.is_chance_node():
                    return None
                s.apply_action(order[j])
                j += 1
                continue
            st = s.mb_state
            if st is None or s.current_player() != p or not st.can_apply(a):
                return None
            s.apply_action(idx[a])
        return s


class _Context:
    """The compiled game and its layouts, shared by every state of a game (``deepcopy`` keeps it)."""

    def __init__(
        self,
        mb: _EngineGame,
        space: ActionSpace,
        encoder: ObservationEncoder,
        hands: int,
        chance_draws: bool,
        turn_rules: bool = False,
    ):
        self.mb, self.space, self.encoder, self.hands = mb, space, encoder, hands
        self.chance_draws = chance_draws
        # the ruleset's turn rules (reshuffles, a draw from the discard pile, a mulligan, a refill, play then
        # draw) are on: an action may take any number of cards, from the draw pile or a reshuffled one
        self.taking = turn_rules
        self.generic = chance_draws and turn_rules  # each card taken is a chance outcome when it is taken
        self.dealt = mb.players * mb.hand_size  # slots dealt; the draws take the slots after them
        self.n_cards = mb.n_cards
        self.n_actions = len(space)
        self.writer = ObservationWriter(encoder)

    def __deepcopy__(self, memo: object) -> _Context:
        return self


class _Events:
    """What happened this match, as tuples; each seat's history string is read from it when asked, and kept
    (``said``): a seat's string grows by the events since it was last asked, not rebuilt from the match's
    start at every step (OpenSpiel's random simulation asks every seat's at every step: rebuilding it was
    quadratic in the match's length, half of asmodee-2014's simulation at 3 players)."""

    __slots__ = ("items", "said")

    def __init__(self) -> None:
        self.items: list[Event] = []
        self.said: dict[int, tuple[int, str]] = {}  # seat -> (events read, their history string)

    def add(self, item: Event) -> None:
        self.items.append(item)

    def __deepcopy__(self, memo: object) -> _Events:
        c = _Events()
        c.items = list(self.items)  # the tuples are immutable: shared
        c.said = dict(self.said)  # and the strings
        return c

    def history(self, mb: _EngineGame, q: int) -> str:
        """Seat ``q``'s history string: ``player: text`` for every event it saw (:meth:`seen_by`), joined by
        ``; `` (``*`` for a deal)."""
        done, text = self.said.get(q, (0, ""))
        n = len(self.items)
        if done < n:
            names = mb.player_names
            new = "; ".join(f"{names[p] if p >= 0 else '*'}: {t}" for p, t in self.seen_by(mb, q, done))
            text = f"{text}; {new}" if text and new else text or new
            self.said[q] = (n, text)
        return text

    def seen_by(self, mb: _EngineGame, q: int, start: int = 0) -> list[tuple[int, str]]:
        """``(player, text)`` for every event seat ``q`` saw from the ``start``-th on, in order (never another
        hand's cards)."""
        out = []
        ids = mb.card_ids
        for e in self.items[start:]:
            if e[0] == "deal":
                out.append((-1, f"hand {e[1] + 1} dealt: " + " ".join(ids[c] for c in e[2][q])))
                continue
            p, code, drew = e[1], e[2], e[3]
            a = mb.actions[code]
            drew_text = " ".join(ids[c] for c in drew)
            if a.op == DRAW:
                text = f"drew {drew_text}" if q == p else "draw"
            elif a.op == DECLINE and q != p:  # a window shows only to the seat it asks
                continue
            else:
                text = str(a) + (f", drew {drew_text}" if q == p and drew else "")
            out.append((p, text))
        return out


class _Shared(list[_T]):
    """A list of values never changed once made (ints, tuples of ints and Actions): a deep copy (OpenSpiel's
    ``clone``) is a new list of the same values. ``copy.deepcopy`` walked every item and rebuilt each Action
    (an int subclass with attributes): a long hand's clones were most of a random simulation's time,
    quadratic in the hand's length (the random simulation of asmodee-2014 at 3 players: 23.3 -> about 7 CPU-s)."""

    __slots__ = ()

    def __deepcopy__(self, memo: object) -> _Shared[_T]:
        return _Shared(self)


class _Hand:
    """Holds the engine's State; a deep copy (OpenSpiel's ``clone``) is the engine's own ``clone()``."""

    __slots__ = ("st",)

    def __init__(self, st: _EngineState | None):
        self.st = st

    def __deepcopy__(self, memo: object) -> _Hand:
        return _Hand(self.st.clone() if self.st is not None else None)


class _Slots:
    """Which positions of the hand's cards a seat has seen: dealt or drawn to it, or shown on the table.

    Slot ``j`` is the j-th card chance gave this hand (dealt, then drawn). The bookkeeping follows
    the true cards (the game is entitled to them); only ``known_to`` leaves it, as a set of slots.
    """

    def __init__(self, first: int, N: int, hs: int):
        self.held: list[list[int]] = [[] for _ in range(N)]
        for j in range(N * hs):
            self.held[(first + j) % N].append(j)
        self.seen = [set(h) for h in self.held]
        self.public: set[int] = set()
        self.next_slot = N * hs

    def track(self, order: Sequence[int], p: int, a: Action, taken: int, slots: Sequence[tuple[int, int]] = ()) -> None:
        """``p`` did ``a`` and took ``taken`` cards off the draw pile; ``order``: the hand's cards by slot.
        ``slots``: with the turn rules, each slot taken and the seat that took it, instead of ``taken``."""
        if a.op in (PLAY, DISCARD, COUP_FOURRE, FAST_PLAY, MULLIGAN):
            c = a.card_index
            for j in self.held[p]:
                if order[j] == c:
                    self.held[p].remove(j)
                    self.public.add(j)
                    break
        for _ in range(taken):
            j = self.next_slot
            self.next_slot += 1
            self.held[p].append(j)
            self.seen[p].add(j)
        for j, q in slots:
            self.held[q].append(j)
            self.seen[q].add(j)

    def known_to(self, p: int) -> set[int]:
        return self.seen[p] | self.public


class _Arranger:
    """A reshuffle hook (``set_reshuffle_hook``): the k-th pile a reshuffle makes during one action gets
    ``segments[k]`` on top, in the order they are taken; with ``record``, each pile's copies of every card
    and its size are kept (``piles``, ``sizes``)."""

    _immutable = True  # a clone of the state shares it

    def __init__(self, segments: Sequence[Sequence[int]], record: bool = False, n_cards: int = 0):
        self.segments = segments
        self.record = record
        self.n_cards = n_cards
        self.piles: list[list[int]] = []
        self.sizes: list[int] = []

    def __call__(self, pile: list[int]) -> None:
        k = len(self.sizes)
        if self.record:
            counts = [0] * self.n_cards
            for c in pile:
                counts[c] += 1
            self.piles.append(counts)
        self.sizes.append(len(pile))
        if k < len(self.segments):
            arrange_top(pile, self.segments[k])


def _gained(before: Sequence[Sequence[int]], after: Sequence[Sequence[int]], p: int, a: Action) -> list[Counter[int]]:
    """The cards each seat's hand gained in an action (``p``'s card played or thrown left it first)."""
    out = []
    for q, (b, h) in enumerate(zip(before, after)):
        had = Counter(b)
        if q == p and a.op in (PLAY, DISCARD, COUP_FOURRE, FAST_PLAY, MULLIGAN):
            had[a.card_index] -= 1
        out.append(Counter(h) - had)
    return out


def _takers(
    before: Sequence[Sequence[int]], after: Sequence[Sequence[int]], p: int, a: Action, taken: Sequence[int]
) -> list[int]:
    """Who took each card of ``taken`` (in order), from the hands before and after the action; a card no
    hand gained (never, when the rules took it into a hand) is counted as the actor's."""
    gained = _gained(before, after, p, a)
    order = [p] + [q for q in range(len(gained)) if q != p]
    out = []
    for c in taken:
        q = next((q for q in order if gained[q][c] > 0), p)
        gained[q][c] -= 1
        out.append(q)
    return out


def _seed_from(sampler: Callable[[], object]) -> int:
    try:
        return int(float(sampler()) * (1 << 53))  # type: ignore[arg-type]  # whatever it gives, float() tells
    except Exception:  # noqa: BLE001  OpenSpiel's samplers differ by version: fall back to fresh entropy
        return random.SystemRandom().getrandbits(53)


def _returns(mb: _EngineGame, winner: int) -> list[float]:
    if winner < 0:
        return [0.0] * mb.players
    w = len(mb.side_players[winner])
    lose = -w / (mb.players - w)
    return [1.0 if mb.side_of[q] == winner else lose for q in range(mb.players)]


class _Observer:
    """PyObserver: the observation vector of ``mbrules.env.encoding``; strings add the seat's history."""

    def __init__(self, game: "_Context", perfect_recall: bool):
        self._g = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MilleBornesState, player: int) -> None:
        st = state.mb_state
        if st is None:
            self.tensor.fill(0)
            return
        self.tensor[:] = np.frombuffer(self._g.writer.write(st, player, state._hands_done), np.float32)

    def string_from(self, state: MilleBornesState, player: int) -> str:
        mb = self._g.mb
        st = state.mb_state
        if st is None:
            now = (
                f"hand {state._hands_done + 1}: "
                + ("match over" if state._result is not None else "dealing")
                + f"; totals {state._totals}"
            )
        else:
            d = st.observation(player).to_dict()
            d["hand_no"] = state._hands_done
            now = repr(sorted(d.items()))
        if not self.perfect_recall:
            return f"{mb.player_names[player]} {now}"
        past = state._events.history(mb, player)
        return f"{mb.player_names[player]} [{past}] {now}"


class MilleBornesBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel ships no type information
    """An mbrules bot (``random``, ``heuristic``, ``expert``...) as a ``pyspiel.Bot`` for one seat.

    It sees its seat's observation and the legal actions only, as in ``mbrules simulate``;
    ``seed`` seeds its own stream as a match seed does there. ``restart_at`` starts it afresh.
    """

    def __init__(self, game: MilleBornesGame, player: int, name: str = "heuristic", seed: int = 0):
        pyspiel.Bot.__init__(self)
        if not isinstance(game, MilleBornesGame):
            raise ValueError(f"bot() plays {SHORT_NAME} games, not {game!r}")
        check_index(player, game.mb.players, "player")
        check_bot(name)
        self._game, self._player, self._name, self._seed = game, int(player), name, seed
        self._bot = make_bot(name, game.mb, self._player, seed)

    def player_id(self) -> int:
        return self._player

    def restart_at(self, state: object) -> None:
        self._bot = make_bot(self._name, self._game.mb, self._player, self._seed)

    def restart(self) -> None:
        self.restart_at(None)

    def inform_action(self, state: object, player_id: int, action: int) -> None:
        pass  # an mbrules bot reads the table afresh at each decision

    def provides_policy(self) -> bool:
        return False

    def step(self, state: MilleBornesState) -> int:
        if state.current_player() != self._player:
            raise ValueError(f"bot for player {self._player} asked to move when player {state.current_player()} is to")
        # the one seat loop decides (a lone action taken without asking, else the bot asked); its applier
        # only keeps the choice: OpenSpiel's state applies it
        chosen: list[Action] = []
        seat = BotSeat(self._bot)
        st = state.mb_state
        if st is None:
            raise ValueError(f"bot for player {self._player} asked to move while a hand is dealt")
        SeatLoop(st, [seat] * self._game.mb.players, apply=lambda p, a: chosen.append(a)).step()
        if not chosen:
            raise ValueError(f"bot for player {self._player} asked to move when the hand is over")
        return self._game.space.index[int(chosen[0])]


def bot(game: MilleBornesGame, player: int, name: str = "heuristic", seed: int = 0) -> MilleBornesBot:
    """A ``pyspiel.Bot`` playing the mbrules bot ``name`` (``"expert:budget=50"`` too) in seat ``player``."""
    return MilleBornesBot(game, player, name, seed)


pyspiel.register_game(_GAME_TYPE, MilleBornesGame)
