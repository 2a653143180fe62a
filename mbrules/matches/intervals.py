"""Intervals and the multiple-testing correction used by ``compare`` and ``simulate``.

- A share of matches (a match either has the property or not: the first side won, a draw, a
  comeback, the strong bot won) gets the Wilson score interval (Wilson 1927), which stays inside
  [0, 1] and behaves for shares near 0 or 1 where the normal ("Wald") interval does not.
- Any other figure is a ratio of sums over matches, R = sum(x) / sum(y): hands per match (y = 1),
  turns per hand (x = turns, y = hands of the match), the share of hands completed, points per hand...
  Hands of one match are not independent, so the match is the unit: the interval is the normal one
  with the delta-method (linearised, "cluster-robust") standard error, u_i = (x_i - R*y_i) / mean(y),
  se = sd(u) / sqrt(n) over the n matches. It needs only the sums of x, y, x², y², xy, which add up
  across workers, so the figure does not depend on how the work was split.
- The difference B - A of two arms played on the same seeds is paired: d_i = u_Bi - u_Ai for the
  match pair i, se = sd(d) / sqrt(n). Matches dealt the same cards in both arms make d small, so a
  paired interval is narrower than two independent ones whenever the variant leaves decks alike.
- Many metrics are tested at once: a difference is *flagged* when Holm's step-down procedure
  (Holm 1979) rejects "no difference" at a family-wise error rate of 5% over every metric of the
  report; the 95% intervals printed are each metric's own (unadjusted).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from statistics import NormalDist
from typing import TypeVar

Z95 = NormalDist().inv_cdf(0.975)  # 1.959963984540054
FAMILY_ALPHA = 0.05


def wilson(k: int | float, n: int | float, z: float = Z95) -> tuple[float, float] | None:
    """Wilson score interval of the share ``k / n``; None when ``n`` is 0."""
    if n <= 0:
        return None
    p = k / n
    z2 = z * z
    den = 1 + z2 / n
    mid = (p + z2 / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / den
    lo = 0.0 if k <= 0 else max(0.0, mid - half)  # exact ends: no rounding crumbs at 0 of n or n of n
    hi = 1.0 if k >= n else min(1.0, mid + half)
    return lo, hi


_Num = TypeVar("_Num", int, float)  # integer sums stay integers (exact, whatever the grouping)


def add_moment(m: list[_Num], x: _Num, y: _Num) -> None:
    """Add one match's numerator ``x`` and denominator ``y`` to the running sums ``m = [x, y, x², y², xy]``."""
    m[0] += x
    m[1] += y
    m[2] += x * x
    m[3] += y * y
    m[4] += x * y


def ratio_moments(xs: Sequence[float], ys: Sequence[float]) -> list[float]:
    """The sums ``[x, y, x², y², xy]`` of paired per-match numerators and denominators."""
    m = [0.0, 0.0, 0.0, 0.0, 0.0]
    for x, y in zip(xs, ys):
        add_moment(m, x, y)
    return m


def ratio_se(m: Sequence[float], n: int) -> tuple[float | None, float | None]:
    """(R, se) of the ratio of sums from its moments over ``n`` matches (delta method); (None, None)
    when nothing was counted, se None with fewer than two matches."""
    sx, sy, sxx, syy, sxy = m
    if n <= 0 or sy == 0:
        return None, None
    r = sx / sy
    if n < 2:
        return r, None
    ybar = sy / n
    ss = max(0.0, sxx - 2 * r * sxy + r * r * syy)  # sum of (x - R y)^2; its mean is 0 by construction
    return r, math.sqrt(ss / (n - 1) / (ybar * ybar) / n)


def normal_ci(est: float | None, se: float | None, z: float = Z95) -> tuple[float, float] | None:
    if est is None or se is None:
        return None
    return est - z * se, est + z * se


