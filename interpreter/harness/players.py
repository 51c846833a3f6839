"""Agents by name, for the command line: ``--agents random,ismcts,greedy`` gives one per seat."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from interpreter.errors import GameError
from interpreter.harness.search import ITERATIONS
from interpreter.limits import AGENT_MEMORY_MB, AGENT_SECONDS

if TYPE_CHECKING:
    from interpreter.harness.agents import Agent

# the agents themselves are imported when they are made, so that the command line starts without them (of the
# search only its module, for its default number of iterations: the search imports the engine's state alone)

AGENTS: dict[str, str] = {
    "random": "picks uniformly among the legal actions",
    "greedy": "wins a trick with its weakest winning card when taking cards pays in the game, ducks otherwise",
    "ismcts": "information-set Monte Carlo tree search over samples of what it cannot see (--iterations, "
              "--move-time)",
}


PLAY_AGENT = "greedy"  # the agent of every seat no one names where people play: trickbook play and the web lobby
RUN_AGENT = "random"  # ... in a run of many games (simulate, compare): the baseline every figure is measured against


def parse_agents(text: str, players: int) -> list[str]:
    """``random,ismcts`` for 4 players: one name per seat; a shorter list repeats its last name. A name with a
    colon is an agent of your own (``module:Class`` or ``path/to/file.py:Class``, see harness/remote.py)."""
    names = [n.strip() if ":" in n else n.strip().lower() for n in text.split(",")]
    for n in names:
        if n not in AGENTS and ":" not in n:
            raise GameError(f"unknown agent {n!r}; known agents: {', '.join(AGENTS)}, or one of your own as "
                            "module:Class")
    if len(names) > players:
        raise GameError(f"{len(names)} agents given for {players} seats")
    return names + [names[-1]] * (players - len(names))


def agent_factory(names: list[str], iterations: int = ITERATIONS, seconds: float | None = None,
                  limits: tuple[float, int] | None = None, engine: str | None = None) -> Callable[[Any], list[Agent]]:
    """Given a game's seed, the agents for its seats: each seeded from the game seed and its seat. ``limits``: what
    agents of your own may take, seconds per decision and megabytes of memory (harness/remote.py's Limits; by
    default AGENT_SECONDS and AGENT_MEMORY_MB). ``engine``: where ismcts searches (harness/engines.py's
    ``search_machine``; None: TRICKBOOK_ENGINE, else auto)."""

    from interpreter.harness.agents import RandomAgent
    from interpreter.harness.greedy import GreedyAgent
    from interpreter.harness.remote import Limits, ProcessAgent
    from interpreter.harness.search import IsmctsAgent

    own = Limits(*limits) if limits is not None else Limits()

    def make(seed: Any) -> list[Agent]:
        out: list[Agent] = []
        for s, name in enumerate(names):
            seat_seed = f"{seed}:{s}"
            if ":" in name:
                out.append(ProcessAgent(name, s, seat_seed, own))
            elif name == "ismcts":
                out.append(IsmctsAgent(seat_seed, iterations=iterations, seconds=seconds, engine=engine))
            elif name == "greedy":
                out.append(GreedyAgent(seat_seed))
            else:
                out.append(RandomAgent(seat_seed))
        return out

    return make


def play_command(rules: str, players: int, seed: Any, options: dict[str, Any], agents: list[str],
                 iterations: int = ITERATIONS, seconds: float | None = None, human: str | None = None,
                 deal: str | None = None, board: str | None = None, limits: tuple[float, int] | None = None,
                 engine: str = "python") -> str:
    """The ``trickbook play`` command that plays this very game again: its rules, player count, options, seed
    and each seat's agent (the same seed seeds the same agents), and the engine when it was the compiled one. A
    search given a time per move (``seconds``) searches as far as the machine gets in that time, so its replay may
    play otherwise."""
    names = list(agents)
    while len(names) > 1 and names[-1] == names[-2]:
        names.pop()  # a shorter list repeats its last name
    words = ["trickbook", "play", rules, "-p", str(players), "--seed", str(seed)]
    for key, value in options.items():
        words += ["-o", f"{key}={'true' if value is True else 'false' if value is False else value}"]
    if names != [PLAY_AGENT]:  # (play's default: a run's random agents are named)
        words += ["--agents", ",".join(names)]
    if "ismcts" in names and seconds is not None:
        words += ["--move-time", str(seconds)]
    elif "ismcts" in names and iterations != ITERATIONS:
        words += ["--iterations", str(iterations)]
    if limits is not None and any(":" in n for n in names):  # agents of your own, with limits not the default
        seconds, memory = limits
        words += ["--agent-timeout", f"{seconds:g}"] if seconds != AGENT_SECONDS else []
        words += ["--agent-memory", str(memory)] if memory != AGENT_MEMORY_MB else []
    if engine == "compiled":  # (its random agents drew from the compiled backend's stream)
        words += ["--engine", "compiled"]
    if human is not None:
        words += ["--human", human]
    if deal is not None:
        words += ["--deal", deal] + (["--board", board] if board is not None else [])
    return " ".join(shlex.quote(w) for w in words)
