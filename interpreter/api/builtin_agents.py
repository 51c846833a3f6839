"""The built-in agents by name, for programs that drive games through the API (the web's bots): the same agents,
seeded the same way, as ``trickbook play --agents`` and ``TrickGame.play`` use (docs/agents.md)."""

from __future__ import annotations

from typing import Any

from interpreter.harness.players import AGENTS, ITERATIONS, PLAY_AGENT, agent_factory, parse_agents

DEFAULT_ITERATIONS = ITERATIONS  # an ismcts agent's iterations a decision, unless told otherwise

__all__ = ["AGENTS", "DEFAULT_ITERATIONS", "PLAY_AGENT", "agents"]


def agents(names: list[str], seed: Any = None, iterations: int = DEFAULT_ITERATIONS) -> list[Any]:
    """One agent a name, for the seats in order: ``random``, ``greedy``, ``ismcts`` (``iterations`` a decision) or
    one of your own as ``module:Class`` (in processes of its own). Seat ``s``'s agent is seeded from ``seed`` and
    ``s``, as a game played with that seed seeds it, so ``agents(names, seed)[s]`` chooses as the seat's agent of
    ``game.play(names, seed)`` does. An unknown name raises GameError."""
    return agent_factory(parse_agents(",".join(names), len(names)), iterations)(seed)
