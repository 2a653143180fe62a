"""Invariants of a match in progress, checked from the outside after any action.

``check(state)`` returns the list of invariants a :class:`mbrules.engine.State`
violates (empty: all hold). It recomputes what it can from the piles on its own,
without calling the engine's private helpers, so a bug in a cache or in a rule
shows up as a disagreement rather than being copied. The property tests and the
soak (``benchmarks/soak.py``) share it.

``check_transition(before, action, after)`` checks what one accepted action must
have done by the rulings (the draw, each kind of play, a safety's extra turn, the
coup fourré window and its effect, the extension question); ``Before(state)`` is
the cheap copy it needs. At each hand's end ``check`` also recomputes the score
sheet and the match's winner (``expected_winner``): ``score_oracle`` derives the
sheet from the hand's actions and the ruleset model alone, never from the engine's
counters or the compiled ``Game`` (``expected_sheet`` is its adapter from a state).

``observe(state)`` gives a state's observable contents as plain data, and
``differences(a, b)`` lists where two observations disagree: used to check that a
clone is independent, that a refused action leaves the state as it was, and that
replaying a history gives the same state (``replay_history``).

``configurations()``, ``load_game()`` and ``play_random()`` drive random play over
every bundled ruleset, option and player count; ``checked_replay(path)`` replays a
scenario file with the checks run after every action.
"""

from __future__ import annotations

from typing import NamedTuple

from mbrules.engine import Observer
from mbrules.vocab import (
    BATTLE, COUP_FOURRE, DECLINE, DISCARD, DISTANCE, DRAW, EXTEND, HAZARD, NO_LIMIT, OWN, PLAY, REMEDY, SAFETY,
    SCORE_LINES, SPEED, STOP, DecisionKind,
)

__all__ = [
    "Before", "Checker", "View", "HandStart", "check", "check_transition", "checked_replay", "configurations", "dealt_start",
    "differences", "expected_sheet", "expected_winner", "load_game", "observe", "play_random", "position_start",
    "replay_history", "score_oracle",
]


class View:
    """A state as the checker reads it: built from ``state.snapshot()`` (the whole position, which a
    checker is entitled to), with the piles as plain lists (draw pile bottom first). It is a copy:
    taken before an action, it is what :func:`check_transition` compares the state after with."""

    __slots__ = ("state", "game", "decision", "hands", "draw", "discard", "battle", "speed", "safeties", "coups",
                 "played", "miles", "rolling", "limit", "bhaz", "lhaz", "prot", "row", "needs_go", "target",
                 "extension_called_by", "cf_queue", "cf_hazard", "cf_side", "cf_attacker", "winner", "hand_sheets",
                 "match_totals", "hand_no", "history", "turn", "score", "rng_state")

    def __init__(self, state, history: bool = True):
        snap = state.snapshot()
        self.state = state
        self.game = snap.game
        self.decision = snap.decision
        self.hands = [list(h) for h in snap.hands]
        self.draw = list(reversed(snap.draw_pile))
        self.discard = list(snap.discard)
        sides = snap.sides
        self.battle = [list(v.battle) for v in sides]
        self.speed = [list(v.speed) for v in sides]
        self.safeties = [list(v.safeties) for v in sides]
        self.coups = [list(v.coup_fourres) for v in sides]
        self.played = [list(v.distance) for v in sides]
        self.miles = [v.miles for v in sides]
        self.rolling = [v.moving for v in sides]
        self.limit = [NO_LIMIT if v.limit is None else v.limit for v in sides]
        self.bhaz = [v.hazard for v in sides]
        self.lhaz = [v.speed_hazard for v in sides]
        self.prot = [v.protected for v in sides]
        self.row = list(snap.rolling_safety)
        self.needs_go = list(snap.needs_go)
        self.target = snap.target
        self.extension_called_by = snap.extension_called_by
        hz, side, attacker, queue = snap.window or (-1, -1, -1, ())
        self.cf_hazard, self.cf_side, self.cf_attacker, self.cf_queue = hz, side, attacker, list(queue)
        self.winner = snap.winner
        self.hand_sheets = [list(sheet) for sheet in snap.hand_sheets]
        self.match_totals = list(snap.match_totals)
        self.hand_no = snap.hand_no
        self.history = list(state.history) if history else _Len(snap.history_length)
        self.turn = snap.turn_player
        self.score = [dict(line) for line in snap.score]
        self.rng_state = snap.rng_state

    @property
    def hand_over(self) -> bool:
        return self.decision.kind in (DecisionKind.HAND_OVER, DecisionKind.MATCH_OVER)

    def legal_actions(self):
        return self.state.legal_actions()

    def score_sheet(self):
        return [dict(line) for line in self.score]

    def turn_player(self) -> int:
        return self.turn


def _view(state) -> "View":
    return state if isinstance(state, View) else View(state)


def _counts(game, state) -> list[int]:
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
    for group in (state.battle, state.speed, state.safeties, state.coups):
        for pile in group:
            for c in pile:
                counts[c] += 1
    for row in state.played:
        for c in range(n):
            counts[c] += row[c]
    return counts


