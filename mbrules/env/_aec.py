"""The PettingZoo AEC environment shared by ``mille_bornes_v0`` (the draw an agent step) and ``_v1`` (automatic).

Module docstrings of ``mille_bornes_v0`` and ``mille_bornes_v1`` and docs/rl.md say what a user
sees; this module holds the one implementation of both.
"""

from __future__ import annotations

import os
from typing import Any, NoReturn, Sequence

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import mbrules
from mbrules._paths import DEFAULT_RULESET

from ..engine import State
from ..engine.compact import ObservationWriter, draw_due, state_vector
from ..seats import LaterSeat, SeatLoop
from .encoding import ActionSpace, ObservationEncoder

__all__ = ["REWARDS", "MilleBornesAEC"]

REWARDS = ("match", "points")
# the vector's and the mask's dtypes, given to numpy.frombuffer as instances and by position: a dtype
# keyword and a scalar type cost it twice the time (the two calls were a tenth of a compiled v1 step's CPU)
F32 = np.dtype(np.float32)
I8 = np.dtype(np.int8)


class MilleBornesAEC(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """Mille Bornes under any ruleset: ``ruleset`` (a bundled id or a YAML path), ``players``, ``options``."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "mille_bornes", "is_parallelizable": False}
    auto_draw = False  # v1: the draw is taken for the agent, never an agent step
    check_order = False  # v1: step/observe/state before reset raise here (no wrapper needed)

    def __init__(
        self,
        ruleset: str = DEFAULT_RULESET,
        players: int = 4,
        options: str | Sequence[str] = (),
        reward: str = "match",
        render_mode: str | None = None,
        max_cycles: int | None = None,
    ):
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'human', 'ansi' or None, not {render_mode!r}")
        if max_cycles is not None and (
            isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1
        ):
            raise ValueError(f"max_cycles must be a positive int or None, not {max_cycles!r}")
        if isinstance(options, str):
            options = [options]  # one option id, not its letters
        self.game = mbrules.load_game(ruleset, players=players, options=list(options))
        self.reward_mode = reward
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.space = ActionSpace(self.game)
        self.encoder = ObservationEncoder(self.game)
        self._writer = ObservationWriter(self.encoder)
        self.possible_agents = list(self.game.player_names)
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.agents: list[str] = []
        high = np.array(self.encoder.high, dtype=np.float32)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=np.zeros_like(high), high=high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(len(self.space),), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(len(self.space)) for a in self.possible_agents}
        n = self.game.n_cards
        self.state_space = spaces.Box(
            low=0.0, high=float(max(self.game.deck_counts)), shape=((self.game.players + 2) * n,), dtype=np.float32
        )
        self._next_seed: int | None = None
        self.state_: State | None = None
        self._n_actions = len(self.space)
        # the action space's index of each action's code (a list: one lookup by position, no hashing)
        self._slot_of = [0] * (max(self.space.index) + 1)
        for code, i in self.space.index.items():
            self._slot_of[code] = i
        # v1 with no choice at a draw steps through State.step_next (step())
        self._step_next = self.auto_draw and not self.game.draw_choices

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- episode ----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = self._next_seed if self._next_seed is not None else int.from_bytes(os.urandom(7), "big")
        self.seed_ = int(seed)
        self._next_seed = self.seed_ + 1
        self.state_ = st = self.game.new_match(self.seed_)
        # every seat is an agent's, answering with step(): the one seat loop takes v1's draws between them
        self._loop = SeatLoop(st, [LaterSeat() for _ in self.possible_agents])
        self._acts: list[mbrules.Action] | None = None  # the legal actions now, when step() has them
        if self.auto_draw:
            self._draw_for_agent(st)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = {a: 0 for a in self.agents}
        self._paid = False  # whether self.rewards holds anything but zeros
        self.agent_selection = self.possible_agents[st.current_player]

    def _draw_for_agent(self, st: State) -> None:
        """v1: the draw that starts a turn is taken at once (the seat loop takes a lone draw without asking,
        where every seat answers later); the card is in the agent's next observation. The loop is stepped
        while a draw is due (the draw alone is legal: no turn rule offers a choice there), not advanced to
        the agent's decision: that would list the agent's legal actions once more a step (+9% instructions
        a v1 step). :meth:`step` takes them by ``State.step_next`` where the ruleset offers no choice at a
        draw (``step_next`` also takes a lone draw where the choice exists but is closed, which v1 asks)."""
        step = self._loop.step
        while draw_due(st):
            step()

    def _require_reset(self, what: str) -> NoReturn:
        """Called where there is no match yet (``state_`` is None)."""
        raise RuntimeError(f"reset() must be called before {what}()")

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        st = self.state_
        if st is None:
            self._require_reset("observe")
        p = self._seat[agent]
        vec = np.frombuffer(self._writer.write(st, p, st.hands_played), F32)
        return {"observation": vec, "action_mask": self._mask(st, p)}

    def action_mask(self, agent: str) -> "np.ndarray":
        """The ``action_mask`` of ``observe(agent)`` alone, without building the observation vector."""
        st = self.state_
        if st is None:
            self._require_reset("action_mask")
        return self._mask(st, self._seat[agent])

    def _mask(self, st: State, p: int) -> "np.ndarray":
        """Seat ``p``'s action mask: its legal actions' slots, none when another seat decides."""
        mask = bytearray(self._n_actions)
        if st.current_player == p:
            slot = self._slot_of
            acts = self._acts
            for a in st.legal_actions() if acts is None else acts:
                mask[slot[a]] = 1
        return np.frombuffer(mask, I8)

    def state(self) -> "np.ndarray":
        """The whole position as a vector, hidden cards included: PRIVILEGED (a centralised critic's input).

        Every hand (copies of each card, seat by seat), the draw pile's cards (counted) and its top
        card (one-hot); ``state_space`` bounds it. A policy that acts on it sees cards no player may
        see: give it to a critic trained centrally, never to an actor (docs/rl.md).
        """
        st = self.state_
        if st is None:
            self._require_reset("state")
        return np.array(state_vector(st), dtype=np.float32)

    def step(self, action: object) -> None:
        st = self.state_
        if st is None:
            self._require_reset("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not self.agents:
            raise RuntimeError("the episode is over: call reset()")
        # an int in range (a policy's usual answer) without a call; anything else checked by the space
        index = action if type(action) is int and 0 <= action < self._n_actions else self.space.check(action)
        a = self.space.actions[index]
        hands_before = st.hands_played
        self._acts = None
        try:  # the engine's one legality check; a refusal leaves the state as it was
            if self._step_next:
                # v1 with no choice at a draw: the action, the draws after it and the legal actions then
                # (action_mask's), in one engine call: the match loop's own step
                self._acts = st.step_next(a)
            else:
                st.step(a)
                if self.auto_draw:
                    self._draw_for_agent(st)
        except mbrules.IllegalAction as exc:
            legal = ", ".join(str(x) for x in st.legal_actions())
            raise ValueError(f"{agent} may not {a} now (action {index}): {exc.message}; legal: {legal}") from None
        self._cumulative_rewards[agent] = 0.0
        if self._paid:
            self.rewards = {x: 0.0 for x in self.agents}
            self._paid = False
        self._steps[agent] += 1
        if self.reward_mode == "points" and st.hands_played > hands_before:
            sheet = st.hand_sheets[-1]
            side_of = self.game.side_of
            for i, x in enumerate(self.possible_agents):
                self.rewards[x] = float(sheet[side_of[i]]["total"])
            self._paid = True
        if st.is_terminal():
            out = st.outcome
            assert out is not None  # a match over has its outcome
            if self.reward_mode == "match" and out.winner_index >= 0:
                S = self.game.sides
                for i, x in enumerate(self.possible_agents):
                    self.rewards[x] = 1.0 if self.game.side_of[i] == out.winner_index else -1.0 / (S - 1)
                self._paid = True
            self.terminations = {x: True for x in self.agents}
            self.infos = {x: {"outcome": out.to_dict()} for x in self.agents}
        elif self.max_cycles is not None and self._steps[agent] >= self.max_cycles:
            self.truncations = {x: True for x in self.agents}
        if self._paid:
            self._accumulate_rewards()
        if self.terminations[agent] or self.truncations[agent]:
            self.agent_selection = agent  # every agent is done: agent_iter walks the dead steps from here
            self._deads_step_first()
        else:
            self.agent_selection = self.possible_agents[st.current_player]
        if self.render_mode == "human":
            self.render()

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if self.check_order and self.state_ is None:
            self._require_reset("agent_iter")
        return super().agent_iter(max_iter)

    # -- display -----------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'.")
            return None
        text = self._text()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def _text(self) -> str:
        if self.state_ is None:
            return "(not reset)"
        st = self.state_
        g = self.game
        p = st.current_player
        lines = [repr(st)]
        viewer = p if p >= 0 else 0
        obs = st.observation(viewer)  # the table as the seat to act sees it; never another hand
        for s, v in enumerate(obs.sides):
            who = " ".join(g.player_names[q] for q in g.side_players[s])
            top = g.card_ids[v.battle[-1]] if v.battle else "-"
            safeties = " ".join(g.card_ids[c] for c in v.safeties + v.coup_fourres) or "-"
            limit = "" if v.limit is None else f", limit {v.limit}"
            lines.append(f"  side {g.side_names[s]} ({who}): {v.miles} miles, battle {top}{limit}, safeties {safeties}")
        if p >= 0:
            lines.append(f"  {g.player_names[p]} holds: {' '.join(g.card_ids[c] for c in obs.hand)}")
            lines.append(f"  legal: {', '.join(str(a) for a in st.legal_actions())}")
        elif st.is_terminal():
            lines.append(f"  {st.outcome!r}")
        return "\n".join(lines)

    def close(self) -> None:
        pass
