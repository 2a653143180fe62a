"""Loader fuzzing: mutated rulesets, options and scenarios never crash, never hang, and end in a valid
result or in errors formatted FILE:LINE:COL: message whose line and column are inside the file.

The inputs start from the bundled files and the conformance scenarios and are mutated at the data
level (delete, retype, swap, rename, nest a value deeply, point it at an alias bomb) and at the text
level (truncate, insert random bytes, drop/duplicate/swap lines, break indentation). A ruleset the
loader accepts must also be playable: a random hand runs to its end with the invariants holding.
"""

from __future__ import annotations

import copy
import functools
import itertools
import os
import random
import re
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from mbrules.engine import Game, GameError, State
from mbrules.testing import check
from mbrules.ruleset import RulesetError, load_ruleset
from mbrules.ruleset.loader import check_file
from tiers import examples

ROOT = Path(__file__).resolve().parents[1]
RULESET_FILES = sorted((ROOT / "rulesets").glob("*.yaml"))
OPTION_FILES = sorted((ROOT / "rulesets" / "options").glob("*.yaml"))
SCENARIO_FILES = sorted((ROOT / "tests" / "conformance").rglob("*.yaml"))[:40]

LINE_RE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<msg>\S.*)$")
WALL_BOUND = 30  # a load that takes this long hangs

FUZZ = settings(
    max_examples=int(os.environ.get("MB_FUZZ_EXAMPLES", examples(100, 15))),  # make test-fast: 15 files a test
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large],
)

_counter = itertools.count()


@contextmanager
def bounded(what: str):
    """Fail (not hang) when a load never ends: a guard, not a measure (no test asserts a speed)."""

    def alarm(signum, frame):
        raise TimeoutError(f"{what} did not finish within {WALL_BOUND} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(WALL_BOUND)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# ----------------------------------------------------------------------------
# Mutations

ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
    st.sampled_from(
        ["", "~", "null", "yes", "0x1F", "1e309", ".nan", "-.inf", "d200", "stop", "battle", "99999999999999999999"]
    ),
)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


def _get(node, path):
    for p in path:
        node = node[p]
    return node


def _set(node, path, value):
    _get(node, path[:-1])[path[-1]] = value


@st.composite
def data_mutation(draw, data):
    data = copy.deepcopy(data)
    paths = [p for p in _paths(data) if p]
    for _ in range(draw(st.integers(1, 3))):
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        op = draw(st.sampled_from(["delete", "retype", "swap", "rename", "nest", "duplicate-list"]))
        try:
            parent = _get(data, path[:-1])
            if op == "delete":
                del parent[path[-1]]
            elif op == "retype":
                parent[path[-1]] = draw(ODD_VALUES)
            elif op == "swap":
                other = draw(st.sampled_from(paths))
                a, b = _get(data, path), _get(data, other)
                _set(data, path, copy.deepcopy(b))
                _set(data, other, copy.deepcopy(a))
            elif op == "rename" and isinstance(parent, dict):
                new = draw(
                    st.sampled_from([str(path[-1]).upper(), f"{path[-1]}_", "", "2", "<<", "id", "kind", "extends"])
                )
                parent[new] = parent.pop(path[-1])
            elif op == "nest":
                value = _get(data, path)
                for _ in range(draw(st.integers(5, 200))):
                    value = draw(st.sampled_from([[value], {"x": value}]))
                parent[path[-1]] = value
            elif op == "duplicate-list" and isinstance(_get(data, path), list):
                parent[path[-1]] = _get(data, path) * draw(st.integers(2, 50))
        except (KeyError, IndexError, TypeError):
            pass
        paths = [p for p in _paths(data) if p]
    try:
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True).encode("utf-8")
    except (RecursionError, yaml.YAMLError):
        return b"x: 1\n"


BOMB = (
    b"a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    b"b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
    b"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
    b"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
    b"e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
    b"f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
    b"g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n"
)


