"""The fixed action space and the observation vector of a compiled game, shared by both toolkits.

The layout is defined here from the public API: ``Game`` tables (``card_ids``, ``kind``,
``sides``, the action tables) and ``state.observation(player)`` (``encode``).
``encode_state`` writes the same vector straight from the engine's compact state
(``mbrules.engine.compact``), which the environments use at every step. Numpy is imported lazily by
the caller's toolkit; this module needs only the standard library, so the layouts can be
listed (``describe()``) without numpy installed.

Action space (``ActionSpace``): one index per distinct action that ``legal_actions()`` can
list, in this order:

====================  ========================================================
0                     ``draw``
1                     ``decline``
2                     ``extend``
3                     ``stop``
then, per card index  ``play CARD`` (distance, remedy, safety: one's own side) or
``c`` in game order   ``play HAZARD on A`` ... one per side (hazards), then
                      ``discard CARD``, then ``coup-fourre CARD`` (safeties only),
                      then ``fast-play CARD`` (remedies, only in a ruleset with
                      fast play: ``fast_play.enabled``)
====================  ========================================================

Observation vector (``ObservationEncoder``): float32, one seat's view, sides listed from the
seat's own side onwards and players from the seat onwards (so a policy is seat-independent);
``describe()`` names every slot. Blocks, in order (``n`` cards, ``N`` players, ``S`` sides):

* ``decision`` (6): one-hot draw, play, reaction window (a coup fourré's, or a fast play's),
  extension question, hand over, match over — as the seat sees it (a window asking someone else
  looks like the next turn); the legal actions say which window it is;
* ``to_act`` (N): one-hot of who decides, relative to the seat;
* ``hand`` (n): copies of each card in the seat's hand;
* ``window_hazard`` (n): one-hot of the hazard an open coup fourré or fast-play window answers;
* per side ``s`` (S blocks, own side first), each ``5n + 6``: ``battle_top`` (n, one-hot),
  ``hazard`` (n, one-hot; with stacked hazards, one per hazard in force), ``speed_hazard`` (n, one-hot), ``safeties`` (n, played normally
  or as coups fourrés, counts), ``distance`` (n, counts), ``miles/target``, ``moving``,
  ``limited``, ``limit/200``, ``coup_fourres`` (count), ``protected`` (hazards covered, count);
* ``discard`` (n): counts of each card in the discard pile; ``discard_top`` (n): one-hot;
* ``unseen`` (n): copies of each card the seat has not seen (``Observation.unseen()``);
* ``hand_sizes`` (N): cards held, relative to the seat;
* ``draw_pile/deck``, ``target/max_target``, ``extension_called`` (3);
* ``hand_score`` (S) and ``match_totals`` (S): points / 1000, own side first;
* ``hand_no`` (1): hands played so far in the match / 10 (as the environment counts them);
* then, only where the ruleset's turn rules are on (issue 35; a ruleset without them keeps the vector
  above, slot for slot): ``reshuffles/max_reshuffles`` (1, turn.reshuffles or a refill's), ``decision.mulligan``
  (1, a mulligan under way, option mulligan), ``after_draw`` (N, one-hot relative to the seat: play then
  draw's next player once the owed draw is taken), ``queued_turns`` (N, counts relative to the seat:
  option queued-coup-fourre-turn). All are public (``Observation.reshuffles``, ``.after_draw``,
  ``.queued_turns``).

Every slot has a finite upper bound (``high``), so a ``Box`` holds every vector.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Callable, Sequence, SupportsIndex

from mbrules.vocab import HAZARD, REMEDY, SAFETY, DecisionKind

if TYPE_CHECKING:
    from mbrules.engine import Action, Game, Observation, SideView, State
    from mbrules.engine.compact import ObservationWriter

# a turn: before/after its draw; a fast-play window shares the coup fourré's slot (a reaction window);
# a mulligan under way (turn.mulligan) is read as "draw": it ends with a draw, and the legal actions
# (its throws, its draw) tell it from a turn's draw
DECISIONS = ("draw", "play") + tuple(
    k.value for k in DecisionKind if k not in (DecisionKind.TURN, DecisionKind.FAST_PLAY, DecisionKind.MULLIGAN)
)
SIDE_BLOCK = ("battle_top", "hazard", "speed_hazard", "safeties", "distance")
SIDE_SCALARS = ("miles/target", "moving", "limited", "limit/200", "coup_fourres", "protected")


__all__ = ["ActionSpace", "DECISIONS", "ObservationEncoder", "SIDE_BLOCK", "SIDE_SCALARS", "check_index"]


class ActionSpace:
    """Every action of ``game`` that ``legal_actions()`` can list, as indices ``0..n-1``.

    ``actions[i]`` is the :class:`mbrules.Action` of index ``i``; ``index[action]`` the index
    of an action (an ``Action`` or its int). The space depends on the compiled game only:
    a ruleset with another card list or side count has another space (docs/rl.md).
    """

    def __init__(self, game: Game):
        self.game = game
        acts: list[Action] = [game.draw_action, game.decline_action, game.extend_action, game.stop_action]
        for c in range(game.n_cards):
            if game.kind[c] == HAZARD:
                acts += [game.play_action[c][s] for s in range(game.sides)]
            else:
                acts.append(game.play_own[c])
            acts.append(game.discard_action[c])
            if game.kind[c] == SAFETY:
                acts.append(game.coup_action[c])
            if game.kind[c] == REMEDY and game.fast_play_enabled:
                acts.append(game.fast_action[c])  # an out-of-turn remedy (option fast-play-remedy)
        # the ruleset's turn rules (docs/rl.md): only a game that has them has these actions, so the
        # books' rulesets keep their space
        if game.draw_from_discard:
            acts.append(game.draw_discard_action)
        if game.mulligan:
            acts += game.mulligan_action
        self.actions = tuple(acts)
        self.index = {int(a): i for i, a in enumerate(acts)}
        if len(self.index) != len(acts):  # each action once: a duplicate would make two indices mean one thing
            raise AssertionError("duplicate action in the action space")

    def __len__(self) -> int:
        return len(self.actions)

    def legal_indices(self, state: State) -> list[int]:
        """The indices of ``state.legal_actions()``, in the engine's order."""
        idx = self.index
        return [idx[int(a)] for a in state.legal_actions()]

    def words(self) -> list[str]:
        return [str(a) for a in self.actions]

    def check(self, index: object) -> int:
        """``index`` as an int, if it is an integer in ``0..len(self)-1``; else ``ValueError`` naming the range.

        Every entry point that takes an action index calls it: a negative index must not count
        from the end (Python's list rule) and a large one is not an ``IndexError`` from deep inside.
        """
        return check_index(index, len(self.actions), "action")


