"""Replaying scenario files through the engine (the format is described in ``docs/scenarios.md``).

A scenario document is read with positions (:mod:`.yamlio`), validated by the model
(:mod:`.model`) and against the deck of its ruleset and player count, its position is built
with :meth:`State.from_position`, and its steps are played in order:

* the draw happens once a turn, before the player's first action of that turn: the engine's
  explicit DRAW is applied when the step's player is the one to act and has not drawn;
* a coup fourré (or fast-play) window that the next step does not use is declined (DECLINE until it
  closes), unless that step is a ``coup_fourre`` (a ``fast_play``), and only if that step is accepted: a
  step marked ``rejected`` is tried on a clone, so the window stays open; an ``expect:`` step does not
  close it;
* the ruleset's turn rules: a ``draw_from: discard`` step is the turn's draw; a mulligan that the
  next action step does not go on with (``mulligan: CARD`` by the same player) ends with its draw
  back; with play then draw, the draw after a play is applied before the next action step;
* an action step without ``rejected`` must be accepted; with ``rejected`` it must be refused
  (with that code) and leave the game exactly as it was;
* the first failing step ends the scenario.

Every problem of an invalid document is one ``FILE:LINE:COL: message``; the document then counts
as failed. Nothing here raises for bad input.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from pydantic import BaseModel, ValidationError

from mbrules.engine import Game, GameError, IllegalAction, State, Transition
from mbrules.vocab import BATTLE, DISTANCE, HAZARD, KARMA, REASON_CODES, REMEDY, SAFETY, SPEED, DecisionKind
from mbrules.ruleset import RulesetError, load_ruleset
from mbrules.ruleset.diagnostics import (
    DataKey,
    Diagnostic,
    LocNode,
    ModelWords,
    YamlData,
    diag_at,
    display_path,
    quote,
    validation_diagnostics,
)

from . import model as m
from .format import hand_over, hand_sheet, match_totals, observe_side, show, step_action, winner_name
from .yamlio import Document, read_documents


# -- results ----------------------------------------------------------------------------------------
@dataclass
class Failure:
    """One difference at a step: what was expected beside what happened."""

    step: int  # 1-based
    file: str
    line: int
    col: int
    key: str  # what was compared ('sides.B.miles', 'rejected', 'accepted', 'draw')
    expected: Any
    actual: Any
    note: str = ""

    def text(self) -> str:
        s = (
            f"{self.file}:{self.line}:{self.col}: step {self.step}: {self.key}: "
            f"expected {show(self.expected)}, got {show(self.actual)}"
        )
        return s + (f" ({self.note})" if self.note else "")

    def as_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "key": self.key,
            "expected": self.expected,
            "actual": self.actual,
            "note": self.note,
        }


@dataclass
class ScenarioResult:
    file: str
    document: int  # 1-based document of the file
    line: int  # where the document starts
    title: str
    errors: list[Diagnostic] = field(default_factory=list)  # the document is invalid
    failures: list[Failure] = field(default_factory=list)  # a step failed
    steps_run: int = 0

    @property
    def passed(self) -> bool:
        return not self.errors and not self.failures

    def lines(self) -> list[str]:
        """The report: ``PASS title`` or ``FAIL title`` and, for a failure, indented details."""
        out = [f"{'PASS' if self.passed else 'FAIL'} {self.title}"]
        out += [f"  {d}" for d in self.errors]
        out += [f"  {f.text()}" for f in self.failures]
        return out

    def as_json(self) -> dict[str, Any]:
        failed_step = self.failures[0].step if self.failures else None
        return {
            "file": self.file,
            "document": self.document,
            "line": self.line,
            "title": self.title,
            "passed": self.passed,
            "valid": not self.errors,
            "step": failed_step,
            "steps_run": self.steps_run,
            "errors": [d.as_json() for d in self.errors],
            "failures": [f.as_json() for f in self.failures],
        }


# -- files --------------------------------------------------------------------------------------------
class ScenarioPathError(Exception):
    """A path named on the command line that does not exist or cannot be read (exit 2)."""


def collect(paths: Iterable[str | Path]) -> list[Path]:
    """The scenario files named: a folder means every ``*.yaml`` under it, sorted."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found = sorted(q for q in p.rglob("*.yaml") if q.is_file())
            if not found:
                raise ScenarioPathError(f"mbrules: {raw}: no *.yaml scenario files in this folder")
            out += found
        elif p.is_file():
            out.append(p)
        elif p.exists():
            raise ScenarioPathError(f"mbrules: {raw}: not a file or folder")
        elif p.is_symlink():  # a dangling link or a loop of links
            raise ScenarioPathError(f"mbrules: {raw}: a symbolic link to no file (missing, or a loop of links)")
        else:
            raise ScenarioPathError(f"mbrules: {raw}: no such file or folder")
    return out


