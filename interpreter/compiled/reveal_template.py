"""A ``reveal`` step written for the compiled backend (the step kind's second template, steps.py, beside
engine/steps/reveal.py's ``write``): ``PREFIX_start`` does its work and returns ``DONE``; it owns no progress slot
and decides nothing.

What a reveal changes is one thing: what each seat knows of the teams (``State.team_known``: per seat, the bits of
the seats whose team it was told; none while the teams are public). It changes no zone, no team slot (the teams
stay as the ``teams`` step set them) and no value an expression reads: the builtins that read what a seat knows
(``known_team``, ``known_opponents``, ``knows_team``) are not written for this backend (calls.py), so an expression
that reads it keeps its game on the Python backend, and a reveal never changes how a game goes on.

Where the arrays hold what each seat knows (the layout's ``team known`` slot as a list row, ``l[row, :players]``,
``ln[row]`` -1 while the teams are public), the template writes it as the Python backend does: while the teams are
hidden, the bits of the seats ``seats`` gives (a seat, or none for no seat) are added to every seat's, when some seat
did not know them all. The arrays of arrays.py do not hold it yet: there the template changes nothing (what each
seat was told is then missing from the compiled state: a caller that hands out a seat's observation or samples of
what it knows must not take them from these arrays), and a reveal is written whatever its ``seats`` give.

Not written (``NotWritten``, where the arrays hold what each seat knows): ``seats`` giving a list (``Writing.call``
writes expressions that give one value). Not done: the Python backend's check of the seats (a number that is no
seat is reported there, the checked path; here it is left out) and its narration.
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.steps import ARRAYS, StepCode, Writing
from interpreter.compiled.values import NotWritten
from interpreter.runtime.layout import KNOWN


def write(step: Any, w: Writing) -> StepCode:
    """The compiled template of ``step``, a reveal step (see the module's docstring)."""
    head = f"def {w.prefix}_start({ARRAYS}, p):"
    try:
        row = w.lay.list_of(KNOWN)
    except KeyError:  # what each seat knows is not in the arrays: nothing of them changes
        return StepCode(w.prefix, "\n".join([head, "    return DONE", ""]), 0, expressions=w.expressions)
    if step.seats.type.kind == "list":
        raise NotWritten("a reveal's seats given as a list")
    seat = w.call(step.seats, {}, {}, "seats")
    n = w.players
    lines = [head,
             f"    if ln[{row}] < 0:",  # the teams are public
             "        return DONE",
             f"    shown = {seat}",
             f"    if shown < 0 or shown >= {n}:",  # none: no seat
             "        return DONE",
             "    bits = 1 << shown",
             f"    for s in range({n}):",
             f"        l[{row}, s] |= bits",
             "    return DONE", ""]
    return StepCode(w.prefix, "\n".join(lines), 0, expressions=w.expressions)