_TABLES: dict = {}


class _Tables:
    """Per-game sets the checker reads on every call."""

    def __init__(self, g):
        self.game = g
        n = g.n_cards
        self.sorted_deck = sorted(g.deck)
        self.battle_ok = frozenset(c for c in range(n) if g.kind[c] in (HAZARD, REMEDY) and g.pile[c] == BATTLE)
        self.speed_ok = frozenset(c for c in range(n) if g.kind[c] in (HAZARD, REMEDY) and g.pile[c] == SPEED)
        self.safety = frozenset(c for c in range(n) if g.kind[c] == SAFETY)
        self.hazard = frozenset(c for c in range(n) if g.kind[c] == HAZARD)
        self.distance = tuple(c for c in range(n) if g.kind[c] == DISTANCE)
        self.not_distance = tuple(c for c in range(n) if g.kind[c] != DISTANCE)
        self.miles = tuple((c, g.miles[c]) for c in self.distance)
        self.limited = tuple((c, g.max_per_hand[c]) for c in self.distance if g.max_per_hand[c] < NO_LIMIT)


def _tables(game) -> _Tables:
    hit = _TABLES.get(id(game))
    if hit is None or hit.game is not game:
        hit = _TABLES[id(game)] = _Tables(game)
    return hit


def check(state, *, dealt: bool = True, totals: bool = True, start=None) -> list[str]:
    """Every invariant ``state`` violates, as sentences (empty list: all hold).

    ``dealt`` (default): the hand was dealt by the engine, so the hands are full
    while the draw pile lasts and the match totals are the sum of the hand sheets.
    Pass ``dealt=False`` for a position set up card by card (scenarios), and
    ``totals=False`` where the match did not start at zero (a scenario's ``match``).
    ``start``: for such a position, its :func:`position_start` snapshot, taken before the hand's
    first action, lets the score oracle judge the hand's sheet (without it, it does not).
    """
    state = _view(state)
    g = state.game
    out: list[str] = []
    n = g.n_cards
    S = g.sides
    N = g.players
    names = g.card_ids
    kind = g.kind

    # -- every card is in exactly one place -------------------------------------
    tb = _tables(g)
    everything = list(state.draw)
    everything += state.discard
    for group in (state.hands, state.battle, state.speed, state.safeties, state.coups):
        for pile in group:
            everything += pile
    for row in state.played:
        for c in tb.distance:
            if row[c] > 0:
                everything += [c] * row[c]
    everything.sort()
    if everything != tb.sorted_deck or any(row[c] for row in state.played for c in tb.not_distance):
        counts = _counts(g, state)
        for c in range(n):
            if counts[c] != g.deck_counts[c]:
                out.append(f"card conservation: {names[c]} x{counts[c]} in play, the deck holds {g.deck_counts[c]}")

    # -- cards are where their kind allows ----------------------------------------
    for s in range(S):
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
        if min(row) < 0 or any(row[c] for c in tb.not_distance):
            for c in range(n):
                if row[c] and (row[c] < 0 or kind[c] != DISTANCE):
                    out.append(f"side {side}: {row[c]} x {names[c]} counted as distance played")
    # each safety in one place: a safety is played by at most one side, once
    laid_all = [c for s in range(S) for c in state.safeties[s] + state.coups[s]]
    if len(laid_all) != len(set(laid_all)):
        for c in set(laid_all):
            if laid_all.count(c) > g.deck_counts[c]:
                out.append(f"safety {names[c]} laid {laid_all.count(c)} times, the deck holds {g.deck_counts[c]}")

    # -- hand sizes ----------------------------------------------------------------
    hs = g.hand_size
    dec = state.decision
    over = dec.kind in (DecisionKind.HAND_OVER, DecisionKind.MATCH_OVER)
    for p in range(N):
        if len(state.hands[p]) > hs + 1:
            out.append(f"{g.player_names[p]} holds {len(state.hands[p])} cards (hand size {hs})")
    big = [p for p in range(N) if len(state.hands[p]) > hs]
    if len(big) > 1:
        out.append(f"{len(big)} players hold more than {hs} cards at once")
    if big and not (dec.kind == DecisionKind.TURN and dec.drawn and big == [dec.player]):
        out.append(f"{g.player_names[big[0]]} holds {hs + 1} cards outside their own turn")
    if dealt and state.draw and not over:
        for p in range(N):
            want = hs + 1 if (dec.kind == DecisionKind.TURN and dec.drawn and p == dec.player) else hs
            if len(state.hands[p]) != want:
                out.append(
                    f"{g.player_names[p]} holds {len(state.hands[p])} cards while the draw pile lasts "
                    f"(expected {want} at {dec.kind}{' after the draw' if dec.drawn else ''})"
                )

    # -- distance -------------------------------------------------------------------
    ext = g.extension_to
    if state.target not in (g.target, ext):
        out.append(f"target {state.target} is neither the trip ({g.target}) nor its extension ({ext})")
    if state.extension_called_by >= 0 and state.target != (ext if ext is not None else g.target):
        out.append(f"extension called but the target is {state.target}")
    if state.extension_called_by < 0 and state.target != g.target:
        out.append(f"no extension called but the target is {state.target}")
    for s in range(S):
        side = g.side_names[s]
        row = state.played[s]
        m = 0
        for c, miles in tb.miles:
            m += row[c] * miles
        if m != state.miles[s]:
            out.append(f"side {side}: miles {state.miles[s]} but the distance played adds up to {m}")
        if state.miles[s] > state.target:
            out.append(f"side {side}: {state.miles[s]} miles, past the target of {state.target}")
        for c, most in tb.limited:
            if row[c] > most:
                out.append(f"side {side}: {row[c]} x {names[c]} played, the most is {most}")

    # -- no hazard directly on a hazard, no limit on a limit, unless the ruleset allows it
    H = tb.hazard
    for s in range(S):
        side = g.side_names[s]
        for allowed, pile, label in ((g.hazard_on_hazard, state.battle[s], "battle"),
                                     (g.speed_limit_stacking, state.speed[s], "speed")):
            if not allowed and len(pile) > 1:
                for below, above in zip(pile, pile[1:]):
                    if above in H and below in H:
                        out.append(f"side {side}: {names[above]} directly on {names[below]} in the {label} pile")

    # -- caches equal a recomputation from the piles ---------------------------------
    for s in range(S):
        side = g.side_names[s]
        laid = state.safeties[s] + state.coups[s]
        prot = 0
        row = False
        for c in laid:
            prot |= g.protects_mask[c]
            row = row or bool(g.grants_rolling[c])
        if state.prot[s] != prot:
            out.append(f"side {side}: protection cache {state.prot[s]:#x}, the safeties give {prot:#x}")
        if state.row[s] != row:
            out.append(f"side {side}: right-of-way cache {state.row[s]}, the safeties give {row}")
        if state.needs_go[s] and not g.roll_after_safety:
            out.append(f"side {side}: waits for a go card after a safety, but the ruleset has no roll-after-safety")
        b = state.battle[s]
        top = b[-1] if b else -1
        showing = top if (top >= 0 and kind[top] == HAZARD and not (prot >> top) & 1) else -1
        if showing >= 0:
            rolling = False
        elif state.needs_go[s] and not row:
            rolling = False
        elif top >= 0 and g.is_go[top]:
            rolling = True
        else:
            rolling = row
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

    # -- the decision is consistent ----------------------------------------------------
    legal = state.legal_actions()
    if over:
        if legal:
            out.append(f"the hand is over but {len(legal)} actions are legal")
        done = [s for s in range(S) if state.miles[s] == state.target]
        if not done and (state.draw or any(state.hands)):
            out.append("the hand ended with no trip completed while cards remain to play")
        if (dec.kind == DecisionKind.MATCH_OVER) != (state.winner is not None):
            out.append(f"decision {dec.kind} with winner {state.winner!r}")
    else:
        if not legal:
            out.append(f"no legal action at {dec.kind} for player {dec.player}: the game is stuck")
        if not 0 <= dec.player < N:
            out.append(f"decision {dec.kind} for a player out of range: {dec.player}")
        elif dec.kind == DecisionKind.TURN:
            if not dec.drawn and not state.draw:
                out.append("a turn waits for a draw from an empty draw pile")
            if dec.drawn and not state.hands[dec.player]:
                out.append(f"{g.player_names[dec.player]} has a turn with no cards")
        elif dec.kind == DecisionKind.COUP_FOURRE:
            hand = state.hands[dec.player]
            if not any(c in hand for c in g.protectors[state.cf_hazard]):
                out.append(f"coup fourré window for {g.player_names[dec.player]}, who holds no protecting safety")
            if not g.cf_any_player and g.side_of[dec.player] != state.cf_side:
                out.append(f"coup fourré window for {g.player_names[dec.player]}, not of the side attacked")
            if dec.player == state.cf_attacker:
                out.append("coup fourré window for the attacker")
        elif dec.kind == DecisionKind.EXTENSION:
            if ext is None or state.extension_called_by >= 0:
                out.append("an extension question with no extension to call")
            if state.miles[g.side_of[dec.player]] != state.target:
                out.append(f"the extension question goes to {g.player_names[dec.player]}, whose side has not "
                           "completed the trip")
        if dec.kind != DecisionKind.EXTENSION:
            for s in range(S):
                if state.miles[s] == state.target:
                    out.append(f"side {g.side_names[s]} completed the trip and the hand goes on")
        if state.winner is not None:
            out.append(f"a winner ({state.winner!r}) while the hand is in play")

    # -- score lines add up --------------------------------------------------------------
    sheets = list(state.hand_sheets)
    current = state.score_sheet()
    for h, sheet in enumerate(sheets + [current] if over else [current]):
        label = f"hand {h + 1}" if (over and h < len(sheets)) else "current sheet"
        if len(sheet) != S:
            out.append(f"{label}: {len(sheet)} score lines for {S} sides")
            continue
        for s, line in enumerate(sheet):
            if tuple(line) != SCORE_LINES:
                out.append(f"{label} side {g.side_names[s]}: score lines {tuple(line)}")
                continue
            if any(v < 0 for v in line.values()):
                out.append(f"{label} side {g.side_names[s]}: a negative score line")
            total = sum(v for k, v in line.items() if k != "total")
            if total != line["total"]:
                out.append(f"{label} side {g.side_names[s]}: lines add up to {total}, total says {line['total']}")
    if over and sheets and sheets[-1] != current:
        out.append("the last hand's sheet differs from the score sheet of the finished hand")
    if over and len(current) == S:
        want = expected_sheet(state, start, dealt=dealt)  # None: a scenario's hand, no start snapshot
        for s in range(S if want is not None else 0):
            for line in SCORE_LINES:
                if current[s].get(line) != want[s][line]:
                    out.append(f"side {g.side_names[s]}: {line} scored {current[s].get(line)}, the rulings give "
                               f"{want[s][line]}")
        if totals or g.match_mode != "points":
            w = expected_winner(state, want)
            if state.winner != w:
                out.append(f"winner {state.winner!r}, the match rules give {w!r}")
    if g.scoring_enabled:
        for s in range(S):
            if current[s]["milestones"] != state.miles[s] * g.pts_mile:
                out.append(f"side {g.side_names[s]}: milestones {current[s]['milestones']} for {state.miles[s]} miles")
            n_safe = len(state.safeties[s]) + len(state.coups[s])
            if current[s]["safeties"] != n_safe * g.pts_safety:
                out.append(f"side {g.side_names[s]}: safeties line {current[s]['safeties']} for {n_safe} safeties")
    if totals:
        for s in range(S):
            total = sum(sheet[s]["total"] for sheet in sheets)
            if state.match_totals[s] != total:
                out.append(f"side {g.side_names[s]}: match total {state.match_totals[s]}, the hand sheets add up to {total}")
        finished = state.hand_no + (1 if over else 0)
        if len(sheets) != finished:
            out.append(f"{len(sheets)} hand sheets after {finished} finished hands")
    return out


