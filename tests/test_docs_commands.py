"""Every command a docs page shows runs (issue 33 item 16): docs/play.md shipped unresolved merge-conflict
markers, docs/sweep.md an example the command refuses, docs/rl.md a command that does not exist. The
fast test reads every page for conflict markers; the slow one runs each page's `mbrules` lines in order
(one folder a page, so a model a line trains is there for the next), in-process, with small --games."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md", ROOT / "CHANGELOG.md"]
MARKER = re.compile(r"^(<{7}|={7}|>{7})( |$)", re.M)
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
TABLE_ROW = re.compile(r"^\| `(mbrules [^`]+)` \|", re.M)
PREFIX = re.compile(
    r"^(?:\$ )?(?:/usr/bin/time(?: -f \"[^\"]*\")? )?(?:\.venv(?:-play)?/bin/)?mbrules (?=[a-z-]+(?:\s|$))"
)
EXPECTED_EXIT = re.compile(r"#\s*exit (\d+)")

# lines shown but not run here, each with its reason (anything else must run)
NOT_RUN = {
    "--human": "the terminal game needs a terminal: tests/human drives it in a pseudo-terminal",
    "--backend ray": "a Ray cluster: tests/cluster runs it when the extra is installed",
    "mbrules serve": "a server that runs until it is stopped: tests/web drives it",
    "big.yaml": "a file benchmarks/bench_reliability.py writes (a stress input)",
}
# inputs a page names as the reader's own files, provided from what the pages show
MY_RULES = """id: my-house-rules
name: Our kitchen-table rules
extends: winning-moves
options: [shutout-per-opponent]
play:
  hazard_on_hazard: {value: true, decided: "we like it nasty"}
"""


def test_no_docs_page_holds_a_merge_conflict_marker():
    found = [
        f"{p.relative_to(ROOT)}:{p.read_text(encoding='utf-8')[: m.start()].count(chr(10)) + 1}"
        for p in PAGES
        for m in MARKER.finditer(p.read_text(encoding="utf-8"))
    ]
    assert not found, f"unresolved merge-conflict markers at {', '.join(found)}"


def page_commands(page: Path) -> list[tuple[str, int]]:
    """The `mbrules` command lines of a page (code blocks, then the README's command table), each with
    the exit code its comment announces (`# exit 1`), else 0."""
    text = page.read_text(encoding="utf-8")
    lines = [line for block in FENCE.findall(text) for line in block.splitlines()] + TABLE_ROW.findall(text)
    out = []
    for line in lines:
        line = line.strip()
        if not PREFIX.match(line):
            continue
        code = EXPECTED_EXIT.search(line)
        out.append((line, int(code.group(1)) if code else 0))
    return out


CHEAP_BOTS = {"expert": "expert:budget=1,width=1", "learned": "learned:worlds=1"}
# the options that set how much a command plays, each at its smallest useful size (the page's own 0 kept:
# "none of that part" is the command's form, not its size); a page's `--restricted-games 2000` ran 2,000
# matches per arm in the test (issue 46: that line alone cost minutes)
SIZES = {
    "--games": None,
    "-g": None,
    "--workers": "1",
    "-w": "1",
    "--skill-games": "2",
    "--restricted-games": "2",
    "--robust-games": "2",
}
GAMES = {"ladder": "1", "train": "3"}


def small(line: str) -> list[str]:
    """The arguments of a documented line, made cheap: --games 2 (1 for ladder and 3 for train),
    --workers 1, compare's other parts at 2 matches (those a page turns off stay off; its slow lineups
    off unless the page asks), the search bots at their smallest budget; what it writes goes to the
    page's folder."""
    cmd = shlex.split(PREFIX.sub("", line.split(" #")[0]))
    name = cmd[0]
    args: list[str] = []
    for i, a in enumerate(cmd):
        if i > 0 and cmd[i - 1] in SIZES:
            given = SIZES[cmd[i - 1]] or GAMES.get(name, "2")
            a = a if a == "0" else given
        elif i > 0 and cmd[i - 1] in ("--bot", "-b") and a in CHEAP_BOTS:
            a = CHEAP_BOTS[a]
        args.append(a)
    extra = {"--games": GAMES.get(name, "2")} if name in ("simulate", "compare", "sweep", "ladder", "train") else {}
    if name in ("simulate", "compare", "sweep", "ladder"):
        extra["--workers"] = "1"
    if name == "compare":
        extra |= {"--skill-games": "2", "--robust-games": "0"}
    short = {"--games": "-g", "--workers": "-w"}
    for opt, value in extra.items():
        if opt not in args and short.get(opt) not in args:
            args += [opt, value]
    if name in ("compare", "sweep") and "--out" in args and "--no-charts" not in args:
        args.append("--no-charts")
    return args