def linearised(xs: Sequence[float], ys: Sequence[float]) -> tuple[float | None, list[float]]:
    """R and the per-match linearised values u_i = (x_i - R y_i) / mean(y) (empty if R is undefined)."""
    n = len(xs)
    sy = sum(ys)
    if n == 0 or sy == 0:
        return None, []
    r = sum(xs) / sy
    ybar = sy / n
    return r, [(x - r * y) / ybar for x, y in zip(xs, ys)]


def paired_diff(
    xa: Sequence[float], ya: Sequence[float], xb: Sequence[float], yb: Sequence[float]
) -> tuple[float | None, float | None]:
    """(R_B - R_A, its paired se) for per-match values of two arms played on the same seeds."""
    ra, ua = linearised(xa, ya)
    rb, ub = linearised(xb, yb)
    if ra is None or rb is None:
        return None, None
    n = len(ua)
    if n < 2:
        return rb - ra, None
    d = [b - a for a, b in zip(ua, ub)]
    mean = sum(d) / n
    var = sum((v - mean) ** 2 for v in d) / (n - 1)
    return rb - ra, math.sqrt(var / n)


def p_value(diff: float | None, se: float | None) -> float:
    """Two-sided normal p-value of ``diff`` given its standard error (1 when undefined or exactly 0)."""
    if diff is None or se is None:
        return 1.0
    if se <= 0:
        return 1.0 if abs(diff) < 1e-12 else 0.0
    return 2 * (1 - NormalDist().cdf(abs(diff) / se))


def holm(pvalues: list[float], alpha: float = FAMILY_ALPHA) -> tuple[list[bool], list[float]]:
    """Holm's step-down procedure: which hypotheses are rejected at family-wise level ``alpha``,
    and the Holm-adjusted p-values (in the input's order)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: (pvalues[i], i))
    rejected = [False] * m
    adjusted = [1.0] * m
    running = 0.0
    still = True
    for rank, i in enumerate(order):
        adj = min(1.0, (m - rank) * pvalues[i])
        running = max(running, adj)
        adjusted[i] = running
        if still and pvalues[i] <= alpha / (m - rank):
            rejected[i] = True
        else:
            still = False
    return rejected, adjusted


class _ArmSums:
    """What running sums of several arms share: ``n`` seeds, ``s = Σv`` and the upper triangle of
    ``ss = Σ v vᵀ`` over ``v = (x_0, y_0, x_1, y_1, ...)``, and each arm's moments read from them."""

    __slots__ = ("n", "s", "ss")

    n: int
    s: list[int]
    ss: list[list[int]]

    def _m(self, i: int, j: int) -> int:
        return self.ss[i][j] if i <= j else self.ss[j][i]

    def arm_moments(self, arm: int) -> list[int]:
        """``[Σx, Σy, Σx², Σy², Σxy]`` of one arm (of a pair: 0 is A, 1 is B), as :func:`ratio_moments` gives them."""
        i, j = 2 * arm, 2 * arm + 1
        return [self.s[i], self.s[j], self._m(i, i), self._m(j, j), self._m(i, j)]


