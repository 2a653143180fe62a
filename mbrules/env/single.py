"""A single-agent Gymnasium environment: one seat learns, named mbrules bots play the others.

    from mbrules.env import single_agent_env
    env = single_agent_env(ruleset="winning-moves", players=2, opponents="heuristic", options=[])
    obs, info = env.reset(seed=7)
    while True:
        mask = obs["action_mask"]
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample(mask))
        if terminated or truncated:
            break

The action space and the observation dict (``observation``, ``action_mask``) are those of
``mille_bornes_v1`` (docs/rl.md): the draw that starts a turn is taken for everyone, and the
agent is asked only real decisions. The bots (``random``, ``heuristic``, ``expert``,
``learned``..., any name ``mbrules bots`` lists, with ``name:key=value`` parameters) see their own
seat's observation only, as in ``mbrules simulate``; a decision with one legal action is applied
without asking them.

Rewards: ``"match"`` (default) at the match's end, +1 when the agent's side wins, ``-1/(S-1)``
when another side does, 0 for a draw or an unfinished match; ``"points"``: at each hand's end, the
agent's side's points for the hand. An illegal action (in range, refused by the rules) ends the
episode as a loss (``illegal="lose"``, the default: reward -1, ``info["illegal_action"]`` names it)
or raises ``ValueError`` (``illegal="raise"``); an index outside ``0..N-1`` always raises
``ValueError``. ``action_masks()`` returns the mask alone (sb3-contrib's ``MaskablePPO`` calls it).

Seeding: ``reset(seed=s)`` deals the match ``new_match(s)`` and seeds the bots from ``s`` as
``mbrules simulate`` does; ``reset()`` without a seed draws the match seed from the env's
``np_random``.
"""

from __future__ import annotations

from array import array
from typing import Any, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

import mbrules
from mbrules._paths import DEFAULT_RULESET

from ..bots import check_bot, make_bot
from ..engine import State
from ..engine.compact import ObservationWriter
from ..seats import BotSeat, LaterSeat, SeatLoop
from ._aec import F32, I8
from .encoding import ActionSpace, ObservationEncoder

__all__ = ["ILLEGAL", "REWARDS", "SingleAgentEnv", "single_agent_env"]

REWARDS = ("match", "points")
ILLEGAL = ("lose", "raise")


def single_agent_env(
    ruleset: str = DEFAULT_RULESET,
    players: int = 2,
    opponents: str | Sequence[str] = "heuristic",
    options: str | Sequence[str] = (),
    **kwargs: Any,
) -> "SingleAgentEnv":
    """The Gymnasium env of one seat against bots (module docstring); ``kwargs``: ``seat``, ``reward``,
    ``illegal``, ``render_mode``."""
    return SingleAgentEnv(ruleset=ruleset, players=players, opponents=opponents, options=options, **kwargs)


