"""One record per match, with one entry per hand: the facts the metrics and the exports are made of.

:class:`MatchRecord` and :class:`HandRecord` are frozen dataclasses made by one function,
:func:`match_record`, from what a finished match makes public: ``state.outcome`` (the hand sheets, who
completed each trip, the result) and ``state.history`` in the notation (``a.op``); never a private
field of ``State``. Every statistic of many matches is read from them: simulate's counters
(:mod:`mbrules.matches.stats`), the metric registry (:mod:`mbrules.matches.metrics`) that compare and
sweep difference, the charts' distributions and the JSONL and CSV exports. Sides are indices here
(-1: none); the exports name them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, cast

from ..engine import Action, Game, State
from mbrules.vocab import COUP_FOURRE, DISCARD, EXTEND, PLAY


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand of a match: who played first (the dealer's left: the deal passes to the left where the
    ruleset says so, rulings.md "The match"), turns (cards played or discarded), the side that completed
    the trip (or -1: the hand ended by exhaustion of the cards), coups fourrés, whether an extension was
    called and made (the caller's side completed the extended trip, WM §10C), whether a safe trip or a
    shutout was scored (a non-zero line on the hand's sheet, WM §11), the side that won the hand (most
    points; -1 on a tie), each side's points, and each side's points per score line."""

    hand: int  # 1, 2, ...
    first_player: int
    first_side: int
    turns: int
    completed_by: int
    coups_fourres: int
    extension_called: bool
    extension_made: bool
    safe_trip: bool
    shutout: bool
    winner: int
    points: tuple[int, ...]  # per side: the sheet's total
    lines: tuple[tuple[str, tuple[int, ...]], ...]  # (score line, per side), in game.score_line_names' order
    reshuffles: int = 0  # times the discard pile became the draw pile this hand (turn.reshuffles)
    discard_draws: int = 0  # draws from the discard pile this hand (turn.draw_from_discard)

    def line(self, name: str) -> tuple[int, ...]:
        """Each side's points on the score line ``name`` (``"safe_trip"``, ``"total"``...): the contract's
        lines are on every sheet, a ruleset's own lines (``scoring.lines``) on its games' only."""
        for n, v in self.lines:
            if n == name:
                return v
        raise KeyError(name)


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One match: the result, totals, lead changes of the running totals after each hand, the leader
    after the first hand and whether a side behind then won (a comeback; None when it cannot be said),
    the winning margin (None without a winner), and its hands."""

    seed: int
    bots: tuple[str, ...] | None
    result: str  # a side's name, "draw" or "unfinished"
    winner: int
    totals: tuple[int, ...]
    hands_played: int
    turns: int
    lead_changes: int
    leader_after_first_hand: int
    comeback: bool | None
    margin: int | None
    hands: tuple[HandRecord, ...]


def _hand_facts(history: Sequence[tuple[int, Action]], hands: int) -> list[list[int]]:
    """Per hand, in one pass over the history: [first player, turns, coups fourrés, extension caller, draws
    from the discard pile] (-1 where none). A ``(-1, -1)`` entry marks the start of each hand after the first."""
    facts = [[-1, 0, 0, -1, 0] for _ in range(max(1, hands))]
    h = 0
    cur = facts[0]
    for p, a in history:
        if p < 0:
            h += 1
            cur = facts[h] if h < len(facts) else [-1, 0, 0, -1, 0]
            continue
        if cur[0] < 0:
            cur[0] = p
        op = a.op
        if op == PLAY or op == DISCARD:
            cur[1] += 1
        elif a.from_discard:
            cur[4] += 1
        elif op == COUP_FOURRE:
            cur[2] += 1
        elif op == EXTEND:
            cur[3] = p
    return facts


def _leader(totals: Sequence[int]) -> int:
    """The side strictly ahead, or -1 when the best total is shared."""
    best = max(totals)
    lead = [s for s, t in enumerate(totals) if t == best]
    return lead[0] if len(lead) == 1 else -1


def _hand_record(
    game: Game, h: int, sheet: Sequence[dict[str, int]], fact: list[int], done: int, reshuffles: int
) -> HandRecord:
    """Hand ``h`` (from 0): its sheet (a score-line dict per side), its facts from the history
    (:func:`_hand_facts`), the side that completed the trip (-1: none) and the times the pile was reshuffled."""
    side_of = game.side_of
    first, turns, cf, caller, from_discard = fact
    lines = tuple((line, tuple(by_side[line] for by_side in sheet)) for line in game.score_line_names)
    points = dict(lines)["total"]
    return HandRecord(
        hand=h + 1,
        first_player=first,
        first_side=side_of[first] if first >= 0 else -1,
        turns=turns,
        completed_by=done,
        coups_fourres=cf,
        extension_called=caller >= 0,
        extension_made=caller >= 0 and done == side_of[caller],
        safe_trip=any(v > 0 for v in dict(lines)["safe_trip"]),
        shutout=any(v > 0 for v in dict(lines)["shutout"]),
        winner=_leader(points),
        points=points,
        lines=lines,
        reshuffles=reshuffles,  # turn.reshuffles
        discard_draws=from_discard,  # 'draw discard' (turn.draw_from_discard)
    )


def _leads(sides: int, hands: Sequence[HandRecord]) -> tuple[int, int]:
    """(the side ahead after the first hand, -1 on a tie or none; how many times the lead changed hands): the
    running totals hand by hand, a tie keeping the last side that was ahead."""
    running = [0] * sides
    leader_prev = -1
    lead_changes = 0
    leader_first = -1
    for h, hand in enumerate(hands):
        running = [r + x for r, x in zip(running, hand.points)]
        lead = _leader(running)
        if h == 0:
            leader_first = lead
        elif lead >= 0 and leader_prev >= 0 and lead != leader_prev:
            lead_changes += 1
        if lead >= 0:
            leader_prev = lead
    return leader_first, lead_changes


def match_record(game: Game, seed: int, st: State, bots: Sequence[str] | None = None) -> MatchRecord:
    """The record of one finished (or capped) match dealt from ``seed`` (see :class:`MatchRecord`)."""
    names = game.side_names
    index = {n: s for s, n in enumerate(names)}
    out = st.outcome
    # each hand's sheet as one score-line dict per side, in side order (the outcome's are by side name; a
    # match capped before its end, out None, has the state's sheets, already by side index)
    sheets: Sequence[Sequence[dict[str, int]]] = (
        [[sheet[n] for n in names] for sheet in out.hand_sheets] if out is not None else st.hand_sheets
    )
    completed = list(out.completed) if out is not None else []
    # the history's actions are Actions; its (-1, -1) hand marks are skipped before an action is read
    facts = _hand_facts(cast("Sequence[tuple[int, Action]]", st.history), len(sheets))
    reshuffled = st.reshuffles_per_hand
    hands = []
    for h, sheet in enumerate(sheets):
        done_name = completed[h] if h < len(completed) else None
        done = index[done_name] if done_name is not None else -1
        hands.append(_hand_record(game, h, sheet, facts[h], done, reshuffled[h] if h < len(reshuffled) else 0))
    leader_first, lead_changes = _leads(game.sides, hands)
    if out is None:
        result, winner = "unfinished", -1
    else:
        result, winner = out.result, out.winner_index
    totals = tuple(st.match_totals)
    ordered = sorted(totals, reverse=True)
    margin = ordered[0] - ordered[1] if winner >= 0 and len(ordered) > 1 else None
    comeback = None
    if winner >= 0 and leader_first >= 0 and len(hands) > 1:
        comeback = winner != leader_first
    return MatchRecord(
        seed=seed,
        bots=tuple(bots) if bots is not None else None,
        result=result,
        winner=winner,
        totals=totals,
        hands_played=len(hands),
        turns=sum(x.turns for x in hands),
        lead_changes=lead_changes,
        leader_after_first_hand=leader_first,
        comeback=comeback,
        margin=margin,
        hands=tuple(hands),
    )
