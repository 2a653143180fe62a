"""A slice of the soak (benchmarks/soak.py) inside make test, and proof that the soak can fail:
an engine bug injected on purpose is caught, shrunk and written as a scenario that replays it."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from mbrules.engine import state as state_module
from mbrules.engine.state import State

pytestmark = (
    pytest.mark.slow
)  # a slice of the soak: hundreds of hands, every action checked: make test-fast leaves it out

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def soak():
    spec = importlib.util.spec_from_file_location("mb_soak", ROOT / "benchmarks" / "soak.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["mb_soak"] = mod
    spec.loader.exec_module(mod)
    return mod


SLICES = 7  # seven tests (odd: the bots alternate by unit) that make test's two workers share (five until round 14:
# the first, 17 CPU-s loaded, was the longest but one with the 58 more hands checked)
SEED = 11


_UNITS: dict = {}  # the plan and its covering hands, once a process (the five slices and the cover's test read it)


def _slice_units(soak) -> tuple[list, list]:
    """Every configuration (every bundled ruleset with no option and with each bundled option, at each player
    count, and the capped pin) once, the bots alternating (``soak.py --hands N --seed 11 --no-pairs``'s units,
    N the number of configurations: it grows with the options), the invariants checked after every action on
    the hands :func:`check_pairwise` picks and at the end of every hand."""
    if not _UNITS:
        configs, _ = soak.soak_configurations(pairs=False)  # the pairs: a slice of their own (test_hostile_runtime)
        met = _met_by_the_pair_slice(soak) | _met_by_api_test()
        _UNITS["plan"] = configs, soak.check_pairwise(soak.plan(len(configs), SEED, 1.0, configs), met)
    configs, units = _UNITS["plan"]
    return list(configs), [dict(u) for u in units]


def _api_tested() -> set[tuple[str, int]]:
    """(option, player count): the winning-moves tables the option files play whole matches of through
    ``api_test`` (every action's transition and the invariants after it, as the soak checks them, and more).
    Read from those files' own tables, so a table they drop is checked here again."""
    from test_house_rule_library import LIBRARY
    from test_legality_options import CHANGES
    from test_new_rules import NEW_OPTIONS
    from test_reactions_and_score_lines import OPTIONS as REACTIONS
    from test_turn_rules import TURN_OPTIONS

    every = (2, 3, 4, 6)  # the three sweeps' counts (their parametrize)
    return (
        {(o, n) for o in [*TURN_OPTIONS, *REACTIONS, *CHANGES] for n in every}
        | {(o, n) for o, ns in LIBRARY.items() for n in ns}
        | {(o, n) for o, ns in NEW_OPTIONS.items() for n in ns}
    )


def _met_by_api_test() -> set:
    """The facet pairs those api_test tables meet, action by action: the option on winning-moves and the option
    at the count (not the bot: api_test chooses its own random actions, so every bot's pairs are met here)."""
    met: set = set()
    for o, n in _api_tested():
        met |= {(("r", "winning-moves"), ("o", (o,))), (("o", (o,)), ("n", n))}
    return met


def _met_by_the_pair_slice(soak) -> set:
    """The facet pairs test_hostile_runtime's pair slice checks action by action: those of a hand of the option
    second in a sampled pair (the later option's values win where both set a rule, so its own rules are in
    play) on that ruleset, at that hand's player count, with the random bot (what the pair slice seats). The
    slice here checks no hand for them alone (every configuration is still played here to its hand's end); the
    options the pair sample meets second on a ruleset only in a pair the loader refuses, and no option at all,
    are checked here. Issue 46 point 7: the slice checked a hand of each of the 533 (ruleset, option set)s,
    which the pair slice checks again (each option ~2 hands on each ruleset, second in its pair); with the
    api_test tables' pairs (:func:`_met_by_api_test`), the hands checked here 769 -> 323 (slice 2: 58,031 ->
    37,578 actions). Round 13: the option with its player count and with the random bot, and the ruleset with
    the count and the bot, met by those same checked hands too (before, only the (ruleset, option) pair): the
    hands checked here 323 -> 197, 197,775 -> 128,977 actions (most of those left out were long random hands of
    playaural at 5, 7 and 9 players, an (option, count) pair no other ruleset has, met where the pair slice
    plays the option second on playaural at that count). Round 14: the pair slice plays one round of partners,
    not two (soak.covering_pairs), so the hands checked here 197 -> 255 (the pair slice's 972 -> 485)."""
    met: set = set()
    for u in soak.pair_units():
        r, pair, n = u["config"]
        f = (("r", r), ("o", (pair[1],)), ("n", n), ("b", "random"))
        met |= {(f[i], f[j]) for i in range(4) for j in range(i + 1, 4)}
    return met


# the slices here and test_hostile_runtime's pair slices run on one worker: the plan here reads the pair sample
# (loading ~1,100 rulesets with their pairs, 5 CPU-s), which the pair slices load too (the loader's cache is the
# process's)
SOAK_GROUP = pytest.mark.xdist_group("soak-slices")


def _facet_pairs(u: dict) -> set:
    rid, opts, n = u["config"]
    f = (("r", rid), ("o", tuple(opts)), ("n", n), ("b", u["bot"]))
    return {(f[i], f[j]) for i in range(4) for j in range(i + 1, 4)}


@SOAK_GROUP
def test_the_soak_slices_together_play_every_configuration_once_and_check_every_action_of_a_covering_set(soak):
    """The slices' union is every configuration once, both bots; the hands checked after every action meet
    every (ruleset, option set) and every pair of ruleset, option set, player count and bot that a hand
    meets, so a rule fault of one option at one player count or with one bot is watched action by action;
    every other hand is played to its end and checked there (a crash, an illegal action, a hand that does
    not end, a broken invariant at the end)."""
    configs, units = _slice_units(soak)
    parts = [units[k::SLICES] for k in range(SLICES)]
    assert sorted(map(str, units)) == sorted(str(u) for part in parts for u in part)  # the slices split, none repeats
    played = [(u["config"][0], tuple(u["config"][1]), u["config"][2]) for u in units]
    assert sorted(played) == sorted(configs), "the slice leaves a configuration out or plays one twice"
    assert all(u["hands"] == 1 and u["share"] in (0.0, 1.0) for u in units)
    assert {u["bot"] for u in units} == set(soak._bot_names()), "the slice leaves a bot out"
    checked = [u for u in units if u["share"] == 1.0]
    elsewhere = _met_by_the_pair_slice(soak) | _met_by_api_test()
    here = {(u["config"][0], tuple(u["config"][1])) for u in checked}
    every = {(c[0], tuple(c[1])) for c in configs}
    there = {(a[1], b[1]) for a, b in elsewhere if (a[0], b[0]) == ("r", "o")}
    assert every <= here | there  # each (ruleset, option set) checked action by action here or there
    assert set().union(*map(_facet_pairs, checked)) | elsewhere >= set().union(*map(_facet_pairs, units))
    assert {(c[0], tuple(c[1])) for c in configs if not c[1]} <= here  # no option: checked here on every ruleset
    assert len(checked) < len(units) / 2  # the point: the full checks where a pair is new, not everywhere


@pytest.mark.parametrize("k", range(SLICES), ids=[f"slice-{k + 1}-of-{SLICES}" for k in range(SLICES)])
@pytest.mark.long
@SOAK_GROUP
def test_soak_slice_over_every_configuration_and_bot_finds_no_failure(soak, tmp_path, k):
    """One seventh of the slice (every seventh unit): a hand of each of its configurations, in this process (one
    worker: the two of make test share the seven slices), the invariants and the action's effect checked after
    every action on the covering hands, at the end on every hand."""
    _, units = _slice_units(soak)
    mine = units[k::SLICES]
    fig = soak.soak(0, workers=1, seed=SEED, share=1.0, out_dir=tmp_path / "fail", units=mine, progress=False)
    assert fig["failures"] == 0, fig["failure_summaries"]
    assert fig["hands"] == len(mine) == fig["configurations"]
    assert fig["actions"] > len(mine) * 50
    assert fig["actions"] > fig["checked_actions"] > sum(u["share"] == 1.0 for u in mine) * 50
    assert not (tmp_path / "fail").exists()


def test_the_soak_command_runs_on_two_workers_and_prints_its_figure_as_json(tmp_path):
    """``soak.py``'s command line (the figure as JSON, a pool of two workers, --no-pairs): a few hands; the
    slices above play every configuration through the same :func:`soak` in the test's process."""
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "soak.py"),
            "--hands",
            "6",
            "--workers",
            "2",
            "--seed",
            str(SEED),
            "--share",
            "1",
            "--out",
            str(tmp_path / "fail"),
            "--json",
            "--no-pairs",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    fig = json.loads(run.stdout)
    assert fig["failures"] == 0, fig["failure_summaries"]
    assert fig["hands"] == fig["configurations"] == 6 and fig["workers"] == 2
    assert fig["checked_actions"] == fig["actions"] > 6 * 50
    assert not (tmp_path / "fail").exists()


