"""Any rule file as a PettingZoo AEC environment, and a Gymnasium environment for one seat
(``pip install 'trickbook[pettingzoo]'``).

``TrickbookEnv("my-game.yaml", players=4)`` is an AEC environment: the agents are the seats people or bots play
(by name; automatic seats play by the rules and are not agents); each observation is
``{"observation": the seat's observation tensor, "action_mask": 1 for each legal action id}``; actions are the
game's fixed action ids (``TrickGame.actions``); chance events (the deals) are drawn from the environment's own
random source, seeded by ``reset(seed=...)``. Rewards come at the end of the game: each seat's share of the win
(1 for a sole winner, 1/k each for k winners). ``infos[agent]["labels"]`` holds the labels of the legal actions
of the agent to act.

``SeatEnv("my-game.yaml", players=4, seat=0, others="greedy")`` is a Gymnasium environment in which one seat learns
and Trickbook's own agents (``random``, ``greedy``, ``ismcts``) play the others.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from interpreter.api import GameState, TrickGame, load
from interpreter.limits import MAX_NUMBER
from interpreter.toolkits.tensor import KeptTensor


class TrickbookEnv(AECEnv):
    """A Trickbook game as a PettingZoo AEC environment (see the module's docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "trickbook_v0", "is_parallelizable": False}

    def __init__(self, rules: str | Path, players: int | None = None, options: dict[str, Any] | None = None,
                 render_mode: str | None = None):
        super().__init__()
        self.game: TrickGame = load(rules, players, options)
        engine = self.game.engine
        self.seats = [s for s in range(self.game.players) if s not in engine.automatic]
        self.possible_agents = [engine.seat_names[s] for s in self.seats]
        self._seat_of = {name: s for name, s in zip(self.possible_agents, self.seats)}
        n = self.game.num_actions
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.game.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (n,), np.int8),
        })
        self._action_space = spaces.Discrete(n)
        self._actions = n
        self._names = engine.seat_names
        self.render_mode = render_mode
        self.state: GameState | None = None
        self._rng = random.Random()
        self._tensors = KeptTensor(self.game)  # the agents' observation tensors, kept from step to step

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng = random.Random(seed)
        self.state = self.game.new_state(seed=self._rng.randrange(MAX_NUMBER + 1))  # a seed a saved state holds
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._deal_on()
        self._select()

    def _deal_on(self) -> None:
        state = self.state
        assert state is not None
        while state.is_chance():
            state.apply_chance(rng=self._rng)

    def _select(self) -> None:
        state = self.state
        assert state is not None
        if state.is_over():
            winners = state.winners()
            for a in self.agents:
                self.rewards[a] = 1.0 / len(winners) if self._seat_of[a] in winners else 0.0
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            return
        seat = state.current_player
        assert seat is not None and seat >= 0, "chance is dealt before a seat is selected"
        self.agent_selection = agent = self._names[seat]
        self.infos[agent] = {"labels": state.labels()}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.state
        assert state is not None, "reset() first"
        mask = bytearray(self._actions)
        if agent == self.agent_selection and not state.is_over():
            for i in state.legal_actions():  # a few: set one by one
                mask[i] = 1
        return {"observation": self._tensors.tensor(state, self._seat_of[agent]),
                "action_mask": np.frombuffer(mask, np.int8)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None
        self._cumulative_rewards[agent] = 0.0  # the rewards stay 0.0 until the game is over (_select)
        state.apply(int(action))  # type: ignore[arg-type]  # None only for a seat that is done (above)
        if state.is_chance():
            self._deal_on()
        self._select()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str:
        """The table as a spectator sees it (JSON)."""
        return "" if self.state is None else self.state.observation_string(None)

    def close(self) -> None:
        pass


class SeatEnv(gymnasium.Env):
    """One seat of a Trickbook game as a Gymnasium environment: Trickbook's agents play the other seats."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, rules: str | Path, players: int | None = None, options: dict[str, Any] | None = None,
                 seat: int = 0, others: str = "random", iterations: int = 50):
        from interpreter.harness.players import agent_factory, parse_agents

        self.aec = TrickbookEnv(rules, players, options)
        if seat not in self.aec.seats:
            raise ValueError(f"seat {seat!r} is not one people or bots play (seats: {self.aec.seats})")
        self.seat = seat
        self.agent = self.aec.game.engine.seat_names[seat]
        self._names = parse_agents(others, self.aec.game.players)
        self._iterations = iterations
        self._factory = agent_factory
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self._others: list[Any] = []

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        self._others = self._factory(self._names, self._iterations)(seed)
        self._play_others()
        return self.aec.observe(self.agent), dict(self.aec.infos.get(self.agent, {}))

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        self.aec.step(action)
        self._play_others()
        done = self.aec.terminations[self.agent]
        reward = self.aec.rewards[self.agent] if done else 0.0
        return self.aec.observe(self.agent), float(reward), bool(done), False, dict(self.aec.infos[self.agent])

    def _play_others(self) -> None:
        """The other seats act, each by its Trickbook agent (which sees only its seat), until this seat is to
        act or the game is over."""
        from interpreter.harness.agents import Turn

        aec, state = self.aec, self.aec.state
        assert state is not None
        while not state.is_over() and aec.agent_selection != self.agent:
            inner = state._state
            d = inner.pending
            assert d is not None
            agent = self._others[d.actor]
            knowledge = state.knowledge() if getattr(agent, "samples", False) else None
            turn = Turn(aec.game.engine, inner, d.actor, d.actions, d.prompt, knowledge, d.kind)
            action = agent.act(turn)
            aec.step(state.legal_actions()[d.actions.index(action)])

    def render(self) -> str:
        return self.aec.render()
