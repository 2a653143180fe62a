"""A person plays p1 through a whole hand in a pseudo-terminal: the real ``mbrules play --human``.

Winning Moves, 2 players, seed 41: in its first hand p1 (played as the heuristic bot would)
calls a coup fourré and answers the extension question (both found with ``play_match`` over
the seeds, and checked below to happen). Moves go in by number and by notation, in turn; a
refused move shows its reason code and the engine's sentence; ``?`` gives the hint bot's
move; ``r`` shows the ruleset's rules; at the end of the hand the score sheet is shown and
``q`` asks before it quits; ``--record`` writes the hand as a scenario that replays.
"""

from __future__ import annotations

import pytest

import subprocess

pexpect = pytest.importorskip(
    "pexpect", reason="pexpect (the test extra: pip install 'mbrules[test]') is not installed"
)

from mbrules.bots import make_bot
from mbrules.engine import IllegalAction
from mbrules.vocab import COUP_FOURRE, EXTEND, SCORE_LINES, STOP
from mbrules.tui import hint_bot_name
from mbrules.narrate import LINE_LABELS

from human_driver import MBRULES, PROMPT, Mirror, plain, spawn

pytestmark = pytest.mark.slow  # drives the real program in a pseudo-terminal: make test-fast leaves it out

SEED = 41


def _refused_play(mirror: Mirror, p: int):
    """A 'play CARD' of a card p holds that the rules refuse now (not a not-in-hand refusal)."""
    st = mirror.state
    g = mirror.game
    for c in st.observation(p).hand:
        words = f"play {g.card_ids[c]}"
        try:
            st.verify(words, player=p)
        except IllegalAction as e:
            return words, e
    return None, None


def test_a_whole_hand_by_number_and_notation_with_refusal_coup_fourre_extension_and_quit(tmp_path):
    mirror = Mirror("winning-moves", 2, SEED)
    g = mirror.game
    record = tmp_path / "hand.yaml"
    child = spawn(
        [
            "play",
            "--human",
            "p1",
            "--ruleset",
            "winning-moves",
            "--players",
            "2",
            "--seed",
            str(SEED),
            "--record",
            str(record),
        ]
    )
    # each answer follows its prompt (expect): pexpect's 50 ms pause before each send only waits
    child.delaybeforesend = None
    seen = {"number": 0, "words": 0, "refused": 0, "coup_fourre": 0, "extension": 0, "hint": 0, "rules": 0}
    decisions = 0
    try:
        while True:
            step = mirror.advance()
            if step is None:
                break
            p, legal = step
            child.expect(PROMPT)
            screen = plain(child.before)
            assert int(child.match.group(1)) == len(legal)
            obs = mirror.state.observation(p)
            # the screen is the seat's observation: its hand, the table's miles, the draw pile
            for c in obs.hand:
                assert f"[{g.card_ids[c]}]" in screen
            for v in obs.sides:
                assert f"{v.miles}/{obs.target}" in screen
            assert f"Draw Pile: {obs.draw_pile} cards" in screen
            for i, a in enumerate(legal, 1):
                assert f"{i}. {a}" in " ".join(screen.split()), (i, str(a))
            if decisions == 0:
                # a hint from the strongest bot, the rules summary, then a refused typed move
                hint = make_bot(hint_bot_name(), g, p, f"{SEED}:hint").choose(obs, legal)
                child.sendline("?")
                child.expect(PROMPT)
                assert f"Hint ({hint_bot_name()} bot): {legal.index(hint) + 1}. {hint}" in plain(child.before)
                seen["hint"] += 1
                child.sendline("r")
                child.expect("Press Enter to go back to the game")
                rules = plain(child.before)
                assert g.ruleset.name in rules and "Coup fourré" in rules and "With 2 players" in rules
                seen["rules"] += 1
                child.sendline("")
                child.expect(PROMPT)
                words, err = _refused_play(mirror, p)
                assert words is not None, "seed changed: no refusable play at the first decision"
                child.sendline(words)
                child.expect(PROMPT)
                assert f"Refused ({err.code}): {err.message}." in " ".join(plain(child.before).split())
                seen["refused"] += 1
                child.sendline("12345")
                child.expect(PROMPT)
                assert f"There is no move 12345: choose 1 to {len(legal)}." in plain(child.before)
                child.sendline("fly d100")
                child.expect(PROMPT)
                assert "Not a move: 'fly' is not an action word" in plain(child.before)
            a = mirror.choice(p, legal)
            kind = obs.decision.kind
            if kind == "coup_fourre":
                assert "COUP FOURRÉ?" in screen
                assert a.op == COUP_FOURRE
                child.sendline("y")
                seen["coup_fourre"] += 1
            elif kind == "extension":
                assert "EXTENSION?" in screen and f"Extend it to {g.extension_to} miles" in " ".join(screen.split())
                assert a.op in (EXTEND, STOP)
                child.sendline("extend" if a.op == EXTEND else "n")
                seen["extension"] += 1
            elif decisions % 2:
                child.sendline(str(a))
                seen["words"] += 1
            else:
                child.sendline(str(legal.index(a) + 1))
                seen["number"] += 1
            mirror.state.apply(a, player=p)
            decisions += 1
            if seen["coup_fourre"] == 1 and kind == "coup_fourre":
                # the next screen marks the coup fourré on p1's side and tells it in the last plays
                nxt = mirror.advance()
                assert nxt is not None
                child.expect(PROMPT)
                after = plain(child.before)
                assert "(coup fourré)" in after
                assert "p1 (A) calls COUP FOURRÉ with" in after
                p2, legal2 = nxt
                child.sendline(str(legal2.index(mirror.choice(p2, legal2)) + 1))
                mirror.state.apply(mirror.choice(p2, legal2), player=p2)
                seen["number"] += 1
                decisions += 1
        assert mirror.state.hand_over
        child.expect("Press Enter for the next hand")
        end = plain(child.before)
        assert "Score sheet, hand 1" in end
        sheet = mirror.state.hand_sheets[-1]
        rows = {
            line.split("│")[1].strip(): [x.strip() for x in line.split("│")[2:-1]]
            for line in end.splitlines()
            if line.count("│") >= 3
        }
        for line in SCORE_LINES:  # every line of the sheet, as the engine scored it
            assert rows[LINE_LABELS[line]] == [str(sheet[s][line]) for s in range(g.sides)], line
        assert rows["Coups fourrés"] != ["0", "0"]
        assert rows["Running total"] == [str(t) for t in mirror.state.match_totals]
        # q asks first: 'n' goes on, then 'q' and 'y' quit cleanly
        child.sendline("q")
        child.expect(r"Quit this match\? Nothing more will be played\. \[y/N\]")
        child.sendline("n")
        child.expect("Going on")
        child.expect("Press Enter for the next hand")
        child.sendline("q")
        child.expect(r"\[y/N\]")
        child.sendline("y")
        child.expect(pexpect.EOF)
        tail = plain(child.before)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, tail
    assert "Match left (you quit)" in tail and f"Recorded to {record}" in tail
    assert all(seen.values()), seen
    assert seen["number"] >= 3 and seen["words"] >= 3
    # the recorded hand replays, coup fourré and extension answer included
    text = record.read_text()
    assert "coup_fourre:" in text and "extension:" in text
    out = subprocess.run([MBRULES, "replay", str(record)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "1 passed, 0 failed" in out.stdout
