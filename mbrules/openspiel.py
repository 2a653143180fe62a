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

import numpy as np
import pyspiel

import mbrules
from mbrules.engine import Action, State as _EngineState

from .bots import check_bot, make_bot
from .engine.compact import ObservationWriter, draw_due, draw_pile_size, stack_next_draw
from .env.encoding import ActionSpace, ObservationEncoder, check_index
from .seats import BotSeat, SeatLoop
from .vocab import COUP_FOURRE, DECLINE, DISCARD, DRAW, FAST_PLAY, PLAY

__all__ = ["DRAWS", "MAX_PLAYERS", "RESAMPLE_STATS", "RESAMPLE_TRIES", "SHORT_NAME", "MilleBornesBot",
           "MilleBornesGame", "MilleBornesState", "bot"]

SHORT_NAME = "python_mille_bornes"
MAX_PLAYERS = 6
RESAMPLE_TRIES = 64
RESAMPLE_STATS = {"resamples": 0, "redraws": 0, "kept_true_deal": 0}
DRAWS = ("chance", "player")

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

_DEFAULTS = {"ruleset": "winning-moves", "players": 4, "options": "", "hands": 0, "draws": "chance"}

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
        if mb.ruleset.turn != type(mb.ruleset.turn)():
            # the chance nodes deal the draw pile card by card in one order; a reshuffle, a draw from the
            # discard pile, a mulligan or a pass over held cards is not that order (docs/rl.md)
            raise ValueError(f"{mb.ruleset_id}: the OpenSpiel game does not play the ruleset's turn rules "
                             "(turn: reshuffle-discard, draw-from-discard, mulligan, refill-empty-hand, "
                             "no-duplicate-draws, play-then-draw) yet; use mbrules.env for them")
        self.mb = mb
        self.hands = int(p["hands"])
        if self.hands < 0:
            raise ValueError(f"hands must be 0 (the whole match) or a positive number, not {self.hands}")
        self.draws = str(p["draws"])
        if self.draws not in DRAWS:
            raise ValueError(f"draws must be one of {', '.join(DRAWS)}, not {self.draws!r}")
        self.space = ActionSpace(mb)
        self.encoder = ObservationEncoder(mb)
        self.ctx = _Context(mb, self.space, self.encoder, self.hands, self.draws == "chance")
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
            # a hand: a chance node per card of the deck (dealt or drawn), then at most a draw, a
            # card and a window answer per card of the deck, and the extension question
            max_game_length=(min(mb.max_hands, self.hands) if self.hands else mb.max_hands) * (4 * deck + 2),
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self):
        return MilleBornesState(self, self.ctx)

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self.ctx, perfect_recall)


