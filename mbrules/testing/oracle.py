"""The score oracle: the sheet of a finished hand from its actions and the ruleset model alone.

:func:`score_oracle` never reads the engine's counters or the compiled ``Game``: card kinds,
miles, sides, targets, the deck and the points come from the ruleset model, so a bug in the
engine's scoring or in the compilation of the rules shows up as a disagreement.
:func:`expected_sheet` adapts it to a state, :func:`expected_winner` applies the match rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Sequence, Union, cast

from mbrules.vocab import COUP_FOURRE, DISCARD, DRAW, EXTEND, FAST_PLAY, MULLIGAN, PLAY, SCORE_LINES

from .view import View, _view

if TYPE_CHECKING:
    from mbrules.engine import Action, State
    from mbrules.ruleset import Ruleset
    from mbrules.ruleset.model import SideFacts

Sheet = list[dict[str, int]]  # a hand's score sheet: per side, score line -> points
Winner = Union[int, str, None]  # a side, "draw" or "unfinished"; None: the match goes on
# what a score line's condition is judged on at the hand's end: (completer, miles, played, laid, empty,
# target, safeties in the deck, delayed action, the extension caller's side)
Facts = tuple[int, Sequence[int], Sequence[dict[str, int]], Sequence[int], Sequence[bool], int, int, bool, int, int]

__all__ = [
    "HandStart",
    "dealt_start",
    "expected_sheet",
    "expected_winner",
    "hand_actions",
    "position_start",
    "score_oracle",
    "sheet_lines",
]


# The contract's score lines ("Score lines"), in its order: the vocabulary's list (mbrules.vocab.SCORE_LINES).
_SHEET_LINES = SCORE_LINES


class HandStart(NamedTuple):
    """What the table held when a hand began, as the oracle needs it.

    ``draw``: cards in the draw pile; ``distance``: per side, card id -> copies of that
    distance card already played; ``safeties`` / ``coups``: per side, safeties already laid
    normally / as coups fourrés; ``extension_caller``: the player who had called the
    extension (-1: nobody). A dealt hand starts from :func:`dealt_start`.
    """

    draw: int
    distance: tuple[dict[str, int], ...]
    safeties: tuple[int, ...]
    coups: tuple[int, ...]
    extension_caller: int = -1
    hands: tuple[int, ...] = ()  # cards each player holds; () for a dealt hand (hand_size each)


def _deck(ruleset: Ruleset, players: int) -> dict[str, int]:
    """Card id -> copies in the deck for ``players``: each card's count less the removals for that
    count (rulings: Decks, Player counts), read from the model itself rather than ``Ruleset.deck_for``."""
    removal = ruleset.removals.get(str(players))
    removed = removal.cards if removal is not None else {}
    return {cid: card.count - removed.get(cid, 0) for cid, card in ruleset.cards.items()}


def dealt_start(ruleset: Ruleset, players: int) -> HandStart:
    """A hand just dealt: empty piles, the deck less ``players`` hands of ``hand_size`` to draw."""
    sides = ruleset.player_counts[str(players)].sides
    draw = sum(_deck(ruleset, players).values()) - players * ruleset.play.hand_size.value
    return HandStart(
        draw, tuple({} for _ in range(sides)), (0,) * sides, (0,) * sides, -1, (ruleset.play.hand_size.value,) * players
    )


def position_start(state: State | View) -> HandStart:
    """A snapshot of a hand's start taken from a state set up card by card (``State.from_position``),
    before any action of the hand: the scenario's piles, read once while they are still its input."""
    state = _view(state)
    ids = list(state.game.ruleset.cards)
    distance = []
    for row in state.played:
        distance.append({ids[c]: n for c, n in enumerate(row) if n})
    return HandStart(
        len(state.draw),
        tuple(distance),
        tuple(len(x) for x in state.safeties),
        tuple(len(x) for x in state.coups),
        state.extension_called_by,
        tuple(len(h) for h in state.hands),
    )


