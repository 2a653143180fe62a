"""``api_test(game)``: the checks a ruleset author runs on a custom ruleset (or a custom engine).

Modelled on PettingZoo's ``pettingzoo.test.api_test`` and pgx's ``api_test``: random matches are
played through the public API only (``game.new_match``, ``legal_actions``, ``apply``, ``clone``,
``observation``, ``snapshot``) and every rule of the API is checked on the way. The first rule
broken raises :class:`AssertionError` with a message that names the rule, the match (its seed),
the hand and the action, so the failure can be replayed.

The rules checked (each message starts with the rule's name):

* ``invariants``: after every action, every invariant of the position holds
  (:func:`mbrules.testing.check`: each card in one place, caches equal to a recomputation,
  hand sizes, the decision, the score lines, the score oracle and the match's winner);
* ``transition``: each accepted action did what the rulings say (:func:`check_transition`);
* ``legality``: every action ``legal_actions()`` lists is accepted, every other action of the
  game is refused with a reason code (checked at every ``legality_every``-th decision: the codes
  from ``State.refusal``, or from a custom game's own ``verify``; verify words each kind of refusal
  met there, with the same code and a sentence), and a refused action leaves the match exactly as it was;
* ``determinism``: the same seed deals the same match, and replaying a match's history from its
  seed gives the same match;
* ``clone``: a clone starts equal (snapshot and observable contents) and is independent: playing
  it on leaves the original as it was;
* ``observation``: a seat's observation shows its own hand, and two matches that differ only in the
  cards that seat cannot see (the other hands, the draw order) show it the same observation;
* ``termination``: every hand ends within ``max_actions`` actions and every match ends with an
  outcome.
"""

from __future__ import annotations

import random
from itertools import compress, repeat
from operator import is_, is_not, itemgetter
from typing import Callable, NoReturn

from mbrules.engine import Action, Game, IllegalAction, Observer, State
from mbrules.engine.determinize import determinize
from mbrules.vocab import HAZARD, PLAY, REASON_CODES, DecisionKind

from .checker import check
from .compare import differences, observe, same_as_observed
from .transitions import check_transition
from .view import KeptView, View

__all__ = ["api_test"]

_MARK = (-1, -1)  # a new hand in a match's history


def _canonical(g: Game, player: int, action: Action) -> Action:
    """The one form ``legal_actions()`` lists for an action ``player`` may take: a hazard names its side
    (the only side it may hit when unnamed: the opposing side, or one's own with hazards_on own_side); any other play is unnamed when it names the player's own side."""
    if action.op != PLAY:
        return action
    c = action.card_index
    side = g.side_of[player]
    if g.kind[c] == HAZARD:
        opp = g.hazard_sides[side]
        return g.play_action[c][opp[0]] if action.side_index < 0 and len(opp) == 1 else action
    return g.play_own[c] if action.side_index == side else action


class _Where:
    def __init__(self, game: Game, name: str) -> None:
        self.game = game
        self.name = name
        self.seed: int | None = None
        self.hand = 0
        self.action = ""
        self._canon: dict[int, list[tuple[Action, Action, tuple[int, int, bool]]]] = {}
        self._columns: dict[int, _Columns] = {}

    def canonical_pairs(self, player: int) -> list[tuple[Action, Action, tuple[int, int, bool]]]:
        """Every action of the game with the form ``legal_actions()`` lists it in for ``player``, and what its
        refusal's sentence turns on besides the code (its operation, its card's kind, a side named or not):
        the game's actions are fixed, so these are worked out once a player, not at every decision."""
        pairs = self._canon.get(player)
        if pairs is None:
            g = self.game
            pairs = self._canon[player] = [
                (
                    a,
                    _canonical(g, player, a),
                    (a.op, g.kind[a.card_index] if a.card_index >= 0 else -1, a.side_index < 0),
                )
                for a in g.actions.values()
            ]
        return pairs

    def columns(self, player: int) -> _Columns:
        """:meth:`canonical_pairs` as columns, worked out once a player (:class:`_Columns`)."""
        cols = self._columns.get(player)
        if cols is None:
            cols = self._columns[player] = _Columns(self.canonical_pairs(player))
        return cols

    def fail(self, rule: str, detail: str) -> NoReturn:
        where = f"match seed {self.seed}, hand {self.hand + 1}" + (f", {self.action}" if self.action else "")
        raise AssertionError(f"{rule}: {detail} ({self.name}: {where})")


