"""A ``teams`` step written for the compiled backend (the step kind's second template, steps.py, beside
engine/steps/teams.py's written code): each seat's team (the layout's TEAM slots) set as the Python backend sets
them, ``team_counted`` with them. ``PREFIX_start`` does it all and returns ``DONE``.

Fixed partnerships (or an expression of constants) are written as they are; teams given by an expression are
written when it is a list of teams written out (``[A, B]``, each team an expression giving a list of seats: every
team worked out before any seat's team is set). Not written (NotWritten): another expression of a list of lists
(``[[a], b] + [...]``, a define giving the teams), whose lists the arrays do not hold. The teams are not checked
(every seat in exactly one team): the Python backend checks them, and the compiled one plays what it has checked.

What each seat knows of the teams (``team_known``: None while they are public, else a bit per seat each seat knows
of) is not in the arrays (arrays.py): the step leaves it in its progress slots, ``p[base + s]`` seat ``s``'s bits
(``NONE`` for every seat when the teams are public), for the machine to keep; ``team_counted`` is a value slot, set.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from interpreter.compiled.steps import ARRAYS, StepCode, Writing
from interpreter.compiled.values import NONE, NotWritten
from interpreter.runtime.layout import COUNTED, TEAM


def write(step: Any, w: Writing) -> StepCode:
    """The compiled template of ``step``, a teams step (see the module's docstring)."""
    n, name = w.players, w.prefix
    team = w.lay.value(TEAM, "", 0)
    lines = [f"def {name}_start({ARRAYS}, p):"]
    fixed = step.fixed
    if fixed is None and step.expr.part is not None and step.expr.part.const:  # (an expression of constants)
        fixed = [list(members) for members in step.expr.part.value]
    if fixed is not None:
        lines += [f"    v[{team} + {s}] = {t}" for t, members in enumerate(fixed) for s in members]
    else:
        lines += _worked_out(step.expr, w, team)
    known = [NONE] * n if step.known == "all" else [1 << s for s in range(n)] if step.known == "own" else [0] * n
    lines += [f"    {w.at(s)} = {bits}" for s, bits in enumerate(known)]
    counted = int(step.counted and step.known != "all")
    lines += [f"    v[{w.lay.value(COUNTED)}] = {counted}", "    return DONE", ""]
    return StepCode(name, "\n".join(lines), n, expressions=w.expressions)


def _worked_out(expr: Any, w: Writing, team: int) -> list[str]:
    """The teams a list of teams written out gives: each team's seats worked out, then each seat's team set."""
    part = expr.part
    if part is None or part.op != "list" or any(k.type.kind != "list" for k in part.kids):
        raise NotWritten("teams given by an expression other than a list of teams written out")
    lines = []
    for t, kid in enumerate(part.kids):
        one = dataclasses.replace(expr, part=kid, deps=kid.deps, type=kid.type)
        if kid.const:
            seats = [w.lowerer.values.encode(s) for s in kid.value]
            lines += [f"    team{t} = np.array([{', '.join(map(str, seats))}, 0], np.int64)",
                      f"    count{t} = {len(seats)}"]
        else:
            lines.append(f"    team{t}, count{t} = {w.call(one, {}, {}, 'team', lists=True)}")
    for t in range(len(part.kids)):
        lines += [f"    for i in range(count{t}):",
                  f"        v[{team} + team{t}[i]] = {t}"]
    return lines
