"""Play N hands with one bot (default random, 4 players, winning-moves): a fixed workload to count instructions.

Wall-clock figures on a shared machine move by ±10% from run to run; instruction counts do not.
Run it under callgrind twice, with N hands and with 0 (the start-up alone), and subtract:

    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python benchmarks/engine_instructions.py 150
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python benchmarks/engine_instructions.py 0

To compare two versions, run the same commands with each version's package first on ``PYTHONPATH``
(e.g. a ``git worktree`` of the older commit); the workload uses only calls both versions have.
"""

from __future__ import annotations

import sys

from mbrules.engine import Game
from mbrules.ruleset import load_ruleset

try:
    from mbrules.matches import game_seed, play_match
except ImportError:  # a version before mbrules.matches (the match loop was mbrules.simulate's)
    from mbrules.simulate import game_seed, play_match


def main(argv: list[str]) -> None:
    hands = int(argv[0]) if argv else 150
    bot = argv[1] if len(argv) > 1 else "random"
    game = Game(load_ruleset("winning-moves"), 4)
    done = i = 0
    while done < hands:
        st = play_match(game, game_seed(0, i), [bot])
        i += 1
        done += len(st.hand_sheets)
    print(f"{done} hands, {i} matches, {bot} bots")


if __name__ == "__main__":
    main(sys.argv[1:])
