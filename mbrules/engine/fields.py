"""The fields of a :class:`~mbrules.engine.state.State`, declared once for a type checker and an editor.

``State`` is assembled from rooms (legality, effects, turn flow, reactions, scoring), each a mixin
that reads and writes the state's slots and calls the other rooms' methods. Each room derives from
:class:`StateFields`, so a checker sees every slot with its type and every method one room calls
in another with its signature. At run time this class adds nothing: no slots, no methods (the
method declarations exist only for the checker, which also checks the rooms' definitions match them).
"""

from __future__ import annotations

import random
from abc import abstractmethod
from typing import TYPE_CHECKING, Any, Callable, Final, TypeVar

if TYPE_CHECKING:
    from ..vocab import Termination
    from .actions import Decision
    from .game import Game
    from .observation import Observer

_C = TypeVar("_C")

try:
    from mypy_extensions import trait as trait  # mypyc: a class mixed into State (docs/performance.md)
except ImportError:  # mypy's own package, absent where no engine is compiled: the mark does nothing

    def trait(cls: _C) -> _C:
        return cls


try:  # mypyc: @mypyc_attr(native_class=False), a compiled module's class that stays a Python class
    from mypy_extensions import mypyc_attr as mypyc_attr
except ImportError:

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_C], _C]:
        return lambda cls: cls


_NO_SLOTS: tuple[str, ...] = ()

# legal_actions' memo (State._can, _hit: per side, one entry per card) has no answer for a card yet: told apart
# by identity (a reason code is a word, None a playable card); a side's row is refilled with it whenever
# something its checks read changes
UNJUDGED: Final = "(not judged yet)"


@trait
class StateFields:
    """The slots of ``State`` (its ``__slots__`` names them; this gives their types)."""

    __slots__ = _NO_SLOTS  # a name, not a literal: no slots of its own, and the checker judges each room's
    # writes against State's slots rather than the room's empty ones

    game: Game
    _rng: random.Random
    _hands: list[list[int]]  # per player
    _stock: list[int]  # the draw pile; its top is the END of the list
    _discard: list[int]
    _battle: list[list[int]]  # per side, bottom first
    _speed: list[list[int]]
    _miles: list[int]
    _played: list[list[int]]  # per side: distance cards played, a count per card index
    _safeties: list[list[int]]  # played normally
    _coups: list[list[int]]  # played as coups fourrés
    _prot: list[int]  # per side: mask of the hazards it is protected against
    _row: list[bool]  # has a rolling safety (Right of Way)
    _needs_go: list[bool]
    _rolling: list[bool]
    _bhaz: list[int]  # the active hazard on top of the battle pile, or -1
    _limit: list[int]
    _lhaz: list[int]  # the active hazard on top of the speed pile, or -1
    _target: int
    _extension_called_by: int
    _phase: int  # one of mbrules.engine.phases' P_*
    _player: int
    _cf_queue: list[int]
    _cf_hazard: int
    _cf_side: int
    _cf_attacker: int
    _completer: int
    _completion_delayed: bool
    _last_draw: int
    _hand_no: int
    _first_player: int
    _match_totals: list[int]
    _hand_sheets: list[list[dict[str, int]]]
    _winner: int | Termination | None  # a side, a draw or unfinished, or None while undecided
    _history: list[tuple[int, Any]]  # (player, Action); (-1, -1) marks a new hand (Any: a compiled int drops the class)
    _coup_count: int
    _deal_next: bool
    _observers: tuple[Observer, ...]
    _completers: list[int]
    _can: list[list[str | None]]  # legal_actions' memo of _play_reason per side and card (UNJUDGED: not yet)
    _hit: list[list[str | None]]
    _face_up: list[int]
    _queued: list[int]
    _resume: int
    _bmask: list[int]  # per side, stacked hazards only: the mask of the battle hazards in force
    _reshuffles: int  # reshuffles of the discard pile this hand
    _stall: int  # turn.stall_discards: discards in a row with nothing drawn from the draw pile nor played between
    # (draw pile size, reshuffles, cards on the tableaux) at the last discard; tuple[int, ...], not of three:
    # mypyc cannot write a fixed-size tuple attribute from a trait (the effects room sets it)
    _stall_mark: tuple[int, ...]
    _note: int  # what the current action's draws did (turn.py's RESHUFFLED | FROM_DISCARD_PILE | DREW | ...)
    _drawn_more: list[int]  # cards the current action drew besides its own draw (a refill, a mulligan's)
    _after_draw: int  # play-then-draw: the next player once the owed draw is taken, or -1
    _hand_seed: int  # the seed of this hand's reshuffles
    _hand_reshuffles: list[int]  # per hand over: how many reshuffles it made
    # ruleset 'karma' (option karma): per side, whether it has karma (all False when the ruleset has none), the
    # karma cards it played (they stay on its table), and the sides it may attack (legal_actions reads it)
    _karma: list[bool]
    _karma_cards: list[list[int]]
    _foes: list[tuple[int, ...]]
    _met: list[int]  # legal_actions: per card, the number of its last call that met the card in the hand
    _met_no: int  # the number of legal_actions' last call at a turn's play
    _reshuffle_hook: Callable[[list[int]], None] | None  # orders a reshuffled pile from outside (OpenSpiel), else None

    # methods one room calls in another: defined by the rooms (found first: this class comes last in
    # State's method resolution order), declared here for the checker
    @property
    @abstractmethod
    def decision(self) -> Decision: ...
    @abstractmethod
    def _reset_hand(self) -> None: ...
    @abstractmethod
    def _play_reason(self, ps: int, c: int, ts: int) -> str | None: ...  # legality
    @abstractmethod
    def _refresh(self, s: int) -> None: ...  # effects
    @abstractmethod
    def _forget_distance(self, s: int, c: int) -> None: ...  # effects
    @abstractmethod
    def _lay_remedy(self, s: int, c: int, battle: bool) -> None: ...  # effects
    @abstractmethod
    def _set_foes(self) -> None: ...
    @abstractmethod
    def _protect(self, s: int, c: int, normal: bool) -> None: ...
    @abstractmethod
    def _safety_miles(self, s: int) -> bool: ...
    @abstractmethod
    def battle_hazards(self, s: int) -> tuple[int, ...]: ...
    @abstractmethod
    def _start_turn(self, p: int) -> None: ...  # turn flow
    @abstractmethod
    def _end_turn(self, p: int) -> None: ...
    @abstractmethod
    def _turn_owner(self) -> int: ...
    @abstractmethod
    def _end_hand(self) -> None: ...
    @abstractmethod
    def _can_draw(self) -> bool: ...
    @abstractmethod
    def _take(self, p: int) -> int: ...
    @abstractmethod
    def _draw_owed(self, p: int) -> None: ...
    @abstractmethod
    def _turn_again(self, p: int) -> None: ...
    @abstractmethod
    def _play_again(self, p: int) -> None: ...
    @abstractmethod
    def _replacement_draw(self, q: int) -> None: ...  # reactions
    @abstractmethod
    def _open_coup_fourre(self, attacker: int, hazard: int, ts: int) -> None: ...  # reactions
    @abstractmethod
    def _trip_reached(self, p: int, ps: int) -> None: ...
    @abstractmethod
    def current_completer(self) -> int: ...  # scoring
    @abstractmethod
    def score_sheet(self) -> list[dict[str, int]]: ...
    @abstractmethod
    def _match_winner(self) -> int | Termination | None: ...
