"""A ``board`` step written for the compiled backend: its start, the spaces the seat to act may cover and a space
covered, over the arrays (arrays.py) and the progress array, as functions in the subset of Python the compiled backend
compiles (the step kind's second template, steps.py, beside engine/steps/board_code.py's).

An action is one whole number: ``row * WIDTH + space``, the row's place in the step's rows and the space's in its
row, ``WIDTH`` the longest row's number of spaces (``StepCode.action_of`` maps the Python backend's ``Cover(row,
space)`` to it through ``Covers``).

Its progress slots, from the step's base: ``TURN``, the seat to act; from ``SPACES``, one slot per action (row by
row, ``WIDTH`` each): ``OPEN`` (-1) while the space is open, else the seat that covered it, or ``SHUT`` (-2) for a
space covered before play (a row's ``covered``) and for the slots past a short row's end.

As the Python backend plays it: the first seat is ``first`` (default: the dealer); the seat to act may cover each
open space for which ``coverable`` holds (``seat``, ``open`` the open spaces of its row, ``row`` its name, ``space``
its value; default: a row's spaces while it has more than one open), and is asked even when it has one space to
cover (a board takes nothing by itself); the turn passes to ``next`` (default: the left neighbour); when the seat to
act may cover nothing the step ends, and each row with exactly one open space sets the round value named after the
row to that space's value (a row with several open, or none, sets none). A space's value is the whole number
``Values.encode`` gives the Python backend's (a seat, a number, a text, a record: interned when the template is
written, so that ``Values.field_table`` has its fields when the module is linked). Everything of the rows is
written in place: no table, no allocation.

Every option is written. Not written (``NotWritten``): a space whose value is not one number for the arrays (a list,
a fraction), and a row whose round value the arrays do not hold as one value. What the compiled source does not do
that the Python backend's does: tell (the board's words and narration), and check ``next`` (a ``next`` giving no
seat is reported by the Python backend, the checked path; here it is not).
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from interpreter.compiled.steps import ARRAYS, StepCode, Writing
from interpreter.compiled.values import NotWritten
from interpreter.dsl.types import SEAT, VALUE, Type
from interpreter.runtime.layout import DEALER, ROUND

TURN, SPACES = 0, 1
OPEN, SHUT = -1, -2
_NAMES: dict[str, Type] = {"seat": SEAT, "open": VALUE, "row": VALUE, "space": VALUE}  # the names its expressions bind


class Covers(NamedTuple):
    """How a board's actions are numbered: ``row * width + space``."""

    width: int

    def action(self, cover: Any) -> int:
        """The Python backend's ``Cover(row, space)`` as the template's action."""
        return int(cover[0]) * self.width + int(cover[1])


def write(step: Any, w: Writing) -> StepCode:
    """The compiled template of ``step``, a board step (see the module's docstring)."""
    return _BoardWriter(step, w).code()


