"""The paired design: both arms play the same seeds (common random numbers), through the
backends, lazy chunks and stop handling of :func:`mbrules.matches.simulate`."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..bots import bot_names
from ..engine import Game
from ..matches import game_seed, simulate

# The strong bot of the skill-sensitivity matches: the first of these that is registered.
STRONG_PREFERENCE = ("expert", "heuristic")
WEAK_BOT = "random"


def default_strong_bot() -> str:
    names = bot_names()
    for n in STRONG_PREFERENCE:
        if n in names:
            return n
    return names[0]


@dataclass
class Arm:
    label: str  # "A" or "B"
    ruleset: str
    options: list[str]
    game: Game
    records: list[dict] = field(default_factory=list)
    skill_records: list[dict] = field(default_factory=list)
    seconds: float = 0.0


def skill_lineups(game: Game, strong: str, weak: str) -> list[list[str]]:
    """One lineup per side: that side's players play ``strong``, everybody else ``weak``."""
    return [[strong if game.side_of[p] == s else weak for p in range(game.players)] for s in range(game.sides)]


def skill_split(games: int, sides: int) -> list[int]:
    """How many skill matches each side plays strong: ``games`` shared out as evenly as possible."""
    return [games // sides + (1 if s < games % sides else 0) for s in range(sides)]


def skill_seed(seed: int, side: int) -> int:
    """The seed of the skill matches in which side ``side`` plays strong (the same in both arms)."""
    return game_seed(seed, -1 - side)


def run_arm(arm: Arm, players: int, bots: Sequence[str], games: int, skill_games: int, strong: str,
            weak: str, seed: int, workers: int, progress: Callable[[int], None] | None = None,
            should_stop: Callable[[], object] | None = None, backend: str = "local",
            address: str | None = None) -> bool:
    """Play one arm: ``games`` matches between ``bots`` on seeds ``(seed, 0..games-1)``, then the skill
    matches. Returns False when stopped (the records then hold whole chunks only)."""
    done_before = 0

    def tick(n: int) -> None:
        if progress:
            progress(done_before + n)

    stats, secs = simulate(arm.game, list(bots), games, seed, workers=workers,
                           progress=tick, should_stop=should_stop, records=True, backend=backend, address=address)
    arm.records = stats["records"]
    arm.seconds += secs
    if stats["games"] < games:
        return False
    done_before += games
    for s, (lineup, n) in enumerate(zip(skill_lineups(arm.game, strong, weak), skill_split(skill_games, arm.game.sides))):
        if n == 0:
            continue
        stats, secs = simulate(arm.game, lineup, n, skill_seed(seed, s), workers=workers,
                               progress=tick, should_stop=should_stop, records=True, backend=backend,
                               address=address)
        for r in stats["records"]:
            r["strong_side"] = s
        arm.skill_records.extend(stats["records"])
        arm.seconds += secs
        if stats["games"] < n:
            return False
        done_before += n
    return True


def make_arm(label: str, ruleset: str, options: Sequence[str], players: int) -> Arm:
    from ..ruleset import load_ruleset

    return Arm(label, ruleset, list(options), Game(load_ruleset(ruleset, list(options)), players))
