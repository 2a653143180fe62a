"""A PettingZoo AEC environment for any ruleset mbrules can load.

    from mbrules.env import mille_bornes_v0
    env = mille_bornes_v0.env(ruleset="winning-moves", players=4, options=[])
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Conventions of PettingZoo's classic card games: agents ``p1..pN``; a fixed ``Discrete`` action
space covering every action of the compiled game (``mbrules.env.encoding.ActionSpace``); the
observation is a dict with ``observation`` (float32 vector built from ``state.observation(agent)``
only, layout in ``mbrules.env.encoding``) and ``action_mask`` (int8, ones for the legal actions of
the agent to act, zeros for everyone else). docs/rl.md documents both layouts and the rewards.

Rewards (``reward=``): ``"match"`` (default) pays at the match's end: +1 to each player of the
winning side, ``-1/(S-1)`` to each player of the other sides (zero-sum), 0 to all for a draw or an
unfinished match (the ruleset's hands cap). ``"points"`` pays at every hand's end each player its
side's points for that hand (the hand's score sheet total), so the episode's return is the side's
match total. ``max_cycles`` (default None) truncates the episode once any agent has taken that
many steps; the ruleset's hands cap already bounds every match.

Seeding: ``reset(seed=s)`` plays the match ``mbrules.load_game(...).new_match(s)`` exactly; a later
``reset()`` without a seed plays ``s + 1``, ``s + 2``, ...; never seeded, the first seed comes
from the operating system.
"""

from __future__ import annotations

import functools
import os

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import mbrules

from .encoding import ActionSpace, ObservationEncoder

REWARDS = ("match", "points")


def env(**kwargs):
    """The environment wrapped like PettingZoo's classic games (order enforcing, bounds checks)."""
    e = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):
    """Mille Bornes under any ruleset: ``ruleset`` (a bundled id or a YAML path), ``players``, ``options``."""

    metadata = {"render_modes": ["human", "ansi"], "name": "mille_bornes_v0", "is_parallelizable": False}

    def __init__(self, ruleset: str = "winning-moves", players: int = 4, options=(), reward: str = "match",
                 render_mode: str | None = None, max_cycles: int | None = None):
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'human', 'ansi' or None, not {render_mode!r}")
        if max_cycles is not None and (not isinstance(max_cycles, int) or max_cycles < 1):
            raise ValueError(f"max_cycles must be a positive int or None, not {max_cycles!r}")
        self.game = mbrules.load_game(ruleset, players=players, options=options)  # one string: one option
        self.reward_mode = reward
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.space = ActionSpace(self.game)
        self.encoder = ObservationEncoder(self.game)
        self.possible_agents = list(self.game.player_names)
        self.agents = []
        high = np.array(self.encoder.high, dtype=np.float32)
        obs_space = spaces.Dict({
            "observation": spaces.Box(low=np.zeros_like(high), high=high, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(len(self.space),), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(len(self.space)) for a in self.possible_agents}
        self._next_seed = None
        self.state_ = None

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- episode ----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options=None):
        if seed is None:
            seed = self._next_seed if self._next_seed is not None else int.from_bytes(os.urandom(7), "big")
        self.seed_ = int(seed)
        self._next_seed = self.seed_ + 1
        self.state_ = self.game.new_match(self.seed_)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._steps = {a: 0 for a in self.agents}
        self.agent_selection = self.possible_agents[self.state_.current_player]

    def observe(self, agent):
        st = self.state_
        p = self.possible_agents.index(agent)
        points = [line["total"] for line in st.score_sheet()]
        vec = np.asarray(self.encoder.encode(st.observation(p), st.hands_played, points), dtype=np.float32)
        return {"observation": vec, "action_mask": self.action_mask(agent)}

    def action_mask(self, agent) -> "np.ndarray":
        """The ``action_mask`` of ``observe(agent)`` alone, without building the observation vector."""
        st = self.state_
        mask = np.zeros(len(self.space), dtype=np.int8)
        if st.current_player == self.possible_agents.index(agent):
            mask[self.space.legal_indices(st)] = 1
        return mask

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        st = self.state_
        a = self.space.actions[int(action)]
        hands_before = st.hands_played
        try:
            st.apply(a)  # the engine's one legality check; a refusal leaves the state as it was
        except mbrules.IllegalAction as exc:
            legal = ", ".join(str(x) for x in st.legal_actions())
            raise ValueError(f"{agent} may not {a} now (action {int(action)}): {exc.message}; legal: {legal}") from None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {x: 0.0 for x in self.agents}
        self._steps[agent] += 1
        if self.reward_mode == "points" and st.hands_played > hands_before:
            sheet = st.hand_sheets[-1]
            side_of = self.game.side_of
            for i, x in enumerate(self.possible_agents):
                self.rewards[x] = float(sheet[side_of[i]]["total"])
        if st.is_terminal():
            out = st.outcome
            if self.reward_mode == "match" and out.winner_index >= 0:
                S = self.game.sides
                for i, x in enumerate(self.possible_agents):
                    self.rewards[x] = 1.0 if self.game.side_of[i] == out.winner_index else -1.0 / (S - 1)
            self.terminations = {x: True for x in self.agents}
            self.infos = {x: {"outcome": out.to_dict()} for x in self.agents}
        elif self.max_cycles is not None and self._steps[agent] >= self.max_cycles:
            self.truncations = {x: True for x in self.agents}
        self._accumulate_rewards()
        if self.terminations[agent] or self.truncations[agent]:
            self.agent_selection = agent  # every agent is done: agent_iter walks the dead steps from here
            self._deads_step_first()
        else:
            self.agent_selection = self.possible_agents[st.current_player]
        if self.render_mode == "human":
            self.render()

    # -- display -----------------------------------------------------------------------
    def render(self):
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

    def close(self):
        pass
