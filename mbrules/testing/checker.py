"""Invariants of a match in progress, checked from the outside after any action.

``check(state)`` returns the list of invariants a :class:`mbrules.engine.State` violates
(empty: all hold). It recomputes what it can from the piles on its own, without calling the
engine's private helpers, so a bug in a cache or in a rule shows up as a disagreement rather
than being copied. At each hand's end it also recomputes the score sheet and the match's
winner with the score oracle (:mod:`mbrules.testing.oracle`).
"""

from __future__ import annotations

from mbrules.vocab import (
    BATTLE,
    BOTH_PILES,
    COUP_FOURRE,
    DISTANCE,
    DRAW,
    FAST_PLAY,
    HAZARD,
    KARMA,
    MULLIGAN,
    NO_LIMIT,
    REMEDY,
    SAFETY,
    SPEED,
    DecisionKind,
)

from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Callable, Iterable, Sequence, cast

from .oracle import HandStart, expected_sheet, expected_winner, sheet_lines
from .view import View, _view

if TYPE_CHECKING:
    from mbrules.engine import Action, Game, State

__all__ = ["check"]


def _counts(game: Game, state: View) -> list[int]:
    """How many copies of each card the state holds, wherever they are."""
    n = game.n_cards
    counts = [0] * n
    for pile in state.hands:
        for c in pile:
            counts[c] += 1
    for c in state.draw:
        counts[c] += 1
    for c in state.discard:
        counts[c] += 1
    for group in (state.battle, state.speed, state.safeties, state.coups, state.karma_cards):
        for pile in group:
            for c in pile:
                counts[c] += 1
    for row in state.played:
        for c in range(n):
            counts[c] += row[c]
    return counts


_TABLES: dict[int, _Tables] = {}  # by game: each holds its game, so the memo is bounded (a soak checks thousands)
_TABLES_MAX = 64


class _Tables:
    """Per-game sets the checker reads on every call."""

    def __init__(self, g: Game) -> None:
        self.game = g
        n = g.n_cards
        self.sorted_deck = sorted(g.deck)
        # a combination remedy (pile BOTH_PILES) lands on either pile
        self.battle_ok = frozenset(
            c for c in range(n) if g.kind[c] in (HAZARD, REMEDY) and g.pile[c] in (BATTLE, BOTH_PILES)
        )
        self.speed_ok = frozenset(
            c for c in range(n) if g.kind[c] in (HAZARD, REMEDY) and g.pile[c] in (SPEED, BOTH_PILES)
        )
        self.safety = frozenset(c for c in range(n) if g.kind[c] == SAFETY)
        self.hazard = frozenset(c for c in range(n) if g.kind[c] == HAZARD)
        self.distance = tuple(c for c in range(n) if g.kind[c] == DISTANCE)
        self.not_distance = tuple(c for c in range(n) if g.kind[c] != DISTANCE)
        self.not_distance_of = _getter(self.not_distance)  # a distance row's counts of those cards, in one call
        self.miles = tuple((c, g.miles[c]) for c in self.distance)
        self.limited = tuple((c, g.max_per_hand[c]) for c in self.distance if g.max_per_hand[c] < NO_LIMIT)
        self.lines = sheet_lines(g.ruleset)  # the contract's ten and the ruleset's own lines, from the model
        sc = g.ruleset.scoring
        own = {line.line or name for name, line in sc.lines.items()}  # lines the ruleset pays its own way
        # the per-mile milestones line and the per-safety safeties line, where the ruleset pays them so (None: not)
        self.per_mile = sc.milestones_per_mile.value if g.scoring_enabled and "milestones" not in own else None
        self.per_safety = sc.safety.value if g.scoring_enabled and "safeties" not in own else None
        self.up_to_target = sc.milestones_up_to_target.value


