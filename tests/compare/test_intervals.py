"""The interval formulas and the multiple-testing correction, on figures checked by hand."""

from __future__ import annotations

import math
import random

import pytest

from mbrules.matches import intervals as stats


def test_wilson_interval_matches_the_textbook_values():
    # Newcombe (1998), Statistics in Medicine 17, table II, Wilson score method: 0 of 10 -> [0, 0.2775],
    # 81 of 263 -> [0.2553, 0.3662], 15 of 148 -> [0.0624, 0.1605]
    lo, hi = stats.wilson(0, 10)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = stats.wilson(81, 263)
    assert (lo, hi) == (pytest.approx(0.2553, abs=1e-4), pytest.approx(0.3662, abs=1e-4))
    lo, hi = stats.wilson(15, 148)
    assert (lo, hi) == (pytest.approx(0.0624, abs=1e-4), pytest.approx(0.1605, abs=1e-4))
    assert stats.wilson(5, 0) is None


def test_wilson_interval_stays_inside_zero_and_one():
    for n in (1, 2, 7, 50):
        for k in range(n + 1):
            lo, hi = stats.wilson(k, n)
            assert 0 <= lo <= k / n <= hi <= 1


def test_ratio_of_means_with_denominator_one_is_the_mean_with_its_usual_standard_error():
    xs = [3, 4, 4, 5, 2, 6, 3]
    r, se = stats.ratio_se(stats.ratio_moments(xs, [1] * len(xs)), len(xs))
    mean = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))
    assert r == pytest.approx(mean) and se == pytest.approx(sd / math.sqrt(len(xs)))


def test_ratio_standard_error_from_moments_equals_the_linearised_one():
    rng = random.Random(3)
    ys = [rng.randint(1, 6) for _ in range(200)]
    xs = [sum(rng.randint(20, 110) for _ in range(y)) for y in ys]
    r, se = stats.ratio_se(stats.ratio_moments(xs, ys), len(xs))
    r2, u = stats.linearised(xs, ys)
    sd = math.sqrt(sum(v * v for v in u) / (len(u) - 1))
    assert r == pytest.approx(r2) and se == pytest.approx(sd / math.sqrt(len(u)))


def test_paired_difference_of_identical_arms_is_exactly_zero_and_not_significant():
    xs, ys = [5, 7, 9, 4], [1, 2, 2, 1]
    d, se = stats.paired_diff(xs, ys, xs, ys)
    assert d == 0 and se == 0 and stats.p_value(d, se) == 1.0


def test_pairing_narrows_the_interval_when_the_arms_move_together():
    rng = random.Random(5)
    base = [rng.gauss(60, 15) for _ in range(300)]
    a = base
    b = [x + 2 + rng.gauss(0, 1) for x in base]  # B = A + 2, almost exactly, pair by pair
    ones = [1] * len(a)
    d, se_paired = stats.paired_diff(a, ones, b, ones)
    _, se_a = stats.ratio_se(stats.ratio_moments(a, ones), len(a))
    _, se_b = stats.ratio_se(stats.ratio_moments(b, ones), len(b))
    assert d == pytest.approx(2, abs=0.3)
    assert se_paired < 0.2 * math.hypot(se_a, se_b)


def test_holm_rejects_step_down_and_adjusts_monotonically():
    # Holm (1979): p sorted 0.01, 0.02, 0.03, 0.5 with m = 4: 0.01 <= 0.05/4 yes, 0.02 <= 0.05/3 no: stop
    rejected, adjusted = stats.holm([0.03, 0.01, 0.5, 0.02])
    assert rejected == [False, True, False, False]
    assert adjusted == pytest.approx([0.06, 0.04, 0.5, 0.06])
    assert stats.holm([0.001, 0.002])[0] == [True, True]


def test_holm_keeps_the_family_wise_error_under_five_percent_on_null_data():
    """Twenty-five independent null tests, 400 families: Holm flags something in at most ~5% of them."""
    rng = random.Random(11)
    families = 400
    hits = sum(any(stats.holm([rng.random() for _ in range(25)])[0]) for _ in range(families))
    assert hits / families <= 0.08
