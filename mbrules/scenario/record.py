"""Recording a match as scenario YAML (``mbrules play --record``); steps are written by :mod:`.format`.

One scenario document a hand; several hands make a multi-document YAML stream (documents
separated by ``---``), which ``mbrules replay`` runs document by document (our addition to the
spec, which describes one scenario a file). Each hand's setup lists every hand and the whole
draw pile explicitly, so no shuffle is involved; ``turn`` is the hand's first player and
``match`` the totals before the hand. The steps are the actions: the draw is implicit in a
turn's action and asserted with ``draw: CARD``; coup fourré declines are implicit. After each
hand an ``expect`` states whether it is over, its score sheet, the running totals and the winner.
The setup, the steps and the expect are written by :mod:`.format`, which reads them back too.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Sequence, TypedDict

from mbrules.engine import Action, Observer, State, Transition
from mbrules.vocab import COUP_FOURRE, DECLINE, DISCARD, DRAW, FAST_PLAY, MULLIGAN, PLAY

from .format import Deal, HandEnd, deal_of, expect_lines, hand_end, setup_lines, step_text, winner_name
from .format import quoted as _q


def _ref(ref: str, bundled: Sequence[str], out_dir: Path | None) -> str:
    """A bundled id stays; a path is written relative to the scenario file's folder (else absolute)."""
    if ref in bundled:
        return ref
    p = Path(ref).absolute()  # as the loader reads it: no '~' expansion
    if out_dir is not None:
        try:
            return os.path.relpath(p, Path(out_dir).absolute())
        except ValueError:  # another drive (Windows)
            return str(p)
    return str(p)


class HandLog(TypedDict):
    """What a :class:`Recorder` keeps of one hand."""

    hand_no: int
    deal: Deal  # taken at the hand's start
    actions: list[tuple[int, Action]]  # (player, action), in the order taken
    drawn: dict[int, int]  # an action's place in ``actions`` -> the card its actor drew, or -1
    end: HandEnd | None  # once the hand is over


class Recorder(Observer):
    """Watches a match (``State.add_observer``) and keeps what a scenario file needs of each hand.

    A hand's deal comes from the snapshot taken at its start (the recorder is entitled to hidden
    cards: the file must set the hand up exactly); then its actions and, when it ends, its sheet
    and the running totals. Add it before the first hand's first action.
    """

    def __init__(self) -> None:
        self.hands: list[HandLog] = []
        self.winner: str | None = None  # the outcome's result once the match is over

    def hand_start(self, st: State) -> None:
        snap = st.snapshot()
        self.hands.append({"hand_no": snap.hand_no, "deal": deal_of(snap), "actions": [], "drawn": {}, "end": None})

    def after_action(self, st: State, player: int, action: Action) -> None:
        self.hands[-1]["actions"].append((player, action))

    def transition(self, st: State, t: Transition) -> None:
        # the card the action's actor drew, as the engine says, by the action's place in the hand (a move
        # taken back and played again overwrites its place)
        hand = self.hands[-1]
        hand["drawn"][len(hand["actions"]) - 1] = t.drawn

    def hand_over(self, st: State) -> None:
        self.hands[-1]["end"] = hand_end(st.snapshot(), winner=False)

    def match_over(self, st: State) -> None:
        outcome = st.outcome
        if outcome is not None:  # it is: the match is over
            self.winner = outcome.result


def record_match(
    recorder: Recorder,
    state: State,
    ruleset_ref: str,
    options: Sequence[str],
    players: int,
    seed: int | None,
    out_dir: str | Path | None = None,
    comments: Sequence[str] = (),
) -> str:
    """The match ``recorder`` watched (``state`` is where it stands now) as scenario YAML.

    ``ruleset_ref`` and ``options`` are as the user named them (bundled ids or paths); paths are
    written relative to ``out_dir`` (the folder the file goes to) or, without it, absolute.
    ``seed`` None: withheld (a match still in play, whose seed deals the hands to come).
    ``comments`` (lines starting with '# ') follow the first document's first line (a saved game's
    seats: :mod:`mbrules.tui.resume`).
    """
    from mbrules.ruleset import bundled_option_ids, bundled_ruleset_ids

    g = state.game
    out = Path(out_dir) if out_dir is not None else None
    rs_ref = _ref(str(ruleset_ref), bundled_ruleset_ids(), out)
    opts = [_ref(str(o), bundled_option_ids(), out) for o in options]
    n = len(recorder.hands)
    seeded = f"seed {seed}" if seed is not None else "seed withheld until the match is over"
    docs = []
    for k, hand in enumerate(recorder.hands):
        last = k + 1 == n
        title = f"Recorded match ({g.ruleset_id}, {players} players, {seeded}): hand {k + 1} of {n}"
        lines = [
            f"# Recorded by mbrules play --record: {g.ruleset_id}, {players} players, {seeded}; hand {k + 1} of {n}.",
        ]
        if k == 0:
            lines += [c for c in comments if c.startswith("# ") and "\n" not in c]
        if k == 0 and n > 1:
            lines.append("# One YAML document a hand, separated by '---': mbrules replay runs each as a scenario.")
        lines += [
            f"scenario: {_q(title)}",
            "source: recorded",
            f"ruleset: {_q(rs_ref)}",
            "options: [" + ", ".join(_q(o) for o in opts) + "]",
            f"players: {players}",
        ]
        deal = hand["deal"]  # with the hands played before it where the match's length counts them
        lines += setup_lines(g, deal)
        lines.append("steps:")
        drawn: dict[int, int] = {}
        prev = -1  # the previous action's operation
        for i, (p, a) in enumerate(hand["actions"]):
            got = hand["drawn"].get(i, -1)
            op, ends_mulligan, prev = a.op, prev == MULLIGAN, a.op
            if op == DRAW and not a.from_discard:
                if got >= 0 and not g.play_then_draw and not ends_mulligan:
                    drawn[p] = got  # asserted on the turn's play (play then draw, a mulligan's end: implicit)
                continue
            if op == DECLINE:
                continue  # a window the next step does not use is declined
            seen = None  # the card this step asserts was drawn
            if op in (COUP_FOURRE, FAST_PLAY) and got >= 0:  # a replacement draw
                seen = got
            if op in (PLAY, DISCARD) and p in drawn:
                seen = drawn.pop(p)
            step = step_text(g, p, a, draw=seen)
            lines.append(f"  - {{{step}}}")
        end = hand["end"] or hand_end(state.snapshot(), winner=False)  # cut short: the sheet as if it ended now
        if last:
            end = replace(end, winner=winner_name(state.snapshot()))
        lines += expect_lines(g, end)
        docs.append("\n".join(lines) + "\n")
    return "---\n".join(docs)


def write_scenario_file(path: str | Path, text: str, inputs: Sequence[str | Path] = (), flag: str = "output") -> None:
    """Write ``text`` to ``path`` whole or not at all (:func:`mbrules.safe_output.write_file_atomic`).

    Raises :class:`mbrules.safe_output.OutputPathError` when ``path`` is a link, folder, FIFO, socket
    or device, or one of ``inputs`` (the files the command read); OSError when the write fails.
    """
    from mbrules.safe_output import write_file_atomic

    write_file_atomic(path, text, inputs, flag)
