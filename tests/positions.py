"""Test helper: a hand set up by card ids, for tests that need one exact position (the engine's tests and
the terminal game's, tests/human)."""

from __future__ import annotations

from mbrules.engine import Game, State


def position(
    game: Game,
    hands: dict[int, list[str]],
    sides: dict[int, dict[str, list[str] | bool]],
    turn: int = 0,
    draw: int | None = None,
) -> State:
    """Hands are filled to 6 with small distance cards; the rest of the deck is the draw pile
    (only its first ``draw`` cards when given), in the deck's order. A side's pile is a list of card ids,
    bottom first; a value that is not (``karma: False``, the side has lost its karma) is laid as given."""
    ids = lambda names: [game.card(n) for n in names]  # noqa: E731
    full = [ids(hands.get(p, [])) for p in range(game.players)]
    piles = {s: {k: v if isinstance(v, bool) else ids(v) for k, v in d.items()} for s, d in sides.items()}
    rest = list(game.deck)
    laid = [x for d in piles.values() for v in d.values() if not isinstance(v, bool) for x in v]
    for x in [x for h in full for x in h] + laid:
        rest.remove(x)
    for h in full:
        while len(h) < 6:
            pick = next(x for x in rest if game.card_ids[x] in ("d25", "d50", "d75"))
            rest.remove(pick)
            h.append(pick)
    if draw is not None:
        rest = rest[:draw]
    return State.from_position(game, hands=full, draw_top_first=rest, sides=piles, turn=turn)