# ----------------------------------------------------------------------------
# The score oracle: the sheet of a finished hand from its actions and the ruleset model


# The contract's score lines ("Score lines"), in its order.
_SHEET_LINES = (
    "milestones", "safeties", "all_safeties", "coup_fourres", "trip_completed",
    "delayed_action", "safe_trip", "shutout", "extension", "total",
)


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


def _deck(ruleset, players: int) -> dict[str, int]:
    """Card id -> copies in the deck for ``players``: each card's count less the removals for that
    count (rulings: Decks, Player counts), read from the model itself rather than ``Ruleset.deck_for``."""
    removal = ruleset.removals.get(str(players))
    removed = removal.cards if removal is not None else {}
    return {cid: card.count - removed.get(cid, 0) for cid, card in ruleset.cards.items()}


def dealt_start(ruleset, players: int) -> HandStart:
    """A hand just dealt: empty piles, the deck less ``players`` hands of ``hand_size`` to draw."""
    sides = ruleset.player_counts[str(players)].sides
    draw = sum(_deck(ruleset, players).values()) - players * ruleset.play.hand_size.value
    return HandStart(draw, tuple({} for _ in range(sides)), (0,) * sides, (0,) * sides, -1)


def position_start(state) -> HandStart:
    """A snapshot of a hand's start taken from a state set up card by card (``State.from_position``),
    before any action of the hand: the scenario's piles, read once while they are still its input."""
    state = _view(state)
    ids = list(state.game.ruleset.cards)
    distance = []
    for row in state.played:
        distance.append({ids[c]: n for c, n in enumerate(row) if n})
    return HandStart(
        len(state.draw), tuple(distance), tuple(len(x) for x in state.safeties), tuple(len(x) for x in state.coups),
        state.extension_called_by,
    )


