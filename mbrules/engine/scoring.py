"""Scoring: a hand's score sheet and the match's winner.

Decides: each side's score lines for the hand (``score_sheet``, WM §8; before the hand
ends, as if it ended now), which side completed the trip (``current_completer``), and
whether the match is won, drawn or goes on (``_match_winner``, WM §9; rulings: The
match).

Reads: the Game's compiled score lines (``scoring_lines``, ``score_line_names``: every line of the
sheet as data, paid by :mod:`.scorelines`) and match rules (``match_mode``,
``target_points``, ``match_hands``, ``match_tie_break``); the
position's miles, played cards, safeties, coups, completion, extension caller, the
sheets and totals of the hands over.

May change: nothing (the turn room's ``_end_hand`` records what it returns).
"""

from __future__ import annotations

from typing import Sequence

from ..vocab import Termination
from .scorelines import pay_lines
from .fields import StateFields, trait


@trait
class Scoring(StateFields):
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
        """This hand's score lines per side (WM §8); before the hand ends, as if it ended now.

        Every line, the contract's ten and the ruleset's own, is a compiled score line (``scoring_lines``)
        paid by :func:`.scorelines.pay_lines`: one path, no line known by name here."""
        names = self.game.score_line_names
        return [dict(zip(names, row)) for row in pay_lines(self, self.current_completer())]

    def _match_winner(self) -> int | Termination | None:
        """Side index, Termination.DRAW, or None while the match goes on (WM §9; rulings: The match).

        ``match.mode`` says what decides and when; ``match.tie_break`` what equal highest results mean."""
        g = self.game
        mode = g.match_mode
        if mode == "trip":
            done = self.current_completer()
            if done >= 0:
                return done
            return self._tie_break(self._miles)
        totals = self._match_totals
        last = [line["total"] for line in self._hand_sheets[-1]]
        if mode == "single_hand":
            # One hand: the most points in it wins (KID How to win), whatever came before.
            return self._tie_break(last)
        if mode == "finisher":
            # One hand: the side that completed the trip wins, else the most points (sisyphus-bbs)
            done = self.current_completer()
            return done if done >= 0 else self._tie_break(last)
        if mode == "fixed_hands":
            # match.hands hands, then the highest total (French rules, Fin de manche); a tie played off
            # with tie_break another_hand ends at the first hand that breaks it
            return self._tie_break(totals) if len(self._hand_sheets) >= g.match_hands else None
        if max(totals) >= g.target_points:
            return self._tie_break(totals)
        return None

    def _tie_break(self, values: Sequence[int]) -> "int | Termination | None":
        """The side with the highest value; equal highest by ``match.tie_break``: a draw, the tied side
        nearest the first seat, or None (another hand is played)."""
        best = max(values)
        leaders = [i for i, v in enumerate(values) if v == best]
        if len(leaders) == 1:
            return leaders[0]
        tb = self.game.match_tie_break
        if tb == "first_seat":
            return leaders[0]  # side A is p1's, the first seat; then B, C (sisyphus-bbs: 'if s1 >= s2')
        if tb == "another_hand":
            return None
        return Termination.DRAW
