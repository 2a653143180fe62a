"""What tools may read of a match: one seat's observation, the whole snapshot, the outcome, observers.

* :class:`Observation` is what one player may see (OpenSpiel's information state): its own
  hand; every side's piles, safeties, coups fourrés, miles and distance cards; the discard
  pile; how many cards each player holds and how many are left to draw; whose decision it
  is; the score so far (the match totals of the hands played). Never another hand, never the draw order. Bots decide from it alone.
* :class:`Snapshot` is the whole position, hidden cards included, for the tools entitled
  to it: replay, the recorder, the invariant checker. Bots and environments never use it.
* :class:`Outcome` is the result of a finished match.
* :class:`Observer` is the hook interface: ``State.add_observer`` calls it around every
  accepted action and at each hand's and the match's end.

Cards are indices into ``game.card_ids``, players and sides 0-based ints, as in the
engine; ``to_dict()`` names them (card ids, ``p1``, ``A``) and is plain JSON.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, Sequence, cast

from .actions import Decision
from ..vocab import DISCARD, DRAW, MULLIGAN, NO_LIMIT, PLAY, DecisionKind, Termination
from .fields import mypyc_attr
from .rng import rng_state
from .observer import Observer as Observer  # its own module: a Python class, never compiled
from .words import plural

if TYPE_CHECKING:
    from .game import Game
    from .notation import Action
    from .state import State


class SideView(NamedTuple):
    """One side's table, as every player sees it."""

    battle: tuple[int, ...]  # bottom first
    speed: tuple[int, ...]
    safeties: tuple[int, ...]  # played normally
    coup_fourres: tuple[int, ...]  # played as coups fourrés
    distance: tuple[int, ...]  # distance cards played, a count per card index
    miles: int
    moving: bool  # may play distance now (a go card or rolling safety, no hazard showing)
    limit: int | None  # highest distance allowed now, None for no limit
    hazard: int  # the hazard stopping the side on its battle pile, -1 for none
    speed_hazard: int  # the speed limit in force, -1 for none
    protected: int  # bit mask of the hazards a safety protects the side against
    stack: tuple[int, ...] | None = None  # option stacked-hazards: every battle hazard in force (else None)
    karma: bool | None = None  # ruleset 'karma': whether the side has its karma (None: the ruleset has none)
    karma_cards: tuple[int, ...] = ()  # ruleset 'karma': the karma cards the side played this hand

    @property
    def hazards(self) -> tuple[int, ...]:
        """The battle hazards in force, in play order: with stacked hazards every one not yet fixed,
        else at most the one showing (``hazard``)."""
        if self.stack is not None:
            return self.stack
        return (self.hazard,) if self.hazard >= 0 else ()


_NEW = tuple.__new__  # a named tuple built from every one of its fields at once (_side_views, Observation.of)


def _side_views(st: "State") -> tuple[SideView, ...]:
    limit = st._limit
    stacked = st.game.stacked_hazards  # the set of hazards in force is shown (a rule nobody else pays for)
    karma = st.game.karma  # so is karma (ruleset 'karma')
    return tuple(
        [
            # every field given, in order: tuple.__new__ skips the named tuple's Python-level __new__ (a frame a side,
            # half of a SideView's cost: 0.94 -> 0.41 us; a view of every side at each decision a bot is asked)
            _NEW(
                SideView,
                (
                    tuple(st._battle[s]),
                    tuple(st._speed[s]),
                    tuple(st._safeties[s]),
                    tuple(st._coups[s]),
                    tuple(st._played[s]),
                    st._miles[s],
                    st._rolling[s],
                    None if limit[s] == NO_LIMIT else limit[s],
                    st._bhaz[s],
                    st._lhaz[s],
                    st._prot[s],
                    st.battle_hazards(s) if stacked else None,
                    st._karma[s] if karma else None,
                    tuple(st._karma_cards[s]),
                ),
            )
            for s in range(st.game.sides)
        ]
    )