def replay_file(path: str | Path, watch: Callable[[State], None] | None = None) -> list[ScenarioResult]:
    """Every scenario document of one file, run. Raises ScenarioPathError if it cannot be read.

    ``watch(state)`` is called with each scenario's position before its first step, so a
    checker can add its observer (``State.add_observer``).
    """
    path = Path(path)
    file = display_path(path)
    try:
        docs = read_documents(path, file)
    except OSError as exc:
        raise ScenarioPathError(f"mbrules: {file}: cannot read: {exc.strerror or exc}") from None
    return [run_document(doc, path.parent, watch) for doc in docs]


def replay_paths(paths: Iterable[str | Path]) -> list[ScenarioResult]:
    results: list[ScenarioResult] = []
    for p in collect(paths):
        results += replay_file(p)
    return results


# -- validation -----------------------------------------------------------------------------------------
def _model_at(path: list[DataKey], data: YamlData) -> type[BaseModel] | None:
    """The model class of the mapping at ``path`` (for listing the keys it allows)."""
    if not path:
        return m.Scenario
    if path == ["setup"]:
        return m.Setup
    if len(path) == 3 and path[:2] == ["setup", "sides"]:
        return m.SideSetup
    if len(path) == 2 and path[0] == "steps":
        step = data["steps"][path[1]] if isinstance(data.get("steps"), list) else None
        return m.ExpectStep if isinstance(step, dict) and "expect" in step else m.ActionStep
    if len(path) == 3 and path[0] == "steps" and path[2] == "expect":
        return m.Expect
    if len(path) == 5 and path[0] == "steps" and path[3] == "sides":
        return m.SideExpect
    if len(path) == 5 and path[0] == "steps" and path[3] == "score":
        return m.ScoreExpect
    return None


_PATTERN_WORDS = {
    "^[a-z][a-z0-9_]*$": "a card id is lowercase letters, digits and '_' (e.g. out_of_gas)",
    "^p[1-9][0-9]?$": "a player is p1, p2, ... pN",
    "^[A-Z]$": "a side is one capital letter: A, B, C",
    "^[^\\n\\r]*$": "it must fit on one line",
    r"^[^\x00-\x1f\x7f-\x9f\u2028\u2029]*$": "it must fit on one line, without control characters",
}


def _explain(path: list[DataKey], value: YamlData) -> tuple[str, str] | None:
    """A scenario's own words for a refused value: a reason code."""
    if path and path[-1] == "rejected":
        return (
            f"'{show(value)}' is not a reason code",
            f"write one of {', '.join(REASON_CODES)}, or true for any reason",
        )
    return None


_WORDS = ModelWords(model_at=_model_at, patterns=_PATTERN_WORDS, explain=_explain, show_value=True)


class _Invalid(Exception):
    def __init__(self, diags: list[Diagnostic]):
        super().__init__("\n".join(map(str, diags)))
        self.diags = diags


