"""The code of a round: its steps entered one after the other, written for each game from its steps.

``enter_ROUND(game, state, p, i)`` enters the round's steps from the ``i``-th until one has a decision, as
steps_code.py writes the entering of any list of steps (each step's ``when`` in place, a step without decisions
doing its work, a step with written code started through it): the step found and its progress are kept in the
state (``step_index``, ``progress``) as soon as it starts, and its decision is given; after the last step the
round is over (``step_index`` -1) and None is given.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from interpreter.dsl.codegen import Namespace
from interpreter.dsl.compiler import RUNTIME_ERRORS
from interpreter.engine.steps.steps_code import StepsWriter
from interpreter.engine.steps.writer import Lines, Part

if TYPE_CHECKING:
    from interpreter.engine.game import Game


class RoundCode(NamedTuple):
    """The functions written for a game's round (see the module's docstring)."""

    enter: Any


def part(game: Game, gen: Namespace) -> Part:
    """The functions of ``game``'s round; ``gen``: the namespace of the game's expressions."""
    steps = StepsWriter("ROUND", game.steps, gen, game)
    w = Lines()
    with w.block("def enter_ROUND(game, state, p, i):"):
        steps.enter(w, lambda k: w("return d"), lambda k: w(f"state.step_index = {k}", "state.progress = q"))
        w("state.step_index = -1", "state.progress = None", "return None")
    return Part(w.text(), {"RUNTIME_ERRORS": RUNTIME_ERRORS, **steps.globals()},
                lambda f: RoundCode(f["enter_ROUND"]))