def _side_dict(g: "Game", v: SideView) -> dict[str, Any]:
    ids = g.card_ids
    return {
        "battle": [ids[c] for c in v.battle],
        "speed": [ids[c] for c in v.speed],
        "safeties": [ids[c] for c in v.safeties],
        "coup_fourres": [ids[c] for c in v.coup_fourres],
        "distance": {ids[c]: n for c, n in enumerate(v.distance) if n},
        "miles": v.miles,
        "moving": v.moving,
        "limit": v.limit,
        "hazard": ids[v.hazard] if v.hazard >= 0 else None,
        "hazards": [ids[c] for c in v.hazards],  # every battle hazard in force (stacked hazards: all of them)
        "speed_hazard": ids[v.speed_hazard] if v.speed_hazard >= 0 else None,
        "protected": [ids[c] for c in range(g.n_cards) if v.protected >> c & 1],
        **({"karma": v.karma, "karma_cards": [ids[c] for c in v.karma_cards]} if v.karma is not None else {}),
    }


def _recent(st: "State") -> tuple[tuple[int, int], ...]:
    """The one action of this hand that legality's look back at a turn reads (turn.discard_draw_must_play), or ().

    Draw then play: the last action when it took the discard top (``_took_discard_top``). Play then draw: the
    turn's play, discard, draw or mulligan, windows and extension answers passed over (``_turn_played``).
    Only that entry, not the history's tail: a window's ``decline`` would tell the rest of the table who
    was asked (who holds the safety or the remedy; ``Observation.of`` hides the window itself), and actions
    of earlier turns would make a position set up with ``State.from_position`` (no history) look different
    from the same position played to, though nothing the seat may see differs."""
    h = st._history
    if not h:
        return ()
    g = st.game
    if not g.play_then_draw:
        return (h[-1],) if h[-1][1] == g.draw_discard_action else ()
    for i in range(len(h) - 1, -1, -1):
        q, a = h[i]
        if q < 0:
            return ()  # the hand's start
        op = cast("Action", a).op
        if op == PLAY or op == DISCARD or op == DRAW or op == MULLIGAN:
            return (h[i],)
    return ()


