"""Positions met in real play, for the bot tests: every real decision of a few matches."""

from __future__ import annotations

from mbrules.bots import make_bots
from mbrules.engine import State


def decisions(game, seed: int, bots=("heuristic",), hands: int = 1, every: int = 1):
    """(state clone, player, legal actions) at every real choice of the first ``hands`` hands of a match."""
    players = make_bots(list(bots), game, seed)
    st = State.new_match(game, seed, deal_next=False)
    out = []
    n = 0
    for _ in range(hands):
        while True:
            acts = st.legal_actions()
            if not acts:
                break
            if len(acts) > 1:
                p = st.current_player
                if n % every == 0:
                    out.append((st.clone(), p, acts))
                n += 1
                a = players[p].choose(st.observation(p), acts)
            else:
                a = acts[0]
            st.apply(a)
        if st.is_terminal():
            break
        st.next_hand()
    return out


_MODELS: dict = {}


def learned_spec(game, folder) -> str:
    """``learned`` with a small model trained for ``game``'s rules (8 self-play matches, written under
    ``folder``): a ruleset with options has no shipped model, and training one on first use would cost
    300 matches and write to the user's cache. Once per rules and table size in a test process."""
    import pytest

    pytest.importorskip("sklearn", reason="training the learned bot's model needs the extra 'learn'")
    from mbrules.bots.training import train
    from mbrules.bots.value_model import write_model

    key = (game.ruleset.applied_options, game.players)
    if key not in _MODELS:
        path = folder / f"model-{len(_MODELS)}.json"
        write_model(train(game, games=8, seed=0), path)
        _MODELS[key] = f"learned:model={path}"
    return _MODELS[key]
