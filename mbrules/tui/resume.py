"""Saved games: ``mbrules play --human p1 --record game.yaml``, and the same command again continues it.

A save is what ``--record`` writes: one scenario document a hand (the hand cut short by a quit is
recorded with ``hand_over: false``), under a first line naming the ruleset, the player count and
the seed, and a second naming who plays each seat (``# Seats: {"p1": "human", "p2": "heuristic"}``).

A save is read through the scenario reader (:mod:`mbrules.scenario`): a damaged one is refused with
``FILE:LINE:COL: message`` lines, never a traceback. It is continued only by the same match: the
same ruleset, options, player count, seats (people and bots) and seed, else refused naming what
differs. The same ruleset, players and seed deal the same hands, so the match is rebuilt by playing
the recorded steps again on ``State.new_match(seed)`` (draws and declined coup fourré windows are
implicit in a scenario, as in ``mbrules replay``), each hand's deal checked against the file.
Observers (the recorder, the narrator) watch the replayed actions, so the file written at the end
holds the whole match. A refusal leaves the file as it was; nothing here writes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from mbrules.engine import Game, IllegalAction, State
from mbrules.vocab import DRAW, DecisionKind

if TYPE_CHECKING:
    from mbrules.ruleset.diagnostics import DataKey, Diagnostic
    from mbrules.scenario.model import ActionStep, Scenario
    from mbrules.scenario.yamlio import Document

HEADER_PREFIX = "# Recorded by mbrules play --record: "
HEADER = re.compile(r"^# Recorded by mbrules play --record: (\S{1,200}), (\d{1,2}) players, seed (-?\d+);")
SEATS_PREFIX = "# Seats: "
SEED_MIN, SEED_MAX = -(2**63), 2**64 - 1  # play --seed's range
HEAD_BYTES = 64 * 1024  # the two comment lines are read from the file's start
HUMAN = "human"
NEW_FILE = "give another --record file to start a new match"


class ResumeError(Exception):
    """A file that cannot be continued here (a usage error: exit 2); ``lines`` say why, for stderr."""

    def __init__(self, lines: str | Sequence[str]):
        self.lines = [lines] if isinstance(lines, str) else list(lines)
        super().__init__("\n".join(self.lines))


@dataclass(frozen=True)
class SavedMatch:
    """A save, read and validated (not yet played again)."""

    path: Path
    file: str  # as shown in messages
    game: Game  # the save's own ruleset, options and players, compiled
    seed: int
    seats: tuple[str, ...] | None  # per seat in order: 'human' or the bot's name; None in a record without them
    hands: tuple[tuple[Document, Scenario], ...]  # ((Document, Scenario), ...) a hand each, in order


def seat_lineup(game: Game, bots: Sequence[str], humans: Sequence[int]) -> tuple[str, ...]:
    """Who plays each seat: 'human' or the bot's name (``bots`` is once for all or once per seat)."""
    from mbrules.bots import lineup

    names = lineup(list(bots), game.players)
    return tuple(HUMAN if p in humans else names[p] for p in range(game.players))


def seats_comment(game: Game, seats: Sequence[str]) -> str:
    """The save's second line: who plays each seat, as JSON (a bot's name may hold any character)."""
    return SEATS_PREFIX + json.dumps({game.player_names[p]: s for p, s in enumerate(seats)})  # ASCII: one line


def _head(path: Path) -> bytes:
    from mbrules.ruleset import yamlmarks as ym

    return ym.read_bytes(path, HEAD_BYTES)[:HEAD_BYTES]


def is_saved_game(path: Path) -> bool:
    """True when ``path`` is a file ``play --human --record`` wrote (its first two lines say so)."""
    try:
        lines = _head(path).split(b"\n", 2)
    except OSError:
        return False
    return len(lines) > 1 and lines[0].startswith(HEADER_PREFIX.encode()) and lines[1].startswith(SEATS_PREFIX.encode())