@st.composite
def text_mutation(draw, raw: bytes):
    lines = raw.split(b"\n")
    for _ in range(draw(st.integers(1, 3))):
        op = draw(
            st.sampled_from(
                [
                    "truncate",
                    "insert-bytes",
                    "drop-line",
                    "dup-line",
                    "swap-lines",
                    "indent",
                    "alias-bomb",
                    "alias",
                    "tab",
                    "bom",
                    "deep-flow",
                    "anchor-self",
                ]
            )
        )
        text = b"\n".join(lines)
        if op == "truncate":
            text = text[: draw(st.integers(0, len(text)))]
        elif op == "insert-bytes":
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.binary(min_size=1, max_size=12)) + text[at:]
        elif op == "drop-line" and lines:
            i = draw(st.integers(0, len(lines) - 1))
            text = b"\n".join(lines[:i] + lines[i + 1 :])
        elif op == "dup-line" and lines:
            i = draw(st.integers(0, len(lines) - 1))
            text = b"\n".join(lines[: i + 1] + lines[i:])
        elif op == "swap-lines" and len(lines) > 1:
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            ls = list(lines)
            ls[i], ls[j] = ls[j], ls[i]
            text = b"\n".join(ls)
        elif op == "indent" and lines:
            i = draw(st.integers(0, len(lines) - 1))
            ls = list(lines)
            ls[i] = b" " * draw(st.integers(1, 7)) + ls[i]
            text = b"\n".join(ls)
        elif op == "alias-bomb":
            text = BOMB + text if draw(st.booleans()) else text + b"\n" + BOMB + b"name: *g\n"
        elif op == "alias":
            text = b"x0: &x0 {value: 6, source: s}\n" + text.replace(b"{value: 6,", b"*x0 #", 1)
        elif op == "tab" and lines:
            i = draw(st.integers(0, len(lines) - 1))
            ls = list(lines)
            ls[i] = b"\t" + ls[i]
            text = b"\n".join(ls)
        elif op == "bom":
            text = b"\xef\xbb\xbf" + text
        elif op == "deep-flow":
            n = draw(st.integers(50, 5000))
            text = text + b"\nz: " + b"[" * n + b"]" * n + b"\n"
        elif op == "anchor-self":
            text = text + b"\nq: &q [*q]\n"
        lines = text.split(b"\n")
    return b"\n".join(lines)


# libyaml's safe loader where PyYAML has it: the same data from every file _first_document reads (the 105
# bundled rulesets, options and the scenarios the fuzzer starts from, compared whole: equal), ten times less CPU
# (0.69 -> 0.07 CPU-s for the 105; round 15). The mutated data is still written by PyYAML's own emitter
# (safe_dump): libyaml's writes 3% of them otherwise (an empty key as '' rather than "? ''", escapes), which
# would change the inputs the fuzzer tries.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@functools.lru_cache(maxsize=None)
def _first_document(path: Path):
    """The file's first document as data, read once a file: pyyaml's pure-Python reader took ~0.1 CPU-s a
    bundled ruleset and ran for each example that mutates data; data_mutation works on a deep copy."""
    return next(iter(yaml.load_all(path.read_bytes(), Loader=_SAFE_LOADER)), None)


def mutated(files):
    @st.composite
    def strat(draw):
        path = draw(st.sampled_from(files))
        raw = path.read_bytes()
        if draw(st.booleans()):
            # a scenario file may hold several documents (---): the data mutation works on the first
            data = _first_document(path)
            raw = draw(data_mutation(data))
        if draw(st.booleans()):
            raw = draw(text_mutation(raw))
        return path.name, raw

    return strat()


# ----------------------------------------------------------------------------
# Checks


def _write(tmp: Path, name: str, raw: bytes) -> Path:
    d = tmp / f"case{next(_counter)}"  # a fresh path: the loader caches on path, mtime and size
    d.mkdir()
    p = d / name
    p.write_bytes(raw)
    return p


@functools.lru_cache(maxsize=None)
def _real(name: str, cwd: str) -> Path:
    """A file name's real path, worked out once: ``resolve()`` stats each folder of the path, and each error
    line is compared with every file involved (~40): 41,000 resolves in the fast set, most of the fuzzer's
    checking time. The working directory is part of the key (a relative name is read against it)."""
    return (Path(cwd) / name).resolve()


def assert_located(lines, allowed: dict[str, bytes]):
    """Every error line is FILE:LINE:COL: message, naming a known file, with the position inside it."""
    assert lines, "an error with no message"
    cwd = os.getcwd()
    for line in lines:
        m = LINE_RE.match(line)
        assert m, f"not FILE:LINE:COL: message: {line!r}"
        f = _real(m["file"], cwd)
        match = [raw for name, raw in allowed.items() if f == _real(name, cwd)]
        assert match, f"error names a file that was not involved: {line!r} (files: {list(allowed)})"
        text = match[0].decode("utf-8", errors="replace")
        if text.startswith("\ufeff"):
            text = text[1:]
        ln, col = int(m["line"]), int(m["col"])
        # lines as YAML counts them (CR, NEL, LS, PS break lines too) or as a text editor does (LF)
        ok = False
        for rows in (re.split(r"\r\n|\r|\n|\x85|\u2028|\u2029", text), text.split("\n")):
            ok = ok or (1 <= ln <= len(rows) and 1 <= col <= len(rows[ln - 1]) + 1)
        assert ok, f"line {ln} column {col} is outside the file: {line!r}"


