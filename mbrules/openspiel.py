"""Mille Bornes as an OpenSpiel game, for any ruleset: ``import mbrules.openspiel`` registers it.

    import pyspiel
    import mbrules.openspiel  # registers python_mille_bornes
    game = pyspiel.load_game("python_mille_bornes", {"ruleset": "kids-115", "players": 2})
    game = pyspiel.load_game("python_mille_bornes(ruleset=winning-moves,players=4,options=hazard-on-hazard)")

Parameters: ``ruleset`` (a bundled id or a YAML path), ``players``, ``options`` (option ids or
paths, separated by ``+`` or ``;``: OpenSpiel's game string already uses commas).

Chance: explicit chance nodes, one per card of the deal. Before each hand the state is a chance
node whose outcomes are the card kinds still in the box (outcome ``c`` = card index ``c``,
probability = copies left / cards left); the k-th outcome is the k-th card off the top of the
shuffled deck, so the deck's order is drawn card by card — the same uniform shuffle, up to the
order of identical cards, as the engine's. One chance node for the whole permutation is
impossible (≈10^90 orders), and a chance node per card keeps every node's branching at the
number of card kinds (≈20). The whole order is drawn at the start of the hand because the
engine plays from a dealt position (``State.from_position``); drawing each card at the moment
it is taken would need the engine to let a caller choose the next card, which its public API
does not. The match's next hand starts with a new round of chance nodes.

Players and information: imperfect information; ``observation_string``/``observation_tensor``
are built from ``state.observation(player)`` only (the vector of ``mbrules.env.encoding``);
``information_state_string`` adds the seat's perfect-recall history (every public action, the
cards it was dealt and drew, never another seat's cards or a window it was not asked), and
``information_state_tensor`` is the observation vector (a summary, not perfect recall).

Returns: at the match's end, +1 to each player of the winning side and ``-W/L`` to each other
player (W winners, L losers), so the game is zero-sum; 0 for a draw or an unfinished match.

ISMCTS: ``resample_from_infostate`` redraws the cards the seat has not seen (other hands and
the draw pile) uniformly, keeps every card it has seen where it was, and replays the hand; a
redraw under which a past action would be illegal (a window that needs a safety the redraw did
not give its holder) is drawn again, up to 64 times, then the true deal is kept (counted in
``RESAMPLE_STATS``). Serialization: OpenSpiel's default (the history of actions) works.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel

import mbrules
from mbrules.engine import State as _EngineState

from mbrules.vocab import COUP_FOURRE, DECLINE, DISCARD, DRAW, PLAY
from .env.encoding import ActionSpace, ObservationEncoder

SHORT_NAME = "python_mille_bornes"
MAX_PLAYERS = 6
RESAMPLE_TRIES = 64
RESAMPLE_STATS = {"resamples": 0, "redraws": 0, "kept_true_deal": 0}

_DEFAULTS = {"ruleset": "winning-moves", "players": 4, "options": "", "hands": 0}

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


def _options(text: str) -> list[str]:
    return [o.strip() for o in text.replace(";", "+").split("+") if o.strip()]


class MilleBornesGame(pyspiel.Game):
    """One ruleset, options and player count, compiled once (``self.mb``)."""

    def __init__(self, params=None):
        p = dict(_DEFAULTS)
        p.update(params or {})
        mb = mbrules.load_game(str(p["ruleset"]), players=int(p["players"]), options=_options(str(p["options"])))
        self.mb = mb
        self.hands = int(p["hands"])
        if self.hands < 0:
            raise ValueError(f"hands must be 0 (the whole match) or a positive number, not {self.hands}")
        self.space = ActionSpace(mb)
        self.encoder = ObservationEncoder(mb)
        self.ctx = _Context(mb, self.space, self.encoder, self.hands)
        deck = len(mb.deck)
        sizes = [len(side) for side in mb.side_players]
        worst = min(-w / (mb.players - w) for w in sizes)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.space),
            max_chance_outcomes=mb.n_cards,
            num_players=mb.players,
            min_utility=worst,
            max_utility=1.0,
            utility_sum=0.0,
            # a hand: the deal's chance nodes, then at most a draw, a card and a window answer per
            # card of the deck, and the extension question
            max_game_length=(min(mb.max_hands, self.hands) if self.hands else mb.max_hands) * (4 * deck + 2),
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self):
        return MilleBornesState(self, self.ctx)

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self.ctx, perfect_recall)


class MilleBornesState(pyspiel.State):
    """A match: chance nodes deal each hand, then the engine plays it (``self.mb_state``)."""

    def __init__(self, game: MilleBornesGame, ctx: "_Context"):
        super().__init__(game)
        self._g = ctx  # shared, never copied: the compiled game and its layouts
        mb = ctx.mb
        self._counts = list(mb.deck_counts)  # copies left to deal this hand
        self._order: list[int] = []  # the deal, top of the shuffled deck first
        self._first = 0  # first player of this hand
        self._totals = [0] * mb.sides  # match totals before this hand
        self._hands_done = 0
        self._result = None  # returns once the match is over
        self._hand = _Hand(None)  # the engine's State for the hand in play (``mb_state``)
        self._moves: list[tuple[int, int]] = []  # (player, action int) this hand
        self._logs = _Logs(mb.players)  # what each seat saw happen, for its information state string
        self._slots = None  # slot bookkeeping for resampling (see _track)

    @property
    def mb_state(self):
        """The engine's State of the hand in play (None while a hand is being dealt)."""
        return self._hand.st

    # -- whose move -------------------------------------------------------------------
    def current_player(self):
        if self._result is not None:
            return pyspiel.PlayerId.TERMINAL
        if self.mb_state is None:
            return pyspiel.PlayerId.CHANCE
        return self.mb_state.current_player

    def is_terminal(self):
        return self._result is not None

    def _legal_actions(self, player):
        st = self.mb_state
        if st is None or player != st.current_player:
            return []
        return sorted(self._g.space.legal_indices(st))

    def chance_outcomes(self):
        left = len(self._g.mb.deck) - len(self._order)
        return [(c, n / left) for c, n in enumerate(self._counts) if n > 0]

    # -- moves ---------------------------------------------------------------------------
    def _apply_action(self, action):
        if self.mb_state is None:
            self._deal_card(action)
        else:
            self._play(action)

    def _deal_card(self, c: int):
        if not 0 <= c < len(self._counts) or self._counts[c] <= 0:
            raise ValueError(f"chance outcome {c} is not a card left to deal")
        self._counts[c] -= 1
        self._order.append(c)
        mb = self._g.mb
        if len(self._order) < len(mb.deck):
            return
        N, hs = mb.players, mb.hand_size
        hands = [[] for _ in range(N)]
        for j in range(N * hs):  # one card at a time from the first player (WM §3)
            hands[(self._first + j) % N].append(self._order[j])
        self._hand = _Hand(_EngineState.from_position(
            mb, hands=hands, draw_top_first=self._order[N * hs:], turn=self._first, match_totals=self._totals))
        self._moves = []
        self._slots = _Slots(self._order, self._first, N, hs)
        for q in range(N):
            self._logs.seat[q].append((-1, f"hand {self._hands_done + 1} dealt: " + " ".join(
                mb.card_ids[c] for c in hands[q])))

    def _play(self, index: int):
        st = self.mb_state
        mb = self._g.mb
        a = self._g.space.actions[index]
        p = st.current_player
        before = st.observation(p)
        st.apply(a)
        after = st.observation(p)
        self._moves.append((p, int(a)))
        taken = before.draw_pile - after.draw_pile
        self._slots.track(p, a, taken)
        drew = " ".join(mb.card_ids[c] for c in after.hand[len(after.hand) - taken:]) if taken else ""
        for q in range(mb.players):
            if a.op == DRAW:
                text = f"drew {drew}" if q == p else "draw"
            elif a.op == DECLINE and q != p:  # a window shows only to the seat it asks
                continue
            else:
                text = str(a) + (f", drew {drew}" if q == p and drew else "")
            self._logs.seat[q].append((p, text))
        if st.hand_over:
            self._end_hand(st)

    def _end_hand(self, st):
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
        self._order = []
        self._hand = _Hand(None)

    def returns(self):
        if self._result is None:
            return [0.0] * self._g.mb.players
        return list(self._result)

    # -- strings ---------------------------------------------------------------------------
    def _action_to_string(self, player, action):
        mb = self._g.mb
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {mb.card_ids[action]}"
        return str(self._g.space.actions[action])

    def __str__(self):
        if self._result is not None:
            return f"match over after {self._hands_done} hands: totals {self._totals}, returns {self._result}"
        if self.mb_state is None:
            return f"hand {self._hands_done + 1}: dealing, {len(self._order)} of {len(self._g.mb.deck)} cards"
        return repr(self.mb_state)

    # -- ISMCTS ------------------------------------------------------------------------------
    def resample_from_infostate(self, player_id, probability_sampler=None):
        """A state ``player_id`` cannot tell from this one, its unseen cards redrawn (module docstring)."""
        RESAMPLE_STATS["resamples"] += 1
        if self.mb_state is None or self._result is not None:
            return self.clone()  # nothing hidden is in play between hands
        rng = probability_sampler if isinstance(probability_sampler, random.Random) else random.Random(
            _seed_from(probability_sampler))
        fixed = self._slots.known_to(player_id)
        free = [j for j in range(len(self._order)) if j not in fixed]
        prefix = self._prefix_history()
        for _ in range(RESAMPLE_TRIES):
            cards = [self._order[j] for j in free]
            rng.shuffle(cards)
            order = list(self._order)
            for j, c in zip(free, cards):
                order[j] = c
            new = self._replay(prefix, order)
            if new is not None:
                return new
            RESAMPLE_STATS["redraws"] += 1
        RESAMPLE_STATS["kept_true_deal"] += 1
        return self.clone()

    def _prefix_history(self) -> list[int]:
        """The actions before this hand's deal (earlier hands are over: their hidden cards no longer matter)."""
        h = self.history()
        return h[: len(h) - len(self._order) - len(self._moves)]

    def _replay(self, prefix, order):
        s = self.get_game().new_initial_state()
        for a in prefix:
            s.apply_action(a)
        for c in order:
            s.apply_action(c)
        idx = self._g.space.index
        for p, a in self._moves:
            if s.mb_state is None or s.mb_state.current_player != p or not s.mb_state.can_apply(a):
                return None
            s.apply_action(idx[a])
        return s