BOT_PARTS = 5  # the bot soak's slice in five tests (prime to the six bots: each part has every bot's units in turn)


def _alone(u: dict) -> bool:
    """A unit played by a test of its own: the expert's whole match of longer-game (to 5,000 points; playaural at
    6 players in this plan), ~14 CPU-s alone on a quiet machine, 20 loaded, where the bot soak's other 56 units
    take 1 to 5 each: in its fifth it made the suite's longest test (22 CPU-s, m13), now it is a test alone."""
    return u["bot"].startswith("expert") and "longer-game" in u["config"][1]


def _bot_parts(units: list) -> list[list]:
    """The bot soak's tests: every fifth unit of those not :func:`_alone`, then each alone unit."""
    rest = [u for u in units if not _alone(u)]
    return [rest[k::BOT_PARTS] for k in range(BOT_PARTS)] + [[u] for u in units if _alone(u)]


PART_IDS = [f"part-{k + 1}-of-{BOT_PARTS}" for k in range(BOT_PARTS)] + ["expert-longer-game"]


def _bot_slice(soak) -> tuple[list, list, list]:
    """The bot soak's slice: (the option sample, the bots, the units one run of it plays, bots in turn)."""
    configs, _ = soak.soak_configurations(pairs=False)
    sample = soak.option_sample(configs)
    bots = soak.every_bot()
    return sample, bots, soak.plan(len(sample), 3, 0.2, sample, bots, full=True)


