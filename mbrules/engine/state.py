"""The state of a match: the current hand, its decision point, and the running score.

OpenSpiel's shape: ``current_player``, ``legal_actions()``, ``apply(action)``,
``is_terminal()``, ``clone()``, ``observation(player)``. Legality lives in one place per
operation (PokerKit's ``verify_X``): :meth:`State._verify` checks any action in the
contract's order and calls the one check of its kind (``_verify_draw``,
``_verify_play``, ``_verify_discard``, ``_verify_coup_fourre``, ``_verify_decline``,
``_verify_answer``); ``legal_actions()`` lists the actions those same checks accept,
so the two cannot disagree. Every branch is switched by a table of :class:`Game`,
never by the edition's name; the comment on each cites the ruling it plays.

Everything whose name starts with ``_`` is private to :mod:`mbrules.engine`: tools
read a position through ``observation(player)`` (what one seat may see) or
``snapshot()`` (everything, for replay, recorders and checkers).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, NamedTuple, Sequence

from .actions import (
    ALREADY_LIMITED, BAD_TARGET, CANNOT_MOVE, COUP_FOURRE_WINDOW, EXTENSION_PENDING, EXTENSION_QUESTION,
    HAND_OVER, HAND_OVER_CODE, MATCH_OVER, MUST_PLAY, NO_COUP_FOURRE, NO_EXTENSION, NOT_IN_HAND, NOT_ROLLING,
    NOT_YOUR_TURN, NOTHING_TO_FIX, OVER_TARGET, PROTECTED, SPEED_LIMIT, TOO_MANY_200, TURN, Decision,
    IllegalAction, NOT_DISCARDABLE, OTHER_HAZARD, PLAYABLE_CARD, ROLLING_SAFETY, SAME_HAZARD,
)
from ..vocab import BATTLE, SPEED, DISTANCE, HAZARD, NO_LIMIT, REMEDY, SAFETY, SCORE_LINES, DecisionKind, Reason, Termination
from ..vocab import COUP_FOURRE, DECLINE, DISCARD, DRAW, EXTEND, OWN, PLAY, STOP
from .notation import Action, NotationError, parse
from .observation import Observation, Observer, Outcome, Snapshot
from .transition import Transition

if TYPE_CHECKING:
    from .game import Game


# Phases
P_DRAW, P_PLAY, P_COUP, P_EXT, P_HAND_OVER, P_MATCH_OVER = range(6)
_PHASE_KIND = (TURN, TURN, COUP_FOURRE_WINDOW, EXTENSION_QUESTION, HAND_OVER, MATCH_OVER)
_new_transition = tuple.__new__  # Transition(...) without its keyword-taking __new__: one per action


class Race(NamedTuple):
    """What :meth:`State.race` shows: the table as a play-out policy reads it, a value per side (views of
    the live table: read them before the next action, never write them)."""

    target: int  # the trip's length now
    draw_pile: int  # cards left to draw
    miles: Sequence[int]
    played: Sequence[Sequence[int]]  # distance cards played this hand, a count per card index
    hazard: Sequence[int]  # the hazard stopping the side on its battle pile, -1 for none
    rolling: Sequence[bool]  # may play distance (no hazard showing, a go card or rolling safety)


class State:
    """A match in progress. Cards are ints (indices into ``game.card_ids``); players and sides are ints."""

    __slots__ = (
        "game", "_rng", "_hands", "_stock", "_discard", "_battle", "_speed", "_miles", "_played", "_safeties",
        "_coups", "_prot", "_row", "_needs_go", "_rolling", "_bhaz", "_limit", "_lhaz", "_target",
        "_extension_called_by", "_phase", "_player", "_cf_queue", "_cf_hazard", "_cf_side", "_cf_attacker",
        "_completer", "_completion_delayed", "_last_draw", "_hand_no", "_first_player", "_match_totals",
        "_hand_sheets", "_winner", "_history", "_coup_count", "_deal_next", "_observers",
        "_completers", "_can", "_hit", "_face_up", "_bmask",
    )

    # -- construction ----------------------------------------------------------
    def __init__(self, game: Game, seed: int | None = None):
        self.game = game
        self._rng = random.Random(seed)
        self._hand_no = 0
        self._first_player = 0
        self._match_totals = [0] * game.sides
        self._hand_sheets: list[list[dict[str, int]]] = []
        self._completers: list[int] = []  # per hand over: the side that completed the trip, or -1
        self._winner = None  # side index, Termination.DRAW or .UNFINISHED, or None while undecided
        self._history: list[tuple[int, int]] = []  # (player, action); (-1, -1) marks a new hand
        self._deal_next = False  # deal the next hand as soon as one ends (matches from new_match)
        self._observers: tuple = ()
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
        discard: list[int] = (),
        sides: dict[int, dict[str, list[int]]] | None = None,
        turn: int = 0,
        extension_called_by: int = -1,
        match_totals: list[int] | None = None,
        seed: int = 0,
    ) -> "State":
        """A hand set up card by card (scenarios): cards are indices, players and sides ints.

        ``sides[s]`` may hold ``battle``, ``speed``, ``distance`` (bottom first), ``safeties``
        and ``coups``. The caller is responsible for the cards adding up to the deck.
        """
        st = cls(game, seed)
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
        discard: list[int],
        sides: dict[int, dict],
        target: int,
        extension_called_by: int = -1,
        hand_no: int = 0,
        match_totals: list[int] | None = None,
        window: tuple[int, int, int, list[int]] | None = None,
        seed: int | None = None,
    ) -> "State":
        """A hand set up card by card and waiting at ``decision`` (a search bot's sampled world).

        ``sides[s]`` is as for :meth:`from_position`, plus ``moving``: False for a side whose
        safety lets it roll but which still needs a go card (option roll-after-safety).
        ``decision`` is a TURN (``drawn`` says whether its draw happened), an EXTENSION_QUESTION
        (the asker's side completed the trip) or a COUP_FOURRE_WINDOW, whose ``window`` is
        ``(hazard, side hit, attacker, players still to answer)``: the first of them decides.
        ``hand_no`` hands are counted as played before this one (for the match's hands cap).
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
        st._player = decision.player
        if decision.kind == TURN:
            st._phase = P_PLAY if decision.drawn else P_DRAW
        elif decision.kind == EXTENSION_QUESTION:
            st._phase = P_EXT
            st._completer = game.side_of[decision.player]
            st._completion_delayed = not st._stock
        elif decision.kind == COUP_FOURRE_WINDOW and window is not None:
            st._phase = P_COUP
            st._cf_hazard, st._cf_side, st._cf_attacker, queue = window
            st._cf_queue = list(queue)
            st._player = st._cf_queue[0]  # the window waits for the first of those still to answer
        else:
            raise ValueError(f"no position waits at a {decision.kind} decision"
                             + (" without its window" if decision.kind == COUP_FOURRE_WINDOW else ""))
        return st

    def _lay_table(self, hands, draw_top_first, discard, sides, match_totals) -> None:
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
            self._coups[side] = list(piles.get("coups", ()))
            self._coup_count += len(self._coups[side])
            for c in self._safeties[side] + self._coups[side]:
                self._prot[side] |= game.protects_mask[c]
                if game.grants_rolling[c]:
                    self._row[side] = True
        for side in range(game.sides):
            self._refresh(side)
        for c in self._discard:
            self._face_up[c] += 1
        for piles in (self._battle, self._speed, self._safeties, self._coups):
            for pile in piles:
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
        self._can: list[dict[int, str | None]] = [{} for _ in range(S)]
        self._hit: list[dict[int, str | None]] = [{} for _ in range(S)]
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

    def next_hand(self) -> None:
        """Deal the next hand of the match; the deal passes to the left (rulings: The match)."""
        if self._phase != P_HAND_OVER:
            raise IllegalAction(NOT_YOUR_TURN, "the next hand is dealt only when this hand is over and the match is not")
        self._hand_no += 1
        if self.game.deal_passes_left:
            self._first_player = (self._first_player + 1) % self.game.players
        self._history.append((-1, -1))
        self._deal()

    def clone(self) -> "State":
        """An independent copy: every slot copied by its type, so a new field cannot be shared by mistake.

        Observers stay with the original (a bot searching a clone must not narrate it).
        """
        c = State.__new__(State)
        for name in State.__slots__:
            setattr(c, name, _copy(getattr(self, name)))
        c._observers = ()
        return c

    # -- derived side state ----------------------------------------------------
    def _refresh(self, s: int) -> None:
        """Recompute what a side's piles allow: rolling, the active hazards, the speed limit."""
        g = self.game
        self._can[s].clear()
        self._hit[s].clear()
        b = self._battle[s]
        top = b[-1] if b else -1
        prot = self._prot[s]
        if g.stacked_hazards:
            bh = self._refresh_stack(s)  # option stacked-hazards: every hazard in force, not only the top one
        else:
            bh = top if (top >= 0 and g.kind[top] == HAZARD and not prot & g.bit[top]) else -1
        self._bhaz[s] = bh
        if bh >= 0:
            rolling = False  # a hazard showing stops the side (WM §6A)
        elif self._needs_go[s] and not self._row[s]:
            rolling = False  # option roll-after-safety: a go card must follow
        elif top >= 0 and g.moves[top]:
            rolling = True  # Roll on top (WM §6A); option remedy-restarts: a restarting remedy too
        else:
            rolling = self._row[s]  # Right of Way: rolling with no Roll (WM §6B)
        self._rolling[s] = rolling
        sp = self._speed[s]
        t = sp[-1] if sp else -1
        if t >= 0 and g.kind[t] == HAZARD and not prot & g.bit[t]:
            self._lhaz[s] = t
            self._limit[s] = g.limit[t]
        else:
            self._lhaz[s] = -1
            self._limit[s] = NO_LIMIT

    def _stack_positions(self, s: int) -> list[int]:
        """Option stacked-hazards: where the battle hazards not yet fixed lie in side ``s``'s battle pile.

        The pile is read in play order: a hazard joins the stack, a remedy takes off the latest hazard
        it fixes (docs/conformance.md, rulings of the options). Protection is applied by the caller."""
        g = self.game
        kind, fixes = g.kind, g.fixes_mask
        b = self._battle[s]
        at: list[int] = []
        for i, c in enumerate(b):
            k = kind[c]
            if k == HAZARD:
                at.append(i)
            elif k == REMEDY:
                fx = fixes[c]
                for j in range(len(at) - 1, -1, -1):
                    if fx >> b[at[j]] & 1:
                        del at[j]
                        break
        return at

    def _refresh_stack(self, s: int) -> int:
        """Option stacked-hazards: the side's hazards in force (``_bmask``); the latest of them, or -1."""
        g = self.game
        prot = self._prot[s]
        b = self._battle[s]
        active = [b[i] for i in self._stack_positions(s) if not prot & g.bit[b[i]]]
        mask = 0
        for c in active:
            mask |= g.bit[c]
        self._bmask[s] = mask
        return active[-1] if active else -1

    def battle_hazards(self, s: int) -> tuple[int, ...]:
        """The battle hazards in force on side ``s``, in play order: with option stacked-hazards every one
        not yet fixed, else at most the one on top."""
        if not self.game.stacked_hazards:
            h = self._bhaz[s]
            return (h,) if h >= 0 else ()
        g = self.game
        b = self._battle[s]
        return tuple(b[i] for i in self._stack_positions(s) if not self._prot[s] & g.bit[b[i]])

    # -- the decision ----------------------------------------------------------
    @property
    def decision(self) -> Decision:
        """What the state waits for: its kind (turn, coup fourré window, extension question, ...) and whose."""
        ph = self._phase
        if ph == P_DRAW:
            return Decision(TURN, self._player, False)
        if ph == P_PLAY:
            return Decision(TURN, self._player, True)
        if ph == P_COUP:
            return Decision(COUP_FOURRE_WINDOW, self._player)
        if ph == P_EXT:
            return Decision(EXTENSION_QUESTION, self._player)
        if ph == P_HAND_OVER:
            return Decision(HAND_OVER, -1)
        return Decision(MATCH_OVER, -1)

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
    def hand_sheets(self) -> tuple[list[dict[str, int]], ...]:
        """The score sheet of every hand over so far (copies), one dict of lines per side."""
        return tuple([dict(line) for line in sheet] for sheet in self._hand_sheets)

    @property
    def match_totals(self) -> tuple[int, ...]:
        """Each side's running total over the hands that are over."""
        return tuple(self._match_totals)

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        """Every accepted action as ``(player, action)``; ``(-1, -1)`` marks the start of a new hand."""
        return tuple(self._history)

    def turn_player(self) -> int:
        """Who plays the next turn (for a coup fourré window: the attacker's left, if it is declined)."""
        if self._phase in (P_DRAW, P_PLAY, P_EXT):
            return self._player
        if self._phase == P_COUP:
            return self._next_with_cards((self._cf_attacker + 1) % self.game.players)
        return -1

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

    def remove_observer(self, observer: Observer) -> None:
        self._observers = tuple(o for o in self._observers if o is not observer)

    def __repr__(self) -> str:
        g = self.game
        d = self.decision
        who = f" {g.player_names[d.player]}" if d.player >= 0 else ""
        miles = ", ".join(f"{g.side_names[s]} {m}" for s, m in enumerate(self._miles))
        return (f"<State {g.ruleset_id} hand {self._hand_no + 1}: {d.kind}{who}; miles {miles} "
                f"of {self._target}; {len(self._stock)} to draw>")

    # -- legality: the one place per operation ---------------------------------------
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
            if ts == ps or ts < 0 or ts >= self.game.sides:
                return BAD_TARGET  # hazards go on an opponent's pile (WM §4)
            if self._prot[ts] & bit:
                return PROTECTED  # a safety protects the side (WM §6B)
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
            if go and self._row[ps] and self.game.go_blocked_by_row:
                return ROLLING_SAFETY  # option no-roll-under-right-of-way: no go card under a rolling safety
            if pile != SPEED:  # the battle pile, or both piles (a combination remedy): battle first
                h = self._bhaz[ps]
                if h >= 0:
                    if self.game.stacked_hazards:  # option stacked-hazards: any hazard in force it fixes
                        mask = self._bmask[ps]
                        if fixes & mask:
                            return OTHER_HAZARD if go and mask & ~fixes else None  # the Roll comes last
                    elif fixes >> h & 1:
                        return None
                    if pile == BATTLE:
                        return NOTHING_TO_FIX
                elif pile == BATTLE:
                    if not go:
                        return NOTHING_TO_FIX  # a remedy only on its own hazard showing (WM §2)
                    b = self._battle[ps]
                    if b and self.game.moves[b[-1]] and not self._needs_go[ps]:
                        return NOTHING_TO_FIX  # no Roll on a Roll (rulings: Play), nor on a restarting remedy
                    return None
            h = self._lhaz[ps]
            return None if (h >= 0 and fixes >> h & 1) else NOTHING_TO_FIX
        return None  # a safety may always be played (WM §5B)

    def _target_side(self, p: int, a: Action) -> int:
        """The side a play lands on: the one named, else one's own (a hazard: the only opposing side, or -1)."""
        ts = a.side_index
        if ts != OWN:
            return ts
        g = self.game
        ps = g.side_of[p]
        if g.kind[a.card_index] == HAZARD:
            opp = g.opponents[ps]
            return opp[0] if len(opp) == 1 else -1
        return ps

    def _verify_draw(self) -> str | None:
        """The draw starts a turn, once (WM §5)."""
        return None if self._phase == P_DRAW else NOT_YOUR_TURN

    def _verify_play(self, p: int, c: int, ts: int) -> str | None:
        """``p``, whose turn it is and who has drawn, plays card ``c`` on side ``ts``."""
        if c not in self._hands[p]:
            return NOT_IN_HAND
        return self._play_reason(self.game.side_of[p], c, ts)

    def _discard_allowed(self, can_play: bool) -> bool:
        """Option no-voluntary-discard: a discard only when no card can be played (rulings: Play)."""
        return self.game.voluntary_discard or not can_play

    def _can_play(self, p: int) -> bool:
        g = self.game
        ps = g.side_of[p]
        for c in set(self._hands[p]):
            targets = g.opponents[ps] if g.kind[c] == HAZARD else (ps,)
            if any(self._play_reason(ps, c, ts) is None for ts in targets):
                return True
        return False

    def _verify_discard(self, p: int, c: int) -> str | None:
        """``p``, whose turn it is and who has drawn, discards card ``c``.

        The card's own checks first (a kind never discarded, a card that could be played), then
        must-play (contract: last). A player who could neither play nor discard any card may discard
        anything (docs/conformance.md, rulings of the options): a position never leaves its player without a move."""
        if c not in self._hands[p]:
            return NOT_IN_HAND
        g = self.game
        if g.discard_free:
            return None
        if g.undiscardable[c] and (self._can_play(p) or not all(g.undiscardable[x] for x in self._hands[p])):
            return NOT_DISCARDABLE  # option safeties-not-discardable (BSD mille move.c)
        if not g.discard_playable and self._card_playable(p, c):
            return PLAYABLE_CARD  # option playable-not-discardable (PlayPalace always_allow_discarding off)
        if self._discard_allowed(self._can_play(p)):
            return None
        return MUST_PLAY

    def _card_playable(self, p: int, c: int) -> bool:
        """Whether ``p`` could play card ``c`` now on some side."""
        g = self.game
        ps = g.side_of[p]
        targets = g.opponents[ps] if g.kind[c] == HAZARD else (ps,)
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

    def _verify_decline(self, q: int | None) -> str | None:
        """Only the player whose window it is lets it pass."""
        if self._phase != P_COUP:
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
            return HAND_OVER_CODE
        if ph == P_EXT and op != EXTEND and op != STOP:
            return EXTENSION_PENDING
        if op == EXTEND or op == STOP:
            return self._verify_answer(q)
        if op == COUP_FOURRE:
            return self._verify_coup_fourre(self._player if q is None else q, a.card_index)
        if op == DECLINE:
            return self._verify_decline(q)
        if ph == P_COUP or (q is not None and q != p):
            return NOT_YOUR_TURN
        if op == DRAW:
            return self._verify_draw()
        if ph == P_DRAW:
            return NOT_YOUR_TURN  # a turn starts with the draw
        if op == DISCARD:
            return self._verify_discard(p, a.card_index)
        return self._verify_play(p, a.card_index, self._target_side(p, a))

    def verify(self, action, player: int | None = None) -> None:
        """Raise :class:`IllegalAction` (reason code and sentence) unless ``player`` may take ``action`` now."""
        a = self._as_action(action)
        why = self._verify(a, self._check_player(player))
        if why is not None:
            raise IllegalAction(why, self._sentence(why, a, player))

    def can_apply(self, action, player: int | None = None) -> bool:
        """Whether :meth:`apply` would accept ``action`` from ``player`` (None: whoever decides now)."""
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
            kind = g.kind
            play = g.play_action
            own = g.play_own
            opponents = g.opponents[ps]
            reason = self._play_reason  # _verify_play's card checks: every card here is in the hand
            can = self._can[ps]  # its answers, remembered until the side changes
            hit = self._hit
            acts = []
            cards = dict.fromkeys(self._hands[p])  # the hand's distinct cards, in hand order
            for c in cards:
                if kind[c] == HAZARD:
                    row = play[c]
                    for ts in opponents:
                        memo = hit[ts]
                        why = memo.get(c, 0)
                        if why == 0:
                            why = memo[c] = reason(ps, c, ts)  # a hazard's checks read only the side hit
                        if why is None:
                            acts.append(row[ts])
                else:
                    why = can.get(c, 0)
                    if why == 0:
                        why = can[c] = reason(ps, c, ps)
                    if why is None:
                        acts.append(own[c])
            if g.discard_free:
                da = g.discard_action
                acts += [da[c] for c in cards]
            elif g.voluntary_discard or self._discard_allowed(bool(acts)):
                da = g.discard_action
                acts += [da[c] for c in cards if self._verify_discard(p, c) is None]
            return acts
        if ph == P_DRAW:
            return [self.game.draw_action]
        if ph == P_COUP:
            g = self.game
            p = self._player
            acts = [g.coup_action[c] for c in g.protectors[self._cf_hazard] if self._verify_coup_fourre(p, c) is None]
            acts.append(g.decline_action)
            return acts
        if ph == P_EXT:
            return [self.game.extend_action, self.game.stop_action]
        return []

    # -- applying --------------------------------------------------------------
    def _as_action(self, action) -> Action:
        if type(action) is Action:
            return action
        if isinstance(action, str):
            return parse(action, self.game)
        a = self.game.actions.get(action) if isinstance(action, int) and not isinstance(action, bool) else None
        if a is None:
            raise IllegalAction(NOT_YOUR_TURN, f"{action!r} is not an action of this game (see mbrules.Action)")
        return a

    def _check_player(self, player: int | None) -> int | None:
        if player is not None and not 0 <= player < self.game.players:
            raise IllegalAction(NOT_YOUR_TURN, f"there is no player #{player} in a {self.game.players}-player game")
        return player

    def step(self, action) -> None:
        """:meth:`apply` for the one who decides, without building the :class:`Transition`: the
        loops that play many matches (simulate, a bot's search) and read no record. The same
        checks and the same game; a refusal raises as :meth:`apply` does."""
        if type(action) is Action and not self._observers:
            ph = self._phase
            op = action.op
            if ph == P_DRAW:
                if op == DRAW and self._verify_draw() is None:
                    self._draw(self._player)  # a draw never ends a hand
                    return
            elif ph == P_PLAY:
                p = self._player
                c = action.card_index
                if op == DISCARD:
                    if self._verify_discard(p, c) is None:
                        self._discard_card(p, action)
                        if self._phase == P_HAND_OVER and self._deal_next:
                            self.next_hand()
                        return
                elif op == PLAY:
                    ts = action.side_index
                    if ts == OWN:
                        ts = self._target_side(p, action)
                    if self._verify_play(p, c, ts) is None:
                        self._play(p, c, ts)
                        if self._phase == P_HAND_OVER and self._deal_next:
                            self.next_hand()
                        return
        self.apply(action)  # the rest, observers, refusals: the general path

    def apply(self, action, player: int | None = None) -> Transition:
        """Apply ``action`` (an :class:`Action`, its int, or its words) for ``player`` (None: whoever decides).

        Returns what happened: a frozen :class:`Transition` (who acted, the card drawn, the cards
        swept to the discard pile, who decides next, whether the hand or the match ended...), also
        given to every observer's ``transition`` hook. Raises :class:`IllegalAction` with the
        contract's reason code; the state is then left exactly as it was. Text that is not an
        action raises :class:`NotationError`.
        """
        if type(action) is Action and player is None and not self._observers:
            # The two commonest cases, checked by the same _verify_* calls that _verify makes for
            # them (whoever decides acts, so no turn code applies); anything else, or a refusal,
            # takes the general path below, which gives the refusal its code and sentence.
            ph = self._phase
            op = action.op
            if ph == P_DRAW:
                if op == DRAW and self._verify_draw() is None:
                    p = self._player
                    self._draw(p)  # a draw never ends a hand; the drawer plays on
                    ps = self.game.side_of[p]
                    return _new_transition(Transition, (
                        p, action, self._hand_no, self._last_draw, -1, (), -1, self._miles[ps], self._target,
                        False, False, p, TURN, False, False))
            elif ph == P_PLAY:
                p = self._player
                c = action.card_index
                # The record is built inline while the hand goes on (a discard never draws nor
                # sweeps; only a safety sweeps); the rare rest goes through _finish.
                if op == DISCARD:
                    if self._verify_discard(p, c) is None:
                        self._discard_card(p, action)
                        ph = self._phase
                        if ph < P_HAND_OVER:
                            return _new_transition(Transition, (
                                p, action, self._hand_no, -1, -1, (), -1, self._miles[self.game.side_of[p]],
                                self._target, False, False, self._player, _PHASE_KIND[ph], False, False))
                        return self._finish(p, action, len(self._stock), len(self._discard) - 1, -1)
                elif op == PLAY:
                    ts = action.side_index
                    if ts == OWN:
                        ts = self._target_side(p, action)
                    if self._verify_play(p, c, ts) is None:
                        g = self.game
                        k = g.kind[c]
                        if k == SAFETY:
                            n_discard = len(self._discard)
                            self._play(p, c, ts)
                            return self._finish(p, action, len(self._stock), n_discard, ts)
                        self._play(p, c, ts)
                        ph = self._phase
                        if ph < P_HAND_OVER:
                            m = self._miles[g.side_of[p]]
                            return _new_transition(Transition, (
                                p, action, self._hand_no, -1, ts, (), -1, m, self._target,
                                k == DISTANCE and m >= self._target, False, self._player, _PHASE_KIND[ph],
                                False, False))
                        return self._finish(p, action, len(self._stock), len(self._discard), ts)
        try:
            a = action if type(action) is Action else self._as_action(action)
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
        ts = self._do(a, player)
        t = self._record(actor, a, n_stock, n_discard, ts)
        if observers:
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

    def _finish(self, p: int, a: Action, n_stock: int, n_discard: int, ts: int) -> Transition:
        """The fast path's end: the record, then the next deal if the hand ended (matches from new_match)."""
        t = self._record(p, a, n_stock, n_discard, ts)
        if self._phase == P_HAND_OVER and self._deal_next:
            self.next_hand()
        return t

    def _record(self, p: int, a: Action, n_stock: int, n_discard: int, ts: int) -> Transition:
        """What ``p``'s action ``a`` just did, read before any next deal (``n_stock``, ``n_discard``: the
        draw and discard piles' sizes before it; ``ts``: the side a played card went to)."""
        g = self.game
        op = a.op
        ph = self._phase
        ps = g.side_of[p]
        drawn = self._last_draw if len(self._stock) < n_stock else -1
        swept = self._discard[n_discard + 1 if op == DISCARD else n_discard:]
        hazard = -1
        extra = done = False
        if op == PLAY:
            k = g.kind[a.card_index]
            if k == DISTANCE:
                done = self._miles[ps] >= self._target
            elif k == SAFETY:
                done = g.safety_miles > 0 and self._completer == ps  # option safety-distance: its miles completed it
                extra = g.safety_extra_turn and ph < P_HAND_OVER and not done
        elif op == COUP_FOURRE:
            ts = ps
            hazard = self._cf_hazard
            done = g.safety_miles > 0 and self._completer == ps  # option safety-distance
            extra = g.cf_extra_turn and ph < P_HAND_OVER and not done
        elif op == DECLINE:
            hazard = self._cf_hazard
        over = ph >= P_HAND_OVER
        return _new_transition(Transition, (
            p, a, self._hand_no, drawn, ts, tuple(swept), hazard, self._miles[ps], self._target, done, extra,
            -1 if over else self._player, _PHASE_KIND[ph], over, ph == P_MATCH_OVER))

    def _do(self, a: Action, player: int | None) -> int:
        """Carry out an action :meth:`_verify` accepted; the side a played card went to (else -1)."""
        op = a.op
        p = self._player
        if op == DRAW:
            self._draw(p)
        elif op == PLAY:
            ts = a.side_index
            if ts == OWN:
                ts = self._target_side(p, a)
            self._play(p, a.card_index, ts)
            return ts
        elif op == DISCARD:
            self._discard_card(p, a)
        elif op == COUP_FOURRE:
            self._coup_fourre(a, p if player is None else player)
        elif op == DECLINE:
            self._history.append((p, a))
            self._decline()
        else:
            self._history.append((p, a))
            self._answer_extension(op == EXTEND)
        return -1

    def _discard_card(self, p: int, a: Action) -> None:
        """``p`` discards (checked by :meth:`_verify_discard`); the turn passes (WM §5)."""
        c = a.card_index
        self._history.append((p, a))
        self._hands[p].remove(c)
        self._discard.append(c)
        self._face_up[c] += 1
        self._end_turn(p)

    def _draw(self, p: int) -> None:
        """The start of a turn: ``p`` takes the top card of the draw pile (WM §5)."""
        self._history.append((p, self.game.draw_action))
        c = self._stock.pop()
        self._hands[p].append(c)
        self._last_draw = c
        self._phase = P_PLAY

    def _play(self, p: int, c: int, ts: int) -> None:
        """``p`` plays card ``c`` on side ``ts`` (checked by :meth:`_verify_play`)."""
        g = self.game
        ps = g.side_of[p]
        k = g.kind[c]
        self._history.append((p, g.play_action[c][ts] if k == HAZARD else g.play_own[c]))
        self._hands[p].remove(c)
        self._face_up[c] += 1
        if k == DISTANCE:
            self._played[ps][c] += 1
            m = self._miles[ps] + g.miles[c]
            self._miles[ps] = m
            self._can[ps].clear()  # miles and 200s played: the side's distance checks change
            if m >= self._target:  # exactly on it, or past it with option overshoot
                self._trip_reached(p, ps)
            else:
                self._end_turn(p)
        elif k == HAZARD:
            (self._battle if g.pile[c] == BATTLE else self._speed)[ts].append(c)
            self._refresh(ts)
            self._open_coup_fourre(p, c, ts)
        elif k == REMEDY:
            pile = g.pile[c]
            if pile == BATTLE or (pile != SPEED and self._fixes_battle(ps, c)):
                self._battle[ps].append(c)
                self._needs_go[ps] = False
            else:
                self._speed[ps].append(c)
            self._refresh(ps)
            self._end_turn(p)
        else:
            self._safeties[ps].append(c)
            self._protect(ps, c, normal=True)
            if g.safety_miles and self._safety_miles(ps):
                self._trip_reached(p, ps)  # option safety-distance: the safety's miles completed the trip
            elif g.safety_extra_turn:
                self._start_turn(p)  # another turn, chained (WM §5B)
            else:
                self._end_turn(p)

    # -- effects -----------------------------------------------------------------
    def _fixes_battle(self, s: int, c: int) -> bool:
        """Whether remedy ``c`` fixes a battle hazard in force on side ``s`` (a combination remedy fixes
        it before a speed limit: docs/conformance.md, rulings of the options)."""
        g = self.game
        h = self._bhaz[s]
        if h < 0:
            return False
        if g.stacked_hazards:
            return bool(g.fixes_mask[c] & self._bmask[s])
        return bool(g.fixes_mask[c] >> h & 1)

    def _safety_miles(self, s: int) -> bool:
        """Option safety-distance: add a safety's miles to side ``s`` unless they would pass the target;
        whether the side has now reached the target (docs/conformance.md, rulings of the options)."""
        m = self._miles[s] + self.game.safety_miles
        if m > self._target:
            return False
        self._miles[s] = m
        self._can[s].clear()  # its distance checks read the miles
        return m >= self._target

    def _protect(self, s: int, c: int, normal: bool) -> None:
        """A safety lands: protect the side and send protected hazards showing to the discard pile."""
        g = self.game
        self._prot[s] |= g.protects_mask[c]
        if g.grants_rolling[c]:
            self._row[s] = True
        if g.safety_discards_hazard or not normal:
            prot = self._prot[s]
            b = self._battle[s]
            swept = False
            if g.stacked_hazards:  # option stacked-hazards: every hazard in force it protects against goes
                for i in reversed(self._stack_positions(s)):
                    if prot & g.bit[b[i]]:
                        self._discard.append(b.pop(i))
                        swept = True
            while b and g.kind[b[-1]] == HAZARD and prot & g.bit[b[-1]]:
                self._discard.append(b.pop())  # 'cancels the attack in progress' (WM §6B)
                swept = True
            sp = self._speed[s]
            while sp and g.kind[sp[-1]] == HAZARD and prot & g.bit[sp[-1]]:
                self._discard.append(sp.pop())
            if swept and normal and g.roll_after_safety:
                self._needs_go[s] = True  # option roll-after-safety: the safety acts as the remedy
        self._refresh(s)

    def _open_coup_fourre(self, attacker: int, hazard: int, ts: int) -> None:
        """After a hazard lands: a window for the holders of a protecting safety, until the next draw (WM §7)."""
        g = self.game
        if g.cf_enabled:
            N = g.players
            queue = []
            prots = g.protectors[hazard]
            for k in range(1, N + 1):
                q = (attacker + k) % N
                if q == attacker:
                    continue
                if not g.cf_any_player and g.side_of[q] != ts:
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
        self._end_turn(attacker)

    def _coup_fourre(self, action: Action, q: int) -> None:
        """``q`` calls a coup fourré (checked by :meth:`_verify_coup_fourre`; WM §7)."""
        g = self.game
        c = action.card_index
        hand = self._hands[q]
        self._history.append((q, action))
        hand.remove(c)
        self._face_up[c] += 1
        qs = g.side_of[q]
        self._coups[qs].append(c)
        self._coup_count += 1
        if self._cf_side == qs:
            pile = (self._battle if g.pile[self._cf_hazard] == BATTLE else self._speed)[qs]
            if pile and pile[-1] == self._cf_hazard:
                self._discard.append(pile.pop())  # the hazard goes to the discard pile (WM §7)
        self._protect(qs, c, normal=False)
        self._cf_queue = []
        if g.cf_replacement_draw and self._stock:
            d = self._stock.pop()  # 'draw one card to bring the number of cards held to six' (WM §7)
            hand.append(d)
            self._last_draw = d
        if g.safety_miles and self._safety_miles(qs):
            self._trip_reached(q, qs)  # option safety-distance: a coup fourré's miles completed the trip
        elif g.cf_extra_turn:
            self._start_turn(q)  # a full turn; players in between lose theirs (WM §7)
        else:
            self._end_turn(self._cf_attacker)

    def _decline(self) -> None:
        self._cf_queue.pop(0)
        if self._cf_queue:
            self._player = self._cf_queue[0]
        else:
            self._end_turn(self._cf_attacker)

    def _trip_reached(self, p: int, ps: int) -> None:
        g = self.game
        self._completer = ps
        self._completion_delayed = not self._stock  # Delayed Action (WM §8)
        if g.extension_to is not None and self._extension_called_by < 0 and self._target < g.extension_to:
            self._phase = P_EXT  # the extension question, once per hand (WM §10C)
            self._player = p
        else:
            self._end_hand()

    def _answer_extension(self, extend: bool) -> None:
        p = self._player
        if extend:
            self._extension_called_by = p
            self._target = self.game.extension_to
            for memo in self._can:
                memo.clear()  # every side's distance is judged against the new target
            self._completer = -1  # 'played as though it had always been for a trip of 1000 miles'
            self._completion_delayed = False
            self._end_turn(p)
        else:
            self._end_hand()

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

    # -- scoring -----------------------------------------------------------------
    def current_completer(self) -> int:
        if self._completer >= 0:
            return self._completer
        for s, m in enumerate(self._miles):
            if m >= self._target:  # past it only with option overshoot
                return s
        return -1

    def score_sheet(self) -> list[dict[str, int]]:
        """This hand's score lines per side (WM §8); before the hand ends, as if it ended now."""
        g = self.game
        S = g.sides
        sheet = [dict.fromkeys(SCORE_LINES, 0) for _ in range(S)]
        if not g.scoring_enabled:
            return sheet  # kids' simpler game: no points
        done = self.current_completer()
        for s in range(S):
            line = sheet[s]
            line["milestones"] = self._miles[s] * g.pts_mile
            n_safe = len(self._safeties[s]) + len(self._coups[s])
            line["safeties"] = n_safe * g.pts_safety
            if g.safety_cards_in_deck and n_safe == g.safety_cards_in_deck:
                line["all_safeties"] = g.pts_all_safeties
            line["coup_fourres"] = len(self._coups[s]) * g.pts_coup_fourre
        if done >= 0:
            line = sheet[done]
            line["trip_completed"] = g.pts_trip
            if self._completion_delayed and self._completer >= 0:
                line["delayed_action"] = g.pts_delayed
            if not any(self._played[done][c] for c in g.safe_trip_breakers):
                line["safe_trip"] = g.pts_safe_trip
            # 'before opponents have played any Distance Cards' (WM §8): a safety's miles (option
            # safety-distance) are no distance card (docs/conformance.md, rulings of the options)
            blank = [s for s in range(S) if s != done and not any(self._played[s])]
            if g.shutout_per_opponent:
                line["shutout"] = g.pts_shutout * len(blank)
            elif len(blank) == S - 1:
                line["shutout"] = g.pts_shutout
        if self._extension_called_by >= 0:
            caller = g.side_of[self._extension_called_by]
            if g.extension_to_finisher:
                if done >= 0:
                    sheet[done]["extension"] = g.pts_extension
            elif done == caller:
                sheet[caller]["extension"] = g.pts_extension
            else:
                for s in range(S):
                    if s != caller:
                        sheet[s]["extension"] = g.pts_extension  # 'given to his opponent or opponents' (WM §10C)
        for line in sheet:
            line["total"] = sum(v for k, v in line.items() if k != "total")
        return sheet

    def _match_winner(self):
        """Side index, Termination.DRAW, or None while the match goes on (WM §9; rulings: The match)."""
        g = self.game
        mode = g.match_mode
        if mode == "trip":
            done = self.current_completer()
            if done >= 0:
                return done
            return _unique_max(self._miles)
        totals = self._match_totals
        if mode == "single_hand":
            # One hand: the most points in it wins (KID How to win), whatever came before.
            return _unique_max([line["total"] for line in self._hand_sheets[-1]])
        if max(totals) >= g.target_points:
            return _unique_max(totals)
        return None

    # -- messages ------------------------------------------------------------------
    def _sentence(self, code: str, a: Action, q: int | None) -> str:
        """The sentence for people that goes with a refusal's reason code."""
        g = self.game
        p = self._player if q is None else q
        who = g.player_names[p] if 0 <= p < g.players else "nobody"
        if code == HAND_OVER_CODE:
            return "the hand is over" if self._phase == P_HAND_OVER else "the match is over"
        if code == EXTENSION_PENDING:
            return f"{g.player_names[self._player]} must first answer the extension question (extend or stop)"
        if code == NO_EXTENSION:
            return "no extension question is open"
        if code == NO_COUP_FOURRE:
            if self._phase == P_COUP and p in self._cf_queue:
                return f"{a.card} does not protect against {g.card_ids[self._cf_hazard]}"
            return f"no coup fourré is open to {who} now"
        if code == NOT_YOUR_TURN:
            cur = g.player_names[self._player]
            if self._phase == P_COUP:
                return f"a coup fourré window is open for {cur}"
            if self._phase == P_EXT:
                return f"the extension question is {cur}'s"
            if p != self._player:
                return f"it is {cur}'s turn, not {who}'s"
            if a.op == DRAW:
                return f"{who} has already drawn this turn"
            return f"{who} must draw before playing"
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
        if code == BAD_TARGET:
            if g.kind[c] == HAZARD:
                if ts < 0:
                    return f"{card} needs a side: write 'play {card} on SIDE' ({', '.join(g.side_names)})"
                return f"{who} cannot play {card} on side {side}: hazards go on an opponent's side"
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
            return f"{card} may not be discarded ({g.ruleset.cards[card].kind} cards never are): play it"
        if code == PLAYABLE_CARD:
            return f"{card} could be played, so it may not be discarded: play it or discard a card that cannot"
        return code


_SHARED = (int, bool, str, float, tuple, frozenset, type(None), Termination, Reason, DecisionKind)


def _copy(value):
    """A deep copy of the mutable parts of a slot's value (lists, dicts, the RNG); immutables shared."""
    t = type(value)
    if t is list:
        if value and type(value[0]) not in _SHARED:
            return [_copy(v) for v in value]
        return value[:]  # ints, or tuples of ints (the history)
    if t is dict:
        return {k: _copy(v) for k, v in value.items()}
    if t in _SHARED or getattr(t, "_immutable", False):  # the Game, observations
        return value
    if t is random.Random:
        r = random.Random(0)  # seeding from the OS would cost more than the copy; the state is restored next
        r.setstate(value.getstate())
        return r
    raise TypeError(f"State.clone() does not know how to copy a {t.__name__}: teach _copy")


def _unique_max(values: list[int]):
    best = max(values)
    leaders = [i for i, v in enumerate(values) if v == best]
    return leaders[0] if len(leaders) == 1 else Termination.DRAW