def check_index(index: object, n: int, what: str = "action") -> int:
    """``index`` as an int when it is an integer (``int``, a numpy integer) in ``0..n-1``; else ``ValueError``."""
    if type(index) is int and 0 <= index < n:
        return index
    if isinstance(index, bool) or not isinstance(index, SupportsIndex):
        raise ValueError(f"{what} must be an integer index in 0..{n - 1}, not {index!r}")
    try:
        i = index.__index__()
    except TypeError:  # a numpy array of more than one value has __index__ but refuses it
        raise ValueError(f"{what} must be an integer index in 0..{n - 1}, not {index!r}") from None
    if not 0 <= i < n:
        raise ValueError(f"{what} {i} is out of range: {what} indices are 0..{n - 1}")
    return i


class ObservationEncoder:
    """One seat's ``Observation`` as a flat list of floats (module docstring: the layout)."""

    def __init__(self, game: Game):
        self.game = game
        n, N, S = game.n_cards, game.players, game.sides
        self.n, self.N, self.S = n, N, S
        deck = len(game.deck)
        targets = [game.target] + ([game.extension_to] if game.extension_to else [])
        self.max_target = max(targets)
        self.deck_size = deck
        names: list[str] = []
        high: list[float] = []
        ids = game.card_ids
        counts = game.deck_counts

        def block(prefix: str, per_card_high: Callable[[int], float]) -> None:
            for c in range(n):
                names.append(f"{prefix}[{ids[c]}]")
                high.append(float(per_card_high(c)))

        for d in DECISIONS:
            names.append(f"decision.{d}")
            high.append(1.0)
        for k in range(N):
            names.append(f"to_act[+{k}]")
            high.append(1.0)
        block("hand", lambda c: counts[c])
        block("window_hazard", lambda c: 1)
        for k in range(S):
            for part in SIDE_BLOCK:
                block(
                    f"side[+{k}].{part}", (lambda c: counts[c]) if part in ("safeties", "distance") else (lambda c: 1)
                )
            for part, h in zip(SIDE_SCALARS, (4.0, 1.0, 1.0, 1.0, float(n), float(n))):
                names.append(f"side[+{k}].{part}")
                high.append(h)
        block("discard", lambda c: counts[c])
        block("discard_top", lambda c: 1)
        block("unseen", lambda c: counts[c])
        for k in range(N):
            names.append(f"hand_sizes[+{k}]")
            high.append(float(deck))
        names += ["draw_pile/deck", "target/max_target", "extension_called"]
        high += [1.0, 1.0, 1.0]
        for k in range(S):
            names.append(f"hand_score[+{k}]")
            high.append(100.0)
        for k in range(S):
            names.append(f"match_totals[+{k}]")
            high.append(1000.0)
        names.append("hand_no/10")
        high.append(1000.0)
        from ..engine.compact import turn_tail_names

        tail = turn_tail_names(game)  # the turn rules' public facts, only where they are on
        names += [nm for nm, _ in tail]
        high += [h for _, h in tail]
        self._tail = bool(tail)
        self._counts = tuple(counts)
        self.names = tuple(names)
        self.high = tuple(high)
        self.size = len(names)
        self._writer: ObservationWriter | None = None  # the fast writer of encode_state, built on first use

    def encode_state(self, state: State, player: int, hands_played: int = 0) -> array[float]:
        """The vector of ``player``'s seat in ``state``, written straight from the engine's compact state.

        A float32 ``array.array('f')`` (``numpy.frombuffer(v, numpy.float32)`` wraps it without a
        copy), equal, as float32, to ``encode(state.observation(player), hands_played, hand_points)`` with the hand's
        points so far (``state.score_sheet()``'s totals), at a fraction of its cost: no
        ``Observation`` is built (``mbrules.engine.compact``).
        """
        w = self._writer
        if w is None:
            from ..engine.compact import ObservationWriter

            w = self._writer = ObservationWriter(self)
        v = array("f")
        v.frombytes(w.write(state, player, hands_played))
        return v

    def describe(self) -> list[tuple[int, str, float]]:
        """``(slot, name, upper bound)`` for every slot of the vector."""
        return [(i, nm, h) for i, (nm, h) in enumerate(zip(self.names, self.high))]

    def encode(self, obs: Observation, hands_played: int = 0, hand_points: Sequence[int] | None = None) -> list[float]:
        """The vector of ``obs`` (an :class:`mbrules.Observation`); ``hands_played`` fills ``hand_no``;
        ``hand_points``: each side's points this hand so far (``state.score_sheet()``'s totals, public:
        worked out from the table alone; zeros when not given)."""
        n, N, S = self.n, self.N, self.S
        v = [0.0] * self.size
        i = self._seat_slots(v, obs)
        target = obs.target or 1
        seen = v[6 + N : 6 + N + n]  # the hand's counts; the table and the discard pile are added below
        for k in range(S):
            i, seen = self._side_slots(v, i, obs.sides[(obs.side + k) % S], target, seen)
        i = self._table_slots(v, i, obs, seen)
        for k in range(S):
            v[i + k] = _clip(hand_points[(obs.side + k) % S] / 1000.0, 100.0) if hand_points is not None else 0.0
        i += S
        for k in range(S):
            v[i + k] = _clip(obs.match_totals[(obs.side + k) % S] / 1000.0, 1000.0)
        i += S
        v[i] = min(hands_played / 10.0, 1000.0)
        if self._tail:
            from ..engine.compact import write_turn_tail

            write_turn_tail(v, i + 1, obs)
        return v

    def _seat_slots(self, v: list[float], obs: Observation) -> int:
        """``decision``, ``to_act``, ``hand`` and ``window_hazard`` into ``v``; the next slot."""
        n, N = self.n, self.N
        d = obs.decision
        kind = d.kind
        if kind == DecisionKind.COUP_FOURRE or kind == DecisionKind.FAST_PLAY:
            v[2] = 1.0  # a reaction window
        elif kind == DecisionKind.EXTENSION:
            v[3] = 1.0
        elif kind == DecisionKind.HAND_OVER:
            v[4] = 1.0
        elif kind == DecisionKind.MATCH_OVER:
            v[5] = 1.0
        else:
            v[1 if d.drawn else 0] = 1.0
        i = 6
        if d.player >= 0:
            v[i + (d.player - obs.player) % N] = 1.0
        i += N
        for c in obs.hand:
            v[i + c] += 1.0
        i += n
        if obs.window_hazard >= 0:
            v[i + obs.window_hazard] = 1.0
        return i + n

    def _side_slots(
        self, v: list[float], i: int, sv: SideView, target: int, seen: list[float]
    ) -> tuple[int, list[float]]:
        """One side's block from slot ``i``; the next slot, and ``seen`` with the side's face-up cards added."""
        n = self.n
        if sv.battle:
            v[i + sv.battle[-1]] = 1.0
            for c in sv.battle:
                seen[c] += 1
        for c in sv.speed:
            seen[c] += 1
        i += n
        if sv.stack is not None:  # option stacked-hazards: every battle hazard in force
            for h in sv.stack:
                v[i + h] = 1.0
        elif sv.hazard >= 0:
            v[i + sv.hazard] = 1.0
        i += n
        if sv.speed_hazard >= 0:
            v[i + sv.speed_hazard] = 1.0
        i += n
        for c in sv.safeties:
            v[i + c] += 1.0
            seen[c] += 1
        for c in sv.coup_fourres:
            v[i + c] += 1.0
            seen[c] += 1
        i += n
        dist = sv.distance
        v[i : i + n] = dist
        seen = [a + b for a, b in zip(seen, dist)]
        i += n
        v[i] = min(sv.miles / target, 4.0)
        v[i + 1] = 1.0 if sv.moving else 0.0
        if sv.limit is not None:
            v[i + 2] = 1.0
            v[i + 3] = min(sv.limit / 200.0, 1.0)
        v[i + 4] = float(len(sv.coup_fourres))
        v[i + 5] = float(bin(sv.protected).count("1"))
        return i + 6, seen

    def _table_slots(self, v: list[float], i: int, obs: Observation, seen: list[float]) -> int:
        """``discard``, ``discard_top``, ``unseen``, ``hand_sizes``, the draw pile, the target and the
        extension from slot ``i`` (``seen``: the hand's and the table's counts); the next slot."""
        n, N = self.n, self.N
        for c in obs.discard:
            v[i + c] += 1.0
            seen[c] += 1
        i += n
        if obs.discard:
            v[i + obs.discard[-1]] = 1.0
        i += n
        # unseen: the deck less what this seat has seen (Observation.unseen(), never below 0)
        v[i : i + n] = [left if left > 0 else 0 for left in map(int.__sub__, self._counts, map(int, seen))]
        i += n
        for k in range(N):
            v[i + k] = float(obs.hand_sizes[(obs.player + k) % N])
        i += N
        v[i] = obs.draw_pile / self.deck_size
        v[i + 1] = min(obs.target / self.max_target, 1.0)
        v[i + 2] = 1.0 if obs.extension_called_by >= 0 else 0.0
        return i + 3


def _clip(x: float, hi: float) -> float:
    return 0.0 if x < 0 else (hi if x > hi else x)
