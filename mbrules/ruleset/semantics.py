"""Semantic layer: checks on the resolved ruleset that no schema can express.

Each problem is ``(path, message, at_key, related)``; the loader turns the path into the file,
line and column of whichever file set that value, or, when one of the ``related`` values (those
the problem adds up: card counts for the box total) was set by a file composed later (the file
being checked rather than the edition it extends), at that value. All problems are reported at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

from .diagnostics import DataKey, DataPath
from .diagnostics import quote as q
from .model import STANDARD_LINE_VALUES, DistanceCard, HazardCard, RemedyCard, Ruleset, SafetyCard

# (path of the value, message, at its key rather than its value, paths of the related values)
Problem = tuple[DataPath, str, bool, tuple[DataPath, ...]]

MAX_CARD_KINDS = 255  # the engine packs a card kind into 8 bits of an action
MAX_MATCH_HANDS = 10_000  # a points match that cannot end sooner is refused (the target is out of reach)


_V = TypeVar("_V", bound=Hashable)


def _listed_twice(values: Iterable[_V]) -> list[_V]:
    return [v for v, n in Counter(values).items() if n > 1]


class _Add(Protocol):
    """Reports one problem (see :data:`Problem`)."""

    def __call__(
        self, path: Iterable[DataKey], message: str, key: bool = False, related: Iterable[Iterable[DataKey]] = ()
    ) -> None: ...


# checks that the ids at a path name cards of one kind: (path, ids, kind wanted, what names them)
_CheckRefs = Callable[[DataPath, Sequence[str], str, str], None]


def semantic_problems(rs: Ruleset) -> list[Problem]:
    """Every problem of the resolved ruleset that no schema can express (see :data:`Problem`), in a fixed order: cards,
    the box, scoring, legality, score lines, player counts, the match."""
    out: list[Problem] = []

    def add(
        path: Iterable[DataKey], message: str, key: bool = False, related: Iterable[Iterable[DataKey]] = ()
    ) -> None:
        out.append((tuple(path), message, key, tuple(tuple(r) for r in related)))

    cards = rs.cards
    kinds = {cid: c.kind for cid, c in cards.items()}

    def check_refs(path: DataPath, ids: Sequence[str], want: str, what: str) -> None:
        for i, cid in enumerate(ids):
            if cid not in cards:
                near = ", ".join(sorted(c for c, k in kinds.items() if k == want)) or "none"
                add(
                    (*path, i),
                    f"{what} names {q(cid)}, which is not a card of this ruleset "
                    f"({want} cards: {near}); fix the id or add the card",
                )
            elif kinds[cid] != want:
                add((*path, i), f"{what} names {q(cid)}, a {kinds[cid]} card; it must name {want} cards")
        for cid in _listed_twice(ids):
            add(path, f"{what} lists {q(cid)} more than once; list it once")

    _card_kind_count_problems(rs, add)
    _card_reference_problems(rs, add, check_refs)
    _hazard_cover_problems(rs, add)
    _box_problems(rs, add)

    # -- scoring
    check_refs(
        ("scoring", "safe_trip_breakers", "value"),
        rs.scoring.safe_trip_breakers.value,
        "distance",
        "safe_trip_breakers",
    )

    _legality_problems(rs, add)
    _score_line_problems(rs, add, check_refs)
    _player_count_problems(rs, add)
    _match_problems(rs, add)
    return out


def _card_kind_count_problems(rs: Ruleset, add: _Add) -> None:
    """The engine numbers card kinds in 8 bits: more than MAX_CARD_KINDS kinds cannot be played."""
    cards = rs.cards
    if len(cards) > MAX_CARD_KINDS:
        extra = list(cards)[MAX_CARD_KINDS]
        add(
            ("cards", extra),
            f"{len(cards)} card kinds, the most is {MAX_CARD_KINDS} (the engine numbers card kinds "
            f"in 8 bits): this is kind number {MAX_CARD_KINDS + 1}; remove "
            f"{len(cards) - MAX_CARD_KINDS} card kinds",
            True,
        )


def _card_reference_problems(rs: Ruleset, add: _Add, check_refs: _CheckRefs) -> None:
    """Each card's own fields make sense: a remedy fixes hazards (a go card only battle ones, restarts only with a
    battle hazard to stop the car), a safety protects against hazards, a speed-pile hazard has a limit and a battle
    hazard none."""
    cards = rs.cards
    hazards = {cid: c for cid, c in cards.items() if isinstance(c, HazardCard)}
    for cid, card in cards.items():
        if isinstance(card, RemedyCard):
            check_refs(("cards", cid, "fixes"), card.fixes, "hazard", f"remedy {q(cid)} fixes")
            # A remedy may fix hazards of both piles (a combination remedy): it is played on the pile
            # where a hazard it fixes shows (engine: Game.pile BOTH).
            piles = sorted({hazards[h].pile for h in card.fixes if h in hazards})
            if card.go and piles and piles != ["battle"]:
                add(
                    ("cards", cid, "go"),
                    f"go card {q(cid)} fixes speed-pile hazards; a go card (the Roll) is played on the battle pile",
                )
            if card.restarts and card.go:
                add(
                    ("cards", cid, "restarts"),
                    f"remedy {q(cid)} is a go card and restarts: a go card already "
                    "sets its side rolling; keep go or restarts",
                )
            elif card.restarts and "battle" not in piles:
                add(
                    ("cards", cid, "restarts"),
                    f"remedy {q(cid)} restarts the car but fixes no battle hazard, "
                    "so it never stops a car to restart: remove restarts",
                )
            if not card.fixes and not card.go:
                add(
                    ("cards", cid, "fixes"),
                    f"remedy {q(cid)} fixes nothing and is not a go card; list the hazards it fixes",
                )
        elif isinstance(card, SafetyCard):
            check_refs(("cards", cid, "protects"), card.protects, "hazard", f"safety {q(cid)} protects")
            if not card.protects:
                add(
                    ("cards", cid, "protects"),
                    f"safety {q(cid)} protects against nothing; list the hazards it protects against",
                )
        elif isinstance(card, HazardCard):
            if card.pile == "speed" and card.limit is None:
                add(
                    ("cards", cid),
                    f"speed-pile hazard {q(cid)} has no limit: give limit (the highest "
                    "distance card allowed while it shows, e.g. 50)",
                    True,
                )
            if card.pile == "battle" and card.limit is not None:
                add(
                    ("cards", cid, "limit"),
                    f"battle hazard {q(cid)} has a limit; only speed-pile hazards "
                    "limit speed: remove limit or set pile: speed",
                )


def _hazard_cover_problems(rs: Ruleset, add: _Add) -> None:
    """Every hazard can be answered (a remedy fixes it, a safety protects against it), the battle pile has a go
    card, and the deck has distance cards: without them no hand can be finished."""
    cards = rs.cards
    hazards = {cid: c for cid, c in cards.items() if isinstance(c, HazardCard)}
    kinds = {cid: c.kind for cid, c in cards.items()}
    for hid in hazards:
        remedies = [cid for cid, c in cards.items() if isinstance(c, RemedyCard) and hid in c.fixes]
        safeties = [cid for cid, c in cards.items() if isinstance(c, SafetyCard) and hid in c.protects]
        if not remedies:
            add(
                ("cards", hid),
                f"hazard {q(hid)} has no remedy: add it to the fixes of a remedy card",
                True,
                [("cards", c, "fixes") for c, k in kinds.items() if k == "remedy"],
            )
        if not safeties:
            add(
                ("cards", hid),
                f"hazard {q(hid)} has no safety: add it to the protects of a safety card",
                True,
                [("cards", c, "protects") for c, k in kinds.items() if k == "safety"],
            )

    if not any(isinstance(c, RemedyCard) and c.go for c in cards.values()):
        add(("cards",), "no remedy is a go card: the battle pile needs one (the Roll): set go: true on it", True)
    if not any(c.kind == "distance" for c in cards.values()):
        add(("cards",), "the deck has no distance cards: add some (kind: distance)", True)


def _box_problems(rs: Ruleset, add: _Add) -> None:
    """The box: reference card ids do not clash with card ids, and the deck plus reference cards make box.total."""
    cards = rs.cards
    for rid in rs.box.reference_cards:
        if rid in cards:
            add(
                ("box", "reference_cards", rid),
                f"reference card id {q(rid)} is also a card id; rename the reference card",
                True,
                [("cards", rid)],
            )
    added = set(rs.box.added_cards.value)
    for i, cid in enumerate(rs.box.added_cards.value):
        if cid not in cards:
            add(
                ("box", "added_cards", "value", i),
                f"box.added_cards names {q(cid)}, which is not a card of this ruleset",
            )
    deck = sum(c.count for cid, c in cards.items() if cid not in added)  # cards a variant adds are not the box's
    refs = sum(r.count for r in rs.box.reference_cards.values())
    total = rs.box.total.value
    if deck + refs != total:
        add(
            ("box", "total", "value"),
            f"the deck ({deck}) and reference cards ({refs}) make {deck + refs}, "
            f"but box.total says {total}; fix the counts or the total",
            False,
            [("cards", c, "count") for c in cards if c not in added]
            + [("box", "reference_cards", r, "count") for r in rs.box.reference_cards],
        )


def _legality_problems(rs: Ruleset, add: _Add) -> None:
    """Legality rules that contradict each other (stacked hazards with hazard on hazard), and undiscardable kinds
    listed twice."""
    play = rs.play
    if play.stacked_hazards.value and play.hazard_on_hazard.value:
        add(
            ("play", "stacked_hazards", "value"),
            "play.stacked_hazards and play.hazard_on_hazard are both true: "
            "hazard on hazard says only the top hazard needs its remedy, stacked hazards that each one does; "
            "set one of them to false",
            False,
            [("play", "hazard_on_hazard", "value")],
        )
    for kind in _listed_twice(play.undiscardable.value):
        add(("play", "undiscardable", "value"), f"play.undiscardable lists {q(kind)} more than once; list it once")
    if not rs.karma.enabled.value:
        for cid, card in rs.cards.items():
            if card.kind == "karma":
                add(
                    ("cards", cid, "kind"),
                    f"{q(cid)} is a karma card but karma.enabled is false: it would give back a karma no side "
                    "has; set karma.enabled to true or remove the card",
                    False,
                    [("karma", "enabled", "value")],
                )


def _player_count_problems(rs: Ruleset, add: _Add) -> None:
    """Player counts and removals: players split evenly into sides (a lone side puts its hazards on itself), an
    extension longer than the trip, enough cards for the hands and a draw pile after the removals, and removals
    that name player counts and cards the deck holds."""
    cards = rs.cards
    deck = sum(c.count for c in cards.values())
    hand = rs.play.hand_size.value
    for key, pc in rs.player_counts.items():
        players = int(key)
        path = ("player_counts", key)
        if pc.sides == 1 and pc.hazards_on == "opponents":
            # a side with no opponent has nowhere to put its hazards (option solo: hazards_on own_side)
            add(
                (*path, "hazards_on"),
                f"{players} players on one side have no opponent for their hazards: "
                "set hazards_on: own_side (a one-side table) or give more sides",
            )
        if not 1 <= pc.sides <= players:
            add((*path, "sides"), f"{players} players cannot make {pc.sides} sides: sides is between 1 and {players}")
        elif players % pc.sides:
            add(
                (*path, "sides"),
                f"{players} players do not split evenly into {pc.sides} sides; "
                f"choose a number of sides that divides {players}",
            )
        if pc.extension_to is not None and pc.extension_to <= pc.target:
            add(
                (*path, "extension_to"),
                f"extension_to ({pc.extension_to}) must be longer than the trip "
                f"({pc.target}), or null for no extension",
            )
        removal = rs.removals.get(key)
        removed = sum(removal.cards.values()) if removal else 0
        left = deck - removed
        if players * hand >= left:
            add(
                path,
                f"{players} players with hands of {hand} need {players * hand} cards plus a draw pile, "
                f"but the deck has {left} cards" + (f" after removing {removed}" if removed else ""),
                True,
                [
                    ("play", "hand_size", "value"),
                    *[("cards", c, "count") for c in cards],
                    *([("removals", key)] if removal else []),
                ],
            )
    if not rs.player_counts:
        add(("player_counts",), "no player counts: give at least one (e.g. \"2\": {sides: 2, ...})", True)
    for key, removal in rs.removals.items():
        path = ("removals", key)
        if key not in rs.player_counts:
            counts = ", ".join(rs.player_counts) or "none"
            add(
                path,
                f"removals for {key} players, but player_counts has no {key} (it has: {counts}); "
                "add the player count or remove these removals",
                True,
            )
        for cid, n in removal.cards.items():
            if cid not in cards:
                add((*path, "cards", cid), f"removes {q(cid)}, which is not a card of this ruleset; fix the id", True)
            elif n > cards[cid].count:
                add(
                    (*path, "cards", cid),
                    f"removes {n} {q(cid)} but the deck has only {cards[cid].count}; remove at most that many",
                    False,
                    [("cards", cid, "count")],
                )


def _nested_conditions(path: tuple[str, ...], cond: Any) -> list[tuple[tuple[str, ...], Any]]:
    """A score line's condition and those nested in it (every_opponent, unless), each with its path."""
    if cond is None:
        return []
    out = [(path, cond)]
    for key in ("every_opponent", "unless"):
        out += _nested_conditions((*path, key), getattr(cond, key, None))
    return out