class _Checker:
    """Names and the deck: cards, players and sides must exist in this ruleset and player count."""

    def __init__(self, game: Game, locs: LocNode, ruleset_name: str):
        self.g = game
        self.locs = locs
        self.rs = ruleset_name
        self.errors: list[Diagnostic] = []

    def err(self, path: list[DataKey], message: str, key: bool = False) -> None:
        self.errors.append(diag_at(self.locs, path, message, key=key))

    def card(self, path: list[DataKey], cid: str | None) -> int | None:
        if cid is None:
            return None
        if cid not in self.g.index:
            self.err(path, f"unknown card '{cid}': the cards of {self.rs} are {', '.join(self.g.card_ids)}")
            return None
        return self.g.index[cid]

    def cards(self, path: list[DataKey], cids: list[str] | None) -> None:
        for i, c in enumerate(cids or ()):
            self.card(path + [i], c)

    def player(self, path: list[DataKey], name: str | None, key: bool = False) -> int | None:
        if name is None:
            return None
        if name not in self.g.player_names:
            self.err(
                path,
                f"unknown player '{name}': with {self.g.players} players they are {', '.join(self.g.player_names)}",
                key=key,
            )
            return None
        return self.g.player_names.index(name)

    def side(self, path: list[DataKey], name: str | None, key: bool = False) -> int | None:
        if name is None:
            return None
        if name not in self.g.side_names:
            self.err(
                path,
                f"unknown side '{name}': with {self.g.players} players the sides are {', '.join(self.g.side_names)}",
                key=key,
            )
            return None
        return self.g.side_names.index(name)


@dataclass
class _Prepared:
    game: Game
    scenario: m.Scenario
    state: State


# a side's pile in a setup -> (what it holds, in words; whether a card may lie there)
_PILE_RULE: dict[str, tuple[str, Callable[[Game, int], bool]]] = {
    "battle": ("battle hazards and their remedies", lambda g, c: g.kind[c] in (HAZARD, REMEDY) and g.pile[c] == BATTLE),
    "speed": ("speed hazards and their remedies", lambda g, c: g.kind[c] in (HAZARD, REMEDY) and g.pile[c] == SPEED),
    "distance": ("distance cards", lambda g, c: g.kind[c] == DISTANCE),
    "safeties": ("safeties", lambda g, c: g.kind[c] == SAFETY),
    "coup_fourres": ("safeties", lambda g, c: g.kind[c] == SAFETY),
    "karma_cards": ("karma cards", lambda g, c: g.kind[c] == KARMA),
}


def prepare(doc: Document, base_dir: Path) -> _Prepared:
    """Validate a document and build its starting position; raises _Invalid with every problem."""
    if doc.data is None or doc.locs is None or doc.errors:
        raise _Invalid(doc.errors)
    data, locs = doc.data, doc.locs
    try:
        scn = m.Scenario.model_validate(data)
    except ValidationError as exc:
        raise _Invalid(validation_diagnostics(exc.errors(), data, locs, _WORDS)) from None
    try:
        rs = load_ruleset(scn.ruleset, list(scn.options), base_dir=base_dir)
    except RulesetError as exc:
        detail = "; ".join(line for line in exc.lines if line.startswith("mbrules: "))
        detail = detail.replace("mbrules: ", "") or "the ruleset or an option is invalid (see below)"
        head = diag_at(
            locs,
            ["ruleset"],
            f"cannot load ruleset {quote(scn.ruleset)}"
            + (f" with options {', '.join(map(quote, scn.options))}" if scn.options else "")
            + f": {detail}",
        )
        own = exc.diagnostics
        shown = {str(d) for d in own}
        others = [line for line in exc.lines if not line.startswith("mbrules: ") and line not in shown]
        raise _Invalid(
            [head]
            + own
            + [Diagnostic(doc.file, head.line, head.col, f"the ruleset loader says: {line}") for line in others]
        ) from None
    try:
        game = Game(rs, scn.players)
    except GameError as exc:
        raise _Invalid([diag_at(locs, ["players"], f"{exc}: change 'players'")]) from None
    ck = _Checker(game, locs, rs.id)
    _check_steps(ck, scn)
    state = _build_position(ck, scn) if not ck.errors else None
    if ck.errors:
        raise _Invalid(ck.errors)
    assert state is not None
    return _Prepared(game, scn, state)


def check_document(doc: Document, base_dir: Path) -> tuple[Game | None, m.Scenario | None, list[Diagnostic]]:
    """A document read through the scenario reader, validated as ``mbrules replay`` validates it (the model,
    its ruleset and options, the names and the deck): ``(game, scenario, [])``, or ``(None, None, problems)``
    with every problem as ``FILE:LINE:COL: message``. Nothing here raises for bad input."""
    try:
        prep = prepare(doc, base_dir)
    except _Invalid as exc:
        diags = sorted(set(exc.diags), key=lambda d: (d.file != doc.file, d.file, d.line, d.col, d.message))
        return None, None, diags or [Diagnostic(doc.file, doc.line, 1, "invalid scenario")]
    return prep.game, prep.scenario, []