def score_oracle(ruleset, players: int, start: HandStart, actions) -> list[dict[str, int]]:
    """The score sheet of a finished hand, derived from the hand's actions and the ruleset model alone.

    ``actions``: the hand's ``(player, Action)`` pairs in order, read only through the notation's
    attributes (``op``, ``card_index``). Nothing of the engine's counters or of the compiled ``Game`` is
    read: card kinds, miles, sides, targets, the deck and the points all come from ``ruleset``, so a
    bug in the engine's scoring or in the compilation of the rules shows up as a disagreement.
    Rulings: Scoring (P71/WM §8), Player counts, Coup fourré, End of the hand.
    """
    pc = ruleset.player_counts[str(players)]
    S = pc.sides
    sc = ruleset.scoring
    sheet = [dict.fromkeys(_SHEET_LINES, 0) for _ in range(S)]
    if not sc.enabled.value:
        return sheet  # kids' simpler game: no points (KID Simpler Game)
    cards = ruleset.cards
    ids = list(cards)  # a card's int in an action is its place in the ruleset's cards
    refill = ruleset.coup_fourre.replacement_draw.value

    played = [dict(d) for d in start.distance]
    miles = [sum(cards[cid].miles * n for cid, n in d.items()) for d in played]
    safeties = list(start.safeties)
    coups = list(start.coups)
    caller = start.extension_caller
    target = pc.extension_to if caller >= 0 and pc.extension_to is not None else pc.target
    draw = start.draw
    completer, delayed = -1, False

    for p, a in actions:
        op = a.op
        if op == DRAW:
            draw -= 1
        elif op == PLAY:
            cid = ids[a.card_index]
            card = cards[cid]
            s = p % S  # contract: p(i) plays for side (i-1) mod S
            if card.kind == "distance":
                played[s][cid] = played[s].get(cid, 0) + 1
                miles[s] += card.miles
                if miles[s] == target:
                    # the trip completed; Delayed Action if its card came after the draw pile ran out (WM §8)
                    completer, delayed = s, draw <= 0
            elif card.kind == "safety":
                safeties[s] += 1
        elif op == COUP_FOURRE:
            coups[p % S] += 1
            if refill and draw > 0:
                draw -= 1  # the caller draws one card, none if the draw pile is empty (rulings: Coup fourré)
        elif op == EXTEND:
            # the trip goes on to the extension; the first completion no longer counts (WM §10C)
            caller = p
            target = pc.extension_to
            completer, delayed = -1, False
    if completer >= 0 and miles[completer] != target:
        completer = -1

    in_deck = sum(n for cid, n in _deck(ruleset, players).items() if cards[cid].kind == "safety")
    for s in range(S):
        line = sheet[s]
        laid = safeties[s] + coups[s]
        line["milestones"] = miles[s] * sc.milestones_per_mile.value
        line["safeties"] = laid * sc.safety.value
        line["all_safeties"] = sc.all_safeties.value if in_deck and laid == in_deck else 0
        line["coup_fourres"] = coups[s] * sc.coup_fourre.value
    if completer >= 0:
        line = sheet[completer]
        line["trip_completed"] = sc.trip_completed.value
        line["delayed_action"] = sc.delayed_action.value if delayed else 0
        breakers = set(sc.safe_trip_breakers.value)
        line["safe_trip"] = 0 if any(played[completer].get(cid, 0) for cid in breakers) else sc.safe_trip.value
        blank = sum(1 for s in range(S) if s != completer and miles[s] == 0)
        if sc.shutout_per_opponent.value:
            line["shutout"] = sc.shutout.value * blank  # WP: 500 per opponent side with no distance
        else:
            line["shutout"] = sc.shutout.value if blank == S - 1 else 0
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
    for line in sheet:
        line["total"] = sum(v for k, v in line.items() if k != "total")
    return sheet