class Observation(NamedTuple):
    """What ``player`` may see now; immutable, equal for two states that differ only in hidden cards.

    A named tuple: built in one step at every decision a bot is asked (the hot path of a simulation).
    """

    game: "Game"
    player: int
    side: int
    hand: tuple[int, ...]  # in the order held: the newest card last
    hand_sizes: tuple[int, ...]
    sides: tuple[SideView, ...]
    discard: tuple[int, ...]  # bottom first
    draw_pile: int  # how many cards are left to draw
    decision: Decision
    window_hazard: int  # the hazard an open coup fourré window answers (shown to its player only), -1
    target: int
    extension_called_by: int
    hand_no: int
    match_totals: tuple[int, ...]  # the score of the hands played
    face_up: tuple[int, ...]  # copies of each card on the table or in the discard pile
    reshuffles: int = 0  # times this hand the discard pile became the draw pile (turn.reshuffles; public)
    after_draw: int = -1  # play then draw, a turn's draw due: who plays once it is taken (public), else -1
    queued_turns: tuple[int, ...] = ()  # coup fourré callers whose extra turn waits (queued-coup-fourre-turn)
    # turn.discard_draw_must_play only: the one public action of this hand legality's look back at this turn
    # reads (did it take the discard top; did it play a card), or () (see _recent)
    recent: tuple[tuple[int, int], ...] = ()  # (player, Action), as State.history

    @classmethod
    def of(cls, st: "State", player: int) -> "Observation":
        g = st.game
        d = st.decision
        after_draw = st._after_draw
        if (d.kind == DecisionKind.COUP_FOURRE or d.kind == DecisionKind.FAST_PLAY) and d.player != player:
            # A window opens only for a holder of the safety (or, for fast play, of the remedy): to the
            # rest of the table it must look like the next turn, or it would tell them who holds the card
            # (WM §7: the holder may call it or keep quiet). Only the one asked sees the window.
            d = Decision(DecisionKind.TURN, st.turn_player(), not st._can_draw())
            if g.play_then_draw and not d.drawn:
                # the attacker's draw, then the first queued coup fourré turn, or the attacker's left
                after_draw = st._queued[0] if st._queued else (d.player + 1) % g.players
        return _NEW(  # every field, in order: as _side_views, without the named tuple's Python-level __new__
            cls,
            (
                g,
                player,
                g.side_of[player],
                tuple(st._hands[player]),
                tuple([len(h) for h in st._hands]),
                _side_views(st),
                tuple(st._discard),
                len(st._stock),
                d,
                st._cf_hazard if (d.kind == DecisionKind.COUP_FOURRE or d.kind == DecisionKind.FAST_PLAY) else -1,
                st._target,
                st._extension_called_by,
                st._hand_no,
                tuple(st._match_totals),
                tuple(st._face_up),
                st._reshuffles,
                after_draw,
                tuple(st._queued),
                _recent(st) if g.discard_draw_must_play else (),
            ),
        )

    # -- derived facts a bot needs ---------------------------------------------------------
    @property
    def my_side(self) -> SideView:
        return self.sides[self.side]

    def unseen(self) -> tuple[int, ...]:
        """Copies of each card (by index) this player has not seen: the deck less the table, the
        discard pile and its hand. The cards in other hands and in the draw pile, counted, never placed.
        """
        counts = [n - up for n, up in zip(self.game.deck_counts, self.face_up)]
        for c in self.hand:
            counts[c] -= 1
        return tuple(counts)

    def to_dict(self) -> dict[str, Any]:
        """The observation as plain JSON (card ids, player and side names)."""
        g = self.game
        ids = g.card_ids
        d = self.decision
        return {
            "ruleset": g.ruleset_id,
            "player": g.player_names[self.player],
            "side": g.side_names[self.side],
            "hand": [ids[c] for c in self.hand],
            "hand_sizes": {g.player_names[p]: n for p, n in enumerate(self.hand_sizes)},
            "sides": {g.side_names[s]: _side_dict(g, v) for s, v in enumerate(self.sides)},
            "discard_pile": [ids[c] for c in self.discard],
            "draw_pile": self.draw_pile,
            "decision": {
                "kind": d.kind,
                "player": g.player_names[d.player] if d.player >= 0 else None,
                "drawn": d.drawn,
            },
            "window_hazard": ids[self.window_hazard] if self.window_hazard >= 0 else None,
            "target": self.target,
            "extension_called_by": (
                g.player_names[self.extension_called_by] if self.extension_called_by >= 0 else None
            ),
            "hand_no": self.hand_no,
            "match": {g.side_names[s]: t for s, t in enumerate(self.match_totals)},
            "reshuffles": self.reshuffles,
            "after_draw": g.player_names[self.after_draw] if self.after_draw >= 0 else None,
            "queued_turns": [g.player_names[p] for p in self.queued_turns],
            "recent": [[g.player_names[p], str(a)] for p, a in self.recent],
        }

    def __repr__(self) -> str:
        g = self.game
        hand = " ".join(g.card_ids[c] for c in self.hand)
        miles = ", ".join(f"{g.side_names[s]} {v.miles}" for s, v in enumerate(self.sides))
        return (
            f"<Observation {g.player_names[self.player]} ({g.side_names[self.side]}): {self.decision.kind}; "
            f"hand [{hand}]; miles {miles} of {self.target}; {self.draw_pile} to draw>"
        )


