"""Fast readers of the engine's compact state for the RL toolkits (``mbrules.env``, ``mbrules.openspiel``).

The observation vector of :class:`mbrules.env.encoding.ObservationEncoder` is the layout; this
module writes it straight from the state's own lists (hands, piles, counts) instead of building
an :class:`Observation` and a dict per step, which cost more than the engine's action itself.
It reads exactly what ``state.observation(player)`` shows (the window of a coup fourré only to
the seat it asks, never another hand or the draw order): ``tests/rl/test_compact.py`` compares
both vectors over many random positions of every bundled ruleset.

It also gives the chance hooks of the OpenSpiel game: the cards left to draw, counted, and
``stack_next_draw`` (``arrange_next_draws``: several) to put chosen cards on top of the draw pile before the
engine takes them, and ``set_reshuffle_hook`` to order a pile a reshuffle makes.
Like the rest of ``mbrules.engine``, the ``_`` fields are read here and nowhere outside.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any, Sequence

from ..vocab import NO_LIMIT, DecisionKind
from .phases import P_COUP, P_DRAW, P_EXT, P_FAST, P_HAND_OVER, P_MULL, P_PLAY
from .state import State

if TYPE_CHECKING:
    from .game import Game

__all__ = ["ObservationWriter", "draw_due", "draw_pile_counts", "draw_pile_size", "stack_next_draw", "state_vector"]

_POPCOUNT = int.bit_count


class ObservationWriter:
    """Writes the vector of ``encoder`` (an ``ObservationEncoder``) for one seat of a state.

    ``write(state, player, hands_played)`` returns the float32 bytes (a ``bytearray``, which numpy
    wraps without a copy: ``numpy.frombuffer(b, numpy.float32)``) of
    ``encoder.encode(state.observation(player), hands_played, hand_points)`` with the hand's points
    so far as ``hand_points``. It reads the state's own lists; the hand's points (a score sheet) are
    worked out again only when what they depend on has changed.

    The bytes start as zeros and only the slots that are not zero are written, through a float32
    view of them (a ``memoryview``) and, for the blocks of ``n`` counts, a ``struct`` packing straight
    into them: most of a vector is zeros, which a list of floats packed at the end paid for one by one.
    """

    def __init__(self, encoder: Any):  # mbrules.env's ObservationEncoder (a layer up: not imported here)
        g: Game = encoder.game
        self.game = g
        n: int = encoder.n
        N: int = encoder.N
        S: int = encoder.S
        self.n, self.N, self.S = n, N, S
        self.size: int = encoder.size
        self.deck_size: int = encoder.deck_size
        self.max_target: int = encoder.max_target
        self.counts: tuple[int, ...] = tuple(g.deck_counts)
        self._zero_bytes = bytes(4 * self.size)
        self._block = struct.Struct(f"{n}f")  # n counts, packed into the vector's bytes at a slot's offset
        self._o_sides = 6 + N + 2 * n
        self._side_len = 5 * n + 6
        self._tail = turn_tail_size(g)  # the turn rules' slots, last (none without them)
        self._tail_block = struct.Struct(f"{self._tail}f")
        assert self._o_sides + S * self._side_len + 3 * n + N + 3 + 2 * S + 1 + self._tail == self.size, (
            "the writer's layout disagrees with the encoder's"
        )
        self._sheet_key: list[Any] | None = None
        self._sheet_points: list[int] = []  # computed at the first call (no key matches None)
        self._discard_ref: list[int] | None = None  # _count_discard's list, its length and counts when last seen
        self._discard_len = 0
        self._discard_cnt: list[int] = []
        # counts (of cards: at most the deck's) fed to struct and memoryview as floats, never ints (an int is
        # converted through a new float each time)
        self._floats: list[float] = [float(k) for k in range(self.deck_size + 1)]
        self._held: list[int] = [0] * n  # write()'s scratch: the seat's copies of each card
        self._discard_bytes = bytearray(4 * n)  # the discard counts' float32 bytes, kept with _discard_cnt
        self._discard_view = memoryview(self._discard_bytes).cast("f")
        # the deck less the cards face up (unclamped) and its float32 bytes (clamped at 0), while face_up is the same
        self._face_up: list[int] = [0] * n
        self._base: list[int] = list(self.counts)
        self._base_bytes = bytearray(self._block.pack(*self._floats_of(self.counts)))
        self._base_view = memoryview(self._base_bytes).cast("f")
        self._rows: list[list[int]] = [[0] * n for _ in range(S)]  # each side's distance row when last packed
        self._row_bytes: list[bytes | None] = [None] * S  # its float32 bytes (None: all zeros)
        self._encoder = encoder

    def _floats_of(self, row: Sequence[int]) -> list[float]:
        fl = self._floats
        return [fl[x] if x > 0 else 0.0 for x in row]

    def __reduce__(self) -> tuple[type[ObservationWriter], tuple[Any]]:
        return ObservationWriter, (self._encoder,)  # pickled as its layout

    def _count_discard(self, discard: list[int]) -> None:
        """Copies of each card in ``discard`` (``_discard_cnt``, and as float32 bytes ``_discard_bytes``),
        counted on from the last call while it is the same list.

        The engine only ever appends to a hand's discard pile (a new hand, a clone: a new list), so
        the counts of the list seen last are brought up to date by its new cards alone; the list is
        held here, so its identity cannot pass to another list.
        """
        dv = self._discard_view
        fl = self._floats
        if discard is self._discard_ref and len(discard) >= self._discard_len:
            counts = self._discard_cnt
            start = self._discard_len
        else:
            counts = [0] * self.n
            start = 0
            self._discard_ref = discard
            self._discard_bytes[:] = bytes(4 * self.n)
        for c in discard[start:]:
            k = counts[c] + 1
            counts[c] = k
            dv[c] = fl[k]
        self._discard_len = len(discard)
        self._discard_cnt = counts

    def hand_points(self, st: State) -> list[int]:
        """Each side's points this hand so far (``score_sheet()``'s totals), remembered while the table is the same."""
        miles = st._miles
        target = st._target
        # the distance cards played count only for the side that completed the trip (the safe trip)
        played = tuple(map(tuple, st._played)) if st._completer >= 0 or target in miles else None
        # one flat list (the scalars, S miles, S safety counts, S coup counts: fixed lengths), built by list
        # operations alone (a tuple of starred maps cost a compiled call more than the rest of the key)
        key: list[Any] = [target, st._extension_called_by, st._completer, st._completion_delayed, played]
        key += miles
        for x in st._safeties:
            key.append(len(x))
        for x in st._coups:
            key.append(len(x))
        if key != self._sheet_key:
            self._sheet_key = key
            self._sheet_points = [line["total"] for line in st.score_sheet()]
        return self._sheet_points

    def write(self, st: State, player: int, hands_played: int) -> bytearray:
        buf = bytearray(self._zero_bytes)
        v = memoryview(buf).cast("f")  # float32 slots; a slot set to an int holds the same float
        hand = st._hands[player]
        held = self._held  # copies of each card in the seat's hand, zeros again on the way out (an error too)
        for c in hand:
            held[c] += 1
        try:
            self._write_seat(v, st, player, hand)
            i = self._write_sides(v, buf, st, self.game.side_of[player])
            i = self._write_table(v, buf, i, st, player, hand)
            self._write_scores(v, i, st, player, hands_played)
        finally:
            v.release()
            for c in hand:
                held[c] = 0
        if self._tail:
            tail = [0.0] * self._tail
            write_turn_tail(tail, 0, st.observation(player))
            self._tail_block.pack_into(buf, 4 * (self.size - self._tail), *tail)
        return buf

    def _write_seat(self, v: memoryview[float], st: State, player: int, hand: list[int]) -> None:
        """``decision``, ``to_act``, ``hand`` and ``window_hazard`` into ``v``."""
        n, N = self.n, self.N
        ph = st._phase
        window = ph == P_COUP or ph == P_FAST  # a reaction window: a coup fourré's, or a fast play's
        if window and st._player != player:
            # the window shows only to the seat it asks: to the rest it looks like the next turn
            v[1 if not (st._stock or st._can_draw()) else 0] = 1.0
            who = st.turn_player()
        else:
            v[_PHASE_SLOT[ph]] = 1.0
            who = st._player if ph < P_HAND_OVER else -1
        if who >= 0:
            v[6 + (who - player) % N] = 1.0
        o = 6 + N
        fl, held = self._floats, self._held
        for c in hand:
            v[o + c] = fl[held[c]]
        if window and st._player == player:
            v[o + n + st._cf_hazard] = 1.0  # the window's hazard, shown to the seat it asks only

    def _write_sides(self, v: memoryview[float], buf: bytearray, st: State, side: int) -> int:
        """Each side's table into ``v`` (the observer's side first): top of the battle pile, hazards in force,
        safeties, distance played, miles, rolling, limit, coups fourrés, protections. Returns the next slot."""
        n, S = self.n, self.S
        block = self._block
        target = st._target or 1
        battle, bhaz, lhaz = st._battle, st._bhaz, st._lhaz
        stacked = self.game.stacked_hazards
        safeties, coups, played = st._safeties, st._coups, st._played
        miles, rolling, limit, prot = st._miles, st._rolling, st._limit, st._prot
        rows, row_bytes, fl = self._rows, self._row_bytes, self._floats
        i: int = self._o_sides
        for k in range(S):
            s = (side + k) % S
            b = battle[s]
            if b:
                v[i + b[-1]] = 1.0
            h = bhaz[s]
            if h >= 0:
                v[i + n + h] = 1.0
                if stacked:  # option stacked-hazards: every battle hazard in force, not only the latest
                    for h in st.battle_hazards(s):
                        v[i + n + h] = 1.0
            h = lhaz[s]
            if h >= 0:
                v[i + 2 * n + h] = 1.0
            j = i + 3 * n
            for c in safeties[s]:
                v[j + c] += 1.0
            cs = coups[s]
            for c in cs:
                v[j + c] += 1.0
            j += n
            row = played[s]
            if row != rows[s]:  # the distance block's bytes, packed again only when it changed
                rows[s] = row[:]
                row_bytes[s] = block.pack(*self._floats_of(row)) if any(row) else None
            packed = row_bytes[s]
            if packed is not None:  # only where a card is in it
                buf[4 * j : 4 * (j + n)] = packed
            j += n  # the side's scalars; a zero is left unwritten
            if miles[s]:
                m = miles[s] / target
                v[j] = m if m < 4.0 else 4.0
            if rolling[s]:
                v[j + 1] = 1.0
            lim = limit[s]
            if lim != NO_LIMIT:
                v[j + 2] = 1.0
                v[j + 3] = lim / 200.0 if lim < 200 else 1.0
            if cs:
                v[j + 4] = fl[len(cs)]
            if prot[s]:
                v[j + 5] = fl[_POPCOUNT(prot[s])]
            i += self._side_len
        return i

    def _write_table(
        self, v: memoryview[float], buf: bytearray, i: int, st: State, player: int, hand: list[int]
    ) -> int:
        """``discard``, ``discard_top``, ``unseen``, ``hand_sizes``, the
        draw pile, the target and the extension from slot ``i``; the next slot."""
        n, N = self.n, self.N
        discard = st._discard
        nb = 4 * n
        if discard:
            self._count_discard(discard)
            buf[4 * i : 4 * i + nb] = self._discard_bytes
            v[i + n + discard[-1]] = 1.0
        i += 2 * n
        # unseen: the deck less the cards face up and the seat's own hand, never below 0
        base = self._base
        face_up = st._face_up
        if face_up != self._face_up:  # the slots of the cards whose face-up count changed
            fl = self._floats
            bv = self._base_view
            last = self._face_up
            counts = self.counts
            for c in range(n):
                if face_up[c] != last[c]:
                    x = counts[c] - face_up[c]
                    base[c] = x
                    bv[c] = fl[x] if x > 0 else 0.0
            self._face_up = face_up[:]
        buf[4 * i : 4 * i + nb] = self._base_bytes
        fl, held = self._floats, self._held
        for c in hand:
            x = base[c] - held[c]
            v[i + c] = fl[x] if x > 0 else 0.0
        i += n
        hands = st._hands
        for k in range(N):
            v[i + k] = fl[len(hands[(player + k) % N])]
        i += N
        v[i] = len(st._stock) / self.deck_size
        t = st._target / self.max_target
        v[i + 1] = t if t < 1.0 else 1.0
        if st._extension_called_by >= 0:
            v[i + 2] = 1.0
        return i + 3

    def _write_scores(self, v: memoryview[float], i: int, st: State, player: int, hands_played: int) -> None:
        """``hand_score`` and ``match_totals`` (own side first) and ``hand_no`` from slot ``i``."""
        S = self.S
        side = self.game.side_of[player]
        points = self.hand_points(st)
        for k in range(S):
            x = points[(side + k) % S] / 1000.0
            v[i + k] = 0.0 if x < 0 else (100.0 if x > 100.0 else x)
        i += S
        totals = st._match_totals
        for k in range(S):
            x = totals[(side + k) % S] / 1000.0
            v[i + k] = 0.0 if x < 0 else (1000.0 if x > 1000.0 else x)
        h = hands_played / 10.0
        v[i + S] = h if h < 1000.0 else 1000.0


def turn_tail_names(g: Any) -> list[tuple[str, float]]:
    """(name, upper bound) of the slots the ruleset's turn rules add at the end of the observation vector,
    only where they are on (the vector of a ruleset without them is unchanged): the reshuffles this hand
    (``reshuffles/max_reshuffles``, turn.reshuffles), a mulligan under way (``decision.mulligan``), play then
    draw's next player once the owed draw is taken (``after_draw[+k]``, seats from the observer's), and the
    coup fourré turns queued (``queued_turns[+k]``, queued-coup-fourre-turn), and each side's karma
    (``karma[+k]``, sides from the observer's; ruleset 'karma'). All are public."""
    N = g.players
    out: list[tuple[str, float]] = []
    if g.max_reshuffles or g.max_refill_reshuffles:
        out.append(("reshuffles/max_reshuffles", 1.0))
    if g.mulligan:
        out.append(("decision.mulligan", 1.0))
    if g.play_then_draw:
        out += [(f"after_draw[+{k}]", 1.0) for k in range(N)]
    if g.coup_fourre_bonus_turn_queued:
        out += [(f"queued_turns[+{k}]", float(N)) for k in range(N)]
    if g.karma:
        out += [(f"karma[+{k}]", 1.0) for k in range(g.sides)]
    return out


def turn_tail_size(g: Any) -> int:
    return len(turn_tail_names(g))


def write_turn_tail(v: list[float], i: int, obs: Any) -> None:
    """The turn rules' slots of ``obs`` (an Observation) into ``v`` from ``i`` (:func:`turn_tail_names`)."""
    g = obs.game
    N = g.players
    me = obs.player
    most = max(g.max_reshuffles, g.max_refill_reshuffles)
    if most:
        v[i] = min(obs.reshuffles / most, 1.0)
        i += 1
    if g.mulligan:
        v[i] = 1.0 if obs.decision.kind == DecisionKind.MULLIGAN else 0.0
        i += 1
    if g.play_then_draw:
        if obs.after_draw >= 0:
            v[i + (obs.after_draw - me) % N] = 1.0
        i += N
    if g.coup_fourre_bonus_turn_queued:
        for q in obs.queued_turns:
            v[i + (q - me) % N] += 1.0
        i += N
    if g.karma:
        S = g.sides
        for k in range(S):
            v[i + k] = 1.0 if obs.sides[(obs.side + k) % S].karma else 0.0
        i += S


# a fast-play window shares the coup fourré's slot: a reaction window, its hazard shown to the seat asked;
# a mulligan shares the draw's: its draw is still to come
_SLOT_OF_PHASE = {P_DRAW: 0, P_PLAY: 1, P_COUP: 2, P_EXT: 3, P_FAST: 2, P_MULL: 0, P_HAND_OVER: 4}
_PHASE_SLOT = tuple(_SLOT_OF_PHASE.get(ph, 5) for ph in range(max(_SLOT_OF_PHASE) + 2))


def state_vector(st: State) -> list[float]:
    """The whole position as numbers, hidden cards included (a centralised critic's input; privileged).

    Per player in seat order: copies of each card held (``n`` each); then copies of each card left
    in the draw pile (``n``); then the top card of the draw pile, one-hot (``n``). Pair it with any
    seat's observation vector for the table.
    """
    g = st.game
    n = g.n_cards
    v = [0.0] * ((g.players + 2) * n)
    for p, hand in enumerate(st._hands):
        o = p * n
        for c in hand:
            v[o + c] += 1.0
    o = g.players * n
    stock = st._stock
    for c in stock:
        v[o + c] += 1.0
    if stock:
        v[o + n + stock[-1]] = 1.0
    return v


def draw_due(st: State) -> bool:
    """Whether the state waits for the draw that starts a turn and it is the only legal action then (not
    where the ruleset's turn rules offer a choice at the draw: the discard pile's top, a mulligan)."""
    return st._phase == P_DRAW and not st.game.draw_choices


def draw_pile_size(st: State) -> int:
    """How many cards are left to draw (public: ``observation(p).draw_pile``)."""
    return len(st._stock)


def draw_pile_counts(st: State) -> list[int]:
    """Copies of each card left in the draw pile (hidden information: chance nodes and tools entitled to it)."""
    counts = [0] * st.game.n_cards
    for c in st._stock:
        counts[c] += 1
    return counts


def arrange_top(pile: list[int], cards: Sequence[int]) -> None:
    """Reorder ``pile`` (a draw pile: its top is its end) so that its next cards taken are ``cards``, in
    that order; the order of the rest is of no consequence. ``ValueError`` when a card has no copy left.

    For chance nodes that choose the cards of a draw pile as they are taken (OpenSpiel), before an
    action that takes several (a mulligan's draw back, a refill) or after a reshuffle made the pile."""
    for i, card in enumerate(cards):
        top = len(pile) - 1 - i
        for j in range(top, -1, -1):
            if pile[j] == card:
                pile[j], pile[top] = pile[top], pile[j]
                break
        else:
            raise ValueError(f"no copy of card {card} is left to take at position {i} of the pile")


def stack_next_draw(st: State, card: int) -> None:
    """Put a copy of ``card`` from the draw pile on its top, so the next card taken is ``card``.

    For chance nodes that choose each card as it is drawn (OpenSpiel): the order of the rest of
    the pile is of no consequence to them. ``ValueError`` when no copy is left to draw.
    """
    stock = st._stock
    if stock and stock[-1] == card:
        return
    for j in range(len(stock) - 2, -1, -1):
        if stock[j] == card:
            stock[j], stock[-1] = stock[-1], stock[j]
            return
    raise ValueError(f"no {st.game.card_ids[card] if 0 <= card < st.game.n_cards else card} is left to draw")


def arrange_next_draws(st: State, cards: Sequence[int]) -> None:
    """The next cards taken from the draw pile are ``cards``, in order (:func:`arrange_top`)."""
    arrange_top(st._stock, cards)


def set_reshuffle_hook(st: State, hook: Any) -> None:
    """Have ``hook(pile)`` called with each pile a reshuffle makes, after the engine's shuffle, to reorder it
    in place (chance nodes choosing the cards drawn from it); None removes it. ``hook`` must be marked
    ``_immutable = True``: a clone of the state shares it."""
    st._reshuffle_hook = hook


def hands_held(st: State) -> list[list[int]]:
    """Every player's hand, copied (hidden information: for tools entitled to it)."""
    return [list(h) for h in st._hands]


def reshuffles_made(st: State) -> int:
    """Reshuffles of the discard pile this hand (public: ``observation(p).reshuffles``)."""
    return st._reshuffles
