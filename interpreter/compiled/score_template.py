"""A ``score`` step written for the compiled backend (the step kind's second template, steps.py, beside
engine/steps/score.py's written code): every seat's ``points`` worked out from the same state, then added to its
total. ``PREFIX_start`` does it all and returns ``DONE``.

The round's scores, which the Python backend appends to the rounds' results (not held in the arrays, arrays.py),
are left in the step's progress slots: ``p[base + s]`` is seat ``s``'s points of this round, for the machine to
read. ``explain`` is not written: it is the narration's, and the compiled backend tells nothing.
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.steps import ARRAYS, StepCode, Writing
from interpreter.dsl.types import SEAT
from interpreter.runtime.layout import TOTAL


def write(step: Any, w: Writing) -> StepCode:
    """The compiled template of ``step``, a score step (see the module's docstring)."""
    n, name = w.players, w.prefix
    points = w.call(step.points, {"seat": "s"}, {"seat": SEAT}, "points")
    total = w.lay.value(TOTAL, "", 0)
    lines = [f"def {name}_start({ARRAYS}, p):",
             f"    for s in range({n}):",  # every seat scored from the same state first
             f"        p[{w.base} + s] = {points}",
             f"    for s in range({n}):",
             f"        v[{total} + s] += p[{w.base} + s]",
             "    return DONE", ""]
    return StepCode(name, "\n".join(lines), n, expressions=w.expressions)