class _Context:
    """The compiled game and its layouts, shared by every state of a game (``deepcopy`` keeps it)."""

    def __init__(self, mb, space, encoder, hands):
        self.mb, self.space, self.encoder, self.hands = mb, space, encoder, hands

    def __deepcopy__(self, memo):
        return self


class _Logs:
    """Per seat, what it saw happen; copied list by list (a clone in OpenSpiel copies it every step)."""

    __slots__ = ("seat",)

    def __init__(self, n: int):
        self.seat = [[] for _ in range(n)]

    def __deepcopy__(self, memo):
        c = _Logs(0)
        c.seat = [list(x) for x in self.seat]
        return c


class _Hand:
    """Holds the engine's State; a deep copy (OpenSpiel's ``clone``) is the engine's own ``clone()``."""

    __slots__ = ("st",)

    def __init__(self, st):
        self.st = st

    def __deepcopy__(self, memo):
        return _Hand(self.st.clone() if self.st is not None else None)


class _Slots:
    """Which positions of the deal a seat has seen: dealt or drawn to it, or shown on the table.

    Slot ``j`` is the j-th card off the top of the shuffled deck. The bookkeeping follows the
    true cards (the game is entitled to them); only ``known_to`` leaves it, as a set of slots.
    """

    def __init__(self, order, first, N, hs):
        self.order = order
        self.held = [[] for _ in range(N)]
        for j in range(N * hs):
            self.held[(first + j) % N].append(j)
        self.seen = [set(h) for h in self.held]
        self.public: set[int] = set()
        self.next_slot = N * hs

    def track(self, p, a, taken: int):
        """``p`` did ``a`` and took ``taken`` cards off the draw pile."""
        if a.op in (PLAY, DISCARD, COUP_FOURRE):
            c = a.card_index
            for j in self.held[p]:
                if self.order[j] == c:
                    self.held[p].remove(j)
                    self.public.add(j)
                    break
        for _ in range(taken):
            j = self.next_slot
            self.next_slot += 1
            self.held[p].append(j)
            self.seen[p].add(j)

    def known_to(self, p) -> set[int]:
        return self.seen[p] | self.public