def assert_playable(rs):
    """A ruleset the loader accepts plays: a random hand at each player count ends, invariants hold."""
    for key in sorted(rs.player_counts, key=int):
        try:
            game = Game(rs, int(key))
        except GameError:
            continue  # refused with a message: fine
        state = State.new_match(game, 7, deal_next=False)  # rests when the hand ends
        rng = random.Random(7)
        for _ in range(20_000):
            if state.hand_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        else:
            raise AssertionError(f"a hand of {rs.id} with {key} players did not end")
        assert check(state) == []


@functools.lru_cache(maxsize=1)
def _bundled_bytes() -> dict[str, bytes]:
    """The bundled rulesets and options an error may name, read once (the tests never write them)."""
    return {str(p): p.read_bytes() for p in RULESET_FILES + OPTION_FILES}


def _involved(path: Path, raw: bytes) -> dict[str, bytes]:
    return {str(path): raw, **_bundled_bytes()}


# ----------------------------------------------------------------------------
# Tests


@FUZZ
@given(case=mutated(RULESET_FILES))
def test_mutated_rulesets_load_or_fail_with_located_errors(case, tmp_path):
    name, raw = case
    path = _write(tmp_path, name, raw)
    try:
        with bounded(f"loading {name}"):
            rs = load_ruleset(path)
    except RulesetError as e:
        event("refused")
        assert not e.usage, f"a readable file is reported as a usage error: {e.lines}"
        assert_located(e.lines, _involved(path, raw))
    else:
        event("loaded")
        assert_playable(rs)


@FUZZ
@given(case=mutated(OPTION_FILES))
def test_mutated_options_apply_or_fail_with_located_errors(case, tmp_path):
    name, raw = case
    path = _write(tmp_path, name, raw)
    try:
        with bounded(f"applying {name}"):
            rs = load_ruleset("winning-moves", [path])
    except RulesetError as e:
        event("refused")
        assert not e.usage, f"a readable file is reported as a usage error: {e.lines}"
        assert_located(e.lines, _involved(path, raw))
    else:
        event("applied")
        assert_playable(rs)
    with bounded(f"checking {name}"):
        fc = check_file(path)
    if fc.diagnostics:
        assert_located([str(d) for d in fc.diagnostics], _involved(path, raw))


@FUZZ
@given(case=mutated(SCENARIO_FILES))
def test_mutated_scenarios_replay_or_fail_with_located_errors(case, tmp_path):
    from mbrules.scenario.replay import replay_file

    name, raw = case
    path = _write(tmp_path, name, raw)
    with bounded(f"replaying {name}"):
        results = replay_file(path)
    event("all passed" if results and all(r.passed for r in results) else "invalid or failed")
    for r in results:
        if r.errors:
            assert_located([str(d) for d in r.errors], _involved(path, raw))
        for f in r.failures:
            assert_located([f"{f.file}:{f.line}:{f.col}: {f.text()}"], _involved(path, raw))


# ----------------------------------------------------------------------------
# Named hostile shapes (each once, not left to chance)

HOSTILE = {
    "alias-bomb": BOMB + b"id: bomb\nname: *g\n",
    "deep-flow": b"id: deep\nname: " + b"[" * 100_000 + b"]" * 100_000 + b"\n",
    "deep-block": b"id: deep\n" + b"".join(b"  " * i + b"k:\n" for i in range(3000)),
    "self-alias": b"id: x\nq: &q [*q]\n",
    "undefined-alias": b"id: x\nname: *nope\n",
    "merge-key": b"base: &b {id: x}\n<<: *b\n",
    "python-tag": b"id: !!python/object/apply:os.system ['echo pwned']\n",
    "custom-tag": b"id: !custom x\n",
    "binary": bytes(range(256)) * 4,
    "utf16": "id: x\nname: y\n".encode("utf-16"),
    "nul": b"id: x\x00\nname: y\n",
    "empty": b"",
    "only-comment": b"# nothing\n",
    "list-document": b"- a\n- b\n",
    "scalar-document": b"42\n",
    "two-documents": b"id: a\n---\nid: b\n",
    "duplicate-key": b"id: a\nid: b\n",
    "huge-int": b"id: x\nplay:\n  hand_size: {value: " + b"9" * 5000 + b", decided: x}\n",
    "long-line": b"id: x\nname: " + b"a" * 200_000 + b"\n",
    "cr-only": b"id: x\rname: y\r",
    "extends-self": b"id: x\nname: n\ndescription: d\nsource: s\nextends: ./FILE\n",
    "extends-missing": b"id: x\nname: n\ndescription: d\nsource: s\nextends: ./nope.yaml\n",
    "extends-folder": b"id: x\nname: n\ndescription: d\nsource: s\nextends: ./\n",
}


