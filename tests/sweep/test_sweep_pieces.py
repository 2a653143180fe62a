"""The shared pieces under ``mbrules sweep``: running sums over k arms, a patch composed in memory."""

from __future__ import annotations

import random

import pytest

from mbrules.matches.intervals import ArmsSums, PairSums


def test_arms_sums_difference_of_two_arms_equals_pair_sums_paired_difference():
    rng = random.Random(4)
    arms, pair = ArmsSums(3), PairSums()
    for _ in range(50):
        v = [rng.randint(0, 90), rng.randint(1, 6), rng.randint(0, 90), rng.randint(1, 6), rng.randint(0, 9), 1]
        arms.add(v)
        pair.add(v[0], v[1], v[2], v[3])
    d, se = arms.contrast([-1, 1, 0])
    d2, se2 = pair.paired_diff()
    assert d == pytest.approx(d2) and se == pytest.approx(se2)
    assert arms.arm_moments(1) == pair.arm_moments(1)


def test_arms_sums_slope_is_exact_when_the_seeds_noise_is_common_to_every_value():
    arms = ArmsSums(3)
    xs = [500, 700, 900]
    rng = random.Random(1)
    for _ in range(40):
        noise = rng.randint(-3, 3)
        arms.add([v for x in xs for v in (x // 10 + noise, 1)])  # the seed's noise is common to every value
    mean = sum(xs) / 3
    sxx = sum((x - mean) ** 2 for x in xs)
    slope, se = arms.contrast([(x - mean) / sxx for x in xs])
    assert slope == pytest.approx(0.1) and se == pytest.approx(0.0, abs=1e-9)


def test_a_patch_in_memory_resolves_to_the_same_ruleset_as_the_option_file(tmp_path):
    from mbrules.ruleset import load_ruleset
    from mbrules.ruleset.loader import load_patched

    opt = tmp_path / "safe.yaml"
    opt.write_text("kind: option\nid: safe\nname: safe\nscoring:\n  safe_trip: 250\n", encoding="utf-8")
    by_file = load_ruleset("winning-moves", [str(opt)])
    in_memory = load_patched("winning-moves", [], {"scoring": {"safe_trip": {"value": 250}}}, "--set x")
    assert in_memory.scoring.safe_trip.value == by_file.scoring.safe_trip.value == 250
    assert list(in_memory.applied_options) == []


def test_a_patch_in_memory_is_checked_as_a_file_and_located_at_where_it_was_given():
    from mbrules.ruleset import RulesetError
    from mbrules.ruleset.loader import load_patched

    with pytest.raises(RulesetError) as e:
        load_patched("winning-moves", [], {"cards": {"stop": {"count": "many"}}}, "--set cards.stop.count=many")
    assert any(d.file == "--set cards.stop.count=many" for d in e.value.diagnostics)
