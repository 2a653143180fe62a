"""Helpers for the authoring tests: the CLI in-process, a file written in a temporary folder."""
from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from mbrules.cli.app import app

ROOT = Path(__file__).resolve().parents[2]


WIDE = {"COLUMNS": "240"}  # the widest layout: these tests read what a line says, never how it folds at 80


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args], env=WIDE)


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path