def read_save(path: Path) -> SavedMatch | None:
    """The save at ``path``; None when there is no file there yet (a new match). Anything else that is not
    a readable save raises :class:`ResumeError` (the file is left as it was)."""
    from mbrules.ruleset.diagnostics import Diagnostic, display_path
    from mbrules.scenario.replay import check_document
    from mbrules.scenario.yamlio import read_documents

    path = Path(path)
    file = display_path(path)
    if not path.exists() and not path.is_symlink():
        return None
    keep = f"it is left as it was; {NEW_FILE}"
    try:
        head = _head(path)
    except OSError as e:
        raise ResumeError(f"mbrules: cannot read {file}: {e.strerror or e}; {keep}") from None
    first, _, rest = head.partition(b"\n")
    if not first.startswith(HEADER_PREFIX.encode()):
        what = "an empty file" if not head.strip() else "not a game saved by mbrules play --human --record"
        raise ResumeError(
            f"mbrules: --record {file}: {what} (its first line is not "
            f"'{HEADER_PREFIX.strip()} ...'), so there is no match to continue; {keep}"
        )
    try:
        docs = read_documents(path, file)
    except OSError as e:
        raise ResumeError(f"mbrules: cannot read {file}: {e.strerror or e}; {keep}") from None
    problems: list[Diagnostic] = [d for doc in docs for d in doc.errors]
    seed = _header_seed(first.decode("utf-8", "replace"), file, problems)
    seats = _seats(rest.partition(b"\n")[0].decode("utf-8", "replace"), file, problems)
    hands = []
    save_game: Game | None = None
    if not problems:
        for doc in docs:
            game, scn, errors = check_document(doc, path.parent)
            problems += errors
            if game is None or scn is None:  # (its errors say why)
                continue
            if save_game is None:
                save_game = game
            elif (game.ruleset_id, game.ruleset.applied_options, game.players) != (
                save_game.ruleset_id,
                save_game.ruleset.applied_options,
                save_game.players,
            ):
                problems.append(
                    _at(
                        doc,
                        ["ruleset"],
                        f"hand {doc.index} names other rules than hand 1 "
                        f"({_rules_words(game)}; hand 1: {_rules_words(save_game)})",
                    )
                )
            hands.append((doc, scn))
    if not problems and save_game is not None:
        m = HEADER.match(first.decode("utf-8", "replace"))
        if m and (m.group(1), int(m.group(2))) != (save_game.ruleset_id, save_game.players):
            problems.append(
                Diagnostic(
                    file,
                    1,
                    1,
                    f"the first line says {m.group(1)}, {m.group(2)} players; "
                    f"the hands are {save_game.ruleset_id}, {save_game.players} players",
                )
            )
    if problems or save_game is None:
        raise ResumeError([str(d) for d in problems] + [f"mbrules: --record {file} is not a readable save: {keep}"])
    return SavedMatch(path, file, save_game, seed, seats, tuple(hands))


def _header_seed(line: str, file: str, problems: list[Diagnostic]) -> int:
    from mbrules.ruleset.diagnostics import Diagnostic

    m = HEADER.match(line)
    if not m:
        problems.append(
            Diagnostic(
                file,
                1,
                len(HEADER_PREFIX) + 1,
                "the first line must say 'RULESET, N players, seed S;' after '" + HEADER_PREFIX.strip() + "'",
            )
        )
        return 0
    digits = m.group(3).lstrip("-")
    seed = int(m.group(3)) if len(digits) <= 20 else None
    if seed is None or not SEED_MIN <= seed <= SEED_MAX:
        problems.append(
            Diagnostic(file, 1, m.start(3) + 1, "the seed is not a 64-bit integer (from -2**63 to 2**64-1)")
        )
        return 0
    return seed


