"""Drive the real ``mbrules play --human`` in a pseudo-terminal (pexpect) beside an in-process mirror.

The mirror is the same match played through the public API (same ruleset, seed and bots), so
the test knows, at every prompt, the seat's observation and legal moves the program must show,
and which move to type. The person's moves are the heuristic bot's for that seat, which makes
the game the one ``play_match(game, seed, ["heuristic"])`` plays (seeds are chosen from it).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect

import mbrules
from mbrules.bots import make_bots
from mbrules.engine import State
from mbrules.vocab import DRAW

MBRULES = str(Path(sys.executable).with_name("mbrules"))
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\r")
PROMPT = r"your move \[1-(\d+), words"
TIMEOUT = 20


def plain(text: str) -> str:
    """Terminal output without escape sequences and carriage returns."""
    return ANSI.sub("", text)


def spawn(args: list[str], rows: int = 60, cols: int = 160, env: dict | None = None) -> pexpect.spawn:
    """The program in a pseudo-terminal; ``--human`` runs the prompt loop (``--plain``) these tests read."""
    if "--human" in args and "--plain" not in args:
        args = [*args, "--plain"]
    e = dict(os.environ)
    e["TERM"] = "xterm-256color"
    e["COLUMNS"] = "77"  # a stale exported COLUMNS must not pin the width: the window's size is used
    e.pop("NO_COLOR", None)
    if env:
        e.update(env)
    return pexpect.spawn(MBRULES, args, encoding="utf-8", dimensions=(rows, cols), timeout=TIMEOUT, env=e)


class Mirror:
    """The match in process: bots for every seat; ``advance`` stops where a human seat decides."""

    def __init__(self, ruleset: str, players: int, seed: int, humans: tuple[int, ...] = (0,), options=()):
        self.game = mbrules.load_game(ruleset, players, options)
        self.state = State.new_match(self.game, seed, deal_next=False)
        self.bots = make_bots(["heuristic"], self.game, seed)
        self.humans = humans

    def advance(self):
        """Play bots and draws until a human seat decides: ``(player, legal)``, or None at the hand's end."""
        st = self.state
        for _ in range(10_000):
            legal = st.legal_actions()
            if not legal:
                return None
            p = st.current_player
            if len(legal) == 1 and legal[0].op == DRAW:
                st.apply(legal[0])
                continue
            if p in self.humans:
                return p, legal
            st.apply(self.bots[p].choose(st.observation(p), legal))
        raise AssertionError("the mirror did not reach a decision")

    def choice(self, p: int, legal):
        return self.bots[p].choose(self.state.observation(p), legal)


def play_along(child: pexpect.spawn, mirror: Mirror) -> None:
    """Answer every prompt of the real program with the mirror's bot choice, checking at each that the program
    offers as many moves as the mirror's engine finds legal (the loop the terminal tests share)."""
    while (step := mirror.advance()) is not None:
        p, legal = step
        child.expect(PROMPT)
        assert int(child.match.group(1)) == len(legal)
        a = mirror.choice(p, legal)
        child.sendline(str(legal.index(a) + 1))
        mirror.state.apply(a, player=p)