def _score_line_problems(rs: Ruleset, add: _Add, check_refs: _CheckRefs) -> None:
    """Score lines given as data (issue 36): a name the sheet can hold, cards that exist, recipients that make sense."""
    for name, line in rs.scoring.lines.items():
        path = ("scoring", "lines", name)
        if name == "total":
            add(
                path,
                "a score line cannot be called 'total': the sheet's total is the sum of the other lines; "
                "choose another name",
                True,
            )
        for cond_key in ("when", "to_when", "per_when"):
            for sub, c in _nested_conditions((cond_key,), getattr(line, cond_key)):
                for key in ("none_played", "played"):
                    cards = getattr(c, key)
                    if cards is not None:
                        check_refs(
                            (*path, *sub, key),
                            tuple(cards),
                            "distance",
                            f"score line {q(name)}: {'.'.join(sub)}.{key}",
                        )
        if line.line == "total":
            add(
                (*path, "line"),
                f"score line {q(name)} cannot pay on the line 'total': the sheet's total is the "
                "sum of the other lines; choose another line",
                True,
            )
        if line.per_when is not None and line.per != "opponent":
            add(
                (*path, "per_when"),
                f"score line {q(name)} gives per_when but does not pay per opponent; per_when "
                "says which opposing sides are counted: set per: opponent or remove per_when",
            )
        if line.up_to_target and line.per != "mile":
            add(
                (*path, "up_to_target"),
                f"score line {q(name)} gives up_to_target but does not pay per mile; up_to_target "
                "caps the miles counted: set per: mile or remove up_to_target",
            )
        if line.to_when is not None and line.to != "each_opponent":
            add(
                (*path, "to_when"),
                f"score line {q(name)} gives to_when but its points go to the side itself "
                "(to: side); to_when says which opposing sides score: set to: each_opponent "
                "or remove to_when",
            )
    m = rs.match
    if m.mode.value == "fixed_hands" and m.hands.value > m.max_hands.value:
        add(
            ("match", "hands", "value"),
            f"match.hands is {m.hands.value:,} but a match stops unfinished after "
            f"match.max_hands ({m.max_hands.value:,}) hands; choose at most that many",
            False,
            [("match", "max_hands", "value")],
        )