def hand_actions(history) -> tuple[bool, list]:
    """The current hand's actions in a match history, and whether a deal (a ``(-1, -1)`` mark) began it."""
    for i in range(len(history) - 1, -1, -1):
        if history[i] == (-1, -1):
            return True, list(history[i + 1:])
    return False, list(history)


def expected_sheet(state, start: HandStart | None = None, *, dealt: bool = True) -> list[dict[str, int]] | None:
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


def _leader(values):
    best = max(values)
    leaders = [i for i, v in enumerate(values) if v == best]
    return leaders[0] if len(leaders) == 1 else "draw"


def expected_winner(state, sheet=None):
    """The match's winner after a finished hand by the match rules (rulings: The match), or None.

    ``sheet``: the hand's sheet by the oracle (default: :func:`expected_sheet`, or the engine's
    own where the oracle cannot judge the hand)."""
    state = _view(state)
    g = state.game
    if g.match_mode == "trip":
        done = [s for s in range(g.sides) if state.miles[s] == state.target]
        return done[0] if done else _leader(state.miles)
    if g.match_mode == "single_hand":  # the most points in this one hand (KID How to win)
        if sheet is None:
            sheet = expected_sheet(state) or state.score_sheet()
        return _leader([line["total"] for line in sheet])
    if max(state.match_totals) >= g.target_points:
        return _leader(state.match_totals)
    # undecided: a match ends unfinished once it has played its ruleset's hands cap (rulings: The match)
    return "unfinished" if len(state.hand_sheets) >= g.ruleset.match.max_hands.value else None


# ----------------------------------------------------------------------------
# Comparing states


def observe(state, *, rng: bool = True) -> dict:
    """A state's observable contents as plain, comparable data."""
    state = _view(state)
    d = state.decision
    obs = {
        "hands": [list(h) for h in state.hands],
        "draw": list(state.draw),
        "discard": list(state.discard),
        "battle": [list(p) for p in state.battle],
        "speed": [list(p) for p in state.speed],
        "miles": list(state.miles),
        "played": [list(p) for p in state.played],
        "safeties": [list(p) for p in state.safeties],
        "coups": [list(p) for p in state.coups],
        "rolling": list(state.rolling),
        "limit": list(state.limit),
        "target": state.target,
        "extension_called_by": state.extension_called_by,
        "decision": (d.kind, d.player, d.drawn),
        "legal": sorted(state.legal_actions()),
        "score": state.score_sheet(),
        "match_totals": list(state.match_totals),
        "hand_sheets": [[dict(x) for x in sheet] for sheet in state.hand_sheets],
        "winner": state.winner,
        "hand_no": state.hand_no,
        "history": list(state.history),
        "turn_player": state.turn_player(),
    }
    if rng:
        obs["rng"] = state.rng_state
    return obs


