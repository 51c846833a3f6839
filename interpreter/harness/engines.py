"""Which backend plays a run's games: the Python backend (every game, every agent), or the compiled one
(interpreter/compiled: llvmlite, the ``fast`` extra) for games of random and greedy agents whose rule file it writes
(greedy agents: where their judgement reads only what every seat sees, compiled/agents.py).

``--engine auto`` (the default, or ``TRICKBOOK_ENGINE``) takes the compiled backend where it can and where it pays (the
game compiled before, or a run the Python backend would take longer to play than compiling takes), and says once, on
standard error, which backend runs and why; ``--engine compiled`` insists (an error says why it cannot); ``--engine
python`` never compiles. A compiled game's random draws come from numpy's legacy stream (MT19937) seeded from the game's
seed (``stream_seed``): the same seed gives the same game on any number of workers, but not the game the Python
backend's random agents play with that seed; ``trickbook play --engine compiled --seed S`` plays that very game again
(the Python backend following its draws, compiled/replay.py).
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from interpreter.errors import TrickbookError

ENGINES = ("auto", "compiled", "python")
COMPILE_PAYS = 5.0  # s of CPU: a run the Python backend plays in less is not worth compiling a game for (1-8 s)


def stream_seed(seed: Any) -> int:
    """The compiled backend's random stream's seed for a game seed (a number or any text): 32 bits of its digest."""
    return int.from_bytes(hashlib.sha256(str(seed).encode()).digest()[:4], "little")


def requested(engine: str | None) -> str:
    """The engine asked for: ``engine``, else ``TRICKBOOK_ENGINE``, else auto."""
    chosen = engine or os.environ.get("TRICKBOOK_ENGINE") or "auto"
    if chosen not in ENGINES:
        raise TrickbookError(f"no engine {chosen!r}; the engines are {', '.join(ENGINES)}")
    return chosen


def searches(agents: list[str]) -> bool:
    """Whether ``agents`` are searches (ismcts) and random agents: with ``--engine compiled`` the game is played on
    the Python backend and the searches run compiled (search_machine)."""
    return "ismcts" in agents and set(agents) <= {"ismcts", "random"}


def searched_compiled(engine: str | None, agents: list[str]) -> bool:
    """Whether the searches of a game of ``agents`` run compiled as ``engine`` asks (its replay asks the same)."""
    return searches(agents) and requested(engine) == "compiled"


def why_not(game: Any, agents: list[str], deal: bool = False, records: bool = False) -> str | None:
    """Why the compiled backend cannot play these games (None: it can): llvmlite missing, agents other than random and
    greedy, a deal file, records asked for, or a part of the rule file it does not write yet (for greedy agents
    too)."""
    from interpreter.compiled.agents import AGENTS, greedy_refusal

    others = sorted({a for a in agents if a not in AGENTS})
    if others:
        return f"it plays random and greedy agents only (not {', '.join(others)})"
    if deal:
        return "it does not start from a deal file"
    if records:
        return "it keeps no records of the games"
    reason = unwritten(game)
    if reason is not None:
        return reason
    greedy = greedy_refusal(game) if "greedy" in agents else None
    return None if greedy is None else f"it does not write {greedy} yet"


def unwritten(game: Any) -> str | None:
    """Why the compiled backend cannot play ``game`` at all (None: it can): llvmlite missing, or a part of the rule file
    it does not write yet."""
    try:
        import llvmlite  # noqa: F401
    except ImportError:
        return "llvmlite is not installed (pip install 'trickbook[fast]')"
    from interpreter.compiled.values import NotWritten

    try:
        written(game)
    except NotWritten as exc:
        return f"it does not write {exc} yet"
    return None


def search_machine(engine: str | None, game: Any) -> Any:
    """The compiled machine a search of ``game`` runs on (harness/search.py: the game itself is played by the
    Python backend), or None: the search runs on the Python backend. Only where ``engine`` (or TRICKBOOK_ENGINE)
    is ``compiled``, which insists (an error says why it cannot): auto searches on the Python backend, so that a
    game's seed gives the same game whatever the user's cache holds (the compiled search draws its samples from
    numpy's legacy stream, so it plays other games than the Python one)."""
    if requested(engine) != "compiled":
        return None
    reason = unwritten(game)
    if reason is not None:
        raise TrickbookError(f"--engine compiled cannot search this game compiled: {reason}")
    return compiled_machine(game)


@lru_cache(maxsize=4)
def compiled_machine(game: Any) -> Any:
    """``game``'s machine, compiled (made once a process: loaded from the user's cache when kept)."""
    from interpreter.compiled.machine import Machine

    return Machine(game, compiled=True)


@lru_cache(maxsize=8)
def written(game: Any) -> Any:
    """``game``'s machine, written and not compiled (made once a process): NotWritten says what it does not write."""
    from interpreter.compiled.machine import Machine

    return Machine(game)


@lru_cache(maxsize=4)  # a worker keeps the few games of its runs, not every game it was ever given
def run_game(rules: str, players: int, options: tuple[tuple[str, Any], ...], allow: tuple[Path, ...]) -> Any:
    """The game of a run (a rule file, its player count and options), compiled once a process."""
    from interpreter.engine.compile import compile_game
    from interpreter.rules.loader import load_rules

    return compile_game(load_rules(rules, allow), players, dict(options))


@lru_cache(maxsize=4)
def machine_for(rules: str, players: int, options: tuple[tuple[str, Any], ...], allow: tuple[Path, ...]) -> Any:
    """The compiled machine of a run's game (made once a process: loaded from the user's cache when kept)."""
    from interpreter.compiled.machine import Machine

    return Machine(run_game(rules, players, options, allow), compiled=True)