class _Columns:
    """One player's :meth:`_Where.canonical_pairs` as columns, for :func:`_check_legality`'s pass in C: the
    actions, their listed forms, and the actions grouped by their refusal's form (each group: a getter of its
    actions' codes from the list of every action's code, and its actions in the game's order)."""

    __slots__ = ("actions", "canons", "groups")

    def __init__(self, pairs: list[tuple[Action, Action, tuple[int, int, bool]]]) -> None:
        self.actions = tuple(a for a, _, _ in pairs)
        self.canons = tuple(c for _, c, _ in pairs)
        where: dict[tuple[int, int, bool], list[int]] = {}
        for i, (_, _, form) in enumerate(pairs):
            where.setdefault(form, []).append(i)
        self.groups = tuple((_picker(idx), tuple(self.actions[i] for i in idx)) for idx in where.values())


def _picker(idx: list[int]) -> Callable[[list[str | None]], tuple[str | None, ...]]:
    """``codes -> tuple(codes[i] for i in idx)``, read in C (itemgetter) where it can."""
    if len(idx) >= 2:
        return itemgetter(*idx)
    i = idx[0]
    return lambda codes: (codes[i],)


def api_test(
    game: Game, *, matches: int = 10, seed: int = 0, max_actions: int = 100_000, legality_every: int = 7
) -> None:
    """Play ``matches`` random matches of ``game`` (seeds ``seed``, ``seed + 1``, ...) checking every rule
    of the API (module docstring). Returns None when all hold; raises AssertionError naming the first
    rule broken. ``game`` is what :func:`mbrules.load_game` returns (or a subclass of it: its
    ``new_match`` gives the states tested)."""
    _check_arguments(game, matches, seed, max_actions, legality_every)
    where = _Where(game, f"{game.ruleset_id}, {game.players} players")
    for k in range(matches):
        _one_match(game, seed + k, max_actions, legality_every, where)


MAX_SEED = 2**64 - 1  # the seeds a match takes (mbrules play --seed's range)


def _check_arguments(game: Game, matches: int, seed: int, max_actions: int, legality_every: int) -> None:
    """Wrong arguments are the caller's error, named: a TypeError for a wrong type, a ValueError for a
    value out of range (never an AttributeError or a ZeroDivisionError from deep inside)."""
    if not isinstance(game, Game):
        raise TypeError(f"api_test: game must be a Game (what mbrules.load_game returns), not {type(game).__name__}")
    for name, value, low, high in (
        ("matches", matches, 1, 1_000_000),
        ("seed", seed, -(2**63), MAX_SEED),
        ("max_actions", max_actions, 1, 10**9),
        ("legality_every", legality_every, 1, 10**9),
    ):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"api_test: {name} must be an int, not {type(value).__name__}")
        if not low <= value <= high:
            raise ValueError(
                f"api_test: {name} must be from {low:,} to {high:,}, got {value:,}"
                if abs(value) < 10**30
                else f"api_test: {name} must be from {low:,} to {high:,}"
            )
    if seed + matches - 1 > MAX_SEED:
        raise ValueError("api_test: the seeds seed .. seed + matches - 1 must stay at most 2**64 - 1")


def _one_match(game: Game, seed: int, max_actions: int, legality_every: int, at: _Where) -> None:
    g = game
    at.seed, at.hand, at.action = seed, 0, ""
    state = game.new_match(seed)
    twin = game.new_match(seed)
    if differences(observe(state), observe(twin)):
        at.fail(
            "determinism",
            "two matches dealt from the same seed differ: " + "; ".join(differences(observe(state), observe(twin))[:3]),
        )
    watch = _Watch(at)
    state.add_observer(watch)  # the hand has not begun: the watcher checks its deal now
    rng = random.Random(seed)
    decisions = 0
    cloned = False
    while not state.is_terminal():
        legal = state.legal_actions()
        if not legal:
            at.fail("legality", f"no legal action at a {state.decision.kind} decision")
        player = state.decision.player
        if decisions % legality_every == 0:
            _check_legality(g, state, player, legal, at, watch.current(state))
            _check_observation(g, state, rng, at, watch.current(state))
        if not cloned and rng.random() < 0.05:
            _check_clone(state, rng, at, watch.current(state))
            cloned = True
        decisions += 1
        action = rng.choice(legal)
        at.action = f"after {g.player_names[player]} {g.describe(action)}"
        try:
            state.apply(action)  # the watcher checks it, the hand's end and the next deal included
        except IllegalAction as exc:
            at.fail("legality", f"legal_actions() listed {action}, and apply refused it: {exc}")
        watch.actions_in_hand += 1
        if watch.actions_in_hand > max_actions:
            at.fail("termination", f"the hand did not end within {max_actions} actions")
    at.action = "at the match's end"
    if state.outcome is None:
        at.fail("termination", "the match is over but has no outcome")
    replayed = game.new_match(seed)
    for p, a in state.history:
        if (p, a) != _MARK:
            replayed.apply(a, p)
    diff = differences(observe(state), observe(replayed))
    if diff:
        at.fail(
            "determinism", "replaying the match's history from its seed gives another match: " + "; ".join(diff[:3])
        )