def sheet_lines(ruleset: Ruleset) -> tuple[str, ...]:
    """The lines of a hand's sheet, from the model: the contract's ten, with the ruleset's own score lines
    (``scoring.lines`` paying on new names, in its order) before ``total``."""
    new: list[str] = []
    for name, rule in ruleset.scoring.lines.items():
        sheet = rule.line or name
        if sheet not in _SHEET_LINES and sheet not in new:
            new.append(sheet)
    return (*_SHEET_LINES[:-1], *new, _SHEET_LINES[-1])


def _meets(cond: SideFacts | None, s: int, facts: Facts) -> bool:
    """Whether side ``s`` meets a score line's condition (the model's LineCondition) at the hand's end.
    ``facts``: (completer, miles, played, laid, empty, target, all_laid, delayed, caller_side, ender): ender,
    the player who took the hand's last action if it then held no card, else -1."""
    completer, miles, played, laid, empty, target, in_deck, delayed, caller, ender = facts
    if cond is None:
        return True
    if cond.trip_completed is not None and (completer == s) != cond.trip_completed:
        return False
    # no distance card played: a safety's miles (option safety-distance) are none (docs/conformance.md)
    if cond.no_distance is not None and (not any(played[s].values())) != cond.no_distance:
        return False
    if cond.hand_empty is not None and empty[s] != cond.hand_empty:
        return False
    if cond.safeties is not None and laid[s] != cond.safeties:
        return False
    if cond.none_played is not None and any(played[s].get(cid, 0) for cid in cond.none_played):
        return False
    if cond.played is not None:
        for cid, n in cond.played.items():
            k = played[s].get(cid, 0)
            if k < n.at_least or (n.at_most is not None and k > n.at_most):
                return False
    if cond.ended_empty_handed is not None and (ender >= 0 and ender % len(miles) == s) != cond.ended_empty_handed:
        return False
    unless = getattr(cond, "unless", None)
    if unless is not None and _meets(unless, s, facts):
        return False
    if cond.exact_finish is not None and (miles[s] == target) != cond.exact_finish:
        return False
    if cond.all_safeties is not None and (in_deck > 0 and laid[s] == in_deck) != cond.all_safeties:
        return False
    if cond.delayed_action is not None and (delayed and completer == s) != cond.delayed_action:
        return False
    if cond.called_extension is not None and (caller == s) != cond.called_extension:
        return False
    if cond.extended is not None and (caller >= 0) != cond.extended:
        return False
    every = getattr(cond, "every_opponent", None)
    others = [t for t in range(len(miles)) if t != s]  # none at a one-side table: nothing to meet (rulings: solo)
    if every is not None and not (others and all(_meets(every, t, facts) for t in others)):
        return False
    return True