def _seats(line: str, file: str, problems: list[Diagnostic]) -> tuple[str, ...] | None:
    from mbrules.ruleset.diagnostics import Diagnostic

    if not line.startswith(SEATS_PREFIX):
        return None  # a record of a headless play (or of an older mbrules): the caller says so
    text = line[len(SEATS_PREFIX) :]
    try:
        seats = json.loads(text)
    except (ValueError, RecursionError):
        seats = None
    if (
        not isinstance(seats, dict)
        or not 1 <= len(seats) <= 99
        or list(seats) != [f"p{i + 1}" for i in range(len(seats))]
        or not all(isinstance(v, str) and 0 < len(v) <= 2000 for v in seats.values())
    ):
        problems.append(
            Diagnostic(
                file,
                2,
                len(SEATS_PREFIX) + 1,
                "the seats must be one JSON mapping from p1, p2, ... in order to 'human' or a bot's name",
            )
        )
        return None
    return tuple(seats.values())


def _at(doc: Document, path: Sequence[DataKey], message: str) -> Diagnostic:
    from mbrules.ruleset.diagnostics import diag_at

    assert doc.locs is not None  # a document read from a file has its positions
    return diag_at(doc.locs, path, message)


def _rules_words(game: Game) -> str:
    opts = ", ".join(game.ruleset.applied_options) or "no options"
    return f"{game.ruleset_id} with {opts}, {game.players} players"


def check_same_match(saved: SavedMatch, game: Game, seed: int, seats: Sequence[str]) -> None:
    """Refuse (ResumeError) a save that records another match than this command's, naming every difference."""
    diffs = []
    sg = saved.game
    if sg.ruleset_id != game.ruleset_id:
        diffs.append(f"ruleset {sg.ruleset_id} (this command: {game.ruleset_id})")
    elif tuple(sg.ruleset.applied_options) != tuple(game.ruleset.applied_options):  # (another ruleset has its own)
        diffs.append(
            f"options {', '.join(sg.ruleset.applied_options) or 'none'} "
            f"(this command: {', '.join(game.ruleset.applied_options) or 'none'})"
        )
    if sg.players != game.players:
        diffs.append(f"{sg.players} players (this command: {game.players})")
    if saved.seats is None:
        diffs.append(
            "no seats: it was written by a play without --human (this command: " + _seats_words(game, seats) + ")"
        )
    elif tuple(saved.seats) != tuple(seats) and sg.players == game.players:
        diffs.append(f"seats {_seats_words(game, saved.seats)} (this command: {_seats_words(game, seats)})")
    elif tuple(saved.seats) != tuple(seats):
        diffs.append(f"seats {_seats_words(sg, saved.seats)}")
    if saved.seed != seed:
        diffs.append(f"seed {saved.seed} (this command: {seed})")
    if diffs:
        raise ResumeError(
            [
                f"mbrules: --record {saved.file} saves another match: " + "; ".join(diffs) + ".",
                f"mbrules: to continue it, give the same ruleset, options, players, --human, --bot and "
                f"seed; {NEW_FILE}. {saved.file} is left as it was.",
            ]
        )


def _seats_words(game: Game, seats: Sequence[str]) -> str:
    return ", ".join(f"{game.player_names[p]} {s}" for p, s in enumerate(seats) if p < game.players)