class _Watch(Observer):
    """Checks every accepted action where it lands: the transition, then the invariants (at a hand's
    end, before the next deal, the score oracle's sheet and the winner among them). Its copies of the
    state: :class:`KeptView` (the copy taken after an action is the next one's ``before`` and what the
    checks between read, where the state's queries change nothing)."""

    def __init__(self, at: _Where) -> None:
        self.at = at
        self.before: View | None = None
        self.actions_in_hand = 0
        self.kept = KeptView()

    def current(self, state: State) -> View:
        """A copy of ``state`` as it is now: the one kept since its last change, else a new one."""
        return self.kept.current(state)

    def hand_start(self, state: State) -> None:
        self.at.hand, self.actions_in_hand = state.hand_no, 0
        self.kept.forget()  # dealt: a new copy
        bad = check(self.current(state))
        if bad:
            self.at.fail("invariants", "right after the deal: " + "; ".join(bad[:3]))

    def before_action(self, state: State, player: int, action: Action) -> None:
        self.before = self.kept.before(state)

    def after_action(self, state: State, player: int, action: Action) -> None:
        assert self.before is not None  # before_action ran first (the engine calls both)
        after = self.kept.after(state)  # one copy of the state after the action, read by both checks
        bad = check_transition(self.before, action, after, player)
        if bad:
            self.at.fail("transition", "; ".join(bad[:3]))
        bad = check(after)
        if bad:
            self.at.fail("invariants", "; ".join(bad[:3]))


def _check_legality(g: Game, state: State, player: int, legal: list[Action], at: _Where, now: View) -> None:
    """``now``: a copy of ``state`` as it is (what a refused action must leave it as)."""
    listed = set(legal)
    if len(listed) != len(legal):
        at.fail("legality", "legal_actions() lists an action twice")
    at.action = f"at {g.player_names[player]}'s {state.decision.kind} decision"
    refusal = _judge(state)
    cols = at.columns(player)
    whys = list(map(refusal, cols.actions))  # the hot loop: every action of the game, each decision, in C
    if not _legality_holds(state, whys, cols, listed):
        _legality_failure(state, player, listed, refusal, at)  # the rule-by-rule pass words the first failure
        at.fail("legality", "the actions' refusals changed between two passes over the same position")
    refused = next((a for a in g.actions.values() if not state.can_apply(a)), None)
    if refused is not None:
        try:
            state.apply(refused)
        except IllegalAction:
            pass
        else:
            at.fail("legality", f"apply accepted {refused}, which can_apply refuses")
        after = View(state)  # compared with ``now`` as observe() would, without building the two observations
        if not (same_as_observed(now, after) and sorted(state.legal_actions()) == sorted(legal)):
            before = observe(now)
            before["legal"] = sorted(legal)  # observe reads the live state's: these were listed before the tries
            diff = differences(before, observe(after))
            if diff:
                at.fail("legality", f"refusing {refused} changed the match: " + "; ".join(diff[:3]))


def _legality_holds(state: State, whys: list[str | None], cols: _Columns, listed: set[Action]) -> bool:
    """Whether :func:`_legality_failure`'s pass would find nothing, from every action's code (``whys``, in the
    game's order), with set operations and lookups in C instead of a Python step an action. The same rules:
    an accepted action's form is listed and a refused one's is not (the two sets of forms), each code is a
    reason code, and each (code, form) met is worded by verify, on its first action in the game's order
    (:meth:`tuple.index` in each form's group)."""
    none = repeat(None)
    if not listed.issuperset(compress(cols.canons, map(is_, whys, none))):
        return False
    if not listed.isdisjoint(compress(cols.canons, map(is_not, whys, none))):
        return False
    for pick, actions in cols.groups:
        codes = pick(whys)
        for why in set(codes):
            if why is None:
                continue
            if why not in REASON_CODES:
                return False
            if not _worded(_verify_refusal(state, actions[codes.index(why)]), why):
                return False
    return True