def _check_steps(ck: _Checker, scn: m.Scenario) -> None:
    g = ck.g
    for i, step in enumerate(scn.steps):
        base: list[DataKey] = ["steps", i]
        if isinstance(step, m.ActionStep):
            p = ck.player(base + ["player"], step.player)
            for k in ("play", "discard", "coup_fourre", "fast_play", "draw", "mulligan"):
                ck.card(base + [k], getattr(step, k))
            if step.play is not None and step.play in g.index and step.on is None and p is not None:
                c = g.index[step.play]
                opp = [s for s in range(g.sides) if s != g.side_of[p]]
                if g.kind[c] == HAZARD and len(opp) > 1:
                    ck.err(
                        base + ["play"],
                        f"a hazard needs 'on:' here: {step.player} has "
                        f"{len(opp)} opposing sides ({', '.join(g.side_names[s] for s in opp)})",
                    )
            continue
        e = step.expect
        eb = base + ["expect"]
        if "turn" in e.model_fields_set:
            ck.player(eb + ["turn"], e.turn)
        if "discard_top" in e.model_fields_set:
            ck.card(eb + ["discard_top"], e.discard_top)
        for name, cards in (e.hands or {}).items():
            ck.player(eb + ["hands", name], name, key=True)
            ck.cards(eb + ["hands", name], cards)
        for name, se in (e.sides or {}).items():
            ck.side(eb + ["sides", name], name, key=True)
            for k in ("battle", "speed"):
                ck.card(eb + ["sides", name, k], getattr(se, k))
            for k in ("safeties", "coup_fourres"):
                ck.cards(eb + ["sides", name, k], getattr(se, k))
        for k in ("score", "match"):
            for name in getattr(e, k) or {}:
                ck.side(eb + [k, name], name, key=True)
        for name, sc in (e.score or {}).items():
            for line in sc.model_extra or {}:
                if line not in g.score_line_names:
                    ck.err(
                        eb + ["score", name, line],
                        f"{line!r} is not a score line of this ruleset (lines: {', '.join(g.score_line_names)})",
                        key=True,
                    )
        if e.winner is not None and e.winner != "draw":
            ck.side(eb + ["winner"], e.winner)


def _place(ck: _Checker, placed: list[tuple[list[DataKey], int]], path: list[DataKey], cids: list[str]) -> list[int]:
    """The cards of a setup list, each checked; every one placed is noted in ``placed`` (path, card) for the
    deck's count."""
    out = []
    for i, cid in enumerate(cids):
        c = ck.card(path + [i], cid)
        if c is not None:
            placed.append((path + [i], c))
            out.append(c)
    return out


def _setup_hands(ck: _Checker, su: m.Setup, placed: list[tuple[list[DataKey], int]]) -> dict[int, list[int]]:
    """The hands the setup lists (player -> cards), none over the hand size."""
    g = ck.g
    sp: list[DataKey] = ["setup"]
    hands: dict[int, list[int]] = {}
    for name, cids in su.hands.items():
        p = ck.player(sp + ["hands", name], name, key=True)
        cards = _place(ck, placed, sp + ["hands", name], cids)
        if len(cids) > g.hand_size:
            ck.err(
                sp + ["hands", name],
                f"{name} holds {len(cids)} cards, over the hand size of {g.hand_size}: "
                f"a hand lists what a player holds before its next draw",
            )
        if p is not None:
            hands[p] = cards
    return hands


