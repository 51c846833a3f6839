"""A ``reveal`` step written for the compiled backend (the step kind's second template, steps.py, beside
engine/steps/reveal.py's ``write``): ``PREFIX_start`` does its work and returns ``DONE``; it owns no progress slot
and decides nothing.

What a reveal changes is one thing: what each seat knows of the teams (``State.team_known``: per seat, the bits of
the seats whose team it was told; none while the teams are public). It changes no zone, no team slot (the teams
stay as the ``teams`` step set them) and no value an expression reads: the builtins that read what a seat knows
(``known_team``, ``known_opponents``, ``knows_team``) are not written for this backend (calls.py), so an expression
that reads it keeps its game on the Python backend, and a reveal never changes how a game goes on.

The arrays hold what each seat knows (the layout's ``team known`` slot as a list row, ``l[row, :players]``,
``ln[row]`` -1 while the teams are public, arrays.py): the template writes it as the Python backend does: while the
teams are hidden, the bits of the seats ``seats`` gives (a seat, a list of seats, or none for no seat) are added to
every seat's (the Python backend adds them when some seat did not know them all: the same bits). Not done: the
Python backend's check of the seats (a number that is no seat is reported there, the checked path; here it is left
out) and its narration.
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.steps import ARRAYS, StepCode, Writing
from interpreter.runtime.layout import KNOWN


def write(step: Any, w: Writing) -> StepCode:
    """The compiled template of ``step``, a reveal step (see the module's docstring)."""
    head = f"def {w.prefix}_start({ARRAYS}, p):"
    row, n = w.lay.list_of(KNOWN), w.players
    lines = [head,
             f"    if ln[{row}] < 0:",  # the teams are public
             "        return DONE"]
    if step.seats.type.kind == "list":
        lines += [*("    " + line for line in w.listed(w.call(step.seats, {}, {}, "seats", lists=True), "shown",
                                                       "count")),
                  "    bits = 0",
                  "    for i in range(count):",
                  f"        if 0 <= shown[i] < {n}:",  # (not a seat: refused by the Python backend)
                  "            bits |= 1 << shown[i]"]
    else:
        lines += [f"    one = {w.call(step.seats, {}, {}, 'seats')}",
                  "    bits = 0",
                  f"    if 0 <= one < {n}:",  # none: no seat
                  "        bits = 1 << one"]
    lines += [f"    for s in range({n}):",
              f"        l[{row}, s] |= bits",
              "    return DONE", ""]
    return StepCode(w.prefix, "\n".join(lines), 0, expressions=w.expressions)
