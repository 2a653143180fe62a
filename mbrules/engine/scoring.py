"""Scoring: a hand's score sheet and the match's winner.

Decides: each side's score lines for the hand (``score_sheet``, WM §8; before the hand
ends, as if it ended now), which side completed the trip (``current_completer``), and
whether the match is won, drawn or goes on (``_match_winner``, WM §9; rulings: The
match).

Reads: the Game's scoring tables (``scoring_enabled``, the ``scoring_*`` point values,
``safe_trip_breakers``, ``shutout_per_opponent``, ``extension_bonus_to_finisher``,
``safety_cards_in_deck``) and match rules (``match_mode``, ``target_points``); the
position's miles, played cards, safeties, coups, completion, extension caller, the
sheets and totals of the hands over.

May change: nothing (the turn room's ``_end_hand`` records what it returns).
"""

from __future__ import annotations

from ..vocab import SCORE_LINES, Termination


class Scoring:
    """The scoring room of :class:`~mbrules.engine.state.State` (a mixin: no slots of its own)."""

    __slots__ = ()

    def current_completer(self) -> int:
        if self._completer >= 0:
            return self._completer
        for s, m in enumerate(self._miles):
            if m >= self._target:  # past it only with option overshoot
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
            line["milestones"] = self._miles[s] * g.scoring_milestones_per_mile
            n_safe = len(self._safeties[s]) + len(self._coups[s])
            line["safeties"] = n_safe * g.scoring_safety
            if g.safety_cards_in_deck and n_safe == g.safety_cards_in_deck:
                line["all_safeties"] = g.scoring_all_safeties
            line["coup_fourres"] = len(self._coups[s]) * g.scoring_coup_fourre
        if done >= 0:
            line = sheet[done]
            line["trip_completed"] = g.scoring_trip_completed
            if self._completion_delayed and self._completer >= 0:
                line["delayed_action"] = g.scoring_delayed_action
            if not any(self._played[done][c] for c in g.safe_trip_breakers):
                line["safe_trip"] = g.scoring_safe_trip
            # 'before opponents have played any Distance Cards' (WM §8): a safety's miles (option
            # safety-distance) are no distance card (docs/conformance.md, rulings of the options)
            blank = [s for s in range(S) if s != done and not any(self._played[s])]
            if g.shutout_per_opponent:
                line["shutout"] = g.scoring_shutout * len(blank)
            elif len(blank) == S - 1:
                line["shutout"] = g.scoring_shutout
        if self._extension_called_by >= 0:
            caller = g.side_of[self._extension_called_by]
            if g.extension_bonus_to_finisher:
                if done >= 0:
                    sheet[done]["extension"] = g.scoring_extension
            elif done == caller:
                sheet[caller]["extension"] = g.scoring_extension
            else:
                for s in range(S):
                    if s != caller:
                        sheet[s]["extension"] = g.scoring_extension  # 'given to his opponent or opponents' (WM §10C)
        for line in sheet:
            line["total"] = sum(v for k, v in line.items() if k != "total")
        return sheet

    def _match_winner(self):
        """Side index, Termination.DRAW, or None while the match goes on (WM §9; rulings: The match)."""
        g = self.game
        mode = g.match_mode
        if mode == "trip":
            done = self.current_completer()
            if done >= 0:
                return done
            return _unique_max(self._miles)
        totals = self._match_totals
        if mode == "single_hand":
            # One hand: the most points in it wins (KID How to win), whatever came before.
            return _unique_max([line["total"] for line in self._hand_sheets[-1]])
        if max(totals) >= g.target_points:
            return _unique_max(totals)
        return None


def _unique_max(values: list[int]):
    best = max(values)
    leaders = [i for i, v in enumerate(values) if v == best]
    return leaders[0] if len(leaders) == 1 else Termination.DRAW