def _setup_sides(
    ck: _Checker, su: m.Setup, placed: list[tuple[list[DataKey], int]]
) -> tuple[dict[int, dict[str, Any]], dict[int, str]]:
    """The sides' piles the setup lists (side -> pile -> cards, and the karma flag), each card in a pile that
    may hold it; with side -> the name written."""
    g = ck.g
    sp: list[DataKey] = ["setup"]
    sides: dict[int, dict[str, Any]] = {}
    labels: dict[int, str] = {}  # side index -> the name written
    for name, ss in su.sides.items():
        s = ck.side(sp + ["sides", name], name, key=True)
        piles: dict[str, Any] = {}
        for pile, (words, ok) in _PILE_RULE.items():
            cards = _place(ck, placed, sp + ["sides", name, pile], getattr(ss, pile))
            for i, c in enumerate(cards):
                if not ok(g, c):
                    ck.err(
                        sp + ["sides", name, pile, i],
                        f"{g.card_ids[c]} cannot lie in the {pile} pile: it holds only {words}",
                    )
            piles["coups" if pile == "coup_fourres" else pile] = cards
        if ss.karma is not None:
            if not g.karma:
                ck.err(sp + ["sides", name, "karma"], "karma is set but this ruleset has no karma (karma.enabled)")
            piles["karma"] = ss.karma  # a flag beside the piles, read by _lay_table
        if s is not None:
            sides[s] = piles
            labels[s] = name
    return sides, labels


def _placed_counts(ck: _Checker, placed: list[tuple[list[DataKey], int]]) -> Counter[int]:
    """Copies placed of each card; an error for the first copy beyond what the deck holds."""
    g = ck.g
    # The deck: no card placed more often than the deck of this ruleset and player count holds.
    seen: Counter[int] = Counter()
    for path, c in placed:
        seen[c] += 1
        if seen[c] == g.deck_counts[c] + 1:
            ck.err(
                path,
                f"more copies of {g.card_ids[c]} than the deck holds: {ck.rs} with {g.players} players "
                f"has {g.deck_counts[c]}; this is copy {seen[c]}",
            )
    return seen


def _deal_rest(ck: _Checker, su: m.Setup, hands: dict[int, list[int]], seen: Counter[int]) -> list[int] | None:
    """The cards not placed, shuffled by the setup's seed; the hands not listed are dealt from them first (in
    seating order, into ``hands``). None (an error) where too few are left to deal them."""
    g = ck.g
    sp: list[DataKey] = ["setup"]
    rest = [c for c in range(g.n_cards) for _ in range(g.deck_counts[c] - seen[c])]
    random.Random(su.seed).shuffle(rest)
    unlisted = [p for p in range(g.players) if p not in hands]
    need = len(unlisted) * g.hand_size
    if need > len(rest):
        ck.err(
            sp + ["hands"] if su.hands else sp,
            f"the setup leaves {len(rest)} cards unplaced, too few to deal the {len(unlisted)} hands not listed "
            f"({', '.join(g.player_names[p] for p in unlisted)}: {need} cards): list those hands",
        )
        return None
    for p in unlisted:  # dealt from the shuffled rest, in seating order
        hands[p], rest = rest[: g.hand_size], rest[g.hand_size :]
    return rest


def _build_position(ck: _Checker, scn: m.Scenario) -> State | None:
    """The state a scenario's setup describes (hands, piles, sides, turn, match totals), the rest of the deck
    dealt or piled by its seed; None where the setup has errors (reported on ``ck``)."""
    g = ck.g
    su = scn.setup
    if su is None:
        return State.new_match(g, 0, deal_next=False)  # a scenario rests at its hand's end
    sp: list[DataKey] = ["setup"]
    placed: list[tuple[list[DataKey], int]] = []  # (path, card) in the order written
    hands = _setup_hands(ck, su, placed)
    draw_top = _place(ck, placed, sp + ["draw_pile"], su.draw_pile)
    discard = _place(ck, placed, sp + ["discard_pile"], su.discard_pile)
    sides, labels = _setup_sides(ck, su, placed)
    turn = ck.player(sp + ["turn"], su.turn)
    ext = ck.player(sp + ["extension_called_by"], su.extension_called_by)
    target = g.extension_to if (su.extension_called_by is not None and g.extension_to is not None) else g.target
    for s, name in labels.items():
        _check_reachable(ck, g, sp + ["sides", name], name, sides[s], target)
    if su.extension_called_by is not None and g.extension_to is None:
        ck.err(
            sp + ["extension_called_by"],
            f"{ck.rs} with {g.players} players has no extension: remove 'extension_called_by'",
        )
    totals = [0] * g.sides
    for name, pts in su.match.items():
        side = ck.side(sp + ["match", name], name, key=True)
        if side is not None:
            totals[side] = pts
    seen = _placed_counts(ck, placed)
    if ck.errors:
        return None
    rest = _deal_rest(ck, su, hands, seen)
    if rest is None:
        return None
    if su.rest == "discard_pile":
        discard = rest + discard  # beneath the listed discards: the last one listed stays on top
    else:
        draw_top = draw_top + rest
    return State.from_position(
        g,
        hands=[hands[p] for p in range(g.players)],
        draw_top_first=draw_top,
        discard=discard,
        sides=sides,
        turn=turn if turn is not None else 0,
        extension_called_by=ext if ext is not None else -1,
        match_totals=totals,
        seed=su.seed,
        hands_played=su.hands_played,
    )