class MilleBornesState(pyspiel.State):
    """A match: chance nodes deal each hand (and, by default, every card drawn); the engine plays it (``mb_state``)."""

    def __init__(self, game: MilleBornesGame, ctx: "_Context"):
        super().__init__(game)
        self._g = ctx  # shared, never copied: the compiled game and its layouts
        mb = ctx.mb
        self._counts = list(mb.deck_counts)  # copies not yet dealt or drawn this hand
        self._left = len(mb.deck)
        self._order: list[int] = []  # the cards in the order chance gave them: dealt, then drawn
        self._first = 0  # first player of this hand
        self._totals = [0] * mb.sides  # match totals before this hand
        self._hands_done = 0
        self._hand_start = 0  # len(history()) when this hand's first chance node came
        self._result = None  # returns once the match is over
        self._hand = _Hand(None)  # the engine's State for the hand in play (``mb_state``)
        self._moves: list[tuple[int, int]] = []  # this hand since the deal: (player, Action), (-1, card) a draw
        self._pending = -1  # draws="chance": a coup fourré waiting for its replacement draw's chance outcome
        self._events = _Events()  # what happened, for each seat's information state string
        self._drawn = 0  # cards taken off the draw pile this hand (the next slot is dealt + this)
        self._hand_events = 0  # index in self._events of this hand's deal
        self._cur = _CHANCE  # current_player(), kept up to date by every action

    @property
    def mb_state(self):
        """The engine's State of the hand in play (None while a hand is being dealt)."""
        return self._hand.st

    # -- whose move -------------------------------------------------------------------
    def current_player(self):
        return self._cur  # OpenSpiel asks several times an action: worked out once, in _whose_move

    def _whose_move(self) -> int:
        if self._result is not None:
            return _TERMINAL
        st = self._hand.st
        if st is None or self._pending >= 0 or (self._g.chance_draws and draw_due(st)):
            return _CHANCE
        return st.current_player

    def is_terminal(self):
        return self._result is not None

    def _legal_actions(self, player):
        st = self._hand.st
        if st is None or player != self._cur:
            return []
        idx = self._g.space.index
        return sorted([idx[a] for a in st.legal_actions()])

    def chance_outcomes(self):
        left = self._left
        return [(c, n / left) for c, n in enumerate(self._counts) if n > 0]

    # -- moves ---------------------------------------------------------------------------
    def apply_action(self, action):
        """OpenSpiel's ``apply_action``; a negative index is refused here, before OpenSpiel's own check
        (-1 is its ``kInvalidAction``: a ``SpielError`` that would not name the range)."""
        if type(action) is not int or action < 0:
            self._check(action)
        super().apply_action(action)

    def _check(self, action) -> int:
        """``action`` as an int in the range of the node (chance outcomes or player actions), else ``ValueError``."""
        if self._result is not None:
            raise ValueError("the match is over: no action applies")
        if self._cur == _CHANCE:
            return check_index(action, self._g.mb.n_cards, "chance outcome")
        return self._g.space.check(action)

    def _apply_action(self, action):
        if self._result is not None:
            raise ValueError("the match is over: no action applies")
        if self._cur == _CHANCE:
            c = action if type(action) is int and 0 <= action < self._g.n_cards else \
                check_index(action, self._g.n_cards, "chance outcome")
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
            self._play(action if type(action) is int and 0 <= action < self._g.n_actions else
                       self._g.space.check(action))
        self._cur = self._whose_move()

    def _deal_card(self):
        mb = self._g.mb
        N, hs = mb.players, mb.hand_size
        dealt = N * hs if self._g.chance_draws else len(mb.deck)
        if len(self._order) < dealt:
            return
        hands = [[] for _ in range(N)]
        for j in range(N * hs):  # one card at a time from the first player (WM §3)
            hands[(self._first + j) % N].append(self._order[j])
        if self._g.chance_draws:
            # the rest of the deck, in card order: which card comes next is each draw's chance outcome
            rest = [c for c, n in enumerate(self._counts) for _ in range(n)]
        else:
            rest = self._order[N * hs:]
        # the hands before this one count (a match of match.hands hands ends after its last: fixed_hands)
        self._hand = _Hand(_EngineState.from_position(
            mb, hands=hands, draw_top_first=rest, turn=self._first, match_totals=self._totals,
            hands_played=self._hands_done))
        self._moves = []
        self._drawn = 0
        self._hand_events = len(self._events.items)
        self._events.add(("deal", self._hands_done, tuple(tuple(h) for h in hands)))

    def _draw_card(self, c: int):
        st = self._hand.st
        stack_next_draw(st, c)
        self._moves.append((-1, c))
        if self._pending >= 0:
            a = self._g.space.actions[self._pending]
            self._pending = -1
            self._engine_apply(a)
        else:
            self._engine_apply(self._g.mb.draw_action)

    def _play(self, index: int):
        st = self._hand.st
        a = self._g.space.actions[index]
        p = st.current_player
        mb = self._g.mb
        refill = ((a.op == COUP_FOURRE and mb.coup_fourre_replacement_draw)
                  or (a.op == FAST_PLAY and mb.fast_play_replacement_draw))  # a fast play draws as a coup fourré does
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

    def _refuse(self, index, a, exc):
        legal = ", ".join(str(x) for x in self._hand.st.legal_actions())
        raise ValueError(f"action {index} ({a}) is refused: {exc.message}; legal now: {legal}") from None

    def _engine_apply(self, a, index=None):
        st = self._hand.st
        p = st.current_player
        op = a.op
        refills = op == COUP_FOURRE or op == FAST_PLAY  # besides a draw, only these take cards (a replacement)
        before = draw_pile_size(st) if refills else 0
        try:
            st.apply(a)  # the engine's one legality check; a refusal leaves the state as it was
        except mbrules.IllegalAction as exc:
            self._refuse(index, a, exc)
        taken = 1 if op == DRAW else (before - draw_pile_size(st) if refills else 0)
        if taken:
            j = self._g.dealt + self._drawn  # the slot of the first card taken
            self._drawn += taken
            drew = tuple(self._order[j:j + taken])
        else:
            drew = ()
        self._events.add(("act", p, a, drew))
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
        self._left = len(mb.deck)
        self._order = []
        self._hand = _Hand(None)
        self._hand_start = len(self.history()) + 1  # this action is appended to the history after this call

    def returns(self):
        if self._result is None:
            return [0.0] * self._g.mb.players
        return list(self._result)

    # -- strings ---------------------------------------------------------------------------
    def _action_to_string(self, player, action):
        mb = self._g.mb
        if player == _CHANCE:
            c = check_index(action, mb.n_cards, "chance outcome")
            return f"deal {mb.card_ids[c]}"
        return str(self._g.space.actions[self._g.space.check(action)])

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
        fixed = self._slots().known_to(player_id)
        free = [j for j in range(len(self._order)) if j not in fixed]
        hidden = [self._order[j] for j in free] + [c for c, n in enumerate(self._counts) for _ in range(n)]
        prefix = self.history()[:self._hand_start]
        for _ in range(RESAMPLE_TRIES):
            rng.shuffle(hidden)
            order = list(self._order)
            for j, c in zip(free, hidden):
                order[j] = c
            new = self._replay(prefix, order)
            if new is not None:
                return new
            RESAMPLE_STATS["redraws"] += 1
        RESAMPLE_STATS["kept_true_deal"] += 1
        return self.clone()

    def _slots(self) -> "_Slots":
        """Which slots of this hand each seat has seen, from the hand's events (worked out when asked)."""
        mb = self._g.mb
        slots = _Slots(self._first, mb.players, mb.hand_size)
        actions = mb.actions
        for e in self._events.items[self._hand_events + 1:]:
            slots.track(self._order, e[1], actions[e[2]], len(e[3]))
        return slots

    def _replay(self, prefix, order):
        s = self.get_game().new_initial_state()
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

    def __init__(self, mb, space, encoder, hands, chance_draws):
        self.mb, self.space, self.encoder, self.hands = mb, space, encoder, hands
        self.chance_draws = chance_draws
        self.dealt = mb.players * mb.hand_size  # slots dealt; the draws take the slots after them
        self.n_cards = mb.n_cards
        self.n_actions = len(space)
        self.writer = ObservationWriter(encoder)

    def __deepcopy__(self, memo):
        return self