class _Replay:
    """The counters of a hand replayed from its actions alone (the model's cards, sides, targets and turn rules),
    one method per action op. ``broken``: the draw pile ran out where the discard pile may refill it, so the
    actions no longer tell how many cards are left to draw."""

    def __init__(self, ruleset: Ruleset, players: int, start: HandStart) -> None:
        pc = ruleset.player_counts[str(players)]
        self.pc = pc
        self.S = pc.sides
        self.cards = ruleset.cards
        self.ids = list(self.cards)  # a card's int in an action is its place in the ruleset's cards
        self.refill = ruleset.coup_fourre.replacement_draw.value
        self.fast_refill = ruleset.fast_play.replacement_draw.value
        self.held = list(start.hands) or [ruleset.play.hand_size.value] * players  # cards each player holds
        self.played = [dict(d) for d in start.distance]
        # played[s] holds distance cards only
        dist = {cid: c.miles for cid, c in self.cards.items() if c.kind == "distance"}
        self.miles = [sum(dist[cid] * n for cid, n in d.items()) for d in self.played]
        self.safeties = list(start.safeties)
        self.coups = list(start.coups)
        self.caller = start.extension_caller
        self.target = pc.extension_to if self.caller >= 0 and pc.extension_to is not None else pc.target
        self.draw = start.draw
        self.completer, self.delayed = -1, False
        turn = ruleset.turn
        self.hs = ruleset.play.hand_size.value
        self.reshuffling = turn.reshuffles.value > 0 or (
            turn.refill_empty_hand.value and turn.refill_reshuffles.value > 0
        )
        self.ptd = turn.order.value == "play_then_draw"
        self.refill_empty = turn.refill_empty_hand.value
        # the replacement card is the draw of the safety's extra turn: none without play.safety_extra_turn
        self.replaced = (
            ruleset.play.safety_replacement_draw.value and ruleset.play.safety_extra_turn.value and not self.ptd
        )
        # play then draw, a coup fourré's extra turn: the attacker's draw is taken at once (a queued turn waits
        # for the attacker's own draw, an action of its own)
        self.owed = (
            self.ptd and ruleset.coup_fourre.extra_turn.value and ruleset.coup_fourre.bonus_turn.value != "queued"
        )
        self.mulligan = -1  # the player whose mulligan is under way
        self.attacker = -1
        self.over = ruleset.play.overshoot.value  # option overshoot: reaching or passing the target completes it
        self.bonus = ruleset.play.safety_distance.value  # option safety-distance: a safety's miles, not past the target

    def run(self, actions: Sequence[tuple[int, Action]]) -> bool:
        """Apply the hand's actions in order; False where the draw pile may have been refilled (not judged)."""
        for p, a in actions:
            if self.reshuffling and self.draw <= 0:
                return False  # the discard pile may have become the draw pile: the actions no longer tell
            op = a.op
            if op == DRAW:
                self._draw(p, a)
            elif op == MULLIGAN:
                self.held[p] -= 1
                self.mulligan = p
            elif op == DISCARD:
                self.held[p] -= 1
            elif op == FAST_PLAY:
                self.held[p] -= 1  # a remedy out of turn: on the side's pile, not a score line of its own
                if self.fast_refill and self.draw > 0:
                    self.draw -= 1
                    self.held[p] += 1
            elif op == PLAY:
                self._play(p, a)
            elif op == COUP_FOURRE:
                self._coup_fourre(p)
            elif op == EXTEND:
                # the trip goes on to the extension; the first completion no longer counts (WM §10C)
                self.caller = p
                # EXTEND is legal with one only
                self.target = self.pc.extension_to if self.pc.extension_to is not None else self.target
                self.completer, self.delayed = -1, False
        if self.completer >= 0 and self.miles[self.completer] < self.target:
            self.completer = -1
        return True

    def _take(self, p: int, n: int) -> None:
        """Player ``p`` takes ``n`` cards from the draw pile."""
        self.draw -= n
        self.held[p] += n

    def _draw(self, p: int, a: Action) -> None:
        """A draw: an empty hand's refill first, then the discard pile's top, a mulligan's draw back or one card."""
        refilled = False
        if self.refill_empty and self.held[p] == 0 and self.mulligan != p:
            n = min(self.hs, max(self.draw, 0))  # an empty hand first draws a full one (turn.refill_empty_hand)
            self._take(p, n)
            refilled = n > 0
        if a.from_discard:
            self.held[p] += 1  # the discard pile's top: the draw pile is as it was
        elif self.mulligan == p:
            self._take(p, min(self.hs - self.held[p], max(self.draw, 0)))  # back to the hand size, as far as it goes
        elif not refilled:
            self._take(p, 1)
        elif (
            self.draw > 0 and not self.ptd
        ):  # after a refill, the turn's own card if one is left (play then draw: none)
            self._take(p, 1)
        self.mulligan = -1

    def _play(self, p: int, a: Action) -> None:
        """A card played: a distance card's miles (and the trip's completion), a safety laid normally."""
        self.held[p] -= 1
        self.attacker = p
        cid = self.ids[a.card_index]
        card = self.cards[cid]
        s = p % self.S  # contract: p(i) plays for side (i-1) mod S
        if card.kind == "distance":
            self.played[s][cid] = self.played[s].get(cid, 0) + 1
            self.miles[s] += card.miles
            if self.miles[s] == self.target or (self.over and self.miles[s] > self.target):
                # the trip completed; Delayed Action if its card came after the draw pile ran out (WM §8)
                self.completer, self.delayed = s, self.draw <= 0
        elif card.kind == "safety":
            self.safeties[s] += 1
            if self.replaced and self.draw > 0:
                self._take(p, 1)  # play.safety_replacement_draw: the safety replaced at once
            self._safety_miles(s)

    def _coup_fourre(self, p: int) -> None:
        """A coup fourré: the caller's replacement draw, the safety's miles, the attacker's owed draw."""
        s = p % self.S
        self.coups[s] += 1
        self.held[p] -= 1
        if self.refill and self.draw > 0:
            self._take(p, 1)  # the caller draws one card, none if the draw pile is empty (rulings: Coup fourré)
        self._safety_miles(s)
        if self.owed and self.draw > 0 and self.completer != s:
            self.draw -= 1  # play then draw: the attacker's draw, taken at once (the option's ruling)
            if self.attacker >= 0:
                self.held[self.attacker] += 1

    def _safety_miles(self, s: int) -> None:
        """Option safety-distance: a safety's miles for side ``s``, not past the target (reaching it completes)."""
        if self.bonus and self.miles[s] + self.bonus <= self.target:
            self.miles[s] += self.bonus
            if self.miles[s] == self.target:
                self.completer, self.delayed = s, self.draw <= 0


