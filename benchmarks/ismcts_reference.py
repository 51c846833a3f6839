"""ismcts iterations per second, as measured on the reference commit of issue 33's search target. Kept frozen.

Issue 33 asks for at least 2x the iterations per second of the search of its day (commit 4d57510). That search
cannot be imported next to a rewritten engine, so benchmarks/run.py measures it in a child process, in a copy
of the reference commit (``git archive``), interleaved with the measurement of the current search in its own
process, and takes the ratio run by run. This file is what the child runs: it is written against the engine's
objects of the reference commit (``Game.apply_fast``, ``state.pending``, ``Knowledge``, ``Turn``,
``IsmctsAgent``), imports whatever ``interpreter`` package comes first on ``sys.path`` (run.py puts the copy
there) and must not change with the engine; the current side is measured by run.py's own code.

    PYTHONPATH=COPY python benchmarks/ismcts_reference.py GAME SEED SECONDS REACH   # prints one line of JSON

The workload: one ``IsmctsAgent`` (the command's default iterations a decision) deciding in fresh mid-game
states of GAME with 4 players; each state is reached by random play through the harness's loop (the seat's
``Knowledge`` kept up to date) for a random number of decisions below REACH, at a decision with two or more
actions; only ``act`` is timed, by CPU time (``time.process_time``), until SECONDS have passed.
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Any


def mid_game(game: Any, rng: random.Random, reach: int) -> tuple[Any, Any]:
    """A state reached by random play (with the harness's Knowledge) after a random number of decisions below
    ``reach``, at a decision with two or more actions; and its Knowledge."""
    from interpreter.engine.knowledge import Knowledge
    from interpreter.engine.state import CHANCE

    while True:
        state = game.new_state()
        knowledge = Knowledge(game, state)
        target = rng.randrange(reach)
        done = 0
        while not state.finished:
            d = state.pending
            if d.actor == CHANCE:
                game.apply_fast(state, game.sample_chance(state, rng))
            else:
                if done >= target and len(d.actions) > 1:
                    return state, knowledge
                game.apply_fast(state, d.actions[int(rng.random() * len(d.actions))])
                done += 1
            knowledge.update(state)


def ismcts_rate(game: Any, rng: random.Random, seconds: float, reach: int) -> tuple[float, float]:
    """Iterations per second of CPU time of IsmctsAgent.act, and the decisions searched per second."""
    from interpreter.harness.agents import Turn
    from interpreter.harness.players import ITERATIONS
    from interpreter.harness.search import IsmctsAgent

    spent = 0.0
    iterations = decisions = 0
    while spent < seconds:
        state, knowledge = mid_game(game, rng, reach)
        d = state.pending
        agent = IsmctsAgent(rng.random(), ITERATIONS)
        turn = Turn(game, state, d.actor, d.actions, d.prompt, knowledge, d.kind)
        start = time.process_time()
        agent.act(turn)
        spent += time.process_time() - start
        iterations += ITERATIONS
        decisions += 1
    return iterations / spent, decisions / spent


def main(argv: list[str]) -> None:
    import interpreter
    from interpreter.engine.compile import compile_game
    from interpreter.rules.loader import load_rules

    name, seed, seconds, reach = argv[0], int(argv[1]), float(argv[2]), int(argv[3])
    game = compile_game(load_rules(name), 4)
    iterations, decisions = ismcts_rate(game, random.Random(seed), seconds, reach)
    print(json.dumps({"iterations_per_s": iterations, "decisions_per_s": decisions,
                      "package": interpreter.__file__}))


if __name__ == "__main__":
    main(sys.argv[1:])