def _match_problems(rs: Ruleset, add: _Add) -> None:
    """A points match must be winnable: some hand can score a point, and the target is within reach.

    Single-hand and trip matches end with their one hand; a points match goes on until a side
    reaches ``match.target_points``. It never ends when no hand can score: scoring off, or every
    score line that could happen worth 0 (a line whose cards or rules never occur counts as 0).
    """
    mode = ("match", "mode", "value")
    if rs.match.mode.value in ("single_hand", "fixed_hands") and not rs.scoring.enabled.value:
        what = (
            "one hand, the side with the most points wins"
            if rs.match.mode.value == "single_hand"
            else f"{rs.match.hands.value} hands, the highest total wins"
        )
        add(
            mode,
            f"match.mode is {rs.match.mode.value} ({what}) but scoring is off, so every side ends with 0 "
            "and every match is a draw: set scoring.enabled to true, or match.mode to trip (the first "
            "side to complete the trip wins)",
            False,
            [("scoring", "enabled", "value")],
        )
        return
    if rs.match.mode.value != "points":
        return
    target = rs.match.target_points.value
    if not rs.scoring.enabled.value:
        add(
            ("scoring", "enabled", "value"),
            f"match.mode is points (hands until a side reaches {target:,} points) "
            "but scoring is off, so no hand scores a point and the match never "
            "ends: set scoring.enabled to true, or match.mode to trip or "
            "single_hand",
            False,
            [mode],
        )
        return
    best, lines = _most_per_hand(rs)
    if best <= 0:
        add(
            ("scoring", "milestones_per_mile", "value"),
            f"match.mode is points (hands until a side reaches {target:,} points) but no hand can score a point "
            "(every score line that can happen here is worth 0), so the match never ends: give a score line a "
            "positive value (e.g. milestones_per_mile: 1), or set match.mode to trip or single_hand",
            False,
            [*lines, mode],
        )
    elif target > best * MAX_MATCH_HANDS:
        add(
            ("match", "target_points", "value"),
            f"match.target_points is {target:,}, but a hand scores at most {best:,} points here, so the match "
            f"would last more than {MAX_MATCH_HANDS:,} hands: choose a target of at most {best * MAX_MATCH_HANDS:,}",
        )


