"""A ruleset compiled for one player count: plain ints and tuples, built once.

The engine reads only these tables in the hot loop; the pydantic ruleset stays at
the boundary. Nothing here knows which edition it came from.

Names: a table keeps the model's name for the value it compiles. ``play.*`` and ``match.*``
values keep their field's bare name (``hazard_on_hazard``, ``target_points``); the
``coup_fourre.*`` and ``scoring.*`` values carry their section as a prefix, where the bare
name would be ambiguous (``scoring.trip_completed`` is ``scoring_trip_completed``, points;
``coup_fourre.extra_turn`` is ``coup_fourre_extra_turn``). A value tested against one of
an enum's values is named after the field and that value (``coup_fourre.who ==
any_player`` is ``coup_fourre_any_player``). The score sheet's lines are one compiled table,
``scoring_lines`` (:mod:`.scorelines`). Tables derived from the cards (``card_spec``, masks,
``protectors``) are the engine's own.

A new house rule: its field in the model, its table here (one line, named as above), and
the one room of :class:`~mbrules.engine.state.State` that plays it reading that table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..vocab import BATTLE, BOTH_PILES, DISTANCE, HAZARD, NO_LIMIT, SAFETY, SIDE_NAMES, SPEED, CardKind, Pile
from ..vocab import COUP_FOURRE, DISCARD, FAST_PLAY, MULLIGAN, PLAY
from .notation import (
    ACTION_DECLINE,
    ACTION_DRAW,
    ACTION_DRAW_DISCARD,
    ACTION_EXTEND,
    ACTION_STOP,
    MAX_CARDS,
    MAX_SIDES,
    Action,
    ActionLike,
    all_actions,
    describe,
    encode,
    parse,
)
from .fields import UNJUDGED, mypyc_attr
from .scorelines import compile_lines
from .state import State
from .words import players_refused

if TYPE_CHECKING:
    from ..ruleset.model import Card, PlayerCount, Ruleset


def _pile_of(ruleset: Ruleset, c: Card) -> int:
    """The pile card ``c`` goes to: a hazard's own, a remedy's by the hazards it fixes (a combination remedy,
    which fixes hazards of both piles, goes where a hazard it fixes shows), -1 for the rest."""
    if c.kind == "hazard":
        return Pile(c.pile).code
    if c.kind == "remedy":
        fixes = [ruleset.cards[h] for h in c.fixes]
        fixed = {h.pile for h in fixes if h.kind == "hazard"}  # a remedy fixes hazards (the loader's check)
        return BOTH_PILES if len(fixed) > 1 else SPEED if fixed == {Pile.SPEED} else BATTLE
    return -1


class GameError(ValueError):
    """The ruleset cannot be played with this many players."""


@mypyc_attr(allow_interpreted_subclasses=True)  # a tool may subclass it (api_test's custom engines)
class Game:
    """Immutable rules for one ruleset and player count (OpenSpiel's Game).

    Built in named steps, each compiling one part of the ruleset into the tables one room of
    :class:`~mbrules.engine.state.State` reads: the seats, the cards and the deck, ``play.*``, ``turn``,
    the reactions, the score sheet and the match, then the hot loop's own tables. Compiled (``make
    compiled``), it is a native class: the rooms read its tables directly, not by a name's lookup.
    """

    _immutable: ClassVar[bool] = True  # State.clone() shares it

    def __init__(self, ruleset: Ruleset, players: int):
        key = str(players)
        if key not in ruleset.player_counts:
            raise GameError(players_refused(ruleset.id, players, ruleset.player_counts))
        self.ruleset = ruleset
        self.ruleset_id = ruleset.id
        self.players = players
        # tables a tool derives from these rules (the heuristic bot's), kept with the Game and gone with it
        self.tool_tables: dict[str, Any] = {}
        self._seat_tables(ruleset.player_counts[key])
        self._card_tables(ruleset)
        self._play_tables(ruleset)
        self._turn_tables(ruleset)
        self._reaction_tables(ruleset)
        self._score_tables(ruleset)
        self._action_tables()
        self._deal_tables()

    def __reduce__(self) -> tuple[Any, ...]:
        """pickle's recipe (OpenSpiel's ``serialize_game_and_state``): the game compiled again from its ruleset.
        Its tables hold :class:`~.notation.Action` values, which cross a process as bare ints; rebuilt, they are
        the game's own Actions again, and a compiled Game (whose ``__new__`` runs ``__init__``) pickles too."""
        return (type(self), (self.ruleset, self.players))

    def _seat_tables(self, pc: PlayerCount) -> None:
        """Players, sides and their names, who attacks whom, the trip: ``player_counts.<players>``."""
        players = self.players
        self.sides = pc.sides
        self.side_of = tuple(i % pc.sides for i in range(players))
        self.side_players = tuple(tuple(p for p in range(players) if p % pc.sides == s) for s in range(pc.sides))
        self.player_names = tuple(f"p{i + 1}" for i in range(players))
        self.side_names = tuple(SIDE_NAMES[s] for s in range(pc.sides))
        self.opponents = tuple(tuple(t for t in range(pc.sides) if t != s) for s in range(pc.sides))
        # player_counts.*.hazards_on: the sides a side's hazards may land on (legality), its opponents
        # (winning-moves.txt §4) or itself (option solo: the Java game's GameMode.SOLO, playCard's default target)
        self.hazards_on_own_side = pc.hazards_on == "own_side"
        self.hazard_sides = tuple((s,) for s in range(pc.sides)) if self.hazards_on_own_side else self.opponents
        self.target = pc.target
        self.extension_to = pc.extension_to

    def _card_tables(self, ruleset: Ruleset) -> None:
        """The cards as ints: ids, kinds, miles, the piles they go to, what fixes and protects what; the deck."""
        ids = tuple(ruleset.cards)
        self.card_ids = ids
        self.index = {cid: i for i, cid in enumerate(ids)}
        n = len(ids)
        self.n_cards = n
        if n > MAX_CARDS:
            raise GameError(f"at most {MAX_CARDS} card kinds are supported")
        if self.sides > MAX_SIDES:
            raise GameError(f"at most {MAX_SIDES} sides are supported")
        cards = [ruleset.cards[c] for c in ids]
        self.names = tuple(c.name for c in cards)
        self.kind = tuple(CardKind(c.kind).code for c in cards)
        # the cards whose play checks read a side's miles (legal_actions' memo forgets only these after a distance card)
        self.distance_cards = tuple(i for i, k in enumerate(self.kind) if k == DISTANCE)
        self.miles: tuple[int, ...] = tuple(getattr(c, "miles", 0) for c in cards)
        self.max_per_hand = tuple(
            (c.max_per_hand if c.max_per_hand is not None else NO_LIMIT) if c.kind == "distance" else NO_LIMIT
            for c in cards
        )
        idx = self.index
        self.bit = tuple(1 << i for i in range(n))
        self.limit = tuple((c.limit if c.kind == "hazard" and c.limit is not None else NO_LIMIT) for c in cards)
        self.fixes_mask = tuple(sum(1 << idx[h] for h in c.fixes) if c.kind == "remedy" else 0 for c in cards)
        self.is_go = tuple(c.kind == "remedy" and c.go for c in cards)
        self.protects_mask = tuple(sum(1 << idx[h] for h in c.protects) if c.kind == "safety" else 0 for c in cards)
        self.grants_rolling = tuple(c.kind == "safety" and c.rolling for c in cards)
        self.pile = tuple(_pile_of(ruleset, c) for c in cards)
        # For each hazard: the safeties that protect against it.
        self.protectors = tuple(tuple(j for j in range(n) if self.protects_mask[j] >> i & 1) for i in range(n))
        deck_counts = ruleset.deck_for(self.players)
        self.deck_counts = tuple(deck_counts[c] for c in ids)
        self.deck = tuple(i for i in range(n) for _ in range(self.deck_counts[i]))
        self.safety_cards_in_deck = sum(self.deck_counts[i] for i in range(n) if self.kind[i] == SAFETY)

    def _play_tables(self, ruleset: Ruleset) -> None:
        """``play.*``: turn (hand_size), legality (hazard_on_hazard .. voluntary_discard), effects (the rest)."""
        play = ruleset.play
        self.hand_size = play.hand_size.value
        if self.hand_size * self.players >= len(self.deck):
            raise GameError(f"the deck ({len(self.deck)} cards) cannot deal {self.players} hands of {self.hand_size}")
        self.hazard_on_hazard = play.hazard_on_hazard.value
        self.hazard_needs_rolling = play.hazard_needs_rolling.value
        self.speed_limit_stacking = play.speed_limit_stacking.value
        self.voluntary_discard = play.voluntary_discard.value
        self.safety_discards_hazard = play.safety_discards_hazard.value
        self.roll_after_safety = play.roll_after_safety.value
        self.safety_extra_turn = play.safety_extra_turn.value
        # -- legality and card effects (issue 35): legality and effects read these
        self.go_with_rolling_safety = play.go_with_rolling_safety.value  # false: no-roll-under-right-of-way
        undiscardable = set(play.undiscardable.value)
        # per card: safeties-not-discardable
        cards = [ruleset.cards[c] for c in self.card_ids]
        self.undiscardable = tuple(c.kind in undiscardable for c in cards)
        self.discard_playable = play.discard_playable.value  # false: playable-not-discardable
        # any card may be discarded at any time: a discard's one check is 'in hand' (the common case); a turn
        # that must play after taking the discard top refuses it (_turn_tables)
        self.discard_free = self.voluntary_discard and self.discard_playable and not any(self.undiscardable)
        self.stacked_hazards = play.stacked_hazards.value  # a set of battle hazards in force per side
        self.overshoot = play.overshoot.value  # a trip completed by reaching or passing the target
        self.safety_distance = play.safety_distance.value  # miles a safety adds (safety-distance)
        self.restarts = tuple(c.kind == "remedy" and c.restarts for c in cards)  # remedy-restarts
        # a card whose side rolls while it shows on top of the battle pile: a go card or a restarting remedy
        self.moves = tuple(a or b for a, b in zip(self.is_go, self.restarts))
        # play.safety_extra_turn_needs_draw_pile: effects
        self.safety_extra_turn_needs_draw_pile = play.safety_extra_turn_needs_draw_pile.value

    def _turn_tables(self, ruleset: Ruleset) -> None:
        """The turn and its draws (ruleset 'turn'; the turn room reads these). plain_draws: none of them is on,
        so a draw takes the top card and nothing else (the hot loop's fast path asks only this)."""
        t = ruleset.turn
        self.play_then_draw = t.order.value == "play_then_draw"
        self.max_reshuffles = t.reshuffles.value
        self.draw_from_discard = t.draw_from_discard.value
        # a turn that takes the discard top must play a card (legality: _verify_draw_discard, _verify_discard)
        self.discard_draw_must_play = self.draw_from_discard and t.discard_draw_must_play.value
        if self.discard_draw_must_play and not self.play_then_draw:
            self.discard_free = False  # a discard is refused in a turn that took the discard top
        self.mulligan = t.mulligan.value
        # the stall rule (turn.stall_discards; effects: _discard_card). Only a discard-pile draw lets a turn take a
        # card from nowhere but the draw pile; without it each discard with nothing drawn leaves a hand a card
        # smaller, so the count is kept only where a hand could loop
        self.stall_discards = t.stall_discards.value
        self.stall_checked = self.draw_from_discard
        self.refill_empty_hand = t.refill_empty_hand.value
        # the most reshuffles a refill may have made before it (it may also use the draws' allowance)
        self.max_refill_reshuffles = (
            max(t.refill_reshuffles.value, self.max_reshuffles) if self.refill_empty_hand else 0
        )
        self.pass_over_held = t.pass_over_held.value
        # the hand ends when a turn would start with nothing to draw (turn: _start_turn, where the pile is out)
        self.draw_pile_out_ends_hand = t.draw_pile_out_ends_hand.value
        self.draw_choices = self.draw_from_discard or self.mulligan  # a turn's draw offers more than 'draw'
        self.plain_draws = not (
            self.max_reshuffles or self.refill_empty_hand or self.pass_over_held or self.play_then_draw
        )
        self.lone_plain_draw = self.plain_draws and not self.draw_choices  # a turn's draw: 'draw', the top card
        # a discard (any card held: discard_free) passes the turn to the next player, who draws the top card and
        # nothing else, the stall rule off (State.step_next writes that turn's end out while the draw pile lasts)
        self.discard_then_draw = (
            self.discard_free and self.lone_plain_draw and not self.stall_checked and not self.play_then_draw
        )

    def _reaction_tables(self, ruleset: Ruleset) -> None:
        """The coup fourré and the fast play (reactions; legality's _verify_fast_play), a safety's replacement
        draw (effects: _play), and the ruleset 'karma' (legality and effects)."""
        cf = ruleset.coup_fourre
        self.coup_fourre_enabled = cf.enabled.value
        self.coup_fourre_any_player = cf.who.value == "any_player"
        self.coup_fourre_replacement_draw = cf.replacement_draw.value
        self.coup_fourre_extra_turn = cf.extra_turn.value
        # coup_fourre.bonus_turn (issue 35): reactions (the caller queued) and turn (the queue served first)
        self.coup_fourre_bonus_turn_queued = (
            cf.bonus_turn.value == "queued"
        )  # the caller's turn waits for the attacker's
        # a safety in turn replaced at once (effects: _play's safety; play then draw draws after the play anyway)
        # the replacement card is the safety's extra turn's draw (PlayAural game.py _play_safety: 'this draw begins
        # the Safety's extra turn'): with no extra turn (option no-safety-extra-turn) there is nothing to replace
        self.safety_replacement_draw = (
            ruleset.play.safety_replacement_draw.value and self.safety_extra_turn and not self.play_then_draw
        )
        self.fast_play_enabled = ruleset.fast_play.enabled.value
        self.fast_play_replacement_draw = ruleset.fast_play.replacement_draw.value
        # For each hazard: the remedies that fix it (the cards a fast-play window answers with).
        n = self.n_cards
        self.fixers = tuple(tuple(j for j in range(n) if self.fixes_mask[j] >> i & 1) for i in range(n))
        # -- issue 43: ruleset 'karma' (option karma): legality (_play_reason: shunned, has-karma) and effects
        # (_play: a hazard neutralised or its attacker shunned; a karma card). Off, every side's _karma is False
        # and no check of the hot loop reads this flag (State._reset_hand)
        self.karma = ruleset.karma.enabled.value

    def _score_tables(self, ruleset: Ruleset) -> None:
        """The score sheet and the match: ``scoring.*`` (scorelines.pay_lines reads the lines; the rest is for
        the bots) and ``match.*`` (scoring: mode, target_points, hands, tie_break; turn: deal_passes_left,
        max_hands)."""
        sc = ruleset.scoring
        self.scoring_enabled = sc.enabled.value
        self.scoring_trip_completed = sc.trip_completed.value
        self.safe_trip_breakers = tuple(self.index[c] for c in sc.safe_trip_breakers.value)
        m = ruleset.match
        self.match_mode = m.mode.value
        self.target_points = m.target_points.value
        self.deal_passes_left = m.deal_passes_left.value
        self.max_hands = m.max_hands.value  # the engine ends a match as unfinished after this many hands
        # -- issue 36: scoring.lines (compiled by scorelines.compile_lines), match.hands, match.tie_break: scoring
        # every line of the score sheet, the contract's ten included (scorelines.pay_lines reads them)
        self.scoring_lines, self.score_line_names = compile_lines(ruleset, self.index)
        self.match_hands = m.hands.value  # fixed_hands: the match's length
        self.match_tie_break = m.tie_break.value

    def _action_tables(self) -> None:
        """Every action of the game, once (the notation's table; the engine hands these out), and the tables
        the hot loop reads in one go."""
        n = self.n_cards
        # One tuple per card (State._play_reason unpacks it in one go):
        # (kind, miles, max_per_hand, bit, pile, fixes_mask, is_go).
        self.card_spec = tuple(
            (
                self.kind[i],
                self.miles[i],
                self.max_per_hand[i],
                self.bit[i],
                self.pile[i],
                self.fixes_mask[i],
                self.is_go[i],
            )
            for i in range(n)
        )
        self.actions: dict[int, Action] = all_actions(self)
        acts = self.actions
        self.play_action = tuple(tuple(acts[encode(PLAY, c, s)] for s in range(self.sides)) for c in range(n))
        self.play_own = tuple(acts[encode(PLAY, c)] for c in range(n))  # 'play CARD': one's own side
        self.discard_action = tuple(acts[encode(DISCARD, c)] for c in range(n))
        self.coup_action = tuple(acts[encode(COUP_FOURRE, c)] for c in range(n))
        self.fast_action = tuple(acts[encode(FAST_PLAY, c)] for c in range(n))
        self.draw_action = acts[ACTION_DRAW]
        # the history's entries of the hot loop's actions, built once per seat (State._history: (player, Action)):
        # a draw's; a discard's per card; a play's per card (a hazard's per side hit, any other card's one entry).
        # Typed Any: a compiled engine appends the tuple itself, where a tuple[int, Action] is unboxed by mypyc
        # and built again at every append (a new tuple per turn, kept to the match's end: the GC's work)
        self.draw_entries: tuple[Any, ...] = tuple((p, self.draw_action) for p in range(self.players))
        self.discard_entries: tuple[tuple[Any, ...], ...] = tuple(
            tuple((p, a) for a in self.discard_action) for p in range(self.players)
        )
        self.play_entries: tuple[tuple[tuple[Any, ...], ...], ...] = tuple(
            tuple(
                tuple((p, a) for a in row) if self.kind[c] == HAZARD else ((p, self.play_own[c]),)
                for c, row in enumerate(self.play_action)
            )
            for p in range(self.players)
        )
        self.draw_discard_action = acts[ACTION_DRAW_DISCARD]  # refused (no-discard-draw) unless turn.draw_from_discard
        # what legal_actions() reads at every turn's play, fetched in one go; a hazard's plays per side hit (every
        # other card's row is empty: it goes on one's own side)
        hazard_rows = tuple(row if self.kind[c] == HAZARD else () for c, row in enumerate(self.play_action))
        self.turn_tables = (hazard_rows, self.play_own, self.discard_action)
        self.mulligan_action = tuple(acts[encode(MULLIGAN, c)] for c in range(n))  # refused unless turn.mulligan
        self.decline_action = acts[ACTION_DECLINE]
        self.extend_action = acts[ACTION_EXTEND]
        self.stop_action = acts[ACTION_STOP]

    def _deal_tables(self) -> None:
        """legal_actions' memo of ``_play_reason``'s answers (``State._can``, ``_hit``) at every deal, judged once
        here: a hand starts from empty piles, no miles, the trip's target and every side's karma alike, and the
        checks read nothing else (not the hands). The turn room's ``_deal`` starts each hand's memo from these
        rows instead of from none (about 22 of a random-bot hand's 162 judgements were these, each a call)."""
        n = self.n_cards
        # effects' _refresh: a side's memo rows by what its checks read of it, each judged once per Game (a side
        # refreshed to a state met before takes its answers; about half a random-bot hand's judgements, each a
        # call, were a side's cards judged anew after a refresh to what they had been). Kept where karma is off:
        # a hazard's answer then reads only the side hit (with it, the attacker's karma too)
        self.rows_by_state = not self.karma
        self.side_rows: dict[tuple[int, int, int, int, bool, bool, bool], tuple[Any, Any]] = {}
        # the cards judged for such a row: those a side plays on itself but distance (its checks read the miles
        # and the counts played: judged in play), and the hazards, on the side hit by the first that may attack it
        self.own_cards = tuple(c for c in range(n) if self.kind[c] != DISTANCE and self.kind[c] != HAZARD)
        self.hazard_cards = tuple(c for c in range(n) if self.kind[c] == HAZARD)
        self.first_attacker = tuple(
            next((s for s in range(self.sides) if ts in self.hazard_sides[s]), -1) for ts in range(self.sides)
        )
        st = State(self, 0)  # its hand not dealt: every pile empty, as at a deal
        sides = range(self.sides)
        for s in sides:
            st._refresh(s)
        self.deal_can: tuple[tuple[str | None, ...], ...] = tuple(
            tuple(st._play_reason(s, c, s) for c in range(n)) for s in sides
        )
        # a hazard's answer on side ts, judged for the first side that may attack it (a hazard's checks read only
        # the side hit: at a deal every karma is alike); another card's, or one no side may attack, not judged
        self.deal_hit: tuple[tuple[str | None, ...], ...] = tuple(
            tuple(st._play_reason(a, c, ts) if a >= 0 and self.kind[c] == HAZARD else UNJUDGED for c in range(n))
            for ts, a in enumerate(self.first_attacker)
        )

    def __eq__(self, other: object) -> bool:  # the same rules for the same table, however many times loaded
        return self is other or (
            isinstance(other, Game) and self.players == other.players and self.ruleset == other.ruleset
        )

    def __hash__(self) -> int:
        return hash((self.ruleset_id, self.players))

    def __repr__(self) -> str:
        return (
            f"<Game {self.ruleset_id}: {self.players} players, {self.sides} sides, "
            f"{len(self.deck)} cards, trip {self.target}>"
        )

    # -- names -------------------------------------------------------------
    def card(self, card_id: str) -> int:
        try:
            return self.index[card_id]
        except KeyError:
            raise GameError(f"unknown card '{card_id}' (cards: {', '.join(self.card_ids)})") from None

    def player(self, name: str) -> int:
        try:
            return self.player_names.index(name)
        except ValueError:
            raise GameError(f"unknown player '{name}' (players: {', '.join(self.player_names)})") from None

    def side(self, name: str) -> int:
        try:
            return self.side_names.index(name)
        except ValueError:
            raise GameError(f"unknown side '{name}' (sides: {', '.join(self.side_names)})") from None

    def new_match(self, seed: int) -> State:
        """A new match whose first hand is dealt from ``seed``, ready to play.

        When a hand ends and the match goes on, the next hand is dealt at once, so a caller's
        loop is just ``while not state.is_terminal()``. (Tools that stop at each hand's end use
        ``State.new_match(game, seed, deal_next=False)`` and ``state.next_hand()``.)
        """
        return State.new_match(self, seed)

    def action(self, action: ActionLike) -> Action:
        """``action`` (an Action, its int, or its words) as this game's :class:`Action`."""
        if isinstance(action, str):
            return parse(action, self)
        try:
            return self.actions[action]
        except (KeyError, TypeError):
            raise GameError(f"{action!r} is not an action of this game") from None

    def describe(self, action: ActionLike) -> str:
        """An action in a sentence's words (the narrator's)."""
        return describe(self.action(action))
