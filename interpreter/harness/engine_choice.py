"""Which engine a command's games are played on, as ``--engine`` asks and the games allow (harness/engines.py
says what each engine can play): asked for auto, a game not compiled before is compiled only where the run would take
the Python backend longer than compiling takes, which is estimated by playing two of its games with the run's own
agents (this module plays games, so it sits above the agents and the match driver; engines.py below them)."""

from __future__ import annotations

from typing import Any

from interpreter.errors import TrickbookError
from interpreter.harness import engines


def chosen_engine(engine: str | None, game: Any, agents: list[str], deal: bool = False, records: bool = False,
                  say: Any = None, games: int = 0) -> str:
    """``compiled`` or ``python``, as ``engine`` asks and the games allow (see the module's docstring); ``say``
    gets the one line that tells which runs and why. Asked for auto, a game not compiled before is compiled only
    for a run of ``games`` the Python backend would take longer to play than compiling takes (engines.COMPILE_PAYS)."""
    asked = engines.requested(engine)
    if asked == "python":
        return "python"
    if asked == "compiled" and engines.searches(agents):  # the game on Python, its searches compiled
        engines.search_machine(asked, game)  # (an error says why they cannot)
        if say is not None:
            say("engine: python, the searches compiled" + ("" if engines.written(game).kept else
                                                                   "; compiling this game, once (1 to 10 s)"))
        return "python"
    reason = engines.why_not(game, agents, deal, records)
    if reason is None and asked == "auto" and not engines.written(game).kept:
        seconds = python_seconds(game, games, agents)
        if seconds < engines.COMPILE_PAYS:
            reason = (f"{games} games take about {seconds:.0f} s here, less than compiling this game takes; "
                      "--engine compiled compiles it, once")
    if reason is None:
        if say is not None:
            say("engine: compiled" + ("" if engines.written(game).kept else
                                              "; compiling this game, once (1 to 10 s; later runs load it)"))
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
