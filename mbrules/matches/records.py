"""One record per match, with one entry per hand: the facts the metrics and the exports are made of.

Everything here is read from what a finished match makes public: ``state.outcome`` (the hand
sheets, who completed each trip, the result) and ``state.history`` in the notation (``a.op``,
``a.kind``); never a private field of ``State``.
"""
from __future__ import annotations

from typing import Any

from ..engine import Game, State
from mbrules.vocab import COUP_FOURRE, DISCARD, EXTEND, PLAY


def _hands_of_history(history) -> list[list]:
    """The history cut into hands: a ``(-1, -1)`` entry marks the start of each hand after the first."""
    hands: list[list] = [[]]
    for p, a in history:
        if p < 0:
            hands.append([])
        else:
            hands[-1].append((p, a))
    return hands


def _leader(totals) -> int:
    """The side strictly ahead, or -1 when the best total is shared."""
    best = max(totals)
    lead = [s for s, t in enumerate(totals) if t == best]
    return lead[0] if len(lead) == 1 else -1


def match_record(game: Game, seed: int, st: State, bots=None) -> dict[str, Any]:
    """The record of one finished (or capped) match dealt from ``seed``.

    Per hand: who played first (the dealer's left: the deal passes to the left where the ruleset
    says so, rulings.md "The match"), turns (cards played or discarded), the side that completed
    the trip (or -1: the hand ended by exhaustion of the cards), coups fourrés, whether an
    extension was called and made (the caller's side completed the extended trip, WM §10C),
    whether a safe trip or a shutout was scored (a non-zero line on the hand's sheet, WM §11),
    each side's points per score line, and the side that won the hand (most points; -1 on a tie).
    Per match: the result, totals, lead changes of the running totals after each hand, the leader
    after the first hand and whether a side behind then won (a comeback), and the winning margin.
    """
    names = game.side_names
    side_of = game.side_of
    index = {n: s for s, n in enumerate(names)}
    out = st.outcome
    sheets = out.hand_sheets if out is not None else st.hand_sheets
    completed = list(out.completed) if out is not None else []
    cut = _hands_of_history(st.history)
    hands = []
    running = [0] * game.sides
    leader_prev = -1
    lead_changes = 0
    leader_first = -1
    for h, sheet in enumerate(sheets):
        acts = cut[h] if h < len(cut) else []
        first = acts[0][0] if acts else -1
        turns = cf = 0
        caller = -1
        for p, a in acts:
            op = a.op
            if op == PLAY or op == DISCARD:
                turns += 1
            elif op == COUP_FOURRE:
                cf += 1
            elif op == EXTEND:
                caller = p
        done_name = completed[h] if h < len(completed) else None
        done = index[done_name] if done_name is not None else -1
        lines = {line: [sheet[n][line] for n in names] for line in game.score_line_names}
        points = lines["total"]
        running = [r + x for r, x in zip(running, points)]
        lead = _leader(running)
        if h == 0:
            leader_first = lead
        elif lead >= 0 and leader_prev >= 0 and lead != leader_prev:
            lead_changes += 1
        if lead >= 0:
            leader_prev = lead
        hands.append({
            "hand": h + 1,
            "first_player": first,
            "first_side": side_of[first] if first >= 0 else -1,
            "turns": turns,
            "completed_by": done,
            "coups_fourres": cf,
            "extension_called": caller >= 0,
            "extension_made": caller >= 0 and done == side_of[caller],
            "safe_trip": any(v > 0 for v in lines["safe_trip"]),
            "shutout": any(v > 0 for v in lines["shutout"]),
            "winner": _leader(points),
            "points": points,
            "lines": lines,
        })
    if out is None:
        result, winner = "unfinished", -1
    else:
        result, winner = out.result, out.winner_index
    totals = list(st.match_totals)
    ordered = sorted(totals, reverse=True)
    margin = ordered[0] - ordered[1] if winner >= 0 and len(ordered) > 1 else None
    comeback = None
    if winner >= 0 and leader_first >= 0 and len(hands) > 1:
        comeback = winner != leader_first
    return {
        "seed": seed,
        "bots": list(bots) if bots is not None else None,
        "result": result,
        "winner": winner,
        "totals": totals,
        "hands_played": len(hands),
        "turns": sum(x["turns"] for x in hands),
        "lead_changes": lead_changes,
        "leader_after_first_hand": leader_first,
        "comeback": comeback,
        "margin": margin,
        "hands": hands,
    }
