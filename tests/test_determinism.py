"""Same ruleset, options, players, bots and seed: the same game, in any process, in any run
(contract: Commands, last line). Checked across processes with different PYTHONHASHSEED, with the
global `random` state disturbed, and across worker counts for `simulate`."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from mbrules.engine import State
from mbrules.testing import load_game, observe

pytestmark = pytest.mark.slow  # the same games across real processes and hash seeds: make test-fast leaves it out

HERE = Path(__file__).resolve().parent
TIMING_KEYS = {"seconds", "hands_per_second", "turns_per_second"}


def mbrules_argv() -> list[str]:
    exe = Path(sys.executable).parent / "mbrules"
    return [str(exe)] if exe.exists() else [sys.executable, "-c", "from mbrules.cli.app import main; main()"]


def run(args, hashseed: str, cwd, prelude: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    if prelude is None:
        argv = mbrules_argv() + args
    else:  # disturb the process (global random, hash order) before the command runs
        code = f"{prelude}\nimport sys\nsys.argv = ['mbrules'] + {args!r}\nfrom mbrules.cli.app import main\nmain()\n"
        argv = [sys.executable, "-c", code]
    p = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    return p


DISTURB = (
    "import random, os\nrandom.seed(os.getpid())\n[random.random() for _ in range(1234)]\n"
    "import mbrules.bots, mbrules.engine\nrandom.shuffle(list(range(100)))"
)


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--seed", "7", "--json"],
        [
            "play",
            "--seed",
            "7",
            "--json",
            "--players",
            "3",
            "--ruleset",
            "parker-1971",
            "--option",
            "hazard-on-hazard",
            "--bot",
            "random",
        ],
        ["play", "--seed", "7", "--hands", "2"],  # the narrated text too, byte for byte
    ],
    ids=["default-json", "parker-3p-option-random-json", "narrated-text"],
)
def test_the_same_seed_gives_the_same_game_across_processes(args, tmp_path):
    a = run(args, "0", tmp_path)
    b = run(args, "12345", tmp_path)
    c = run(args, "random", tmp_path, prelude=DISTURB)
    assert a.stdout == b.stdout, "PYTHONHASHSEED changes the game"
    assert a.stdout == c.stdout, "the global random state changes the game"
    if "--json" in args:
        doc = json.loads(a.stdout)
        assert doc["hands"], "no hand played"


def test_a_different_seed_gives_a_different_game(tmp_path):
    """The check above could pass with a seed that is ignored: a different seed must differ."""
    a = run(["play", "--seed", "7", "--json", "--hands", "1"], "0", tmp_path)
    b = run(["play", "--seed", "8", "--json", "--hands", "1"], "0", tmp_path)
    assert json.loads(a.stdout)["hands"] != json.loads(b.stdout)["hands"]


def test_the_same_seed_records_the_same_file(tmp_path):
    run(["play", "--seed", "5", "--hands", "2", "--record", "a.yaml", "--json"], "1", tmp_path)
    run(["play", "--seed", "5", "--hands", "2", "--record", "b.yaml", "--json"], "2", tmp_path, prelude=DISTURB)
    assert (tmp_path / "a.yaml").read_text() == (tmp_path / "b.yaml").read_text()


def _without_timings(doc):
    if isinstance(doc, dict):
        return {k: _without_timings(v) for k, v in doc.items() if k not in TIMING_KEYS and k != "workers"}
    if isinstance(doc, list):
        return [_without_timings(v) for v in doc]
    return doc


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_simulate_gives_the_same_statistics_for_one_and_two_workers(bot, tmp_path):
    base = ["simulate", "--games", "24", "--seed", "3", "--players", "3", "--bot", bot, "--json"]
    one = json.loads(run(base + ["--workers", "1"], "0", tmp_path).stdout)
    two = json.loads(run(base + ["--workers", "2"], "99", tmp_path, prelude=DISTURB).stdout)
    assert one["games"] == 24 and one["hands"] >= 24
    for key in ("games", "hands", "seconds", "wins"):
        assert key in one, f"simulate --json lacks {key}"
    assert _without_timings(one) == _without_timings(two)


def test_engine_matches_ignore_the_global_random_state():
    """In-process: a match dealt from a seed and played by seeded bots is the same whatever the
    global random module did before or during it."""
    from mbrules.bots import make_bots

    game = load_game("wikipedia", 4, ("hazard-on-hazard",))

    def play(disturb: bool):
        st = State.new_match(game, 11, deal_next=False)
        bots = make_bots(["heuristic", "random", "heuristic", "random"], game, 11)
        while not st.match_over:
            if st.hand_over:
                st.next_hand()
                continue
            if disturb:
                random.seed(random.random())
                random.random()
            p = st.current_player
            bot = bots[p]
            obs = st.observation(p) if getattr(bot, "observes", True) else None
            st.apply(bot.choose(obs, st.legal_actions()))
            if len(st.history) > 3000:
                break
        return observe(st)

    random.seed(1)
    first = play(False)
    random.seed(2)
    assert play(True) == first


API_MATCH = """
import json, sys
import mbrules
from mbrules.matches import play_match
rid, players, options, bots, seed = json.loads(sys.argv[1])
game = mbrules.load_game(rid, players=players, options=options)
st = play_match(game, seed, bots)
print(json.dumps({"history": [[p, str(a)] for p, a in st.history], "outcome": st.outcome.to_dict(),
                  "end": st.snapshot().to_dict()}, sort_keys=True))
"""


def _api_match(config, hashseed: str, prelude: str = "") -> dict:
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    p = subprocess.run(
        [sys.executable, "-c", prelude + "\n" + API_MATCH, json.dumps(config)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout)


@pytest.mark.parametrize(
    "config",
    [
        ["winning-moves", 4, [], ["heuristic"], 7],
        ["parker-1971", 3, ["hazard-on-hazard"], ["heuristic", "random", "random"], 21],
    ],
    ids=["wm-4p-heuristic", "parker-3p-option-mixed"],
)
def test_the_same_seed_gives_the_same_match_across_processes_through_the_python_api(config):
    """Every action (in the notation), the outcome and the final position are the same in two
    processes with different hash seeds, one with the global random disturbed, and in this one."""
    from mbrules.matches import play_match

    a = _api_match(config, "0")
    b = _api_match(config, "4242", prelude=DISTURB)
    assert a == b
    rid, players, options, bots, seed = config
    st = play_match(load_game(rid, players, tuple(options)), seed, bots)
    here = {
        "history": [[p, str(x)] for p, x in st.history],
        "outcome": st.outcome.to_dict(),
        "end": st.snapshot().to_dict(),
    }
    assert json.loads(json.dumps(here, sort_keys=True)) == a
    assert len(a["history"]) > 100 and a["outcome"]["hands"]
    c = _api_match([rid, players, options, bots, seed + 1], "0")
    assert c["history"] != a["history"]  # the seed is not ignored
