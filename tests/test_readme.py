"""The README as a newcomer reads it (issue 23 item 6, issue 29 item 4): small, its Python runs, and
every `print(...)  # X` prints X; the pages and images it links to exist."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
PRINTED = re.compile(r"^\s*print\(.*\)\s+#\s?(.*)$")


def python_blocks() -> list[str]:
    return BLOCK.findall(README.read_text(encoding="utf-8"))


def test_the_readme_is_at_most_10_kb():
    assert len(README.read_bytes()) <= 10 * 1024


def test_the_readme_has_python_blocks_that_print_something():
    blocks = python_blocks()
    assert blocks and any(PRINTED.match(line) for b in blocks for line in b.splitlines())


@pytest.mark.parametrize("index", range(len(python_blocks())))
def test_each_readme_python_block_prints_what_its_comments_say(index):
    code = python_blocks()[index]
    expected = [m.group(1).strip() for line in code.splitlines() if (m := PRINTED.match(line))]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"README.md python block {index + 1}", "exec"), {"__name__": "__readme__"})
    assert out.getvalue().splitlines() == expected


def test_every_local_link_and_image_in_the_readme_exists():
    targets = re.findall(r"\]\(([^)#]+)\)", README.read_text(encoding="utf-8"))
    local = [t for t in targets if not t.startswith(("http://", "https://"))]
    assert local
    missing = [t for t in local if not (ROOT / t).exists()]
    assert not missing


def test_the_readme_names_every_command_of_the_cli():
    import typer

    from mbrules.cli.app import app

    text = README.read_text(encoding="utf-8")
    commands = typer.main.get_command(app).commands
    assert [c for c in commands if f"`mbrules {c}" not in text] == []