def _most_per_hand(rs: Ruleset) -> tuple[int, list[DataPath]]:
    """The most points one side can score in a hand (a bound: each line at its most, 0 where it cannot happen),
    with the paths of the standard score lines counted."""
    sc, cards = rs.scoring, rs.cards
    distance = [c for c in cards.values() if isinstance(c, DistanceCard) and c.count > 0]
    safeties = sum(c.count for c in cards.values() if isinstance(c, SafetyCard))
    # The most miles one side can play in a hand (the 200s bounded by their maximum per hand).
    reach = sum(c.miles * (c.count if c.max_per_hand is None else min(c.count, c.max_per_hand)) for c in distance)
    trips = [pc for pc in rs.player_counts.values() if pc.target <= reach]
    extension = any(pc.extension_to is not None and pc.extension_to <= reach for pc in trips)
    longest = max((min(reach, pc.extension_to or pc.target) for pc in rs.player_counts.values()), default=0)
    opponents = max((pc.sides - 1 for pc in rs.player_counts.values()), default=1)
    per_hand = {  # the most each line can give one side in a hand: 0 when it cannot happen
        "milestones_per_mile": sc.milestones_per_mile.value * longest,
        "safety": sc.safety.value * safeties,
        "all_safeties": sc.all_safeties.value if safeties else 0,
        "coup_fourre": sc.coup_fourre.value * safeties if rs.coup_fourre.enabled.value else 0,
        "trip_completed": sc.trip_completed.value if trips else 0,
        "delayed_action": sc.delayed_action.value if trips else 0,
        "safe_trip": sc.safe_trip.value if trips else 0,
        "shutout": sc.shutout.value * (opponents if sc.shutout_per_opponent.value else 1) if trips else 0,
        "extension": sc.extension.value if extension else 0,
    }
    # a contract line that an entry of scoring.lines pays instead: its standard value is not read
    replaced = {line.line or name for name, line in sc.lines.items()}
    for line_name, keys in STANDARD_LINE_VALUES.items():
        if line_name in replaced:
            per_hand.pop(keys[0], None)
    # score lines as data: a line can pay a side once, or once per opposing side meeting its condition
    # (and times its 'per': miles, safeties, coups fourrés or opposing sides)
    per = {None: 1, "mile": longest, "safety": safeties, "coup_fourre": safeties, "opponent": opponents}
    extra = sum(
        line.points * (opponents if line.to == "each_opponent" else 1) * per[line.per] for line in sc.lines.values()
    )
    lines: list[DataPath] = [("scoring", k, "value") for k in per_hand]
    return sum(per_hand.values()) + extra, lines


