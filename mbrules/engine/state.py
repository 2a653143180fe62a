"""The state of a match: the current hand, its decision point, and the running score.

OpenSpiel's shape: ``decision``, ``legal_actions()``, ``apply(action)``, ``clone()``.
Legality lives in one place, :meth:`State._play_reason`: ``legal_actions()`` keeps
the plays it accepts and ``apply()`` refuses with the code it returns, so the two
cannot disagree. Every branch below is switched by a table of :class:`Game`,
never by the edition's name; the comment on each cites the ruling it plays.
"""

from __future__ import annotations

import random

from .actions import (
    ACTION_DECLINE, ACTION_DRAW, ACTION_EXTEND, ACTION_STOP, ALREADY_LIMITED, BAD_TARGET, CANNOT_MOVE,
    COUP_FOURRE, COUP_FOURRE_WINDOW, DECLINE, DISCARD, DRAW, EXTEND, EXTENSION_PENDING, EXTENSION_QUESTION,
    HAND_OVER, HAND_OVER_CODE, MATCH_OVER, MUST_PLAY, NO_COUP_FOURRE, NO_EXTENSION, NOT_IN_HAND, NOT_ROLLING,
    NOT_YOUR_TURN, NOTHING_TO_FIX, OVER_TARGET, PLAY, PROTECTED, SPEED_LIMIT, STOP, TOO_MANY_200, TURN,
    Decision, IllegalAction,
)
from .game import BATTLE, DISTANCE, HAZARD, NO_LIMIT, REMEDY, SAFETY, SCORE_LINES, Game

# Phases
P_DRAW, P_PLAY, P_COUP, P_EXT, P_HAND_OVER, P_MATCH_OVER = range(6)