# the deep shapes cost 0.2 to 1.4 CPU-s a parse: the fast set reads them as a ruleset (the three kinds share
# yamlmarks' depth bounds), make test as each kind too; the 100,000-deep flow as a ruleset is the fast set's
# in tests/test_loader_errors.py (test_pathological_nesting_never_reaches_the_recursion_limit: the same
# depth, refused, not a usage error, at a place inside the file), here make test's
DEEP = ("deep-flow", "deep-block")


def _slow_shape(shape: str, kind: str) -> bool:
    return shape in DEEP and (kind != "ruleset" or shape == "deep-flow")


@pytest.mark.parametrize(
    ("shape", "as_what"),
    [
        pytest.param(shape, kind, id=f"{kind}-{shape}", marks=[pytest.mark.slow] if _slow_shape(shape, kind) else [])
        for shape in sorted(HOSTILE)
        for kind in ("ruleset", "option", "scenario")
    ],
)
def test_hostile_shapes_fail_cleanly(shape, as_what, tmp_path):
    from mbrules.scenario.replay import replay_file

    raw = HOSTILE[shape].replace(b"FILE", b"f.yaml")
    path = _write(tmp_path, "f.yaml", raw)
    with bounded(f"{shape} as {as_what}"):
        if as_what == "scenario":
            results = replay_file(path)
            assert results, "a scenario file gave no result at all"
            assert not any(r.passed for r in results)
            for r in results:
                assert_located([str(d) for d in r.errors], _involved(path, raw))
            return
        with pytest.raises(RulesetError) as exc:
            if as_what == "ruleset":
                load_ruleset(path)
            else:
                load_ruleset("winning-moves", [path])
    assert not exc.value.usage
    assert_located(exc.value.lines, _involved(path, raw))


def test_the_bundled_files_themselves_load(tmp_path):
    """The mutations start from files that load: otherwise every case would be an error case."""
    for p in RULESET_FILES:
        assert_playable(load_ruleset(p))
    for p in OPTION_FILES:
        load_ruleset("winning-moves", [p])


# ----------------------------------------------------------------------------
# Regressions found by the fuzzer


@pytest.mark.parametrize("kind", ["[]", "{}", "[hazard]", "{a: 1}", "1", "null", "true", "2.5"])
def test_a_card_kind_that_is_not_text_is_a_located_error(kind, tmp_path):
    """Found by the fuzzer: `kind: []` on a card crashed the schema layer (TypeError: unhashable type)."""
    raw = (
        "id: x\nname: n\ndescription: d\nsource: s\nextends: winning-moves\ncards:\n"
        f"  driving_ace: {{kind: {kind}, name: Driving Ace, protects: [accident], count: 1, decided: x}}\n"
    ).encode()
    path = _write(tmp_path, "k.yaml", raw)
    with pytest.raises(RulesetError) as exc:
        load_ruleset(path)
    assert_located(exc.value.lines, _involved(path, raw))
    assert any(":7:" in line and "kind" in line for line in exc.value.lines), exc.value.lines


@pytest.mark.parametrize(
    "what,raw",
    [
        (
            "ruleset-key",
            b'id: x\nname: n\ndescription: d\nsource: s\nextends: winning-moves\ncards:\n'
            b'  ? "bad\\nkey"\n  : {kind: distance, name: x, count: 1, miles: 5, decided: x}\n',
        ),
        ("ruleset-value", b'id: x\nname: "a\\nb"\ndescription: d\nsource: s\nextends: winning-moves\n'),
        ("scenario-title", b'scenario: "a\\nb"\nsource: s\nruleset: winning-moves\nplayers: 2\nsteps: []\n'),
        (
            "scenario-player",
            b'scenario: t\nsource: s\nruleset: winning-moves\nplayers: 2\n'
            b'steps:\n  - {player: "p\\r1", play: "d\\u202825"}\n',
        ),
    ],
)
def test_a_line_break_inside_a_value_stays_inside_one_error_line(what, raw, tmp_path):
    """Found by the fuzzer: a value or key holding a line break was printed raw, so one
    FILE:LINE:COL: message came out as two lines on the terminal."""
    from mbrules.scenario.replay import replay_file

    path = _write(tmp_path, "f.yaml", raw)
    if what.startswith("ruleset"):
        with pytest.raises(RulesetError) as exc:
            load_ruleset(path)
        lines = exc.value.lines
    else:
        lines = [str(d) for r in replay_file(path) for d in r.errors]
    assert lines
    for line in lines:
        assert not re.search("[\r\n\x85\u2028\u2029]", line), repr(line)
    assert_located(lines, _involved(path, raw))