def test_the_bot_soak_slices_together_play_every_option_once_with_every_bot(soak):
    """The parts below together are the bot soak's slice (``soak.py --every-bot`` plays the whole product):
    each option set (no option, each bundled option, the capped pin) once, on a configuration that rotates
    over the rulesets and player counts, its bot taken in turn from every registered one (expert and
    learned included, each at least five whole matches)."""
    from mbrules.testing import bundled_ids

    configs, _ = soak.soak_configurations(pairs=False)
    sample, bots, units = _bot_slice(soak)
    assert {tuple(c[1]) for c in sample} == {tuple(c[1]) for c in configs}, "the sample leaves an option out"
    assert len(sample) == len(bundled_ids()[1]) + 2  # every option, no option, the capped pin
    assert len({c[0] for c in sample}) >= 4 and len({c[2] for c in sample}) >= 3  # rulesets, player counts
    assert sorted((u["config"][0], tuple(u["config"][1]), u["config"][2]) for u in units) == sorted(
        (c[0], tuple(c[1]), c[2]) for c in sample
    )  # each sampled configuration once, a whole match each
    assert all(u["full"] and u["hands"] == 1 for u in units)
    per_bot = {b: sum(u["bot"] == b for u in units) for b in bots}
    assert set(per_bot) == set(bots) and all(n >= 5 for n in per_bot.values()), per_bot
    parts = _bot_parts(units)
    assert sorted(map(str, units)) == sorted(str(u) for part in parts for u in part)  # the parts split, none repeats
    assert len(parts) == len(PART_IDS)  # one unit alone, the expert's longer-game match (else the ids are wrong)
    assert any(u["config"][0] == str(soak.CAPPED) for u in units)  # the capped pin: its part sees it stop


@pytest.mark.parametrize("k", range(len(PART_IDS)), ids=PART_IDS)
@pytest.mark.long
def test_every_option_is_played_to_the_end_of_whole_matches_by_the_bots_with_no_illegal_action(soak, tmp_path, k):
    """A fifth of the bot soak's slice (every fifth unit of one plan, :func:`_bot_slice`; one test was the
    suite's longest, 36.6 CPU-s, at the end of make test's run with the other worker idle), or its longest
    unit alone (:func:`_bot_parts`): every match
    ends (won, drawn or stopped at match.max_hands), no bot chooses an illegal action, no invariant breaks.
    ``test_a_bot_choosing_an_illegal_action_in_a_whole_match_is_a_failure`` shows the soak sees an illegal one."""
    _, _, units = _bot_slice(soak)
    mine = _bot_parts(units)[k]
    fig = soak.soak(0, workers=1, seed=3, share=0.2, out_dir=tmp_path / "fail", units=mine, progress=False)
    assert fig["failures"] == 0, fig["failure_summaries"]
    assert fig["matches"] == len(mine) == fig["configurations"]
    assert {b: n["matches"] for b, n in fig["per_bot"].items()} == {
        b: sum(u["bot"] == b for u in mine) for b in {u["bot"] for u in mine}
    }
    capped = sum(u["config"][0] == str(soak.CAPPED) for u in mine)
    assert fig["capped_matches"] >= capped  # the capped pin stopped at its bound: a match that ends unfinished
    assert not (tmp_path / "fail").exists()


def test_a_bot_choosing_an_illegal_action_in_a_whole_match_is_a_failure(soak, tmp_path, monkeypatch):
    from mbrules.bots import HeuristicBot

    real = HeuristicBot.choose

    def cheats(self, observation, legal):  # at a draw that is a choice, the discard pile's top when refused
        if legal[0].op == 0 and len(legal) > 1 and self.game.draw_discard_action not in legal:
            return self.game.draw_discard_action
        return real(self, observation, legal)

    monkeypatch.setattr(HeuristicBot, "choose", cheats)
    fig = soak.soak(
        1,
        workers=1,
        seed=0,
        out_dir=tmp_path / "f",
        configs=[("winning-moves", ("mulligan",), 2)],
        bots=["heuristic"],
        progress=False,
        full=True,
    )
    assert fig["failures"] == 1 and "the heuristic bot chose" in fig["failure_summaries"][0]