def score_oracle(
    ruleset: Ruleset, players: int, start: HandStart, actions: Sequence[tuple[int, Action]]
) -> Sheet | None:
    """The score sheet of a finished hand, derived from the hand's actions and the ruleset model alone.

    ``actions``: the hand's ``(player, Action)`` pairs in order, read only through the notation's
    attributes (``op``, ``card_index``). Nothing of the engine's counters or of the compiled ``Game`` is
    read: card kinds, miles, sides, targets, the deck and the points all come from ``ruleset``, so a
    bug in the engine's scoring or in the compilation of the rules shows up as a disagreement.
    Rulings: Scoring (P71/WM §8), Player counts, Coup fourré, End of the hand.

    The ruleset's turn rules (issue 35) are followed from the actions: a draw from the discard pile
    leaves the draw pile as it was, a mulligan's draw back takes what the hand lacks, and play then
    draw's attacker draws at once when a coup fourré takes the next turn. Where the draw pile is
    refilled from the discard pile (turn.reshuffles, a refill's reshuffles), the actions alone no
    longer say how many cards are left to draw: once the draw pile has run out in such a hand, the
    oracle does not judge it (None).
    """
    S = ruleset.player_counts[str(players)].sides
    sheet = [dict.fromkeys(sheet_lines(ruleset), 0) for _ in range(S)]
    if not ruleset.scoring.enabled.value:
        return sheet  # kids' simpler game: no points (KID Simpler Game)
    r = _Replay(ruleset, players, start)
    if not r.run(actions):
        return None
    completer, miles, target, caller, held = r.completer, r.miles, r.target, r.caller, r.held
    in_deck = _contract_lines(
        ruleset, players, sheet, r.safeties, r.coups, miles, r.played, target, completer, r.delayed, caller
    )
    # score lines as data (scoring.lines): one paying on a contract line replaces that line's rule
    laid_by = [r.safeties[s] + r.coups[s] for s in range(S)]
    empty = [all(held[p] == 0 for p in range(players) if p % S == s) for s in range(S)]
    last = actions[-1][0] if actions else -1
    ender = last if last >= 0 and held[last] == 0 else -1
    facts = (
        completer,
        miles,
        r.played,
        laid_by,
        empty,
        target,
        in_deck,
        r.delayed,
        caller % S if caller >= 0 else -1,
        ender,
    )
    _data_lines(ruleset, sheet, facts, miles, target, laid_by, r.coups)
    for line in sheet:
        line["total"] = sum(v for k, v in line.items() if k != "total")
    return sheet


