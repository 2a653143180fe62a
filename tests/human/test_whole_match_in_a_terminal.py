"""``mbrules play --human p1 --ruleset kids-115 --players 3`` plays a whole match to its result."""

from __future__ import annotations

import pytest

pexpect = pytest.importorskip(
    "pexpect", reason="pexpect (the test extra: pip install 'mbrules[test]') is not installed"
)

from human_driver import PROMPT, Mirror, plain, spawn

pytestmark = pytest.mark.slow  # drives the real program in a pseudo-terminal: make test-fast leaves it out

SEED = 6  # kids-115, 3 players: p1 calls a coup fourré and answers the extension question in the match


def test_kids_115_three_players_whole_match_to_the_result():
    mirror = Mirror("kids-115", 3, SEED)
    g = mirror.game
    child = spawn(["play", "--human", "p1", "--ruleset", "kids-115", "--players", "3", "--seed", str(SEED)])
    # each answer follows its prompt (expect): pexpect's 50 ms pause before each send only waits
    child.delaybeforesend = None
    kinds = set()
    try:
        while True:
            step = mirror.advance()
            if step is None:
                break
            p, legal = step
            child.expect(PROMPT)
            screen = plain(child.before)
            assert int(child.match.group(1)) == len(legal)
            # the kids' names come from the ruleset data: its battle pile is the Drive Pile
            assert g.ruleset.display.battle_pile in screen and "C (p3)" in screen
            a = mirror.choice(p, legal)
            kinds.add(mirror.state.observation(p).decision.kind)
            child.sendline(str(legal.index(a) + 1))
            mirror.state.apply(a, player=p)
        assert mirror.state.is_terminal()  # kids-115 is one hand, most points wins
        child.expect(pexpect.EOF)
        end = plain(child.before)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, end
    out = mirror.state.outcome
    assert "Score sheet, hand 1" in end
    totals = ", ".join(f"{s} {t}" for s, t in out.totals.items())
    if out.winner is not None:
        assert f"Side {out.winner} (" in end and f"wins the match ({totals})" in end
    else:
        assert totals in end
    assert {"turn", "coup_fourre", "extension"} <= kinds
