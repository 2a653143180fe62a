"""Comparing states: a state's observable contents as plain data, and where two disagree.

Used to check that a clone is independent, that a refused action leaves the state as it was,
and that replaying a history gives the same state (:func:`replay_history`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable

from .view import View, _Len, _view

if TYPE_CHECKING:
    from mbrules.engine import Game, Observer, State

__all__ = ["differences", "observe", "replay_history", "same_as_observed"]


def _lists(v: Any) -> list[list[Any]]:
    return [list(x) for x in v]


def _same(v: Any) -> Any:
    return v


# What observe() reads of a View, in its order: (the observation's key, the View's attribute, how it is copied).
# One table for observe() and same_as_observed(), which compares each attribute as the two Views hold it, with
# the equality of its copy (a list of lists stays one, a tuple of tuples compares as the lists it is copied into
# would, a Decision is the (kind, player, drawn) tuple observe() makes of it). "legal" has no attribute: observe()
# reads the live state's legal actions (api_test compares the ones it kept), and "rng" is observed on request.
_FIELDS: tuple[tuple[str, str, Callable[[Any], Any]], ...] = (
    ("hands", "hands", _lists),
    ("draw", "draw", list),
    ("discard", "discard", list),
    ("battle", "battle", _lists),
    ("speed", "speed", _lists),
    ("miles", "miles", list),
    ("played", "played", _lists),
    ("safeties", "safeties", _lists),
    ("coups", "coups", _lists),
    ("rolling", "rolling", list),
    ("limit", "limit", list),
    ("target", "target", _same),
    ("extension_called_by", "extension_called_by", _same),
    ("decision", "decision", lambda d: (d.kind, d.player, d.drawn)),
    ("legal", "", _same),
    ("score", "score", lambda sheet: [dict(line) for line in sheet]),
    ("match_totals", "match_totals", list),
    ("hand_sheets", "hand_sheets", lambda sheets: [[dict(x) for x in sheet] for sheet in sheets]),
    ("winner", "winner", _same),
    ("hand_no", "hand_no", _same),
    ("history", "history", list),
    ("turn_player", "turn", _same),
)
_COMPARED = tuple(attr for _, attr, _ in _FIELDS if attr)


def observe(state: State | View, *, rng: bool = True) -> dict[str, Any]:
    """A state's observable contents as plain, comparable data (:data:`_FIELDS`, and the RNG's state)."""
    view = _view(state)
    obs = {key: copy(getattr(view, attr)) if attr else sorted(view.legal_actions()) for key, attr, copy in _FIELDS}
    if rng:
        obs["rng"] = view.rng_state
    return obs


def same_as_observed(a: View, b: View, *, rng: bool = True) -> bool:
    """Whether ``observe(a)`` and ``observe(b)`` agree on everything but ``legal`` (which observe reads from the
    live state, not from the copy: the caller compares the legal actions it kept), without building either:
    the fields are compared as the two copies hold them. Two full copies (``View(state)``, not ``Before``'s,
    whose history stands for its length); where they differ, :func:`differences` of the two observations
    says how. api_test compares a state before and after each refused action it tries: two observations of
    the whole match (its history, every hand's sheet) copied again only to be found equal."""
    if isinstance(a.history, _Len) or isinstance(b.history, _Len):
        raise ValueError("same_as_observed compares full copies (View(state)), not a Before's")
    for name in _COMPARED:
        if getattr(a, name) != getattr(b, name):
            return False
    return not rng or a.rng_state == b.rng_state


def differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """Where two observations disagree (empty list: identical)."""
    out = []
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            va, vb = a.get(k), b.get(k)
            if k == "rng":
                out.append("rng: the shuffling RNG states differ")
            else:
                out.append(f"{k}: {_short(va)} != {_short(vb)}")
    return out


def _short(v: object, limit: int = 160) -> str:
    s = repr(v)
    return s if len(s) <= limit else s[: limit - 3] + "..."


def replay_history(
    game: Game, seed: int, history: Iterable[tuple[int, int]], observers: Iterable[Observer] = ()
) -> State:
    """A new match from ``seed`` with ``history`` ((player, action), (-1, -1) for a new hand) replayed."""
    from mbrules.engine import State

    st = State.new_match(game, seed, deal_next=False)
    for o in observers:
        st.add_observer(o)
    for p, a in history:
        if p == -1 and a == -1:
            st.next_hand()
        else:
            st.apply(a, p)
    return st
