"""Issue 46 (start-up): a command-line value Typer's pydantic converter would return unchanged is taken as it
is (cli/values.py), so a command of flags and text never imports pydantic. These tests hold the shortcut to
Typer's own converter: same value for every value it takes, and Typer's own error for every value it leaves."""

from __future__ import annotations

from typing import Any

import pytest
import typer
from typer._coercion import build_runtime_param, resolve_type_descriptor
from typer.models import OptionInfo

from mbrules.cli.values import _NOT_PLAIN, plain_value

CASES: list[tuple[Any, dict[str, Any], Any]] = [
    (str, {}, "winning-moves"),
    (str, {}, ""),
    (str, {}, " spaced "),
    (bool, {}, True),
    (list[str], {}, ("a", "b")),
    (list[str], {}, ["x"]),
    (list[str], {}, ()),
    (int, {}, "4"),
    (int, {}, "-3"),
    (int, {}, "0"),
    (int, {}, 7),
    (int, {"min": 2, "max": 6}, "6"),
    (int, {"min": 2, "max": 6}, "2"),
    (int, {}, "99999999999999999"),
]


@pytest.mark.parametrize(("annotation", "bounds", "value"), CASES)
def test_a_plain_value_is_what_typers_converter_returns(annotation, bounds, value):
    info = OptionInfo(**bounds)
    plain = plain_value(annotation, info, value)
    assert plain is not _NOT_PLAIN
    typers = build_runtime_param(resolve_type_descriptor(annotation, info))._coerce_value(value, None, None)
    assert plain == typers and type(plain) is type(typers)


@pytest.mark.parametrize(
    ("annotation", "bounds", "value"),
    [
        (int, {}, "four"),
        (int, {}, "04"),
        (int, {}, " 4"),
        (int, {}, "1_000"),
        (int, {"min": 2, "max": 6}, "7"),
        (int, {"min": 2, "clamp": True}, "1"),
        (int, {}, True),
        (bool, {}, "yes"),
        (str, {"parser": str.upper}, "x"),
        (list[str], {}, (1, 2)),
        (float, {}, "1.5"),
    ],
)
def test_any_other_value_goes_to_typers_converter(annotation, bounds, value):
    assert plain_value(annotation, OptionInfo(**bounds), value) is _NOT_PLAIN


def test_typers_own_error_for_a_value_out_of_range():
    """`--players 9` where 2..6 is allowed: Typer's message, word for word (the shortcut steps aside)."""
    app = typer.Typer()

    @app.command()
    def one(players: int = typer.Option(4, min=2, max=6)) -> None:
        print(players)

    from typer.testing import CliRunner

    import mbrules.cli.common  # noqa: F401  the shortcut installed

    res = CliRunner().invoke(app, ["--players", "9"])
    assert res.exit_code == 2 and "less than or equal to 6" in res.output
    assert CliRunner().invoke(app, ["--players", "5"]).output == "5\n"
