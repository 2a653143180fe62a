"""The bot benchmark scripts run and print their figures (tiny sizes: their figures are in docs/bots.md)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # runs the benchmark scripts as real processes: make test-fast leaves it out

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(*args: str) -> str:
    out = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_positions_times_every_bot_on_the_same_decisions():
    out = run(
        "benchmarks/bench_bots.py",
        "positions",
        "heuristic",
        "random",
        "--matches",
        "1",
        "--repeat",
        "1",
        "--rounds",
        "1",
    )
    n = int(re.search(r"(\d+) decisions recorded", out).group(1))
    assert n > 20
    speeds = re.findall(r"(\w+):\s+([\d.]+) us a decision, ([\d.]+)x", out)
    assert [s[0] for s in speeds] == ["heuristic", "random"]
    assert float(speeds[0][2]) == 1.0 and float(speeds[1][2]) > 0  # each against the first; no speed asserted


def test_search_gain_is_measured_against_the_real_deal():
    out = run(
        "benchmarks/research/bench_search.py",
        "gain",
        "--matches",
        "1",
        "--rollouts",
        "2",
        "--workers",
        "1",
        "heuristic",
        "expert:budget=4",
    )
    assert "knowing the deal, the best action beats the heuristic's by" in out
    # the heuristic against itself: the same choice everywhere, a gain of exactly zero
    assert re.search(r"heuristic:\s+\+0\.00 points a decision .* a different value in 0 of \d+", out)
    assert re.search(r"expert:budget=4:\s+[-+]\d+\.\d\d points a decision", out)


def test_the_clairvoyant_bound_beats_the_random_bot():
    out = run(
        "benchmarks/research/bench_search.py",
        "clairvoyant",
        "--games",
        "1",
        "--rollouts",
        "1",
        "--width",
        "2",
        "--workers",
        "1",
        "--opponent",
        "random",
    )
    assert re.search(r"against random: 2 of 2 matches", out), out


def test_an_action_that_ends_the_hand_is_valued_by_that_hand():
    """Declining the extension ends the hand: its value is that hand's sheet, not the next hand's
    (a match state deals the next hand at once)."""
    sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
    sys.path.insert(0, os.path.join(ROOT, "benchmarks", "research"))
    import mbrules
    from bench_search import true_values
    from mbrules.bots import make_bot
    from mbrules.engine import State

    game = mbrules.load_game("winning-moves", players=2)
    bots = [make_bot("heuristic", game, p, 1) for p in range(2)]
    st = State.new_match(game, 11)
    for _ in range(5000):  # the first hand's extension question comes long before
        if st.decision.kind == "extension":
            break
        acts = st.legal_actions()
        st.apply(acts[0] if len(acts) == 1 else bots[st.current_player].choose(st.observation(st.current_player), acts))
    assert st.decision.kind == "extension"
    me = game.side_of[st.current_player]
    (value,) = true_values(st, [game.stop_action], me, 1, bots)
    after = st.clone()
    hands = len(after.hand_sheets)
    after.apply(game.stop_action)
    totals = [line["total"] for line in after.hand_sheets[hands]]
    assert value == totals[me] - max(t for s, t in enumerate(totals) if s != me)


def test_where_names_each_kind_of_action_from_the_compiled_game():
    sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
    sys.path.insert(0, os.path.join(ROOT, "benchmarks", "research"))
    import mbrules
    from bench_search import kind_of
    from mbrules.vocab import PLAY

    game = mbrules.load_game("winning-moves", players=2)
    plays = {kind_of(game, a) for a in game.actions.values() if a.op == PLAY}
    assert plays == {
        "play distance 25",
        "play distance 50",
        "play distance 75",
        "play distance 100",
        "play distance 200",
        "play go card",
        "play remedy (battle)",
        "play remedy (speed)",
        "play hazard (battle)",
        "play hazard (speed)",
        "play safety",
    }


def test_where_prints_the_heuristics_choices_against_each_other_kind():
    out = run(
        "benchmarks/research/bench_search.py",
        "where",
        "--matches",
        "1",
        "--rollouts",
        "2",
        "--workers",
        "1",
        "--min-n",
        "2",
        "--top",
        "100",
    )
    n = int(re.search(r"(\d+) decisions of the heuristic's seat", out).group(1))
    cells = int(re.search(r"(\d+) cells of 2 decisions or more", out).group(1))
    rows = re.findall(
        r"^  ((?:play|discard) [\w ()]+?)\s{2,}((?:play|discard) [\w ()]+?)\s+(\d+)\s+([-+][\d.]+)", out, re.M
    )
    assert n > 10 and cells == len(rows) > 0
    assert all(mine != other and 0 < int(k) <= n for mine, other, k, _ in rows)


def test_budget_replays_the_experts_own_final_choice():
    """``budget`` judges rules offline by replaying the expert's choice from recorded play-out values;
    the replay must pick what the bot itself picks from the same values, or the figures are of
    another bot."""
    import random

    sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
    sys.path.insert(0, os.path.join(ROOT, "benchmarks", "research"))
    import mbrules
    from bench_search import search_pick
    from mbrules.bots.expert import ExpertBot

    game = mbrules.load_game("winning-moves", players=2)
    rng = random.Random(5)
    picked = set()
    for trial in range(300):
        k, worlds, z = rng.randint(2, 5), rng.randint(2, 12), rng.choice((0, 10, 15, 20))
        edge = [0.0] + [rng.uniform(-80, 120) for _ in range(k - 1)]
        diffs = [[]] + [
            [edge[i] + rng.gauss(0, 150) if rng.random() < 0.9 else 0.0 for _ in range(worlds + 3)] for i in range(1, k)
        ]
        if trial % 10 == 0:  # candidates whose play-outs never differ: ties at an infinite t
            diffs = [[]] + [[rng.choice((0.0, 25.0, 50.0))] * (worlds + 3) for _ in range(1, k)]
        width = rng.randint(2, k)  # the replay may look at fewer candidates than were searched
        bot = ExpertBot(game, 0, random.Random(0), z=z)
        expected = bot._decide([d[:worlds] for d in diffs[:width]], range(1, width))
        assert search_pick(diffs, width, worlds, z / 10) == expected
        picked.add(expected)
    assert len(picked) > 2  # the trials reach the default and several others


def test_budget_judges_each_rule_on_the_half_it_was_not_picked_on():
    out = run(
        "benchmarks/research/bench_search.py",
        "budget",
        "--matches",
        "2",
        "--rollouts",
        "1",
        "--workers",
        "1",
        "--width",
        "3",
        "--worlds",
        "8",
    )
    rows = re.findall(r"^\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([-+][\d.]+) \(\s*[\d.]+\)\s+([-+][\d.]+) \(", out, re.M)
    assert {(int(w), int(n)) for w, n, *_ in rows} == {(2, 8), (3, 8)} and len(rows) == 8
    for half in ("even", "odd"):
        assert re.search(
            rf"the best rule on the {half} matches \(\d candidates, 8 worlds, z [\d.]+\): "
            r"[-+][\d.]+ there, [-+][\d.]+ \(SE [\d.]+\) on the others",
            out,
        ), out
    assert re.search(r"correlation of the search's estimate .*: -?[\d.]+ \(\d+ candidates\)", out)


def test_playout_bench_times_the_greedy_play_outs():
    out = run("benchmarks/bench_playout.py", "--worlds", "3", "--per-world", "2", "--reps", "2")
    assert re.search(r"^6 play-outs a repetition, 2 repetitions: CPU s [\d.]+ [\d.]+$", out, re.M), out
    assert re.search(r"^minimum [\d.]+ s: \d+ us a play-out", out, re.M), out
