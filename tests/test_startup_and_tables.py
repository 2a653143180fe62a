"""Start-up (issue 34): `mbrules --version` loads no command module, bot or engine; the heuristic bot
builds its game tables once per Game, not for every seat of every match
(`benchmarks/bench_bots.py tables` measures the gain)."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path

import mbrules
from mbrules.bots import heuristic
from mbrules.matches import play_match

ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def _started(args: tuple[str, ...]) -> subprocess.CompletedProcess:
    """``mbrules ARGS`` as its console script runs it (argv[0] 'mbrules'), measured with -X importtime: one
    process an argument list, read by every test that asks (two read the --version run: 0.2 CPU-s a process)."""
    code = f"import sys; sys.argv = ['mbrules', *{list(args)!r}]; from mbrules.cli.app import main; main()"
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        timeout=60,
    )


def _loaded(res: subprocess.CompletedProcess) -> set[str]:
    return {line.split("|")[-1].strip() for line in res.stderr.splitlines() if line.startswith("import time:")}


def test_version_imports_no_command_module_bot_or_engine():
    """As the console script runs it (argv[0] 'mbrules'), measured with -X importtime."""
    res = _started(("--version",))
    assert res.returncode == 0 and res.stdout.startswith("mbrules ")
    loaded = _loaded(res)
    assert "mbrules.cli.common" in loaded  # the measure sees the app's own modules
    heavy = sorted(
        m
        for m in loaded
        if m.startswith(("mbrules.engine", "mbrules.bots", "mbrules.ruleset", "mbrules.matches"))
        or (m.startswith("mbrules.cli.") and m.endswith(("_cmd", "_cmds")))
    )
    assert heavy == []


def _modules_loaded_by(args: list[str]) -> set[str]:
    """The modules a run of ``mbrules ARGS`` imports, as its console script runs it (-X importtime)."""
    res = _started(tuple(args))
    assert res.returncode == 0, res.stderr[-2000:]
    return _loaded(res)


def test_version_and_rulesets_import_neither_rich_nor_pydantic_nor_importlib_metadata():
    """Issue 46 (start-up): --version and rulesets print plain text from bool flags, so neither imports Rich
    (hooked on its import), pydantic (Typer's converter, skipped for values it would return unchanged) or
    importlib.metadata (the version's line read from the metadata file)."""
    for args in (["--version"], ["rulesets"]):
        loaded = _modules_loaded_by(args)
        assert "mbrules.cli.common" in loaded
        heavy = sorted(m for m in loaded if m.split(".")[0] in ("rich", "pydantic") or m == "importlib.metadata")
        assert heavy == [], (args, heavy)


def test_show_and_validate_of_valid_files_do_not_import_jsonschema():
    """Issue 46 (start-up): a file that fits the schema is told so by mbrules.ruleset.schema_valid;
    jsonschema (and its referencing, about 70 M instructions) is imported only to say what is wrong
    with a file that does not."""
    for args in (["show", "winning-moves"], ["validate", "rulesets/winning-moves.yaml", "examples/stap-op.yaml"]):
        loaded = _modules_loaded_by(args)
        assert "mbrules.ruleset.schema_check" in loaded
        assert sorted(m for m in loaded if m.split(".")[0] in ("jsonschema", "referencing")) == [], args


def test_the_version_read_from_the_metadata_file_is_importlib_metadatas():
    """mbrules._version finds the same metadata as importlib.metadata (and "unknown" only when it does too)."""
    from importlib.metadata import PackageNotFoundError, version

    from mbrules._version import installed_version

    try:
        expected: str | None = version("mbrules")
    except PackageNotFoundError:
        expected = None
    assert installed_version() == expected


def test_a_closed_pipe_is_still_hooked_on_a_console_made_after_start():
    """Rich's Console is hooked when rich.console is first imported (not at start): a command's Console
    hands a closed pipe to the command group (exit 0), never Rich's own exit 1."""
    code = (
        "import sys; import mbrules.cli.common as c; from rich.console import Console; "
        "print(Console.on_broken_pipe is c._rich_pipe_closed)"
    )
    res = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}
    )
    assert res.stdout.strip() == "True", res.stderr[-2000:]


def test_heuristic_tables_are_built_once_per_game(monkeypatch):
    builds = []
    build = heuristic._build_tables
    monkeypatch.setattr(heuristic, "_build_tables", lambda cls, game: builds.append(game) or build(cls, game))
    game = mbrules.load_game("winning-moves", players=4)
    play_match(game, 1, ["heuristic"])
    play_match(game, 2, ["heuristic", "restricted:no_attack=1"] * 2)
    assert builds == [game]  # 8 bots and then some (restricted wraps one): one build
    other = mbrules.load_game("winning-moves", players=4, options=["hazard-on-hazard"])
    play_match(other, 1, ["heuristic"])
    assert len(builds) == 2 and builds[1] is other  # another Game (a comparison's other arm): its own tables


def test_changed_weights_get_their_own_tables(monkeypatch):
    """A tuning script sets the class's weights: the distance scores follow them, never a stale table."""
    game = mbrules.load_game("winning-moves", players=2)
    before = heuristic.HeuristicBot(game, 0, None).distance_score
    monkeypatch.setattr(heuristic.HeuristicBot, "W_DISTANCE", heuristic.HeuristicBot.W_DISTANCE + 7.0)
    after = heuristic.HeuristicBot(game, 0, None).distance_score
    assert [round(b - a, 9) for a, b in zip(before, after)] == [7.0] * len(before)