def test_every_documented_line_is_run_at_its_smallest_size():
    """The slow test below runs each page's lines with every option that sets how many matches are played
    made small (issue 46: a page's `--restricted-games 2000` played 2,000 pairs in it, about 300 CPU-seconds
    of the suite's): any `--...games` option of a line is one small() shrinks, to 3 at most."""
    for page in PAGES:
        for line, _ in page_commands(page):
            args = small(line)
            for opt, value in zip(args, args[1:]):
                if opt.startswith("--") and opt.endswith("games"):
                    assert opt in SIZES, f"{page.name}: {line}: small() does not shrink {opt}"
                if opt in SIZES:
                    assert int(value) <= 3, f"{page.name}: {line} -> {' '.join(args)}"


def _pages_with_commands() -> list[Path]:
    return [p for p in PAGES if page_commands(p)]


@pytest.mark.slow  # about 45 documented commands, in-process: about 15 s of CPU in all
@pytest.mark.parametrize("page", _pages_with_commands(), ids=lambda p: p.name)
def test_every_command_a_docs_page_shows_runs_with_small_games(page, tmp_path, monkeypatch):
    pytest.importorskip("sklearn")  # docs/bots.md trains models
    from typer.testing import CliRunner

    from mbrules.cli.app import app

    for name in ("tests", "examples", "rulesets"):
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / "my-rules.yaml").write_text(MY_RULES, encoding="utf-8")
    scenarios = sorted((ROOT / "tests" / "conformance" / "winning-moves").glob("*.yaml"))
    for name, src in zip(("my-scenario.yaml", "other.yaml"), scenarios):
        (tmp_path / name).write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MBRULES_CACHE", str(tmp_path / "cache"))
    from mbrules.bots import learned

    monkeypatch.setattr(learned, "FIRST_USE_GAMES", 10)  # the learned rung's model for other rules: small too
    runner = CliRunner()
    ran = 0
    for line, code in page_commands(page):
        if any(k in line for k in NOT_RUN):
            continue
        args = small(line)
        res = runner.invoke(app, args)
        assert "Traceback" not in res.output, (line, res.output[-2000:])
        assert res.exit_code == code, (
            f"{page.name}: {line}\n-> {' '.join(args)}\nexit {res.exit_code}:\n{res.output[-1500:]}"
        )
        ran += 1
    assert ran or all(any(k in line for k in NOT_RUN) for line, _ in page_commands(page))


def test_every_mbrules_command_a_docs_page_names_exists():
    """`mbrules WORD` in a page's code (a span or a block) is a command of the CLI (docs/rl.md sent users to
    `mbrules bots`, which does not exist)."""
    import typer

    from mbrules.cli.app import app

    commands = set(typer.main.get_command(app).commands)
    named = re.compile(r"`(?:[^`\n]*?/)?mbrules ([a-z][a-z-]*)|^(?:\S*/)?mbrules ([a-z][a-z-]*)", re.M)
    wrong = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        code = "\n".join(FENCE.findall(text)) + "\n" + "\n".join(re.findall(r"`[^`\n]+`", text))
        for m in named.finditer(code):
            word = m.group(1) or m.group(2)
            if word not in commands:
                wrong.append(f"{page.name}: mbrules {word}")
    assert not wrong, wrong