def _stop_does_not_stop(monkeypatch):
    """An engine bug: a Stop on the battle pile leaves the side rolling. Injected into a room's method: the
    pure engine's alone (a compiled State's methods are native, the patch would change nothing)."""
    from mbrules import _compiled

    if _compiled.active():
        pytest.skip("an injected rule bug needs the pure engine (a compiled State's methods cannot be patched)")
    real = State._refresh

    def buggy(self, s):
        real(self, s)
        b = self._battle[s]  # engine internals: this is the injected bug
        if b and self.game.card_ids[b[-1]] == "stop":
            self._rolling[s] = True

    monkeypatch.setattr(State, "_refresh", buggy)


@pytest.mark.parametrize("share", [1.0, 0.0], ids=["checked-every-action", "checked-at-hand-end-then-shrunk"])
def test_an_injected_rule_bug_is_caught_shrunk_and_written_as_a_replayable_scenario(soak, tmp_path, monkeypatch, share):
    _stop_does_not_stop(monkeypatch)
    out = tmp_path / "fail"
    fig = soak.soak(
        20,
        workers=1,
        seed=5,
        share=share,
        out_dir=out,
        configs=[("winning-moves", (), 2)],
        bots=["random"],
        progress=False,
    )
    assert fig["failures"] >= 1
    files = sorted(out.glob("*.yaml"))
    assert files and len(files) == len(fig["failure_files"])
    text = files[0].read_text()
    assert "rolling cache" in text and text.startswith("# soak failure (invariant)")
    # shrunk: the last recorded step is the Stop that broke the invariant
    steps = [ln for ln in text.splitlines() if ln.startswith("  - {")]
    assert "play: stop" in steps[-1]
    problems = soak.replay_checked(files[0])
    assert any("rolling cache" in p for p in problems), problems
    # the file is a valid scenario: with the bug gone it replays without an invariant violation
    monkeypatch.undo()
    assert not any("cache" in p for p in soak.replay_checked(files[0]))


def test_an_engine_crash_is_caught_and_written_with_the_crashing_step(soak, tmp_path, monkeypatch):
    """A crash inside the engine, after the action's checks (in the record of what it did: the Transition
    the soak's observers are given), is a failure written as a scenario ending with the crashing action.
    Injected through the state module's name ``Transition`` (a Python class, which the compiled engine too
    looks up at each record; a compiled State's methods cannot be patched)."""
    real = state_module.Transition

    def crashing(**fields):
        if str(fields["action"]) == "play d75" and fields["miles"] >= 300:
            raise ZeroDivisionError("injected")
        return real(**fields)

    monkeypatch.setattr(state_module, "Transition", crashing)
    out = tmp_path / "fail"
    fig = soak.soak(
        10, workers=1, seed=1, share=1.0, out_dir=out, configs=[("parker-1971", (), 4)], bots=["random"], progress=False
    )
    assert fig["failures"] >= 1
    text = sorted(out.glob("*.yaml"))[0].read_text()
    assert "ZeroDivisionError: injected" in text
    assert [ln for ln in text.splitlines() if ln.startswith("  - ")][-1].endswith("play: d75}")
    assert soak.replay_checked(sorted(out.glob("*.yaml"))[0])


def test_a_hand_that_never_ends_is_a_failure(soak, tmp_path, monkeypatch):
    monkeypatch.setattr(soak, "MAX_ACTIONS", 20)
    fig = soak.soak(
        2, workers=1, seed=0, out_dir=tmp_path / "f", configs=[("kids-115", (), 3)], bots=["random"], progress=False
    )
    assert fig["failures"] == 2 and "did not end" in fig["failure_summaries"][0]


def test_a_bot_choosing_an_illegal_action_is_a_failure(soak, tmp_path, monkeypatch):
    from mbrules.bots import RandomBot

    real = RandomBot.choose
    asked = {"n": 0}

    def cheats(self, observation, legal):  # after 30 questions, an int that is no action of the game
        asked["n"] += 1
        return 7 if asked["n"] > 30 else real(self, observation, legal)

    monkeypatch.setattr(RandomBot, "choose", cheats)
    fig = soak.soak(
        3,
        workers=1,
        seed=0,
        out_dir=tmp_path / "f",
        configs=[("winning-moves", (), 2)],
        bots=["random"],
        progress=False,
    )
    assert fig["failures"] == 3 and "chose 7" in fig["failure_summaries"][0]
