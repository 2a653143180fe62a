"""Output fits the terminal: one width rule (cli.common.output_width) for every command."""
import io

import pytest

from mbrules.cli.common import DEFAULT_WIDTH, output_width


class _Tty(io.StringIO):
    def isatty(self):
        return True

    def fileno(self):
        raise OSError("no real terminal")


@pytest.mark.parametrize("columns, expected", [("100", 100), ("80", 80), ("12", 40), ("99999", 240)])
def test_columns_environment_sets_the_width_within_bounds(monkeypatch, columns, expected):
    """Tests and users pin the width with COLUMNS; absurd values are taken as the nearest bound."""
    monkeypatch.setenv("COLUMNS", columns)
    assert output_width(io.StringIO()) == expected


@pytest.mark.parametrize("columns", ["", "abc", "-5", "1e9"])
def test_piped_output_without_columns_is_80_wide(monkeypatch, columns):
    """Piped output (no terminal) and a COLUMNS that is not a whole number give 80, never a crash."""
    monkeypatch.setenv("COLUMNS", columns)
    assert output_width(io.StringIO()) == DEFAULT_WIDTH == 80


def test_a_terminal_whose_size_cannot_be_read_is_80_wide(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    assert output_width(_Tty()) == 80
