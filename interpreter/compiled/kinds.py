"""The compiled template of each step kind (steps.py says what a template gives): the kinds written so far."""

from __future__ import annotations

from typing import Any

from interpreter.compiled import board_template, choose_template, reveal_template, trick_template
from interpreter.compiled.steps import StepCode, Template, Writing
from interpreter.compiled.values import NotWritten

TEMPLATES: dict[str, Template] = {
    "tricks": trick_template.write,
    "board": board_template.write,
    "reveal": reveal_template.write,
    "choose": choose_template.write,
}


def step_code(step: Any, writing: Writing) -> StepCode:
    """The compiled template of ``step``, or NotWritten naming what is not written yet."""
    made = TEMPLATES.get(step.kind)
    if made is None:
        raise NotWritten(f"the step kind {step.kind!r}")
    return made(step, writing)
