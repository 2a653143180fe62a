"""The engine's rooms (issue 35, Shape): each concern of the rules in its own module, State the position.

A house rule should touch the model, the compiler (``Game``) and one room. These tests keep the shape
that makes that true: every room opens with its contract, holds no state of its own, defines each of
its methods in one place only, and never imports ``State`` (the state imports the rooms).
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from mbrules.engine.fields import StateFields
from mbrules.engine.state import State

ROOMS = {
    "legality": "Legality",
    "effects": "Effects",
    "turn": "TurnFlow",
    "reactions": "Reactions",
    "scoring": "Scoring",
}
ENGINE = Path(importlib.import_module("mbrules.engine").__file__).parent


def _source(module: str) -> ast.Module:
    return ast.parse((ENGINE / f"{module}.py").read_text(encoding="utf-8"))


def _own_fields(cls: type) -> tuple[str, ...] | None:
    """The instance fields ``cls`` declares itself (None: it has none declared, so its instances get a
    ``__dict__``). Pure: its ``__slots__``. Compiled by mypyc: its ``__mypyc_attrs__`` less its bases' (a
    trait lists the fields of the traits it derives from)."""
    if "__mypyc_attrs__" not in vars(cls):
        return vars(cls).get("__slots__")
    inherited = {n for base in cls.__mro__[1:] for n in vars(base).get("__mypyc_attrs__", ())}
    return tuple(n for n in vars(cls)["__mypyc_attrs__"] if n not in inherited)


def _declarations() -> set[str]:
    """The methods StateFields declares for the checker (``@abstractmethod``), read from its source: a
    compiled class's methods carry no ``__isabstractmethod__``."""
    fields = next(n for n in _source("fields").body if isinstance(n, ast.ClassDef) and n.name == "StateFields")
    return {
        f.name
        for f in fields.body
        if isinstance(f, ast.FunctionDef)
        and any(isinstance(d, ast.Name) and d.id == "abstractmethod" for d in f.decorator_list)
    }


@pytest.mark.parametrize("module", sorted(ROOMS))
def test_each_room_opens_with_its_contract(module):
    """As engine/notation.py does: what the room decides, what it reads, what it may change. Read from the
    source (a module compiled by mypyc keeps no docstring)."""
    doc = ast.get_docstring(_source(module)) or ""
    for heading in ("Decides:", "Reads:", "May change:"):
        assert heading in doc, f"engine/{module}.py's docstring lacks '{heading}'"


@pytest.mark.parametrize("module", sorted(ROOMS))
def test_a_room_holds_no_state_of_its_own(module):
    """The position is State's slots alone, so clone(), snapshots and observations see all of it."""
    room = getattr(importlib.import_module(f"mbrules.engine.{module}"), ROOMS[module])
    assert _own_fields(room) == ()
    assert room in State.__mro__
    assert not hasattr(State(__import__("mbrules").load_game("winning-moves", 2), 0), "__dict__")


def test_every_method_of_the_rules_is_defined_in_one_place():
    """No room overrides another's method or State's: one place per operation, found by its name."""
    owners: dict[str, list[str]] = {}
    declared = _declarations()
    for cls in State.__mro__[:-1]:
        for name, value in vars(cls).items():
            if cls is StateFields and name in declared:
                continue  # StateFields declares what the rooms share (for mypyc's traits): a declaration, not a rule
            if callable(value) or isinstance(value, property):
                owners.setdefault(name, []).append(cls.__name__)
    assert {n: o for n, o in owners.items() if len(o) > 1 and not n.startswith("__")} == {}


@pytest.mark.parametrize("module", sorted(ROOMS))
def test_no_room_imports_the_state(module):
    """The state imports the rooms, never the other way round (no circle; a room is read on its own)."""
    tree = _source(module)
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert "state" not in imported and "mbrules.engine.state" not in imported
