"""A fingerprint of the games the engine plays: one hash per configuration, printed as JSON.

Two engines play the same games when their fingerprints are equal: a tree against an earlier one
(``PYTHONPATH`` set to each, e.g. a ``git worktree`` of main), or the compiled engine against the
pure one (``MBRULES_COMPILED=1``, docs/performance.md). A configuration is a ruleset, its options, a
player count and a bot: every bundled edition at each player count it lists (random and heuristic
bots), and every bundled option on winning-moves and on express (random bots, 2 and 4 players; an
option that cannot apply there is skipped, the same way on both sides). Each configuration plays
``--matches`` matches of at most ``--hands`` hands from fixed seeds; the hash covers every action of
the history, the hands' score sheets, the match totals and the outcome; with random bots, one match more driven
through ``State.apply`` hashes every :class:`~mbrules.engine.Transition` it returns, and one more the
RL observation vectors of every seat at every decision (byte for byte).

    python benchmarks/game_hashes.py [--matches 2] [--hands 3] [--out FILE] [--only PREFIX]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import warnings
from typing import Iterator

from mbrules.engine import Game, GameError, State
from mbrules.matches import game_seed, play_match
from mbrules.ruleset import RulesetError, bundled_option_ids, bundled_ruleset_ids, load_ruleset

HOSTS = ("winning-moves", "express")


def configurations() -> Iterator[tuple[str, tuple[str, ...], int, str]]:
    """(ruleset, options, players, bot) of every configuration fingerprinted, in a fixed order."""
    for rid in bundled_ruleset_ids():
        counts = sorted(int(n) for n in load_ruleset(rid).player_counts)
        for n in counts:
            for bot in ("random", "heuristic"):
                yield rid, (), n, bot
    for host in HOSTS:
        for opt in bundled_option_ids():
            for n in (2, 4):
                yield host, (opt,), n, "random"


def fingerprint(game: Game, bot: str, matches: int, hands: int) -> str:
    """The hash of ``matches`` matches of ``game`` between ``bot`` bots, from fixed seeds."""
    h = hashlib.sha256()
    for i in range(matches):
        st = play_match(game, game_seed(7, i), [bot], max_hands=hands)
        h.update(repr([(p, int(a)) for p, a in st.history]).encode())
        h.update(repr(st.hand_sheets).encode())
        h.update(repr((st.match_totals, st.reshuffles_per_hand, st.is_terminal())).encode())
        out = st.outcome
        h.update(repr(None if out is None else out.to_dict()).encode())
    return h.hexdigest()[:16]


def transitions(game: Game, matches: int, hands: int) -> str:
    """The hash of the :class:`~mbrules.engine.Transition` of every action of ``matches`` matches driven
    through ``State.apply`` (random choices from ``legal_actions()``, fixed seeds), hands capped."""
    h = hashlib.sha256()
    for i in range(matches):
        rng = random.Random(i)
        st = State.new_match(game, game_seed(11, i))
        while not st.is_terminal() and st.hands_played < hands:
            acts = st.legal_actions()
            h.update(repr(st.apply(acts[rng.randrange(len(acts))])).encode())
    return h.hexdigest()[:16]


def observations(game: Game, matches: int, hands: int) -> str | None:
    """The hash of the RL observation vectors (``mbrules.env``'s encoder, float32 bytes) of every seat at
    every decision of ``matches`` random matches; None without the extra ``rl``."""
    try:
        from mbrules.engine.compact import ObservationWriter
        from mbrules.env.encoding import ObservationEncoder
    except ImportError:
        return None
    writer = ObservationWriter(ObservationEncoder(game))
    h = hashlib.sha256()
    for i in range(matches):
        rng = random.Random(i)
        st = State.new_match(game, game_seed(13, i))
        while not st.is_terminal() and st.hands_played < hands:
            for p in range(game.players):
                h.update(writer.write(st, p, st.hands_played))
            acts = st.legal_actions()
            st.step(acts[rng.randrange(len(acts))])
    return h.hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--matches", type=int, default=2)
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--only", default="", help="only the configurations whose name starts with this")
    ap.add_argument("--out", help="write the JSON here instead of stdout")
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore")  # an option that changes nothing on its host: fingerprinted all the same
    result: dict[str, str] = {}
    for rid, opts, n, bot in configurations():
        name = f"{rid}{''.join('+' + o for o in opts)} {n}p {bot}"
        if not name.startswith(args.only):
            continue
        try:
            game = Game(load_ruleset(rid, opts), n)
        except (GameError, RulesetError) as exc:  # an option that does not fit this host or count
            result[name] = f"skipped: {type(exc).__name__}"
            continue
        result[name] = fingerprint(game, bot, args.matches, args.hands)
        if bot == "random":
            result[name + " apply"] = transitions(game, 1, args.hands)
            result[name + " observations"] = str(observations(game, 1, args.hands))
    text = json.dumps(result, indent=1, sort_keys=True)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    else:
        sys.stdout.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