class State:
    """A match in progress. Cards are ints (indices into ``game.card_ids``); players and sides are ints."""

    __slots__ = (
        "game", "rng", "hands", "draw", "discard", "battle", "speed", "miles", "played", "safeties", "coups",
        "prot", "row", "needs_go", "rolling", "bhaz", "limit", "lhaz", "target", "extension_called_by",
        "phase", "player", "cf_queue", "cf_hazard", "cf_side", "cf_attacker", "completer", "completion_delayed",
        "last_draw", "hand_no", "first_player", "match_totals", "hand_sheets", "winner", "history",
        "coup_count", "deals",
    )

    # -- construction ----------------------------------------------------------
    def __init__(self, game: Game, seed: int | None = None):
        self.game = game
        self.rng = random.Random(seed)
        self.hand_no = 0
        self.first_player = 0
        self.match_totals = [0] * game.sides
        self.hand_sheets: list[list[dict[str, int]]] = []
        self.winner = None  # side index, "draw", or None while undecided
        self.history: list[tuple[int, int]] = []  # (player, action); (-1, -1) marks a new hand
        self.deals: list[dict] | None = None  # deal snapshots, kept only when recording
        self._reset_hand()

    @classmethod
    def new_match(cls, game: Game, seed: int, keep_deals: bool = False) -> "State":
        """A match dealt from ``seed``; ``keep_deals`` keeps each hand's deal for recording."""
        s = cls(game, seed)
        if keep_deals:
            s.deals = []
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
        st.first_player = turn
        st._reset_hand()
        st.hands = [list(h) for h in hands]
        st.draw = list(draw_top_first)[::-1]
        st.discard = list(discard)
        if match_totals is not None:
            st.match_totals = list(match_totals)
        for side, piles in (sides or {}).items():
            st.battle[side] = list(piles.get("battle", ()))
            st.speed[side] = list(piles.get("speed", ()))
            for c in piles.get("distance", ()):
                st.played[side][c] += 1
                st.miles[side] += game.miles[c]
            st.safeties[side] = list(piles.get("safeties", ()))
            st.coups[side] = list(piles.get("coups", ()))
            for c in st.safeties[side] + st.coups[side]:
                st.prot[side] |= game.protects_mask[c]
                if game.grants_rolling[c]:
                    st.row[side] = True
        for side in range(game.sides):
            st._refresh(side)
        if extension_called_by >= 0:
            st.extension_called_by = extension_called_by
            st.target = game.extension_to if game.extension_to is not None else game.target
        st._start_turn(turn)
        return st

    def _reset_hand(self) -> None:
        g = self.game
        S = g.sides
        self.hands = [[] for _ in range(g.players)]
        self.draw: list[int] = []  # top of the draw pile is the END of the list
        self.discard: list[int] = []
        self.battle = [[] for _ in range(S)]
        self.speed = [[] for _ in range(S)]
        self.miles = [0] * S
        self.played = [[0] * g.n_cards for _ in range(S)]  # distance cards played, per card
        self.safeties = [[] for _ in range(S)]  # played normally
        self.coups = [[] for _ in range(S)]  # played as coups fourrés
        self.prot = [0] * S  # mask of hazards the side is protected against
        self.row = [False] * S  # has a rolling safety (Right of Way)
        self.needs_go = [False] * S
        self.rolling = [False] * S
        self.bhaz = [-1] * S  # active hazard on top of the battle pile
        self.limit = [NO_LIMIT] * S
        self.lhaz = [-1] * S  # active hazard on top of the speed pile
        self.target = g.target
        self.extension_called_by = -1
        self.phase = P_DRAW
        self.player = self.first_player
        self.cf_queue: list[int] = []
        self.cf_hazard = -1
        self.cf_side = -1
        self.cf_attacker = -1
        self.completer = -1
        self.completion_delayed = False
        self.last_draw = -1
        self.coup_count = 0

    def _deal(self) -> None:
        """Shuffle with the match's RNG and deal one card at a time from the first player (WM §3)."""
        g = self.game
        self._reset_hand()
        deck = list(g.deck)
        self.rng.shuffle(deck)
        N = g.players
        for _ in range(g.hand_size):
            for k in range(N):
                self.hands[(self.first_player + k) % N].append(deck.pop())
        self.draw = deck
        for s in range(g.sides):
            self._refresh(s)
        if self.deals is not None:
            self.deals.append({
                "hand_no": self.hand_no, "first_player": self.first_player,
                "hands": [h[:] for h in self.hands], "draw_top_first": deck[::-1],
                "match_before": self.match_totals[:], "history_start": len(self.history),
            })
        self._start_turn(self.first_player)

    def next_hand(self) -> None:
        """Deal the next hand of the match; the deal passes to the left (rulings: The match)."""
        if self.phase != P_HAND_OVER:
            raise IllegalAction(NOT_YOUR_TURN, "the next hand is dealt only when this hand is over and the match is not")
        self.hand_no += 1
        if self.game.deal_passes_left:
            self.first_player = (self.first_player + 1) % self.game.players
        self.history.append((-1, -1))
        self._deal()

    def clone(self) -> "State":
        c = State.__new__(State)
        c.game = self.game
        c.rng = random.Random(0)  # seeding from the OS would cost more than the copy; the state is restored next
        c.rng.setstate(self.rng.getstate())
        c.hands = [h[:] for h in self.hands]
        c.draw = self.draw[:]
        c.discard = self.discard[:]
        c.battle = [p[:] for p in self.battle]
        c.speed = [p[:] for p in self.speed]
        c.miles = self.miles[:]
        c.played = [p[:] for p in self.played]
        c.safeties = [p[:] for p in self.safeties]
        c.coups = [p[:] for p in self.coups]
        c.prot = self.prot[:]
        c.row = self.row[:]
        c.needs_go = self.needs_go[:]
        c.rolling = self.rolling[:]
        c.bhaz = self.bhaz[:]
        c.limit = self.limit[:]
        c.lhaz = self.lhaz[:]
        c.cf_queue = self.cf_queue[:]
        c.match_totals = self.match_totals[:]
        c.hand_sheets = [[dict(d) for d in sheet] for sheet in self.hand_sheets]
        c.history = self.history[:]
        c.deals = None if self.deals is None else [dict(d) for d in self.deals]
        for name in ("target", "extension_called_by", "phase", "player", "cf_hazard", "cf_side", "cf_attacker",
                     "completer", "completion_delayed", "last_draw", "hand_no", "first_player", "winner",
                     "coup_count"):
            setattr(c, name, getattr(self, name))
        return c

    # -- derived side state ----------------------------------------------------
    def _refresh(self, s: int) -> None:
        """Recompute what a side's piles allow: rolling, the active hazards, the speed limit."""
        g = self.game
        b = self.battle[s]
        top = b[-1] if b else -1
        prot = self.prot[s]
        bh = top if (top >= 0 and g.kind[top] == HAZARD and not prot & g.bit[top]) else -1
        self.bhaz[s] = bh
        if bh >= 0:
            rolling = False  # a hazard showing stops the side (WM §6A)
        elif self.needs_go[s] and not self.row[s]:
            rolling = False  # option roll-after-safety: a go card must follow
        elif top >= 0 and g.is_go[top]:
            rolling = True  # Roll on top (WM §6A)
        else:
            rolling = self.row[s]  # Right of Way: rolling with no Roll (WM §6B)
        self.rolling[s] = rolling
        sp = self.speed[s]
        t = sp[-1] if sp else -1
        if t >= 0 and g.kind[t] == HAZARD and not prot & g.bit[t]:
            self.lhaz[s] = t
            self.limit[s] = g.limit[t]
        else:
            self.lhaz[s] = -1
            self.limit[s] = NO_LIMIT

    # -- the decision ----------------------------------------------------------
    @property
    def decision(self) -> Decision:
        ph = self.phase
        if ph == P_DRAW:
            return Decision(TURN, self.player, False)
        if ph == P_PLAY:
            return Decision(TURN, self.player, True)
        if ph == P_COUP:
            return Decision(COUP_FOURRE_WINDOW, self.player)
        if ph == P_EXT:
            return Decision(EXTENSION_QUESTION, self.player)
        if ph == P_HAND_OVER:
            return Decision(HAND_OVER, -1)
        return Decision(MATCH_OVER, -1)

    @property
    def hand_over(self) -> bool:
        return self.phase >= P_HAND_OVER

    @property
    def match_over(self) -> bool:
        return self.phase == P_MATCH_OVER

    def turn_player(self) -> int:
        """Who plays the next turn (for a coup fourré window: the attacker's left, if it is declined)."""
        if self.phase in (P_DRAW, P_PLAY, P_EXT):
            return self.player
        if self.phase == P_COUP:
            return self._next_with_cards((self.cf_attacker + 1) % self.game.players)
        return -1

    # -- legality: the one place -----------------------------------------------
    def _play_reason(self, ps: int, c: int, ts: int) -> str | None:
        """Why side ``ps`` may not play card ``c`` on side ``ts`` now (None: it may)."""
        k, m, most, bit, pile, fixes, go = self.game.card_spec[c]
        if k == DISTANCE:
            if ts != ps:
                return BAD_TARGET
            if not self.rolling[ps]:
                return CANNOT_MOVE  # no Roll showing and no Right of Way, or a hazard showing (WM §6C)
            if m > self.limit[ps]:
                return SPEED_LIMIT  # only 25 or 50 under a Speed Limit (WM §6A)
            if self.played[ps][c] >= most:
                return TOO_MANY_200  # no more than two 200s (WM §6C)
            if self.miles[ps] + m > self.target:
                return OVER_TARGET  # never past the trip's length (WM §6C)
            return None
        if k == HAZARD:
            if ts == ps or ts < 0 or ts >= self.game.sides:
                return BAD_TARGET  # hazards go on an opponent's pile (WM §4)
            if self.prot[ts] & bit:
                return PROTECTED  # a safety protects the side (WM §6B)
            if pile == BATTLE:
                if self.bhaz[ts] >= 0:
                    return None if self.game.hazard_on_hazard else NOT_ROLLING  # no hazard on a hazard (WM §2)
                if not self.rolling[ts] and self.game.hazard_needs_rolling:
                    return NOT_ROLLING  # only on a Roll, or with Right of Way (WM §2, §6B)
                return None
            if self.lhaz[ts] >= 0 and not self.game.speed_limit_stacking:
                return ALREADY_LIMITED  # rulings: no speed limit on a limited side
            return None
        if ts != ps:
            return BAD_TARGET  # remedies and safeties go on one's own piles (WM §4)
        if k == REMEDY:
            if pile == BATTLE:
                h = self.bhaz[ps]
                if h >= 0:
                    return None if fixes >> h & 1 else NOTHING_TO_FIX
                if not go:
                    return NOTHING_TO_FIX  # a remedy only on its own hazard showing (WM §2)
                b = self.battle[ps]
                if b and self.game.is_go[b[-1]] and not self.needs_go[ps]:
                    return NOTHING_TO_FIX  # no Roll on a Roll (rulings: Play)
                return None
            h = self.lhaz[ps]
            return None if (h >= 0 and fixes >> h & 1) else NOTHING_TO_FIX
        return None  # a safety may always be played (WM §5B)

    def legal_actions(self) -> list[int]:
        ph = self.phase
        if ph == P_PLAY:
            g = self.game
            p = self.player
            ps = g.side_of[p]
            kind = g.kind
            play = g.play_action
            reason = self._play_reason
            acts = []
            cards = []  # the hand's distinct cards, in hand order
            seen = 0
            for c in self.hands[p]:
                if seen >> c & 1:
                    continue
                seen |= 1 << c
                cards.append(c)
                if kind[c] == HAZARD:
                    row = play[c]
                    for ts in g.opponents[ps]:
                        if reason(ps, c, ts) is None:
                            acts.append(row[ts])
                elif reason(ps, c, ps) is None:
                    acts.append(play[c][ps])
            if g.voluntary_discard or not acts:
                da = g.discard_action
                acts += [da[c] for c in cards]
            return acts
        if ph == P_DRAW:
            return [ACTION_DRAW]
        if ph == P_COUP:
            g = self.game
            acts = []
            for c in self.game.protectors[self.cf_hazard]:
                if c in self.hands[self.player]:
                    acts.append(g.coup_action[c])
            acts.append(ACTION_DECLINE)
            return acts
        if ph == P_EXT:
            return [ACTION_EXTEND, ACTION_STOP]
        return []

    # -- applying --------------------------------------------------------------
    def apply(self, action: int, player: int | None = None) -> None:
        """Apply ``action`` for the deciding player (or check that ``player`` may act).

        Raises :class:`IllegalAction` with the contract's reason code; the state is
        then left exactly as it was.
        """
        ph = self.phase
        if ph == P_DRAW and action == ACTION_DRAW and (player is None or player == self.player):
            # the most common action, checked exactly as below (start of a turn: take the top card)
            self._draw(self.player)
            return
        g = self.game
        if player is not None and not 0 <= player < g.players:
            raise IllegalAction(NOT_YOUR_TURN, f"there is no player #{player} in a {g.players}-player game")
        op = action & 7
        if action < 0 or (op != PLAY and (action >> 11 or (op != DISCARD and op != COUP_FOURRE and action != op))):
            raise IllegalAction(NOT_YOUR_TURN, f"{action} is not an action of this game (see mbrules.engine.actions)")
        if ph == P_PLAY and (op == PLAY or op == DISCARD):
            # the other common case: straight to the card checks (the same checks, in the same order)
            p = self.player
            if player is not None and player != p:
                raise IllegalAction(NOT_YOUR_TURN, f"it is {g.player_names[p]}'s turn, not {g.player_names[player]}'s")
        else:
            self._apply_other(action, op, ph, player)
            return
        self._apply_card(action, op, p)

    def _apply_other(self, action: int, op: int, ph: int, player: int | None) -> None:
        """Everything but a play or discard during a turn that has drawn."""
        g = self.game
        if ph >= P_HAND_OVER:
            raise IllegalAction(HAND_OVER_CODE, "the hand is over")
        if ph == P_EXT:
            if op != EXTEND and op != STOP:
                raise IllegalAction(
                    EXTENSION_PENDING,
                    f"{g.player_names[self.player]} must first answer the extension question",
                )
            if player is not None and player != self.player:
                raise IllegalAction(NOT_YOUR_TURN, f"the extension question is {g.player_names[self.player]}'s")
            self.history.append((self.player, action))
            self._answer_extension(op == EXTEND)
            return
        if op == EXTEND or op == STOP:
            raise IllegalAction(NO_EXTENSION, "no extension question is open")
        if op == COUP_FOURRE:
            self._coup_fourre(action, self.player if player is None else player)
            return
        if op == DECLINE:
            if ph != P_COUP:
                raise IllegalAction(NO_COUP_FOURRE, "no coup fourré window is open")
            if player is not None and player != self.player:
                raise IllegalAction(NOT_YOUR_TURN, f"the coup fourré window is {g.player_names[self.player]}'s")
            self.history.append((self.player, action))
            self._decline()
            return
        if ph == P_COUP:
            raise IllegalAction(
                NOT_YOUR_TURN, f"a coup fourré window is open for {g.player_names[self.player]}"
            )
        p = self.player
        if player is not None and player != p:
            raise IllegalAction(NOT_YOUR_TURN, f"it is {g.player_names[p]}'s turn, not {g.player_names[player]}'s")
        if op == DRAW:
            if ph != P_DRAW:
                raise IllegalAction(NOT_YOUR_TURN, f"{g.player_names[p]} has already drawn this turn")
            self._draw(p)
            return
        if ph == P_DRAW:
            raise IllegalAction(NOT_YOUR_TURN, f"{g.player_names[p]} must draw before playing")
        self._apply_card(action, op, p)

    def _draw(self, p: int) -> None:
        """The start of a turn: ``p`` takes the top card of the draw pile (WM §5)."""
        self.history.append((p, ACTION_DRAW))
        c = self.draw.pop()
        self.hands[p].append(c)
        self.last_draw = c
        self.phase = P_PLAY

    def _apply_card(self, action: int, op: int, p: int) -> None:
        """A card played or discarded by ``p``, whose turn it is and who has drawn."""
        g = self.game
        c = (action >> 3) & 255
        hand = self.hands[p]
        if c >= g.n_cards or c not in hand:
            name = g.card_ids[c] if c < g.n_cards else f"card #{c}"
            raise IllegalAction(NOT_IN_HAND, f"{g.player_names[p]} does not hold {name}")
        ps = g.side_of[p]
        if op == DISCARD:
            if not g.voluntary_discard and g.discard_action[c] not in self.legal_actions():
                # legal_actions() lists the discards only when there is no play (option no-voluntary-discard)
                raise IllegalAction(MUST_PLAY, f"{g.player_names[p]} holds a playable card and may not discard")
            self.history.append((p, action))
            hand.remove(c)
            self.discard.append(c)
            self._end_turn(p)
            return
        if op != PLAY:
            raise IllegalAction(NOT_YOUR_TURN, f"unknown action {action}")
        ts = action >> 11
        why = self._play_reason(ps, c, ts)
        if why is not None:
            raise IllegalAction(why, self._sentence(why, p, c, ts))
        self.history.append((p, action))
        hand.remove(c)
        k = g.kind[c]
        if k == DISTANCE:
            self.played[ps][c] += 1
            m = self.miles[ps] + g.miles[c]
            self.miles[ps] = m
            if m == self.target:
                self._trip_reached(p, ps)
            else:
                self._end_turn(p)
        elif k == HAZARD:
            (self.battle if g.pile[c] == BATTLE else self.speed)[ts].append(c)
            self._refresh(ts)
            self._open_coup_fourre(p, c, ts)
        elif k == REMEDY:
            if g.pile[c] == BATTLE:
                self.battle[ps].append(c)
                self.needs_go[ps] = False
            else:
                self.speed[ps].append(c)
            self._refresh(ps)
            self._end_turn(p)
        else:
            self.safeties[ps].append(c)
            self._protect(ps, c, normal=True)
            if g.safety_extra_turn:
                self._start_turn(p)  # another turn, chained (WM §5B)
            else:
                self._end_turn(p)

    # -- effects -----------------------------------------------------------------
    def _protect(self, s: int, c: int, normal: bool) -> None:
        """A safety lands: protect the side and send protected hazards showing to the discard pile."""
        g = self.game
        self.prot[s] |= g.protects_mask[c]
        if g.grants_rolling[c]:
            self.row[s] = True
        if g.safety_discards_hazard or not normal:
            prot = self.prot[s]
            b = self.battle[s]
            swept = False
            while b and g.kind[b[-1]] == HAZARD and prot & g.bit[b[-1]]:
                self.discard.append(b.pop())  # 'cancels the attack in progress' (WM §6B)
                swept = True
            sp = self.speed[s]
            while sp and g.kind[sp[-1]] == HAZARD and prot & g.bit[sp[-1]]:
                self.discard.append(sp.pop())
            if swept and normal and g.roll_after_safety:
                self.needs_go[s] = True  # option roll-after-safety: the safety acts as the remedy
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
                hand = self.hands[q]
                for sc in prots:
                    if sc in hand:
                        queue.append(q)
                        break
            if queue:
                self.cf_queue = queue
                self.cf_hazard = hazard
                self.cf_side = ts
                self.cf_attacker = attacker
                self.player = queue[0]
                self.phase = P_COUP
                return
        self._end_turn(attacker)

    def _coup_fourre(self, action: int, q: int) -> None:
        g = self.game
        if self.phase != P_COUP or q not in self.cf_queue:
            raise IllegalAction(NO_COUP_FOURRE, f"no coup fourré is open to {g.player_names[q]} now")
        c = (action >> 3) & 255
        if c >= g.n_cards or g.kind[c] != SAFETY or not g.protects_mask[c] & g.bit[self.cf_hazard]:
            name = g.card_ids[c] if c < g.n_cards else f"card #{c}"
            raise IllegalAction(
                NO_COUP_FOURRE, f"{name} does not protect against {g.card_ids[self.cf_hazard]}"
            )
        hand = self.hands[q]
        if c not in hand:
            raise IllegalAction(NOT_IN_HAND, f"{g.player_names[q]} does not hold {g.card_ids[c]}")
        self.history.append((q, action))
        hand.remove(c)
        qs = g.side_of[q]
        self.coups[qs].append(c)
        self.coup_count += 1
        if self.cf_side == qs:
            pile = (self.battle if g.pile[self.cf_hazard] == BATTLE else self.speed)[qs]
            if pile and pile[-1] == self.cf_hazard:
                self.discard.append(pile.pop())  # the hazard goes to the discard pile (WM §7)
        self._protect(qs, c, normal=False)
        self.cf_queue = []
        if g.cf_replacement_draw and self.draw:
            d = self.draw.pop()  # 'draw one card to bring the number of cards held to six' (WM §7)
            hand.append(d)
            self.last_draw = d
        if g.cf_extra_turn:
            self._start_turn(q)  # a full turn; players in between lose theirs (WM §7)
        else:
            self._end_turn(self.cf_attacker)

    def _decline(self) -> None:
        self.cf_queue.pop(0)
        if self.cf_queue:
            self.player = self.cf_queue[0]
        else:
            self._end_turn(self.cf_attacker)

    def _trip_reached(self, p: int, ps: int) -> None:
        g = self.game
        self.completer = ps
        self.completion_delayed = not self.draw  # Delayed Action (WM §8)
        if g.extension_to is not None and self.extension_called_by < 0 and self.target < g.extension_to:
            self.phase = P_EXT  # the extension question, once per hand (WM §10C)
            self.player = p
        else:
            self._end_hand()

    def _answer_extension(self, extend: bool) -> None:
        p = self.player
        if extend:
            self.extension_called_by = p
            self.target = self.game.extension_to
            self.completer = -1  # 'played as though it had always been for a trip of 1000 miles'
            self.completion_delayed = False
            self._end_turn(p)
        else:
            self._end_hand()

    def _next_with_cards(self, p: int) -> int:
        N = self.game.players
        if self.draw:
            return p
        for _ in range(N):
            if self.hands[p]:
                return p
            p = (p + 1) % N
        return -1

    def _start_turn(self, p: int) -> None:
        """Give ``p`` a turn; a player with no cards once the draw pile is out is passed."""
        q = self._next_with_cards(p)
        if q < 0:
            self._end_hand()  # every hand empty after the draw pile ran out
            return
        self.player = q
        self.phase = P_DRAW if self.draw else P_PLAY

    def _end_turn(self, p: int) -> None:
        q = p + 1
        if q == self.game.players:
            q = 0
        if self.draw:  # the common case of _start_turn: the next player draws
            self.player = q
            self.phase = P_DRAW
            return
        self._start_turn(q)

    def _end_hand(self) -> None:
        sheet = self.score_sheet()
        self.hand_sheets.append(sheet)
        for s in range(self.game.sides):
            self.match_totals[s] += sheet[s]["total"]
        self.winner = self._match_winner()
        self.phase = P_MATCH_OVER if self.winner is not None else P_HAND_OVER
        self.cf_queue = []

    # -- scoring -----------------------------------------------------------------
    def current_completer(self) -> int:
        if self.completer >= 0:
            return self.completer
        for s, m in enumerate(self.miles):
            if m == self.target:
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
            line["milestones"] = self.miles[s] * g.pts_mile
            n_safe = len(self.safeties[s]) + len(self.coups[s])
            line["safeties"] = n_safe * g.pts_safety
            if g.safety_cards_in_deck and n_safe == g.safety_cards_in_deck:
                line["all_safeties"] = g.pts_all_safeties
            line["coup_fourres"] = len(self.coups[s]) * g.pts_coup_fourre
        if done >= 0:
            line = sheet[done]
            line["trip_completed"] = g.pts_trip
            if self.completion_delayed and self.completer >= 0:
                line["delayed_action"] = g.pts_delayed
            if not any(self.played[done][c] for c in g.safe_trip_breakers):
                line["safe_trip"] = g.pts_safe_trip
            blank = [s for s in range(S) if s != done and self.miles[s] == 0]
            if g.shutout_per_opponent:
                line["shutout"] = g.pts_shutout * len(blank)
            elif len(blank) == S - 1:
                line["shutout"] = g.pts_shutout
        if self.extension_called_by >= 0:
            caller = g.side_of[self.extension_called_by]
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
        """Side index, 'draw', or None while the match goes on (WM §9; rulings: The match)."""
        g = self.game
        mode = g.match_mode
        if mode == "trip":
            done = self.current_completer()
            if done >= 0:
                return done
            return _unique_max(self.miles)
        totals = self.match_totals
        if mode == "single_hand":
            # One hand: the most points in it wins (KID How to win), whatever came before.
            return _unique_max([line["total"] for line in self.hand_sheets[-1]])
        if max(totals) >= g.target_points:
            return _unique_max(totals)
        return None

    # -- messages ------------------------------------------------------------------
    def _sentence(self, code: str, p: int, c: int, ts: int) -> str:
        g = self.game
        who = g.player_names[p]
        card = g.card_ids[c]
        ps = g.side_of[p]
        side = g.side_names[ts] if 0 <= ts < g.sides else f"side #{ts}"
        if code == CANNOT_MOVE:
            return f"side {g.side_names[ps]} is not rolling: it needs a go card (or a rolling safety) and no hazard showing"
        if code == SPEED_LIMIT:
            return f"{card} is above the speed limit of {self.limit[ps]} in force on side {g.side_names[ps]}"
        if code == OVER_TARGET:
            return f"{card} would take side {g.side_names[ps]} from {self.miles[ps]} past the target of {self.target}"
        if code == TOO_MANY_200:
            return f"side {g.side_names[ps]} has already played {self.played[ps][c]} of {card}, the most allowed in a hand"
        if code == PROTECTED:
            return f"side {side} is protected against {card} by a safety"
        if code == NOT_ROLLING:
            return f"{card} needs side {side} rolling (a go card on top, or a rolling safety with no hazard showing)"
        if code == ALREADY_LIMITED:
            return f"side {side} already has a speed limit showing"
        if code == BAD_TARGET:
            if g.kind[c] == HAZARD:
                return f"{who} cannot play {card} on side {side}: hazards go on an opponent's side"
            return f"{who} plays {card} on their own side {g.side_names[ps]}, not on side {side}"
        if code == NOTHING_TO_FIX:
            return f"{card} has nothing to fix on side {g.side_names[ps]}"
        return code


def _unique_max(values: list[int]):
    best = max(values)
    leaders = [i for i, v in enumerate(values) if v == best]
    return leaders[0] if len(leaders) == 1 else "draw"
