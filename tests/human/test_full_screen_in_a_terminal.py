"""The real ``mbrules play --human`` (the full-screen game) in a pseudo-terminal of 80×24, keys alone.

A person's keys only: '1' plays the first listed move (and answers yes to a coup fourré or an
extension prompt) until the score sheet shows, then Enter leaves. The program must end by
itself with exit 0, draw on the alternate screen (and leave it), and say the hand was played.
"""

from __future__ import annotations

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("textual")

from human_driver import MBRULES, plain  # noqa: E402

pytestmark = pytest.mark.slow


def spawn_full_screen(args, rows=24, cols=80):
    import os

    env = dict(os.environ, TERM="xterm-256color")
    env.pop("NO_COLOR", None)
    return pexpect.spawn(MBRULES, args, encoding="utf-8", dimensions=(rows, cols), timeout=30, env=env)


def play_then_quit(args, moves: int, first: str = "your move") -> int:
    """The full-screen game: wait for ``first``, press '1' ``moves`` times, then q and y; the exit code."""
    child = spawn_full_screen(args)
    try:
        child.expect(first)
        if first != "your move":
            child.expect("your move")
        for _ in range(moves):
            child.send("1")
            child.expect([pexpect.TIMEOUT], timeout=0.5)
        child.send("q")
        child.expect("Quit this match")
        child.send("y")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    return child.exitstatus


@pytest.mark.long
def test_a_whole_hand_is_played_with_keys_alone_at_80x24():
    child = spawn_full_screen(
        ["play", "--human", "p1", "--ruleset", "winning-moves", "--players", "2", "--seed", "41", "--hands", "1"]
    )
    seen = ""
    try:
        child.expect("your move")  # the table is up
        seen += child.before + child.after
        for _ in range(400):
            child.send("1")
            # the next "your move" is the table redrawn for the next key; a prompt without it (a coup
            # fourré, an extension) is answered by the next '1' after half a second
            i = child.expect([r"Score sheet", r"your move", pexpect.TIMEOUT], timeout=0.5)
            seen += child.before if isinstance(child.before, str) else ""
            if i == 0:
                break
        else:
            pytest.fail("the score sheet never showed after 400 key presses")
        child.expect(r"Enter: leave")
        child.send("\r")
        child.expect(pexpect.EOF)
        seen += child.before
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, plain(seen)[-2000:]
    assert "\x1b[?1049h" in seen and "\x1b[?1049l" in seen  # into the alternate screen and out again
    after = " ".join(plain(seen.split("\x1b[?1049l")[-1]).split())  # the lines after it, unwrapped
    assert "you played p1; seed 41" in after
    assert "Stopped after 1 hand with the match undecided" in after


def test_q_then_y_leaves_the_full_screen_game():
    child = spawn_full_screen(["play", "--human", "p1", "--players", "2", "--seed", "3"])
    try:
        child.expect("your move")
        child.send("q")
        child.expect("Quit this match")
        child.send("y")
        child.expect(pexpect.EOF)
        out = " ".join(plain(child.before).split())
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert "Match left (you quit) in hand 1" in out


def test_the_same_command_with_its_record_file_continues_the_match(tmp_path):
    record = tmp_path / "game.yaml"
    args = ["play", "--human", "p1", "--players", "2", "--seed", "41", "--record", str(record)]
    assert play_then_quit(args, 3) == 0
    first = record.read_text(encoding="utf-8")
    assert "hand_over: false" in first
    moves = first.count("- {player: ")
    assert play_then_quit(args, 1) == 0
    again = record.read_text(encoding="utf-8")
    assert again.count("- {player: ") > moves  # the moves of before, then more
    assert [line for line in again.splitlines() if line.startswith("  - {")][:moves] == [
        line for line in first.splitlines() if line.startswith("  - {")
    ]


def test_plain_without_human_is_a_usage_error():
    child = pexpect.spawn(MBRULES, ["play", "--plain"], encoding="utf-8", timeout=30)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert "--plain goes with --human" in child.before


def test_without_textual_the_full_screen_game_names_its_extra(tmp_path):
    # a sitecustomize that hides textual, as if the 'human' extra were not installed
    (tmp_path / "sitecustomize.py").write_text("import sys\nsys.modules['textual'] = None\n", encoding="utf-8")
    import os

    from mbrules._paths import CHECKOUT_DIR, install_hint

    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(CHECKOUT_DIR)]))
    child = pexpect.spawn(
        MBRULES, ["play", "--human", "p1", "--players", "2"], encoding="utf-8", timeout=30, env=env, dimensions=(24, 80)
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert install_hint("human") in " ".join(child.before.split())


def test_ctrl_c_twice_stops_the_full_screen_game_with_130_and_the_save_says_how_to_go_on(tmp_path):
    """Issue 33 item 13: Ctrl-C opens the quit prompt, and a second Ctrl-C (it used to do nothing, so the
    process had to be killed) stops the game at once with 130, as Ctrl-C stops every command. The match
    is saved first, and the prompt and the last lines say the same command continues it."""
    record = tmp_path / "game.yaml"
    child = spawn_full_screen(["play", "--human", "p1", "--players", "2", "--seed", "3", "--record", str(record)])
    try:
        child.expect("your move")
        child.send("1")
        child.expect([pexpect.TIMEOUT], timeout=0.5)
        child.send("\x03")
        child.expect("Quit this match")
        child.expect("the same command continues it")
        child.send("\x03")
        child.expect(pexpect.EOF)
        seen = child.before
    finally:
        child.close(force=True)
    assert child.exitstatus == 130, plain(seen)[-2000:]
    assert "\x1b[?1049l" in seen  # the terminal is given back
    after = " ".join(plain(seen.split("\x1b[?1049l")[-1]).split())
    assert "Match left (Ctrl-C) in hand 1" in after
    assert "the same command continues the match" in after
    assert "hand_over: false" in record.read_text(encoding="utf-8")


def test_a_save_made_with_plain_is_continued_by_the_full_screen_game(tmp_path):
    """Issue 33 item 1: a save is continued by both ways of playing a seat; here one made by --plain goes
    on in the full-screen game, which says it resumed; the moves of before stay first in the file."""
    from human_driver import spawn

    record = tmp_path / "game.yaml"
    args = ["play", "--human", "p1", "--players", "2", "--seed", "41", "--record", str(record)]
    child = spawn(args)  # --plain
    try:
        for _ in range(2):
            child.expect(r"your move \[")
            child.sendline("1")
        child.expect(r"your move \[")
        child.sendline("q")
        child.expect(r"\[y/N\]")
        child.sendline("y")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    first = [line for line in record.read_text(encoding="utf-8").splitlines() if line.startswith("  - {")]
    assert play_then_quit(args, 1, first="Resumed from") == 0
    again = [line for line in record.read_text(encoding="utf-8").splitlines() if line.startswith("  - {")]
    assert again[: len(first)] == first and len(again) > len(first)
