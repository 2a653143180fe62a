"""One match between bots, headless: :class:`mbrules.seats.SeatLoop` with a bot in every seat.

Determinism: a match is dealt from its seed with the match's own RNG, and every bot has its own
stream seeded from the match seed and its player; nothing reads the global ``random``. Game ``i``
of a run seeded with ``seed`` is dealt from :func:`game_seed` ``(seed, i)`` alone, so a run's
figures are the same for any number of workers, any chunking and any backend.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from operator import itemgetter
from typing import Callable, Sequence, cast

from ..bots import make_bots
from ..engine import Action, Game, Observer, State
from ..seats import BotSeat, SeatLoop
from ..vocab import DISCARD, PLAY

StopPoll = Callable[[], object]  # should_stop(): true once the caller wants the work abandoned


class Stopped(Exception):
    """Raised by :func:`play_match` when ``should_stop()`` turns true: the match is abandoned."""


def derive_seed(seed: int, stream: str, i: int) -> int:
    """The one seed recipe: item ``i`` of the named ``stream`` of a run seeded with ``seed``, a 63-bit
    integer from SHA-256 (stable across machines, runs and Python versions; streams never share seeds)."""
    digest = hashlib.sha256(f"mbrules:{seed}:{stream}:{i}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def game_seed(seed: int, i: int) -> int:
    """The seed of game ``i`` of a run seeded with ``seed``: the ``game`` stream of :func:`derive_seed`."""
    return derive_seed(seed, "game", i)


def play_match(
    game: Game,
    seed: int,
    bots: Sequence[str],
    *,
    max_hands: int | None = None,
    observers: Sequence[Observer] = (),
    should_stop: StopPoll | None = None,
) -> State:
    """Play a match (or its first ``max_hands`` hands) between bots; return the final state.

    ``bots`` holds one bot name for every player or one per player in seating order. Each
    bot sees its seat's observation only. A decision with a single legal action (the draw,
    mostly) is applied without asking the bot, so bots are asked only real questions.
    ``observers`` (narrator, recorder, checker) watch through the state's hooks.

    A match never lasts more than the ruleset's ``match.max_hands`` hands: the engine ends a
    match still undecided then as ``unfinished`` (its outcome says so), so a ruleset whose
    target is never reached cannot make this loop run forever.

    ``should_stop()`` is polled before every bot decision; once it returns true the match is
    abandoned (:class:`Stopped` is raised): a slow bot's match (the expert's lasts seconds) must not
    hold up a Ctrl-C until it ends.
    """
    seats = [BotSeat(b) for b in make_bots(bots, game, seed)]
    st = State.new_match(game, seed, deal_next=False)
    for o in observers:
        st.add_observer(o)
    return SeatLoop(st, seats, max_hands=max_hands, should_stop=should_stop, stopped=Stopped).play()


def count_turns(history: Sequence[tuple[int, int]]) -> int:
    """Turns in a history (``State.history``: (player, Action), and (-1, -1) marking a new hand): cards
    played or discarded (draws, answers and new-hand marks are not turns).

    Counted per distinct action (a match's thousand entries hold a few dozen), in C but for that."""
    counts = Counter(map(itemgetter(1), history))
    return sum(n for a, n in counts.items() if a != -1 and cast(Action, a).op in (PLAY, DISCARD))
