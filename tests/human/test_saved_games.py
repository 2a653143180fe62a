"""Saved games (``mbrules play --human p1 --record FILE``): continued by the same command, or refused.

A save is never overwritten by a new match: the same command (full screen or ``--plain``) goes on
where it stopped; a file that is not a readable save, a damaged save, or the save of another match
(ruleset, options, players, seats, seed) is refused with exit 2 and a sentence (``FILE:LINE:COL``
where the file is at fault), and the file is left byte for byte as it was.

The command runs in process (Typer's runner) with the prompt loop's input scripted: ``--human``
needs a terminal, which the runner is not, so the terminal check is told it has one; everything
else is the real command. The full-screen resume in a real pseudo-terminal is in
``test_full_screen_in_a_terminal.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mbrules.tui
import mbrules.tui.session
from mbrules.cli.app import app

BASE = ["play", "--human", "p1", "--plain", "--players", "2", "--seed", "41"]
LOCATED = re.compile(r"^\S[^:\n]*:\d+:\d+: \S", re.M)


@pytest.fixture
def play(monkeypatch):
    """``play(args, lines)``: the real command with the prompt loop fed ``lines`` (then end of input: a quit)."""
    return _player(monkeypatch)


def _player(monkeypatch):
    """:func:`play` with the given monkeypatch (a module fixture has its own)."""
    monkeypatch.setattr(mbrules.tui, "no_terminal", lambda: False)

    def run(args: list[str], lines: list[str] = ()):
        fed = list(lines)

        def reader(console):
            def read(prompt: str) -> str:
                if not fed:
                    raise EOFError
                return fed.pop(0)

            return read

        monkeypatch.setattr(mbrules.tui.session, "default_input", reader)
        result = CliRunner().invoke(app, list(args))
        assert "Traceback" not in result.output, result.output
        assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), repr(
            result.exception
        )
        return result

    return run


def steps_of(path: Path, player: str = "p1") -> list[str]:
    return [
        line.strip()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip().startswith(f"- {{player: {player},")
    ]


@pytest.fixture(scope="module")
def saved_once(tmp_path_factory) -> bytes:
    """The bytes of :func:`save`'s file, made once a module: the command's run was most of the CPU of each of
    the 20-odd tests that damage or resume a copy (issue 46 point 7). The folder holds the save alone."""
    folder = tmp_path_factory.mktemp("saved")
    path = folder / "game.yaml"
    with pytest.MonkeyPatch.context() as mp:
        r = _player(mp)([*BASE, "--record", str(path)], ["1", "1", "1"])
    assert r.exit_code == 0, r.output
    assert len(steps_of(path)) == 3
    assert [p.name for p in folder.iterdir()] == ["game.yaml"]
    return path.read_bytes()


@pytest.fixture
def save(tmp_path, saved_once) -> Path:
    """A match of 2 players left after p1's third move (end of input), recorded with --plain: a copy of the
    module's (``saved_once``) in this test's folder."""
    path = tmp_path / "game.yaml"
    path.write_bytes(saved_once)
    return path


def test_the_same_plain_command_continues_a_save_where_it_stopped(save, play):
    """Issue 33 item 1: --plain used to start over and overwrite the save. The same command goes on from
    the save: the moves already made stay, the new ones follow them."""
    before = steps_of(save)
    r = play([*BASE, "--record", str(save)], ["1", "1"])
    assert r.exit_code == 0, r.output
    # (a path longer than the 80 columns is folded inside itself: compare without the white space)
    assert "".join(f"Resumed from {save}: the match goes on in hand 1.".split()) in "".join(r.output.split())
    after = steps_of(save)
    assert after[:3] == before and len(after) == 5


def test_quitting_a_resumed_save_at_once_leaves_it_as_it_was(save, play):
    """A resume that plays nothing writes the same match back: never a save of 0 moves."""
    kept = save.read_bytes()
    r = play([*BASE, "--record", str(save)], [])
    assert r.exit_code == 0, r.output
    assert save.read_bytes() == kept


def test_a_headless_play_refuses_to_overwrite_a_saved_game(save, play):
    """A new match between bots is not written over a person's save."""
    kept = save.read_bytes()
    r = play(["play", "--players", "2", "--seed", "41", "--hands", "1", "--record", str(save)])
    assert r.exit_code == 2
    assert "holds a game saved by play --human" in r.output
    assert save.read_bytes() == kept


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (["--option", "hazard-on-hazard"], "options none (this command: hazard-on-hazard)"),
        (["--ruleset", "wikipedia"], "ruleset winning-moves (this command: wikipedia)"),
        (["--seed", "7"], "seed 41 (this command: 7)"),
        (["--players", "3"], "2 players (this command: 3)"),
        (["--bot", "random"], "seats p1 human, p2 heuristic (this command: p1 human, p2 random)"),
        (["--human", "p2"], "(this command: p1 human, p2 human)"),
    ],
    ids=["options", "ruleset", "seed", "players", "bots", "seats"],
)
def test_a_save_of_another_match_is_refused_naming_what_differs(save, play, flags, named):
    """Issue 33 item 3: ruleset, options, players, seats and seed must all match the save (the same
    command continues it); else exit 2 naming what differs, and the save is left as it was."""
    kept = save.read_bytes()
    args = [*BASE, "--record", str(save)]
    for flag, value in zip(flags[::2], flags[1::2]):
        if flag in args and flag != "--human":
            args[args.index(flag) + 1] = value
        else:
            args += [flag, value]
    r = play(args, ["1"])
    assert r.exit_code == 2, r.output
    assert named in " ".join(r.output.split())
    assert save.read_bytes() == kept