class PairSums(_ArmSums):
    """Running sums of one metric over match pairs: everything its two arms' intervals and their paired
    difference need, so nothing grows with the number of matches.

    A pair adds ``v = (x_A, y_A, x_B, y_B)`` (each arm's numerator and denominator); the sums kept are
    ``n``, ``Σv`` and ``Σ v vᵀ`` as exact integers. Each arm's ratio R = Σx / Σy and its delta-method
    standard error come from its own sums (:func:`ratio_se`); the paired difference's standard error is
    that of ``d_i = u_Bi - u_Ai`` with ``u = (x - R y) / ȳ`` (:func:`paired_diff`): d is linear in v with
    coefficients ``c = (-1/ȳ_A, R_A/ȳ_A, 1/ȳ_B, -R_B/ȳ_B)`` and its mean is 0, so
    ``Σd² = cᵀ (Σ v vᵀ) c``, computed in exact fractions: the same figures as from the kept lists.
    """

    __slots__ = ()

    def __init__(self) -> None:
        self.n = 0
        self.s = [0, 0, 0, 0]
        self.ss = [[0] * 4 for _ in range(4)]

    def add(self, xa: int, ya: int, xb: int, yb: int) -> None:
        v = (xa, ya, xb, yb)
        self.n += 1
        s, ss = self.s, self.ss
        for i in range(4):
            vi = v[i]
            s[i] += vi
            row = ss[i]
            for j in range(i, 4):
                row[j] += vi * v[j]

    def paired_diff(self) -> tuple[float | None, float | None]:
        """(R_B - R_A, its paired se), as :func:`paired_diff` of the per-pair lists."""
        n = self.n
        if n == 0 or self.s[1] == 0 or self.s[3] == 0:
            return None, None
        ra = Fraction(self.s[0]) / self.s[1]
        rb = Fraction(self.s[2]) / self.s[3]
        diff = float(rb - ra)
        if n < 2:
            return diff, None
        ya, yb = Fraction(self.s[1], n), Fraction(self.s[3], n)
        c = (-1 / ya, ra / ya, 1 / yb, -rb / yb)
        sd2 = sum(c[i] * c[j] * self._m(i, j) for i in range(4) for j in range(4))
        var = max(0.0, float(sd2) / (n - 1))
        return diff, math.sqrt(var / n)


class ArmsSums(_ArmSums):
    """Running sums of one metric over matches played on the same seed by ``k`` arms (the values of a
    sweep): ``v = (x_0, y_0, ..., x_{k-1}, y_{k-1})`` per seed; ``n``, ``Σv`` and ``Σ v vᵀ`` kept as exact
    integers, so nothing grows with the number of seeds and the figures do not depend on how the work
    was split. :class:`PairSums` is the case ``k = 2``.

    Any linear combination ``Σ c_j R_j`` of the arms' ratios (a difference of two arms, a regression
    slope over the arms' values) gets its paired standard error the same way: per seed,
    ``d_i = Σ c_j u_ij`` with ``u = (x - R y) / ȳ`` (the delta method, the seed as the unit).
    """

    __slots__ = ("k",)

    def __init__(self, k: int) -> None:
        self.k = k
        self.n = 0
        self.s = [0] * (2 * k)
        self.ss = [[0] * (2 * k) for _ in range(2 * k)]

    def add(self, v: Sequence[int]) -> None:
        """One seed: ``v`` the flat ``(x_0, y_0, x_1, y_1, ...)``."""
        self.n += 1
        s, ss, m = self.s, self.ss, 2 * self.k
        for i in range(m):
            vi = v[i]
            if not vi:
                continue
            s[i] += vi
            row = ss[i]
            for j in range(i, m):
                row[j] += vi * v[j]

    def contrast(self, weights: Sequence[float | Fraction]) -> tuple[float | None, float | None]:
        """(Σ w_j R_j, its paired se) over the arms with a non-zero weight; (None, None) when one of
        them counted nothing, se None with fewer than two seeds."""
        n = self.n
        used = [(j, Fraction(w)) for j, w in enumerate(weights) if w]
        if n == 0 or any(self.s[2 * j + 1] == 0 for j, _ in used):
            return None, None
        coef: dict[int, Fraction] = {}
        est = Fraction(0)
        for j, w in used:
            r = Fraction(self.s[2 * j]) / self.s[2 * j + 1]
            ybar = Fraction(self.s[2 * j + 1], n)
            est += w * r
            coef[2 * j] = coef.get(2 * j, 0) + w / ybar
            coef[2 * j + 1] = coef.get(2 * j + 1, 0) - w * r / ybar
        if n < 2:
            return float(est), None
        items = list(coef.items())
        sd2 = sum(ci * cj * self._m(i, j) for i, ci in items for j, cj in items)
        return float(est), math.sqrt(max(0.0, float(sd2) / (n - 1)) / n)