def _seed_from(sampler) -> int:
    try:
        return int(float(sampler()) * (1 << 53))
    except Exception:  # noqa: BLE001  OpenSpiel's samplers differ by version: fall back to fresh entropy
        return random.SystemRandom().getrandbits(53)


def _returns(mb, winner: int) -> list[float]:
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

    def set_from(self, state: MilleBornesState, player: int):
        st = state.mb_state
        if st is None:
            self.tensor.fill(0)
            return
        points = [line["total"] for line in st.score_sheet()]
        self.tensor[:] = self._g.encoder.encode(st.observation(player), state._hands_done, points)

    def string_from(self, state: MilleBornesState, player: int) -> str:
        mb = self._g.mb
        st = state.mb_state
        if st is None:
            now = (f"hand {state._hands_done + 1}: " + ("match over" if state._result is not None else "dealing")
                   + f"; totals {state._totals}")
        else:
            d = st.observation(player).to_dict()
            d["hand_no"] = state._hands_done
            now = repr(sorted(d.items()))
        if not self.perfect_recall:
            return f"{mb.player_names[player]} {now}"
        past = "; ".join(f"{mb.player_names[q] if q >= 0 else '*'}: {t}" for q, t in state._logs.seat[player])
        return f"{mb.player_names[player]} [{past}] {now}"


pyspiel.register_game(_GAME_TYPE, MilleBornesGame)
