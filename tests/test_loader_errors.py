"""Bad ruleset files: every problem is reported, each at its FILE:LINE:COL with what to do.

The same table runs through the loader (exact positions and message fragments) and through the
real command, ``mbrules validate``, as a subprocess (exit code 1, one line per error, never a
traceback). Files are written into a temporary folder so every position is visible here.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mbrules.ruleset import RulesetError, check_file, clear_cache, load_ruleset
from tiers import examples

ROOT = Path(__file__).resolve().parents[1]
HEAD = """\
id: bad
name: Bad
description: a broken ruleset
source: test
extends: winning-moves
"""  # 5 lines: a child's own keys, then what it changes from line 6


def _billion_laughs() -> str:
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ", ".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


@dataclass
class Case:
    name: str
    files: dict[str, str | bytes]  # the first is the file checked
    expected: list[tuple[str, int, int, str]]  # file, line, col, a fragment of the message


CASES = [
    Case(
        "malformed_yaml",
        {"bad.yaml": HEAD + "play:\n  hand_size: {value: 6, source: [x}\n"},
        [("bad.yaml", 7, 35, "YAML syntax error: expected ',' or ']', but got '}'")],
    ),
    Case(
        "duplicate_key_points_at_second_and_names_first",
        {"bad.yaml": HEAD + "name: Again\n"},
        [("bad.yaml", 6, 1, "duplicate key 'name' (first written at line 2)")],
    ),
    Case(
        "unknown_key_points_at_key_and_lists_allowed",
        {"bad.yaml": HEAD + "play:\n  hand_sise: {value: 7, decided: seven}\n"},
        [
            (
                "bad.yaml",
                7,
                3,
                "unknown key 'hand_sise' in play (allowed: discard_playable, go_with_rolling_safety, hand_size, hazard_needs_rolling, hazard_on_hazard",
            )
        ],
    ),
    Case(
        "unknown_card_reference",
        {
            "bad.yaml": HEAD + "cards:\n  gasoline: {kind: remedy, name: Gas, count: 6, fixes: [out_of_gaz], "
            "source: x}\n"
        },
        [
            ("bad.yaml", 7, 57, "fixes names 'out_of_gaz', which is not a card"),
            ("bad.yaml", 7, 56, "hazard 'out_of_gas' has no remedy"),
        ],
    ),
    Case(
        "counts_must_add_up_to_box_total",
        {"bad.yaml": HEAD + "box:\n  total: {value: 112, decided: two more}\n"},
        [("bad.yaml", 7, 18, "the deck (106) and reference cards (4) make 110, but box.total says 112")],
    ),
    Case(
        "extends_cycle_two_files",
        {
            "one.yaml": "id: one\nname: One\ndescription: d\nsource: s\nextends: two.yaml\n",
            "two.yaml": "id: two\nname: Two\ndescription: d\nsource: s\nextends: ./one.yaml\n",
        },
        [("two.yaml", 5, 10, "extends makes a cycle (one.yaml -> two.yaml -> one.yaml)")],
    ),
    Case(
        "unknown_parent_and_schema_error_both_reported",
        {"bad.yaml": HEAD.replace("winning-moves", "winning-movez") + "play:\n  hand_size: {value: six, source: x}\n"},
        [
            ("bad.yaml", 5, 10, "unknown ruleset 'winning-movez': did you mean 'winning-moves'?"),
            ("bad.yaml", 7, 22, "expected an integer, got string 'six'"),
        ],
    ),
    Case(
        "alias_bomb_refused",
        {"bad.yaml": _billion_laughs()},
        [("bad.yaml", 6, 4, "expands past 100,000 values through YAML aliases")],
    ),
    Case(
        "deep_nesting_refused",
        {"bad.yaml": "id: deep\nx: " + "[" * 200 + "]" * 200 + "\n"},
        [("bad.yaml", 2, 67, "nesting deeper than 64 levels")],
    ),
    Case("empty_file", {"bad.yaml": "# nothing here\n\n"}, [("bad.yaml", 1, 1, "the file is empty")]),
    Case(
        "binary_file",
        {"bad.yaml": b"id: x\n\x89PNG\r\n\x1a\n\x00\x00\xff\xd8"},
        [("bad.yaml", 2, 1, "not UTF-8 text: byte 0x89")],
    ),
    Case(
        "nul_character",
        {"bad.yaml": HEAD + "play:\x00\n"},
        [("bad.yaml", 6, 6, "control character U+0000 (NUL) is not allowed")],
    ),
    Case(
        "wrong_types",
        {
            "bad.yaml": HEAD + "play:\n  hand_size: {value: \"6\", source: x}\n"
            "  hazard_on_hazard: {value: maybe, source: x}\n"
            "display: {battle_pile: no}\n"
        },
        [
            ("bad.yaml", 7, 22, "expected an integer, got string '6' (remove the quotes"),
            ("bad.yaml", 8, 29, "expected true or false, got string 'maybe'"),
            ("bad.yaml", 9, 24, "expected text, got boolean false (YAML reads yes/no"),
        ],
    ),
    Case(
        "removal_exceeding_count",
        {"bad.yaml": HEAD + "removals:\n  \"2\": {cards: {d200: 5}, decided: all of them}\n"},
        [("bad.yaml", 7, 23, "removes 5 'd200' but the deck has only 4")],
    ),
    Case(
        "hazard_without_safety",
        {
            "bad.yaml": HEAD
            + "cards:\n  extra_tank: {kind: safety, name: Extra Tank, count: 1, protects: [flat_tire], "
            "source: x}\n"
        },
        [("bad.yaml", 7, 68, "hazard 'out_of_gas' has no safety")],
    ),
    Case(
        "second_document_refused",
        {"bad.yaml": HEAD + "---\nid: other\n"},
        [("bad.yaml", 6, 1, "a second YAML document starts here")],
    ),
    Case(
        "custom_tag_refused",
        {"bad.yaml": HEAD + "name2: !!python/object:os.system x\n"},
        [
            ("bad.yaml", 6, 1, "unknown key 'name2'"),
            ("bad.yaml", 6, 8, "tag '!!python/object:os.system' is not allowed"),
        ],
    ),
    Case(
        "document_not_a_mapping",
        {"bad.yaml": "- id: x\n"},
        [("bad.yaml", 1, 1, "the document is a list, not a mapping")],
    ),
    Case("boolean_key_refused", {"bad.yaml": HEAD + "no: 1\n"}, [("bad.yaml", 6, 1, "key 'no' is read as false")]),
    Case(
        "explicit_tag_on_a_value_not_of_its_type",
        {
            "bad.yaml": HEAD + "play:\n  hand_size: {value: !!int six, source: x}\n"
            "  hazard_on_hazard: {value: !!bool maybe, source: x}\n"
        },
        [
            ("bad.yaml", 7, 22, "'six' is not a whole number, as its tag '!!int' says"),
            ("bad.yaml", 8, 29, "'maybe' is not true or false, as its tag '!!bool' says"),
        ],
    ),
    Case(
        "card_of_unknown_kind",
        {"bad.yaml": HEAD + "cards:\n  jet: {kind: rocket, name: Jet, count: 1, source: x}\n"},
        [("bad.yaml", 7, 15, "kind must be one of distance, hazard, remedy, safety, karma, got string 'rocket'")],
    ),
    Case(
        "card_reports_only_its_kinds_problems",
        {"bad.yaml": HEAD + "cards:\n  stop: {kind: hazard, name: Stop, count: 5, pile: side, source: x}\n"},
        [("bad.yaml", 7, 52, "cards.stop.pile must be one of battle, speed, got string 'side'")],
    ),
    Case(
        "citation_is_source_or_decided_not_both",
        {
            "bad.yaml": HEAD
            + "play:\n  hand_size: {value: 7}\n  safety_extra_turn: {value: true, source: a, decided: b}\n"
        },
        [
            ("bad.yaml", 8, 3, "give one of 'source' (the rulebook file and section that states it) or 'decided'"),
        ],
    ),
    Case(
        "new_card_needs_every_key_of_its_kind",
        {"bad.yaml": HEAD + "cards:\n  fog: {kind: hazard, count: 0, decided: a new hazard}\n"},
        [("bad.yaml", 7, 3, "missing key")],
    ),
    Case(
        "speed_hazard_needs_a_limit",
        {"bad.yaml": HEAD + "cards:\n  speed_limit: {limit: null, source: x}\n"},
        [("bad.yaml", 7, 3, "speed-pile hazard 'speed_limit' has no limit")],
    ),
    Case(
        "deck_too_small_for_the_hands",
        {"bad.yaml": HEAD + "play:\n  hand_size: {value: 20, decided: big hands}\n"},
        [("bad.yaml", 7, 22, "6 players with hands of 20 need 120 cards plus a draw pile, but the deck has 106")],
    ),
    Case(
        "sides_must_divide_players",
        {"bad.yaml": HEAD + "player_counts:\n  5: {sides: 2, target: 700, extension_to: 700, decided: five}\n"},
        [
            ("bad.yaml", 7, 14, "5 players do not split evenly into 2 sides"),
            ("bad.yaml", 7, 44, "extension_to (700) must be longer than the trip (700)"),
        ],
    ),
    Case(
        "option_file_may_not_extend",
        {"opt.yaml": "kind: option\nid: opt\nname: O\ndescription: d\nsource: s\nextends: winning-moves\n"},
        [("opt.yaml", 6, 1, "an option may not have 'extends'")],
    ),
    Case(
        "option_checked_over_winning_moves",
        {
            "opt.yaml": "kind: option\nid: opt\nname: O\ndescription: d\nsource: s\n"
            "player_counts:\n  \"4\": {sides: 3, target: 1000, extension_to: null, decided: threes}\n"
        },
        [("opt.yaml", 7, 16, "4 players do not split evenly into 3 sides")],
    ),
    Case(
        "key_that_is_not_text",
        {"bad.yaml": HEAD + "? [a, b]\n: 1\n"},
        [("bad.yaml", 6, 3, "a key must be plain text, not a list")],
    ),
    Case(
        "extends_a_missing_path_hints_at_the_bundled_id",
        {"bad.yaml": HEAD.replace("extends: winning-moves", "extends: rulesets/winning-moves.yaml")},
        [("bad.yaml", 5, 10, "to use the bundled one, write its id: winning-moves")],
    ),
    Case(
        "duplicate_merge_key_refused",
        {
            "bad.yaml": HEAD + "a: &a {value: 6, source: x}\nb: &b {value: 7, source: x}\n"
            "play:\n  hand_size:\n    <<: *a\n    <<: *b\n"
        },
        [
            ("bad.yaml", 6, 1, "unknown key 'a'"),
            ("bad.yaml", 7, 1, "unknown key 'b'"),
            ("bad.yaml", 11, 5, "duplicate key '<<' (first written at line 10)"),
        ],
    ),
    Case(
        "too_many_nodes_not_blamed_on_aliases",
        {"bad.yaml": HEAD + "junk:\n" + "  - 1\n" * 20_001},
        [("bad.yaml", 19_994, 5, "too many YAML nodes: 20,001, the most is 20,000")],
    ),
    Case(
        "nul_escape_in_extends",
        {"bad.yaml": HEAD.replace("winning-moves", '"a\\0b.yaml"')},
        [("bad.yaml", 5, 10, "control character U+0000 (NUL)")],
    ),
    Case(
        "points_match_that_cannot_be_won",
        {"bad.yaml": HEAD + "scoring:\n  enabled: {value: false, decided: no points}\n"},
        [("bad.yaml", 7, 20, "scoring is off, so no hand scores a point and the match never ends")],
    ),
    Case(
        "unknown_option_in_file",
        {"bad.yaml": HEAD + "options: [hazard-on-hazzard]\n"},
        [("bad.yaml", 6, 11, "unknown option 'hazard-on-hazzard': did you mean 'hazard-on-hazard'?")],
    ),
]


def _write(tmp_path: Path, case: Case) -> Path:
    for name, content in case.files.items():
        p = tmp_path / name
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content, encoding="utf-8")
    return tmp_path / next(iter(case.files))


def _problems(tmp_path: Path, case: Case) -> list[str]:
    main = _write(tmp_path, case)
    old = os.getcwd()
    os.chdir(tmp_path)  # file names in messages are relative to the working directory
    try:
        result = check_file(main.name)
    finally:
        os.chdir(old)
    assert not result.ok, "the file should be invalid"
    return [str(d) for d in result.diagnostics]


# A case whose file costs a second or more to read is checked in the fast set by the whole table below, which
# runs every case through `mbrules validate` in one process (each line at its place, the lines counted). The
# 20,001-node file was one (1.1 CPU-s: the pure-Python composer read it all to refuse it); libyaml's events refuse
# it now (yamlmarks._fast_compose, 0.04 CPU-s), so it is back in the fast set
SLOW_CASES: set[str] = set()


@pytest.mark.parametrize(
    "case", [pytest.param(c, id=c.name, marks=[pytest.mark.slow] if c.name in SLOW_CASES else []) for c in CASES]
)
def test_bad_file_reports_every_problem_at_its_place(tmp_path, case):
    lines = _problems(tmp_path, case)
    assert len(lines) == len(case.expected), "\n".join(lines)
    remaining = list(lines)
    for file, line, col, fragment in case.expected:
        prefix = f"{file}:{line}:{col}: "
        match = [x for x in remaining if x.startswith(prefix) and fragment in x]
        assert match, f"expected {prefix}...{fragment}... in:\n" + "\n".join(lines)
        remaining.remove(match[0])


MUTATION_TOKENS = [
    "{",
    "}",
    "[",
    "]",
    ": ",
    "- ",
    "&a ",
    "*a",
    "<<: ",
    "null",
    "~",
    "'",
    '"',
    "\n",
    "  ",
    "\t",
    "!!str ",
    "? ",
    "#",
    "kind: option\n",
    "extends: x.yaml\n",
    "-1",
    "9" * 30,
    "value: ",
    "stop",
    "\x00",
    "é",
    "\ufeff",
]


@settings(
    max_examples=examples(150, 20),  # make test-fast: 20 (tests/tiers.py)
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    edits=st.lists(
        st.tuples(st.floats(0, 1), st.integers(0, 40), st.sampled_from(MUTATION_TOKENS)), min_size=1, max_size=4
    )
)
def test_any_mangled_ruleset_gives_located_errors_never_a_crash(tmp_path, edits):
    """Bad input of any shape ends as RulesetError lines FILE:LINE:COL: message, never another exception."""
    text = (ROOT / "rulesets" / "winning-moves.yaml").read_text(encoding="utf-8")
    for where, cut, token in edits:
        pos = int(where * len(text))
        text = text[:pos] + token + text[pos + cut :]
    path = tmp_path / "mangled.yaml"
    path.write_text(text, encoding="utf-8")
    clear_cache()
    try:
        check_file(path)
        load_ruleset(path)
    except RulesetError as exc:
        assert exc.lines and all(LINE.match(line) or line.startswith("mbrules: ") for line in exc.lines), exc.lines


def test_alias_bomb_is_refused_without_being_expanded(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(_billion_laughs(), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)  # expanded, it would hold 10**9 values: the refusal comes first
    assert not info.value.usage


def test_pathological_nesting_never_reaches_the_recursion_limit(tmp_path):
    """The fast set's 100,000-deep flow (test_fuzz_loader's ruleset-deep-flow shape reads the same depth
    in make test): refused as not a usage error, at a place inside the file's one line."""
    path = tmp_path / "deep.yaml"
    path.write_text("x: " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    assert "nesting deeper than 64 levels" in info.value.lines[0]
    assert not info.value.usage
    m = re.match(r".*deep\.yaml:(\d+):(\d+): ", info.value.lines[0])
    assert m and m[1] == "1" and 1 <= int(m[2]) <= 200_004, info.value.lines[0]


def test_file_over_one_mebibyte_is_refused(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("id: big\n" + "# padding\n" * 110_000, encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    assert re.match(r".*big\.yaml:1:1: the file is larger than 1024 KiB", info.value.lines[0])


def test_missing_file_named_by_the_user_is_a_usage_error(tmp_path):
    with pytest.raises(RulesetError) as info:
        load_ruleset(tmp_path / "absent.yaml")
    assert info.value.usage
    assert "absent.yaml:1:1: cannot read this file" in info.value.lines[0]


def test_unknown_bundled_id_and_option_are_usage_errors():
    for call in (lambda: load_ruleset("no-such-edition"), lambda: load_ruleset("winning-moves", ["nope"])):
        with pytest.raises(RulesetError) as info:
            call()
        assert info.value.usage
        assert "unknown" in info.value.lines[0]


def test_error_in_an_inherited_value_points_at_the_file_that_wrote_it(tmp_path):
    (tmp_path / "parent.yaml").write_text(
        HEAD.replace("id: bad", "id: parent") + "cards:\n  gasoline: {kind: remedy, name: Gas, count: 6, "
        "fixes: [out_of_gaz], source: x}\n",
        encoding="utf-8",
    )
    (tmp_path / "child.yaml").write_text(
        "id: child\nname: C\ndescription: d\nsource: s\nextends: parent.yaml\n"
        "play:\n  hand_size: {value: 7, decided: seven}\n",
        encoding="utf-8",
    )
    clear_cache()
    with pytest.raises(RulesetError) as info:
        load_ruleset(tmp_path / "child.yaml")
    assert any("parent.yaml:7:57: remedy 'gasoline' fixes names 'out_of_gaz'" in line for line in info.value.lines)


def _mbrules() -> list[str]:
    script = Path(sys.executable).with_name("mbrules")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from mbrules.cli.app import main; main()"]


LINE = re.compile(r"^[^\s:][^:]*:\d+:\d+: \S.*$")


def test_validate_command_reports_the_whole_table(tmp_path):
    """The real `mbrules validate` over every case at once: exit 1, each case's errors at the same
    places, one line per error on stderr, nothing on stdout but OK lines (there are none), no traceback."""
    mains = []
    for i, case in enumerate(CASES):
        d = tmp_path / f"case{i}"
        d.mkdir()
        mains.append(_write(d, case).relative_to(tmp_path))
    proc = subprocess.run(
        [*_mbrules(), "validate", *map(str, mains)], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.returncode == 1
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert all(LINE.match(line) for line in lines), proc.stderr
    assert len(lines) == sum(len(c.expected) for c in CASES)
    for i, case in enumerate(CASES):
        for file, line, col, fragment in case.expected:
            prefix = f"case{i}/{file}:{line}:{col}: "
            for name in case.files:  # a message naming a file names it as the command was given it
                fragment = fragment.replace(f"{name} ", f"case{i}/{name} ").replace(f"{name})", f"case{i}/{name})")
            assert any(x.startswith(prefix) and fragment in x for x in lines), f"{case.name}: {prefix}{fragment}"


SOLO = ["alias_bomb_refused", "binary_file", "extends_cycle_two_files", "unknown_parent_and_schema_error_both_reported"]


# a process each: the fast set runs the first alone (the whole table above runs every case in one process)
@pytest.mark.parametrize("name", SOLO[:1] + [pytest.param(n, marks=pytest.mark.slow) for n in SOLO[1:]])
def test_validate_command_exit_code_is_1_for_an_invalid_file(tmp_path, name):
    case = next(c for c in CASES if c.name == name)
    main = _write(tmp_path, case)
    proc = subprocess.run(
        [*_mbrules(), "validate", main.name], cwd=tmp_path, check=False, capture_output=True, text=True, timeout=60
    )
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.returncode == 1
    assert len(proc.stderr.splitlines()) == len(case.expected)