def differences(a: dict, b: dict) -> list[str]:
    """Where two observations disagree (empty list: identical)."""
    out = []
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            va, vb = a.get(k), b.get(k)
            if k == "rng":
                out.append("rng: the shuffling RNG states differ")
            else:
                out.append(f"{k}: {_short(va)} != {_short(vb)}")
    return out


def _short(v, limit: int = 160) -> str:
    s = repr(v)
    return s if len(s) <= limit else s[: limit - 3] + "..."


def replay_history(game, seed: int, history, observers=()):
    """A new match from ``seed`` with ``history`` ((player, action), (-1, -1) for a new hand) replayed."""
    from mbrules.engine import State

    st = State.new_match(game, seed, deal_next=False)
    for o in observers:
        st.add_observer(o)
    for p, a in history:
        if p == -1 and a == -1:
            st.next_hand()
        else:
            st.apply(a, p)
    return st


# ----------------------------------------------------------------------------
# Configurations and random play (shared by the property tests and the soak)


def bundled_ids() -> tuple[list[str], list[str]]:
    """The bundled ruleset ids and option ids, sorted (the loader's lists)."""
    from mbrules.ruleset import bundled_option_ids, bundled_ruleset_ids

    return bundled_ruleset_ids(), bundled_option_ids()


_GAMES: dict = {}


def load_game(ruleset: str, options: tuple[str, ...] = (), players: int | None = None):
    """The compiled Game for a configuration (cached); ``players=None`` gives the Ruleset."""
    from mbrules.engine import Game
    from mbrules.ruleset import load_ruleset

    key = (ruleset, tuple(options))
    if key not in _GAMES:
        _GAMES[key] = load_ruleset(ruleset, list(options))
    rs = _GAMES[key]
    if players is None:
        return rs
    gkey = key + (players,)
    if gkey not in _GAMES:
        _GAMES[gkey] = Game(rs, players)
    return _GAMES[gkey]


def configurations() -> list[tuple[str, tuple[str, ...], int]]:
    """Every bundled ruleset, with no option or one bundled option, at every player count it allows."""
    rulesets, options = bundled_ids()
    out = []
    for rid in rulesets:
        for opts in [()] + [(o,) for o in options]:
            rs = load_game(rid, opts)
            for n in sorted(int(k) for k in rs.player_counts):
                out.append((rid, opts, n))
    return out


def play_random(state, rng, *, checks: bool = True, max_actions: int = 100_000, dealt: bool = True):
    """Play random legal actions until the hand is over; return the first violations found (or [])."""
    for _ in range(max_actions):
        if state.hand_over:
            return []
        state.apply(rng.choice(state.legal_actions()))
        if checks:
            bad = check(state, dealt=dealt)
            if bad:
                return bad
    return [f"the hand did not end within {max_actions} actions"]


# ----------------------------------------------------------------------------
# Transitions: what one accepted action must have done (rulings: Play, Coup fourré, End of the hand)


def _next_turn(before, after, p: int) -> int:
    """Who should have the next turn after ``p``: the left neighbour; once the draw pile is out,
    the next player holding cards (-1: nobody, the hand is over)."""
    N = before.game.players
    q = (p + 1) % N
    if after.draw:
        return q
    for _ in range(N):
        if after.hands[q]:
            return q
        q = (q + 1) % N
    return -1


def _expect_turn(out: list[str], after, who: int, why: str) -> None:
    d = after.decision
    g = after.game
    if who < 0:
        if d.kind not in (DecisionKind.HAND_OVER, DecisionKind.MATCH_OVER):
            out.append(f"{why}: every hand is empty and the draw pile is out, but the hand goes on ({d.kind})")
        return
    if d.kind != DecisionKind.TURN or d.player != who:
        out.append(f"{why}: expected {g.player_names[who]}'s turn, got {d.kind} for "
                   f"{g.player_names[d.player] if d.player >= 0 else 'nobody'}")
    elif d.drawn == bool(after.draw):
        out.append(f"{why}: {g.player_names[who]}'s turn {'has drawn' if d.drawn else 'waits for a draw'} "
                   f"with {len(after.draw)} cards to draw")


def _removed_one(before: list, after: list, c: int) -> bool:
    if len(after) != len(before) - 1:
        return False
    b = list(before)
    if c not in b:
        return False
    b.remove(c)
    return b == after or sorted(b) == sorted(after)


def Before(state) -> View:  # noqa: N802  (kept as the name callers know)
    """What :func:`check_transition` reads of the state before an action: a copy from its snapshot
    (the history stands for its length only)."""
    return View(state, history=False)