def _getter(cards: tuple[int, ...]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """``row -> tuple(row[c] for c in cards)``, read in C (itemgetter) where it can: the checker runs after every
    action, and this read is on every side's row each time."""
    if len(cards) >= 2:
        return itemgetter(*cards)
    return lambda row: tuple(row[c] for c in cards)


def _tables(game: Game) -> _Tables:
    hit = _TABLES.get(id(game))
    if hit is None or hit.game is not game:
        if len(_TABLES) >= _TABLES_MAX:
            _TABLES.clear()
        hit = _TABLES[id(game)] = _Tables(game)
    return hit


def stacked_in_force(g: Game, battle: list[int], prot: int) -> list[int]:
    """Option stacked-hazards: the battle hazards in force in ``battle`` (bottom first), latest last, read
    from the pile apart from the engine: each hazard stays until a remedy that fixes it (the latest such
    hazard) or a safety protecting against it (``prot``) takes it off."""
    active: list[int] = []
    for c in battle:
        if g.kind[c] == HAZARD:
            active.append(c)
        elif g.kind[c] == REMEDY:
            hit = [i for i, h in enumerate(active) if g.fixes_mask[c] >> h & 1]
            if hit:
                del active[hit[-1]]
    return [h for h in active if not (prot >> h) & 1]


def _check_conservation(state: View, tb: _Tables, out: list[str]) -> None:
    """Card conservation: every copy of the deck is in exactly one place (hands, piles, distance rows), so no card
    is lost or duplicated by a move."""
    g = state.game
    n = g.n_cards
    names = g.card_ids
    everything = list(state.draw)
    everything += state.discard
    for group in (state.hands, state.battle, state.speed, state.safeties, state.coups, state.karma_cards):
        for pile in group:
            everything += pile
    for row in state.played:
        for c in tb.distance:
            if row[c] > 0:
                everything += [c] * row[c]
    everything.sort()
    if everything != tb.sorted_deck or any(any(tb.not_distance_of(row)) for row in state.played):
        counts = _counts(g, state)
        for c in range(n):
            if counts[c] != g.deck_counts[c]:
                out.append(f"card conservation: {names[c]} x{counts[c]} in play, the deck holds {g.deck_counts[c]}")


def _check_placement(state: View, tb: _Tables, out: list[str], sides: Iterable[int] | None = None) -> None:
    """Cards are where their kind allows (battle, speed, safety piles, distance rows), and each safety is laid at
    most as often as the deck holds it."""
    g = state.game
    n = g.n_cards
    S = g.sides
    names = g.card_ids
    kind = g.kind
    for s in range(S) if sides is None else sides:
        side = g.side_names[s]
        if not tb.battle_ok.issuperset(state.battle[s]):
            for c in state.battle[s]:
                if c not in tb.battle_ok:
                    out.append(f"side {side}: {names[c]} on the battle pile")
        if not tb.speed_ok.issuperset(state.speed[s]):
            for c in state.speed[s]:
                if c not in tb.speed_ok:
                    out.append(f"side {side}: {names[c]} on the speed pile")
        if not (tb.safety.issuperset(state.safeties[s]) and tb.safety.issuperset(state.coups[s])):
            for c in state.safeties[s] + state.coups[s]:
                if c not in tb.safety:
                    out.append(f"side {side}: {names[c]} among the safeties")
        row = state.played[s]
        if min(row) < 0 or any(tb.not_distance_of(row)):
            for c in range(n):
                if row[c] and (row[c] < 0 or kind[c] != DISTANCE):
                    out.append(f"side {side}: {row[c]} x {names[c]} counted as distance played")
        # ruleset 'karma': a side's karma is shown exactly where the ruleset has it; its karma cards are of that kind
        if (state.karma[s] is None) == g.karma:
            out.append(
                f"side {side}: karma {state.karma[s]!r} where the ruleset {'has' if g.karma else 'has no'} karma"
            )
        for c in state.karma_cards[s]:
            if kind[c] != KARMA:
                out.append(f"side {side}: {names[c]} among the karma cards")
    # each safety in one place: a safety is played by at most one side, once
    laid_all = [c for s in range(S) for c in state.safeties[s] + state.coups[s]]
    if len(laid_all) != len(set(laid_all)):
        for c in set(laid_all):
            if laid_all.count(c) > g.deck_counts[c]:
                out.append(f"safety {names[c]} laid {laid_all.count(c)} times, the deck holds {g.deck_counts[c]}")


def _check_hand_sizes(state: View, dealt: bool, out: list[str]) -> None:
    """Hand sizes: nobody over the hand size outside their own turn's draw, and full hands while the draw pile
    lasts, less the coups fourrés and fast plays whose draw the ruleset withholds."""
    g = state.game
    N = g.players
    hs = g.hand_size
    dec = state.decision
    over = dec.kind in (DecisionKind.HAND_OVER, DecisionKind.MATCH_OVER)
    for p in range(N):
        if len(state.hands[p]) > hs + 1:
            out.append(f"{g.player_names[p]} holds {len(state.hands[p])} cards (hand size {hs})")
    big = [p for p in range(N) if len(state.hands[p]) > hs]
    if len(big) > 1:
        out.append(f"{len(big)} players hold more than {hs} cards at once")
    ptd = g.ruleset.turn.order.value == "play_then_draw"  # play then draw: the hand is full before the play
    if big and (ptd or not (dec.kind == DecisionKind.TURN and dec.drawn and big == [dec.player])):
        out.append(f"{g.player_names[big[0]]} holds {hs + 1} cards outside their own turn")
    # while the draw pile lasts (it has never run out: after a reshuffle, hands played out may be short)
    if dealt and state.draw and not over and not state.reshuffles:
        # a coup fourré whose safety is not replaced (coup_fourre.replacement_draw false) leaves its caller a
        # card short for the rest of the hand, and so does a fast play without its draw (fast_play.replacement_draw
        # false): the callers' calls and fast plays this hand, read from the history. A mulligan draws back to
        # the hand size (turn.mulligan: 'draw back to hand_size', not one card per card thrown), so it makes
        # its player's hand full again: only the calls and fast plays since its last mulligan count
        short = [0] * N
        cf_short, fast_short = not g.coup_fourre_replacement_draw, not g.fast_play_replacement_draw
        if cf_short or fast_short:
            short = _short_draws(cast("Sequence[tuple[int, Action]]", state.history), N, cf_short, fast_short)
        for p in range(N):
            if dec.kind == DecisionKind.MULLIGAN and p == dec.player:
                continue  # a mulligan under way: the cards thrown are drawn back at its end
            mine = dec.kind == DecisionKind.TURN and p == dec.player
            if ptd:  # played, the draw to come: at its turn's draw, a window it opened, its extension question
                window = dec.kind in (DecisionKind.COUP_FOURRE, DecisionKind.FAST_PLAY)  # the attacker's draw to come
                due = (
                    (mine and not dec.drawn)
                    or (window and p == state.cf_attacker)
                    or (dec.kind == DecisionKind.EXTENSION and p == dec.player)
                )
                want = hs - 1 if due else hs
            else:
                want = hs + 1 if (mine and dec.drawn) else hs
            want -= short[p]
            if len(state.hands[p]) != want:
                out.append(
                    f"{g.player_names[p]} holds {len(state.hands[p])} cards while the draw pile lasts "
                    f"(expected {want} at {dec.kind}{' after the draw' if dec.drawn else ''})"
                )


# the last _short_draws reading: (players, cf_short, fast_short), where the hand starts in the history, the
# hand's entries read, and each player's count after them. One tuple, replaced whole
_ShortMemo = tuple[tuple[int, bool, bool], int, list[tuple[int, "Action"]], list[int]]
_short_memo: _ShortMemo | None = None


def _short_draws(hist: Sequence[tuple[int, Action]], N: int, cf_short: bool, fast_short: bool) -> list[int]:
    """Each player's coups fourrés (``cf_short``) and fast plays (``fast_short``) this hand whose draw the ruleset
    withholds, since the player's last mulligan ended (its draw back refills the hand): read from the history,
    forward from the hand's mark (an entry of player -1).

    The checker runs after every action and a hand's history only grows, so the last reading is kept and
    carried on when the history still begins with the entries it read (compared whole, in C): one new entry
    is read per action, not the hand's every entry (a hand-long scan each action made the hand quadratic).
    Any other history (another match, a state set up or mutated) is read from its hand's mark afresh."""
    global _short_memo
    key = (N, cf_short, fast_short)
    memo = _short_memo
    if memo is not None and memo[0] == key:
        _, start, seen, short = memo
        end = start + len(seen)
        if end <= len(hist) and (start == 0 or hist[start - 1][0] < 0) and list(hist[start:end]) == seen:
            if end == len(hist):
                return list(short)
            seen, short = list(seen), list(short)
            start = _read_hand(hist, end, start, seen, short, cf_short, fast_short)
            _short_memo = (key, start, seen, short)
            return list(short)
    start = len(hist)
    while start > 0 and hist[start - 1][0] >= 0:
        start -= 1  # back to the hand's mark (or the history's start)
    seen, short = [], [0] * N
    start = _read_hand(hist, start, start, seen, short, cf_short, fast_short)
    _short_memo = (key, start, seen, short)
    return list(short)


def _read_hand(
    hist: Sequence[tuple[int, Action]],
    first: int,
    start: int,
    seen: list[tuple[int, Action]],
    short: list[int],
    cf_short: bool,
    fast_short: bool,
) -> int:
    """Read ``hist[first:]`` into ``seen`` and ``short`` (a mark starts them again); where the hand starts."""
    for i in range(first, len(hist)):
        q, a = hist[i]
        if q < 0:  # a new hand's mark: nothing before it counts
            start, seen[:], short[:] = i + 1, [], [0] * len(short)
            continue
        seen.append((q, a))
        if a.op == DRAW and i > start and hist[i - 1][0] == q and hist[i - 1][1].op == MULLIGAN:
            short[q] = 0  # the draw that ends a mulligan: the hand full again
        elif (a.op == COUP_FOURRE and cf_short) or (a.op == FAST_PLAY and fast_short):
            short[q] += 1
    return start


def _check_distance(state: View, tb: _Tables, out: list[str], sides: Iterable[int] | None = None) -> None:
    """Distance: the target is the trip or its extension as called, each side's miles are the sum of its distance
    cards (and safety bonuses), within the target, and per-card limits hold."""
    g = state.game
    S = g.sides
    names = g.card_ids
    ext = g.extension_to
    if state.target not in (g.target, ext):
        out.append(f"target {state.target} is neither the trip ({g.target}) nor its extension ({ext})")
    if state.extension_called_by >= 0 and state.target != (ext if ext is not None else g.target):
        out.append(f"extension called but the target is {state.target}")
    if state.extension_called_by < 0 and state.target != g.target:
        out.append(f"no extension called but the target is {state.target}")
    for s in range(S) if sides is None else sides:
        side = g.side_names[s]
        row = state.played[s]
        m = 0
        for c, miles in tb.miles:
            m += row[c] * miles
        extra = state.miles[s] - m  # option safety-distance: some safeties' miles on top of the cards
        bonus = g.safety_distance
        n_safe = len(state.safeties[s]) + len(state.coups[s])
        if extra != 0 and not (bonus and extra % bonus == 0 and 0 < extra <= bonus * n_safe):
            out.append(
                f"side {side}: miles {state.miles[s]} but the distance played adds up to {m}"
                + (f" and {n_safe} safeties of {bonus}" if bonus else "")
            )
        if state.miles[s] > state.target and not (g.overshoot and state.miles[s] - state.target < max(g.miles)):
            out.append(f"side {side}: {state.miles[s]} miles, past the target of {state.target}")
        for c, most in tb.limited:
            if row[c] > most:
                out.append(f"side {side}: {row[c]} x {names[c]} played, the most is {most}")


def _check_stacking(state: View, tb: _Tables, out: list[str], sides: Iterable[int] | None = None) -> None:
    """No hazard directly on a hazard, no limit on a limit, unless the ruleset allows stacking."""
    g = state.game
    S = g.sides
    names = g.card_ids
    H = tb.hazard
    for s in range(S) if sides is None else sides:
        side = g.side_names[s]
        for allowed, pile, label in (
            (g.hazard_on_hazard or g.stacked_hazards, state.battle[s], "battle"),
            (g.speed_limit_stacking, state.speed[s], "speed"),
        ):
            if not allowed and len(pile) > 1:
                for below, above in zip(pile, pile[1:]):
                    if above in H and below in H:
                        out.append(f"side {side}: {names[above]} directly on {names[below]} in the {label} pile")


def _check_caches(state: View, out: list[str], sides: Iterable[int] | None = None) -> None:
    """The engine's per-side caches (protection, right of way, rolling, battle hazard, speed limit) equal a
    recomputation from the piles, so a stale cache shows up as a disagreement."""
    g = state.game
    S = g.sides
    names = g.card_ids
    kind = g.kind
    for s in range(S) if sides is None else sides:
        side = g.side_names[s]
        laid = state.safeties[s] + state.coups[s]
        prot = 0
        way = False  # right of way: a rolling safety laid
        for c in laid:
            prot |= g.protects_mask[c]
            way = way or bool(g.grants_rolling[c])
        if state.prot[s] != prot:
            out.append(f"side {side}: protection cache {state.prot[s]:#x}, the safeties give {prot:#x}")
        if state.row[s] != way:
            out.append(f"side {side}: right-of-way cache {state.row[s]}, the safeties give {way}")
        if state.needs_go[s] and not g.roll_after_safety:
            out.append(f"side {side}: waits for a go card after a safety, but the ruleset has no roll-after-safety")
        b = state.battle[s]
        top = b[-1] if b else -1
        if g.stacked_hazards:  # every hazard not yet taken off by a remedy that fixes it, latest last
            active = stacked_in_force(g, b, prot)
            showing = active[-1] if active else -1
            if len(set(active)) != len(active):
                out.append(f"side {side}: a battle hazard in force twice ({[names[h] for h in active]})")
        else:
            showing = top if (top >= 0 and kind[top] == HAZARD and not (prot >> top) & 1) else -1
        if showing >= 0:
            rolling = False
        elif state.needs_go[s] and not way:
            rolling = False
        elif top >= 0 and (g.is_go[top] or g.restarts[top]):
            rolling = True
        else:
            rolling = way
        if state.rolling[s] != rolling:
            out.append(f"side {side}: rolling cache {state.rolling[s]}, the piles give {rolling}")
        if state.bhaz[s] != showing:
            out.append(f"side {side}: battle hazard cache {state.bhaz[s]}, the piles give {showing}")
        sp = state.speed[s]
        st = sp[-1] if sp else -1
        lhaz = st if (st >= 0 and kind[st] == HAZARD and not (prot >> st) & 1) else -1
        limit = g.limit[lhaz] if lhaz >= 0 else NO_LIMIT
        if state.lhaz[s] != lhaz or state.limit[s] != limit:
            out.append(f"side {side}: speed limit cache {state.limit[s]}, the piles give {limit}")


def _check_decision(state: View, over: bool, out: list[str]) -> None:
    """The decision is consistent: a finished hand has no legal action and ended for a reason; a hand in play has a
    legal action, and each window (turn, coup fourré, fast play, extension) is offered to someone entitled to it."""
    g = state.game
    S = g.sides
    N = g.players
    dec = state.decision
    ext = g.extension_to
    legal = state.legal_actions()
    if over:
        if legal:
            out.append(f"the hand is over but {len(legal)} actions are legal")
        done = [s for s in range(S) if state.miles[s] >= state.target]
        pile_out_ends = (
            g.ruleset.turn.draw_pile_out_ends_hand.value
        )  # cards stay in hand (turn.draw_pile_out_ends_hand)
        # the stall rule (turn.stall_discards, a ruling): a run of that many discards with nothing drawn from
        # the draw pile nor played ends the hand with cards left
        stalled = g.stall_checked and state.stall >= g.stall_discards
        if not done and not stalled and (state.draw or (any(state.hands) and not pile_out_ends)):
            out.append("the hand ended with no trip completed while cards remain to play")
        if (dec.kind == DecisionKind.MATCH_OVER) != (state.winner is not None):
            out.append(f"decision {dec.kind} with winner {state.winner!r}")
    else:
        if not legal:
            out.append(f"no legal action at {dec.kind} for player {dec.player}: the game is stuck")
        if not 0 <= dec.player < N:
            out.append(f"decision {dec.kind} for a player out of range: {dec.player}")
        elif dec.kind == DecisionKind.TURN:
            if not dec.drawn and not state.can_draw() and not state.can_refill(dec.player):
                out.append("a turn waits for a draw from an empty draw pile")
            if dec.drawn and not state.hands[dec.player]:
                out.append(f"{g.player_names[dec.player]} has a turn with no cards")
        elif dec.kind == DecisionKind.COUP_FOURRE:
            hand = state.hands[dec.player]
            if not any(c in hand for c in g.protectors[state.cf_hazard]):
                out.append(f"coup fourré window for {g.player_names[dec.player]}, who holds no protecting safety")
            if not g.coup_fourre_any_player and g.side_of[dec.player] != state.cf_side:
                out.append(f"coup fourré window for {g.player_names[dec.player]}, not of the side attacked")
            if dec.player == state.cf_attacker:
                out.append("coup fourré window for the attacker")
        elif dec.kind == DecisionKind.FAST_PLAY:  # option fast-play-remedy (rulings: fast play)
            hand = state.hands[dec.player]
            if not g.ruleset.fast_play.enabled.value:
                out.append("a fast-play window in a ruleset without fast play")
            if g.side_of[dec.player] != state.cf_side:
                out.append(f"fast-play window for {g.player_names[dec.player]}, not of the side attacked")
            if dec.player == state.cf_attacker:
                out.append("fast-play window for the attacker")  # a hazard on one's own side (option solo)
            fixers = [
                cid
                for cid, card in g.ruleset.cards.items()
                if card.kind == "remedy" and state.cf_hazard >= 0 and g.card_ids[state.cf_hazard] in card.fixes
            ]
            if not any(g.card_ids[c] in fixers for c in hand):
                out.append(f"fast-play window for {g.player_names[dec.player]}, who holds no remedy for the hazard")
        elif dec.kind == DecisionKind.EXTENSION:
            if ext is None or state.extension_called_by >= 0:
                out.append("an extension question with no extension to call")
            if state.miles[g.side_of[dec.player]] < state.target:
                out.append(
                    f"the extension question goes to {g.player_names[dec.player]}, whose side has not "
                    "completed the trip"
                )
        if dec.kind != DecisionKind.EXTENSION:
            for s in range(S):
                if state.miles[s] >= state.target:
                    out.append(f"side {g.side_names[s]} completed the trip and the hand goes on")
        if state.winner is not None:
            out.append(f"a winner ({state.winner!r}) while the hand is in play")


def _check_scores(
    state: View,
    tb: _Tables,
    *,
    over: bool,
    dealt: bool,
    totals: bool,
    start: HandStart | None,
    out: list[str],
    sides: Iterable[int] | None = None,
) -> None:
    """Score lines add up: each sheet has the ruleset's lines summing to its total, the finished hand's sheet and
    the match's winner agree with the score oracle, milestones and safeties lines match the piles, and the match
    totals are the sum of the hand sheets."""
    sheets = state.hand_sheets
    current = state.score
    for h, sheet in enumerate([*sheets, current] if over else [current]):
        _check_sheet(state, tb, f"hand {h + 1}" if (over and h < len(sheets)) else "current sheet", sheet, out)
    if over and sheets and sheets[-1] != current:  # two tuples of dicts (the View's, as the snapshot gives them)
        out.append("the last hand's sheet differs from the score sheet of the finished hand")
    if over and len(current) == state.game.sides:
        _check_oracle(state, tb, dealt=dealt, totals=totals, start=start, out=out)
    _check_pile_lines(state, tb, out, sides)
    if totals:
        _check_totals(state, over, out)


def _check_sheet(state: View, tb: _Tables, label: str, sheet: Sequence[dict[str, int]], out: list[str]) -> None:
    """One sheet: a line per side, each with the sheet's lines, none negative, summing to its total."""
    g = state.game
    if len(sheet) != g.sides:
        out.append(f"{label}: {len(sheet)} score lines for {g.sides} sides")
        return
    for s, line in enumerate(sheet):
        if tuple(line) != tb.lines:
            out.append(f"{label} side {g.side_names[s]}: score lines {tuple(line)}")
            continue
        values = line.values()
        if min(values) < 0:  # the keys are the sheet's lines (checked above): never empty
            out.append(f"{label} side {g.side_names[s]}: a negative score line")
        total = sum(values) - line["total"]  # the lines but the total ("total" is one of them)
        if total != line["total"]:
            out.append(f"{label} side {g.side_names[s]}: lines add up to {total}, total says {line['total']}")


def _check_oracle(
    state: View, tb: _Tables, *, dealt: bool, totals: bool, start: HandStart | None, out: list[str]
) -> None:
    """The finished hand's sheet as the score oracle gives it, and the match's winner as the match rules do."""
    g = state.game
    current = state.score
    oracle = expected_sheet(state, start, dealt=dealt)  # None: a scenario's hand, no start snapshot
    for s in range(g.sides if oracle is not None else 0):
        assert oracle is not None
        for name in tb.lines:
            if current[s].get(name) != oracle[s][name]:
                out.append(
                    f"side {g.side_names[s]}: {name} scored {current[s].get(name)}, the rulings give {oracle[s][name]}"
                )
    # a points match is judged by its totals: where they are not checked, only a rule that reads the
    # hand itself (a tie-break, a match of fixed hands, a one-hand match) or that breaks a tie is judged
    if totals or g.match_mode != "points" or g.match_tie_break != "draw":
        w = expected_winner(state, oracle)
        if state.winner != w:
            out.append(f"winner {state.winner!r}, the match rules give {w!r}")


def _check_pile_lines(state: View, tb: _Tables, out: list[str], sides: Iterable[int] | None = None) -> None:
    """The milestones and safeties lines (where the ruleset pays them per mile and per safety) match the piles."""
    if tb.per_mile is None and tb.per_safety is None:
        return
    g = state.game
    current = state.score
    for s in range(g.sides) if sides is None else sides:
        miles = state.miles[s]
        counted = min(miles, state.target) if tb.up_to_target else miles
        if tb.per_mile is not None and current[s]["milestones"] != counted * tb.per_mile:
            out.append(f"side {g.side_names[s]}: milestones {current[s]['milestones']} for {miles} miles")
        n_safe = len(state.safeties[s]) + len(state.coups[s])
        if tb.per_safety is not None and current[s]["safeties"] != n_safe * tb.per_safety:
            out.append(f"side {g.side_names[s]}: safeties line {current[s]['safeties']} for {n_safe} safeties")


def _check_totals(state: View, over: bool, out: list[str]) -> None:
    """The match totals are the sum of the hand sheets, one sheet a finished hand."""
    g = state.game
    sheets = state.hand_sheets
    total_of = itemgetter("total")
    for s in range(g.sides):
        # every hand's sheet, at every action: read in C (a long match's hundred hands made this a Python loop of
        # hundreds of steps an action)
        total = sum(map(total_of, map(itemgetter(s), sheets)))
        if state.match_totals[s] != total:
            out.append(
                f"side {g.side_names[s]}: match total {state.match_totals[s]}, the hand sheets add up to {total}"
            )
    finished = state.hand_no + (1 if over else 0)
    if len(sheets) != finished:
        out.append(f"{len(sheets)} hand sheets after {finished} finished hands")


def check(state: State | View, *, dealt: bool = True, totals: bool = True, start: HandStart | None = None) -> list[str]:
    """Every invariant ``state`` violates, as sentences (empty list: all hold).

    ``dealt`` (default): the hand was dealt by the engine, so the hands are full
    while the draw pile lasts and the match totals are the sum of the hand sheets.
    Pass ``dealt=False`` for a position set up card by card (scenarios), and
    ``totals=False`` where the match did not start at zero (a scenario's ``match``).
    ``start``: for such a position, its :func:`position_start` snapshot, taken before the hand's
    first action, lets the score oracle judge the hand's sheet (without it, it does not).

    A side whose every field the side-by-side checks read (:data:`_SIDE_FIELDS`, and the target) equals what
    it was in the last View a check found clean (:data:`_side_memo`) is not checked side by side again: those
    checks are functions of those values and of the game, so they would find nothing again. When anything is
    found, every check is run again on every side, so the sentences and their order are the same as without
    the memo.
    """
    state = _view(state)
    g = state.game
    tb = _tables(g)
    todo = _changed_sides(state, g)
    out = _check(state, tb, dealt, totals, start, todo)
    if out and todo is not None:
        out = _check(state, tb, dealt, totals, start, None)  # every side, the sentences in their order
    _remember(g, None if out else state)
    return out


# What the side-by-side checks (placement, distance, stacking, caches, pile lines) read of a side: the View's
# per-side lists. The rest they read is the target and the game (with its tables)
_SIDE_FIELDS = (
    "battle",
    "speed",
    "safeties",
    "coups",
    "played",
    "karma",
    "karma_cards",
    "miles",
    "rolling",
    "limit",
    "bhaz",
    "lhaz",
    "prot",
    "row",
    "needs_go",
    "score",
)

# a View's _SIDE_FIELDS as a tuple, read in C (one getter, not a generator's step a field: the memo is read and
# written at every check)
_side_fields = attrgetter(*_SIDE_FIELDS)

# the last View a check found clean: its game, its target and its _SIDE_FIELDS (the View's own lists, not the View,
# which holds its State), or None. One entry, replaced whole
_side_memo: tuple[Game, int, tuple[Sequence[object], ...]] | None = None


def _remember(g: Game, view: View | None) -> None:
    global _side_memo
    _side_memo = None if view is None else (g, view.target, _side_fields(view))


def _changed_sides(state: View, g: Game) -> list[int] | None:
    """The sides whose fields differ from the last clean View's (None: no memo for this game and View, so
    every side). Each field compared whole first (in C: one list against the other); only a field that
    differs is read side by side. The View compared is another object than the one kept (a View is a copy
    of its own lists, never written by the checks): the same object checked again is checked whole."""
    memo = _side_memo
    if memo is None or memo[0] is not g:
        return None
    _, target, kept = memo
    if kept[0] is state.battle or target != state.target:  # the same View again (its own lists), or another target
        return None
    sides = g.sides
    changed: set[int] = set()
    for a, b in zip(_side_fields(state), kept):
        if a != b:
            if len(a) != sides or len(b) != sides:
                return None
            changed.update(s for s in range(sides) if a[s] != b[s])
    return sorted(changed)


def _check(
    state: View, tb: _Tables, dealt: bool, totals: bool, start: HandStart | None, sides: list[int] | None
) -> list[str]:
    """The checks, in order; the side-by-side ones on ``sides`` only (None: every side)."""
    out: list[str] = []
    over = state.decision.kind in (DecisionKind.HAND_OVER, DecisionKind.MATCH_OVER)
    _check_conservation(state, tb, out)
    _check_placement(state, tb, out, sides)
    _check_hand_sizes(state, dealt, out)
    _check_distance(state, tb, out, sides)
    _check_stacking(state, tb, out, sides)
    _check_caches(state, out, sides)
    _check_decision(state, over, out)
    _check_scores(state, tb, over=over, dealt=dealt, totals=totals, start=start, out=out, sides=sides)
    return out
