"""Any rule file as a batched (vector) environment on the compiled backend: N games stepped in one compiled call
(``pip install 'trickbook[fast]'``; docs/vector.md).

``VectorEnv("my-game.yaml", players=4, n=256, seed=1)`` holds ``n`` games of one rule file, player count and
options, each waiting at a decision of one seat. ``reset()`` begins them all; ``step(actions)`` takes one action in
each game (a NumPy array of ``n`` action ids) and moves every game on to its next decision, in one call of the
compiled module. Its arrays are made once and written in place at every call (copy what you keep):

* ``obs``, float32 ``[n, observation_size]``: each game's observation of the seat to act, the same numbers as the
  seat's ``GameState.observation_tensor`` (the game's ``observation_layout``; what the seat may see and nothing more);
* ``mask``, int8 ``[n, num_actions]``: 1 for each action id the seat to act may take;
* ``rewards``, float32 ``[n, players]``: 0 until a game ends; at its end each seat's share of the win (1 for a sole
  winner, 1/k each for k winners), as the PettingZoo environment gives it;
* ``terminated``, ``truncated``, bool ``[n]``: a game ended by this step (its end held; truncated: its end did not
  hold within the rounds the engine allows);
* ``info["seat"]``, int64 ``[n]``: the seat to act in each game (whose observation ``obs`` is);
* ``legal_ids``, int64 ``[n, most]``, and ``legal_counts``, int64 ``[n]``: the ids the mask holds, as lists:
  ``legal_ids[g, :legal_counts[g]]`` (a uniform random policy is then one NumPy line, docs/vector.md).

An action is one of the game's fixed ids (``TrickGame.actions``: the same ids as ``GameState.legal_actions``, the
PettingZoo and OpenSpiel environments; ``TrickGame.action(id)`` says what it is: the card, the choice, the space).
A game that ends is begun again at once, in the same call (Gymnasium's "same step" autoreset): the step that ends it
gives its rewards and ``terminated`` with the new game's observation and mask. Deals are drawn inside the compiled
call from the compiled random stream, seeded by ``seed``; automatic seats play by their policy inside it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from interpreter.api import TrickGame, load
from interpreter.compiled.action_ids import action_ids
from interpreter.compiled.arrays import Arrays
from interpreter.compiled.machine import Machine
from interpreter.compiled.observe_template import ObservationWriter
from interpreter.compiled.settling import NO_ACTION
from interpreter.compiled.vector_template import EMPTY, UNNUMBERED, vector_source
from interpreter.errors import GameError, IllegalAction

_ERRORS = {NO_ACTION: "an automatic seat's policy gave no action it may take",
           UNNUMBERED: "a legal action has no id (its step's ids do not list it)",
           EMPTY: "a new game was over before any seat decided"}


class VectorEnv:
    """``n`` games of a rule file stepped together on the compiled backend (see the module's docstring).
    ``compiled=False`` runs the same module as plain Python (slow: for tests). Raises ``NotWritten`` (a GameError)
    naming the part of the game the compiled backend does not write yet. With Gymnasium installed, its spaces are
    ``single_observation_space``, ``single_action_space``, ``observation_space`` and ``action_space``."""

    metadata: dict[str, Any] = {"autoreset_mode": "SameStep"}  # (Gymnasium's AutoresetMode.SAME_STEP, by value)

    def __init__(self, rules: str | Path | TrickGame, players: int | None = None, n: int = 1,
                 options: dict[str, Any] | None = None, seed: int | None = None, compiled: bool = True):
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise GameError(f"a vector environment needs a whole number of games, 1 or more (got {n!r})")
        if compiled:
            try:
                import llvmlite  # noqa: F401
            except ImportError:
                raise GameError("the vector environment runs on the compiled backend, which needs llvmlite: pip "
                                "install "
                                "'trickbook[fast]' (compiled=False runs it as plain Python, slowly)") from None
        self.game = rules if isinstance(rules, TrickGame) else load(rules, players, options)
        self.num_envs = n
        self.players = self.game.players
        self.num_actions = self.game.num_actions
        self.observation_size = self.game.observation_size
        self.machine = machine = Machine(self.game.engine, compiled)
        ids = action_ids(machine, self.game.actions)
        writer = ObservationWriter(machine, self.game.encoder)
        machine.extend(lambda: "\n\n".join([writer.source(), vector_source(machine, ids)]))
        self._module = machine.module
        box = self._box = machine.box()
        z, zn, v, l, ln = (np.repeat(a[np.newaxis], n, 0) for a in box[:5])  # noqa: E741 - l as the module names it
        self._games = Arrays(z, zn, v, l, ln, box.h.copy())  # each game's arrays, one more leading dimension
        self._progress = np.zeros((n, machine.size), np.int64)
        self.obs = np.zeros((n, self.observation_size), np.float32)
        self.mask = np.zeros((n, self.num_actions), np.int8)
        self.rewards = np.zeros((n, self.players), np.float32)
        self.terminated = np.zeros(n, np.bool_)
        self.truncated = np.zeros(n, np.bool_)
        self.seats = np.zeros(n, np.int64)
        self.legal_ids = np.zeros((n, machine.actions), np.int64)
        self.legal_counts = np.zeros(n, np.int64)
        self._errors = np.zeros(n, np.int64)
        self._rows = np.arange(n)
        self._seed = seed
        self._ready = False

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Every game begun again (``seed``: the compiled random stream seeded with it first, else with the seed the
        environment was made with, once; ``options``: Gymnasium's argument, none taken): ``(obs, info)``."""
        seed = self._seed if seed is None else seed
        if seed is not None:
            self._module.seed(int(seed))
            self._seed = None
        self.mask[:] = 0
        self.legal_counts[:] = 0
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self.truncated[:] = False
        self._module.reset_many(*self._games, self._progress, *self._box[:5], self.obs, self.mask, self.seats,
                                self.legal_ids, self.legal_counts, self._errors)
        self._check()
        self._ready = True
        return self.obs, {"seat": self.seats}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action id in each game (an array of ``n`` whole numbers), each legal where it is taken (``mask``):
        ``(obs, rewards, terminated, truncated, info)``. An action a game's mask refuses raises IllegalAction and
        no game moves."""
        if not self._ready:
            raise GameError("reset() the vector environment before its first step")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
            raise IllegalAction(f"step takes {self.num_envs} action ids, one a game (got an array of shape {a.shape} "
                                f"and type {a.dtype})")
        a = a.astype(np.int64, copy=False)
        bad = (a < 0) | (a >= self.num_actions)
        if not bad.any():
            bad = self.mask[self._rows, a] == 0
        if bad.any():
            g = int(np.flatnonzero(bad)[0])
            raise IllegalAction(f"game {g}: action {int(a[g])} is not one its seat to act may take (its legal ids: "
                                f"{np.flatnonzero(self.mask[g]).tolist()})")
        self._module.step_many(*self._games, self._progress, *self._box[:5], a, self.obs, self.mask, self.seats,
                               self.legal_ids, self.legal_counts, self._errors, self.rewards, self.terminated,
                               self.truncated)
        self._check()
        return self.obs, self.rewards, self.terminated, self.truncated, {"seat": self.seats}

    def _check(self) -> None:
        """A game the compiled call stopped: its error raised (the environment must be reset)."""
        if self._errors.any():
            self._ready = False
            g = int(np.flatnonzero(self._errors)[0])
            raise GameError(f"game {g} of the vector environment stopped: {_ERRORS.get(int(self._errors[g]), 'error')}")

    @property
    def single_observation_space(self) -> Any:
        """One game's observation: a Box of ``observation_size`` float32 numbers (Gymnasium)."""
        from gymnasium import spaces

        return spaces.Box(-np.inf, np.inf, (self.observation_size,), np.float32)

    @property
    def single_action_space(self) -> Any:
        """One game's action: one of the ``num_actions`` ids (Gymnasium)."""
        from gymnasium import spaces

        return spaces.Discrete(self.num_actions)

    @property
    def observation_space(self) -> Any:
        from gymnasium import spaces

        return spaces.Box(-np.inf, np.inf, (self.num_envs, self.observation_size), np.float32)

    @property
    def action_space(self) -> Any:
        from gymnasium import spaces

        return spaces.MultiDiscrete(np.full(self.num_envs, self.num_actions))

    def close(self) -> None:
        """Nothing to close (the games are arrays of this process)."""

    def legal_actions(self, g: int) -> list[int]:
        """The ids game ``g``'s seat to act may take, in increasing order (as its ``mask`` row has them)."""
        return np.flatnonzero(self.mask[g]).tolist()

    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """An action id for each game, uniform among its legal ones (drawn from ``rng``, in NumPy)."""
        k = (rng.random(self.num_envs) * self.legal_counts).astype(np.int64)
        return self.legal_ids[self._rows, k]
