"""The steps a ``tricks`` step runs (``between_plays``, ``after_trick``), written for the compiled backend
(trick_template.py) as engine/steps/trick_code.py and steps_code.py run them: each step written by its own kind's
template (kinds.step_code, given as ``Writing.inner``) with a ``Writing`` of its own base in the trick's progress
(after the trick's regions, a slot that says which step runs, then each step's own slots), whose ``outer`` gives the
names the trick binds for it, worked out from the trick's progress as the Python backend works them out
(trick_reading.py's BETWEEN_NAMES and AFTER_NAMES):

* between plays: ``player`` (the seat that has just played), ``trick`` and ``trick_seats`` (the plays so far, their
  cards and their seats), ``led`` (the card that sets the suit);
* after a trick: ``winner``, ``takers`` (the trick's takers, none for one not found), ``last_trick`` and
  ``trick_seats`` (the trick just taken: its plays stay in the progress until the next trick begins).

The steps between plays are entered after every card but the last, once the next seat to play is known; those after
a trick once its cards are taken (by every taker), before the next leader is found. Entering goes from step to step
(``NAME_enter_between``, ``NAME_enter_after``, from a step's index), a step whose ``when`` fails passed over, until
one decides: its index (among the steps between plays, then those after a trick) is kept in the trick's slot for
it and its seat to act copied to the trick's ``ASK``, and the trick's legal actions and action taken are that
step's (``NAME_hook_legal``, ``NAME_hook_apply``) until it is done; then the steps after it are entered, and once
the list is done the trick goes on: the next seat is asked to play, or the next trick begins. A trick without such
steps has none of this written (no test per card).

An action of a step the trick runs is that step's (a choice's value...): ``action_of`` maps the Python backend's
action to it with the mapping of the step that decides; where several steps decide, the one action must be the same
number for each of them that can take it (else NotWritten: which step decides is not in the action).

A step of a kind or with an expression the compiled backend does not write raises NotWritten, naming it and the
trick's option. A step that deals (none of the kinds a trick may run does) is not written.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from interpreter.compiled.steps import ARRAYS, StepCode, Writing, held_actions, held_legal
from interpreter.compiled.trick_progress import ASK, PLAYED, WINNER
from interpreter.compiled.values import NotWritten
from interpreter.engine.steps.trick_reading import AFTER_NAMES, BETWEEN_NAMES


@dataclass
class Hook:
    """One step the trick runs, written: its list (``between`` or ``after``), its index among all the trick's steps,
    its code and its first progress slot (from the game's)."""

    which: str
    index: int
    step: Any
    code: StepCode
    base: int
    conditions: list[str]  # the sources of its guard and its when (each must hold for it to be entered)


class Hooks:
    """The steps a trick step ``t`` (trick_template.TrickWriter) runs, written from the first slot ``first`` after its
    regions (see the module's docstring)."""

    def __init__(self, t: Any, first: int):
        self.t = t
        self.hooks: list[Hook] = []
        self.slot = first  # which step runs (its index; -1: none), then each step's own slots
        base = first + 1
        step_code = t.w.inner
        for which, steps in (("between", t.step.between), ("after", t.step.after)):
            outer = self._names(which)
            for k, step in enumerate(steps):
                assert step_code is not None, "a trick is written by kinds.step_code, which gives its steps' writer"
                w = Writing(t.lay, t.w.lowerer, f"{t.name}_{which[0]}{k}", base, t.w.expressions, outer)
                try:
                    code = step_code(step, w)
                    conditions = [w.call(c, {}, {}, "when") for c in (step.guard, step.when) if c is not None]
                except NotWritten as e:
                    raise NotWritten(f"{e} (in {step.name!r}, a step of a trick's {_OPTION[which]})") from None
                if code.deals:
                    raise NotWritten(f"a step that deals inside a trick ({step.name!r})")
                self.hooks.append(Hook(which, len(self.hooks), step, code, base, conditions))
                base += code.size
        self.size = base - first if self.hooks else 0  # the slots kept for the steps (none without steps)
        self.deciding = [h for h in self.hooks if h.code.decides]

    @property
    def at(self) -> str:
        """The source of the slot that says which step runs."""
        return f"p[{self.slot}]"

    def __bool__(self) -> bool:
        return bool(self.hooks)

    def of(self, which: str) -> list[Hook]:
        return [h for h in self.hooks if h.which == which]

    def _names(self, which: str) -> dict[str, tuple[str, Any]]:
        """The names the trick binds for its steps ``which``, each as its source over the progress, and its type."""
        t, regions = self.t, self.t.regions
        seats = t.span(regions.seats, t.at(PLAYED))
        if which == "between":
            sources = {"player": t.at_(regions.seats, f"{t.at(PLAYED)} - 1"), "trick": t.cards(),
                       "trick_seats": seats, "led": f"{t.name}_led({ARRAYS}, p)"}
            types = BETWEEN_NAMES
        else:
            sources = {"winner": t.at(WINNER), "takers": t.span(regions.takers, str(len(t.step.takers))),
                       "last_trick": t.cards(), "trick_seats": seats}
            types = AFTER_NAMES
        assert set(sources) == set(types), "each name the trick binds for its steps is given here"
        return {name: (sources[name], types[name]) for name in types}

    # ------------------------------------------------------------------------------------------------ the source

    def source(self) -> list[str]:
        """The steps' own functions, then the entering of each list and the dispatch to the step that decides."""
        lines = [code for h in self.hooks for code in (h.code.source, "")]
        for which in ("between", "after"):
            if self.of(which):
                lines += self._enter(which)
        if self.deciding:
            lines += self._legal() + self._apply()
        return lines

    def entry(self, which: str, pad: str) -> list[str]:
        """The lines that enter the steps ``which`` from the first (none when there are none): a step that decides
        returns DECIDES from the function they are in."""
        if not self.of(which):
            return []
        return [f"{pad}if {self.t.name}_enter_{which}({ARRAYS}, p, 0) != DONE:", f"{pad}    return DECIDES"]

    def _enter(self, which: str) -> list[str]:
        """``NAME_enter_WHICH(arrays, p, i)``: the steps ``which`` entered from their ``i``-th until one decides
        (DECIDES, its index kept and its seat at ASK) or all are done (DONE, the index -1)."""
        t, hooks = self.t, self.of(which)
        lines = [f"def {t.name}_enter_{which}({ARRAYS}, p, i):",
                 f"    while i < {len(hooks)}:",
                 f"        {self.at} = {hooks[0].index} + i"]
        for k, h in enumerate(hooks):
            lines.append(f"        {'if' if k == 0 else 'elif'} i == {k}:")
            pad = "            "
            for condition in h.conditions:
                lines.append(f"{pad}if truth({condition}):")
                pad += "    "
            if h.code.decides:
                lines += [f"{pad}if {h.code.prefix}_start({ARRAYS}, p) != DONE:", f"{pad}    {t.at(ASK)} = p[{h.base}]",
                          f"{pad}    return DECIDES"]
            else:  # (it does its work and is done)
                lines.append(f"{pad}{h.code.prefix}_start({ARRAYS}, p)")
        return [*lines, "        i += 1", f"    {self.at} = -1", "    return DONE", ""]

    def _legal(self) -> list[str]:
        """``NAME_hook_legal``: the legal actions of the step that decides."""
        return held_legal(f"{self.t.name}_hook_legal", self.at, [(h.index, h.code.prefix) for h in self.deciding],
                          "0")

    def _apply(self) -> list[str]:
        """``NAME_hook_apply``: the action taken by the step that decides; then its next decision, or the steps
        after it entered, and once its list is done the trick goes on (the next seat asked to play, or the trick
        closed and the next one begun)."""
        t = self.t
        lines = [f"def {t.name}_hook_apply({ARRAYS}, p, action):", f"    hook = {self.at}"]
        for k, h in enumerate(self.deciding):
            lines += [f"    {'if' if k == 0 else 'elif'} hook == {h.index}:",
                      f"        if {h.code.prefix}_apply({ARRAYS}, p, action) != DONE:",
                      f"            {t.at(ASK)} = p[{h.base}]",
                      "            return DECIDES"]
        between = len(self.of("between"))
        if between and len(self.of("after")):
            lines += [f"    if hook < {between}:", *("    " + line for line in self._went_on("between", "hook + 1")),
                      *self._went_on("after", f"hook - {between - 1}")]
        elif between:
            lines += self._went_on("between", "hook + 1")
        else:
            lines += self._went_on("after", "hook + 1")
        return [*lines, ""]

    def _went_on(self, which: str, start: str) -> list[str]:
        """The steps ``which`` entered from ``start``; once done, the trick goes on."""
        t = self.t
        lines = [f"    if {t.name}_enter_{which}({ARRAYS}, p, {start}) != DONE:", "        return DECIDES"]
        if which == "between":
            return [*lines, f"    {t.name}_ask({ARRAYS}, p)", "    return DECIDES"]
        return [*lines, f"    return {t.name}_close({ARRAYS}, p)"]

    def action_of(self, own: Callable[[Any], int], own_types: tuple[type, ...]) -> Callable[[Any], int]:
        """The Python backend's action of the trick as the number its template takes: the trick's own (``own``, for
        an action of ``own_types``), else that of the step that decides (see the module's docstring)."""
        if not any(h.code.action_of is not None for h in self.deciding):
            return own
        return held_actions({h.step.name: h.code.action_of for h in self.deciding}, f"trick {self.t.step.name!r}",
                            own, own_types)


_OPTION = {"between": "between_plays", "after": "after_trick"}