@mypyc_attr(native_class=False)  # frozen by __setattr__
class Snapshot:
    """The whole position, hidden cards included (replay, recorders, checkers; never bots)."""

    _immutable: ClassVar[bool] = True
    # the fields, declared for a type checker and an editor (set once in __init__, never again)
    game: "Game"  # noqa: UP037 (a string: compiled, this class's annotations are read at import)
    hands: tuple[tuple[int, ...], ...]  # each player's hand, cards as indices
    draw_pile: tuple[int, ...]  # top first
    discard: tuple[int, ...]
    sides: tuple[SideView, ...]
    target: int
    extension_called_by: int  # a player, or -1
    decision: Decision
    turn_player: int
    window: tuple[int, int, int, tuple[int, ...]] | None  # (hazard, side hit, attacker, players to answer)
    completer: int
    completion_delayed: bool
    hand_no: int
    first_player: int
    match_totals: tuple[int, ...]
    hand_sheets: tuple[tuple[dict[str, int], ...], ...]
    winner: int | Termination | None  # a side index, a draw or unfinished, or None while undecided
    last_draw: int
    needs_go: tuple[bool, ...]
    rolling_safety: tuple[bool, ...]
    history_length: int
    score: tuple[dict[str, int], ...]
    rng_state: tuple[Any, ...]
    queued_turns: tuple[tuple[int, ...], int]  # queued coup fourré turns, and the player play resumes with
    reshuffles: int  # reshuffles of the discard pile this hand (turn.reshuffles)
    after_draw: int  # play-then-draw: the next player once the owed draw is taken, or -1
    hand_seed: int  # the seed of this hand's reshuffles
    stall: int  # turn.stall_discards: discards in a row with no progress (kept with draw_from_discard only)
    __slots__ = (
        "game",
        "hands",
        "draw_pile",
        "discard",
        "sides",
        "target",
        "extension_called_by",
        "decision",
        "turn_player",
        "window",
        "completer",
        "completion_delayed",
        "hand_no",
        "first_player",
        "match_totals",
        "hand_sheets",
        "winner",
        "last_draw",
        "needs_go",
        "rolling_safety",
        "history_length",
        "score",
        "rng_state",
        "reshuffles",
        "after_draw",
        "hand_seed",
        "queued_turns",
        "stall",
    )

    def __init__(self, st: "State"):
        set_ = object.__setattr__
        set_(self, "game", st.game)
        set_(self, "hands", tuple(tuple(h) for h in st._hands))
        set_(self, "draw_pile", tuple(reversed(st._stock)))  # top first
        set_(self, "discard", tuple(st._discard))
        set_(self, "sides", _side_views(st))
        set_(self, "target", st._target)
        set_(self, "extension_called_by", st._extension_called_by)
        set_(self, "decision", st.decision)
        set_(self, "turn_player", st.turn_player())
        # an open coup fourré window: (hazard, side hit, attacker, players still to answer)
        set_(
            self,
            "window",
            (st._cf_hazard, st._cf_side, st._cf_attacker, tuple(st._cf_queue))
            if st.decision.kind in (DecisionKind.COUP_FOURRE, DecisionKind.FAST_PLAY)
            else None,
        )
        set_(self, "completer", st.current_completer())
        set_(self, "completion_delayed", st._completion_delayed)
        set_(self, "hand_no", st._hand_no)
        set_(self, "first_player", st._first_player)
        set_(self, "match_totals", tuple(st._match_totals))
        set_(self, "hand_sheets", tuple(tuple(dict(line) for line in sheet) for sheet in st._hand_sheets))
        set_(self, "winner", st._winner)
        set_(self, "last_draw", st._last_draw)
        set_(self, "needs_go", tuple(st._needs_go))
        set_(self, "rolling_safety", tuple(st._row))
        set_(self, "history_length", len(st._history))
        set_(self, "score", tuple(st.score_sheet()))
        set_(self, "rng_state", rng_state(st._rng))  # the shuffles of the hands to come (one copy per draw)
        set_(self, "reshuffles", st._reshuffles)  # turn.reshuffles: how many this hand
        set_(self, "after_draw", st._after_draw)  # play then draw: who plays once the draw is taken
        set_(self, "hand_seed", st._hand_seed)  # the seed of this hand's reshuffles (turn.reshuffles)
        set_(self, "queued_turns", (tuple(st._queued), st._resume))  # queued coup fourré turns, and where play resumes
        set_(self, "stall", st._stall)  # the stall rule's count (turn.stall_discards)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Snapshot is immutable")

    def _key(self) -> tuple[str, ...]:
        return tuple(repr(getattr(self, n)) for n in self.__slots__[1:])

    def __eq__(self, other: object) -> bool:
        """Equal where every field's repr is (``_key``), field by field: one object shared by both (the RNG's
        kept copy, the Game) has one repr, so it is not written out (the RNG's 625 words cost 100 µs a side)."""
        if not isinstance(other, Snapshot):
            return False
        for name in self.__slots__[1:]:
            a, b = getattr(self, name), getattr(other, name)
            if a is not b and repr(a) != repr(b):
                return False
        return True

    __hash__ = None  # type: ignore[assignment]  # unhashable on purpose (compared by value); typeshed types it a method

    def to_dict(self) -> dict[str, Any]:
        g = self.game
        ids = g.card_ids
        d = self.decision
        return {
            "hands": {g.player_names[p]: [ids[c] for c in h] for p, h in enumerate(self.hands)},
            "draw_pile": [ids[c] for c in self.draw_pile],
            "discard_pile": [ids[c] for c in self.discard],
            "sides": {g.side_names[s]: _side_dict(g, v) for s, v in enumerate(self.sides)},
            "target": self.target,
            "decision": {"kind": d.kind, "player": g.player_names[d.player] if d.player >= 0 else None},
            "hand_no": self.hand_no,
            "match": {g.side_names[s]: t for s, t in enumerate(self.match_totals)},
        }

    def __repr__(self) -> str:
        return f"<Snapshot hand {self.hand_no + 1}: {self.decision.kind}, {len(self.draw_pile)} to draw>"


