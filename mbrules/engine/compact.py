"""Fast readers of the engine's compact state for the RL toolkits (``mbrules.env``, ``mbrules.openspiel``).

The observation vector of :class:`mbrules.env.encoding.ObservationEncoder` is the layout; this
module writes it straight from the state's own lists (hands, piles, counts) instead of building
an :class:`Observation` and a dict per step, which cost more than the engine's action itself.
It reads exactly what ``state.observation(player)`` shows (the window of a coup fourré only to
the seat it asks, never another hand or the draw order): ``tests/rl/test_compact.py`` compares
both vectors over many random positions of every bundled ruleset.

It also gives the chance hooks of the OpenSpiel game: the cards left to draw, counted, and
``stack_next_draw`` to put a chosen card on top of the draw pile before the engine takes it.
Like the rest of ``mbrules.engine``, the ``_`` fields are read here and nowhere outside.
"""

from __future__ import annotations

import struct

from .cards import NO_LIMIT
from .state import P_COUP, P_DRAW, P_EXT, P_HAND_OVER, P_PLAY, State

__all__ = ["ObservationWriter", "draw_due", "draw_pile_counts", "draw_pile_size", "stack_next_draw", "state_vector"]

_POPCOUNT = int.bit_count


def _left(copies: int, face_up: int, held: float) -> float:
    return copies - face_up - held


