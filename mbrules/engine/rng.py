"""The match's RNG: a :class:`random.Random` that keeps its state's copy until it draws again.

``State.snapshot()`` records the RNG's state (the shuffles of the hands to come), and a checker compares
it before and after every action it tries: a refused action must leave it as it was. ``getstate()`` copies
the generator's 625 words each time (a quarter of a snapshot's cost), yet the match's RNG draws only when
a hand is dealt. :class:`MatchRandom` keeps the copy it made until a call that moves the generator
(``random``, ``getrandbits``, ``seed``, ``setstate``; every other method of :class:`random.Random` goes
through these; the deal's shuffle draws through :func:`native_bits`, which drops the copy itself), so the snapshots of one hand share one copy, equal to a new one by construction.

A Python class, never compiled (mypyc compiles no subclass of a Python class): the engine calls it, as
it called :class:`random.Random`. The same numbers, in the same order: only the copy is kept. It pickles
as a plain :class:`random.Random` (the bytes as before); :func:`rng_state` reads either kind.
"""

from __future__ import annotations

import random
from typing import Any, Callable

_random = random.Random.random
_getrandbits = random.Random.getrandbits
_seed = random.Random.seed
_setstate = random.Random.setstate
_getstate = random.Random.getstate
# the generator made without its __init__ (which seeds it again): _random.Random.__new__, seeded in C by its argument
_new: Callable[[type[MatchRandom], int], MatchRandom] = random.Random.__new__  # type: ignore[assignment]


class MatchRandom(random.Random):
    """A :class:`random.Random` whose ``state()`` is ``getstate()``, copied once per change."""

    _kept: tuple[Any, ...] | None
    gauss_next: float | None  # random.Random's own attribute (gauss()'s second value), part of getstate()

    def seed(self, a: Any = None, version: int = 2) -> None:
        self._kept = None
        _seed(self, a, version)

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._kept = None
        _setstate(self, state)

    def random(self) -> float:
        self._kept = None
        return _random(self)

    def getrandbits(self, k: int, /) -> int:
        self._kept = None
        return _getrandbits(self, k)

    def state(self) -> tuple[Any, ...]:
        """``getstate()``: the copy made since the last draw, else a new one (kept). ``gauss_next`` is an
        attribute ``gauss()`` may set without drawing: a copy whose third item is not it is not reused."""
        kept = self._kept
        if kept is None or kept[2] is not self.gauss_next:
            kept = self._kept = _getstate(self)
        return kept

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as a plain :class:`random.Random` (the bytes a State pickled before this class)."""
        return (random.Random, (), _getstate(self))


def match_random(seed: Any = None) -> MatchRandom:
    """The match's RNG, seeded as ``random.Random(seed)``."""
    return MatchRandom(seed)


def rng_state(rng: random.Random) -> tuple[Any, ...]:
    """``rng.getstate()``, from the kept copy where ``rng`` keeps one (a :class:`MatchRandom`)."""
    return rng.state() if type(rng) is MatchRandom else rng.getstate()


def native_bits(rng: random.Random) -> Callable[[int], int]:
    """``rng``'s ``getrandbits`` as :class:`random.Random`'s own C method, bound past :class:`MatchRandom`'s
    override, with the kept copy dropped here once: the deal's shuffle (``turn.shuffle``) draws ~150 times, and
    through the override each draw was a Python frame. Every other draw goes through :class:`MatchRandom`'s
    methods (an engine bug's stray draw among them: api_test must see it move the RNG)."""
    if type(rng) is MatchRandom:
        rng._kept = None
    bits: Callable[[int], int] = _getrandbits.__get__(rng)
    return bits


def copied(rng: random.Random) -> MatchRandom:
    """An independent :class:`MatchRandom` in ``rng``'s state (a clone's, an unpickled State's).

    The state is read through :func:`rng_state` (a :class:`MatchRandom`'s kept copy: a state cloned once a
    legal action, as the search bots and tests/test_engine_legality.py do, copied its generator's 625 words
    each time), and the copy keeps it as its own (an immutable tuple, equal to its ``getstate()`` by
    construction). The generator is made by ``__new__`` seeded with 0 in C (``MatchRandom(0)`` seeded it twice,
    its ``__init__`` calling ``seed`` again; without a seed it reads the OS's entropy); ``setstate`` sets every
    word of it and ``gauss_next``, the only attribute :class:`random.Random` adds. Round 14: 68 -> ~25 us."""
    state = rng_state(rng)
    r = _new(MatchRandom, 0)
    r.setstate(state)
    r._kept = state
    return r


__all__ = ["MatchRandom", "copied", "match_random", "native_bits", "rng_state"]
