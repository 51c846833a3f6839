"""The compiled template of each step kind (steps.py says what a template gives): the kinds written so far."""

from __future__ import annotations

from typing import Any

from interpreter.compiled import (
    board_template,
    choose_template,
    deal_template,
    move_template,
    repeat_template,
    reveal_template,
    score_template,
    teams_template,
    trick_template,
    values_template,
)
from interpreter.compiled.steps import StepCode, Template, Writing
from interpreter.compiled.values import NotWritten

# the kinds whose steps repeat_template.py writes, each named ``PREFIX`` ``i`` its index (a climb: climb.py)
REPEATS = ("repeat", "climb")
TEMPLATES: dict[str, Template] = {
    "tricks": trick_template.write,
    "board": board_template.write,
    "reveal": reveal_template.write,
    "choose": choose_template.write,
    "deal": deal_template.write,
    "move": move_template.write,
    "set": values_template.write,
    "score": score_template.write,
    "teams": teams_template.write,
    # (a repeat's steps written by their kinds')
    **{kind: lambda step, w: repeat_template.write(step, w, step_code) for kind in REPEATS},
}


def step_code(step: Any, writing: Writing) -> StepCode:
    """The compiled template of ``step``, or NotWritten naming what is not written yet."""
    made = TEMPLATES.get(step.kind)
    if made is None:
        raise NotWritten(f"the step kind {step.kind!r}")
    writing.inner = step_code  # (for the steps it runs: a trick's between plays and after a trick)
    return made(step, writing)