def test_a_save_made_with_an_option_is_refused_without_it(tmp_path, play):
    """The issue's case: a save made with --option hazard-on-hazard used to go on without it (other rules)
    and be rewritten with ``options: []``."""
    path = tmp_path / "game.yaml"
    assert play([*BASE, "--option", "hazard-on-hazard", "--record", str(path)], ["1"]).exit_code == 0
    kept = path.read_bytes()
    r = play([*BASE, "--record", str(path)], ["1"])
    assert r.exit_code == 2
    assert "options hazard-on-hazard (this command: none)" in " ".join(r.output.split())
    assert path.read_bytes() == kept
    r = play([*BASE, "--option", "hazard-on-hazard", "--record", str(path)], ["1"])
    assert r.exit_code == 0 and 'options: ["hazard-on-hazard"]' in path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "an empty file"),
        (b"my notes, not a game\n", "not a game saved by mbrules play --human --record"),
        (b"scenario: x\nsource: y\n", "not a game saved by mbrules play --human --record"),
    ],
    ids=["empty", "text", "a scenario"],
)
def test_a_file_that_is_not_a_save_is_refused_never_replaced(tmp_path, play, content, words):
    """Issue 33 item 2: --record FILE over a file that is not a save: exit 2 and a sentence; the file
    is left as it was (it used to be replaced by the new match)."""
    path = tmp_path / "notes.yaml"
    path.write_bytes(content)
    r = play([*BASE, "--record", str(path)], ["1"])
    assert r.exit_code == 2, r.output
    assert words in " ".join(r.output.split())
    assert path.read_bytes() == content


def _damage(path: Path, old: str, new: str, count: int = 1) -> bytes:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return path.read_bytes()


DAMAGED = {  # issue 33 items 2 and 4: what was done to a good save
    "a Latin-1 byte in a comment": None,
    "a step with an unknown card": ("play: ", "play: zzz_"),
    "a document that is a list": ("scenario: ", "- a list\n- of words\n---\nscenario: "),
    "a 5000-digit seed": ("seed 41;", "seed " + "9" * 5000 + ";"),
    "a step without player": ("{player: p1, ", "{"),
    "a step that is a string": ("  - {player: p1, ", "  - 'player p1' # {"),
    "an expect that is a number": ("  - expect:\n", "  - expect: 5\n  - expect:\n"),
    "on: yes": ("{player: p1, play: ", "{player: p1, on: yes, play: "),
    "an unknown key in a step": ("{player: p1, play: ", "{player: p1, x: 1, play: "),
    "a step the rules refuse": ("{player: p1, play: roll,", "{player: p1, play: d200,"),
    "seats that are not JSON": ('# Seats: {"p1"', '# Seats: [[[[["p1"'),
}


@pytest.mark.parametrize("damage", list(DAMAGED), ids=list(DAMAGED))
def test_a_damaged_save_is_refused_with_file_line_col_never_a_traceback(save, play, damage):
    """Issue 33 items 2 and 4: a damaged save is read through the scenario reader, which reports
    FILE:LINE:COL (exit 2); it used to end in a traceback, or not be recognised and be overwritten."""
    if damage == "a Latin-1 byte in a comment":
        raw = save.read_bytes().replace(b"\nscenario:", "\n# caf\xe9\nscenario:".encode("latin-1"), 1)
        save.write_bytes(raw)
    else:
        raw = _damage(save, *DAMAGED[damage])
    r = play([*BASE, "--record", str(save)], ["1"])
    assert r.exit_code == 2, r.output
    assert LOCATED.search(r.output), r.output
    assert "is left as it was" in r.output
    assert save.read_bytes() == raw


