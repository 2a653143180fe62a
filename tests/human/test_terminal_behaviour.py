"""The terminal itself: no TTY, bad seats, end of input, Ctrl-C, a resized window, colours, hot seat."""

from __future__ import annotations

import pytest

import re
import subprocess

pexpect = pytest.importorskip(
    "pexpect", reason="pexpect (the test extra: pip install 'mbrules[test]') is not installed"
)

from human_driver import MBRULES, PROMPT, plain, spawn

pytestmark = pytest.mark.slow  # drives the real program in a pseudo-terminal: make test-fast leaves it out

ARGS = ["play", "--human", "p1", "--ruleset", "winning-moves", "--players", "2", "--seed", "41"]


def test_no_tty_says_so_and_exits_2():
    for how in ({"stdin": subprocess.DEVNULL}, {"input": "1\n"}):
        out = subprocess.run([MBRULES, *ARGS], capture_output=True, text=True, timeout=60, **how)
        assert out.returncode == 2
        assert out.stderr.strip() == (
            "mbrules: --human needs a terminal: standard input and output must both be a "
            "TTY (to watch bots play without one, leave out --human)"
        )
        assert out.stdout == "" and "Traceback" not in out.stderr


def test_stdout_not_a_tty_is_refused_too():
    child = pexpect.spawn(
        "bash", ["-c", f"{MBRULES} {' '.join(ARGS)} | cat; echo rc=${{PIPESTATUS[0]}}"], encoding="utf-8", timeout=30
    )
    child.expect(pexpect.EOF)
    text = plain(child.before)
    assert "--human needs a terminal" in text and "rc=2" in text


def test_a_seat_that_does_not_exist_or_json_is_a_usage_error():
    for extra, words in (
        (["--human", "p3"], "--human 'p3' is not a seat of this game (players: p1, p2)"),
        (["--human", "B"], "--human 'B' is not a seat"),
        (["--human", "p1", "--json"], "--human and --json cannot go together"),
    ):
        out = subprocess.run([MBRULES, "play", "--players", "2", *extra], capture_output=True, text=True, timeout=60)
        assert out.returncode == 2, out
        assert words in out.stderr and "Traceback" not in out.stderr


def test_end_of_input_quits_cleanly():
    child = spawn(ARGS)
    try:
        child.expect(PROMPT)
        child.sendeof()
        child.expect(pexpect.EOF)
        tail = plain(child.before)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert "Match left (the input was closed) in hand 1" in tail and "Traceback" not in tail


def test_ctrl_c_at_the_prompt_exits_130_and_records_nothing(tmp_path):
    record = tmp_path / "g.yaml"
    child = spawn([*ARGS, "--record", str(record)])
    try:
        child.expect(PROMPT)
        child.sendintr()
        child.expect(pexpect.EOF)
        tail = plain(child.before)
    finally:
        child.close(force=True)
    assert child.exitstatus == 130, tail
    assert "mbrules: interrupted (SIGINT): the match was not finished; nothing was recorded" in tail
    assert "Traceback" not in tail and not record.exists()
    assert list(tmp_path.iterdir()) == []


def _table_width(screen: str) -> int:
    tops = [line for line in screen.splitlines() if line.startswith("┏")]
    assert tops, screen
    return len(tops[-1])


def test_a_resized_window_is_used_at_the_next_redraw():
    child = spawn(ARGS, cols=160)
    try:
        child.expect(PROMPT)
        wide = _table_width(plain(child.before))
        child.setwinsize(50, 90)
        child.sendline("")  # Enter redraws
        child.expect(PROMPT)
        narrow = _table_width(plain(child.before))
        child.sendline("q")
        child.expect(r"\[y/N\]")
        child.sendline("y")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert narrow <= 90 < wide, (narrow, wide)


SGR = re.compile(r"\x1b\[([0-9;]*)m")


def test_colours_are_the_terminal_palette_and_no_color_turns_them_off():
    """Only bold, italic, reverse and the foreground red/green/cyan (the user's palette, readable on light
    and dark backgrounds): no 256-colour or true colour, no background colour. NO_COLOR: no colour at all."""
    seen = set()
    for no_color in (False, True):
        child = spawn(ARGS, env={"NO_COLOR": "1"} if no_color else None)
        try:
            child.expect(PROMPT)
            codes = set()
            for m in SGR.finditer(child.before):
                codes.update(m.group(1).split(";"))
            child.sendline("q")
            child.expect(r"\[y/N\]")
            child.sendline("y")
            child.expect(pexpect.EOF)
        finally:
            child.close(force=True)
        codes.discard("")
        if no_color:
            assert not codes & {"31", "32", "36"}, codes
        else:
            assert {"31", "32"} <= codes, codes
            seen = codes
        assert codes <= {"0", "1", "3", "7", "31", "32", "36"}, codes
    assert seen


def test_hot_seat_hides_each_hand_until_its_player_takes_the_keyboard():
    child = spawn(
        ["play", "--human", "p1", "--human", "p2", "--ruleset", "winning-moves", "--players", "2", "--seed", "41"]
    )
    try:
        for who in ("p1", "p2", "p1"):
            child.expect(f"{who}'s turn: pass the keyboard to {who}")
            child.expect(f"{who}, press Enter to see your hand")
            assert "Your hand" not in plain(child.before)
            child.sendline("")
            child.expect(PROMPT)
            screen = plain(child.before)
            assert "Your hand" in screen and f"A ({'you' if who == 'p1' else 'p1'})" in screen
            child.sendline("1")
        child.expect("p2's turn")
        child.sendline("q")
        child.expect(r"\[y/N\]")
        child.sendline("y")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_quit_in_mid_hand_records_the_hand_so_far_and_it_replays(tmp_path):
    record = tmp_path / "part.yaml"
    child = spawn(
        ["play", "--human", "p2", "--players", "3", "--ruleset", "parker-1971", "--seed", "3", "--record", str(record)]
    )
    try:
        for _ in range(4):
            child.expect(PROMPT)
            child.sendline("1")
        child.expect(PROMPT)
        child.sendline("quit")
        child.expect(r"\[y/N\]")
        child.sendline("y")
        child.expect(pexpect.EOF)
        tail = plain(child.before)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0 and f"Recorded to {record}" in tail
    text = record.read_text()
    assert "hand_over: false" in text and text.count("player: p2") >= 4
    out = subprocess.run([MBRULES, "replay", str(record)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "1 passed, 0 failed" in out.stdout, out.stdout + out.stderr
