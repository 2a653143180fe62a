"""Command-line values that need no conversion are taken as they are, without pydantic.

Typer converts every parameter's value through a pydantic ``TypeAdapter``, built when the value is
first read: a command with only flags and text (``mbrules rulesets``) would pay for pydantic's import
and a validator per parameter (about a third of its start-up). A value Typer's adapter would return
unchanged (no value; a flag already true or false; text for a ``str``; texts for a ``list[str]``; a
whole number in range for an ``int``) is returned here as is; any other value, and any parameter
with a parser or a clamp, goes to Typer's own conversion, so its errors are Typer's, word for word.
"""

from __future__ import annotations

import re
from typing import Any

_WHOLE = re.compile(r"-?(?:0|[1-9][0-9]{0,17})")  # what int() and pydantic read alike


class _Unchanged:
    """The value as it is when Typer's adapter would return it unchanged (``None`` when it may not)."""


_NOT_PLAIN = _Unchanged()


def plain_value(annotation: Any, info: Any, value: Any) -> Any:
    """``value`` as Typer's adapter for ``annotation`` would return it, or ``_NOT_PLAIN``."""
    if info.parser is not None:
        return _NOT_PLAIN
    if annotation is bool and isinstance(value, bool):
        return value
    if annotation is str and isinstance(value, str):
        return value
    if annotation == list[str] and isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return list(value)
    if annotation is int and not info.clamp:
        number = (
            value if type(value) is int else int(value) if isinstance(value, str) and _WHOLE.fullmatch(value) else None
        )
        if number is not None and (info.min is None or number >= info.min) and (info.max is None or number <= info.max):
            return number
    return _NOT_PLAIN


class PlainFirst:
    """A parameter's conversion: :func:`plain_value` first, Typer's own (built on first need) otherwise."""

    def __init__(self, typer_param: Any, build: Any) -> None:
        self._param = typer_param
        self._build = build

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        multi = param.multiple or param.nargs == -1
        if value is None:  # as Typer: no value is None, or () for a parameter of many values
            return () if multi else None
        if not (multi and isinstance(value, str)):
            desc = param.type_descriptor
            plain = plain_value(desc.annotation, desc.parameter_info, value)
            if plain is not _NOT_PLAIN:
                return plain
        return self._build(self._param).coerce(value, param=param, ctx=ctx)


def install() -> None:
    """Every Typer parameter converts its value through :class:`PlainFirst`."""
    from typer import core

    typer_param: Any = getattr(core, "_TyperParameter", None)
    if typer_param is None or not hasattr(typer_param, "get_runtime_param"):
        return  # another Typer: its conversion as it is
    built = typer_param.get_runtime_param

    def get_runtime_param(self: Any) -> Any:
        return PlainFirst(self, built)

    typer_param.get_runtime_param = get_runtime_param
