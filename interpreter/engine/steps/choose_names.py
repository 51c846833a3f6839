"""What the written code of a ``choose`` step refers to besides the helpers of the game's expressions, and by which
names: its own part's (``OWN``), or, where the choice is written in place in the playout loop of the list of steps
holding it (choose_code.py's ``InLoop``), names of its own there, after the step's place in the list."""

from __future__ import annotations

from operator import attrgetter
from typing import Any, NamedTuple

from interpreter.dsl.compiler import RUNTIME_ERRORS
from interpreter.engine.card_values import cards_named
from interpreter.engine.game_view import GameView
from interpreter.engine.state import Decision
from interpreter.engine.state_shape import StateShape
from interpreter.engine.steps.action_types import Pass, Stop
from interpreter.engine.steps.choose import Choose
from interpreter.engine.steps.choose_labels import ChoiceLabels, distinct
from interpreter.engine.steps.choose_reading import Choosing
from interpreter.engine.steps.writer import Writer


class Names(NamedTuple):
    """The names the written code of a choice gives what it refers to besides the helpers of the game's expressions
    (and ``Decision``, ``RUNTIME_ERRORS`` and ``Writer.run_globals``, the same for every step): its own part's
    (``OWN``), or, written in place in the loop of the list of steps holding it (``InLoop``), names of its own
    there."""

    STEP: str  # the step (for its words, and as the Decision's step)
    Q: str  # the class of its progress
    KINDS: str  # each card's kind (identical cards alike)
    Pass: str
    Stop: str
    cards_named: str
    LABELS: str  # the choices of values that are not cards, with their labels (choose_labels.py)
    FIXED: str  # fixed choices and their actions, once made
    MADE: str  # the choice of each value whose label reads only the value, once made (the step's own dict)
    UNMADE: str  # the errors of a value whose choice is not made yet
    LABEL_OF: str  # a choice's label
    DISTINCT: str  # one choice per label
    CARD_CHOICES: str  # each card's choice (its label), for options that are cards


OWN = Names(*Names._fields)


def values(step: Choose, game: GameView, shape: StateShape, names: Names = OWN) -> dict[str, Any]:
    """What the names ``names`` stand for in the written code of ``step`` (with those shared by every step)."""
    # the step's own, or with the label written for another state's shape
    label = step.label_expr
    labels = step.labels if label is None or shape.compiled(label) is label else \
        ChoiceLabels(shape.compiled(label), step.option_type, step._choices)
    own: tuple[Any, ...] = (step, Choosing, game.cards.kinds, Pass, Stop, cards_named, labels, [], step._choices,
                            (KeyError, TypeError), attrgetter("label"), distinct, step._card_choices)  # Names' order
    return {**dict(zip(names, own)), "Decision": Decision, "RUNTIME_ERRORS": RUNTIME_ERRORS, **Writer.run_globals()}


def placed(ref: str) -> Names:
    """The names of a choice written in place in the code of its list, where the step itself is ``ref``."""
    return Names(ref, *(f"{ref}_{n}" for n in Names._fields[1:]))
