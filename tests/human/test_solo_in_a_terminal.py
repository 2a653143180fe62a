"""``mbrules play --human p1 --option solo --players 1`` plays a hand alone in a pseudo-terminal: the real
command, its prompts matching the in-process mirror's legal moves, to the hand's score sheet."""

from __future__ import annotations

import pytest

pexpect = pytest.importorskip(
    "pexpect", reason="pexpect (the test extra: pip install 'mbrules[test]') is not installed"
)

from human_driver import Mirror, plain, play_along, spawn

pytestmark = pytest.mark.slow  # drives the real program in a pseudo-terminal: make test-fast leaves it out

SEED = 2


def test_solo_one_player_plays_a_hand_alone_in_the_terminal():
    mirror = Mirror("winning-moves", 1, SEED, options=["solo"])
    args = ["play", "--human", "p1", "--option", "solo", "--players", "1", "--seed", str(SEED), "--hands", "1"]
    child = spawn(args)
    # each answer follows its prompt (expect): pexpect's 50 ms pause before each send only waits
    child.delaybeforesend = None
    try:
        play_along(child, mirror)
        child.expect(pexpect.EOF)
        end = plain(child.before)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, end
    assert "Score sheet, hand 1" in end and mirror.state.hand_sheets[0][0]["shutout"] == 0
