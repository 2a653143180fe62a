"""Helpers for the authoring tests: the CLI in-process, a file written in a temporary folder."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from mbrules.cli.app import app

ROOT = Path(__file__).resolve().parents[2]


def run(*args, columns: int = 80):
    """The command at ``columns`` (80 as the suite pins it; 240, the widest, to read what a line says
    without how it folds)."""
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": str(columns)})


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path