class _Len(list):
    """Stands for a history of ``n`` entries: only its length is read."""

    def __init__(self, n):
        super().__init__()
        self.n = n

    def __len__(self):
        return self.n


class _What:
    """'p2 play d25': built only when a message needs it (the check runs after every action)."""

    __slots__ = ("g", "p", "a")

    def __init__(self, g, p, a):
        self.g, self.p, self.a = g, p, a

    def __str__(self):
        return f"{self.g.player_names[self.p] if self.p >= 0 else '?'} {self.g.describe(self.a)}"

    __format__ = lambda self, spec: format(str(self), spec)  # noqa: E731

    def __add__(self, other):
        return str(self) + other


def check_transition(before, action, after, player: int | None = None) -> list[str]:
    """What ``action`` (accepted) must have done, from ``before`` (``Before(state)`` taken before it,
    or a clone) to ``after``."""
    before = _view(before)
    after = _view(after)
    g = before.game
    out: list[str] = []
    action = g.action(action)
    op, c, ts = action.op, action.card_index, action.side_index
    d = before.decision
    p = d.player if player is None else player
    ps = g.side_of[p] if p >= 0 else -1
    if op == PLAY:  # the history keeps a play in its shortest words: a hazard names its side, nothing else does
        if g.kind[c] == HAZARD:
            if ts == OWN:
                ts = [t for t in range(g.sides) if t != ps][0]  # accepted, so the only opposing side
            action = g.play_action[c][ts]
        else:
            action = g.play_own[c]
    what = _What(g, p, action)
    if len(after.history) != len(before.history) + 1 or after.history[-1] != (p, action):
        out.append(f"{what}: history did not record ({p}, {action}) once")
    if op == DRAW:
        if after.hands[p] != before.hands[p] + before.draw[-1:] or after.draw != before.draw[:-1]:
            out.append(f"{what}: the top card of the draw pile did not go to the player's hand")
        if after.decision != (DecisionKind.TURN, p, True):
            out.append(f"{what}: after the draw, {after.decision}")
        return out
    if op in (PLAY, DISCARD) and not _removed_one(before.hands[p], after.hands[p], c):
        out.append(f"{what}: the card did not leave the hand (exactly one copy)")
    if op == DISCARD:
        if after.discard != before.discard + [c]:
            out.append(f"{what}: the card is not on top of the discard pile")
        _expect_turn(out, after, _next_turn(before, after, p), what)
        return out
    if op == PLAY:
        k = g.kind[c]
        if k == DISTANCE:
            if after.miles[ps] != before.miles[ps] + g.miles[c]:
                out.append(f"{what}: miles went from {before.miles[ps]} to {after.miles[ps]}")
            if after.miles[ps] == before.target:
                ext_open = g.extension_to is not None and before.extension_called_by < 0 and before.target < g.extension_to
                if ext_open:
                    if after.decision != (DecisionKind.EXTENSION, p, True):
                        out.append(f"{what}: the trip is complete; the extension question should go to the "
                                   f"player whose card completed it, got {after.decision}")
                elif not after.hand_over:
                    out.append(f"{what}: the trip is complete and the hand goes on")
            else:
                _expect_turn(out, after, _next_turn(before, after, p), what)
        elif k == HAZARD:
            pile = after.battle if g.pile[c] == BATTLE else after.speed
            bpile = before.battle if g.pile[c] == BATTLE else before.speed
            if after.decision.kind == DecisionKind.COUP_FOURRE:
                if pile[ts] != bpile[ts] + [c]:
                    out.append(f"{what}: the hazard is not on top of side {g.side_names[ts]}'s pile")
                q = after.decision.player
                eligible = [x for x in ((p + k2) % g.players for k2 in range(1, g.players))
                            if (g.cf_any_player or g.side_of[x] == ts)
                            and any(sc in before.hands[x] for sc in g.protectors[c])]
                if not g.cf_enabled or not eligible or q != eligible[0]:
                    out.append(f"{what}: coup fourré window for {g.player_names[q]}; eligible in seating order: "
                               f"{[g.player_names[x] for x in eligible]}")
            else:
                eligible = [x for x in range(g.players) if x != p and (g.cf_any_player or g.side_of[x] == ts)
                            and any(sc in before.hands[x] for sc in g.protectors[c])]
                if g.cf_enabled and eligible:
                    out.append(f"{what}: {[g.player_names[x] for x in eligible]} hold the safety but no coup "
                               "fourré window opened")
                if pile[ts] != bpile[ts] + [c]:
                    out.append(f"{what}: the hazard is not on top of side {g.side_names[ts]}'s pile")
                _expect_turn(out, after, _next_turn(before, after, p), what)
        elif k == REMEDY:
            pile = after.battle if g.pile[c] == BATTLE else after.speed
            if not pile[ps] or pile[ps][-1] != c:
                out.append(f"{what}: the remedy is not on top of its pile")
            if g.pile[c] == BATTLE and not after.rolling[ps] and g.is_go[c]:
                out.append(f"{what}: a go card was played and the side is not rolling")
            _expect_turn(out, after, _next_turn(before, after, p), what)
        else:  # a safety played normally
            if after.safeties[ps] != before.safeties[ps] + [c]:
                out.append(f"{what}: the safety is not among the side's safeties")
            for piles, name in ((after.battle, "battle"), (after.speed, "speed")):
                top = piles[ps][-1] if piles[ps] else -1
                if g.safety_discards_hazard and top >= 0 and g.kind[top] == HAZARD and after.prot[ps] >> top & 1:
                    out.append(f"{what}: a hazard it protects against still shows on the {name} pile")
            if g.safety_extra_turn:
                who = p if (after.draw or after.hands[p]) else _next_turn(before, after, p)
                _expect_turn(out, after, who, what + " (another turn)")
            else:
                _expect_turn(out, after, _next_turn(before, after, p), what)
        return out
    if op == COUP_FOURRE:
        q = p
        qs = g.side_of[q]
        if after.coups[qs] != before.coups[qs] + [c]:
            out.append(f"{what}: the safety is not laid crosswise")
        hz = before.cf_hazard
        pile_b = (before.battle if g.pile[hz] == BATTLE else before.speed)[before.cf_side]
        pile_a = (after.battle if g.pile[hz] == BATTLE else after.speed)[before.cf_side]
        if before.cf_side == qs:
            if pile_a[-1:] == [hz] and pile_b[-1:] == [hz] and len(pile_a) >= len(pile_b):
                out.append(f"{what}: the hazard was not taken to the discard pile")
        elif pile_a != pile_b:
            out.append(f"{what}: the hazard moved although it was played on another side")
        drew = 1 if (g.cf_replacement_draw and before.draw) else 0
        if len(after.hands[q]) != len(before.hands[q]) - 1 + drew:
            out.append(f"{what}: the caller holds {len(after.hands[q])} cards, expected "
                       f"{len(before.hands[q]) - 1 + drew}")
        if g.cf_extra_turn:
            who = q if (after.draw or after.hands[q]) else _next_turn(before, after, q)
            _expect_turn(out, after, who, what + " (the caller's turn)")
        return out
    if op == DECLINE:
        rest = before.cf_queue[1:]
        if rest:
            if after.decision != (DecisionKind.COUP_FOURRE, rest[0], True):
                out.append(f"{what}: the window should pass to {g.player_names[rest[0]]}, got {after.decision}")
        else:
            _expect_turn(out, after, _next_turn(before, after, before.cf_attacker), what)
        return out
    if op == EXTEND:
        if after.target != g.extension_to or after.extension_called_by != p:
            out.append(f"{what}: the target is {after.target}, called by {after.extension_called_by}")
        _expect_turn(out, after, _next_turn(before, after, p), what)
        return out
    if op == STOP:
        if not after.hand_over:
            out.append(f"{what}: the hand goes on after the extension was declined")
    return out