class _Events:
    """What happened this match, as tuples; each seat's history string is read from it when asked."""

    __slots__ = ("items",)

    def __init__(self):
        self.items: list[tuple] = []

    def add(self, item: tuple) -> None:
        self.items.append(item)

    def __deepcopy__(self, memo):
        c = _Events()
        c.items = list(self.items)  # the tuples are immutable: shared
        return c

    def seen_by(self, mb, q: int) -> list[tuple[int, str]]:
        """``(player, text)`` for every event seat ``q`` saw, in order (never another hand's cards)."""
        out = []
        ids = mb.card_ids
        for e in self.items:
            if e[0] == "deal":
                out.append((-1, f"hand {e[1] + 1} dealt: " + " ".join(ids[c] for c in e[2][q])))
                continue
            _, p, code, drew = e
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


class _Hand:
    """Holds the engine's State; a deep copy (OpenSpiel's ``clone``) is the engine's own ``clone()``."""

    __slots__ = ("st",)

    def __init__(self, st):
        self.st = st

    def __deepcopy__(self, memo):
        return _Hand(self.st.clone() if self.st is not None else None)


class _Slots:
    """Which positions of the hand's cards a seat has seen: dealt or drawn to it, or shown on the table.

    Slot ``j`` is the j-th card chance gave this hand (dealt, then drawn). The bookkeeping follows
    the true cards (the game is entitled to them); only ``known_to`` leaves it, as a set of slots.
    """

    def __init__(self, first, N, hs):
        self.held = [[] for _ in range(N)]
        for j in range(N * hs):
            self.held[(first + j) % N].append(j)
        self.seen = [set(h) for h in self.held]
        self.public: set[int] = set()
        self.next_slot = N * hs

    def track(self, order, p, a, taken: int):
        """``p`` did ``a`` and took ``taken`` cards off the draw pile; ``order``: the hand's cards by slot."""
        if a.op in (PLAY, DISCARD, COUP_FOURRE, FAST_PLAY):
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
        self.tensor[:] = np.frombuffer(self._g.writer.write(st, player, state._hands_done), dtype=np.float32)

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
        past = "; ".join(f"{mb.player_names[q] if q >= 0 else '*'}: {t}" for q, t in state._events.seen_by(mb, player))
        return f"{mb.player_names[player]} [{past}] {now}"


class MilleBornesBot(pyspiel.Bot):
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

    def restart_at(self, state) -> None:
        self._bot = make_bot(self._name, self._game.mb, self._player, self._seed)

    def restart(self) -> None:
        self.restart_at(None)

    def inform_action(self, state, player_id, action) -> None:
        pass  # an mbrules bot reads the table afresh at each decision

    def provides_policy(self) -> bool:
        return False

    def step(self, state) -> int:
        if state.current_player() != self._player:
            raise ValueError(f"bot for player {self._player} asked to move when player {state.current_player()} is to")
        # the one seat loop decides (a lone action taken without asking, else the bot asked); its applier
        # only keeps the choice: OpenSpiel's state applies it
        chosen: list[Action] = []
        seat = BotSeat(self._bot)
        SeatLoop(state.mb_state, [seat] * self._game.mb.players, apply=lambda p, a: chosen.append(a)).step()
        if not chosen:
            raise ValueError(f"bot for player {self._player} asked to move when the hand is over")
        return self._game.space.index[int(chosen[0])]


def bot(game: MilleBornesGame, player: int, name: str = "heuristic", seed: int = 0) -> MilleBornesBot:
    """A ``pyspiel.Bot`` playing the mbrules bot ``name`` (``"expert:budget=50"`` too) in seat ``player``."""
    return MilleBornesBot(game, player, name, seed)


pyspiel.register_game(_GAME_TYPE, MilleBornesGame)