@pytest.mark.parametrize("seed", [2**64, -(2**63) - 1], ids=["2**64", "-2**63-1"])
def test_a_save_whose_seed_is_past_64_bits_is_refused_as_not_a_64_bit_integer(save, play, seed):
    """A seed of at most 20 digits past play --seed's range (-2**63 to 2**64-1) is no seed of a match: refused
    at its place in the first line, the file left as it was (the 5000-digit seed is refused by its length
    before its value is read: a save's seed range check removed was caught by no test, round 13)."""
    raw = _damage(save, "seed 41;", f"seed {seed};")
    r = play([*BASE, "--record", str(save)], ["1"])
    assert r.exit_code == 2, r.output
    assert "the seed is not a 64-bit integer (from -2**63 to 2**64-1)" in " ".join(r.output.split()), r.output
    assert LOCATED.search(r.output) and "is left as it was" in r.output, r.output
    assert save.read_bytes() == raw


def test_a_save_whose_hand_follows_a_hand_that_is_not_over_is_refused(save, play):
    """A save's hands follow one another only when the hand before is over: a second hand after p1's third
    move of the first (the first hand's document written again) is refused at its place, the file left as it
    was (the refusal removed was caught by no test, round 13)."""
    text = save.read_text(encoding="utf-8")
    raw = (text.rstrip("\n") + "\n---\n" + text[text.index("scenario: ") :]).encode("utf-8")
    save.write_bytes(raw)
    r = play([*BASE, "--record", str(save)], ["1"])
    assert r.exit_code == 2, r.output
    assert "hand 2 follows a hand that is not over" in " ".join(r.output.split()), r.output
    assert LOCATED.search(r.output) and "is left as it was" in r.output, r.output
    assert save.read_bytes() == raw


@pytest.fixture(scope="module")
def one_hand_once(tmp_path_factory) -> tuple[bytes, str]:
    """The save of a match stopped by ``--hands 1`` once its first hand is over (p1 typing 1 at every prompt,
    against the random bot), made once a module, and what the command printed: the two tests that go on from
    it played the same hand each (issue 46 point 7). The bytes do not depend on the folder (``saved_once``)."""
    path = tmp_path_factory.mktemp("one-hand") / "game.yaml"
    with pytest.MonkeyPatch.context() as mp:
        r = _player(mp)([*BASE, "--hands", "1", "--bot", "random", "--record", str(path)], ["1"] * 300)
    assert r.exit_code == 0, r.output
    return path.read_bytes(), r.output


def test_a_save_of_a_finished_match_is_refused(tmp_path, play, one_hand_once):
    path = tmp_path / "game.yaml"
    path.write_bytes(one_hand_once[0])
    kept = path.read_bytes()
    r = play([*BASE, "--hands", "1", "--bot", "random", "--record", str(path)], ["1"])
    assert r.exit_code == 2
    assert "already holds 1 finished hands" in r.output
    assert path.read_bytes() == kept


@pytest.mark.parametrize("damage", ["a 5000-digit seed", "a step that is a string", "on: yes"])
def test_the_full_screen_seat_refuses_a_damaged_save_before_the_game_starts(save, play, damage):
    """The full-screen seat reads a save the same way (it used to end in a traceback): exit 2,
    FILE:LINE:COL, before any screen is drawn."""
    raw = _damage(save, *DAMAGED[damage])
    r = play([a for a in BASE if a != "--plain"] + ["--record", str(save)])
    assert r.exit_code == 2, r.output
    assert LOCATED.search(r.output), r.output
    assert save.read_bytes() == raw


def test_a_save_that_stopped_between_hands_goes_on_with_the_next_hand(tmp_path, play, one_hand_once):
    """A save whose last hand is over (here stopped by --hands 1) continues with the next hand's deal."""
    path = tmp_path / "game.yaml"
    args = [*BASE, "--bot", "random", "--record", str(path)]
    saved, output = one_hand_once  # [*args, "--hands", "1"] with p1 typing 1 at every prompt
    assert "the same command with a larger --hands continues the match" in " ".join(output.split())
    path.write_bytes(saved)
    first = path.read_text(encoding="utf-8")
    r = play([*args, "--hands", "2"], ["1"] * 3)
    assert r.exit_code == 0, r.output
    assert "the match goes on in hand 2" in " ".join(r.output.split())
    again = path.read_text(encoding="utf-8")
    hand_1 = [line for line in first.splitlines() if line.startswith("  - {")]
    assert again.count("\nscenario: ") == 2
    assert [line for line in again.split("\n---\n")[0].splitlines() if line.startswith("  - {")] == hand_1