def _legality_failure(
    state: State, player: int, listed: set[Action], refusal: Callable[[Action], str | None], at: _Where
) -> None:
    """Every action of the game judged one by one, failing at the first rule broken (its message): an action
    listed and refused, or accepted and not listed, a code that is no reason code, a code verify does not word."""
    worded: set[tuple[str, tuple[int, int, bool]]] = set()
    for a, canon, form in at.canonical_pairs(player):
        why = refusal(a)
        if why is not None:
            if canon in listed:
                at.fail("legality", f"legal_actions() lists {canon} but verify refuses {a}: {_refused(state, a, why)}")
            if (why, form) not in worded:  # a code met first (checked once), a sentence's branches: code and form
                worded.add((why, form))
                if why not in REASON_CODES:
                    at.fail("legality", f"{a} refused with {why!r}, not a reason code of the contract")
                _check_worded(state, a, why, at)
        elif canon not in listed:
            at.fail("legality", f"verify accepts {a} but legal_actions() does not list it")


def _judge(state: State) -> Callable[[Action], str | None]:
    """The reason code ``state`` refuses an action with, None when it accepts it: ``State.refusal`` (verify's
    code, no sentence built, nothing raised) unless ``state``'s class overrides ``verify``, whose own
    exception then judges (a custom game is judged through its own method)."""
    if type(state).verify is State.verify:  # verify is built on refusal: the two answer alike
        return state.refusal

    def by_verify(a: Action) -> str | None:
        exc = _verify_refusal(state, a)
        return None if exc is None else exc.code

    return by_verify


def _verify_refusal(state: State, a: Action) -> IllegalAction | None:
    """What ``state.verify(a)`` raises (code and sentence), None when it accepts ``a``."""
    try:
        state.verify(a)
    except IllegalAction as exc:
        return exc
    return None


def _worded(exc: IllegalAction | None, code: str) -> bool:
    """Whether verify's refusal ``exc`` is ``code`` with a sentence (the rule :func:`_check_worded` words a failure
    of, and :func:`_legality_holds` asks in its pass)."""
    return exc is not None and exc.code == code and bool(exc.message)


def _check_worded(state: State, a: Action, code: str, at: _Where) -> None:
    """verify refuses ``a`` with ``code`` (the code-only answer's) and words it: each kind of refusal at each
    decision checked is worded once (its code, the action's form, its card's kind), not all ~600."""
    exc = _verify_refusal(state, a)
    if exc is None:
        at.fail("legality", f"{a} refused with {str(code)!r}, but verify accepts it")
    if not _worded(exc, code):
        said = f"{str(exc.code)!r}: {exc.message!r}"
        at.fail("legality", f"{a} refused with {str(code)!r}, but verify says {said}")


def _refused(state: State, a: Action, code: str) -> str:
    """verify's refusal of ``a`` as it reads (code and sentence), for a failure's message."""
    exc = _verify_refusal(state, a)
    return code if exc is None else str(exc)


def _check_observation(g: Game, state: State, rng: random.Random, at: _Where, now: View) -> None:
    """``now``: a copy of ``state`` as it is, whose hands the observations must show."""
    d = state.decision
    seats = [d.player] if d.kind == DecisionKind.COUP_FOURRE else range(g.players)  # a window is its decider's alone
    hands = now.hands
    for p in seats:
        obs = state.observation(p)
        if sorted(obs.hand) != sorted(hands[p]):
            at.fail("observation", f"{g.player_names[p]}'s observation does not show its own hand")
        try:
            other = determinize(obs, random.Random(rng.getrandbits(64)))
        except ValueError as exc:
            at.fail("observation", f"{g.player_names[p]}'s observation does not add up to the deck: {exc}")
        if _as_class(other, type(state)).observation(p) != obs:  # the game's own observation, other deal
            at.fail(
                "observation",
                f"{g.player_names[p]}'s observation changes when only cards it cannot see "
                "(other hands, the draw order) are dealt otherwise",
            )


def _as_class(st: State, cls: type[State]) -> State:
    """``st`` as an instance of ``cls`` (a custom game's State subclass), so its own methods judge it."""
    if type(st) is cls:
        return st
    out = cls.__new__(cls)
    for name in State.__slots__:
        setattr(out, name, getattr(st, name))
    return out


def _check_clone(state: State, rng: random.Random, at: _Where, now: View) -> None:
    """``now``: a copy of ``state`` as it is (what playing a clone must leave it as)."""
    before = observe(now)
    twin = state.clone()
    if twin.snapshot() != state.snapshot() or differences(before, observe(twin)):
        at.fail("clone", "a clone differs from its original: " + "; ".join(differences(before, observe(twin))[:3]))
    for _ in range(20):
        if twin.is_terminal():
            break
        twin.apply(rng.choice(twin.legal_actions()))
    diff = differences(before, observe(state))
    if diff:
        at.fail("clone", "playing a clone changed its original: " + "; ".join(diff[:3]))
