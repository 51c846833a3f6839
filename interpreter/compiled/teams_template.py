"""A ``teams`` step written for the compiled backend (the step kind's second template, steps.py, beside
engine/steps/teams.py's written code): each seat's team (the layout's TEAM slots) set as the Python backend sets
them, ``team_counted`` with them. ``PREFIX_start`` does it all and returns ``DONE``.

Fixed partnerships are written as they are. Teams given by an expression are written when it is made of lists of
teams written out (``[A, B]``, each team an expression giving a list of seats), comprehensions of teams (``[[s] for
s in seats if ...]``) and lists of teams joined (``+``), or a constant: every team is worked out before any seat's
team is set, as the Python backend works the whole list out first. Not written (NotWritten): another expression of a
list of lists (a define or a builtin giving the teams), whose lists the arrays do not hold. The teams are not checked
(every seat in exactly one team): the Python backend checks them, and the compiled one plays what it has checked (a
seat more than the seats is left out, a value that is not a seat is not set).

What each seat knows of the teams (``team_known``: None while they are public, else a bit per seat each seat knows
of) is the arrays' ``team known`` row (arrays.py): ``l[row, s]`` seat ``s``'s bits, ``ln[row]`` -1 when the teams
are public; ``team_counted`` is a value slot, set. The step owns no progress slot.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from interpreter.compiled.steps import ARRAYS, StepCode, Writing
from interpreter.compiled.values import NotWritten
from interpreter.dsl.runtime import joined
from interpreter.dsl.types import Type
from interpreter.runtime.layout import COUNTED, KNOWN, TEAM


def write(step: Any, w: Writing) -> StepCode:
    """The compiled template of ``step``, a teams step (see the module's docstring)."""
    n, name = w.players, w.prefix
    team = w.lay.value(TEAM, "", 0)
    lines = [f"def {name}_start({ARRAYS}, p):"]
    if step.fixed is not None:
        lines += [f"    v[{team} + {s}] = {t}" for t, members in enumerate(step.fixed) for s in members]
    else:
        lines += _worked_out(step.expr, w, team)
    row = w.lay.list_of(KNOWN)
    if step.known == "all":
        lines.append(f"    ln[{row}] = -1")
    else:
        known = [1 << s for s in range(n)] if step.known == "own" else [0] * n
        lines += [f"    ln[{row}] = {n}", *(f"    l[{row}, {s}] = {bits}" for s, bits in enumerate(known))]
    counted = int(step.counted and step.known != "all")
    lines += [f"    v[{w.lay.value(COUNTED)}] = {counted}", "    return DONE", ""]
    return StepCode(name, "\n".join(lines), 0, expressions=w.expressions)


def _worked_out(expr: Any, w: Writing, team: int) -> list[str]:
    """The teams an expression gives: every team's seats worked out (into ``who``, each with its team's number in
    ``which``), then each seat's team set."""
    n = w.players
    # (the seats of every team, each with its team's number: a seat more, refused by the Python backend, is left out)
    lines = [*("    " + line for line in Writing.scratch("who", str(n))),
             *("    " + line for line in Writing.scratch("which", str(n))),
             "    k = 0",
             "    t = 0",
             *_teams(expr, expr.part, w, "    "),
             "    for i in range(k):",
             f"        if 0 <= who[i] < {n}:",  # (not a seat: refused by the Python backend)
             f"            v[{team} + who[i]] = which[i]"]
    return lines


def _teams(expr: Any, part: Any, w: Writing, pad: str, names: dict[str, str] | None = None,
           types: dict[str, Type] | None = None) -> list[str]:
    """The lines that add the teams of ``part`` (a list of teams) in turn: a list written out (each item a team), a
    comprehension of teams, two lists of teams joined."""
    names, types = names or {}, types or {}
    if part.const:
        return [line for members in part.value for line in _team(expr, None, list(members), w, pad, names, types)]
    if part.op == "list" and all(k.type.kind == "list" for k in part.kids):
        return [line for kid in part.kids for line in _team(expr, kid, None, w, pad, names, types)]
    if part.op == "call" and part.data[0] is joined:
        return [line for kid in part.kids for line in _teams(expr, kid, w, pad, names, types)]
    if part.op == "for" and part.data[1].type.kind == "list" and part.data[3] is None:
        var, body, cond, _ = part.data
        source = part.kids[0]
        if source.type.element is None or var in names:
            raise NotWritten("teams given by a comprehension of this list")
        d = len(names)  # (comprehensions inside one another: their locals apart)
        x, items, count = f"x{d}", f"items{d}", f"count{d}"
        inner_names, inner_types = {**names, var: x}, {**types, var: source.type.element}
        lines = [*(pad + line for line in _listed_lines(expr, source, w, names, types, items, count)),
                 f"{pad}for j{d} in range({count}):",
                 f"{pad}    {x} = {items}[j{d}]"]
        inner = pad + "    "
        if cond is not None:
            test = w.call(part_expression(expr, cond), inner_names, inner_types, "team_if")
            lines.append(f"{inner}if truth({test}):")
            inner += "    "
        return [*lines, *_team(expr, body, None, w, inner, inner_names, inner_types)]
    raise NotWritten("teams given by an expression other than lists of teams written out, joined or a comprehension")


def _team(expr: Any, part: Any, members: list[Any] | None, w: Writing, pad: str, names: dict[str, str],
          types: dict[str, Type]) -> list[str]:
    """The lines that add one team: its seats (``members`` when they are constants) with the number ``t``."""
    if members is None and part.const:
        members = list(part.value)
    if members is not None:
        seats = [w.lowerer.values.encode(s) for s in members]
        adds = [line for s in seats for line in (f"if k < {w.players}:", f"    who[k] = {s}", "    which[k] = t",
                                                  "    k += 1")]
        return [*(pad + line for line in adds), f"{pad}t += 1"]
    call = w.call(part_expression(expr, part), names, types, "team", lists=True)
    return [*(pad + line for line in w.listed(call, "got", "count")),
            f"{pad}for i in range(count):",
            f"{pad}    if k < {w.players}:",
            f"{pad}        who[k] = got[i]",
            f"{pad}        which[k] = t",
            f"{pad}        k += 1",
            f"{pad}t += 1"]


def _listed_lines(expr: Any, part: Any, w: Writing, names: dict[str, str], types: dict[str, Type], items: str,
                  count: str) -> list[str]:
    """``items, count = `` the list ``part`` gives (written in the source when it is a constant)."""
    if part.const:
        values = [w.lowerer.values.encode(x) for x in part.value]
        return [*Writing.scratch(items, str(len(values))), *(f"{items}[{i}] = {x}" for i, x in enumerate(values)),
                f"{count} = {len(values)}"]
    return w.listed(w.call(part_expression(expr, part), names, types, 'team_items', lists=True), items, count)


def part_expression(expr: Any, part: Any) -> Any:
    """``part`` of ``expr`` as an expression of its own (what Writing.call writes)."""
    return dataclasses.replace(expr, part=part, deps=part.deps, type=part.type)
