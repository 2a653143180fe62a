"""Hostile inputs, class by class (issue 9, the input side): the real `mbrules` in a subprocess.

Each row is a file or flag built to break the loader or the scenario reader in one way: symlink
loops, NUL and lone surrogates in names, big files, a duplicate merge key, too many card kinds,
references to files outside the rulesets (/etc/passwd), matches that cannot be won, two options of
one exclusive group. Each must answer with the contract's exit code (1 inside a file, with
FILE:LINE:COL; 2 for a path or flag given on the command line), say what is wrong, print no
traceback and no raw control byte or lone surrogate, and write nothing.

The table runs concurrently in a module fixture (two processes at a time, the machine has two
cores); each row is then its own test, named after the rule it checks.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from cli_runs import first_rows, run_in_process

pytestmark = pytest.mark.slow  # runs the real command over a table of hostile files: make test-fast leaves it out

HERE = Path(__file__).resolve().parent
HOSTILE = HERE / "data" / "hostile"
LOCATED = re.compile(r"^(?P<file>[^:\s][^:]*):(?P<line>\d+):(?P<col>\d+): \S")
RAW_CONTROL = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]")
OK, CHECK, USAGE = 0, 1, 2
R = "winning-moves"
HEAD = "id: x\nname: X\ndescription: d\nsource: s\n"  # 4 lines; 'extends:' (when written) is line 5


def mbrules_argv() -> list[str]:
    exe = Path(sys.executable).parent / "mbrules"
    return [str(exe)] if exe.exists() else [sys.executable, "-c", "from mbrules.cli.app import main; main()"]


def ruleset(extends: str = R, body: str = "") -> str:
    return HEAD + f"extends: {extends}\n" + body


def _big_flow_list() -> bytes:
    """Just under the 1 MiB cap: a flow list of about 500,000 items (the issue's 1 MB file)."""
    head = ruleset(body="junk: [").encode()
    n = (1024 * 1024 - len(head) - 3) // 2
    return head + b"1," * (n - 1) + b"1]\n"


def _big_block_list() -> bytes:
    """About 900 KB: a block list of 150,000 items, no alias anywhere."""
    return ruleset(body="junk:\n").encode() + b"  - 1\n" * 150_000


def _many_card_kinds() -> str:
    cards = "".join(
        f"  extra{i}: {{kind: distance, name: E{i}, count: 0, miles: 25, decided: x}}\n" for i in range(300)
    )
    return ruleset(body="cards:\n" + cards)


def _scores(value: int, skip: tuple = ()) -> str:
    keys = (
        "milestones_per_mile",
        "safety",
        "all_safeties",
        "coup_fourre",
        "trip_completed",
        "delayed_action",
        "safe_trip",
        "shutout",
        "extension",
    )
    return "scoring:\n" + "".join(f"  {k}: {{value: {value}, decided: x}}\n" for k in keys if k not in skip)


SCENARIO = "scenario: {title}\nsource: x\nruleset: {ruleset}\noptions: {options}\nplayers: 2\nsteps:\n  - {{player: p1, play: {card}}}\n"

FILES: dict[str, str | bytes] = {
    # -- NUL and lone surrogates written as escapes
    "extends-nul.yaml": ruleset('"a\\0b.yaml"'),
    "extends-surrogate.yaml": ruleset('"\\ud800.yaml"'),
    "options-nul.yaml": ruleset(body='options: ["x\\0.yaml"]\n'),
    "options-surrogate.yaml": ruleset(body='options: ["\\udfff"]\n'),
    "name-nul.yaml": HEAD.replace("name: X", 'name: "A\\0B"') + f"extends: {R}\n",
    "name-tab.yaml": HEAD.replace("name: X", 'name: "A\\tB"') + f"extends: {R}\n",
    "name-escape.yaml": HEAD.replace("name: X", 'name: "A\\eB"') + f"extends: {R}\n",
    "scenario-nul.yaml": SCENARIO.format(title='"t\\0"', ruleset='"w\\0.yaml"', options='["o\\0"]', card='"d\\0"'),
    "scenario-surrogate.yaml": SCENARIO.format(
        title='"t\\ud800"', ruleset='"\\ud800.yaml"', options='["\\udc00"]', card='"\\udfff"'
    ),
    # -- symlink loops named inside files
    "extends-loop.yaml": ruleset("loop-a.yaml"),
    "options-loop.yaml": ruleset(body="options: [loop-a.yaml]\n"),
    "scenario-loop.yaml": SCENARIO.format(title="loop", ruleset="loop-a.yaml", options="[]", card="d25"),
    # -- big files
    "big-flow-list.yaml": _big_flow_list(),
    "big-block-list.yaml": _big_block_list(),
    "big-scenario-list.yaml": b"scenario: big\nsource: x\nruleset: winning-moves\nplayers: 2\nsteps: ["
    + b"1," * 400_000
    + b"1]\n",
    # -- a duplicate merge key
    "merge-twice.yaml": ruleset(
        body="base: &b {value: 6, source: x}\nother: &o {value: 7, source: x}\n"
        "play:\n  hand_size:\n    <<: *b\n    <<: *o\n"
    ),
    # -- card kinds
    "many-card-kinds.yaml": _many_card_kinds(),
    # -- files outside the rulesets
    "extends-passwd.yaml": ruleset("/etc/passwd"),
    "extends-environ.yaml": ruleset("/proc/self/environ"),
    "extends-ssh.yaml": ruleset("~/.ssh/id_rsa"),
    "options-passwd.yaml": ruleset(body="options: [/etc/passwd]\n"),
    "long-key.yaml": ruleset(body="k" * 200 + ": 1\n"),
    "long-extends.yaml": ruleset("z" * 250 + ".yaml"),
    "name-line-separator.yaml": HEAD.replace("name: X", 'name: "A\\LB"') + f"extends: {R}\n",
    "citation-cr.yaml": HEAD.replace("source: s", 'source: "a\\rb"') + f"extends: {R}\n",
    "scenario-passwd.yaml": SCENARIO.format(
        title="passwd", ruleset="/etc/passwd", options="[/proc/self/environ]", card="d25"
    ),
    "extends-link-to-passwd.yaml": ruleset("passwd-link.yaml"),
    # -- matches that cannot be won
    "points-scoring-off.yaml": ruleset(body="scoring:\n  enabled: {value: false, decided: x}\n"),
    "points-all-zero.yaml": ruleset(body=_scores(0)),
    "points-huge-target-scoring-off.yaml": ruleset(
        body="match:\n  target_points: {value: 1000000, decided: x}\nscoring:\n  enabled: {value: false, decided: x}\n"
    ),
    "target-10-30.yaml": ruleset(body="match:\n  target_points: {value: " + "1" + "0" * 30 + ", decided: x}\n"),
    "target-out-of-reach.yaml": ruleset(
        body=_scores(0, skip=("safety",)) + "  safety: {value: 1, decided: x}\n"
        "match:\n  target_points: {value: 1000000, decided: x}\n"
    ),
    # -- exclusive option groups
    "two-game-modes.yaml": HEAD + "extends: kids-115\noptions:\n  - simpler-game\n  - longer-game\n",
    "one-game-mode.yaml": HEAD + "extends: kids-115\noptions: [simpler-game]\n",
    "group-in-ruleset.yaml": ruleset(body="group: {value: game-mode, decided: x}\n"),
}

# (rule, argv, exit code, file of the FILE:LINE:COL lines (or None), "LINE:COL" expected there (or None),
#  words the messages must hold, words they must not hold)
TABLE = [
    # 1. symlink loops, anywhere a ruleset or option is named
    ("symlink_loop_validate", ["validate", "loop-a.yaml"], USAGE, "loop-a.yaml", "1:1", ["symbolic links"], []),
    ("symlink_loop_show", ["show", "loop-a.yaml"], USAGE, "loop-a.yaml", "1:1", ["symbolic links"], []),
    ("symlink_loop_diff", ["diff", R, "loop-b.yaml"], USAGE, "loop-b.yaml", "1:1", ["symbolic links"], []),
    (
        "symlink_loop_play_ruleset",
        ["play", "--ruleset", "loop-a.yaml", "--json"],
        USAGE,
        "loop-a.yaml",
        "1:1",
        ["symbolic links"],
        [],
    ),
    (
        "symlink_loop_simulate_ruleset",
        ["simulate", "--ruleset", "loop-a.yaml", "--json"],
        USAGE,
        "loop-a.yaml",
        "1:1",
        ["symbolic links"],
        [],
    ),
    (
        "symlink_loop_option",
        ["show", R, "--option", "loop-a.yaml"],
        USAGE,
        "loop-a.yaml",
        "1:1",
        ["symbolic links"],
        [],
    ),
    (
        "symlink_loop_in_extends",
        ["validate", "extends-loop.yaml"],
        CHECK,
        "extends-loop.yaml",
        "5:10",
        ["symbolic links"],
        [],
    ),
    (
        "symlink_loop_in_options",
        ["validate", "options-loop.yaml"],
        CHECK,
        "options-loop.yaml",
        "6:11",
        ["symbolic links"],
        [],
    ),
    (
        "symlink_loop_in_scenario_ruleset",
        ["replay", "scenario-loop.yaml"],
        CHECK,
        "scenario-loop.yaml",
        "3:10",
        ["symbolic links"],
        [],
    ),
    ("symlink_loop_replay_path", ["replay", "loop-a.yaml"], USAGE, None, None, ["loop"], []),
    # 1. NUL and lone surrogates: located, escaped
    ("nul_in_extends", ["validate", "extends-nul.yaml"], CHECK, "extends-nul.yaml", "5:10", ["NUL", "\\x00"], []),
    (
        "surrogate_in_extends",
        ["validate", "extends-surrogate.yaml"],
        CHECK,
        "extends-surrogate.yaml",
        "5:10",
        ["surrogate", "\\ud800"],
        [],
    ),
    ("nul_in_options", ["validate", "options-nul.yaml"], CHECK, "options-nul.yaml", "6:11", ["NUL"], []),
    (
        "surrogate_in_options",
        ["show", "options-surrogate.yaml"],
        CHECK,
        "options-surrogate.yaml",
        "6:11",
        ["surrogate"],
        [],
    ),
    (
        "nul_in_scenario_fields",
        ["replay", "scenario-nul.yaml"],
        CHECK,
        "scenario-nul.yaml",
        None,
        ["1:11", "3:10", "4:11", "7:24", "NUL", "0 passed, 1 failed"],
        [],
    ),
    (
        "surrogate_in_scenario_fields",
        ["replay", "scenario-surrogate.yaml"],
        CHECK,
        "scenario-surrogate.yaml",
        None,
        ["1:11", "3:10", "4:11", "7:24", "surrogate", "0 passed, 1 failed"],
        [],
    ),
    (
        "surrogate_in_scenario_json",
        ["replay", "scenario-surrogate.yaml", "--json"],
        CHECK,
        "scenario-surrogate.yaml",
        None,
        ["surrogate"],
        [],
    ),
    (
        "control_bytes_in_a_command_line_path",
        ["validate", "bad\x1b[31m\udcff.yaml"],
        USAGE,
        None,
        None,
        ["bad\\x1b[31m\\udcff.yaml:1:1: cannot read"],
        [],
    ),
    (
        "control_bytes_in_a_command_line_option",
        ["show", R, "--option", "bad\x07.yaml", "--json"],
        USAGE,
        None,
        None,
        ["bad\\x07.yaml:1:1"],
        [],
    ),
    # 5. display strings
    ("name_with_nul_refused", ["validate", "name-nul.yaml"], CHECK, "name-nul.yaml", "2:7", ["NUL"], []),
    ("name_with_tab_refused", ["validate", "name-tab.yaml"], CHECK, "name-tab.yaml", "2:7", ["control characters"], []),
    (
        "name_with_escape_refused",
        ["validate", "name-escape.yaml"],
        CHECK,
        "name-escape.yaml",
        "2:7",
        ["U+001B (ESC)"],
        [],
    ),
    (
        "name_with_line_separator_refused",
        ["validate", "name-line-separator.yaml"],
        CHECK,
        "name-line-separator.yaml",
        "2:7",
        ["U+2028 (LINE SEPARATOR)", "\\u2028"],
        [],
    ),
    (
        "citation_with_cr_refused",
        ["show", "citation-cr.yaml"],
        CHECK,
        "citation-cr.yaml",
        "4:9",
        ["U+000D (CR)", "'a\\rb'"],
        [],
    ),
    # 3. big files: node counts bounded while composing, the right words
    (
        "node_cap_flow_list",
        ["validate", "big-flow-list.yaml"],
        CHECK,
        "big-flow-list.yaml",
        None,
        ["too many YAML nodes: 20,001, the most is 20,000"],
        ["alias"],
    ),
    (
        "node_cap_block_list",
        ["validate", "big-block-list.yaml"],
        CHECK,
        "big-block-list.yaml",
        None,
        ["too many YAML nodes: 20,001, the most is 20,000"],
        ["alias"],
    ),
    (
        "node_cap_play",
        ["play", "--ruleset", "big-block-list.yaml", "--json"],
        CHECK,
        "big-block-list.yaml",
        None,
        ["too many YAML nodes"],
        ["alias"],
    ),
    (
        "node_cap_scenario_document",
        ["replay", "big-scenario-list.yaml"],
        CHECK,
        "big-scenario-list.yaml",
        None,
        ["too many YAML nodes: 20,001, the most is 20,000"],
        ["alias"],
    ),
    # 4. duplicate merge key
    (
        "duplicate_merge_key",
        ["validate", "merge-twice.yaml"],
        CHECK,
        "merge-twice.yaml",
        "11:5",
        ["duplicate key '<<' (first written at line 10)"],
        [],
    ),
    # 5. card kinds beyond the engine's limit
    (
        "card_kinds_over_255_validate",
        ["validate", "many-card-kinds.yaml"],
        CHECK,
        "many-card-kinds.yaml",
        "243:3",
        ["319 card kinds, the most is 255"],
        [],
    ),
    (
        "card_kinds_over_255_play",
        ["play", "--ruleset", "many-card-kinds.yaml", "--json"],
        CHECK,
        "many-card-kinds.yaml",
        "243:3",
        ["the most is 255"],
        [],
    ),
    # 6. files outside the rulesets are never read
    (
        "extends_etc_passwd",
        ["validate", "extends-passwd.yaml"],
        CHECK,
        "extends-passwd.yaml",
        "5:10",
        [".yaml or .yml"],
        ["root:", "nologin"],
    ),
    (
        "extends_proc_environ",
        ["validate", "extends-environ.yaml"],
        CHECK,
        "extends-environ.yaml",
        "5:10",
        [".yaml or .yml"],
        ["PATH=", "HOME="],
    ),
    ("extends_home_ssh", ["validate", "extends-ssh.yaml"], CHECK, "extends-ssh.yaml", "5:10", [".yaml or .yml"], []),
    (
        "options_etc_passwd",
        ["validate", "options-passwd.yaml"],
        CHECK,
        "options-passwd.yaml",
        "6:11",
        [".yaml or .yml"],
        ["root:"],
    ),
    (
        "extends_a_yaml_link_to_etc_passwd",
        ["validate", "extends-link-to-passwd.yaml"],
        CHECK,
        "extends-link-to-passwd.yaml",
        "5:10",
        ["not to a .yaml or .yml file"],
        ["root:", "nologin"],
    ),
    (
        "cli_yaml_link_to_etc_passwd",
        ["show", "passwd-link.yaml"],
        USAGE,
        "passwd-link.yaml",
        "1:1",
        ["not to a .yaml or .yml file"],
        ["root:", "nologin"],
    ),
    (
        "scenario_ruleset_etc_passwd",
        ["replay", "scenario-passwd.yaml"],
        CHECK,
        "scenario-passwd.yaml",
        "3:10",
        [".yaml or .yml"],
        ["root:", "nologin", "PATH="],
    ),
    ("cli_validate_etc_passwd", ["validate", "/etc/passwd"], USAGE, None, None, [".yaml or .yml"], ["root:"]),
    ("cli_show_proc_environ", ["show", "/proc/self/environ"], USAGE, None, None, [".yaml or .yml"], ["PATH="]),
    (
        "cli_option_etc_passwd",
        ["play", "--option", "/etc/passwd", "--json"],
        USAGE,
        None,
        None,
        [".yaml or .yml"],
        ["root:"],
    ),
    (
        "quotes_at_most_60_characters_of_a_key",
        ["validate", "long-key.yaml"],
        CHECK,
        "long-key.yaml",
        "6:1",
        ["'" + "k" * 57 + "...'"],
        ["k" * 61],
    ),
    (
        "quotes_at_most_60_characters_of_a_path",
        ["validate", "long-extends.yaml"],
        CHECK,
        "long-extends.yaml",
        "5:10",
        ["'" + "z" * 57 + "...'"],
        ["z" * 61],
    ),
    # 7. matches that cannot be won do not validate
    (
        "points_match_with_scoring_off",
        ["validate", "points-scoring-off.yaml"],
        CHECK,
        "points-scoring-off.yaml",
        "7:20",
        ["scoring is off", "set scoring.enabled to true"],
        [],
    ),
    (
        "points_match_with_every_score_zero",
        ["validate", "points-all-zero.yaml"],
        CHECK,
        "points-all-zero.yaml",
        "7:32",
        ["no hand can score a point", "positive value"],
        [],
    ),
    (
        "points_match_huge_target_scoring_off",
        ["play", "--ruleset", "points-huge-target-scoring-off.yaml", "--json"],
        CHECK,
        "points-huge-target-scoring-off.yaml",
        "9:20",
        ["1,000,000 points", "scoring is off"],
        [],
    ),
    (
        "target_points_range",
        ["validate", "target-10-30.yaml"],
        CHECK,
        "target-10-30.yaml",
        "7:26",
        ["between 1 and 1,000,000"],
        [],
    ),
    (
        "target_points_out_of_reach",
        ["validate", "target-out-of-reach.yaml"],
        CHECK,
        "target-out-of-reach.yaml",
        "17:26",
        ["more than 10,000 hands", "at most 40,000"],
        [],
    ),
    (
        "simpler_game_over_winning_moves_points_mode_is_fine",
        ["show", R, "--option", "simpler-game"],
        OK,
        None,
        None,
        [],
        [],
    ),
    # 8. exclusive option groups
    (
        "group_two_game_modes_on_the_command_line",
        ["show", "kids-115", "--option", "simpler-game", "--option", "longer-game"],
        USAGE,
        None,
        None,
        ["'simpler-game'", "'longer-game'", "game-mode"],
        [],
    ),
    (
        "group_trip_length_on_the_command_line",
        ["play", "--ruleset", "kids-115", "--option", "extension-1200", "--option", "simpler-game", "--json"],
        USAGE,
        None,
        None,
        ["'extension-1200'", "'simpler-game'", "trip-length"],
        [],
    ),
    (
        "group_two_game_modes_in_a_file",
        ["validate", "two-game-modes.yaml"],
        CHECK,
        "two-game-modes.yaml",
        None,
        [
            "two-game-modes.yaml:7:5: option 'simpler-game'",
            "two-game-modes.yaml:8:5: option 'longer-game'",
            "(named at two-game-modes.yaml:8:5)",
            "(named at two-game-modes.yaml:7:5)",
        ],
        [],
    ),
    (
        "group_one_in_a_file_one_on_the_command_line",
        ["show", "one-game-mode.yaml", "--option", "longer-game"],
        USAGE,  # the file is valid; the --option given with it is refused (a usage error), located in the file
        "one-game-mode.yaml",
        "6:11",
        ["given with --option", "game-mode"],
        [],
    ),
    (
        "group_only_in_options",
        ["validate", "group-in-ruleset.yaml"],
        CHECK,
        "group-in-ruleset.yaml",
        "6:1",
        ["only an option has a group"],
        [],
    ),
]


def _snapshot(d: Path) -> dict:
    return {str(p.relative_to(d)): (p.lstat().st_mtime_ns, p.lstat().st_size) for p in sorted(d.rglob("*"))}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    d = tmp_path_factory.mktemp("hostile-inputs")
    for name, content in FILES.items():
        (d / name).write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    os.symlink("loop-b.yaml", d / "loop-a.yaml")
    os.symlink("loop-a.yaml", d / "loop-b.yaml")
    os.symlink("/etc/passwd", d / "passwd-link.yaml")
    return d


def _run(args, cwd):
    t0 = time.perf_counter()
    argv = [os.fsencode(a) for a in mbrules_argv() + list(args)]  # lone surrogates as the bytes they stand for
    p = subprocess.run(argv, cwd=cwd, capture_output=True, timeout=120)
    p.seconds = time.perf_counter() - t0
    return p


ONE_WORKER_FIXTURES = ("results",)  # computed once under make test's workers (tests/conftest.py)


@pytest.fixture(scope="module")
def results(workdir):
    """One row of each command and one of each exit code run the real command (two at a time), the others
    the same app in this process (tests/cli_runs.py): 54 processes were about 29 CPU-s (issue 46)."""
    before = _snapshot(workdir)
    real = first_rows((row[0], row[1], row[2]) for row in TABLE)
    with ThreadPoolExecutor(max_workers=2) as pool:
        futs = {row[0]: pool.submit(_run, row[1], workdir) for row in TABLE if row[0] in real}
        out = {row[0]: run_in_process(row[1], workdir) for row in TABLE if row[0] not in real}
        out |= {name: f.result() for name, f in futs.items()}
    return out, before, _snapshot(workdir)


@pytest.mark.parametrize("rule,args,code,file,where,words,never", TABLE, ids=[row[0] for row in TABLE])
def test_hostile_input(rule, args, code, file, where, words, never, results):
    runs, before, after = results
    p = runs[rule]
    out, err = p.stdout.decode("utf-8"), p.stderr.decode("utf-8")  # strict: no lone surrogate was written
    both = out + err
    assert "Traceback" not in both and not re.search(r"^\w+(Error|Exception): ", both, re.M), both[-3000:]
    assert p.returncode == code, f"exit {p.returncode}, expected {code}\n{err[-2000:]}"
    for stream in (p.stdout, p.stderr):
        assert not RAW_CONTROL.search(stream), f"a raw control byte was printed: {stream[-500:]!r}"
    if code != OK:
        assert err.strip(), "an error with nothing on stderr"
        if "--json" in args and args[0] != "replay":
            assert out == "", "--json printed on stdout with an error"
    if file is not None:
        located = [ln.strip() for ln in err.splitlines() if LOCATED.match(ln.strip())]
        assert any(ln.startswith(f"{file}:") for ln in located), f"no {file}:LINE:COL line in:\n{err}"
        if where is not None:
            assert any(ln.startswith(f"{file}:{where}: ") for ln in located), f"nothing at {file}:{where}:\n{err}"
    for w in words:
        assert w in both, f"{w!r} not in:\n{both[-2000:]}"
    for w in never:
        assert w not in both, f"{w!r} printed:\n{both[-2000:]}"
    assert after == before, "a hostile input made mbrules write a file"


def test_a_file_at_the_size_cap_is_refused_at_the_node_cap(results):
    """The issue's 1 MB file of 500,000 items took 72 s and 400 MB; composing now stops at the node cap
    (the time and memory it takes now are in docs/reliability.md, measured, not asserted)."""
    runs, _, _ = results
    for rule in ("node_cap_flow_list", "node_cap_block_list", "node_cap_scenario_document"):
        assert runs[rule].returncode == CHECK and b"too many YAML nodes: 20,001" in runs[rule].stderr, rule


# ----------------------------------------------------------------------------
# A FIFO swapped in after any check: every reader opens once, without blocking, and checks the
# descriptor. Run in this process (with an alarm, so a regression fails instead of hanging).


@pytest.fixture
def alarm():
    def ring(*_):
        raise TimeoutError("blocked on a named pipe")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(10)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_fifo_swapped_in_after_the_path_is_resolved_is_refused_not_waited_on(tmp_path, monkeypatch, alarm):
    from mbrules.ruleset import RulesetError, clear_cache, load_ruleset
    from mbrules.ruleset import files

    target = tmp_path / "r.yaml"
    target.write_text(ruleset())
    real = files.real_path

    def swap(path):  # the race: the file becomes a FIFO between the name's resolution and the open
        out = real(path)
        if out == target and target.is_file():
            target.unlink()
            os.mkfifo(target)
        return out

    monkeypatch.setattr(files, "real_path", swap)  # where the loader reads a file
    clear_cache()
    with pytest.raises(RulesetError) as info:
        load_ruleset(target)
    assert info.value.usage and "not a regular file" in info.value.lines[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_fifo_named_in_extends_is_a_located_error(tmp_path, alarm):
    from mbrules.ruleset import RulesetError, clear_cache, load_ruleset

    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "child.yaml").write_text(ruleset("pipe.yaml"))
    clear_cache()
    with pytest.raises(RulesetError) as info:
        load_ruleset(tmp_path / "child.yaml")
    assert not info.value.usage
    assert ":5:10: cannot read the ruleset named in extends" in info.value.lines[0]
    assert "not a regular file" in info.value.lines[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_fifo_given_to_the_scenario_reader_is_refused_not_waited_on(tmp_path, alarm):
    from mbrules.scenario.replay import ScenarioPathError, replay_file

    os.mkfifo(tmp_path / "s.yaml")
    with pytest.raises(ScenarioPathError, match="not a regular file"):
        replay_file(tmp_path / "s.yaml")


def test_one_reader_for_rulesets_and_scenarios():
    """The loader and the scenario reader read files through the same helper."""
    from mbrules.ruleset import files, yamlmarks
    from mbrules.scenario import yamlio

    assert files.read_regular is yamlmarks.read_regular
    assert yamlio.ym.read_bytes.__code__.co_names.count("read_regular") == 1