def _contract_lines(
    ruleset: Ruleset,
    players: int,
    sheet: Sheet,
    safeties: list[int],
    coups: list[int],
    miles: list[int],
    played: list[dict[str, int]],
    target: int,
    completer: int,
    delayed: bool,
    caller: int,
) -> int:
    """The contract's score lines of a finished hand (rulings: Scoring, P71/WM §8, WM §10C) from what the replay found:
    milestones, safeties, all safeties and coups fourrés for every side; trip, delayed action, safe trip and shutout for
    the side that completed the trip; the extension bonus by who called it. Returns how many safeties the deck holds
    (the data lines read it too)."""
    S = len(sheet)
    sc = ruleset.scoring
    cards = ruleset.cards
    in_deck = sum(n for cid, n in _deck(ruleset, players).items() if cards[cid].kind == "safety")
    for s in range(S):
        line = sheet[s]
        laid = safeties[s] + coups[s]
        counted = min(miles[s], target) if sc.milestones_up_to_target.value else miles[s]
        line["milestones"] = counted * sc.milestones_per_mile.value
        line["safeties"] = laid * sc.safety.value
        line["all_safeties"] = sc.all_safeties.value if in_deck and laid == in_deck else 0
        line["coup_fourres"] = coups[s] * sc.coup_fourre.value
    if completer >= 0:
        line = sheet[completer]
        line["trip_completed"] = sc.trip_completed.value
        line["delayed_action"] = sc.delayed_action.value if delayed else 0
        breakers = set(sc.safe_trip_breakers.value)
        line["safe_trip"] = 0 if any(played[completer].get(cid, 0) for cid in breakers) else sc.safe_trip.value
        # no distance card played (a safety's miles are none: docs/conformance.md, rulings of the options)
        blank = sum(1 for s in range(S) if s != completer and not any(played[s].values()))
        if sc.shutout_per_opponent.value:
            line["shutout"] = sc.shutout.value * blank  # WP: 500 per opponent side with no distance
        else:
            line["shutout"] = sc.shutout.value if blank == S - 1 and S > 1 else 0  # no opponent: no shutout
    if caller >= 0:
        caller_side = caller % S
        if sc.extension_bonus_to.value == "finisher":
            if completer >= 0:
                sheet[completer]["extension"] = sc.extension.value
        elif completer == caller_side:
            sheet[caller_side]["extension"] = sc.extension.value
        else:  # 'given to his opponent or opponents' (WM §10C): another side finished, or nobody did
            for s in range(S):
                if s != caller_side:
                    sheet[s]["extension"] = sc.extension.value
    return in_deck


def _data_lines(
    ruleset: Ruleset, sheet: Sheet, facts: Facts, miles: list[int], target: int, laid_by: list[int], coups: list[int]
) -> None:
    """Score lines given as data (scoring.lines): each zeroes the line it pays on (replacing that contract line's
    rule), then pays every side its conditions meet, once per side among exclusive alternatives, times its count,
    to the side itself or to the opponents its conditions name."""
    S = len(sheet)
    for name, rule in ruleset.scoring.lines.items():
        for line in sheet:
            line[rule.line or name] = 0
    paid: set[tuple[int, str]] = set()  # (side, exclusive name): a side is paid one line of its alternatives
    for name, rule in ruleset.scoring.lines.items():
        key = rule.line or name
        for s in range(S):
            if rule.exclusive is not None and (s, rule.exclusive) in paid:
                continue
            if not _meets(rule.when, s, facts):
                continue
            if rule.exclusive is not None:
                paid.add((s, rule.exclusive))
            opponents = [t for t in range(S) if t != s]
            times = {
                None: 1,
                "mile": min(miles[s], target) if rule.up_to_target else miles[s],
                "safety": laid_by[s],
                "coup_fourre": coups[s],
                "opponent": sum(1 for t in opponents if _meets(rule.per_when, t, facts)),
            }[rule.per]
            for t in [s] if rule.to == "side" else [t for t in opponents if _meets(rule.to_when, t, facts)]:
                sheet[t][key] += rule.points * times


