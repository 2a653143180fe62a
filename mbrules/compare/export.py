"""Per-game export: one record per match (JSONL, nested hands) and one row per match or hand (CSV),
so a user continues in a notebook (``pandas.read_json(path, lines=True)``, ``pandas.read_csv``)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any, Iterable, Sequence

from mbrules.vocab import SCORE_LINES

from ..matches.records import MatchRecord

Names = Sequence[str]  # the sides' names, by side
Items = Iterable[tuple[str | None, int, str, MatchRecord]]  # (arm or None, index, kind, record)
Cell = str | int | float


def _side_name(names: Names, s: int) -> str:
    return names[s] if s >= 0 else ""


def match_row(rec: MatchRecord, names: Names, arm: str | None = None, index: int | None = None) -> dict[str, Any]:
    """A match as one JSON-ready object: sides by name, every hand nested."""
    row: dict[str, Any] = {} if arm is None else {"arm": arm}
    if index is not None:
        row["match"] = index
    row.update(
        {
            "seed": rec.seed,
            "bots": list(rec.bots) if rec.bots is not None else None,
            "result": rec.result,
            "winner": _side_name(names, rec.winner) or None,
            "totals": dict(zip(names, rec.totals)),
            "hands_played": rec.hands_played,
            "turns": rec.turns,
            "lead_changes": rec.lead_changes,
            "leader_after_first_hand": _side_name(names, rec.leader_after_first_hand) or None,
            "comeback": rec.comeback,
            "margin": rec.margin,
        }
    )
    row["hands"] = [
        {
            "hand": h.hand,
            "first_player": h.first_player + 1 if h.first_player >= 0 else None,
            "first_side": _side_name(names, h.first_side) or None,
            "turns": h.turns,
            "completed_by": _side_name(names, h.completed_by) or None,
            "coups_fourres": h.coups_fourres,
            "extension_called": h.extension_called,
            "extension_made": h.extension_made,
            "safe_trip": h.safe_trip,
            "shutout": h.shutout,
            "winner": _side_name(names, h.winner) or None,
            "score_sheet": {n: {line: h.line(line)[s] for line in SCORE_LINES} for s, n in enumerate(names)},
        }
        for h in rec.hands
    ]
    return row


def jsonl(rows: Iterable[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in rows)


# the last column, strong_side, is kept (blank) so that the files read as they always did
MATCH_COLUMNS = (
    "seed",
    "result",
    "winner",
    "hands_played",
    "turns",
    "lead_changes",
    "leader_after_first_hand",
    "comeback",
    "margin",
)


def matches_csv(items: Items, names: Names) -> str:
    """One row per match: ``items`` yields ``(arm or None, index, kind, record)``."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(match_header(names))
    for arm, i, kind, rec in items:
        w.writerow(match_cells(arm, i, kind, rec, names, len(rec.totals)))
    return buf.getvalue()


HAND_COLUMNS = (
    "first_player",
    "first_side",
    "turns",
    "completed_by",
    "coups_fourres",
    "extension_called",
    "extension_made",
    "safe_trip",
    "shutout",
    "winner",
)


def hands_csv(items: Items, names: Names) -> str:
    """One row per hand, with its match's seed and result and every score line of every side."""
    return hands_csv_header(names) + hands_csv_rows(items, names)


def hands_csv_header(names: Names) -> str:
    """The header line of :func:`hands_csv` (a file streamed chunk by chunk writes it once)."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(hand_header(names))
    return buf.getvalue()


def hands_csv_rows(items: Items, names: Names) -> str:
    """The rows of :func:`hands_csv` without its header."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for arm, i, kind, rec in items:
        w.writerows(hand_cells(arm, i, kind, rec, names, names))
    return buf.getvalue()


def _cell(v: Any) -> Cell:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    cell: Cell = v
    return cell


def match_header(names: Names) -> list[str]:
    return ["arm", "match", "kind", *MATCH_COLUMNS, *(f"total_{n}" for n in names), "strong_side"]


def match_cells(arm: str | None, i: int, kind: str, rec: MatchRecord, names: Names, width: int) -> list[Cell]:
    """One match's CSV row; ``width`` sides of totals (blank past this arm's own sides)."""
    row = match_row(rec, names)
    totals = list(rec.totals) + [""] * (width - len(rec.totals))
    return [arm or "", i, kind, *(_cell(row[c]) for c in MATCH_COLUMNS), *totals, ""]


def hand_header(names: Names) -> list[str]:
    """The hands CSV's column names (:func:`hands_csv_header` writes them as its header line)."""
    return [
        "arm",
        "match",
        "kind",
        "seed",
        "match_result",
        "hand",
        *HAND_COLUMNS,
        *(f"{line}_{n}" for n in names for line in SCORE_LINES),
    ]


def hand_cells(
    arm: str | None, i: int, kind: str, rec: MatchRecord, names: Names, all_names: Names
) -> list[list[Cell]]:
    """One CSV row per hand of a match; score columns for every side of ``all_names`` (blank where
    this arm has no such side)."""
    row = match_row(rec, names)
    rows = []
    for h in row["hands"]:
        sheet = h["score_sheet"]
        rows.append(
            [
                arm or "",
                i,
                kind,
                rec.seed,
                rec.result,
                h["hand"],
                *(_cell(h[c]) for c in HAND_COLUMNS),
                *(sheet[n][line] if n in sheet else "" for n in all_names for line in SCORE_LINES),
            ]
        )
    return rows