def _check_reachable(ck: _Checker, g: Game, path: list[DataKey], name: str, piles: dict[str, Any], target: int) -> None:
    """Refuse a side no game can reach: past its target, too many of a limited card, hazard on hazard."""
    miles = sum(g.miles[c] for c in piles["distance"])
    if miles > target:
        ck.err(
            path + ["distance"],
            f"side {name}'s distance adds up to {miles} miles, past the trip's target of "
            f"{target}: no game reaches that position (a side stops at its target)",
        )
    counts = Counter(piles["distance"])
    for c, n in counts.items():
        if n > g.max_per_hand[c]:
            ck.err(
                path + ["distance"],
                f"side {name} has {n} of {g.card_ids[c]}, more than the {g.max_per_hand[c]} "
                f"one side may play in a hand",
            )
    for pile, allowed, what in (
        ("battle", g.hazard_on_hazard or g.stacked_hazards, "a hazard may not cover another hazard"),
        ("speed", g.speed_limit_stacking, "a speed limit may not cover another"),
    ):
        cards = piles[pile]
        for i in range(1, len(cards)):
            if not allowed and g.kind[cards[i]] == HAZARD and g.kind[cards[i - 1]] == HAZARD:
                ck.err(
                    path + [pile, i],
                    f"{g.card_ids[cards[i]]} lies on {g.card_ids[cards[i - 1]]}: in {ck.rs} "
                    f"{what}, so no game reaches that position",
                )


# -- running ---------------------------------------------------------------------------------------------------
def _title(doc: Document) -> str:
    data = doc.data
    if isinstance(data, dict) and isinstance(data.get("scenario"), str) and data["scenario"].strip():
        t: str = data["scenario"].strip().splitlines()[0]
    else:
        t = doc.file
    return t


def run_document(doc: Document, base_dir: Path, watch: Callable[[State], None] | None = None) -> ScenarioResult:
    res = ScenarioResult(doc.file, doc.index, doc.line, _title(doc))
    try:
        prep = prepare(doc, base_dir)
    except _Invalid as exc:
        # This file's problems by position, then those of the files it names (a ruleset, an option).
        res.errors = sorted(set(exc.diags), key=lambda d: (d.file != doc.file, d.file, d.line, d.col, d.message)) or [
            Diagnostic(doc.file, doc.line, 1, "invalid scenario")
        ]
        return res
    if watch is not None:
        watch(prep.state)
    _Runner(prep, doc, res).run()
    return res


