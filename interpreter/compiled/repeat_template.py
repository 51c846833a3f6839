"""A ``repeat`` step written for the compiled backend (the step kind's second template, steps.py, beside
engine/steps/repeat_code.py's): its steps run in order, again and again, until ``times`` times have run or ``until``
holds (checked after each time), the round value ``set`` names counting the times (1, 2, ...).

Each step it holds is written by its own kind's template (kinds.py), with a Writing of its own: its prefix the
repeat's and ``i`` and its index (``s3i0``), its progress slots a region of the repeat's. The repeat enters its steps
as the Python backend's list of steps does (engine/steps/steps_code.py): from a step on, a step whose ``when`` (or
``guard``) fails passed over, a step that has nothing to decide done in its start, until one decides; while that
one decides, the repeat's ``PREFIX_legal`` and ``PREFIX_apply`` are its, and once it is done the steps after it are
entered, then the next time begins.

Its progress slots, from its base: ``ASK`` the seat to act (a copy of the deciding step's first slot: every deciding
template keeps its seat there), ``INNER`` the step running (-1: none), ``TIME`` the times begun, ``TIMES`` how many
times to run (-1: no ``times``, ``until`` alone ends it); then each step's own slots, one region after another (one
step's progress never shares a slot with another's: a template may keep scratch slots it expects cleared).

An action is the action of the step deciding. ``StepCode.action_of`` maps the Python backend's action through the
step it names: ``action_of(action, step)``; given the action alone it takes the one mapping the repeat's deciding steps
agree on (one deciding step, or several that map it alike), else NotWritten names the ambiguity.

Where the Python backend stops with a mistake of the rules (``times`` that is no whole number from 0 to 1000, an
``until`` that never holds in 1000 times), the compiled backend ends the step: it plays only what the checked path has
played. Not written (NotWritten): a step held that is dealt by chance (no rule file can put one in a repeat), and
whatever a held step's own template does not write (its NotWritten is the repeat's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.compiled.steps import ARRAYS, StepCode, Writing, held_actions, held_legal
from interpreter.compiled.values import NotWritten
from interpreter.engine.faults import MAX_TIMES
from interpreter.runtime.layout import ROUND

ASK, INNER, TIME, TIMES = range(4)
HEAD = 4  # the repeat's own slots, before its steps'


def write(step: Any, w: Writing, step_code: Callable[[Any, Writing], StepCode]) -> StepCode:
    """The compiled template of ``step``, a repeat step (see the module's docstring), each step it holds written by
    ``step_code`` (kinds.py's: the template of its kind)."""
    return _RepeatWriter(step, w, step_code).code()


class _RepeatWriter:
    def __init__(self, step: Any, w: Writing, step_code: Callable[[Any, Writing], StepCode]):
        self.step, self.w, self.name = step, w, w.prefix
        self.codes: list[StepCode] = []
        self.bases: list[int] = []
        base = w.base + HEAD
        for k, inner in enumerate(step.inner):
            writing = Writing(w.lay, w.lowerer, f"{w.prefix}i{k}", base)
            code = step_code(inner, writing)
            if code.deals:
                raise NotWritten(f"a step dealt by chance inside a repeat ({inner.name!r})")
            self.codes.append(code)
            self.bases.append(base)
            base += code.size
        self.size = base - w.base
        self.deciding = [k for k, c in enumerate(self.codes) if c.decides]

    def code(self) -> StepCode:
        lines = self._enter() + self._next_time() + self._start()
        if self.deciding:
            lines += self._legal() + self._apply()
        expressions = self.w.expressions
        for code in self.codes:
            expressions += code.expressions
        source = "\n".join([*(c.source for c in self.codes), *lines])
        most = max((c.size if c.actions is None else c.actions for c in self.codes), default=0)
        return StepCode(self.name, source, self.size, decides=bool(self.deciding), expressions=expressions,
                        action_of=self._action_of() if self.deciding else None, deciders=self._deciders(),
                        actions=most)

    # ------------------------------------------------------------------------------------------------ the parts

    def _enter(self) -> list[str]:
        """``PREFIX_enter``: the steps from the ``i``-th until one decides (DECIDES, its seat copied to ``ASK``), or
        DONE (``INNER`` -1) when none does."""
        w, name = self.w, self.name
        lines = [f"def {name}_enter({ARRAYS}, p, i):",
                 "    k = i",
                 f"    while k < {len(self.codes)}:",
                 f"        {w.at(INNER)} = k"]
        for k, (inner, code) in enumerate(zip(self.step.inner, self.codes, strict=True)):
            lines.append(f"        {'if' if k == 0 else 'elif'} k == {k}:")
            pad = "            "
            for condition in (c for c in (inner.guard, inner.when) if c is not None):
                lines.append(f"{pad}if truth({w.call(condition, {}, {}, 'when')}):")
                pad += "    "
            lines.append(f"{pad}r = {code.prefix}_start({ARRAYS}, p)")
            if code.decides:
                lines += [f"{pad}if r != DONE:",
                          f"{pad}    {w.at(ASK)} = p[{self.bases[k]}]",
                          f"{pad}    return r"]
        return [*lines, "        k += 1", f"    {w.at(INNER)} = -1", "    return DONE", ""]

    def _next_time(self) -> list[str]:
        """``PREFIX_next_time``: after a time is over (or before the first), ``times`` and ``until``, then the next
        time that has something to decide (DECIDES), or DONE: the repetition is over."""
        w, name, step = self.w, self.name, self.step
        lines = [f"def {name}_next_time({ARRAYS}, p):",
                 "    while True:",
                 f"        if {w.at(TIMES)} >= 0 and {w.at(TIME)} >= {w.at(TIMES)}:",
                 "            break"]
        if step.until is not None:
            lines += [f"        if {w.at(TIME)} > 0 and truth({w.call(step.until, {}, {}, 'until')}):",
                      "            break"]
        lines += [f"        if {w.at(TIME)} >= {MAX_TIMES}:",  # (the Python backend stops: until never held)
                  "            break",
                  f"        {w.at(TIME)} += 1"]
        if step.counter:
            lines.append(f"        v[{self._counter()}] = {w.at(TIME)}")
        lines += [f"        if {name}_enter({ARRAYS}, p, 0) != DONE:",
                  "            return DECIDES",
                  f"    {w.at(INNER)} = -1",
                  "    return DONE", ""]
        return lines

    def _counter(self) -> int:
        try:
            return self.w.lay.value(ROUND, self.step.counter)
        except (KeyError, ValueError):
            raise NotWritten(f"the round value {self.step.counter!r}, which the arrays do not hold") from None

    def _start(self) -> list[str]:
        """``PREFIX_start``: how many times (none: -1), then the first time that has something to decide."""
        w, name, step = self.w, self.name, self.step
        lines = [f"def {name}_start({ARRAYS}, p):", f"    {w.at(TIME)} = 0", f"    {w.at(INNER)} = -1"]
        if step.times is None:
            lines.append(f"    {w.at(TIMES)} = -1")
        else:  # (a number the Python backend refuses: no time is run)
            lines += [f"    times = {w.call(step.times, {}, {}, 'times')}",
                      f"    {w.at(TIMES)} = times if 0 <= times <= {MAX_TIMES} else 0"]
        return [*lines, f"    return {name}_next_time({ARRAYS}, p)", ""]

    def _legal(self) -> list[str]:
        """``PREFIX_legal``: the legal actions of the step deciding."""
        return held_legal(f"{self.name}_legal", self.w.at(INNER), [(k, self.codes[k].prefix) for k in self.deciding],
                          "-1")

    def _apply(self) -> list[str]:
        """``PREFIX_apply``: the step deciding takes ``action``; once it is done, the steps after it, then the next
        time."""
        w, name = self.w, self.name
        lines = [f"def {name}_apply({ARRAYS}, p, action):", f"    k = {w.at(INNER)}", "    r = DONE"]
        for n, k in enumerate(self.deciding):
            lines += [f"    {'if' if n == 0 else 'elif'} k == {k}:",
                      f"        r = {self.codes[k].prefix}_apply({ARRAYS}, p, action)",
                      "        if r != DONE:",
                      f"            {w.at(ASK)} = p[{self.bases[k]}]",
                      "            return r"]
        return [*lines,
                f"    if {name}_enter({ARRAYS}, p, k + 1) != DONE:",
                "        return DECIDES",
                f"    return {name}_next_time({ARRAYS}, p)", ""]

    def _deciders(self) -> list[tuple[str, Any, Any]]:
        """Which held step decides (steps.StepCode.deciders): the one running; each's own parts (a trick's) as its
        code says, under it."""
        if len(self.deciding) < 2 and not any(self.codes[k].deciders for k in self.deciding):
            return []
        out: list[tuple[str, Any, Any]] = []
        for k in self.deciding:
            running = f"{self.w.at(INNER)} == {k}"
            out += [(f"{running} and {test}", step, accepts) for test, step, accepts in self.codes[k].deciders]
            out.append((running, self.step.inner[k], None))
        return out

    def _action_of(self) -> Callable[..., int]:
        """The Python backend's action as the int the deciding step takes (see the module's docstring)."""
        by_step = {self.step.inner[k].name: self.codes[k].action_of for k in self.deciding}
        return held_actions(by_step, f"repeat {self.step.name!r}")