def hand_actions(history: Sequence[tuple[int, int]]) -> tuple[bool, list[tuple[int, Action]]]:
    """The current hand's actions in a match history, and whether a deal (a ``(-1, -1)`` mark) began it."""
    for i in range(len(history) - 1, -1, -1):
        if history[i] == (-1, -1):
            return True, _actions(history[i + 1 :])
    return False, _actions(history)


def _actions(history: Sequence[tuple[int, int]]) -> list[tuple[int, Action]]:
    """A history without hand marks: its actions are the engine's Actions (``State.history`` types them as ints)."""
    return cast("list[tuple[int, Action]]", list(history))


def expected_sheet(state: State | View, start: HandStart | None = None, *, dealt: bool = True) -> Sheet | None:
    """The score sheet of ``state``'s finished hand by :func:`score_oracle`, or None when it cannot judge.

    The hand's start: a hand after the first of a match was dealt by ``next_hand``; the first
    hand was dealt by ``new_match`` when ``dealt`` (``check``'s flag), else it was set up card by
    card (``State.from_position``) and only a ``start`` snapshot taken before its first action
    (:func:`position_start`) says what lay on the table: without one the oracle does not judge,
    rather than read the engine's own counters at the end, which is what it is there to check.
    """
    g = state.game
    by_deal, actions = hand_actions(state.history)
    if by_deal or (start is None and dealt):
        start = dealt_start(g.ruleset, g.players)
    elif start is None:
        return None
    return score_oracle(g.ruleset, g.players, start, actions)


def _leader(values: Sequence[int], tie_break: str = "draw") -> Winner:
    """The side with the highest value; a tie by ``match.tie_break`` (rulings: match ends): a draw, the
    tied side nearest the first seat, or None (another hand)."""
    best = max(values)
    leaders = [i for i, v in enumerate(values) if v == best]
    if len(leaders) == 1 or tie_break == "first_seat":
        return leaders[0]
    return None if tie_break == "another_hand" else "draw"


def expected_winner(state: State | View, sheet: Sheet | None = None) -> Winner:
    """The match's winner after a finished hand by the match rules (rulings: The match), or None.

    ``sheet``: the hand's sheet by the oracle (default: :func:`expected_sheet`, or the engine's
    own where the oracle cannot judge the hand)."""
    state = _view(state)
    g = state.game
    m = g.ruleset.match  # the model, not the compiled tables
    mode, tb = m.mode.value, m.tie_break.value
    done = [s for s in range(g.sides) if state.miles[s] >= state.target]  # past it: option overshoot
    if mode == "trip":
        w = done[0] if done else _leader(state.miles, tb)
    elif mode in ("single_hand", "finisher"):  # the most points in this one hand (KID How to win)
        if sheet is None:
            sheet = expected_sheet(state) or state.score_sheet()
        # finisher: the side that completed the trip wins whatever its points (sisyphus-bbs)
        w = done[0] if (mode == "finisher" and done) else _leader([line["total"] for line in sheet], tb)
    elif mode == "fixed_hands":  # match.hands hands, then the highest total (French rules)
        w = _leader(state.match_totals, tb) if len(state.hand_sheets) >= m.hands.value else None
    else:
        w = _leader(state.match_totals, tb) if max(state.match_totals) >= m.target_points.value else None
    if w is not None:
        return w
    # undecided: a match ends unfinished once it has played its ruleset's hands cap (rulings: The match)
    return "unfinished" if len(state.hand_sheets) >= m.max_hands.value else None