class _Runner:
    def __init__(self, prep: _Prepared, doc: Document, res: ScenarioResult):
        self.g = prep.game
        self.scn = prep.scenario
        self.st = prep.state
        assert doc.locs is not None  # prepare() refuses a document without positions
        self.locs = doc.locs
        self.res = res
        self.turn_draw: tuple[int, int] | None = None  # (player, card) drawn at the start of this turn

    def fail(self, i: int, path: list[DataKey], key: str, expected: Any, actual: Any, note: str = "") -> None:
        d = diag_at(self.locs, ["steps", i, *path], "")
        self.res.failures.append(Failure(i + 1, d.file, d.line, d.col, key, expected, actual, note))

    def run(self) -> None:
        for i, step in enumerate(self.scn.steps):
            self.res.steps_run = i + 1
            try:
                if isinstance(step, m.ExpectStep):
                    self.expect(i, step.expect)
                else:
                    self.action(i, step)
            except IllegalAction as exc:  # an implicit draw or decline refused: the engine disagrees with itself
                self.fail(i, [], "engine", "the implicit draw or decline accepted", f"refused: {exc.code}", exc.message)
            except Exception as exc:  # noqa: BLE001 - an engine crash is this scenario's failure, not the CLI's
                self.fail(i, [], "engine", "no error", f"{type(exc).__name__}: {exc}")
            if self.res.failures:
                return

    # -- actions
    def action(self, i: int, step: m.ActionStep) -> None:
        """An action step: the implicit declines and draws before it, the turn's draw it names, the action itself
        (accepted, or refused as ``rejected`` says, the game unchanged) and the draw a reaction brought."""
        g = self.g
        p = g.player_names.index(step.player)
        kind = step.action_key
        # A coup fourré (or fast-play) window this step does not use is declined, but only if the step is
        # accepted: a step marked ``rejected`` is tried on a clone, so the game (the open window included)
        # stays exactly as it was and the victim may still call the coup fourré (play the remedy).
        st = self.st
        window = st.decision.kind
        trial = step.rejected is not None and (
            (kind != "coup_fourre" and window == DecisionKind.COUP_FOURRE)
            or (kind != "fast_play" and window == DecisionKind.FAST_PLAY)
        )
        if trial:
            st = st.clone()
        self._implicit(st, p, kind)
        if kind in ("play", "discard") and not g.play_then_draw and not self._turn_draw(i, step, st, p, trial):
            return
        done = self._apply(i, step, st, p, kind)
        if done is None:
            return
        self.turn_draw = None
        if kind in ("coup_fourre", "fast_play") and step.draw is not None:
            self._reaction_draw(i, step, kind, done.drawn)

    def _implicit(self, st: State, p: int, kind: str) -> None:
        """What the step's player does not write: the windows it does not use declined, a mulligan it does not go
        on with ended, and (play then draw) the draws after plays."""
        g = self.g
        if kind != "coup_fourre":
            for _ in range(g.players + 1):  # a window is each holder's once: bounded by the players
                if st.decision.kind != DecisionKind.COUP_FOURRE:
                    break
                st.apply(g.decline_action)
        if kind != "fast_play":
            for _ in range(g.players + 1):  # each holder of a remedy is asked once
                if st.decision.kind != DecisionKind.FAST_PLAY:
                    break
                st.apply(g.decline_action)
        # A mulligan this step does not go on with ends: its player draws back to the hand size.
        d = st.decision
        if d.kind == DecisionKind.MULLIGAN and not (kind == "mulligan" and d.player == p):
            st.apply(g.draw_action, player=d.player)
        # Play then draw: the draw after a play is implicit too (unless this step is that draw's choice).
        for _ in range(g.players + 2):  # a draw may open another (an empty hand's turn is its draw): bounded
            d = st.decision
            if not (
                g.play_then_draw
                and d.kind == DecisionKind.TURN
                and not d.drawn
                and not (d.player == p and kind in ("draw_from", "mulligan"))
            ):
                break
            st.apply(g.draw_action, player=d.player)

    def _turn_draw(self, i: int, step: m.ActionStep, st: State, p: int, trial: bool) -> bool:
        """The draw: once a turn, before the player's first action of that turn; False (a failure) where the step
        names a card the draw did not bring."""
        g = self.g
        d = st.decision
        turn_draw = self.turn_draw
        if d.kind == DecisionKind.TURN and d.player == p and not d.drawn:
            turn_draw = (p, st.apply(g.draw_action, player=p).drawn)
            if not trial:
                self.turn_draw = turn_draw
        if step.draw is not None:
            got = turn_draw[1] if turn_draw and turn_draw[0] == p and turn_draw[1] >= 0 else None
            if got is None or g.card_ids[got] != step.draw:
                self.fail(
                    i,
                    ["draw"],
                    "draw",
                    step.draw,
                    g.card_ids[got] if got is not None else None,
                    "" if got is not None else "no card was drawn this turn",
                )
                return False
        return True

    def _apply(self, i: int, step: m.ActionStep, st: State, p: int, kind: str) -> Transition | None:
        """The step's action applied: its transition where accepted as the step expects, else None (a refusal the
        step expects, with the game unchanged, is no failure)."""
        _, action = step_action(self.g, step)
        before = st.snapshot()
        try:
            done = st.apply(action, player=p)
        except IllegalAction as exc:
            if step.rejected is None:
                self.fail(i, [kind], kind, "accepted", f"refused with {exc.code}", exc.message)
                return None
            if step.rejected is not True and step.rejected != exc.code:
                self.fail(i, ["rejected"], "rejected", step.rejected, exc.code, exc.message)
                return None
            if st.snapshot() != before:
                self.fail(
                    i,
                    ["rejected"],
                    "unchanged",
                    "the game as it was",
                    "a changed game",
                    f"the engine refused with {exc.code} but changed the game",
                )
            return None
        if step.rejected is not None:
            self.fail(i, ["rejected"], "rejected", step.rejected, "accepted")
            return None
        return done

    def _reaction_draw(self, i: int, step: m.ActionStep, kind: str, drawn: int) -> None:
        """The card the engine says the caller drew (Transition.drawn, as the recorder reads it); not a shrunk
        draw pile: a play-then-draw attacker's owed draw may reshuffle a new pile right after it."""
        g = self.g
        got = drawn if drawn >= 0 else None
        if got is None or g.card_ids[got] != step.draw:
            what = "the coup fourré" if kind == "coup_fourre" else "the fast play"
            self.fail(
                i,
                ["draw"],
                "draw",
                step.draw,
                g.card_ids[got] if got is not None else None,
                "" if got is not None else f"no card was drawn after {what}",
            )

    # -- expectations
    def expect(self, i: int, e: m.Expect) -> None:
        g = self.g
        snap = self.st.snapshot()
        written = e.model_fields_set
        base: list[DataKey] = ["expect"]

        def cmp(path: list[DataKey], key: str, expected: Any, actual: Any) -> None:
            if expected != actual:
                self.fail(i, base + path, key, expected, actual)

        if "turn" in written:
            tp = snap.turn_player
            cmp(["turn"], "turn", e.turn, g.player_names[tp] if tp >= 0 else None)
        if "hand_over" in written:
            cmp(["hand_over"], "hand_over", e.hand_over, hand_over(snap))
        if "target" in written:
            cmp(["target"], "target", e.target, snap.target)
        if "draw_pile" in written:
            cmp(["draw_pile"], "draw_pile", e.draw_pile, len(snap.draw_pile))
        if "discard_top" in written:
            cmp(["discard_top"], "discard_top", e.discard_top, g.card_ids[snap.discard[-1]] if snap.discard else None)
        for name, cards in (e.hands or {}).items():
            held = [g.card_ids[c] for c in snap.hands[g.player_names.index(name)]]
            if Counter(cards) != Counter(held):
                self.fail(i, base + ["hands", name], f"hands.{name}", sorted(cards), sorted(held))
        for name, se in (e.sides or {}).items():
            obs = observe_side(snap, g.side_names.index(name))
            for k in se.model_fields_set:
                want = getattr(se, k)
                got = obs[k]
                if k in ("safeties", "coup_fourres"):
                    if Counter(want) != Counter(got):
                        self.fail(i, base + ["sides", name, k], f"sides.{name}.{k}", sorted(want), sorted(got))
                else:
                    cmp(["sides", name, k], f"sides.{name}.{k}", want, got)
        if e.score is not None:
            sheet = hand_sheet(snap)
            for name, sc in e.score.items():
                line = sheet[g.side_names.index(name)]
                for k in m.ScoreExpect.model_fields:
                    if k in sc.model_fields_set:
                        cmp(["score", name, k], f"score.{name}.{k}", getattr(sc, k), line[k])
                for k, want in (sc.model_extra or {}).items():  # a line the ruleset adds (scoring.lines)
                    cmp(["score", name, k], f"score.{name}.{k}", want, line.get(k))
        if e.match is not None:
            totals = match_totals(snap)
            for name, pts in e.match.items():
                cmp(["match", name], f"match.{name}", pts, totals[g.side_names.index(name)])
        if "winner" in written:
            cmp(["winner"], "winner", e.winner, winner_name(snap))


def summary_line(results: list[ScenarioResult]) -> str:
    passed = sum(r.passed for r in results)
    return f"{passed} passed, {len(results) - passed} failed"