class ObservationWriter:
    """Writes the vector of ``encoder`` (an ``ObservationEncoder``) for one seat of a state.

    ``write(state, player, hands_played)`` returns the float32 bytes (a ``bytearray``, which numpy
    wraps without a copy: ``numpy.frombuffer(b, numpy.float32)``) of
    ``encoder.encode(state.observation(player), hands_played, hand_points)`` with the hand's points
    so far as ``hand_points``.

    The vector is made of blocks (the seat's hand, each side's table, the discard pile, the unseen
    counts...), most of which do not change from one step to the next. Each block's bytes are
    remembered under the exact values it is made from (its key), so a step packs only the blocks
    whose values are new; each memo holds at most ``MEMO`` blocks and is emptied when full.
    """

    MEMO = 4096

    def __init__(self, encoder):
        g = encoder.game
        self.game = g
        self.n, self.N, self.S = encoder.n, encoder.N, encoder.S
        self.size = encoder.size
        self.deck_size = encoder.deck_size
        self.max_target = encoder.max_target
        self.counts = tuple(g.deck_counts)
        n, N, S = self.n, self.N, self.S
        self._head = struct.Struct(f"{6 + N}f")
        self._cards = struct.Struct(f"{n}f")
        self._side = struct.Struct(f"{5 * n + 6}f")
        self._tail = struct.Struct(f"{N + 3 + 2 * S + 1}f")
        self._zero_cards = bytes(4 * n)
        assert 6 + N + 2 * n + S * (5 * n + 6) + 3 * n + N + 3 + 2 * S + 1 == self.size, \
            "the writer's blocks disagree with the encoder's layout"
        self._memo_head: dict = {}
        self._memo_hand: dict = {}
        self._memo_window: dict = {}
        self._memo_side: dict = {}
        self._memo_discard: dict = {}
        self._memo_unseen: dict = {}
        self._sheet_key = None
        self._sheet_points = None
        self._encoder = encoder

    def __reduce__(self):
        return ObservationWriter, (self._encoder,)  # pickled as its layout; the memos start empty

    def hand_points(self, st: State) -> list[int]:
        """Each side's points this hand so far (``score_sheet()``'s totals), remembered while the table is the same."""
        key = (st._target, st._extension_called_by, st._completer, st._completion_delayed, tuple(st._miles),
               tuple(map(len, st._safeties)), tuple(map(len, st._coups)), tuple(map(tuple, st._played)))
        if key != self._sheet_key:
            self._sheet_key = key
            self._sheet_points = [line["total"] for line in st.score_sheet()]
        return self._sheet_points

    def write(self, st: State, player: int, hands_played: int) -> bytearray:
        N, S = self.N, self.S
        side = self.game.side_of[player]
        ph = st._phase
        stock = st._stock
        # decision and to_act
        if ph == P_COUP and st._player != player:
            # the window shows only to the seat it asks: to the rest it looks like the next turn
            slot = 1 if not stock else 0
            who = st.turn_player()
        else:
            slot = _PHASE_SLOT[ph]
            who = st._player if ph < P_HAND_OVER else -1
        rel = (who - player) % N if who >= 0 else -1
        key = (slot, rel)
        head = self._memo_head.get(key)
        if head is None:
            vals = [0.0] * (6 + N)
            vals[slot] = 1.0
            if rel >= 0:
                vals[6 + rel] = 1.0
            head = self._remember(self._memo_head, key, self._head.pack(*vals))
        hand = tuple(st._hands[player])
        hand_b = self._memo_hand.get(hand)
        if hand_b is None:
            hand_b = self._remember(self._memo_hand, hand, self._cards.pack(*self._count(hand)))
        window = st._cf_hazard if ph == P_COUP and st._player == player else -1
        if window < 0:
            window_b = self._zero_cards
        else:
            window_b = self._memo_window.get(window)
            if window_b is None:
                window_b = self._remember(self._memo_window, window, self._cards.pack(*self._count((window,))))
        parts = [head, hand_b, window_b]
        target = st._target or 1
        battle, bhaz, lhaz = st._battle, st._bhaz, st._lhaz
        safeties, coups, played = st._safeties, st._coups, st._played
        miles, rolling, limit, prot = st._miles, st._rolling, st._limit, st._prot
        memo = self._memo_side
        for k in range(S):
            s = (side + k) % S
            b = battle[s]
            key = (b[-1] if b else -1, bhaz[s], lhaz[s], tuple(safeties[s]), tuple(coups[s]), tuple(played[s]),
                   miles[s], target, rolling[s], limit[s], prot[s])
            block = memo.get(key)
            if block is None:
                block = self._remember(memo, key, self._side_block(key))
            parts.append(block)
        discard = tuple(st._discard)
        block = self._memo_discard.get(discard)
        if block is None:
            top = self._count(discard[-1:])
            block = self._remember(self._memo_discard, discard,
                                   self._cards.pack(*self._count(discard)) + self._cards.pack(*top))
        parts.append(block)
        face_up = tuple(st._face_up)
        key = (face_up, hand)
        block = self._memo_unseen.get(key)
        if block is None:
            held = self._count(hand)
            block = self._remember(self._memo_unseen, key, self._cards.pack(*[
                x if x > 0 else 0.0 for x in map(_left, self.counts, face_up, held)]))
        parts.append(block)
        hands = st._hands
        tail = [float(len(hands[(player + k) % N])) for k in range(N)]
        t = st._target / self.max_target
        tail += [len(stock) / self.deck_size, t if t < 1.0 else 1.0, 1.0 if st._extension_called_by >= 0 else 0.0]
        points = self.hand_points(st)
        for k in range(S):
            x = points[(side + k) % S] / 1000.0
            tail.append(0.0 if x < 0 else (100.0 if x > 100.0 else x))
        totals = st._match_totals
        for k in range(S):
            x = totals[(side + k) % S] / 1000.0
            tail.append(0.0 if x < 0 else (1000.0 if x > 1000.0 else x))
        h = hands_played / 10.0
        tail.append(h if h < 1000.0 else 1000.0)
        parts.append(self._tail.pack(*tail))
        return bytearray(b"".join(parts))

    def _remember(self, memo: dict, key, value: bytes) -> bytes:
        if len(memo) >= self.MEMO:
            memo.clear()
        memo[key] = value
        return value

    def _count(self, cards) -> list[float]:
        v = [0.0] * self.n
        for c in cards:
            v[c] += 1.0
        return v

    def _side_block(self, key) -> bytes:
        top, bhaz, lhaz, safeties, coups, played, miles, target, rolling, limit, prot = key
        n = self.n
        v = [0.0] * (5 * n + 6)
        if top >= 0:
            v[top] = 1.0
        if bhaz >= 0:
            v[n + bhaz] = 1.0
        if lhaz >= 0:
            v[2 * n + lhaz] = 1.0
        for c in safeties + coups:
            v[3 * n + c] += 1.0
        for c, k in enumerate(played):
            v[4 * n + c] = float(k)
        i = 5 * n
        m = miles / target
        v[i] = m if m < 4.0 else 4.0
        v[i + 1] = 1.0 if rolling else 0.0
        if limit != NO_LIMIT:
            v[i + 2] = 1.0
            v[i + 3] = limit / 200.0 if limit < 200 else 1.0
        v[i + 4] = float(len(coups))
        v[i + 5] = float(_POPCOUNT(prot))
        return self._side.pack(*v)


_PHASE_SLOT = {P_DRAW: 0, P_PLAY: 1, P_COUP: 2, P_EXT: 3, P_HAND_OVER: 4}
_PHASE_SLOT = tuple(_PHASE_SLOT.get(ph, 5) for ph in range(max(_PHASE_SLOT) + 2))


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
    """Whether the state waits for the draw that starts a turn (the only legal action then)."""
    return st._phase == P_DRAW


def draw_pile_size(st: State) -> int:
    """How many cards are left to draw (public: ``observation(p).draw_pile``)."""
    return len(st._stock)


def draw_pile_counts(st: State) -> list[int]:
    """Copies of each card left in the draw pile (hidden information: chance nodes and tools entitled to it)."""
    counts = [0] * st.game.n_cards
    for c in st._stock:
        counts[c] += 1
    return counts


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