@mypyc_attr(native_class=False)  # frozen by __setattr__
class Outcome:
    """How a match ended: ``winner`` (a side name) or ``draw``, or ``unfinished`` (the hands cap); every sheet.

    Like python-chess's Outcome: ``termination`` says why it ended (a :class:`mbrules.vocab.Termination`:
    win, draw, unfinished), ``winner`` is the winning side's name or None.
    """

    _immutable: ClassVar[bool] = True
    winner: str | None  # the winning side's name
    winner_index: int  # the winning side, or -1
    termination: Termination
    totals: dict[str, int]  # per side name
    hand_sheets: tuple[dict[str, dict[str, int]], ...]  # per hand: side name -> score line -> points
    sides: tuple[str, ...]
    completed: tuple[str | None, ...]  # per hand: the side that completed the trip, or None
    __slots__ = ("winner", "winner_index", "termination", "totals", "hand_sheets", "sides", "completed")

    def __init__(
        self,
        winner_index: int,
        termination: Termination,
        totals: dict[str, int],
        hand_sheets: tuple[dict[str, dict[str, int]], ...],
        sides: tuple[str, ...],
        completed: tuple[str | None, ...] = (),
    ):
        set_ = object.__setattr__
        set_(self, "completed", completed)  # per hand: the side that completed the trip, or None
        set_(self, "winner_index", winner_index)
        set_(self, "winner", sides[winner_index] if winner_index >= 0 else None)
        set_(self, "termination", termination)
        set_(self, "totals", totals)
        set_(self, "hand_sheets", hand_sheets)
        set_(self, "sides", sides)

    @classmethod
    def of(
        cls,
        game: "Game",
        winner: int | Termination,
        sheets: Sequence[Sequence[dict[str, int]]],
        totals: Sequence[int],
        completers: Sequence[int] = (),
    ) -> "Outcome":
        names = game.side_names
        if isinstance(winner, Termination):  # a draw, or unfinished
            idx, term = -1, winner
        else:
            idx, term = winner, Termination.WIN
        return cls(
            idx,
            term,
            {names[s]: t for s, t in enumerate(totals)},
            tuple(
                {names[s]: {k: line[k] for k in game.score_line_names} for s, line in enumerate(sheet)}
                for sheet in sheets
            ),
            names,
            tuple(names[s] if s >= 0 else None for s in completers),
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("an Outcome is immutable")

    @property
    def draw(self) -> bool:
        return self.termination == Termination.DRAW

    @property
    def unfinished(self) -> bool:
        return self.termination == Termination.UNFINISHED

    @property
    def result(self) -> str:
        """The winning side's name, ``draw`` or ``unfinished``."""
        return self.winner if self.winner is not None else self.termination

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Outcome) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # unhashable on purpose (compared by value); typeshed types it a method

    def to_dict(self) -> dict[str, Any]:
        return {
            "result": self.result,
            "termination": self.termination,
            "winner": self.winner,
            "totals": dict(self.totals),
            "hands": [dict(s) for s in self.hand_sheets],
            "completed": list(self.completed),
        }

    def __repr__(self) -> str:
        totals = ", ".join(f"{s} {t}" for s, t in self.totals.items())
        return f"<Outcome {self.result}: {totals} after {plural(len(self.hand_sheets), 'hand')}>"


__all__ = ["Observation", "Observer", "Outcome", "SideView", "Snapshot"]