class SingleAgentEnv(gymnasium.Env):
    """One seat of Mille Bornes under any ruleset, the other seats played by named bots."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        ruleset: str = DEFAULT_RULESET,
        players: int = 2,
        opponents: str | Sequence[str] = "heuristic",
        options: str | Sequence[str] = (),
        seat: int = 0,
        reward: str = "match",
        illegal: str = "lose",
        render_mode: str | None = None,
    ):
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        if isinstance(options, str):
            options = [options]  # one option id, not its letters
        self.game = mbrules.load_game(ruleset, players=players, options=options)  # one string is one option (load_game)
        g = self.game
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < g.players:
            raise ValueError(f"seat must be a player index in 0..{g.players - 1}, not {seat!r}")
        if isinstance(opponents, str):
            opponents = [opponents] * (g.players - 1)
        opponents = list(opponents)
        if len(opponents) != g.players - 1:
            raise ValueError(
                f"opponents: give one bot name, or one per other seat ({g.players - 1}), not {len(opponents)}"
            )
        for name in opponents:
            check_bot(name)  # UnknownBot (a ValueError) names the bots there are
        self.opponents = opponents
        self.seat = seat
        self.reward_mode = reward
        self.illegal = illegal
        self.render_mode = render_mode
        self.space = ActionSpace(g)
        self.encoder = ObservationEncoder(g)
        self._writer = ObservationWriter(self.encoder)
        high = np.array(self.encoder.high, dtype=np.float32)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=np.zeros_like(high), high=high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(len(self.space),), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(len(self.space))
        self._no_actions = array("b", bytes(len(self.space)))
        self.state_: State | None = None
        self._agent = LaterSeat()  # the agent's seat: its action comes with step()
        self._loop: SeatLoop | None = None

    # -- episode ----------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        match_seed = int(seed) if seed is not None else int(self.np_random.integers(1 << 62))
        self.match_seed = match_seed
        g = self.game
        self.state_ = st = g.new_match(match_seed)
        others = iter(self.opponents)
        seats = [
            self._agent if p == self.seat else BotSeat(make_bot(next(others), g, p, match_seed))
            for p in range(g.players)
        ]
        self._loop = SeatLoop(st, seats)
        self._advance()  # no hand ends before the agent's first decision: nothing is paid yet
        return self._obs(), self._info()

    def step(self, action: object) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.state_ is None:
            raise RuntimeError("reset() must be called before step()")
        st = self.state_
        if st.is_terminal():
            raise RuntimeError("the episode is over: call reset()")
        i = self.space.check(action)
        a = self.space.actions[i]
        hands_before = st.hands_played
        try:
            self._seat_loop().answer(a)  # the agent's seat answered later: this is its answer (checked as it is taken)
        except mbrules.IllegalAction as exc:
            if self.illegal == "raise":
                legal = ", ".join(str(x) for x in st.legal_actions())
                raise ValueError(f"the agent may not {a} now (action {i}): {exc.message}; legal: {legal}") from None
            info = self._info()
            info["illegal_action"] = f"{a}: {exc.message}"
            return self._obs(), -1.0, True, False, info
        reward = self._points(hands_before)
        reward += self._advance()
        if st.is_terminal():
            reward += self._match_reward()
        return self._obs(), reward, st.is_terminal(), False, self._info()

    def _advance(self) -> float:
        """Draws and the bots' decisions until the agent must decide or the match is over: the points reward meanwhile.

        The agent's seat answers later (its action comes with the next ``step``): the seat loop
        stops there; the agent is shown its forced moves but the draw, which the loop makes."""
        hands_before = self._match().hands_played
        self._seat_loop().advance()
        return self._points(hands_before)

    def _match(self) -> State:
        """The match in play (reset() starts one)."""
        if self.state_ is None:
            raise RuntimeError("reset() must be called first")
        return self.state_

    def _seat_loop(self) -> SeatLoop:
        """The seat loop of the match in play (reset() makes it)."""
        if self._loop is None:
            raise RuntimeError("reset() must be called first")
        return self._loop

    def _points(self, hands_before: int) -> float:
        st = self._match()
        if self.reward_mode != "points" or st.hands_played == hands_before:
            return 0.0
        side = self.game.side_of[self.seat]
        return float(sum(sheet[side]["total"] for sheet in st.hand_sheets[hands_before:]))

    def _match_reward(self) -> float:
        out = self._match().outcome  # the match is over
        if self.reward_mode != "match" or out is None or out.winner_index < 0:
            return 0.0
        return 1.0 if self.game.side_of[self.seat] == out.winner_index else -1.0 / (self.game.sides - 1)

    def _obs(self) -> dict[str, np.ndarray]:
        st = self._match()
        vec = np.frombuffer(self._writer.write(st, self.seat, st.hands_played), F32)
        return {"observation": vec, "action_mask": self.action_masks()}

    def action_masks(self) -> "np.ndarray":
        """Ones for the agent's legal actions now (all zeros once the match is over)."""
        st = self.state_
        mask = self._no_actions[:]
        if st is not None and st.current_player == self.seat:
            idx = self.space.index
            for a in st.legal_actions():
                mask[idx[a]] = 1
        return np.frombuffer(mask, I8)

    def _info(self) -> dict[str, Any]:
        st = self._match()
        info: dict[str, Any] = {"match_seed": self.match_seed}
        out = st.outcome if st.is_terminal() else None
        if out is not None:
            info["outcome"] = out.to_dict()
        return info

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'.")
            return None
        st = self.state_
        if st is None:
            return "(not reset)"
        obs = st.observation(self.seat)
        g = self.game
        lines = [repr(st), f"  {g.player_names[self.seat]} holds: {' '.join(g.card_ids[c] for c in obs.hand)}"]
        if st.current_player == self.seat:
            lines.append(f"  legal: {', '.join(str(a) for a in st.legal_actions())}")
        elif st.is_terminal():
            lines.append(f"  {st.outcome!r}")
        return "\n".join(lines)
