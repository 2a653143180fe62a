"""Comparing states: a state's observable contents as plain data, and where two disagree.

Used to check that a clone is independent, that a refused action leaves the state as it was,
and that replaying a history gives the same state (:func:`replay_history`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from .view import View, _Len, _view

if TYPE_CHECKING:
    from mbrules.engine import Game, Observer, State

__all__ = ["differences", "observe", "replay_history", "same_as_observed"]


def observe(state: State | View, *, rng: bool = True) -> dict[str, Any]:
    """A state's observable contents as plain, comparable data."""
    state = _view(state)
    d = state.decision
    obs: dict[str, Any] = {
        "hands": [list(h) for h in state.hands],
        "draw": list(state.draw),
        "discard": list(state.discard),
        "battle": [list(p) for p in state.battle],
        "speed": [list(p) for p in state.speed],
        "miles": list(state.miles),
        "played": [list(p) for p in state.played],
        "safeties": [list(p) for p in state.safeties],
        "coups": [list(p) for p in state.coups],
        "rolling": list(state.rolling),
        "limit": list(state.limit),
        "target": state.target,
        "extension_called_by": state.extension_called_by,
        "decision": (d.kind, d.player, d.drawn),
        "legal": sorted(state.legal_actions()),
        "score": state.score_sheet(),
        "match_totals": list(state.match_totals),
        "hand_sheets": [[dict(x) for x in sheet] for sheet in state.hand_sheets],
        "winner": state.winner,
        "hand_no": state.hand_no,
        "history": list(state.history),
        "turn_player": state.turn_player(),
    }
    if rng:
        obs["rng"] = state.rng_state
    return obs


# what observe() reads of a View, but for "legal" (read from the live state) and "rng" (optional): each compared as
# the View holds it, which is what observe() copies it into (a list of lists stays one, a dict stays one)
_FIELDS = (
    "hands",
    "draw",
    "discard",
    "battle",
    "speed",
    "miles",
    "played",
    "safeties",
    "coups",
    "rolling",
    "limit",
    "target",
    "extension_called_by",
    "score",
    "match_totals",
    "hand_sheets",
    "winner",
    "hand_no",
    "history",
    "turn",
)


def same_as_observed(a: View, b: View, *, rng: bool = True) -> bool:
    """Whether ``observe(a)`` and ``observe(b)`` agree on everything but ``legal`` (which observe reads from the
    live state, not from the copy: the caller compares the legal actions it kept), without building either:
    the fields are compared as the two copies hold them. Two full copies (``View(state)``, not ``Before``'s,
    whose history stands for its length); where they differ, :func:`differences` of the two observations
    says how. api_test compares a state before and after each refused action it tries: two observations of
    the whole match (its history, every hand's sheet) copied again only to be found equal."""
    if isinstance(a.history, _Len) or isinstance(b.history, _Len):
        raise ValueError("same_as_observed compares full copies (View(state)), not a Before's")
    da, db = a.decision, b.decision
    if (da.kind, da.player, da.drawn) != (db.kind, db.player, db.drawn):
        return False
    for name in _FIELDS:
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
