"""The state of a match: the position, and the public API every tool and test uses.

OpenSpiel's shape: ``current_player``, ``legal_actions()``, ``apply(action)``,
``is_terminal()``, ``clone()``, ``observation(player)``. :class:`State` holds the
position (its ``__slots__``: hands, piles, the derived side state, the phase, the
window, the score so far) and the API; each concern of the rules lives in its own room,
a mixin with no slots of its own whose module opens with its contract (what it decides,
what it reads, what it may change):

==========================  ===========================================================
:mod:`.legality`            whether an action may be taken: ``_verify`` and one
                            ``_verify_*`` check per operation, the reason codes in the
                            contract's precedence, their sentences, ``legal_actions()``
:mod:`.effects`             what a card does when it lands (``_play``, ``_discard_card``,
                            ``_protect``) and a side's derived state (``_refresh``)
:mod:`.turn`                the deal, the draw, whose turn it is, the hand's end
:mod:`.reactions`           the coup fourré window and the extension question
:mod:`.scoring`             the score sheet and the match's winner
==========================  ===========================================================

This module keeps construction (``new_match``, ``from_position``, ``from_decision``),
``clone``, the read-only views, and ``apply``/``step``, which dispatch an accepted
action to its room and build the :class:`Transition`. Every branch in a room is switched
by a table of :class:`Game`, never by the edition's name; the comment on each cites the
ruling it plays. A room's methods are found through the class (Python's method cache),
so the split costs the hot loop nothing.

Everything whose name starts with ``_`` is private to :mod:`mbrules.engine`: tools
read a position through ``observation(player)`` (what one seat may see) or
``snapshot()`` (everything, for replay, recorders and checkers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, NamedTuple, Sequence

from ..vocab import DISTANCE, NO_LIMIT, SAFETY, DecisionKind
from ..vocab import ACTION_CARD_MASK, ACTION_OP_BITS, ACTION_OP_MASK, ACTION_SIDE_SHIFT
from ..vocab import COUP_FOURRE, DECLINE, DISCARD, DRAW, EXTEND, FAST_PLAY, MULLIGAN, OWN, PLAY
from .actions import Decision, IllegalAction
from .effects import KARMA_NEUTRALISED, KARMA_REGAINED, KARMA_SHUNNED, Effects
from .fields import UNJUDGED
from .legality import Legality
from .notation import ACTION_DRAW, Action, ActionLike, NotationError
from .observation import Observation, Observer, Outcome, Snapshot
from .phases import P_COUP, P_DRAW, P_EXT, P_FAST, P_HAND_OVER, P_MATCH_OVER, P_MULL, P_PLAY, PHASE_KIND as _PHASE_KIND
from .reactions import Reactions
from .rng import copied as _copied_rng, match_random
from .scoring import Scoring
from .transition import Transition
from .turn import DREW, FROM_DISCARD_PILE, MULLIGAN_ENDED, RESHUFFLED, TurnFlow

# the class Action (notation.py stays Python) held as a Final: a compiled module keeps it in a static of its own,
# where an imported Python class's name is a lookup in the module's dict at every step's type(action) test
_ACTION: Final = Action

if TYPE_CHECKING:
    from .game import Game


class Race(NamedTuple):
    """What :meth:`State.race` shows: the table as a play-out policy reads it, a value per side (views of
    the live table: read them before the next action, never write them)."""

    target: int  # the trip's length now
    draw_pile: int  # cards left to draw
    miles: Sequence[int]
    played: Sequence[Sequence[int]]  # distance cards played this hand, a count per card index
    hazard: Sequence[int]  # the hazard stopping the side on its battle pile, -1 for none
    rolling: Sequence[bool]  # may play distance (no hazard showing, a go card or rolling safety)


class State(Legality, Effects, TurnFlow, Reactions, Scoring):
    """A match in progress. Cards are ints (indices into ``game.card_ids``); players and sides are ints."""

    __slots__ = (
        "game",
        "_rng",
        "_hands",
        "_stock",
        "_discard",
        "_battle",
        "_speed",
        "_miles",
        "_played",
        "_safeties",
        "_coups",
        "_prot",
        "_row",
        "_needs_go",
        "_rolling",
        "_bhaz",
        "_limit",
        "_lhaz",
        "_target",
        "_extension_called_by",
        "_phase",
        "_player",
        "_cf_queue",
        "_cf_hazard",
        "_cf_side",
        "_cf_attacker",
        "_completer",
        "_completion_delayed",
        "_last_draw",
        "_hand_no",
        "_first_player",
        "_match_totals",
        "_hand_sheets",
        "_winner",
        "_history",
        "_coup_count",
        "_deal_next",
        "_observers",
        "_completers",
        "_can",
        "_hit",
        "_face_up",
        "_queued",
        "_resume",
        "_bmask",
        # the turn room's draws (ruleset 'turn'): reshuffles this hand; what the current action's draws did
        # (_note: RESHUFFLED | FROM_DISCARD_PILE); cards it drew besides its own draw (a refill, a mulligan's);
        # a play-then-draw turn's next player once its draw is taken
        "_reshuffles",
        "_stall",
        "_stall_mark",
        "_note",
        "_drawn_more",
        "_after_draw",
        # the seed of this hand's reshuffles: drawn from the match's RNG at the deal where the ruleset
        # reshuffles (the books' rulesets draw nothing more), a position's own seed otherwise
        "_hand_seed",
        "_hand_reshuffles",  # per hand over: how many reshuffles it made (compare's metric)
        # a reshuffle's order chosen from outside (OpenSpiel's chance nodes): None, or an object marked
        # _immutable (shared by clones) called with each reshuffled pile (turn.py's _reshuffle)
        "_reshuffle_hook",
        # ruleset 'karma' (option karma, issue 43): per side, its karma, the karma cards it played, the sides it
        # may attack (every opponent while karma is off)
        "_karma",
        "_karma_cards",
        "_foes",
        # legal_actions' marks of the cards met in a call (each distinct card once): per card, the number of the
        # last call that met it; and the last call's number
        "_met",
        "_met_no",
    )

    # -- construction ----------------------------------------------------------
    def __init__(self, game: Game, seed: int | None = None):
        self.game = game
        self._rng = match_random(seed)  # random.Random's numbers; keeps its state's copy (snapshot())
        self._hand_seed = seed if isinstance(seed, int) else 0
        self._hand_no = 0
        self._first_player = 0
        self._match_totals = [0] * game.sides
        self._hand_sheets: list[list[dict[str, int]]] = []
        self._completers: list[int] = []  # per hand over: the side that completed the trip, or -1
        self._hand_reshuffles: list[int] = []
        self._reshuffle_hook = None
        self._winner = None  # side index, Termination.DRAW or .UNFINISHED, or None while undecided
        self._history: list[tuple[int, Any]] = []  # (player, Action); (-1, -1) marks a new hand
        self._deal_next = False  # deal the next hand as soon as one ends (matches from new_match)
        self._observers = ()
        self._reset_hand()

    @classmethod
    def new_match(cls, game: Game, seed: int, deal_next: bool = True) -> "State":
        """A match dealt from ``seed``.

        With ``deal_next`` (the default) the next hand is dealt as soon as one ends and the
        match goes on; without it the state rests at the hand's end until :meth:`next_hand`.
        """
        s = cls(game, seed)
        s._deal_next = deal_next
        s._deal()
        return s

    @classmethod
    def from_position(
        cls,
        game: Game,
        *,
        hands: list[list[int]],
        draw_top_first: list[int],
        discard: Sequence[int] = (),
        sides: dict[int, dict[str, Any]] | None = None,
        turn: int = 0,
        extension_called_by: int = -1,
        match_totals: list[int] | None = None,
        seed: int = 0,
        hands_played: int = 0,
    ) -> "State":
        """A hand set up card by card (scenarios): cards are indices, players and sides ints.

        ``sides[s]`` may hold ``battle``, ``speed``, ``distance`` (bottom first), ``safeties``,
        ``coups``, ``karma_cards`` and ``karma`` (False: the side has lost its karma; ruleset 'karma'). The caller is responsible for the cards adding up to the deck.
        ``hands_played`` hands of the match count as played before this one (a match of a fixed
        number of hands, the hands cap); their lines are not known: their sheets hold zeros (the points
        they gave are in ``match_totals``).
        """
        st = cls(game, seed)
        if hands_played:
            st._hand_no = hands_played
            st._hand_sheets = [
                [dict.fromkeys(game.score_line_names, 0) for _ in range(game.sides)] for _ in range(hands_played)
            ]
            st._completers = [-1] * hands_played
        st._first_player = turn
        st._lay_table(hands, draw_top_first, discard, sides, match_totals)
        if extension_called_by >= 0:
            st._extension_called_by = extension_called_by
            st._target = game.extension_to if game.extension_to is not None else game.target
        st._start_turn(turn)
        return st

    @classmethod
    def from_decision(
        cls,
        game: Game,
        decision: Decision,
        *,
        hands: list[list[int]],
        draw_top_first: list[int],
        discard: Sequence[int],
        sides: dict[int, dict[str, Any]],
        target: int,
        extension_called_by: int = -1,
        hand_no: int = 0,
        match_totals: list[int] | None = None,
        window: tuple[int, int, int, list[int]] | None = None,
        seed: int | None = None,
        reshuffles: int = 0,
        after_draw: int = -1,
        recent: Sequence[tuple[int, Any]] = (),
        queued: Sequence[int] = (),
    ) -> "State":
        """A hand set up card by card and waiting at ``decision`` (a search bot's sampled world).

        ``sides[s]`` is as for :meth:`from_position`, plus ``moving``: False for a side whose
        safety lets it roll but which still needs a go card (option roll-after-safety).
        ``decision`` is a DecisionKind.TURN (``drawn`` says whether its draw happened), a DecisionKind.EXTENSION
        (the asker's side completed the trip) or a DecisionKind.COUP_FOURRE, whose ``window`` is
        ``(hazard, side hit, attacker, players still to answer)``: the first of them decides.
        ``hand_no`` hands are counted as played before this one (for the match's hands cap).
        The ruleset's turn rules: ``reshuffles`` made this hand so far; a MULLIGAN decision (a
        mulligan under way); with play then draw, a TURN whose draw is due (``drawn`` False, the
        hand not empty) draws after the play, and ``after_draw`` is who plays next; ``recent``, this hand's
        action that turn.discard_draw_must_play looks back at (``Observation.recent``), begins its history; ``queued``, the coup fourré turns waiting (queued-coup-fourre-turn).
        The state rests at the hand's end (it never deals a next hand).
        """
        st = cls(game, seed)
        st._lay_table(hands, draw_top_first, discard, sides, match_totals)
        for s, piles in sides.items():
            if st._rolling[s] and not piles.get("moving", True):
                st._needs_go[s] = True  # option roll-after-safety: a go card must follow the safety
                st._refresh(s)
        st._target = target
        st._extension_called_by = extension_called_by
        st._hand_no = hand_no
        st._hand_sheets = [[] for _ in range(hand_no)]  # only their number matters here (the hands cap)
        st._completers = [-1] * hand_no
        st._hand_reshuffles = [0] * hand_no
        st._player = decision.player
        st._reshuffles = reshuffles
        st._after_draw = after_draw
        st._history = list(recent)
        st._queued = list(queued)  # queued coup fourré turns; play goes on from the last one's left
        st._resume = st._queued[-1] if st._queued else -1
        if decision.kind == DecisionKind.TURN:
            st._phase = P_PLAY if decision.drawn else P_DRAW
        elif decision.kind == DecisionKind.MULLIGAN:
            st._phase = P_MULL
        elif decision.kind == DecisionKind.EXTENSION:
            st._phase = P_EXT
            st._completer = game.side_of[decision.player]
            st._completion_delayed = not st._can_draw()
        elif decision.kind in (DecisionKind.COUP_FOURRE, DecisionKind.FAST_PLAY) and window is not None:
            st._phase = P_COUP if decision.kind == DecisionKind.COUP_FOURRE else P_FAST
            st._cf_hazard, st._cf_side, st._cf_attacker, queue = window
            st._cf_queue = list(queue)
            st._player = st._cf_queue[0]  # the window waits for the first of those still to answer
        else:
            raise ValueError(
                f"no position waits at a {decision.kind} decision"
                + (" without its window" if decision.kind in (DecisionKind.COUP_FOURRE, DecisionKind.FAST_PLAY) else "")
            )
        return st

    def _lay_table(
        self,
        hands: Sequence[Sequence[int]],
        draw_top_first: Sequence[int],
        discard: Sequence[int],
        sides: dict[int, dict[str, Any]] | None,
        match_totals: Sequence[int] | None,
    ) -> None:
        """A fresh hand with these cards in hand, in the draw pile, the discard pile and on the table."""
        game = self.game
        self._reset_hand()
        self._hands = [list(h) for h in hands]
        self._stock = list(draw_top_first)[::-1]
        self._discard = list(discard)
        if match_totals is not None:
            self._match_totals = list(match_totals)
        for side, piles in (sides or {}).items():
            self._battle[side] = list(piles.get("battle", ()))
            self._speed[side] = list(piles.get("speed", ()))
            for c in piles.get("distance", ()):
                self._played[side][c] += 1
                self._miles[side] += game.miles[c]
            if "miles" in piles:  # more than the cards give: option safety-distance's miles
                self._miles[side] = piles["miles"]
            self._safeties[side] = list(piles.get("safeties", ()))
            self._karma_cards[side] = list(piles.get("karma_cards", ()))
            if game.karma and "karma" in piles:  # a side set up without its karma (ruleset 'karma')
                self._karma[side] = bool(piles["karma"])
            self._coups[side] = list(piles.get("coups", ()))
            self._coup_count += len(self._coups[side])
            for c in self._safeties[side] + self._coups[side]:
                self._prot[side] |= game.protects_mask[c]
                if game.grants_rolling[c]:
                    self._row[side] = True
        for side in range(game.sides):
            self._refresh(side)
        self._set_foes()
        for c in self._discard:
            self._face_up[c] += 1
        for table_piles in (self._battle, self._speed, self._safeties, self._coups, self._karma_cards):
            for pile in table_piles:
                for c in pile:
                    self._face_up[c] += 1
        for row in self._played:
            for c, n in enumerate(row):
                self._face_up[c] += n

    def _reset_hand(self) -> None:
        g = self.game
        S = g.sides
        self._hands = [[] for _ in range(g.players)]
        self._stock: list[int] = []  # top of the draw pile is the END of the list
        self._discard: list[int] = []
        self._battle = [[] for _ in range(S)]
        self._speed = [[] for _ in range(S)]
        self._miles = [0] * S
        self._played = [[0] * g.n_cards for _ in range(S)]  # distance cards played, per card
        self._safeties = [[] for _ in range(S)]  # played normally
        self._coups = [[] for _ in range(S)]  # played as coups fourrés
        self._prot = [0] * S  # mask of hazards the side is protected against
        self._row = [False] * S  # has a rolling safety (Right of Way)
        self._needs_go = [False] * S
        self._rolling = [False] * S
        self._bhaz = [-1] * S  # active hazard on top of the battle pile (stacked hazards: the latest in force)
        self._bmask = [0] * S  # stacked hazards only: the mask of the battle hazards in force
        # legal_actions' memo of _play_reason per side: its own plays, and hazards played on it;
        # emptied whenever anything those checks read changes (_refresh, its miles, the target)
        self._face_up = [0] * g.n_cards  # copies of each card face up: on the table or in the discard pile
        self._can: list[list[str | None]] = [[UNJUDGED] * g.n_cards for _ in range(S)]
        self._hit: list[list[str | None]] = [[UNJUDGED] * g.n_cards for _ in range(S)]
        self._limit = [NO_LIMIT] * S
        self._lhaz = [-1] * S  # active hazard on top of the speed pile
        self._target = g.target
        self._extension_called_by = -1
        self._phase = P_DRAW
        self._player = self._first_player
        self._cf_queue: list[int] = []
        self._cf_hazard = -1
        self._cf_side = -1
        self._cf_attacker = -1
        self._completer = -1
        self._completion_delayed = False
        self._last_draw = -1
        self._coup_count = 0
        self._reshuffles = 0
        self._note = 0
        self._drawn_more: list[int] = []
        self._after_draw = -1
        # queued coup fourré turns (coup_fourre.bonus_turn: queued): callers waiting, and the player whose
        # left play goes on from once they have played (-1: no queue, the common case)
        self._queued: list[int] = []
        self._resume = -1
        # the stall rule (turn.stall_discards): discards in a row with no progress, and the progress at the last
        self._stall = 0
        self._stall_mark = (-1, -1, -1)
        # ruleset 'karma': every side starts the hand with its karma (PlayAural state.py RaceState.reset:
        # has_karma = True); with none in the ruleset every side has False, and no check reads the flag
        self._karma = [g.karma] * S
        self._karma_cards = [[] for _ in range(S)]
        self._foes = list(g.hazard_sides)
        self._met = [0] * g.n_cards
        self._met_no = 0

    def __reduce__(self) -> tuple[Any, ...]:
        """pickle's recipe (OpenSpiel's ``serialize_game_and_state``, ``copy.copy``): a State made for the game,
        then each field set. Compiled, a State's ``__new__`` runs ``__init__``, which needs the game, so pickle's
        default (``__new__`` without arguments, then the fields) fails there; one recipe serves both modes.
        Observers stay behind, as with :meth:`clone`."""
        values = tuple(() if name == "_observers" else getattr(self, name) for name in _STATE_SLOTS)
        return (_unpickled_state, (self.game, values))

    def clone(self) -> "State":
        """An independent copy: each slot copied as deep as its kind needs, written out slot by slot.

        Observers stay with the original (a bot searching a clone must not narrate it). A clone a legal action
        is half of tests/test_engine_legality.py's CPU and the search bots' loop: each slot's copy is written
        for its kind (a list of ints sliced, a list of lists sliced row by row, the hands' sheets' dicts copied)
        instead of a generic copy that found each element's type at each call (80 -> ~25 us a clone, round 14).
        A new slot left out here is not silently shared: tests/api/test_clone.py's
        test_every_slot_is_copied_and_none_shared compares every slot of clones of many positions with the
        original's (equal values, no list, dict or RNG shared at any depth; a slot not set fails there).
        """
        c = _blank_state(self.game)
        c.game = self.game  # immutable (Game._immutable): shared
        c._rng = _copied_rng(self._rng)
        # lists of ints, bools, tuples or flags: one slice each
        c._stock = self._stock[:]
        c._discard = self._discard[:]
        c._miles = self._miles[:]
        c._prot = self._prot[:]
        c._row = self._row[:]
        c._needs_go = self._needs_go[:]
        c._rolling = self._rolling[:]
        c._bhaz = self._bhaz[:]
        c._limit = self._limit[:]
        c._lhaz = self._lhaz[:]
        c._cf_queue = self._cf_queue[:]
        c._match_totals = self._match_totals[:]
        c._history = self._history[:]  # (player, Action) tuples: immutable
        c._completers = self._completers[:]
        c._face_up = self._face_up[:]
        c._queued = self._queued[:]
        c._bmask = self._bmask[:]
        c._drawn_more = self._drawn_more[:]
        c._hand_reshuffles = self._hand_reshuffles[:]
        c._karma = self._karma[:]
        c._foes = self._foes[:]  # tuples of sides
        c._met = self._met[:]
        # lists of lists of ints (or of legality's marks, strings and Reasons): a slice a row
        c._hands = [r[:] for r in self._hands]
        c._battle = [r[:] for r in self._battle]
        c._speed = [r[:] for r in self._speed]
        c._played = [r[:] for r in self._played]
        c._safeties = [r[:] for r in self._safeties]
        c._coups = [r[:] for r in self._coups]
        c._can = [r[:] for r in self._can]
        c._hit = [r[:] for r in self._hit]
        c._karma_cards = [r[:] for r in self._karma_cards]
        # the finished hands' sheets: a list per hand of a dict (line -> points) per side
        c._hand_sheets = [[d.copy() for d in h] for h in self._hand_sheets]
        # immutable values (ints, bools, tuples, None, enums, the reshuffle hook marked _immutable): shared
        c._target = self._target
        c._extension_called_by = self._extension_called_by
        c._phase = self._phase
        c._player = self._player
        c._cf_hazard = self._cf_hazard
        c._cf_side = self._cf_side
        c._cf_attacker = self._cf_attacker
        c._completer = self._completer
        c._completion_delayed = self._completion_delayed
        c._last_draw = self._last_draw
        c._hand_no = self._hand_no
        c._first_player = self._first_player
        c._winner = self._winner
        c._coup_count = self._coup_count
        c._deal_next = self._deal_next
        c._resume = self._resume
        c._reshuffles = self._reshuffles
        c._stall = self._stall
        c._stall_mark = self._stall_mark
        c._note = self._note
        c._after_draw = self._after_draw
        c._hand_seed = self._hand_seed
        c._reshuffle_hook = _shared_hook(self._reshuffle_hook)
        c._met_no = self._met_no
        c._observers = ()
        return c

    # -- the decision ----------------------------------------------------------
    @property
    def decision(self) -> Decision:
        """What the state waits for: its kind (turn, coup fourré window, extension question, ...) and whose."""
        ph = self._phase
        if ph <= P_PLAY:  # a turn, before or after its draw
            return Decision(_PHASE_KIND[ph], self._player, ph == P_PLAY)
        if ph == P_MULL:  # a mulligan: its draw back is still to come
            return Decision(_PHASE_KIND[ph], self._player, False)
        if ph >= P_HAND_OVER:
            return Decision(_PHASE_KIND[ph], -1)
        return Decision(_PHASE_KIND[ph], self._player)

    @property
    def current_player(self) -> int:
        """Who must decide now (0-based), or -1 when nobody acts (the match is over, or a hand rests)."""
        return self._player if self._phase < P_HAND_OVER else -1

    def is_terminal(self) -> bool:
        return self._phase == P_MATCH_OVER

    @property
    def hand_over(self) -> bool:
        return self._phase >= P_HAND_OVER

    @property
    def match_over(self) -> bool:
        return self._phase == P_MATCH_OVER

    @property
    def outcome(self) -> Outcome | None:
        """The match's result once it is over (None before): winner side or draw, every hand's sheet."""
        if self._phase != P_MATCH_OVER:
            return None
        assert self._winner is not None  # set (a side, a draw or unfinished) whenever the match is over
        return Outcome.of(self.game, self._winner, self._hand_sheets, self._match_totals, self._completers)

    @property
    def hand_no(self) -> int:
        """The current hand, counted from 0."""
        return self._hand_no

    @property
    def hands_played(self) -> int:
        """Hands over so far in this match."""
        return len(self._hand_sheets)

    @property
    def reshuffles_per_hand(self) -> tuple[int, ...]:
        """How many times each hand over so far shuffled its discard pile into a new draw pile (turn.reshuffles)."""
        return tuple(self._hand_reshuffles)

    @property
    def hand_sheets(self) -> tuple[list[dict[str, int]], ...]:
        """The score sheet of every hand over so far (copies), one dict of lines per side."""
        return tuple([dict(line) for line in sheet] for sheet in self._hand_sheets)

    @property
    def queued_turns(self) -> tuple[int, ...]:
        """Coup fourré callers whose extra turn waits for the turn in progress to end (option
        queued-coup-fourre-turn), in the order they will play; empty otherwise."""
        return tuple(self._queued)

    @property
    def match_totals(self) -> tuple[int, ...]:
        """Each side's running total over the hands that are over."""
        return tuple(self._match_totals)

    @property
    def history(self) -> tuple[tuple[int, int], ...]:  # (player, Action), or the (-1, -1) mark
        """Every accepted action as ``(player, action)``; ``(-1, -1)`` marks the start of a new hand."""
        return tuple(self._history)

    def race(self) -> "Race":
        """The race as a fast play-out policy reads it, cheap to take every turn: its per-side values are
        views of the live table, valid until the next action, and never to be written."""
        return Race(self._target, len(self._stock), self._miles, self._played, self._bhaz, self._rolling)

    def observation(self, player: int) -> Observation:
        """What ``player`` may see now: its own hand, the table, counts; never another hand or the draw order."""
        if not 0 <= player < self.game.players:
            raise ValueError(f"there is no player #{player} in a {self.game.players}-player game")
        return Observation.of(self, player)

    def snapshot(self) -> Snapshot:
        """The whole position, hidden cards included: for replay, recorders and checkers, never for bots."""
        return Snapshot(self)

    def add_observer(self, observer: Observer) -> None:
        """Call ``observer`` around every accepted action, at each hand's end and at the match's end."""
        self._observers = (*self._observers, observer)
        h = self._history
        if (not h or h[-1] == (-1, -1)) and self._phase < P_HAND_OVER:
            observer.hand_start(self)  # the hand has not begun: this observer hears its start too

    def remove_observer(self, observer: Observer) -> None:
        self._observers = tuple(o for o in self._observers if o is not observer)

    def __repr__(self) -> str:
        g = self.game
        d = self.decision
        who = f" {g.player_names[d.player]}" if d.player >= 0 else ""
        miles = ", ".join(f"{g.side_names[s]} {m}" for s, m in enumerate(self._miles))
        return (
            f"<State {g.ruleset_id} hand {self._hand_no + 1}: {d.kind}{who}; miles {miles} "
            f"of {self._target}; {len(self._stock)} to draw>"
        )

    # -- applying --------------------------------------------------------------
    def step(self, action: ActionLike) -> None:
        """:meth:`apply` for the one who decides, without building the :class:`Transition`: the
        loops that play many matches (simulate, a bot's search) and read no record. The same
        checks and the same game; a refusal raises as :meth:`apply` does."""
        if type(action) is _ACTION and not self._observers and self._quick(action):
            if self._phase == P_HAND_OVER and self._deal_next:
                self.next_hand()
            return
        self._apply(action, None, False)  # the rest, observers, refusals: the general path (no record)

    def _quick(self, action: Action) -> bool:
        """The fast path of :meth:`step`, :meth:`step_next` and :meth:`apply`: the commonest actions of
        whoever decides, with no observer, checked by the same ``_verify_*`` calls that :meth:`_verify`
        makes for them (whoever decides acts, so no turn code applies) and carried out. Whether it took
        ``action``; when it did not, nothing changed and the general path (which gives a refusal its
        code and sentence) takes it. The next deal is the caller's."""
        ph = self._phase
        if ph == P_PLAY:
            p = self._player
            code: int = action  # op, card and side read from the int (an Action's attributes: __dict__ lookups)
            op = code & ACTION_OP_MASK
            if op == DISCARD:
                c = code >> ACTION_OP_BITS & ACTION_CARD_MASK  # action.card_index
                # Game.discard_free: holding the card is _verify_discard's one check (the common case, asked here)
                if (c in self._hands[p]) if self.game.discard_free else self._verify_discard(p, c) is None:
                    self._discard_card(p, c)
                    return True
            elif op == PLAY:
                ts = (code >> ACTION_SIDE_SHIFT) - 1  # action.side_index (OWN: none named)
                if ts == OWN:
                    ts = self._target_side(p, action)
                c = code >> ACTION_OP_BITS & ACTION_CARD_MASK
                if self._verify_play(p, c, ts) is None:
                    self._play(p, c, ts)
                    return True
            return False
        if ph == P_DRAW:
            if action == ACTION_DRAW and self.game.plain_draws:  # the phase is a draw's: it may be taken
                self._draw_plain(self._player)  # a draw from the top, as the books have it, never ends a hand
                return True
        return False

    def step_next(self, action: ActionLike) -> list[Action]:
        """:meth:`step`, then the draws that follow it where drawing is all the player may do, then the
        legal actions of the decision reached: ``step(action)``, ``step(draw)`` while ``legal_actions()``
        is only the draw, and ``legal_actions()``, in one call. The match loop's
        (:meth:`mbrules.seats.SeatLoop.play`), which never asks a seat to draw when drawing is all it may do.

        The same checks and the same game as those calls one by one."""
        if type(action) is not _ACTION or self._observers:
            self._apply(action, None, False)  # words, ints, observers: the general path (it deals the next hand)
            return self._next_decision()
        code: int = action
        p = self._player
        g = self.game
        if (
            self._phase == P_PLAY
            and code & ACTION_OP_MASK == DISCARD
            and g.discard_free
            and (c := code >> ACTION_OP_BITS & ACTION_CARD_MASK) in (hand := self._hands[p])
        ):
            if g.discard_then_draw and self._resume < 0:
                # the commonest turn, written out: effects' _discard_card, then _end_turn's next player
                self._history.append(g.discard_entries[p][c])
                hand.remove(c)
                self._discard.append(c)
                self._face_up[c] += 1
                q = p + 1
                if q == g.players:
                    q = 0
                if self._stock:
                    self._player = q
                    self._phase = P_DRAW  # that player's lone draw is taken below
                else:
                    self._start_turn(q)  # the draw pile out: the next player holding a card plays, or none
            else:
                self._discard_card(p, c)  # _quick's commonest case written out (a call fewer at most turns)
        elif not self._quick(action):
            self._apply(action, None, False)  # the rest, refusals: the general path (it deals the next hand)
            return self._next_decision()
        if self._phase == P_DRAW and g.lone_plain_draw:
            # legal_actions() would be [draw], step(draw) this: turn's _draw_plain written out (a call fewer a turn;
            # no observer here)
            p = self._player
            self._history.append(g.draw_entries[p])  # (p, the draw), built once per seat
            c = self._stock.pop()
            self._hands[p].append(c)
            self._last_draw = c
            self._phase = P_PLAY
            return self.legal_actions()
        return self._next_decision()

    def _next_decision(self) -> list[Action]:
        """:meth:`step_next`'s end but for its commonest case (a turn's lone draw): the next hand dealt where the
        match deals it, the draws taken while drawing is all the player may do, the legal actions then."""
        if self._phase == P_HAND_OVER and self._deal_next:
            self.next_hand()
        acts = self.legal_actions()
        while len(acts) == 1 and acts[0].op == DRAW:  # each draw takes a card or ends a mulligan: it ends
            self.step(acts[0])
            acts = self.legal_actions()
        return acts

    def apply(self, action: ActionLike, player: int | None = None) -> Transition:
        """Apply ``action`` (an :class:`Action`, its int, or its words) for ``player`` (None: whoever decides).

        Returns what happened: a frozen :class:`Transition` (who acted, the card drawn, the cards
        swept to the discard pile, who decides next, whether the hand or the match ended...), also
        given to every observer's ``transition`` hook. Raises :class:`IllegalAction` with the
        contract's reason code; the state is then left exactly as it was. Text that is not an
        action raises :class:`NotationError`.
        """
        if type(action) is _ACTION and player is None and not self._observers:
            p = self._player
            n_stock, n_discard = len(self._stock), len(self._discard)
            note, more = self._note, self._drawn_more
            self._note = 0  # what this action's draws do (a safety's replacement draw), noted afresh
            self._drawn_more = []
            if self._quick(action):
                t = self._record(p, action, n_stock, n_discard)
                if self._phase == P_HAND_OVER and self._deal_next:
                    self.next_hand()
                return t
            self._note, self._drawn_more = note, more  # not taken here: a refusal leaves the state as it was
        made = self._apply(action, player, True)
        assert made is not None  # asked for
        return made

    def _apply(self, action: ActionLike, player: int | None, record: bool) -> Transition | None:
        """:meth:`apply`'s general path: every action, observers, refusals (the fast path tried first, or not
        fit: a caller whose fast path refused the action comes here straight). The :class:`Transition`,
        built only when ``record`` asks for it or an observer hears it (step and step_next read none)."""
        try:
            a = action if type(action) is _ACTION else self._as_action(action)
            if player is not None:
                self._check_player(player)
            why = self._verify(a, player)
            if why is not None:
                raise IllegalAction(why, self._sentence(why, a, player))
        except (IllegalAction, NotationError) as exc:
            actor = self._player if player is None else player
            for o in self._observers:
                o.refused(self, actor, action, exc)  # a human seat shows it; a soak calls it a bot's bug
            raise
        actor = self._player if player is None else player
        observers = self._observers
        for o in observers:
            o.before_action(self, actor, a)
        n_stock, n_discard = len(self._stock), len(self._discard)
        self._note = 0  # what this action's draws do, noted afresh
        self._drawn_more = []
        self._do(a, player)
        t = self._record(actor, a, n_stock, n_discard) if record or observers else None
        if observers:
            assert t is not None  # built for them
            for o in observers:
                o.after_action(self, actor, a)
                o.transition(self, t)
            if self._phase >= P_HAND_OVER:
                for o in observers:
                    o.hand_over(self)
                if self._phase == P_MATCH_OVER:
                    for o in observers:
                        o.match_over(self)
                    return t
        if self._phase == P_HAND_OVER and self._deal_next:
            self.next_hand()
        return t

    def _record(self, p: int, a: Action, n_stock: int, n_discard: int) -> Transition:
        """What ``p``'s action ``a`` just did, read before any next deal (``n_stock``, ``n_discard``: the
        draw and discard piles' sizes before it): the one place a :class:`Transition` is built."""
        g = self.game
        op = a.op
        ph = self._phase
        ps = g.side_of[p]
        note = self._note
        # the card this action drew for its actor: a plain turn draw (the books' draw), or one noted DREW
        plain = op == DRAW and g.plain_draws and not a.from_discard and not note & MULLIGAN_ENDED
        drawn = self._last_draw if (plain or note & DREW) else -1
        # a draw from the discard pile or a reshuffle changed the discard pile: it swept nothing (the one
        # action that does both, a coup fourré whose replacement draw reshuffles, names its hazard anyway)
        swept = (
            ()
            if note & (RESHUFFLED | FROM_DISCARD_PILE)
            else self._discard[n_discard + 1 if op in (DISCARD, MULLIGAN) else n_discard :]
        )
        ts = hazard = -1
        extra = done = queued = False
        if op == PLAY:
            ts = self._target_side(p, a)  # the side named, or the one the engine resolved it to
            k = g.kind[a.card_index]
            if k == DISTANCE:
                done = self._miles[ps] >= self._target
            elif k == SAFETY:  # no extra turn once the draw pile is out, where the ruleset says so
                done = g.safety_distance > 0 and self._completer == ps  # option safety-distance: its miles completed it
                extra = (
                    g.safety_extra_turn
                    and ph < P_HAND_OVER
                    and not done
                    and (n_stock > 0 or not g.safety_extra_turn_needs_draw_pile or self._can_draw())
                )
        elif op == COUP_FOURRE:
            ts = ps
            hazard = self._cf_hazard
            done = g.safety_distance > 0 and self._completer == ps  # option safety-distance
            queued = g.coup_fourre_bonus_turn_queued and p in self._queued  # waits for the turn in progress
            extra = g.coup_fourre_extra_turn and not g.coup_fourre_bonus_turn_queued and ph < P_HAND_OVER and not done
        elif op == FAST_PLAY:
            ts = ps
            hazard = self._cf_hazard
        elif op == DECLINE:
            hazard = self._cf_hazard
        over = ph >= P_HAND_OVER
        lost: tuple[int, ...] = ()
        if note & (KARMA_SHUNNED | KARMA_NEUTRALISED):  # ruleset 'karma': the attacker, and its target if neutralised
            lost = (ps, ts) if note & KARMA_NEUTRALISED else (ps,)
        return Transition(
            player=p,
            action=a,
            hand_no=self._hand_no,
            drawn=drawn,
            side=ts,
            swept=tuple(swept),
            window_hazard=hazard,
            miles=self._miles[ps],
            target=self._target,
            trip_completed=done,
            extra_turn=extra,
            next_player=-1 if over else self._player,
            next_decision=_PHASE_KIND[ph],
            hand_over=over,
            match_over=ph == P_MATCH_OVER,
            reshuffled=bool(note & RESHUFFLED),
            from_discard=bool(note & FROM_DISCARD_PILE),
            drawn_more=tuple(self._drawn_more),
            queued_turn=queued,
            karma_lost=lost,
            neutralised=bool(note & KARMA_NEUTRALISED),
            karma_regained=bool(note & KARMA_REGAINED),
        )

    def _do(self, a: Action, player: int | None) -> None:
        """Carry out an action :meth:`_verify` accepted."""
        op = a.op
        p = self._player
        if op == DRAW:
            if a.from_discard:
                self._draw_from_discard(p)
            elif self._phase == P_MULL:
                self._end_mulligan(p)
            else:
                self._draw(p)
        elif op == MULLIGAN:
            self._mulligan(p, a)
        elif op == PLAY:
            ts = a.side_index
            if ts == OWN:
                ts = self._target_side(p, a)
            self._play(p, a.card_index, ts)
        elif op == DISCARD:
            self._discard_card(p, a.card_index)
        elif op == COUP_FOURRE:
            self._coup_fourre(a, p if player is None else player)
        elif op == FAST_PLAY:
            self._fast_play(a, p if player is None else player)
        elif op == DECLINE:
            self._history.append((p, a))
            self._decline()
        else:
            self._history.append((p, a))
            self._answer_extension(op == EXTEND)


# State's slots, the fields a pickle holds (__reduce__; clone() writes each out by hand). Compiled by mypyc, the
# class lists them as __mypyc_attrs__, and its __new__ runs __init__: clone and unpickling then start from a
# fresh State, every field of which they overwrite
_BLANK_NEW = hasattr(State, "__slots__")
# (once each: __mypyc_attrs__ names a trait's fields again for every room that derives from it, 68 names for 57)
_STATE_SLOTS: tuple[str, ...] = tuple(
    dict.fromkeys(getattr(State, "__slots__", None) or getattr(State, "__mypyc_attrs__"))
)


def _blank_state(game: Game) -> State:
    """A State whose every slot the caller sets (clone, unpickling): blank where the class allows it (pure,
    ``__slots__``), else a fresh one for the game (compiled: its ``__new__`` runs ``__init__``)."""
    return State.__new__(State) if _BLANK_NEW else State(game, 0)


def _unpickled_state(game: Game, values: tuple[Any, ...]) -> State:
    """A State from :meth:`State.__reduce__`'s fields, in ``_STATE_SLOTS``' order."""
    st = _blank_state(game)
    for name, value in zip(_STATE_SLOTS, values):
        setattr(st, name, value)
    # legality's memo tells an unjudged card by the identity of UNJUDGED, which a pickled copy of the
    # string does not keep: the memo starts empty (it is derived, refilled on the next legal_actions)
    st._can = [[UNJUDGED] * game.n_cards for _ in st._can]
    st._hit = [[UNJUDGED] * game.n_cards for _ in st._hit]
    st._rng = _copied_rng(st._rng)  # pickled as a plain random.Random (rng.MatchRandom.__reduce__)
    return st


def _shared_hook(hook: Any) -> Any:
    """The reshuffle hook a clone shares: None, or one marked ``_immutable`` (compact.set_reshuffle_hook); another
    is refused rather than shared between a state and its clone."""
    if hook is None or getattr(type(hook), "_immutable", False):
        return hook
    raise TypeError(f"State.clone() cannot share a reshuffle hook of type {type(hook).__name__}: mark it _immutable")
