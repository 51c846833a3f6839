"""Which backend plays a run's games: the Python backend (every game, every agent), or the compiled one
(interpreter/compiled: numba, the ``fast`` extra) for games of random and greedy agents whose rule file it writes
(greedy agents: where their judgement reads only what every seat sees, compiled/agents.py).

``--engine auto`` (the default, or ``TRICKBOOK_ENGINE``) takes the compiled backend where it can and where it pays
(the game compiled before, or a run the Python backend would take longer to play than compiling takes), and says
once, on standard error, which backend runs and why; ``--engine compiled`` insists (an error says why it cannot);
``--engine python`` never compiles. A compiled game's random draws come from numba's stream seeded from the game's
seed (``stream_seed``): the same seed gives the same game on any number of workers, but not the game the Python
backend's random agents play with that seed; ``trickbook play --engine compiled --seed S`` plays that very game
again (the Python backend following its draws, compiled/replay.py).
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from interpreter.errors import TrickbookError

ENGINES = ("auto", "compiled", "python")
COMPILE_PAYS = 20.0  # s of CPU: a run the Python backend plays in less is not worth compiling a game for


def stream_seed(seed: Any) -> int:
    """The compiled backend's random stream's seed for a game seed (a number or any text): 32 bits of its digest."""
    return int.from_bytes(hashlib.sha256(str(seed).encode()).digest()[:4], "little")


def requested(engine: str | None) -> str:
    """The engine asked for: ``engine``, else ``TRICKBOOK_ENGINE``, else auto."""
    chosen = engine or os.environ.get("TRICKBOOK_ENGINE") or "auto"
    if chosen not in ENGINES:
        raise TrickbookError(f"no engine {chosen!r}; the engines are {', '.join(ENGINES)}")
    return chosen


def why_not(game: Any, agents: list[str], deal: bool = False, records: bool = False) -> str | None:
    """Why the compiled backend cannot play these games (None: it can): numba missing, agents other than random and
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
    try:
        import numba  # noqa: F401
    except ImportError:
        return "numba is not installed (pip install 'trickbook[fast]')"
    from interpreter.compiled.values import NotWritten

    try:
        _written(game)
    except NotWritten as exc:
        return f"it does not write {exc} yet"
    greedy = greedy_refusal(game) if "greedy" in agents else None
    return None if greedy is None else f"it does not write {greedy} yet"


def chosen_engine(engine: str | None, game: Any, agents: list[str], deal: bool = False, records: bool = False,
                  say: Any = None, games: int = 0) -> str:
    """``compiled`` or ``python``, as ``engine`` asks and the games allow (see the module's docstring); ``say``
    gets the one line that tells which runs and why. Asked for auto, a game not compiled before is compiled only
    for a run of ``games`` the Python backend would take longer to play than compiling takes (COMPILE_PAYS)."""
    asked = requested(engine)
    if asked == "python":
        return "python"
    reason = why_not(game, agents, deal, records)
    if reason is None and asked == "auto" and not _written(game).kept:
        seconds = python_seconds(game, games, agents)
        if seconds < COMPILE_PAYS:
            reason = (f"{games} games take about {seconds:.0f} s here, less than compiling this game takes; "
                      "--engine compiled compiles it, once")
    if reason is None:
        if say is not None:
            say("engine: compiled (numba)" + ("" if _written(game).kept else
                                              "; compiling this game, once (10 to 30 s; later runs load it)"))
        return "compiled"
    if asked == "compiled":
        raise TrickbookError(f"--engine compiled cannot play these games: {reason}")
    if say is not None:
        say(f"engine: python ({reason})")
    return "python"


def python_seconds(game: Any, games: int, agents: Any = (), tries: int = 2) -> float:
    """About how much CPU time ``games`` games take on the Python backend (``tries`` of them timed): of random agents,
    or, where ``agents`` names another (a greedy seat samples what it knows at every play), of those agents."""
    import random
    import time

    start = time.process_time()
    if all(a == "random" for a in agents):
        rng = random.Random(0)
        for _ in range(tries):
            game.playout(game.new_state(), rng)
    else:
        from interpreter.harness.players import agent_factory
        from interpreter.harness.runner import play_game

        names = list(agents) + [list(agents)[-1]] * (game.players - len(agents))
        for k in range(tries):
            play_game(game, agent_factory(names)(f"pays/{k}"), seed=f"pays/{k}")
    return (time.process_time() - start) / tries * games


@lru_cache(maxsize=8)
def _written(game: Any) -> Any:
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