class Checker(Observer):
    """An observer that runs :func:`check_transition` and :func:`check` after every accepted action.

    The first action it sees records the violations already present in the starting position
    (``positions``) and the hand's :func:`position_start` for the score oracle; each later
    violation lands in ``problems`` with the action that caused it.
    """

    def __init__(self, *, dealt: bool = False, totals: bool = False):
        self.dealt, self.totals = dealt, totals
        self.problems: list[str] = []
        self.positions: list[str] = []
        self._baseline: set[str] | None = None
        self._start = None
        self._before = None

    def before_action(self, state, player, action) -> None:
        if self._baseline is None:
            start = check(state, dealt=self.dealt, totals=self.totals)
            self._baseline = set(start)
            self._start = position_start(state)
            self.positions.extend(f"starting position: {b}" for b in start)
        self._before = Before(state)

    def after_action(self, state, player, action) -> None:
        prior = self._before
        bad = check_transition(prior, action, state, player)
        bad += [b for b in check(state, dealt=self.dealt, totals=self.totals, start=self._start)
                if b not in self._baseline]
        if bad:
            g = state.game
            self.problems.extend(f"after {g.player_names[player]} {g.describe(action)}: {b}" for b in bad)


def checked_replay(path, *, dealt: bool = False) -> tuple[list, list[str], list[str]]:
    """Replay a scenario file with :func:`check_transition` and :func:`check` run after every
    accepted action (a :class:`Checker` on each scenario's state). Returns the replay's results,
    the violations the actions caused (with the action), and the violations already present in a
    scenario's starting position.

    ``dealt=False`` (default): a scenario's position may have short hands and a running match.
    """
    from mbrules.scenario.replay import replay_file

    checkers: list[Checker] = []

    def watch(state) -> None:
        ck = Checker(dealt=dealt)
        checkers.append(ck)
        state.add_observer(ck)

    results = replay_file(path, watch)
    problems = [p for ck in checkers for p in ck.problems]
    positions = [p for ck in checkers for p in ck.positions]
    return results, problems, positions
