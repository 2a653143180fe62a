"""Resume a match from its ``--record`` file: ``mbrules play --human p1 --record game.yaml`` again.

A recorded match (``mbrules play --record``) is one scenario document a hand; a hand cut short by
a quit is recorded with ``hand_over: false``. The same ruleset, players and seed deal the same
hands, so the match is rebuilt by playing the recorded steps again on ``State.new_match(seed)``
(draws and declined coup fourré windows are implicit in a scenario, as in ``mbrules replay``),
checking each hand's deal against the file. Observers (the recorder, the narrator) watch the
replayed actions, so the file written at the end holds the whole match.
"""
from __future__ import annotations

import re
from pathlib import Path

import yaml

from mbrules.engine import Game, IllegalAction, State
from mbrules.vocab import COUP_FOURRE, DECLINE, DRAW, DecisionKind

HEADER = re.compile(r"^# Recorded by mbrules play --record: (\S+), (\d+) players, seed (-?\d+);")


class ResumeError(Exception):
    """The file is a recording that cannot be continued here (a usage error: exit 2)."""


def recorded_match(path: Path) -> tuple[str, int, int] | None:
    """(ruleset id, players, seed) of a file ``--record`` wrote, or None for any other file (or none)."""
    try:
        with open(path, encoding="utf-8") as f:
            first = f.readline()
    except (OSError, UnicodeDecodeError):
        return None
    m = HEADER.match(first)
    return (m.group(1), int(m.group(2)), int(m.group(3))) if m else None


def _action(game: Game, step: dict) -> str:
    if "play" in step:
        on = step.get("on", step.get(True))  # YAML 1.1 (PyYAML) reads the key 'on' as true
        return f"play {step['play']}" + (f" on {on}" if on else "")
    if "discard" in step:
        return f"discard {step['discard']}"
    if "coup_fourre" in step:
        return f"coup-fourre {step['coup_fourre']}"
    if "fast_play" in step:
        return f"fast-play {step['fast_play']}"
    if "extension" in step:
        return "extend" if step["extension"] else "stop"
    raise ResumeError(f"a step the recorder does not write: {step}")


def replay_record(state: State, path: Path) -> int:
    """Play the file's hands on ``state`` (a new match of the same seed); returns the hands finished.

    Leaves ``state`` where the file stopped: at the end of a finished hand (the caller deals the
    next) or inside the hand that was cut short.
    """
    g = state.game
    try:
        docs = [d for d in yaml.safe_load_all(Path(path).read_text(encoding="utf-8")) if d]
    except (OSError, yaml.YAMLError) as e:
        raise ResumeError(f"cannot read {path}: {e}") from None
    finished = 0
    for k, doc in enumerate(docs):
        if k:
            state.next_hand()
        snap = state.snapshot()
        hands = (doc.get("setup") or {}).get("hands") or {}
        dealt = {g.player_names[p]: [g.card_ids[c] for c in h] for p, h in enumerate(snap.hands)}
        if {p: list(v) for p, v in hands.items()} != dealt:
            raise ResumeError(f"{path} is not this match: hand {k + 1} was dealt other cards "
                              "(another ruleset, options, players or seed?)")
        over = False
        for step in doc.get("steps") or []:
            if "expect" in step:
                over = bool(step["expect"].get("hand_over"))
                continue
            p = g.player_names.index(step["player"])
            text = _action(g, step)
            for _ in range(1000):  # the implicit draws and declines before this step
                legal = state.legal_actions()
                if len(legal) == 1 and legal[0].op == DRAW:
                    state.apply(legal[0])
                elif (state.decision.kind in (DecisionKind.COUP_FOURRE, DecisionKind.FAST_PLAY)
                      and not (text.startswith(("coup-fourre", "fast-play")) and state.current_player == p)
                      and any(a.op == DECLINE for a in legal)):
                    state.apply(g.decline_action)
                else:
                    break
            try:
                state.apply(text, player=p)
            except IllegalAction as e:
                raise ResumeError(f"{path}: hand {k + 1}, {step['player']} {text}: refused ({e.code})") from None
        if over:
            finished += 1
    return finished


__all__ = ["ResumeError", "recorded_match", "replay_record"]