class _BoardWriter:
    def __init__(self, step: Any, w: Writing):
        self.step, self.w, self.name = step, w, w.prefix
        self.width = max(len(row.values) for row in step.rows)
        encode = w.lowerer.values.encode
        self.values = [[self._number(encode, row.key, value) for value in row.values] for row in step.rows]
        self.keys = [encode(row.key) for row in step.rows] if step.coverable is not None else []
        self.slots = []
        for row in step.rows:
            try:
                self.slots.append(w.lay.value(ROUND, row.key))
            except KeyError:
                raise NotWritten(f"a board row whose round value the arrays hold as a list ({row.key!r})") from None

    @staticmethod
    def _number(encode: Any, key: str, value: Any) -> int:
        if isinstance(value, (list, float)):
            raise NotWritten(f"a board space whose value is not one number for the arrays (row {key!r})")
        return int(encode(value))

    @functools.cached_property
    def may(self) -> str | None:
        """The call of ``coverable`` (written once, called for each open space), or None for the default."""
        if self.step.coverable is None:
            return None
        return self.w.call(self.step.coverable, {"open": "n", "row": "key", "space": "space"}, _NAMES, "coverable")

    def at(self, slot: int) -> str:
        return self.w.at(slot)

    def space(self, r: int, i: int) -> str:
        """The source of the progress slot of space ``i`` of row ``r``."""
        return self.at(SPACES + r * self.width + i)

    def code(self) -> StepCode:
        lines = self._start() + self._scan("legal", "out") + self._scan("any", None) + self._apply() + self._settle()
        covers = Covers(self.width)
        return StepCode(self.name, "\n".join(lines), SPACES + len(self.step.rows) * self.width, decides=True,
                        expressions=self.w.expressions, action_of=covers.action)

    # ------------------------------------------------------------------------------------------------ the parts

    def _start(self) -> list[str]:
        """The first seat, the spaces open at the start; the board settled at once when it may cover none."""
        step, n = self.step, self.name
        first = self.w.call(step.first, {}, _NAMES, "first") if step.first is not None else \
            f"v[{self.w.lay.value(DEALER)}]"
        lines = [f"def {n}_start({ARRAYS}, p):",
                 f"    {self.at(TURN)} = {first}"]
        for r, row in enumerate(step.rows):
            lines += [f"    {self.space(r, i)} = {SHUT if i >= len(row.covered) or row.covered[i] else OPEN}"
                      for i in range(self.width)]
        return lines + self._over() + [""]

    def _over(self) -> list[str]:
        """The end of start and apply: DECIDES while the seat to act may cover a space, else the board settled."""
        return [f"    if {self.name}_any({ARRAYS}, p) == 0:",
                f"        {self.name}_settle({ARRAYS}, p)",
                "        return DONE",
                "    return DECIDES"]

    def _scan(self, what: str, out: str | None) -> list[str]:
        """``PREFIX_legal``, the spaces the seat to act may cover written into ``out`` (row by row, each row's in
        order, as the Python backend lists them) and their number; or ``PREFIX_any`` (``out`` None): 1 at the
        first such space, else 0."""
        may = self.may
        lines = [f"def {self.name}_{what}({ARRAYS}, p{', ' + out if out else ''}):", "    k = 0"]
        for r, values in enumerate(self.values):
            opened = [self.space(r, i) for i in range(len(values))]
            lines += ["    n = 0", *(f"    n += 1 if {s} == {OPEN} else 0" for s in opened)]
            if may is None:  # the default: never a row's last open space
                lines += ["    if n > 1:"]
                for i, s in enumerate(opened):
                    lines += [f"        if {s} == {OPEN}:", *self._found(out, r * self.width + i, "            ")]
            else:
                lines += [f"    key = {self.keys[r]}"]
                for i, s in enumerate(opened):
                    lines += [f"    if {s} == {OPEN}:",
                              f"        space = {values[i]}",
                              f"        if truth({may}):", *self._found(out, r * self.width + i, "            ")]
        return [*lines, f"    return {'k' if out else 0}", ""]

    @staticmethod
    def _found(out: str | None, action: int, pad: str) -> list[str]:
        if out is None:
            return [f"{pad}return 1"]
        return [f"{pad}{out}[k] = {action}", f"{pad}k += 1"]

    def _apply(self) -> list[str]:
        """The seat to act covers the space ``action``; the turn passes; the board settled once none may be
        covered."""
        step = self.step
        if step.next is not None:
            nxt = self.w.call(step.next, {"seat": "seat"}, _NAMES, "next")
        else:
            nxt = f"seat + 1 if seat + 1 < {self.w.players} else 0"
        return [f"def {self.name}_apply({ARRAYS}, p, action):",
                f"    seat = {self.at(TURN)}",
                f"    p[{self.w.base + SPACES} + action] = seat",
                f"    {self.at(TURN)} = {nxt}",
                *self._over(), ""]

    def _settle(self) -> list[str]:
        """Each row's round value: its one open space's value, or none (several open, or none)."""
        lines = [f"def {self.name}_settle({ARRAYS}, p):"]
        for r, values in enumerate(self.values):
            lines += ["    n = 0", "    value = NONE"]
            for i, value in enumerate(values):
                lines += [f"    if {self.space(r, i)} == {OPEN}:", "        n += 1", f"        value = {value}"]
            lines += [f"    v[{self.slots[r]}] = value if n == 1 else NONE"]
        return [*lines, ""]