Warning = tuple[DataPath, str]  # (path of the value, message)


def semantic_warnings(rs: Ruleset) -> list[Warning]:
    """What is valid but almost certainly not meant: ``(path, message)``, reported as warnings.

    A trip the deck's distance cards cannot make exactly while distance may not pass the target
    (``play.overshoot`` false) can never be completed: every hand then ends with the draw pile
    (the 333-mile trip). A refill allowance (``turn.refill_reshuffles``) without refills does nothing.
    """
    out: list[Warning] = []
    play = rs.play
    turn = rs.turn
    if turn.refill_reshuffles.value and not turn.refill_empty_hand.value:
        out.append(
            (
                ("turn", "refill_reshuffles", "value"),
                f"turn.refill_reshuffles is {turn.refill_reshuffles.value} but turn.refill_empty_hand is false, "
                "so no refill ever happens and this value changes nothing: set refill_empty_hand to true "
                "(option refill-empty-hand), or refill_reshuffles to 0 (reshuffles for every draw are "
                "turn.reshuffles)",
            )
        )
    if not play.overshoot.value:
        for key, pc in rs.player_counts.items():
            parts = _distance_parts(rs, key)
            reach = _reachable(parts, max(pc.target, pc.extension_to or 0))
            for fld, miles in (("target", pc.target), ("extension_to", pc.extension_to)):
                if miles is None or reach >> miles & 1:
                    continue
                near = [m for m in (miles - d for d in range(1, miles)) if reach >> m & 1][:1]
                above = [m for m in range(miles + 1, miles + 201) if _reachable(parts, m) >> m & 1][:1]
                offer = " or ".join(str(m) for m in near + above)
                values = ", ".join(str(m) for m in sorted({m for m, _ in parts}))
                out.append(
                    (
                        ("player_counts", key, fld),
                        f"{key} players: a trip of {miles} {rs.display.distance_unit.value} cannot be reached "
                        f"exactly with this deck's distance ({values}) and play.overshoot is false, so no side "
                        "can complete it and every hand ends with the draw pile: "
                        + (f"choose {offer}, " if offer else "choose another length, ")
                        + "or apply option overshoot",
                    )
                )
    return out


def _distance_parts(rs: Ruleset, key: str) -> list[tuple[int, int]]:
    """(miles, copies one side may play in a hand) for this player count's deck, safeties' distance included."""
    deck = rs.deck_for(int(key))
    parts = []
    for cid, c in rs.cards.items():
        n = deck.get(cid, 0)
        if isinstance(c, DistanceCard) and n > 0:
            parts.append((c.miles, n if c.max_per_hand is None else min(n, c.max_per_hand)))
        elif isinstance(c, SafetyCard) and n > 0 and rs.play.safety_distance.value:
            parts.append((rs.play.safety_distance.value, n))
    return parts


def _reachable(parts: list[tuple[int, int]], upto: int) -> int:
    """The sums one side's cards can make, up to ``upto``, as a bit set (bit m: m miles reachable).

    Bounded copies are split into powers of two, so a kind of n copies costs log2(n) shifts."""
    mask = (1 << (upto + 1)) - 1
    reach = 1
    for miles, n in parts:
        k = 1
        while n > 0:
            take = min(k, n)
            reach = (reach | reach << (miles * take)) & mask
            n -= take
            k <<= 1
    return reach