def replay_save(saved: SavedMatch, state: State) -> int:
    """Play the save's hands on ``state`` (a new match of the same rules and seed); returns the hands finished.

    The file is read by the scenario format's own reader (:mod:`mbrules.scenario`: the documents, the
    model, each setup's :func:`~mbrules.scenario.format.read_setup` and each step's
    :func:`~mbrules.scenario.format.step_action`), never as raw YAML.

    Leaves ``state`` where the file stopped: at the end of a finished hand (the caller deals the next)
    or inside the hand that was cut short. A step the engine refuses, or a deal other than the file's,
    raises :class:`ResumeError` at its FILE:LINE:COL.
    """
    from mbrules.scenario.format import deal_of, read_setup

    g = state.game
    keep = (
        f"mbrules: --record {saved.file} does not follow from its own moves (was it edited?): it is left "
        f"as it was; {NEW_FILE}"
    )
    finished = 0
    for k, (doc, scn) in enumerate(saved.hands):
        if k:
            if not state.hand_over or state.is_terminal():
                raise ResumeError([str(_at(doc, [], f"hand {k + 1} follows a hand that is not over")), keep])
            state.next_hand()
        setup = scn.setup
        listed = read_setup(g, setup) if setup is not None else None  # the scenario format reads it back
        dealt = deal_of(state.snapshot())
        if listed is None or (listed.hands, listed.draw_pile, listed.turn) != (
            dealt.hands,
            dealt.draw_pile,
            dealt.turn,
        ):
            raise ResumeError(
                [
                    str(
                        _at(
                            doc,
                            ["setup"] if setup is not None else [],
                            f"hand {k + 1} was dealt other cards than this file lists",
                        )
                    ),
                    keep,
                ]
            )
        over = None
        for i, step in enumerate(scn.steps):
            if hasattr(step, "expect"):
                if "hand_over" in step.expect.model_fields_set:
                    over = (i, step.expect.hand_over)
                continue
            _play_step(g, state, doc, k, i, step, keep)
        if over is not None and over[1] != state.hand_over:
            said = "over" if over[1] else "not over"
            raise ResumeError(
                [
                    str(
                        _at(
                            doc,
                            ["steps", over[0], "expect", "hand_over"],
                            f"hand {k + 1} is said to be {said}, and its moves say otherwise",
                        )
                    ),
                    keep,
                ]
            )
        if state.hand_over:
            finished += 1
    return finished


def _play_step(g: Game, state: State, doc: Document, k: int, i: int, step: ActionStep, keep: str) -> None:
    from mbrules.scenario.format import step_action

    where: list[DataKey] = ["steps", i]
    if step.rejected is not None:
        raise ResumeError([str(_at(doc, where + ["rejected"], "a save holds only moves that were played")), keep])
    p, action = step_action(g, step)
    for _ in range(1000):  # the implicit draws and declines before this step (bounded: a window per player)
        legal = state.legal_actions()
        if len(legal) == 1 and legal[0].op == DRAW:
            state.apply(legal[0])
        elif (
            (
                state.decision.kind == DecisionKind.COUP_FOURRE
                and not (step.coup_fourre is not None and state.current_player == p)
            )
            or (
                state.decision.kind == DecisionKind.FAST_PLAY  # option fast-play-remedy
                and not (step.fast_play is not None and state.current_player == p)
            )
        ) and g.decline_action in legal:
            state.apply(g.decline_action)
        else:
            break
    try:
        state.apply(action, player=p)
    except IllegalAction as e:
        raise ResumeError(
            [str(_at(doc, where, f"hand {k + 1}, {step.player} {action}: refused ({e.code}): {e.message}")), keep]
        ) from None


# -- kept for callers of the first version ------------------------------------------------------------------
def recorded_match(path: Path) -> tuple[str, int, int] | None:
    """(ruleset id, players, seed) a ``--record`` file's first line names, or None for any other file."""
    try:
        first = _head(Path(path)).partition(b"\n")[0].decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    m = HEADER.match(first)
    if not m or len(m.group(3).lstrip("-")) > 20:
        return None
    return m.group(1), int(m.group(2)), int(m.group(3))


def replay_record(state: State, path: Path) -> int:
    """Read the save at ``path`` and play it on ``state`` (:func:`read_save`, :func:`replay_save`)."""
    saved = read_save(Path(path))
    if saved is None:
        raise ResumeError(f"mbrules: {path}: no such file")
    return replay_save(saved, state)


__all__ = [
    "ResumeError",
    "SavedMatch",
    "check_same_match",
    "is_saved_game",
    "read_save",
    "recorded_match",
    "replay_record",
    "replay_save",
    "seat_lineup",
    "seats_comment",
]
